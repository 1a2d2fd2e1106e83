"""The root command group: the one place where errors become one line and an exit code.

- a :class:`~companion.errors.CompanionError` prints its line and exits with its code (1, or 2 for
  bad input);
- a usage error from the CLI framework prints one line (not a panel) and exits 2;
- Ctrl-C exits 130 and Ctrl-D (end of input) exits 1, after saying that completed actions are saved.

Every command runs inside :meth:`CompanionGroup.invoke`, so no command repeats this.
"""

from __future__ import annotations

import sys
from typing import Any

from typer.core import TyperGroup

from companion.errors import CompanionError

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def _stderr_line(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def _is_click_exception(exc: BaseException) -> bool:
    # typer vendors click privately; recognise its exceptions by their interface, not their module.
    return hasattr(exc, "format_message") and hasattr(exc, "exit_code") and hasattr(exc, "show")


class CompanionGroup(TyperGroup):
    """A TyperGroup that turns every expected failure into one line and the documented exit code.

    It also mounts each game's own command group (``companion tower ...``) lazily: the game's CLI
    module is imported only when that group is run or help lists it.
    """

    def list_commands(self, ctx: Any) -> list[str]:
        names = list(super().list_commands(ctx))
        if ctx.parent is None:
            from companion.games import COMMAND_GROUPS

            names.extend(n for n in COMMAND_GROUPS if n not in names)
        return names

    def get_command(self, ctx: Any, name: str) -> Any:
        command = super().get_command(ctx, name)
        if command is None and ctx.parent is None:
            from companion.games import COMMAND_GROUPS

            target = COMMAND_GROUPS.get(name)
            if target is not None:
                import importlib

                import typer

                module, _, attr = target.partition(":")
                sub = getattr(importlib.import_module(module), attr)
                command = typer.main.get_command(sub)
                command.name = name
        return command

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except CompanionError as exc:
            _stderr_line(f"companion: {exc.message}")
            if exc.hint:
                _stderr_line(f"  {exc.hint}")
            raise _exit(exc.exit_code) from None
        except EOFError:
            _stderr_line("\ncompanion: end of input; every completed action is saved.")
            raise _exit(EXIT_ERROR) from None
        except KeyboardInterrupt:
            _stderr_line("\ncompanion: interrupted; every completed action is saved.")
            raise _exit(EXIT_INTERRUPTED) from None

    def main(  # type: ignore[override]
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            rv = super().main(
                args=args,
                prog_name=prog_name or "companion",
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
            code = rv if isinstance(rv, int) else EXIT_OK
        except Exception as exc:
            if _is_click_exception(exc):
                code = exc.exit_code  # type: ignore[attr-defined]
                command = getattr(getattr(exc, "ctx", None), "command_path", None) or "companion"
                message = exc.format_message()  # type: ignore[attr-defined]
                help_hint = f" (see '{command} --help')" if code == EXIT_USAGE else ""
                _stderr_line(f"{command}: {message}{help_hint}")
            elif type(exc).__name__ == "Abort":  # typer's Ctrl-D while parsing
                _stderr_line("companion: end of input; every completed action is saved.")
                code = EXIT_ERROR
            else:
                raise
        if standalone_mode:
            sys.exit(code)
        return code


def _exit(code: int) -> BaseException:
    import typer

    return typer.Exit(code)
