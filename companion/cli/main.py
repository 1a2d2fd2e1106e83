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

        try:
            code = int(root_command().main(args=argv, prog_name="companion", standalone_mode=False) or 0)
        finally:
            _notices()
        finish()  # inside the try: a signal up to here is the command's, and says its line
    except KeyboardInterrupt as exc:
        line, code = interrupted_line(exc)
        sys.stderr.write("\n" + line + "\n")
        sys.stderr.flush()
        finish()
    except Exception as exc:  # no traceback reaches the player; COMPANION_DEBUG=1 shows it
        code = unexpected(exc)
        finish()
    return code


def _notices() -> None:
    """What the store replaced and no command said yet (a link where a cache of its own was), once."""
    store = sys.modules.get("companion.store.atomic")
    if store is None:
        return
    from companion.cli.env import said

    for line in store.taken_notices():
        try:
            sys.stderr.write(f"companion: {said(line)}\n")
            sys.stderr.flush()
        except OSError:
            pass


def unexpected(exc: Exception) -> int:
    """One line for an error nothing else explained (exit 1); the traceback with COMPANION_DEBUG=1."""
    import os

    try:
        if os.environ.get("COMPANION_DEBUG"):
            import traceback

            traceback.print_exception(exc)
        else:
            what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            from companion.controls import visible

            hint = "set COMPANION_DEBUG=1 to see the traceback"
            sys.stderr.write(f"companion: unexpected error ({visible(what)[:300]}); {hint}\n")
        sys.stderr.flush()
    except OSError:
        pass
    if isinstance(exc, OSError):  # perhaps the output itself: say nothing more at exit
        from companion.cli.env import silence

        silence(sys.stdout)
    return 1


def run() -> None:
    sys.exit(main())
