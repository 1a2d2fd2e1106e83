"""Entry points: the ``companion`` console script and ``python -m companion``."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run one command and return its exit code (0 ok, 1 error, 2 usage, 130 interrupted)."""
    from companion.cli.app import app
    from companion.cli.group import EXIT_INTERRUPTED

    try:
        return int(app(args=argv, prog_name="companion", standalone_mode=False) or 0)
    except KeyboardInterrupt:
        sys.stderr.write("\ncompanion: interrupted; every completed action is saved.\n")
        return EXIT_INTERRUPTED


def run() -> None:
    sys.exit(main())
