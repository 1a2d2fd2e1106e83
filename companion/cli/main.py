"""Entry points: the ``companion`` console script and ``python -m companion``."""

from __future__ import annotations

import sys

# Only the standard library here: main() installs the signal handlers before typer or any command is
# imported (companion.cli.signals). Before that, a signal is Python's silent default death, with
# nothing begun.
from companion.cli.signals import finish, interrupted_line, on_signals


def main(argv: list[str] | None = None) -> int:
    """Run one command and return its exit code (0 ok, 1 error, 2 usage, 130 interrupted)."""
    try:
        on_signals()
        from companion.cli.app import root_command

        code = int(root_command().main(args=argv, prog_name="companion", standalone_mode=False) or 0)
        finish()  # inside the try: a signal up to here is the command's, and says its line
    except KeyboardInterrupt as exc:
        line, code = interrupted_line(exc)
        sys.stderr.write("\n" + line + "\n")
        sys.stderr.flush()
        finish()
    return code


def run() -> None:
    sys.exit(main())
