"""The session as a timeline (issue 39): ``history [--json] [--last N]``, ``undo --to N``, ``redo``
and ``redo --all``, through the commands a player types: every action in words, what undo took back
shown apart and kept for the record (the undone journal), one step back however far, and the way
back along a gamebook's sections kept as a branch in the decision log."""

from __future__ import annotations

import json

import pytest

from tests.helpers import cli, open_session, regenerated_log


def ok(*args: str, input: str | None = None):
    result = cli(*args, input=input)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result


def history() -> dict:
    return json.loads(ok("history", "--json").stdout)


@pytest.fixture
def five(isolated_home):
    """A freeform session with five actions: two rolls, a note, HP set and lost."""
    ok("new", "freeform", "--name", "t", "--seed", "7")
    ok("roll", "2d6", "--why", "the gate's lock")
    ok("note", "a draught from below")
    ok("hp", "--max", "10")
    ok("hp", "-3")
    ok("roll", "1d20>=12", "--why", "a leap")
    return isolated_home


def test_history_lists_every_action_with_its_words(five):
    data = history()
    assert [a["n"] for a in data["actions"]] == [1, 2, 3, 4, 5]
    words = [a["words"] for a in data["actions"]]
    assert words[0].startswith("the gate's lock: 2d6  [")
    assert words[1] == "a note: 'a draught from below'"
    assert words[2:4] == ["HP max 10", "HP −3"]
    leap = data["actions"][4]
    assert leap["what"] == "a leap" and leap["roll"].startswith("1d20>=12  [") and leap["odds"] == "9/20 (45.0%)"
    assert data["undone"] == []
    text = ok("history").stdout
    assert "t: 5 actions" in text and "#5  a leap: 1d20>=12" in text and "odds 9/20 (45.0%)" in text
    last = json.loads(ok("history", "--last", "2", "--json").stdout)
    assert [a["n"] for a in last["actions"]] == [4, 5]
    assert "the first 3 left out" in ok("history", "--last", "2").stdout


def test_undo_to_2_after_five_actions_leaves_two_and_redo_brings_the_third_back(five, isolated_home):
    said = ok("undo", "--to", "2", "--yes").stdout
    assert said.startswith("Took back 3 actions: #3 HP max 10 … #5 a leap: 1d20>=12")
    assert "Now after #2." in said
    data = history()
    assert [a["n"] for a in data["actions"]] == [1, 2]
    assert open_session(isolated_home, "t").count == 2
    (taken,) = data["undone"]
    assert taken["after"] == 2 and taken["redo"] is True
    assert [a["words"] for a in taken["actions"]][:2] == ["HP max 10", "HP −3"]
    assert ok("redo").stdout.startswith("Redone: HP max 10 (#3).\n2 more actions can be redone")
    assert [a["n"] for a in history()["actions"]] == [1, 2, 3]
    ok("redo", "--all")
    assert [a["n"] for a in history()["actions"]] == [1, 2, 3, 4, 5]
    assert history()["undone"] == []  # all brought back: nothing is apart
    assert cli("redo").exit_code == 1


def test_undo_to_is_one_step_and_the_log_and_state_are_as_they_were(five, isolated_home):
    before = open_session(isolated_home, "t")
    log_after_two = None
    ok("undo", "--to", "2", "--yes")
    s = open_session(isolated_home, "t")
    assert "hp" not in s.state.trackers.counters and s.state.rolls == 1
    log_after_two = (isolated_home.parent / "logs" / "t.md").read_text(encoding="utf-8")
    assert "a leap" not in log_after_two and "a draught from below" in log_after_two
    assert regenerated_log(isolated_home, "t").split("\n---\n", 1)[1] == log_after_two.split("\n---\n", 1)[1]
    assert before.count == 5


def test_without_a_terminal_undo_to_asks_for_yes_in_one_line_and_changes_nothing(five, isolated_home):
    result = cli("undo", "--to", "2")
    assert result.exit_code == 2
    assert result.stderr == (
        "companion: undo --to 2 takes back 3 actions (#3 to #5): give --yes to take them back without a terminal "
        "to confirm\n"
    )
    assert open_session(isolated_home, "t").count == 5
    # one action needs no question
    assert ok("undo", "--to", "4").stdout.startswith("Undone: a leap: 1d20>=12")


def test_undo_to_what_is_not_there_is_one_line(five):
    result = cli("undo", "--to", "5")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "the session has 5 actions, so nothing comes after #5" in result.stderr
    assert cli("undo", "--to", "-1").exit_code == 2


