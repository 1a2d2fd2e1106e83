"""A pack fight played through the commands, with typed dice, against the rules worked out by hand.

The Ashen Keep (examples/tables/ashen-keep.toml): 2d6 + SKILL each; the higher total wounds the other
for 2 STAMINA, a tie does nothing; after a wound that leaves both standing, a LUCK test (2d6 <= LUCK,
then LUCK -1): lucky after a won round, the foe loses 2 more; unlucky, it gets 1 back; lucky after a
lost round, you get 1 back; unlucky, you lose 1 more. Fleeing costs 2 STAMINA. Nobody goes below 0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import cli, open_session, regenerated_log

KEEP = str(Path(__file__).resolve().parent.parent / "examples" / "tables" / "ashen-keep.toml")


def run(*args: str):
    result = cli(*args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result


def step(*args: str) -> dict:
    return json.loads(run(*args, "--json").stdout)


def numbers() -> tuple[dict, dict]:
    """(yours, the foe's) as the session keeps them now."""
    mine = {k: v["value"] for k, v in step("tracker").items()}
    fight = step("fight")
    return mine, (fight["foe_numbers"] if fight["fight"] else {})


def refused(isolated_home, *args: str, says: str) -> None:
    before = open_session(isolated_home, "keep").count
    result = cli(*args)
    assert result.exit_code == 2 and says in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1
    assert open_session(isolated_home, "keep").count == before  # nothing recorded


@pytest.fixture
def keep(isolated_home):
    run("new", "freeform", "--name", "keep", "--seed", "5", "--tables", KEEP, "--got", "3/3,3/4")
    return isolated_home


def test_a_whole_fight_by_the_rules_a_tie_luck_after_a_win_and_a_loss_and_a_flee(keep):
    # 1. The Iron warden from [foes]: SKILL 9, STAMINA 10; you SKILL 9, STAMINA 18, LUCK 10.
    start = step("fight", "start", "sword", "--foe", "warden")
    assert (start["foe"], start["foe_numbers"], start["you"]) == (
        "Iron warden",
        {"SKILL": 9, "STAMINA": 10},
        {"SKILL": 9, "STAMINA": 18, "LUCK": 10},
    )
    refused(keep, "fight", "luck", says="no round is played yet")
    # 2. A tie: 3+3+9 = 15 against 3+3+9 = 15; nothing changes, and there is no wound to test LUCK on.
    r = step("fight", "round", "--got", "3,3/3,3")
    assert (r["result"], r["totals"], r["effects"], r["over"]) == ("tie", [15, 15], [], None)
    assert numbers() == ({"SKILL": 9, "STAMINA": 18, "LUCK": 10, "provisions": 4}, {"SKILL": 9, "STAMINA": 10})
    refused(keep, "fight", "luck", says="round 1 was a tie")
    # 3. A win: 6+5+9 = 20 against 1+2+9 = 12: the warden 10 -> 8.
    r = step("fight", "round", "--got", "6,5/1,2")
    assert (r["result"], r["totals"]) == ("win", [20, 12])
    assert numbers()[1] == {"SKILL": 9, "STAMINA": 8}
    # 4. LUCK after the win: 2+3 = 5 <= 10, lucky: the warden loses 2 more (8 -> 6), LUCK 10 -> 9.
    r = step("fight", "luck", "--got", "2,3")
    assert r["passed"] is True
    assert numbers() == ({"SKILL": 9, "STAMINA": 18, "LUCK": 9, "provisions": 4}, {"SKILL": 9, "STAMINA": 6})
    refused(keep, "fight", "luck", says="the LUCK test after round 2 is taken")
    # 5. A loss: 1+1+9 = 11 against 6+6+9 = 21: you 18 -> 16.
    r = step("fight", "round", "--got", "1,1/6,6")
    assert (r["result"], r["totals"]) == ("lose", [11, 21])
    assert numbers()[0]["STAMINA"] == 16
    # 6. LUCK after the loss: 6+6 = 12 > 9, unlucky: you lose 1 more (16 -> 15), LUCK 9 -> 8.
    r = step("fight", "luck", "--got", "6,6")
    assert r["passed"] is False
    assert numbers() == ({"SKILL": 9, "STAMINA": 15, "LUCK": 8, "provisions": 4}, {"SKILL": 9, "STAMINA": 6})
    # 7. Another loss, 2+2+9 = 13 against 5+5+9 = 19 (15 -> 13), and a lucky test: 1+1 = 2 <= 8, you get 1
    #    back (13 -> 14), LUCK 8 -> 7.
    assert step("fight", "round", "--got", "2,2/5,5")["result"] == "lose"
    assert numbers()[0]["STAMINA"] == 13
    assert step("fight", "luck", "--got", "1,1")["passed"] is True
    assert numbers()[0] == {"SKILL": 9, "STAMINA": 14, "LUCK": 7, "provisions": 4}
    # 8. A win (21 against 11: the warden 6 -> 4), then unlucky (6+5 = 11 > 7): it gets 1 back (4 -> 5).
    assert step("fight", "round", "--got", "6,6/1,1")["result"] == "win"
    assert numbers()[1]["STAMINA"] == 4
    assert step("fight", "luck", "--got", "6,5")["passed"] is False
    assert numbers() == ({"SKILL": 9, "STAMINA": 14, "LUCK": 6, "provisions": 4}, {"SKILL": 9, "STAMINA": 5})
    # 9. Flee: it costs 2 STAMINA (14 -> 12), and the fight is over.
    r = step("fight", "flee")
    assert r["over"] == "flee"
    assert numbers() == ({"SKILL": 9, "STAMINA": 12, "LUCK": 6, "provisions": 4}, {})
    log = run("log").stdout
    for line in (
        "Fight (Sword against claw): Iron warden, SKILL 9, STAMINA 10",
        "Round 1: a tie, 15 to 15.",
        "Round 2: you win it, 20 to 12.",
        "LUCK test after round 2: lucky.",
        "Round 3: Iron warden wins it, 21 to 11.",
        "STAMINA: 15/18 (Sword against claw, Iron warden: STAMINA -1)",
        "Iron warden: STAMINA 5/10",
        "You got away from Iron warden, after 5 rounds.",
    ):
        assert line in log, line
    assert "`2d6` +9 SKILL → `[6] [5]` = 20 · physical — Round 2: your attack" in log
    assert log == regenerated_log(keep, "keep")


def test_the_last_point_of_stamina_a_kill_and_a_flee_that_costs_the_last(keep):
    run("tracker", "STAMINA", "=3")
    step("fight", "start", "sword", "--foe", "ghoul")  # SKILL 7, STAMINA 6
    # A loss: 1+1+9 = 11 against 6+6+7 = 19: 3 -> 1.
    assert step("fight", "round", "--got", "1,1/6,6")["over"] is None
    assert numbers()[0]["STAMINA"] == 1
    # The last point: another loss takes 2 from 1 and stops at 0: you are down, no LUCK test after it.
    r = step("fight", "round", "--got", "1,2/6,6")
    assert (r["result"], r["over"]) == ("lose", "lose")
    assert numbers() == ({"SKILL": 9, "STAMINA": 0, "LUCK": 10, "provisions": 4}, {})
    assert "You are down: Cinder ghoul wins the fight, in 2 rounds." in run("log").stdout
    refused(keep, "fight", "luck", says="no fight is in progress")
    # A kill: the ghoul's 6 go by 2 (20 against 9), then 2 more for luck (4 -> 2), then the last 2 (0).
    run("tracker", "STAMINA", "=18")
    step("fight", "start", "sword", "--foe", "ghoul")
    assert step("fight", "round", "--got", "6,5/1,1")["foe_numbers"] == {"SKILL": 7, "STAMINA": 4}
    assert step("fight", "luck", "--got", "1,1")["foe_numbers"] == {"SKILL": 7, "STAMINA": 2}
    r = step("fight", "round", "--got", "6,5/1,1")
    assert (r["over"], r["foe_numbers"]) == ("win", {"SKILL": 7, "STAMINA": 0})
    # Fleeing at 2 STAMINA costs the last two: the flight is the end of you.
    run("tracker", "STAMINA", "=2")
    step("fight", "start", "sword", "--foe", "Rat", "SKILL=5", "STAMINA=4")
    assert step("fight", "flee")["over"] == "lose"
    assert numbers()[0]["STAMINA"] == 0


def test_a_foe_of_your_own_may_have_a_name_of_several_words_unquoted(keep):
    start = step("fight", "start", "sword", "--foe", "Cave", "troll", "SKILL=8", "STAMINA=9")
    assert (start["foe"], start["foe_numbers"]) == ("Cave troll", {"SKILL": 8, "STAMINA": 9})
    run("fight", "end")
    odds = step("odds", "fight", "pack", "sword", "--foe", "Cave", "troll", "SKILL=8", "STAMINA=9")
    assert odds["foe"] == {"name": "Cave troll", "SKILL": 8, "STAMINA": 9}
    refused(keep, "fight", "start", "sword", "--foe", "Cave", "SKILL=8", "troll", says="'troll' is not a number")


def test_undo_takes_a_round_back_and_the_fight_goes_on(keep):
    step("fight", "start", "sword", "--foe", "warden")
    step("fight", "round", "--got", "6,6/1,1")
    assert numbers()[1]["STAMINA"] == 8
    run("undo")
    assert numbers()[1]["STAMINA"] == 10
    assert step("fight")["rounds"] == 0
    step("fight", "round", "--got", "1,1/6,6")
    assert numbers()[0]["STAMINA"] == 16


def test_virtual_rounds_draw_from_the_session_dice_and_replay_the_same(keep):
    step("fight", "start", "sword", "--foe", "wyrm")
    rolls = [step("fight", "round")["rolls"] for _ in range(3)]
    assert all(r["src"] == "virtual" and len(r["faces"]) == 2 for rs in rolls for r in rs)
    assert run("log").stdout == regenerated_log(keep, "keep")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("fight", "round"), "no fight is in progress"),
        (("fight", "start", "axe", "--foe", "ghoul"), "no fight 'axe' in your table packs; fights: ashen-keep/sword"),
        (("fight", "start", "sword"), "name the foe: --foe NAME (from [foes]: ghoul, warden, wyrm)"),
        (("fight", "start", "sword", "--foe", "Bat", "SKILL=5"), "Bat needs STAMINA for fight sword: give STAMINA=N"),
        (("fight", "start", "sword", "--foe", "ghoul", "LUCK=3"), "fight sword reads the foe's SKILL, STAMINA; LUCK"),
        (("fight", "start", "sword", "--foe", "Bat", "SKILL=5", "STAMINA=0"), "is over before it starts"),
        (("fight", "start", "sword", "--foe", "ghoul", "SKILL=nine"), "'SKILL=nine' is not a number"),
    ],
)
def test_what_cannot_be_played_is_refused_and_nothing_is_recorded(keep, args, says):
    refused(keep, *args, says=says)


