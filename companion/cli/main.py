"""Entry points: the ``companion`` console script and ``python -m companion``."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run one command and return its exit code (0 ok, 1 error, 2 usage, 130 interrupted)."""
    from companion.cli.group import interrupted_line, on_signals

    try:
        on_signals()
        from companion.cli.app import root_command

        return int(root_command().main(args=argv, prog_name="companion", standalone_mode=False) or 0)
    except KeyboardInterrupt as exc:
        line, code = interrupted_line(exc)
        sys.stderr.write("\n" + line + "\n")
        return code


def run() -> None:
    sys.exit(main())
