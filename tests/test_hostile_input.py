"""Every command, walked from the command tree, with hostile arguments (#22, "a hostile-input test").

Each argument and each option that takes a value is given, in turn: nothing, a number of 100,000
digits, one of 5,000 (past what Python reads), a byte that is not UTF-8, control characters (a screen
clear, a window title, a C1 CSI), rich markup (a hyperlink, a closing tag) and a megabyte. The other
arguments get a plain value, so the command reads the hostile one. For every case:

- no exception escapes (CliRunner keeps it: a traceback would be one), and no "unexpected error";
- the exit code is 0, 1 or 2;
- no ESC and no C1 character is written to stdout or stderr (the output is not a terminal, so
  companion itself writes none: any would come from the argument);
- a refusal (exit 1 or 2) records nothing: the session's events are what they were.

In-process (typer's CliRunner) on one prepared session per game, copied for each command. The values
that the command line itself refuses (not UTF-8, control characters, too long) cost no session at all.

New commands are covered as they land: the commands and their parameters come from the tree. The
other arguments are filled with what Tab would offer for them (the parameter's own completion, in the
prepared session), so the hostile value is read by the command's own code, not refused for a missing
pack or tally first. The freeform session holds a gamebook pack (the Ashen Keep: tables, checks,
trackers and a fight), and the ``fight`` commands run with a fight in progress.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import typer

from companion.cli.app import app
from tests.helpers import cli, open_session

#: The game a group's commands run on; the root's commands run on a freeform session.
GROUP_GAMES = {
    "tower": "inverted-tower",
    "dark": "dark-tower",
    "haunted": "haunted-tower",
    "dragon": "dragons-den",
    "dungeon": "talisman",
    "fight": "fighting",  # freeform, with the Ashen Keep's sword fight in progress
}
#: ... but a fight is started where none is in progress.
COMMAND_GAMES = {("fight", "start"): "freeform"}
#: The pack the freeform session is started with, and what the fight commands' arguments name there.
PACK = Path(__file__).resolve().parent.parent / "examples" / "tables" / "ashen-keep.toml"
GROUP_FILLERS = {"fight": {"name": "sword", "numbers": "SKILL=7"}}
#: Completion is not asked for these: a real value there would rename or remove the session itself.
NOT_COMPLETED = {("sessions", "rename"), ("sessions", "rm"), ("sessions", "restore")}

HOSTILE = {
    "empty": "",
    "digits-100k": "9" * 100_000,
    "digits-5k": "9" * 5_000,
    "not-utf8": "caf\udce9",  # what Python makes of the byte 0xe9 in a command line
    "control": "a\x1b[2J\x1b]0;owned\x07b\x9b31mc\rd",
    "markup": "[/bold][link=http://evil.example]click[/link][red]",
    "megabyte": "x" * 1_000_000,
}
#: What the kinds the command line refuses are refused with.
REFUSED_AT_THE_DOOR = {
    "digits-100k": "an argument of 100,000 characters",
    "not-utf8": "is not UTF-8 text (byte 0xe9)",
    "control": "holds a control character, U+001B (ESC)",
    "megabyte": "an argument of 1,000,000 characters",
}
#: A plain value for the other arguments, by the parameter's name (else "1" for a number, "x").
FILLERS = {"game": "freeform", "kind": "monster", "shell": "bash", "attribute": "STR", "lang": "en", "what": "x"}


def _walk() -> list[tuple[tuple[str, ...], object]]:
    root = typer.main.get_command(app)
    found: list[tuple[tuple[str, ...], object]] = []

    def walk(command, words, ctx) -> None:
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is None:
                continue
            path = (*words, name)
            found.append((path, sub))
            if hasattr(sub, "list_commands"):
                walk(sub, path, sub.make_context(name, [], parent=ctx, resilient_parsing=True))

    walk(root, (), root.make_context("companion", [], resilient_parsing=True))
    return found


COMMANDS = _walk()


def _takes_value(param) -> bool:
    return param.name != "help" and not getattr(param, "is_flag", False) and not getattr(param, "count", False)


def _hostile_params(command) -> list:
    return [p for p in command.params if _takes_value(p)]


def _completed(words: tuple[str, ...], command, param) -> str | None:
    """The first value Tab offers for ``param`` in the current session, or None."""
    if words[:2] in NOT_COMPLETED:
        return None
    from typer._click.core import Context

    root = typer.main.get_command(app)
    try:
        ctx = Context(command, parent=root.make_context("companion", [], resilient_parsing=True), info_name=words[-1])
        items = param.shell_complete(ctx, "")
    except Exception:  # a completer that fails offers nothing: the plain filler is used
        return None
    return next((i.value for i in items if i.value and not i.value.startswith("-")), None)


def _filler(words: tuple[str, ...], command, param) -> str:
    if param.name in GROUP_FILLERS.get(words[0], {}):
        return GROUP_FILLERS[words[0]][param.name]
    if param.name in FILLERS:
        return FILLERS[param.name]
    return _completed(words, command, param) or ("1" if "int" in param.type.name else "x")


def cases(command, words: tuple[str, ...]) -> list[tuple[str, str, list[str]]]:
    """(parameter, kind, the words after the command) for each value-taking parameter and kind; the
    other arguments filled as the prepared session completes them (so call it with that session)."""
    params = _hostile_params(command)
    arguments = [p for p in params if p.param_type_name == "argument"]
    out = []
    for param in params:
        fill = {a.name: _filler(words, command, a) for a in arguments if a is not param}
        for kind, value in HOSTILE.items():
            if param.param_type_name == "argument":
                said = [value if a is param else fill[a.name] for a in arguments if a.required or a is param]
            else:
                said = [fill[a.name] for a in arguments if a.required] + [param.opts[0], value]
            out.append((param.name, kind, said))
    return out


def test_the_walk_reaches_every_command_and_parameter():
    names = {" ".join(words) for words, _ in COMMANDS}
    assert {"roll", "note", "tally add", "new", "export", "dark card", "haunted hero", "dragon setup"} <= names
    assert sum(len(HOSTILE) * len(_hostile_params(c)) for _, c in COMMANDS) > 1_500


_TEMPLATES: dict[str, Path] = {}


def _template(game: str, factory, monkeypatch) -> Path:
    if game not in _TEMPLATES:
        base = factory.mktemp(f"hostile-{game}")
        with monkeypatch.context() as m:
            m.setenv("COMPANION_HOME", str(base / "home"))
            m.setenv("COMPANION_LOGS", str(base / "logs"))
            if game in ("freeform", "fighting"):
                made = cli("new", "freeform", "--seed", "3", "--name", "table", "--tables", str(PACK))
                assert made.exit_code == 0, made.stderr
                assert cli("tally", "add", "Adelhardt", "9").exit_code == 0
                assert cli("roll", "2d6", "--got", "3,4").exit_code == 0
            else:
                assert cli("new", game, "--seed", "3", "--name", "table").exit_code == 0
            if game == "fighting":
                started = cli("fight", "start", "sword", "--foe", "ghoul")
                assert started.exit_code == 0, started.stderr
        _TEMPLATES[game] = base
    return _TEMPLATES[game]


def _fingerprint(home: Path) -> list[tuple[str, int]]:
    return sorted((str(p.relative_to(home)), p.stat().st_size) for p in home.rglob("*") if p.is_file())


def _events(home: Path) -> int:
    return open_session(home, "table").count


# ``serve`` runs a server until stopped, so it is left out here (tests/test_serve.py runs it as its own process).
@pytest.mark.parametrize("words", [w for w, c in COMMANDS if _hostile_params(c) and w != ("serve",)], ids=" ".join)
def test_hostile_arguments_are_one_line_and_change_nothing(words, tmp_path, tmp_path_factory, monkeypatch):
    command = dict(COMMANDS)[words]
    game = COMMAND_GAMES.get(words[:2]) or GROUP_GAMES.get(words[0], "freeform")
    template = _template(game, tmp_path_factory, monkeypatch)
    home = tmp_path / "home"
    shutil.copytree(template / "home", home)
    shutil.copytree(template / "logs", tmp_path / "logs")
    monkeypatch.setenv("COMPANION_HOME", str(home))
    monkeypatch.setenv("COMPANION_LOGS", str(tmp_path / "logs"))
    work = tmp_path / "work"  # where an export with a strange name lands
    work.mkdir()
    monkeypatch.chdir(work)
    problems = []
    count = _events(home)
    for name, kind, rest in cases(command, words):
        before = _fingerprint(home)
        result = cli("--session", "table", *words, *rest, input="")
        what = f"{' '.join(words)} <{name}={kind}>"
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            problems.append(f"{what}: {type(result.exception).__name__}: {str(result.exception)[:300]}")
            continue
        out = result.stdout + result.stderr
        if result.exit_code not in (0, 1, 2):
            problems.append(f"{what}: exit {result.exit_code}")
        if any(c in out for c in "\x1b\x9b\x07\r"):
            problems.append(f"{what}: a control character in the output: {out[:200]!r}")
        if "unexpected error" in out or "Traceback" in out:
            problems.append(f"{what}: {out[:300]!r}")
        if kind in REFUSED_AT_THE_DOOR:
            if result.exit_code != 2 or REFUSED_AT_THE_DOOR[kind] not in result.stderr:
                problems.append(f"{what}: not refused at the command line: {result.exit_code} {out[:200]!r}")
            if result.stdout or result.stderr.count("\n") != 1:
                problems.append(f"{what}: not one line: {out[:300]!r}")
        if _fingerprint(home) != before:  # something was written: an event only if the command was done
            now = _events(home)
            if result.exit_code != 0 and now != count:
                problems.append(f"{what}: exit {result.exit_code}, and {now - count} event(s) recorded")
            count = now
    assert not problems, "\n".join(problems[:20]) + (f"\n... {len(problems)} in all" if len(problems) > 20 else "")