def test_a_round_in_progress_is_refused_a_second_start_and_bad_faces(keep):
    step("fight", "start", "sword", "--foe", "ghoul")
    refused(keep, "fight", "start", "sword", "--foe", "warden", says="a fight is in progress already")
    refused(keep, "fight", "round", "--got", "7,1/2,2", says="'7' is not a face of a d6")
    refused(keep, "fight", "round", "--got", "1,1/2,2/3,3", says="--got gives 3 rolls and this takes 2")


def test_a_table_fight_reads_the_ratio_the_die_and_the_cell(isolated_home):
    road = str(Path(KEEP).with_name("salt-road.toml"))
    run("new", "freeform", "--name", "road", "--seed", "1", "--tables", road)
    # COMBAT 15 against the raider's 16: ratio -1, column "-2..-1"; a d10's 10 is read as 0.
    step("fight", "start", "blade", "--foe", "raider")
    r = step("fight", "round", "--got", "10")  # row 0, column -2..-1: "1/5"
    assert r["table"] == {"ratio": -1, "column": "-2..-1", "reading": 0, "cell": "1/5"}
    assert (r["you"]["ENDURANCE"], r["foe_numbers"]["ENDURANCE"]) == (20, 19)
    r = step("fight", "round", "--got", "9")  # row 9: "9/0"
    assert (r["you"]["ENDURANCE"], r["foe_numbers"]["ENDURANCE"]) == (20, 10)
    assert "Round 2: ratio -1 (column -2..-1), row 9: 9/0." in run("log").stdout
    run("fight", "end")
    # The glass djinn (COMBAT 22): ratio -7, column "-8..-7"; row 0 there is "1/7".
    step("fight", "start", "blade", "--foe", "djinn")
    r = step("fight", "round", "--got", "10")
    assert (r["table"]["column"], r["table"]["cell"], r["you"]["ENDURANCE"]) == ("-8..-7", "1/7", 13)


