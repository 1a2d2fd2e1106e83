"""``companion completion SHELL`` prints the completion script for bash, zsh or fish; ``companion completion
install [SHELL]`` puts it where the shell reads it (companion/cli/complete_install.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli.complete import completion_words, shell_names

if TYPE_CHECKING:
    from companion.cli.env import Env

#: The shells companion prints a completion script for.
INSTALL = ("bash", "zsh", "fish")


def completion(
    ctx: typer.Context,
    shell: Annotated[
        str,
        typer.Argument(
            help="bash, zsh or fish: print its script; or install.",
            autocompletion=completion_words,
            show_default=False,
            metavar="SHELL|install",
        ),
    ],
    which: Annotated[
        str | None,
        typer.Argument(
            help="After install: bash, zsh or fish (the default: your login shell's, else bash).",
            autocompletion=shell_names,
            show_default=False,
            metavar="SHELL",
        ),
    ] = None,
    no_rc: Annotated[
        bool, typer.Option("--no-rc", help="install: print the line your shell's rc file needs, do not add it.")
    ] = False,
) -> None:
    """Tab completion for your shell: commands, options, session, game and variant names.

    With install, the script goes where your shell reads it and, for bash and zsh, one line that
    reads it goes into ~/.bashrc or ~/.zshrc (once: a second install finds it there). It works
    without the bash-completion package, and honours XDG_DATA_HOME.

    \b
    Examples:
      companion completion install
      companion completion install zsh
      companion completion install bash --no-rc
      companion completion bash
      companion completion fish
    \b
    Then open a new terminal, and Tab completes companion.
    """
    env: Env = ctx.obj
    from companion.errors import InputError
    from companion.i18n import _, quote

    name = shell.strip().lower()
    install = name == "install"
    if install:
        name = (which or _login_shell()).strip().lower()
    elif which is not None:
        raise InputError(
            _("completion takes one shell; to install it: companion completion install {shell}").format(shell=name)
        )
    if name not in INSTALL:
        raise InputError(_("no completion for {shell}; use bash, zsh or fish").format(shell=quote(which or shell)))
    if no_rc and not install:
        raise InputError(
            _("--no-rc goes with install: companion completion install {shell} --no-rc").format(shell=name)
        )
    from typer._completion_shared import get_completion_script

    script = get_completion_script(prog_name="companion", complete_var="_COMPANION_COMPLETE", shell=name)
    # typer's bash template writes IFS=$'\n' with a real line break inside the quotes; spell it out.
    script = script.replace("$'\n'", "$'\\n'").strip("\n") + "\n"
    if install:
        from companion.cli.complete_install import install as put

        for line in put(name, script, edit_rc=not no_rc):
            env.echo(line)
        return
    env.stdout.write(script)
    env.stdout.flush()


def _login_shell() -> str:
    """The shell to install for when none is named: the login shell's name if companion knows it."""
    import os

    name = os.path.basename(os.environ.get("SHELL", ""))
    return name if name in INSTALL else "bash"


app = typer.Typer(rich_markup_mode=None)
app.command("completion")(completion)
