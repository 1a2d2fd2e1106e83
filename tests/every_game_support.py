"""Each of the six games driven to a fight and past it through ``companion next``, as a player would.

:func:`drive` plays one game in its own folders (commands run in this process through typer's runner,
with the folders in the runner's environment) and writes down what a player saw at every step: the
pending step as ``next --json`` gives it, with the game's own chances for the options shown with odds.
:func:`copy_of` gives a test its own copy of the driven session to change (a hand command, an undo)
without touching the one the other tests read. tests/test_every_game.py checks the front ends on it.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
KEEP = str(ROOT / "examples" / "tables" / "ashen-keep.toml")

#: The six games, as ``companion new`` names them (freeform plays a table pack's fight).
GAMES = ("inverted-tower", "talisman", "haunted-tower", "dragons-den", "dark-tower", "freeform")

#: How many steps a drive may take before it is a test failure (a game that never reaches its fight).
MOST_STEPS = 160


def environment(root: Path) -> dict[str, str]:
    return {
        "COMPANION_HOME": str(root / "home"),
        "COMPANION_LOGS": str(root / "logs"),
        "COMPANION_STATE": str(root / "state"),
        "COLUMNS": "120",
        "NO_COLOR": "1",
    }


def run(root: Path, *args: str) -> Any:
    """``companion ARGS`` in the folders under ``root``, in this process (stdout and stderr apart)."""
    from companion import i18n
    from companion.cli.app import app

    i18n.activate(None)  # as a new process starts
    result = CliRunner().invoke(app, list(args), env=environment(root))
    i18n.activate(None)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def ok(root: Path, *args: str) -> str:
    result = run(root, *args)
    assert result.exit_code == 0, f"companion {' '.join(args)}: {result.stderr or result.stdout}"
    return result.stdout


def pending(root: Path) -> dict[str, Any] | None:
    data = json.loads(ok(root, "next", "--json"))
    return data.get("pending")


@dataclass
class Script:
    """How a player plays one game to a fight: what they type first, and how they answer each step."""

    game: str
    setup: list[list[str]]
    #: Answers given before the fight is looked for (the game's setup), in order.
    before: list[str] = field(default_factory=list)
    #: One-shot commands typed once the setup is answered (the table moved on by hand).
    then: list[list[str]] = field(default_factory=list)
    #: Option values a player picks when they are offered, most wanted first (``attack:`` any attack).
    prefer: tuple[str, ...] = ()
    #: The number a player types at a number step (a room's number), else the lowest allowed.
    number: int | None = None
    #: Where in the fight the table is kept for the hand-command check (a step's key), and the hand
    #: command a player types there (tests/test_every_game.py checks the step after it).
    hand_at: str = ""
    hand: tuple[str, ...] = ()


SCRIPTS: dict[str, Script] = {
    "inverted-tower": Script(
        "inverted-tower",
        [["new", "inverted-tower", "--name", "g", "--seed", "3", "--hero", "Ann"]],
        ["STR"],
        hand_at="combat.attribute",
        hand=("hp", "-1"),
    ),
    "talisman": Script(
        "talisman",
        [["new", "talisman", "--name", "g", "--seed", "2"]],
        ["suggested"],
        prefer=("fight",),
        hand_at="round.action",
        hand=("tally", "hit", "Krylla"),
    ),
    "haunted-tower": Script(
        "haunted-tower",
        [
            ["new", "haunted-tower", "--name", "g", "--seed", "5"],
            *(
                [
                    "haunted",
                    "hero",
                    name,
                    "--speed",
                    "6",
                    "--hp",
                    str(hp),
                    "--attack",
                    "3",
                    "--ac",
                    "5",
                    "--ability",
                    "-",
                ]
                for name, hp in (("Aria", 6), ("Bram", 7), ("Cael", 5))
            ),
        ],
        ["start"],
        prefer=("fight", "Aria", "attack", "gargoyle", "blue"),
        hand_at="fight.turn",
        hand=("haunted", "hp", "Aria", "-1"),
    ),
    "dragons-den": Script(
        "dragons-den",
        [["new", "dragons-den", "--name", "g", "--seed", "1"]],
        ["2", "7", "done", "virtual", "roll", "roll", "roll", "hide", "reveal", "4", "roll", "roll"],
        prefer=("hide", "attack:", "end"),
        hand_at="dd.menu",
        hand=("dragon", "reveal", "6"),
    ),
    "dark-tower": Script(
        "dark-tower",
        [
            ["new", "dark-tower", "--name", "g", "--seed", "5"],
            ["dark", "card", "hero", "Rogue", "--health", "8", "--bonus", "1,1,2"],
            ["dark", "card", "item", "Sword", "--class", "weapon", "--bonus", "2"],
            ["dark", "card", "item", "Mail", "--class", "armor", "--bonus", "1", "--single"],
            ["dark", "card", "monster", "Troll", "--floor", "2", "--strength", "9"],
        ],
        ["en", "table", "Ann", "clan-champion", "add", "Bo", "rogue", "done", "sword", "1", "+none", "ready", "1"],
        then=[["dark", "deck", "1", "0,0,0"], ["dark", "floor"]],
        prefer=("monster", "troll"),
        hand_at="fight.help",
        hand=("dark", "discard", "Ann", "Sword"),
    ),
    "freeform": Script(
        "freeform",
        [["new", "freeform", "--name", "g", "--seed", "7", "--tables", KEEP, "--got", "3/3,3/4"]],
        hand_at="fight.round",
        hand=("hp", "-2"),
    ),
}


# ---- driving ---------------------------------------------------------------------------------------


def session(root: Path, *, engine: bool = True) -> Any:
    """The driven session as a fresh process opens it (its lock held only while it loads)."""
    from companion.session.service import Session
    from companion.store.sessions import Store

    files = Store(root / "home").open("g")
    with files.locked():
        return Session.open(files, engine=engine)


def foes(root: Path) -> int:
    """How many figures the fight on the table has, as the game's board shows it (the contract, not
    the raw state): 0 when no fight is on."""
    s = session(root, engine=False)
    board = s.spec.board_of(s.state)
    return len(board.fight) if board is not None else 0


def chances(root: Path) -> dict[str, list[Any]]:
    """The game's chance for each option of the pending step shown with odds, and what it is a chance
    of ("win", "get away"): ``Game.option_chances``."""
    s = session(root)
    request = s.waiting().pending
    if request is None:
        return {}
    return {c.value: [float(c.chance), c.of] for c in s.spec.option_chances(s.state, request)}


def answer(script: Script, step: dict[str, Any], asked: int = 0) -> str:
    """What the player answers to ``step``: a wanted option, else the one the game stars, else the first
    (``asked``: how many numbers were typed before, so a room already entered is not named again)."""
    kind = step["kind"]
    if kind == "roll":
        return "roll"
    if kind == "number":
        lo, hi = step["lo"], step["hi"]
        first = script.number if script.number is not None and lo <= script.number <= hi else lo
        return str(lo + (first - lo + asked) % (hi - lo + 1))
    if kind == "text":
        return "x"
    values = [o["value"] for o in step["options"] if o["value"] not in ("peek", "menu")]
    for wanted in script.prefer:
        found = [v for v in values if v == wanted or (wanted.endswith(":") and v.startswith(wanted))]
        if found:
            return "=" + found[0]
    return "=" + (step.get("best") or values[0])


def drive(game: str, root: Path) -> dict[str, Any]:
    """Play ``game`` under ``root`` to a fight and past it; what the player saw, step by step."""
    script = SCRIPTS[game]
    for args in script.setup:
        ok(root, *args)
    steps: list[dict[str, Any]] = []
    if game == "freeform":
        ok(root, "fight", "start", "sword", "--foe", "warden")
        return _pack_fight(root, steps)
    for typed in script.before:
        ok(root, "next", typed)
    for args in script.then:
        ok(root, *args)
    last = 0
    for _ in range(MOST_STEPS):
        step = pending(root)
        if step is None:
            break
        on = foes(root)
        if on < last and not step.get("private"):  # a foe fell, or the fight is over: past it
            return {"game": game, "steps": steps, "fought": True}
        last = on
        if on and step["key"] == script.hand_at:
            keep(root, "mid")
        typed = answer(script, step, sum(s["pending"]["kind"] == "number" for s in steps))
        shown = chances(root) if step["kind"] == "choice" else {}
        steps.append({"pending": step, "chances": shown, "fight": bool(on), "answer": typed})
        ok(root, "next", typed)
    raise AssertionError(
        f"{game}: no fight began and ended in {MOST_STEPS} steps: {[s['pending']['key'] for s in steps]}"
    )


def keep(root: Path, name: str) -> None:
    """Keep the table as it is now (once): ``root`` beside it, named ``NAME.GAME``."""
    target = root.with_name(f"{root.name}.{name}")
    if not target.exists():
        copy_of(root, target)


def _pack_fight(root: Path, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """A table pack's fight: each round as the shell's bare Enter answers it (the step's own command)."""
    from companion.cli.env import Env
    from companion.cli.pack_fight import pending_step

    for _ in range(MOST_STEPS):
        s = session(root, engine=False)
        if s.state.trackers.fight is None:
            return {"game": "freeform", "steps": steps, "fought": True}
        env = Env.from_process(data_dir=root / "home", logs_dir=root / "logs")
        step = pending_step(env, s)
        if step is not None and step.key == SCRIPTS["freeform"].hand_at:
            keep(root, "mid")
        steps.append(
            {"pending": step.as_json() if step is not None else {}, "chances": {}, "fight": True, "answer": ""}
        )
        ok(root, "fight", "round")
    raise AssertionError("freeform: the pack's fight did not end")


def copy_of(driven: Path, target: Path) -> Path:
    """A copy of the driven session's folders at ``target``, its log where the copy's folders are."""
    shutil.copytree(driven, target)
    old, new = str(driven), str(target)
    for path in (target / "home").rglob("*.json"):
        text = path.read_text(encoding="utf-8")
        if old in text:
            path.write_text(text.replace(old, new), encoding="utf-8")
    return target