def test_odds_fight_pack_gives_the_named_keys_and_the_fight_in_progress_as_it_stands(keep):
    from fractions import Fraction

    from companion.packs.fight_model import Ref
    from companion.packs.fight_odds import fight_odds
    from companion.packs.pack import read_pack

    data = step("odds", "fight", "pack", "sword", "--foe", "warden")
    for key in ("win", "lose", "flee", "stamina", "rounds"):
        assert key in data, key
    assert set(data["luck"]) == {"never", "always"}
    assert set(data["stamina"]) == {"STAMINA", "foe.STAMINA"}
    assert sum(Fraction(p) for p in data["stamina"]["STAMINA"].values()) == 1
    assert Fraction(data["win"]) + Fraction(data["lose"]) == 1 and data["flee"] == "0/1"
    pack = read_pack(KEEP)
    refs = {k: Ref("you", k.lower() if k != "STAMINA" else "hp", k) for k in ("SKILL", "STAMINA", "LUCK")}
    foe = {k: Ref("foe", k.lower(), k) for k in ("SKILL", "STAMINA")}
    values = {refs["SKILL"]: 9, refs["STAMINA"]: 18, refs["LUCK"]: 10, foe["SKILL"]: 9, foe["STAMINA"]: 10}
    maxes = {refs["SKILL"]: 9, refs["STAMINA"]: 18, refs["LUCK"]: 10, foe["SKILL"]: 9, foe["STAMINA"]: 10}
    exact = fight_odds(pack.fights["sword"], values, maxes, check=pack.checks["luck"], policy="always")
    assert data["luck"]["always"]["win"] == f"{exact.win.numerator}/{exact.win.denominator}"
    # In a fight: the odds of the fight as it stands (the warden at 8, you at 18), and --set for a what-if.
    step("fight", "start", "sword", "--foe", "warden")
    step("fight", "round", "--got", "6,6/1,1")
    now = step("odds", "fight", "pack")
    assert now["foe"] == {"name": "Iron warden", "SKILL": 9, "STAMINA": 8}
    assert Fraction(now["win"]) > Fraction(data["win"])
    what_if = step("odds", "fight", "pack", "--set", "STAMINA=2")
    assert what_if["you"]["STAMINA"] == 2 and Fraction(what_if["win"]) < Fraction(now["win"])
    assert step("tracker")["STAMINA"]["value"] == 18  # a what-if changes nothing


