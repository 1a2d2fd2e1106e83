"""Sessions end to end: commands, trackers, undo/redo/amend, and the log (live = regenerated, valid)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from companion.session import codec
from tests.helpers import cli, cli_json, open_session, regenerated_log


def home() -> Path:
    return Path(os.environ["COMPANION_HOME"])


def logs() -> Path:
    return Path(os.environ["COMPANION_LOGS"])


def new(name: str = "s", *extra: str) -> None:
    result = cli("new", "freeform", "--name", name, "--seed", "42", *extra)
    assert result.exit_code == 0, result.stderr


# ---- commands --------------------------------------------------------------------------------


def test_new_sessions_use_and_status() -> None:
    data = cli_json("new", "freeform", "--name", "First Run", "--seed", "7", "--physical")
    assert data["slug"] == "first-run" and data["dice"] == "physical" and data["seed"] == 7
    new("second")
    rows = cli_json("sessions")
    assert [(r["session"], r["current"]) for r in rows] == [("first-run", False), ("second", True)]
    assert cli("use", "first-run").exit_code == 0
    status = cli_json("status")
    assert status["session"] == "First Run" and status["meta"]["dice"] == "physical"
    assert cli("use", "nobody").exit_code == 2  # a name that does not exist is bad input


def test_a_roll_in_an_active_session_is_recorded() -> None:
    new()
    first = cli_json("roll", "2d6")
    assert first["session"] == "s" and first["source"] == "virtual" and "seed" not in first
    second = cli_json("roll", "DC", "--got", "5", "--mod", "-1", "--why", "attack")
    assert second["success"] is False and second["source"] == "physical"  # 5 - 1 = 4, short of 5
    session = open_session(home(), "s")
    assert session.count == 2 and session.state.rolls == 2
    text = (logs() / "s.md").read_text()
    assert "d: `DC` −1 → `[5]` vs 6+ → **fail** · physical — attack" in text  # what the die must show


def test_session_virtual_dice_follow_one_seeded_stream() -> None:
    """Two sessions with the same seed roll the same dice, across separate commands."""
    new("a")
    a = [cli_json("roll", "d20")["dice"] for _ in range(4)]
    new("b")
    b = [cli_json("roll", "d20")["dice"] for _ in range(4)]
    assert a == b
    from companion.dice.expr import parse
    from companion.dice.source import VirtualDice

    dice = VirtualDice(42)
    assert a == [list(dice.faces(parse("d20"))) for _ in range(4)]


def test_undo_does_not_reroll_luck_and_redo_restores() -> None:
    new()
    rolled = cli_json("roll", "3d6")["dice"]
    assert cli("undo").exit_code == 0
    assert open_session(home(), "s").count == 0
    assert cli_json("roll", "3d6")["dice"] == rolled
    assert cli("undo").exit_code == 0
    assert cli("redo").exit_code == 0
    assert open_session(home(), "s").count == 1
    assert cli("redo").exit_code == 1  # nothing left to redo
    assert cli("undo").exit_code == 0 and cli("undo").exit_code == 1  # nothing left to undo


def test_trackers_through_the_cli() -> None:
    new()
    assert cli_json("tally", "add", "Adelhardt", "9", "--role", "paladin")[0]["book"] == "Adelhardt – PALADIN: 9"
    assert cli_json("tally", "hit", "Adelhardt", "4")[0]["book"] == "Adelhardt – PALADIN: 9 8 7 6 5"
    assert cli_json("tally", "add", "Ogre Mage", "4", "--monster")[0]["book"] == "Ogre Mage: – (0 of 4 hits)"
    ogre = cli_json("tally", "hit", "Ogre Mage", "4")[0]
    assert ogre["book"] == "Ogre Mage: IIII (4 of 4 hits) (slain)" and ogre["slain"] is True
    assert cli_json("hp", "=5", "--max", "5") == {"name": "hp", "value": 5, "max": 5}
    assert cli_json("hp", "-2")["value"] == 3
    assert cli_json("hp", "+9")["value"] == 5  # never above the maximum
    assert cli_json("gold", "+3")["value"] == 3
    assert cli_json("item", "dagger", "+2") == {"dagger": 2}
    assert cli_json("room", "4", "Mob 1 (killed)", "--state", "cleared")["content"] == "Mob 1 (killed)"
    assert cli_json("floor", "2") == {"floor": 2}
    assert cli_json("room", "1", "Stairs")["floor"] == 2
    text = (logs() / "s.md").read_text()
    assert "- Adelhardt – PALADIN: 9 8 7 6 5" in text
    assert "## Floor 2" in text and "- Room 4: Mob 1 (killed)" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("hp", "lots"), "'lots' is not a change to HP; use +N, -N or =N"),
        (("item", "potion", "-1"), "there is no potion to remove (you have 0)"),
        (("tally", "hit", "Nobody"), "no tally named 'Nobody'"),
        (("mode", "sideways"), "'sideways' is not a dice mode; use virtual or physical"),
        (("note", " "), "a note needs some text"),
        (("roll", "DC", "--got", "9"), "'9' is not a face of a d6; a d6 accepts a whole number from 1 to 6"),
        (("new", "monopoly"), "unknown game 'monopoly'"),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(args: tuple[str, ...], message: str) -> None:
    new()
    before = (logs() / "s.md").read_text()
    result = cli(*args)
    assert result.exit_code in (1, 2)
    assert result.stderr.startswith(f"companion: {message}"), result.stderr
    assert len(result.stderr.strip().splitlines()) <= 2 and "Traceback" not in result.stderr
    assert open_session(home(), "s").count == 0
    assert (logs() / "s.md").read_text() == before


def test_physical_session_without_a_terminal_asks_for_got() -> None:
    new("p", "--physical")
    result = cli("roll", "2d6")
    assert result.exit_code == 2
    assert "this session uses physical dice: give the faces with --got" in result.stderr
    assert cli_json("roll", "2d6", "--got", "3,5")["total"] == 8


def test_amend_keeps_the_correction_in_the_log() -> None:
    new()
    assert cli("roll", "DC", "--got", "2", "--why", "trap").exit_code == 0
    cli("roll", "2d6")  # a virtual roll after it
    result = cli_json("amend", "--reason", "misread the die", "--got", "6")
    assert result["amended"] == 1
    text = (logs() / "s.md").read_text()
    assert "`[6]` (amended from `[2]`: misread the die) vs 5+ → **pass**" in text
    assert "· amended — trap" in text
    assert text == regenerated_log(home(), "s")
    assert cli("undo").exit_code == 0  # the amendment itself can be undone
    assert "amended from" not in (logs() / "s.md").read_text()


def test_an_amendment_of_a_roll_before_a_checkpoint_is_undone_and_redone() -> None:
    # The amendment is folded from the checkpoint before the roll; undoing it writes the log whole from
    # the events before it (not from every event in the files, the undone one still among them then).
    new("s", "--physical")
    assert cli("roll", "2d6", "--got", "3,4").exit_code == 0
    for n in range(40):  # past a checkpoint (one every 32 events)
        assert cli("note", f"n{n}").exit_code == 0
    assert cli("amend", "--reason", "typo", "--got", "6,6").exit_code == 0
    assert "amended from" in (logs() / "s.md").read_text()
    result = cli("undo")
    assert result.exit_code == 0, result.stderr
    status = cli("status")
    assert status.exit_code == 0, status.stderr  # the session opens
    text = (logs() / "s.md").read_text()
    assert "amended from" not in text and "`[3] [4]` = 7" in text
    assert text == regenerated_log(home(), "s")
    assert cli("redo").exit_code == 0
    assert "(amended from `[3] [4]`: typo)" in (logs() / "s.md").read_text()
    assert (logs() / "s.md").read_text() == regenerated_log(home(), "s")


def test_virtual_rolls_cannot_be_amended() -> None:
    new()
    cli("roll", "2d6")
    result = cli("amend", "--reason", "x", "--got", "1,1", "--roll", "1")
    assert result.exit_code == 1 and "was virtual" in result.stderr


def test_export_regenerates_the_same_log(tmp_path: Path) -> None:
    new()
    for args in (
        ("roll", "2d6"),
        ("note", "A door *creaks*"),
        ("tally", "add", "Rat", "2", "--monster"),
        ("floor", "2"),
    ):
        assert cli(*args).exit_code == 0
    out = tmp_path / "export.md"
    assert cli("export", str(out)).exit_code == 0
    assert out.read_text() == (logs() / "s.md").read_text()


# ---- the log is valid YAML + CommonMark -------------------------------------------------------


def test_front_matter_is_yaml_and_body_is_commonmark() -> None:
    new("log-check", "--hero", 'Aria "the bold": STR')
    for args in (
        ("floor", "1"),
        ("room", "1", "Trap (INT) (Failed)", "--state", "trap"),
        ("roll", "DC", "--got", "1", "--mod", "3", "--why", "disarm [the] *trap*"),
        ("room", "4", "Mob 1 (killed) ⟶ Wandering: Yes. Mob 1 (killed), Mob 2 (killed)"),
        ("note", "# not a heading <b>nor html</b> | pipe"),
        ("tally", "add", "Adelhardt", "9", "--role", "paladin"),
    ):
        assert cli(*args).exit_code == 0, args
    text = (logs() / "log-check.md").read_text()
    assert text.startswith("---\n")
    _, front, body = text.split("---\n", 2)
    meta = yaml.safe_load(front)
    assert meta["game"] == "freeform" and meta["session"] == "log-check" and meta["seed"] == 42
    assert meta["hero"] == 'Aria "the bold": STR' and meta["dice"] == "virtual" and meta["variants"] == []
    assert {"started", "updated", "finished", "title"} <= set(meta)
    tokens = MarkdownIt("commonmark").parse(body)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings == ["Freeform session: log-check", "Floor 1", "Sheet"]
    inline = [t.content for t in tokens if t.type == "inline"]
    assert "Room 4: Mob 1 (killed) ⟶ Wandering: Yes. Mob 1 (killed), Mob 2 (killed)" in inline
    assert "Room 1: Trap (INT) (Failed)" in inline
    # player text is literal: no html, no heading, no emphasis from what was typed
    assert not any(t.type in ("html_inline", "html_block") for t in tokens)
    rendered = MarkdownIt("commonmark").render(body)
    assert "<h1>not a heading" not in rendered and "*trap*" in rendered
    # the roll hangs under the room line it was made in (a nested list)
    nested = [t for t in tokens if t.type == "bullet_list_open" and t.level > 0]
    assert nested


# ---- undo/redo round trips and live = regenerated (property) ----------------------------------

ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("roll"), st.sampled_from(["2d6", "DC", "d20", "3dt", "SR a,b,c", "1d6+2>=5"])),
        st.tuples(st.just("physical"), st.integers(1, 6)),
        st.tuples(st.just("note"), st.text(min_size=1, max_size=12).filter(str.strip)),
        st.tuples(st.just("hit"), st.integers(1, 3)),
        st.tuples(st.just("hp"), st.integers(-3, 3)),
        st.tuples(st.just("item"), st.integers(0, 2)),
        st.tuples(st.just("room"), st.integers(1, 12)),
        st.tuples(st.just("floor"), st.integers(1, 3)),
        st.tuples(st.just("talisman"), st.integers(0, 3)),
    ),
    min_size=1,
    max_size=12,
)


def _apply(session, action) -> None:
    from companion.dice.expr import TALISMAN, parse
    from companion.dice.source import read_physical
    from companion.session.fold import roll_event, roll_payload

    kind, value = action
    if kind == "roll":
        session.record(roll_event(session.dice().roll(parse(value)), None))
    elif kind == "physical":
        session.record(roll_event(read_physical(parse("DC"), str(value)), "typed"))
    elif kind == "note":
        session.record({"t": "note", "text": value})
    elif kind == "hit":
        if "Rat" not in session.state.trackers.tallies:
            session.record({"t": "tally", "op": "add", "name": "Rat", "max": 8, "monster": True})
        if not session.state.trackers.tallies["Rat"].slain:  # a hit on a slain monster is refused
            session.record({"t": "tally", "op": "hit", "name": "Rat", "n": value})
    elif kind == "hp":
        session.record({"t": "counter", "name": "hp", "max": 6, "op": "add", "value": value})
    elif kind == "item":
        session.record({"t": "item", "name": "dagger", "delta": value})
    elif kind == "room":
        session.record({"t": "room", "number": value, "content": f"Mob {value}"})
    elif kind == "floor":
        session.record({"t": "floor", "n": value})
    elif kind == "talisman" and not session.state.trackers.talisman.found:
        event = {"t": "talisman", "left": value}
        if value != 0 and not session.state.trackers.talisman.held_by_last:
            event.update(roll_payload(session.dice().roll(TALISMAN)))
        session.record(event)


def _snapshot(session) -> tuple[str, str]:
    return json.dumps(codec.dump(session.state), sort_keys=True), session.log_text()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=ACTIONS, data=st.data())
def test_undo_n_then_redo_n_gives_the_same_state_and_log(tmp_path_factory, actions, data) -> None:
    from companion.session.service import Session
    from companion.store.sessions import Store

    root = tmp_path_factory.mktemp("prop")
    store = Store(root / "home")
    session = Session.create(store, "p", "freeform", seed=3, physical=False, variants=[], logs_dir=root / "logs")
    with session.files.locked():
        for action in actions:
            _apply(session, action)
        full = _snapshot(session)
        assert session.log_text() == (root / "logs" / "p.md").read_text()
        n = data.draw(st.integers(0, session.count))
        for _ in range(n):
            session.undo()
        for _ in range(n):
            session.redo()
        assert _snapshot(session) == full
        # the snapshot on disk, read back by a fresh open, agrees with a rebuild from the events
        reopened = Session.open(session.files)
        assert _snapshot(reopened) == full
        reopened.rebuild()
        assert _snapshot(reopened) == full
