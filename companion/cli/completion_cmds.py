"""``companion completion SHELL``: print the shell completion script for bash, zsh or fish."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli.complete import shell_names

if TYPE_CHECKING:
    from companion.cli.env import Env

INSTALL = {
    "bash": "companion completion bash > ~/.local/share/bash-completion/completions/companion",
    "zsh": "companion completion zsh > ~/.zfunc/_companion   (with fpath+=~/.zfunc before compinit in ~/.zshrc)",
    "fish": "companion completion fish > ~/.config/fish/completions/companion.fish",
}


def completion(
    ctx: typer.Context,
    shell: Annotated[str, typer.Argument(help="bash, zsh or fish.", autocompletion=shell_names, show_default=False)],
) -> None:
    """Print the Tab-completion script for your shell: commands, options, session, game and variant names.

    \b
    Examples:
      companion completion bash
      companion completion zsh
      companion completion fish
    \b
    Install it once (the README has the lines), then open a new terminal:
      bash: save it as ~/.local/share/bash-completion/completions/companion
      zsh:  save it as ~/.zfunc/_companion (fpath+=~/.zfunc before compinit)
      fish: save it as ~/.config/fish/completions/companion.fish
    """
    env: Env = ctx.obj
    from companion.errors import InputError

    name = shell.strip().lower()
    if name not in INSTALL:
        from companion.i18n import _, quote

        raise InputError(_("no completion for {shell}; use bash, zsh or fish").format(shell=quote(shell)))
    from typer._completion_shared import get_completion_script

    script = get_completion_script(prog_name="companion", complete_var="_COMPANION_COMPLETE", shell=name)
    # typer's bash template writes IFS=$'\n' with a real line break inside the quotes; spell it out.
    script = script.replace("$'\n'", "$'\\n'")
    env.stdout.write(script.strip("\n") + "\n")
    env.stdout.flush()


app = typer.Typer(rich_markup_mode=None)
app.command("completion")(completion)