def test_odds_fight_pack_refuses_what_it_cannot_count(keep):
    for args, says in (
        (("odds", "fight", "pack"), "name a fight"),
        (("odds", "fight", "pack", "sword", "--foe", "ghoul", "--set", "STAMINA=40"), "above its max 18"),
        (("odds", "fight", "pack", "sword", "--foe", "ghoul", "--set", "MIGHT=3"), "--set MIGHT: fight sword reads"),
        (("odds", "fight", "pack", "sword", "--tables", KEEP, "--foe", "ghoul", "--flee-at", "x"), "--flee-at"),
    ):
        result = cli(*args)
        assert result.exit_code == 2 and says in result.stderr, (args, result.stderr)


def test_the_gamebooks_section_of_docs_tables_shows_what_the_commands_print(isolated_home, monkeypatch):
    """Each `$ companion ...` of the section, run in order in a fresh home: its output is the one shown
    (a line "..." stands for lines left out; the log's folder differs on every machine)."""
    import re
    import shlex

    root = Path(KEEP).parent.parent.parent
    monkeypatch.chdir(root)
    monkeypatch.setenv("COLUMNS", "120")
    text = (root / "docs" / "tables.md").read_text(encoding="utf-8")
    section = text.split("## Gamebooks", 1)[1].split("\n## ", 1)[0]
    checked = 0
    for block in re.findall(r"```console\n(.*?)```", section, flags=re.S):
        lines = block.rstrip("\n").splitlines()
        i = 0
        while i < len(lines):
            command = lines[i][2:]
            shown = []
            i += 1
            while i < len(lines) and not lines[i].startswith("$ "):
                shown.append(lines[i])
                i += 1
            result = cli(*shlex.split(command, comments=True)[1:])
            assert result.exit_code == 0, (command, result.stderr)
            if not shown:
                continue
            got = [line.rstrip() for line in result.stdout.splitlines()]
            pattern = "\n".join(".*?" if s.strip() == "..." else re.escape(s.rstrip()) for s in shown)
            pattern = pattern.replace(re.escape("/home/you/tables-tour/logs/"), ".*/")
            assert re.fullmatch(pattern, "\n".join(got), flags=re.S), (command, got)
            checked += 1
    assert checked >= 8
