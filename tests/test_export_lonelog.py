"""Lonelog to its spec (#23): every game's export read back by tests/lonelog_reader.py (written from the
Lonelog v1.6 grammar and its add-ons, not from the exporter), and checked against the session: every
room and its state, every item and gold, the hero's HP, every roll, every fight and who fell in it.

The Inverted Tower and The Adventure in the Dungeon are the example sessions (scripts/
make_example_exports.py, played through the commands there); The Haunted Tower, The Dragon's Den, the
Dark Tower and a table pack's session are played here through the commands and exported with
``companion export - --format lonelog``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.export.sheet import STATUS
from tests.export_support import examples_played_once, replayed, source  # noqa: F401 (a fixture)
from tests.lonelog_reader import NotLonelog, read

#: The dungeon add-on's room statuses (zeruhur/lonelog, the dungeon-crawling add-on).
ADD_ON_STATUS = {
    *("unexplored", "active", "cleared", "cleared, looted", "looted", "locked", "trapped", "safe", "collapsed")
}

runner = CliRunner()
KEEP = str(Path(__file__).resolve().parent.parent / "examples" / "tables" / "ashen-keep.toml")


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result.stdout


def flat(text: str) -> str:
    return " ".join(str(text).split())


def checked(text: str, state, rep) -> None:
    """``text`` read as Lonelog, and what it says against the session's final ``state`` (and its replay)."""
    log = read(text)
    t = state.trackers
    fights = len(rep.fights())
    assert log.sessions == ["Session 1"] and log.title
    assert log.scenes == [flat(h) for _, h in rep.headings()], "a scene per floor or area"
    rolls = sum(1 for e in state.log.entries if e["k"] == "roll")
    assert len(log.rolls) + len(log.tables) == rolls, "every roll as d: or tbl:, with its outcome"
    tables = [e["r"] for e in state.log.entries if e["k"] == "roll" and str(e["r"]["expr"]).startswith("DR ")]
    assert len(log.tables) == len([r for r in tables if not r.get("target")])
    for r, (_roll, row) in zip([r for r in tables if not r.get("target")], log.tables, strict=True):
        said = flat(str(r["outcome"]).split(": ", 1)[-1])
        head, _colon, tail = said.partition(": ")
        assert head in row, "a table's row after its ->"
        assert not tail or tail in row or any(tail in note for note in log.notes), "the rest of a long row in its note"
    floors = {r.floor for r in t.rooms}
    assert {s for s, _ in log.dungeon_status.values()} <= ADD_ON_STATUS | set(t.rooms and [r.state for r in t.rooms])
    known = [r for r in t.rooms if flat(r.content) not in ("", "…")]  # a room is tagged once something is known
    for room in known:
        rid = f"F{room.floor}.{room.number}" if len(floors) > 1 else str(room.number)
        expect = (STATUS.get(room.state, room.state), flat(room.content).replace("⟶", "->").replace("→", "->"))
        if "(alive)" in room.content:
            expect = ("active", expect[1])  # its fight was lost: the foes stand in it
        assert log.rooms[rid] == expect, f"room {rid} as the session left it"
        assert log.dungeon_status[rid] == expect
    assert len(log.dungeon_status) == len(known)
    if log.rooms:
        assert all(rid.startswith("F") for rid in log.rooms) == (len(floors) > 1), "one form of room ID all along"
    assert {k: v for k, v in log.inventory.items() if v} == {k: v for k, v in t.items.items() if v}
    if "gold" in t.counters and t.counters["gold"].value:
        assert log.wealth["Gold"] == t.counters["gold"].value, "the gold's deltas add up to the gold"
    if "hp" in t.counters:
        hero = state.hero or state.meta.hero or "Hero"
        hp = t.counters["hp"]
        label = hp.label or "HP"
        assert log.pcs[hero][label] == (f"{hp.value}/{hp.max}" if hp.max is not None else str(hp.value))
    assert len(log.combats) >= fights and (fights == 0) == (not log.combats)
    for tally in t.tallies.values():
        if tally.monster and tally.slain:
            assert log.foes.get(flat(tally.name)) == "dead", f"{tally.name} falls in its fight"
    notes = " ".join(flat(e.get("t", "")) for e in state.log.entries if e["k"] == "note")
    assert all(flat(p) in notes for p in log.prose), f"the only prose is the player's notes: {log.prose}"


@pytest.mark.parametrize("name", ["inverted-tower-example.md", "talisman-example.md", "freeform-example.md"])
def test_the_examples_read_as_lonelog(name):
    from companion.export.lonelog import render

    src, rep = source(name), replayed(name)
    checked(render(src, rep), src.state, rep)


