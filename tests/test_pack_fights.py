"""A pack's ``[fights.NAME]`` and ``[foes]``: what is read, and what ``tables validate`` refuses (one
line with the file and the line of the mistake), with nothing recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.packs.fight_model import FOE, YOU
from companion.packs.pack import PackError, parse_pack, read_pack
from tests.helpers import cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "tables"
BROKEN = Path(__file__).resolve().parent / "packs" / "fights"

#: Each broken pack under tests/packs/fights/ and the exact line companion prints for it (after "FILE:").
REFUSALS = {
    "missing-tracker": "9: fights.sword.attack names SKILL, which is not in [trackers] (trackers: STAMINA); "
    "add it, or write foe.SKILL",
    "never-ends": "14: fight dance never ends: no round moves STAMINA or foe.STAMINA toward until; "
    'give win or lose an effect such as "foe.STAMINA -2"',
    "unbounded": "12: fight leech can raise STAMINA by 1 a round without end, and STAMINA has no max; "
    "give it one in [trackers] (STAMINA = { start = N, max = N })",
    "column-gap": '12: no column for ratio 1 (between "-2..0" and "2..3"); add a column or widen one',
    "row-gap": "16: no row for 4 (1d10 reads 0-9 with zero = 0); add a row for every result",
    "bad-cell": "17: row 2: cell '1-2' is not a result; write \"E/P\" (the foe's loss, then yours), "
    'k for a kill: "k/0"',
    "luck-check": '15: luck: check = "luck" names no [checks.NAME] (the pack has none); add [checks.luck]',
    "foe-missing": "17: foe rat has no STAMINA, and the fights read foe.STAMINA; give STAMINA = N",
    "bad-until": "14: until = 'STAMINA is gone': 'STAMINA is gone' is not a bound; write TRACKER <= N joined "
    'with or, e.g. "STAMINA <= 0 or foe.STAMINA <= 0"',
    "roll-and-start": "5: tracker SKILL gives both start and roll; keep one "
    "(roll: the start is rolled at companion new)",
    "roll-above-max": '5: tracker SKILL can roll 12 on 1d6+6, above its max 10; raise max (or max = "start")',
}
#: What the named line shows: the refusal points at the mistake.
SHOWN = {
    "missing-tracker": "SKILL",
    "never-ends": "until",
    "unbounded": "STAMINA +1",
    "column-gap": "columns",
    "row-gap": "rows",
    "bad-cell": "1-2",
    "luck-check": "luck",
    "foe-missing": "rat",
    "bad-until": "is gone",
    "roll-and-start": "roll",
    "roll-above-max": "1d6+6",
}


def test_every_broken_fight_pack_has_its_refusal_listed():
    assert sorted(p.stem for p in BROKEN.glob("*.toml")) == sorted(REFUSALS) == sorted(SHOWN)


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_a_broken_fight_is_refused_with_its_file_line_and_fix(name):
    path = BROKEN / f"{name}.toml"
    result = cli("tables", "validate", str(path))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"companion: {path}:{REFUSALS[name]}\n"
    line = int(REFUSALS[name].split(":", 1)[0])
    assert SHOWN[name] in path.read_text(encoding="utf-8").splitlines()[line - 1]


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_a_broken_fight_starts_no_session(name, isolated_home):
    path = BROKEN / f"{name}.toml"
    result = cli("new", "freeform", "--tables", str(path))
    assert result.exit_code == 2
    assert result.stderr == f"companion: {path}:{REFUSALS[name]}\n"
    assert not (isolated_home / "sessions").exists() or not any((isolated_home / "sessions").iterdir())


def test_the_example_packs_hold_what_the_docs_say():
    keep = read_pack(EXAMPLES / "ashen-keep.toml")
    sword = keep.fights["sword"]
    assert sword.kind == "opposed" and sword.tie == "none" and sword.luck.check == "luck"
    assert [e.text for e in sword.win] == ["foe.STAMINA -2"] and [e.text for e in sword.flee] == ["STAMINA -2"]
    assert sorted(keep.foes) == ["ghoul", "warden", "wyrm"]
    assert keep.foes["warden"].value("skill") == 9
    road = read_pack(EXAMPLES / "salt-road.toml")
    blade = road.fights["blade"]
    assert blade.kind == "table" and blade.zero == 0 and len(blade.columns) == 13
    assert [n for n, _cells in blade.rows] == list(range(10))
    assert blade.row(9)[12].text == "k/0" and blade.row(9)[12].foe is None
    assert blade.column(-11) == 0 and blade.column(0) == 6 and blade.column(40) == 12
    assert blade.reading(10) == 0 and blade.reading(3) == 3


PACK = """
[pack]
name = "p"