def test_what_undo_took_back_and_left_for_another_way_is_kept_for_the_record(five, isolated_home):
    ok("undo", "--to", "3", "--yes")
    ok("note", "another way")  # the redo list is gone: #4 and #5 were left for it
    data = history()
    assert [a["n"] for a in data["actions"]] == [1, 2, 3, 4]
    (taken,) = data["undone"]
    assert taken["redo"] is False and [a["n"] for a in taken["actions"]] == [4, 5]
    assert "left for another way" in ok("history").stdout
    records = open_session(isolated_home, "t").files.undone.read()
    assert [e["id"] for e in records[0]["events"]] == [4, 5] and records[0]["after"] == 3


def test_undo_to_reaches_back_past_sealed_events_files(isolated_home):
    from companion.store.events import SEGMENT

    ok("new", "freeform", "--name", "long", "--seed", "1")
    s = open_session(isolated_home, "long")
    files = s.files
    from companion.store import bulk

    with files.locked():
        bulk.write_events(
            files, [{"t": "note", "text": f"n{i}", "at": "2026-12-01T00:00:00Z"} for i in range(2 * SEGMENT + 40)]
        )
    ok("note", "the last")
    total = 2 * SEGMENT + 41
    assert open_session(isolated_home, "long").files.events.segments()  # some are sealed
    ok("undo", "--to", "10", "--yes")
    s = open_session(isolated_home, "long")
    assert s.count == 10 and [e["text"] for e in s.files.read_events()][-1] == "n9"
    ok("redo", "--all")
    s = open_session(isolated_home, "long")
    assert s.count == total and s.files.read_events()[-1]["text"] == "the last"


def test_a_guided_game_undoes_to_a_step_and_says_each_answer_in_its_own_words(isolated_home):
    ok("new", "inverted-tower", "--name", "it", "--seed", "3", "--hero", "Ann")
    for answer in ("STR", "roll", "roll", "roll"):
        ok("next", answer)
    words = [a["words"] for a in history()["actions"]]
    assert words[0] == "Your hero: put 1 point in which attribute → STR: how strong your character is"
    assert words[1].startswith("New room: an event on a pass, an encounter on a fail: DC  [")
    assert all("room.dc" not in w and "hero.attribute" not in w for w in words)
    said = ok("undo", "--to", "1", "--yes").stdout
    assert "Took back 3 actions: #2 New room" in said
    step = json.loads(ok("next", "--json").stdout)["pending"]
    assert step["key"] == "room.dc"
    ok("redo")
    assert json.loads(ok("next", "--json").stdout)["pending"]["key"] != "room.dc"
    # what redo did not bring back yet is still said in its own words, not as "an answer in guided play"
    (taken,) = history()["undone"]
    assert [a["n"] for a in taken["actions"]] == [3, 4] and taken["redo"] is True
    assert [a["words"] for a in taken["actions"]] == words[2:4]


# ---- a gamebook's branches --------------------------------------------------------------------------


def log_lines(home) -> list[str]:
    body = (home.parent / "logs" / "book.md").read_text(encoding="utf-8").split("\n# ", 1)[1]
    return [line for line in body.splitlines() if line.startswith(("- ", "  - "))]


def test_section_back_keeps_the_way_left_as_a_branch_of_the_decision_log(isolated_home):
    ok("new", "freeform", "--name", "book", "--seed", "1")
    ok("section", "1", "--note", "into the keep")
    ok("section", "52")
    ok("section", "7", "--note", "a pit")
    ok("section", "back", "2")
    assert log_lines(isolated_home)[-2:] == ["- §1 — back 2, from §7", "  - tried: §52 → §7, went back"]
    assert json.loads(ok("sections", "--json").stdout)["branches"] == [{"from": 1, "path": [52, 7], "how": "back"}]
    assert "Tried from §1: §52 → §7, went back" in ok("sections").stdout


