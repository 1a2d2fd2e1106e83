"""Every one-shot command runs from ``companion shell`` with the same result.

The commands are found by walking the command tree (no list kept by hand). Each runs twice on two
copies of the same data folder: once as the one-shot CLI (``companion.cli.main.main``, what the
console script calls) and once as a line in the shell. stdout, stderr and the exit code must match,
and so must the session afterwards.
"""

from __future__ import annotations

import os
import re
import shutil

import pytest
import typer

from companion.cli.app import app
from companion.cli.env import Env
from companion.cli.main import main
from companion.shell.forms import prefix_pattern, shell_forms
from companion.shell.repl import Shell

TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")

#: The game groups' sessions: a command under ``companion GROUP`` runs on a session of its game.
GROUP_GAMES = {
    "tower": "inverted-tower",
    "dark": "dark-tower",
    "haunted": "haunted-tower",
    "dragon": "dragons-den",
    "dungeon": "talisman",
}


def _leaves() -> list[tuple[str, ...]]:
    """Every command of the tree that runs (groups are walked, not run), by its words."""
    root = typer.main.get_command(app)
    found: list[tuple[str, ...]] = []

    def walk(command, words: tuple[str, ...], ctx) -> None:
        names = command.list_commands(ctx)
        for name in names:
            sub = command.get_command(ctx, name)
            if sub is None:
                continue
            path = (*words, name)
            if hasattr(sub, "list_commands"):
                found.append(path)  # a group runs too: it shows its list (or its own callback)
                walk(sub, path, sub.make_context(name, [], parent=ctx, resilient_parsing=True))
            else:
                found.append(path)

    walk(root, (), root.make_context("companion", [], resilient_parsing=True))
    return found


LEAVES = _leaves()


def test_the_walk_finds_the_whole_tree():
    words = {" ".join(p) for p in LEAVES}
    assert {"roll", "tally hit", "hp", "dark fight", "haunted attack", "dragon end-turn", "shell"} <= words
    assert len(LEAVES) > 100


def _prepare(home, game: str) -> None:
    assert main(["--data-dir", str(home), "new", game, "--seed", "11", "--name", "table"]) == 0
    if game == "freeform":
        assert main(["--data-dir", str(home), "tally", "add", "Adelhardt", "9"]) == 0


#: One prepared data folder (and the log ``new`` wrote) per game, made by the first test that needs
#: it and copied by every test: preparing it is most of a test's time, and its result is the same.
_TEMPLATES: dict[str, object] = {}


def _template(game: str, tmp_path_factory, monkeypatch):
    if game not in _TEMPLATES:
        base = tmp_path_factory.mktemp(f"template-{game}")
        with monkeypatch.context() as m:
            m.setenv("COMPANION_LOGS", str(base / "logs"))
            _prepare(base / "home", game)
        _TEMPLATES[game] = base
    return _TEMPLATES[game]


def _status(home, capsys) -> str:
    """The session as ``status --json`` gives it, its paths and clock times left out."""
    capsys.readouterr()
    main(["--data-dir", str(home), "status", "--json"])
    return TIME.sub("TIME", capsys.readouterr().out.replace(str(home), "HOME"))


# ``shell`` opens a prompt and ``serve`` a server, each running until stopped (tests/test_serve.py).
@pytest.mark.parametrize("words", [p for p in LEAVES if p not in (("shell",), ("serve",))], ids=" ".join)
@pytest.mark.parametrize("extra", [(), ("--help",)], ids=["bare", "help"])
def test_every_command_gives_the_same_in_the_shell(words, extra, tmp_path, capsys, tmp_path_factory, monkeypatch):
    game = GROUP_GAMES.get(words[0], "freeform")
    template = _template(game, tmp_path_factory, monkeypatch)
    shutil.copytree(template / "logs", os.environ["COMPANION_LOGS"], dirs_exist_ok=True)
    one, two = tmp_path / "one", tmp_path / "two"
    shutil.copytree(template / "home", one)
    shutil.copytree(template / "home", two)
    capsys.readouterr()

    args = [*words, *extra]
    code = main(["--data-dir", str(one), *args])
    oneshot = capsys.readouterr()

    shell = Shell(Env.from_process(data_dir=two), ["--data-dir", str(two)])
    shell.hold("table")
    try:
        shell_code = shell.run(" ".join(args))
    finally:
        shell.release()
    in_shell = capsys.readouterr()

    def same(text: str, home) -> str:
        return text.replace(str(home), "HOME")

    # The shell says the one-shot's hints in its own forms ("Next: play", "Usage: item ...").
    forms = prefix_pattern([*shell.command_names(), "shell"])
    assert (shell_code, same(in_shell.out, two), same(in_shell.err, two)) == (
        code,
        shell_forms(same(oneshot.out, one), forms),
        shell_forms(same(oneshot.err, one), forms),
    )
    assert _status(two, capsys) == _status(one, capsys)


def test_the_shell_refuses_to_open_itself(tmp_path, capsys):
    _prepare(tmp_path, "freeform")
    shell = Shell(Env.from_process(data_dir=tmp_path), ["--data-dir", str(tmp_path)])
    shell.hold("table")
    try:
        assert shell.run("shell") == 2
    finally:
        shell.release()
    assert "this is the shell already" in capsys.readouterr().err