def exported() -> str:
    return ok("export", "-", "--format", "lonelog")


def state_now(home: Path | None = None):
    """The one session of the test: its final state and its replay."""
    import os

    from companion.export.replay import replay
    from companion.export.source import Source
    from tests.helpers import open_session, store

    home = home or Path(os.environ["COMPANION_HOME"])
    [name] = store(home).slugs()
    session = open_session(home, name)
    with session.files.locked():
        src = Source.of(session)
    return src.state, replay(src.meta, src.events)


def test_the_haunted_tower():
    ok("new", "haunted-tower", "--seed", "5")
    ok("haunted", "hero", "Aria", "--speed", "6", "--hp", "6", "--attack", "3", "--ac", "5", "--ability", "fighter")
    ok("haunted", "hero", "Bram", "--speed", "5", "--hp", "5", "--attack", "2", "--ac", "4", "--ability", "cleric")
    ok("haunted", "hero", "Cael", "--speed", "7", "--hp", "4", "--attack", "2", "--ac", "3", "--ability", "elf")
    ok("haunted", "first", "--got", "9,2,3")
    ok("haunted", "fight", "Aria", "ghoul")
    ok("haunted", "init", "--got", "5,2")
    ok("haunted", "attack", "--got", "6")
    ok("haunted", "attack", "--got", "6", "--table", "2")
    ok("haunted", "init", "--got", "6,1")
    ok("haunted", "attack", "--got", "3")
    text = exported()
    state, fights = state_now()
    checked(text, state, fights)
    log = read(text)
    assert log.combats and log.combats[0].rounds >= 2, "the ghoul's fight, round by round"


def test_the_dragons_den():
    ok("new", "dragons-den", "--seed", "7")
    ok("dragon", "setup", "sam", "talina", "--chits", "physical", "--dragon", "9", "--discard", "1", "--discard", "2")
    ok("mode", "physical")
    ok("dragon", "reveal", "4", "--chit", "m19", "--chit", "t7")
    chief = "lizard-man-chieftain"
    for got in (None, "3", "3", None):  # as tests/test_export_moments.py plays it: Sam, Talina, the chieftain
        ok("dragon", "attack", chief)
        ok("dragon", "end-turn")
        ok("dragon", "attack", chief)
        if '"slain"' in ok("dragon", "health", "--json"):
            break
        ok("dragon", "end-turn")
        if got is not None:
            ok("dragon", "attack", chief, "sam", "--got", got)
        ok("dragon", "end-turn")
    text = exported()
    state, fights = state_now()
    checked(text, state, fights)
    foes = read(text).foes
    assert foes["Lizard Man Chieftain"] in ("dead", "HP 0", "HP 1", "HP 2"), "each hit on the foe, tagged"


def test_the_dark_tower(tmp_path):
    from tests.dark_tower_session import play, run_steps

    play("en", tmp_path)
    [(_, printed)] = run_steps([["export", "-", "--format", "lonelog"]], tmp_path)
    text = printed.split("\n", 1)[1]
    state, rep = state_now(tmp_path / "home")
    checked(text, state, rep)
    log = read(text)
    assert log.scenes == ["Floor 1", "Floor 2", "Floor 3"]
    assert len(log.combats) == 2 and all(c.rolls == 1 and c.rounds == 1 for c in log.combats), "one roll a fight"


def test_a_table_pack_session():
    ok("new", "freeform", "--name", "keep", "--seed", "4", "--tables", KEEP)
    ok("roll", "DR", "stair", "--got", "3")
    ok("roll", "DR", "stair")
    ok("fight", "start", "sword", "--foe", "warden")
    for rounds in range(40):  # round after round until the fight is over
        result = runner.invoke(app, ["fight", "round"])
        if result.exit_code:
            assert rounds and "no fight is in progress" in result.stderr, result.stderr
            break
    text = exported()
    state, fights = state_now()
    checked(text, state, fights)
    log = read(text)
    assert len(log.tables) == 2 and all("stair" in roll for roll, _ in log.tables)


@pytest.mark.parametrize(
    "bad",
    [
        "---\n---\n\n@ outside a fence\n",
        "---\n---\n\n```\nd: 2d6=8 vs 7\n```\n",
        "---\n---\n\n```\n[COMBAT]\nRd2\n[/COMBAT]\n```\n",
        "---\n---\n\n```\n[DUNGEON STATUS]\n[Inv:Torch|3]\n[/DUNGEON STATUS]\n```\n",
        "---\n---\n\n```\n[RESOURCES]\n```\n",
    ],
)
def test_the_reader_refuses_what_the_spec_does_not_write(bad):
    with pytest.raises(NotLonelog):
        read(bad)