def test_undo_to_past_sections_keeps_them_as_a_branch_once_another_way_is_taken(isolated_home):
    ok("new", "freeform", "--name", "book", "--seed", "1")
    ok("section", "1", "--note", "into the keep")
    ok("roll", "2d6", "--got", "3,4")
    ok("section", "52")
    ok("section", "7", "--note", "a pit")
    ok("roll", "1d6", "--got", "1", "--why", "the fall")
    ok("undo", "--to", "2", "--yes")
    assert not any("tried" in line for line in log_lines(isolated_home))  # redo can still bring it back
    ok("section", "60", "--note", "the other door")
    lines = log_lines(isolated_home)
    assert "  - tried: §52 → §7, went back" in lines
    assert lines.index("  - tried: §52 → §7, went back") < lines.index("- §60 — the other door")
    assert (
        regenerated_log(isolated_home, "book").split("\n---\n", 1)[1]
        == ((isolated_home.parent / "logs" / "book.md").read_text(encoding="utf-8").split("\n---\n", 1)[1])
    )
    branches = json.loads(ok("sections", "--json").stdout)["branches"]
    assert branches == [{"from": 1, "path": [52, 7], "how": "undo"}]
    # the journal was only appended to: the undone sections are in the undone journal, not rewritten
    s = open_session(isolated_home, "book")
    assert [e.get("n") for e in s.files.undone.read()[0]["events"] if e["t"] == "section"] == [52, 7]
    assert s.files.read_events()[-1]["tried"] == [52, 7]


def test_undo_to_in_a_session_opened_from_a_checkpoint_takes_the_log_back_by_its_edits(isolated_home):
    ok("new", "freeform", "--name", "t", "--seed", "2")
    s = open_session(isolated_home, "t")
    with s.files.locked():
        for i in range(100):
            s.record({"t": "note", "text": f"n{i}"} if i % 3 else {"t": "roll", "expr": "1d6", "faces": [i % 6 + 1]})
    assert open_session(isolated_home, "t").state.log.partial  # opened from its newest checkpoint
    ok("undo", "--to", "91", "--yes")
    log = (isolated_home.parent / "logs" / "t.md").read_text(encoding="utf-8")
    assert log.split("\n---\n", 1)[1] == regenerated_log(isolated_home, "t").split("\n---\n", 1)[1]
    assert "n89" in log and "n91" not in log  # event 91 is the roll of i = 90


def test_the_exports_keep_the_ways_tried(isolated_home, tmp_path):
    ok("new", "freeform", "--name", "book", "--seed", "1")
    for args in (("section", "1"), ("section", "52"), ("section", "7"), ("section", "back", "2"), ("section", "60")):
        ok(*args)
    ok("section", "61")
    ok("undo", "--to", "5", "--yes")
    ok("section", "62")
    page = tmp_path / "book.html"
    ok("export", str(page), "-f", "html")
    text = page.read_text(encoding="utf-8")
    assert "from §1: §52 → §7, went back" in text and "from §60: §61, taken back by undo" in text
    lonelog = ok("export", "-", "-f", "lonelog").stdout
    assert "=> tried: §52 -> §7, went back" in lonelog and "=> tried: §61, went back" in lonelog
    assert "tried: §61, went back" in ok("export", "-", "-f", "md").stdout


def test_an_action_undone_twice_is_shown_once_with_its_last_undo(five):
    ok("undo", "--to", "2", "--yes")
    ok("redo", "--all")
    ok("undo")
    (taken,) = history()["undone"]
    assert taken["after"] == 4 and [a["n"] for a in taken["actions"]] == [5]


def test_the_game_data_a_session_starts_with_is_no_action_to_take_back(isolated_home):
    ok("new", "dark-tower", "--name", "first", "--seed", "1")
    ok("dark", "card", "monster", "Troll", "--floor", "2", "--strength", "9")  # kept in the catalogue
    ok("new", "dark-tower", "--name", "second", "--seed", "2")
    ok("note", "a second game")
    assert history()["actions"][0]["n"] == 1  # the copy is shown, as what it is
    assert history()["actions"][0]["words"] == "the numbers kept from an earlier game"
    result = cli("undo", "--to", "0", "--yes")
    assert result.exit_code == 2 and "undo --to 1 takes back every action" in result.stderr
    assert ok("undo", "--to", "1").stdout.startswith("Undone: a note: 'a second game' (#2).")


def test_a_correction_is_said_as_one_and_a_possessive_as_the_language_writes_it(isolated_home):
    ok("new", "freeform", "--name", "c")
    ok("hp", "--max", "10")
    ok("hp", "5", "--correct")
    ok("tally", "add", "Obsidian Knuckles", "3", "--monster")
    ok("tally", "remove", "Obsidian Knuckles")
    words = [a["words"] for a in history()["actions"]]
    assert words[1].startswith("corrected: HP")
    assert words[3] == "Obsidian Knuckles' tally removed"
    assert ok("undo").stdout.startswith("Undone: Obsidian Knuckles' tally removed (#4).")
