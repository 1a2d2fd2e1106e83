"""One whole Тёмная Башня session through the real command line, in English or in Russian.

Guided steps through ``companion next`` (setup, a check, the end of a turn) and one-shot
``companion dark ...`` commands (cards, a fight with ♥ and ★, help from a second player on floor 2,
a group, a trade, the floors and their level-ups, the end), as a player types them; :func:`play`
returns each command with what it printed, and the markdown log.

Run as a script, it prints the English transcript (``tests/data/dark_tower_en.txt`` was captured so
from main before the translation: ``python tests/dark_tower_session.py SRC_DIR > ...``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

#: The names the players type: kept as typed in every language (Аня, and Bo's Latin letters).
PLAYERS = ("Аня", "Bo")
#: A spell typed by a player in English, in a Russian game: kept as typed.
BACKSTAB = "Backstab:2:activated:3:self:1"


def steps(lang: str) -> list[list[str]]:
    ru = lang == "ru"
    sword, mail = ("Меч", "Кольчуга") if ru else ("Sword", "Mail")
    rogue = "Разбойник" if ru else "Rogue"
    first = ["new", "dark-tower", "--seed", "5"] + (["--lang", "ru"] if ru else [])
    return [
        first,
        # Cards as the players enter them (kept in their catalogue); one entered in both languages.
        ["dark", "card", "hero", rogue, "--health", "8", "--bonus", "1,1,2", "--spell", BACKSTAB],
        ["dark", "card", "item", sword, "--class", "weapon", "--bonus", "2"],
        ["dark", "card", "item", mail, "--class", "armor", "--bonus", "1", "--single"],
        ["dark", "card", "obstacle", "Яма", "--check", "5", "--damage", "2", "--penalty", "1"],
        ["dark", "card", "monster", "Skeleton", "--ru", "Скелет", "--floor", "1", "--strength", "5"],
        ["dark", "card", "monster", "Тролль", "--floor", "2", "--strength", "9"],
        ["dark", "card", "monster", "Шаман", "--floor", "2", "--strength", "3", "--summons"],
        # Guided setup, one step at a time.
        ["next"],
        *([] if ru else [["next", "en"]]),
        ["next", "table"],
        ["next", PLAYERS[0]],
        ["next", "clan-champion"],
        ["next", "add"],
        ["next", PLAYERS[1]],
        ["next", rogue.lower()],  # the hero just entered, by its value
        ["next", "done"],
        ["next", sword.lower()],  # Аня's random item: the card drawn
        ["next", "1"],  # Bo's: the first listed (by its number)
        ["next", "+none"],
        ["next", "ready"],
        ["next", "1"],  # the first listed: Аня goes first
        # Turn 1, guided: an obstacle and its check.
        ["next", "obstacle"],
        ["next", "яма"],
        ["next", "1,h,6"],
        ["status"],
        ["next", "end"],
        # Turn 2, one-shot: a monster, the odds, a fight with ♥ and ★.
        ["dark", "draw", "monster", "Скелет" if ru else "Skeleton"],
        ["dark", "fight", "--odds"],
        ["dark", "fight", "--got", "3,h,s,2"],
        ["dark", "end"],
        # Floor 1 runs out: the heroes go up and rise to level 2.
        ["dark", "deck", "1", "0,0,0"],
        ["dark", "floor"],
        ["dark", "status"],
        # Floor 2: a monster that summons, a group, help from the other player.
        ["dark", "draw", "monster", "Шаман"],
        ["dark", "group", "Тролль", "--from-deck"],
        ["dark", "fight", "--with", PLAYERS[1], "--got", "3,3,s,h"],
        ["dark", "trade", PLAYERS[0], "1", PLAYERS[1], "1"],
        ["dark", "status"],
        ["dark", "end"],
        # The rest of the tower, and the end.
        ["dark", "deck", "2", "0,0,0"],
        ["dark", "floor"],
        ["dark", "deck", "3", "0,0,0"],
        ["next"],
        ["status"],
        ["dark", "--help"],
        ["dark", "fight", "--help"],
        ["dark", "draw", "monster", "Никто"],
    ]


def play(lang: str, home: Path, src: Path | None = None) -> tuple[list[tuple[list[str], str]], str]:
    """Run the session in ``home``; ``src`` runs another checkout's code (the capture from main).

    Without ``src`` each command runs in this process (typer's CliRunner, the words' language set
    back to none before each, as a new process starts): what is compared is what the commands
    print, and a process each would cost most of the test's time in start-ups.
    """
    out = run_steps(steps(lang), home, src)
    log = next((home / "logs").glob("*.md")).read_text(encoding="utf-8")
    return out, log


def environment(home: Path, src: Path | None = None) -> dict[str, str]:
    """The environment every command of the session runs in: its own folders, no language asked."""
    env = dict(os.environ)
    env.update(
        COMPANION_HOME=str(home / "home"),
        COMPANION_LOGS=str(home / "logs"),
        COLUMNS="100",
        NO_COLOR="1",
        TERM="dumb",
        LANG="C.UTF-8",
        PYTHONIOENCODING="utf-8",
    )
    for var in ("COMPANION_LANG", "LC_ALL", "LC_MESSAGES", "COMPANION_SESSION"):
        env.pop(var, None)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    return env


def run_steps(commands: list[list[str]], home: Path, src: Path | None = None) -> list[tuple[list[str], str]]:
    """Each command and what it printed (``[exit N]`` first), in the session's folders under ``home``."""
    env = environment(home, src)
    run = _process if src is not None else _in_process
    out: list[tuple[list[str], str]] = []
    for args in commands:
        code, printed = run(args, env)
        out.append((args, f"[exit {code}]\n" + printed.replace(str(home), "HOME")))
    return out


def _process(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    p = subprocess.run(
        [sys.executable, "-m", "companion", *args], env=env, capture_output=True, text=True, encoding="utf-8"
    )
    return p.returncode, p.stdout + p.stderr


def _in_process(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    from companion import i18n
    from companion.cli.app import app

    i18n.activate(None)  # a new process starts in English; the session's language is the command's to set
    result = _runner().invoke(app, args, env=env, prog_name="companion")
    i18n.activate(None)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout + result.stderr


def _runner():
    """typer's CliRunner, but --help as wide as a process finds it (the runner forces 80 columns)."""
    import contextlib

    from typer._click import formatting
    from typer.testing import CliRunner

    class Runner(CliRunner):
        @contextlib.contextmanager
        def isolation(self, *args, **kwargs):
            with super().isolation(*args, **kwargs) as streams:
                formatting.FORCED_WIDTH = None  # put back by the runner when it is done
                yield streams

    return Runner()


def transcript(lang: str, home: Path, src: Path | None = None) -> str:
    """Every command and what it printed, then the log: the text compared word for word."""
    runs, log = play(lang, home, src)
    parts = [f"$ companion {' '.join(args)}\n{text}" for args, text in runs]
    return "\n".join(parts) + "\n=== log ===\n" + _stable(log)


def _stable(log: str) -> str:
    """The log without its clock (the front matter's times, written as Obsidian's date-times or as
    quoted ISO stamps, as the captured transcript has them)."""
    import re

    log = re.sub(r"(?m)^(\w+: )\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$", r'\1"TIME"', log)
    return re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "TIME", log)


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        sys.stdout.write(transcript("en", Path(tmp), Path(sys.argv[1]) if len(sys.argv) > 1 else None))