[trackers]
SKILL = 9
STAMINA = { start = 12, max = 12, hp = true }

[fights.sword]
kind = "opposed"
attack = "2d6 + SKILL + 1"
foe_attack = "1d6 + 1d4 + foe.SKILL - 2"
win = ["foe.STAMINA -2", "gold +1"]
lose = "hp -3"
tie = "both"
until = "STAMINA <= 0 or foe.STAMINA < 1"
"""


def test_sums_effects_and_bounds_are_read_as_written():
    f = parse_pack(PACK, "p.toml").fights["sword"]
    assert (f.attack.dice, f.attack.const, [r.text for _s, r in f.attack.refs]) == ("2d6", 1, ["SKILL"])
    assert (f.foe_attack.dice, f.foe_attack.const) == ("1d6+1d4", -2)
    assert [(e.ref.side, e.ref.key, e.op, e.value) for e in f.win] == [
        (FOE, "stamina", "add", -2),
        (YOU, "gold", "add", 1),
    ]
    assert [(e.ref.key, e.ref.label, e.value) for e in f.lose] == [("hp", "STAMINA", -3)]  # hp is the HP tracker
    assert f.effects_of("tie") == (*f.win, *f.lose)
    assert [(c.ref.side, c.op, c.number) for c in f.until.clauses] == [(YOU, "<=", 0), (FOE, "<", 1)]
    assert f.foe_names == ("SKILL", "STAMINA")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ('kind = "brawl"', 'fights.sword.kind = \'brawl\': write "opposed" or "table"'),
        ('attack = "SKILL"', "fights.sword.attack = 'SKILL' rolls no dice; write e.g. \"2d6 + SKILL\""),
        ('attack = "2d6 * SKILL"', "join its parts with + or -"),
        ('win = "foe.STAMINA minus 2"', "effect 'foe.STAMINA minus 2' is not a tracker change"),
        ('tie = "LUCK -1"', "fights.sword.tie names LUCK, which is not in [trackers]"),
        ('until = "STAMINA <= 0 and foe.STAMINA <= 0"', "is not a bound"),
        ('colour = "red"', "fights.sword has an unknown key 'colour'"),
    ],
)
def test_mistakes_in_a_fight_are_refused_at_their_line(change, message):
    key = change.split(" ", 1)[0]
    lines = [line for line in PACK.splitlines() if not line.startswith(f"{key} =")]
    at = lines.index('kind = "opposed"') if key != "kind" else lines.index("[fights.sword]") + 1
    lines.insert(at + (key != "kind"), change)
    text = "\n".join(lines)
    with pytest.raises(PackError) as err:
        parse_pack(text, "p.toml")
    assert message in str(err.value)
    line = int(str(err.value).split(":")[1])
    assert change.split(" ")[0] in text.splitlines()[line - 1]


def test_a_pack_with_only_fights_is_a_pack_and_one_with_nothing_is_not():
    assert list(parse_pack(PACK, "p.toml").fights) == ["sword"]
    with pytest.raises(PackError, match=r"no \[fights.NAME\]"):
        parse_pack(PACK.split("[fights.sword]")[0], "p.toml")
