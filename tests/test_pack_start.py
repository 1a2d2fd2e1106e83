"""Character creation from a table pack: ``roll = "1d6+6"`` in ``[trackers]`` rolls each starting score
at ``companion new --tables`` (virtual dice from the session's seed, ``--got`` in tracker order, typed
at a terminal), ``max = "start"`` keeps it there; mistakes are refused before any session is made."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.packs.pack import PackError, parse_pack
from tests.helpers import cli, open_session, regenerated_log

KEEP = str(Path(__file__).resolve().parent.parent / "examples" / "tables" / "ashen-keep.toml")


def sessions(home: Path) -> list[str]:
    folder = home / "sessions"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_virtual_dice_roll_each_score_from_the_session_seed_and_the_max_follows(isolated_home):
    result = cli("new", "freeform", "--name", "hero", "--seed", "11", "--tables", KEEP, "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["rolled"] == {"SKILL": 9, "STAMINA": 22, "LUCK": 9}
    assert cli("tracker", "SKILL", "+1").stdout == "SKILL: 9/9\n"  # never above where it started
    session = open_session(isolated_home, "hero")
    counters = session.state.trackers.counters
    assert [(c.value, c.max) for c in (counters["skill"], counters["hp"], counters["luck"])] == [
        (9, 9),
        (22, 22),
        (9, 9),
    ]
    # The rolls came from the session's own stream: the next virtual roll goes on after them (4 dice).
    from companion.dice.source import VirtualDice

    dice = VirtualDice(session.meta.seed)
    assert [dice.d(6) for _ in range(4)] == [3, 4, 6, 3]
    log = session.log_text()
    assert "d: `1d6` +6 → `[3]` = 9 · virtual — SKILL: your starting score" in log
    assert "- STAMINA: 22/22 (The Ashen Keep: rolled 2d6+12)" in log
    assert log == regenerated_log(isolated_home, "hero")
    audit = cli("dice", "audit", "--json")
    assert audit.exit_code == 0
    counted = sum(entry["rolls"] for entry in json.loads(audit.stdout)["dice"] if entry["source"] == "virtual")
    assert counted == 4


def test_got_gives_the_rolls_in_tracker_order_and_totals_are_taken(isolated_home):
    # a total is the dice's (2d6 showing 6), as for any roll: the score is 6 + 12
    result = cli("new", "freeform", "--name", "keep", "--tables", KEEP, "--got", "3/=6/4", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["rolled"] == {"SKILL": 9, "STAMINA": 18, "LUCK": 10}
    log = open_session(isolated_home, "keep").log_text()
    assert "d: `2d6` +12 → total only = 18 · physical — STAMINA: your starting score" in log


@pytest.mark.parametrize(
    ("got", "says"),
    [
        ("3/3,3,3/4", "--got 3,3,3 (STAMINA, 2d6+12): 2d6 needs 2 values, got 3"),
        ("7/3,3/4", "--got 7 (SKILL, 1d6+6): '7' is not a face of a d6"),
        ("3/3,3/4/5", "--got gives 4 rolls and the packs roll 3 trackers (SKILL, STAMINA, LUCK)"),
        ("3/17/4", "--got 17 (STAMINA, 2d6+12): 17 cannot be rolled on 2d6"),  # 15 is the faces 1 and 5
    ],
)
def test_bad_starting_dice_are_refused_and_no_session_is_made(isolated_home, got, says):
    result = cli("new", "freeform", "--tables", KEEP, "--got", got)
    assert result.exit_code == 2 and says in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1
    assert sessions(isolated_home) == []


def test_physical_dice_without_a_terminal_ask_for_got(isolated_home):
    result = cli("new", "freeform", "--physical", "--tables", KEEP)
    assert result.exit_code == 2
    assert "give the starting rolls with --got, one a tracker in order (SKILL, STAMINA, LUCK)" in result.stderr
    assert sessions(isolated_home) == []
    assert cli("new", "freeform", "--got", "3").exit_code == 2  # no pack rolls anything


def test_a_short_got_rolls_the_rest_with_the_session_dice(isolated_home):
    result = cli("new", "freeform", "--name", "half", "--seed", "11", "--tables", KEEP, "--got", "6", "--json")
    assert result.exit_code == 0, result.stderr
    rolled = json.loads(result.stdout)["rolled"]
    assert rolled["SKILL"] == 12 and rolled["STAMINA"] == 12 + 3 + 4  # the stream's first dice, as above


def test_roll_and_max_start_are_read_as_written():
    pack = parse_pack(
        '[pack]\nname = "p"\n[trackers]\nSKILL = { roll = "1d6+6", max = "start" }\n'
        'LUCK = { start = 8, max = "start" }\n[checks.luck]\ntarget = "<= LUCK"\n',
        "p.toml",
    )
    skill, luck = pack.trackers["skill"], pack.trackers["luck"]
    assert (skill.roll, skill.max, skill.max_start) == ("1d6+6", None, True)
    assert (luck.roll, luck.start, luck.max_start) == ("", 8, True)
    with pytest.raises(PackError, match=r"max = 'most': write a whole number, or max = \"start\""):
        parse_pack(
            '[pack]\nname = "p"\n[trackers]\nA = { start = 1, max = "most" }\n[checks.a]\ntarget = "<= A"\n', "p.toml"
        )


def test_a_fixed_start_with_max_start_is_kept_there(isolated_home, tmp_path):
    pack = tmp_path / "p.toml"
    pack.write_text(
        '[pack]\nname = "p"\n[trackers]\nLUCK = { start = 8, max = "start" }\n[checks.luck]\ntarget = "<= LUCK"\n'
    )
    assert cli("new", "freeform", "--tables", str(pack)).exit_code == 0
    assert cli("tracker", "LUCK", "+3").stdout == "LUCK: 8/8\n"


def test_an_example_pack_named_without_its_path_is_shown_where_it_is(isolated_home, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    result = cli("new", "freeform", "--tables", "ashen-keep")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[1] == "  companion's example pack: --tables examples/tables/ashen-keep.toml"
    assert sessions(isolated_home) == []
    assert cli("new", "freeform", "--tables", "examples/tables/ashen-keep.toml").exit_code == 0
