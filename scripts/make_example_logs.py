#!/usr/bin/env python3
"""Regenerate the example Dungeon Logs in ``logs/`` from seeded games (stdlib + companion only).

    python scripts/make_example_logs.py            # rewrite logs/*-example*.md
    python scripts/make_example_logs.py --out DIR  # write them somewhere else
    python scripts/make_example_logs.py --check    # exit 1 if a committed log differs

Two kinds of example, both seeded and stamped with a pinned ``SOURCE_DATE_EPOCH`` so they come out
the same byte for byte on every machine (CI checks them: ``tests/test_example_logs.py``):

- a table-top session driven by real ``companion`` commands, run in a throwaway data folder
  (``freeform-example.md``);
- whole games of The Inverted Tower played by the real engine, folded event by event exactly as
  ``companion play`` records them: the virtual dice come from the session's seed (as when the player
  presses Enter at every roll), the choices from the small player below. The events are folded in
  memory (no save is written), which gives the same log the session store writes after each action
  (``tests/test_inverted_tower_example_log.py`` checks both ways agree).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import io
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from companion.dice.source import VirtualDice
from companion.engine.requests import Choice, Request, RollRequest
from companion.games import load
from companion.log.markdown import render
from companion.session.clock import now
from companion.session.fold import Fold, answer_event
from companion.session.service import new_state
from companion.session.state import Meta, State

#: 2026-01-01T00:00:00Z: every event of an example is stamped with it.
EPOCH = "1767225600"
ROOT = Path(__file__).resolve().parent.parent


def player(state: State, request: Choice) -> str:
    """A plain, sensible player: fight with STR, drink low, spend spare daggers, take the stairs at once.

    - the starting point and every level-up point go into STR, and every fight is fought with it;
    - a potion is drunk at any choice once HP is a third of Max HP or less;
    - a dagger is spent on a roll when the hero has more than one, or is down to 2 HP;
    - the merchant sells it potions while the gold lasts;
    - while HP is above half of Max HP it explores new rooms, even once the stairs are found; then it
      goes down the stairs (back to them, if they were found earlier), else it explores on, else it
      goes back to the first room the menu lists.
    """
    values = request.values()
    t = state.trackers
    hp = t.counters["hp"]
    if "potion" in values and hp.value * 3 <= (hp.max or 0):
        return "potion"
    key = request.key
    if key in ("hero.attribute", "level.attribute", "combat.attribute"):
        return "STR"
    if key == "turn":
        if "new" in values and hp.value * 2 > (hp.max or 0):
            return "new"  # healthy: explore on for XP and treasure, even once the stairs are found
        return next(v for v in ("down", "stairs", "new", "back") if v in values)
    if key == "combat.daggers":
        spend = "1" in values and (t.items.get("dagger", 0) > 1 or hp.value <= 2)
        return "1" if spend else "0"
    if key == "merchant":
        return "buy-potion" if "buy-potion" in values else "leave"
    return values[0]


@dataclass(frozen=True)
class Example:
    file: str
    name: str
    seed: int
    hero: str
    variants: tuple[str, ...] = ()


#: The seeds were picked for games that show the draft's rules: a victory under the default readings,
#: and a game with the draft's two own variants.
TOWER_EXAMPLES = (
    Example("inverted-tower-example.md", "example", 667, "Aria"),
    Example("inverted-tower-example-variants.md", "variants", 1212, "Brann", ("elites-deal-2", "no-xp-farming")),
)


@contextmanager
def pinned_clock() -> Iterator[None]:
    before = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = before


def answers(example: Example, choose: Callable[[State, Choice], str] = player) -> Iterator[tuple[State, Request, Any]]:
    """Play ``example`` to its end in memory, yielding each (state, request, answer) before it is recorded."""
    spec = load("inverted-tower")
    meta = Meta(
        name=example.name,
        slug=example.name,
        game="inverted-tower",
        seed=example.seed,
        dice="virtual",
        variants=list(example.variants),
        created=now(),
        hero=example.hero,
    )
    fold = Fold(spec, new_state(spec, meta))
    dice = VirtualDice(example.seed)
    fold.start()
    count = 0
    while not fold.done:
        request = fold.pending
        assert request is not None
        if isinstance(request, RollRequest):
            answer: Any = dice.roll(request.expr, request.mod, request.parts)
        else:
            answer = choose(fold.state, request)  # type: ignore[arg-type]
        yield fold.state, request, answer
        count += 1
        event = answer_event(request, answer)
        event["at"] = now()
        event["id"] = count
        fold.apply(event)


def log_text(example: Example) -> str:
    """The whole Dungeon Log of ``example``, as the session would write it when the game ends."""
    spec = load("inverted-tower")
    with pinned_clock():
        state = None
        for step in answers(example):
            state = step[0]  # the same state object all along, played on to the end
        assert state is not None
        return render(state, spec.log_title or spec.title, spec.hero(state) if spec.hero else None)


# ---- a table-top session through the real commands -------------------------------------------


def run(*args: str) -> None:
    """Run one companion command in-process; a failure stops the example loudly."""
    from companion.cli.main import main as companion

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = companion(list(args))
    if code != 0:
        raise SystemExit(f"companion {' '.join(args)} failed ({code}): {err.getvalue().strip()}")


def freeform() -> None:
    """A table-top evening with the 1979 book and real dice beside companion: trackers and rolls."""
    run("new", "freeform", "--name", "freeform-example", "--seed", "1979", "--hero", "The party of four")
    run("tally", "add", "Adelhardt", "9", "--role", "paladin")
    run("tally", "add", "Krylla", "7", "--role", "rangeress")
    run("hp", "=5", "--max", "5")
    run("floor", "1")
    run("room", "1", "Trap (INT) (Failed)", "--state", "trap")
    run("roll", "SR", "STR,DEX,INT", "--why", "the kind of trap")
    run("roll", "DC", "--got", "3", "--why", "disarm the INT trap")
    run("hp", "-1", "--why", "the trap")
    run("room", "2", "Mob 1 (killed) Mob 2 (killed)", "--state", "cleared")
    run("roll", "DC", "--mod", "1", "--why", "attack Skeleton Warrior 1")
    run("roll", "DC", "--mod", "1", "--got", "1", "--why", "attack Skeleton Warrior 2")
    run("amend", "--reason", "the die had rolled under the book: it showed a 6", "--got", "6")
    run("xp", "+2")
    run("roll", "DR", "--why", "treasure")
    run("item", "dagger", "+1")
    run("tally", "add", "Ogre Mage", "4", "--monster")
    run("tally", "hit", "Ogre Mage", "2")
    run("tally", "hit", "Adelhardt", "4")
    run("talisman", "--left", "10", "--got", "4,3")
    run("roll", "3dt", "--got", "1,heart,star", "--why", "a Dark Tower pool, typed with symbols")
    run("note", "Krylla wants to go back to Room 2: companion roll DC decides if something wanders in.")


def run_json(*args: str) -> Any:
    """Run one companion command in-process with ``--json`` and return what it printed."""
    import json

    from companion.cli.main import main as companion

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = companion([*args, "--json"])
    if code != 0:
        raise SystemExit(f"companion {' '.join(args)} failed ({code}): {err.getvalue().strip()}")
    return json.loads(out.getvalue())


def talisman_player(request: dict[str, Any]) -> str:
    """A plain party: enter the lowest area left, Krylla strikes first, fight on (flee only when no one
    can fight), leave as soon as the Talisman is found; Enter at every roll (virtual dice)."""
    if request["type"] == "roll":
        return "roll"
    if request["type"] != "choice":
        raise SystemExit(f"the example did not expect to be asked {request['key']!r}")
    values = [o["value"] for o in request["options"]]
    if request["key"] == "area.enter":
        if "leave" in values:
            return "leave"
        return "=" + min((v for v in values if v.isdigit()), key=int, default=values[0])  # =VALUE: the area
    for wanted in ("strike", "fight", "flee"):
        if wanted in values:
            return wanted
    return values[0]


#: The Adventure in the Dungeon's house numbers for the example log and the balance tables
#: (scripts/make_balance.py): chosen for them, not the book's (which the rule text does not print).
TALISMAN_HOUSE: dict[str, Any] = {
    "source": "house",
    "rangeress.hits": 7, "rangeress.to_hit": 6, "rangeress.be_hit": 9,
    "fighter.hits": 8, "fighter.to_hit": 5, "fighter.be_hit": 10,
    "wizard.hits": 5, "wizard.to_hit": 9, "wizard.be_hit": 8,
    "area12.kind": "empty",
}  # fmt: skip


def talisman() -> None:
    """The Adventure in the Dungeon played to its end by companion next, with house numbers."""
    run("gamedata", "talisman", *(f"{k}={v}" for k, v in TALISMAN_HOUSE.items()))
    run("new", "talisman", "--name", "talisman-example", "--seed", "1979")
    run("note", "An example game. Its numbers for Krylla, Ibli and Regalan are house numbers chosen for this "
        "example, not the book's.")  # fmt: skip
    step = run_json("next")
    while not step["done"]:
        step = run_json("next", talisman_player(step["request"]))


@contextmanager
def example_env(folder: Path) -> Iterator[None]:
    """companion's data and log folders in ``folder`` (no active session) and the pinned clock, for
    the duration; the environment as it was afterwards."""
    keys = ("COMPANION_HOME", "COMPANION_LOGS", "COMPANION_SESSION")
    saved = {k: os.environ.get(k) for k in keys}
    with pinned_clock():
        os.environ["COMPANION_HOME"] = str(folder / "home")
        os.environ["COMPANION_LOGS"] = str(folder / "logs")
        os.environ.pop("COMPANION_SESSION", None)
        try:
            yield
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


#: (example, session) → the throwaway folder it was played in, kept until the process ends.
_PLAYED: dict[tuple[Callable[[], None], str], Path] = {}

#: A folder shared by several processes (the test suite's workers): each example is played there once
#: for all of them, under a file lock. Unset: each process plays in its own throwaway folder.
SHARED_ENV = "COMPANION_EXAMPLES_SHARED"


def played(play: Callable[[], None], session: str) -> Path:
    """Play a command-driven example in a fresh, throwaway data folder, once per process (the logs'
    and the exports' scripts share it: the Talisman example is 213 commands), or once for every
    process sharing ``$COMPANION_EXAMPLES_SHARED``; the folder (``home``, ``logs``). Treat it as
    read-only."""
    key = (play, session)
    if key not in _PLAYED:
        shared = os.environ.get(SHARED_ENV)
        _PLAYED[key] = _play_shared(play, session, Path(shared)) if shared else _play_here(play, session)
    return _PLAYED[key]


def _play_here(play: Callable[[], None], session: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix=f"companion-{session}-"))
    try:
        with example_env(folder):
            play()
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _play_shared(play: Callable[[], None], session: str, shared: Path) -> Path:
    """The first process to ask plays the example in ``shared/<session>``; the others wait for it and
    use that folder. A play that failed leaves no mark, so the next process plays it afresh."""
    from filelock import FileLock

    shared.mkdir(parents=True, exist_ok=True)
    folder = shared / session
    with FileLock(str(shared / f"{session}.lock")):
        if not (folder / ".played").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            with example_env(folder):
                play()
            (folder / ".played").touch()
    return folder


def cli_log_text(play: Callable[[], None], session: str) -> str:
    """Play a command-driven example in a fresh, throwaway data folder; return the log it wrote."""
    return (played(play, session) / "logs" / f"{session}.md").read_text(encoding="utf-8")


#: Every example log (a file in logs/) and the function that makes its text.
LOGS: dict[str, Callable[[], str]] = {
    "freeform-example.md": partial(cli_log_text, freeform, "freeform-example"),
    "talisman-example.md": partial(cli_log_text, talisman, "talisman-example"),
    **{example.file: partial(log_text, example) for example in TOWER_EXAMPLES},
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "logs", help="where to write (default: logs/)")
    parser.add_argument("--check", action="store_true", help="compare with the files instead of writing them")
    parser.add_argument("--only", action="append", choices=sorted(LOGS), help="make only this file (repeatable)")
    args = parser.parse_args(argv)
    status = 0
    for file, make in LOGS.items():
        if args.only and file not in args.only:
            continue
        text = make()
        path = args.out / file
        if args.check:
            same = path.exists() and path.read_text(encoding="utf-8") == text
            print(f"{path}: {'up to date' if same else 'DIFFERS'}")
            status |= 0 if same else 1
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return status


if __name__ == "__main__":
    sys.exit(main())
