"""A pack fight's exact odds against independent solves written here from the rules:

- the **opposed** kind (2d6 + SKILL against 2d6 + the foe's SKILL, the loser of a round 2 STAMINA, ties
  again, a LUCK test after a wound) against a Markov chain solved by recursion over (your STAMINA, the
  foe's STAMINA, LUCK), each round's chances counted die by die. The grid is SKILL 4-12 and STAMINA 1-20
  for both sides. A round's chances depend on the two SKILLs only through their difference, so each of
  the 17 differences (-8..8) is solved at all 400 pairs of STAMINAs, at one pair of SKILLs walking from
  (4, 12) to (12, 4) that takes every SKILL on both sides (6,800 starts); and every one of the 81 pairs
  of SKILLs at the 16 corners and at one pair of STAMINAs drawn with a fixed seed (97 more). The
  "always test LUCK" policy is checked on 24 more, LUCK 0-12.
- the **table** kind against brute-force enumeration of every sequence of die results until the fight
  ends (small tables and numbers, drawn with a fixed seed), and with cells where nobody is hurt
  (rounds that loop) against the enumeration cut at a depth, within the chance it left unfinished;
  and the Salt Road's own 13-column table, each column at ENDURANCE 1-6 on both sides.
- rounds that **come back** (a foe that heals on a tie) against the chain's own equations, checked
  exactly at every position.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from companion.errors import InputError
from companion.packs.fight_model import Ref
from companion.packs.fight_odds import fight_odds
from companion.packs.pack import parse_pack, read_pack

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "tables"
KEEP = read_pack(EXAMPLES / "ashen-keep.toml")
SWORD = KEEP.fights["sword"]
LUCK_CHECK = KEEP.checks["luck"]
SKILL, STAMINA, LUCK = Ref("you", "skill", "SKILL"), Ref("you", "hp", "STAMINA"), Ref("you", "luck", "LUCK")
F_SKILL, F_STAMINA = Ref("foe", "skill", "SKILL"), Ref("foe", "stamina", "STAMINA")


@cache
def round_chances(mine: int, theirs: int) -> tuple[int, int, int]:
    """Of the 1,296 ways four d6 fall: how many win, lose and tie a round at these SKILLs."""
    win = lose = tie = 0
    for a, b, c, d in itertools.product(range(1, 7), repeat=4):
        you, foe = a + b + mine, c + d + theirs
        win += you > foe
        lose += you < foe
        tie += you == foe
    return win, lose, tie


def lucky(luck: int) -> Fraction:
    return Fraction(sum(a + b <= luck for a, b in itertools.product(range(1, 7), repeat=2)), 36)


def oracle(mine: int, theirs: int, stamina: int, foe: int, luck: int, top: int, foe_top: int, always: bool):
    """{(your STAMINA, the foe's) at the end: chance} and the expected rounds, by recursion: a round is
    won, lost or tied; a tie is played again (so the other two are divided by their sum); a wound takes
    2 (never below 0); after a wound that leaves both standing, ``always`` tests LUCK (2d6 <= LUCK, then
    LUCK -1): a won round's foe loses 2 more when lucky and gets 1 back when not, a lost round's loser
    gets 1 back when lucky and loses 1 more when not (never above its starting STAMINA)."""
    return chain(mine, theirs, top, foe_top, always)(stamina, foe, luck)


@cache
def chain(mine: int, theirs: int, top: int, foe_top: int, always: bool):
    """The chain's solve for one pair of SKILLs, kept: every start at these SKILLs shares its positions."""
    w, lo, _t = round_chances(mine, theirs)

    @cache
    def solve(s: int, f: int, lk: int) -> tuple[dict[tuple[int, int], Fraction], Fraction]:
        if s <= 0 or f <= 0:
            return {(s, f): Fraction(1)}, Fraction(0)
        ends: dict[tuple[int, int], Fraction] = {}
        rounds = Fraction(1296, w + lo)  # rounds until one is won or lost, ties counted
        branches = []
        for p, (s1, f1, hurt) in (
            (Fraction(w, w + lo), (s, max(0, f - 2), "foe")),
            (Fraction(lo, w + lo), (max(0, s - 2), f, "you")),
        ):
            if not always or s1 <= 0 or f1 <= 0:
                branches.append((p, (s1, f1, lk)))
                continue
            q = lucky(lk)
            if hurt == "foe":
                good, bad = (s1, max(0, f1 - 2)), (s1, min(foe_top, f1 + 1))
            else:
                good, bad = (min(top, s1 + 1), f1), (max(0, s1 - 1), f1)
            branches.append((p * q, (*good, max(0, lk - 1))))
            branches.append((p * (1 - q), (*bad, max(0, lk - 1))))
        for p, nxt in branches:
            sub, sub_rounds = solve(*nxt)
            rounds += p * sub_rounds
            for k, v in sub.items():
                ends[k] = ends.get(k, Fraction(0)) + p * v
        return ends, rounds

    return solve


def companion(mine, theirs, stamina, foe, luck, top, foe_top, always):
    values = {SKILL: mine, STAMINA: stamina, LUCK: luck, F_SKILL: theirs, F_STAMINA: foe}
    maxes = {SKILL: 12, STAMINA: top, LUCK: 12, F_SKILL: theirs, F_STAMINA: foe_top}
    return fight_odds(SWORD, values, maxes, check=LUCK_CHECK, policy="always" if always else "never")


def _grid() -> list[tuple[int, int, int, int]]:
    corners = [(a, b, s, f) for a in (4, 12) for b in (4, 12) for s in (1, 20) for f in (1, 20)]
    rng = random.Random(26)
    sampled = [(a, b, rng.randint(1, 20), rng.randint(1, 20)) for a in range(4, 13) for b in range(4, 13)]
    return corners + sampled


def _check(got, ends, rounds):
    win = sum(p for (s, f), p in ends.items() if f <= 0 < s)
    lose = sum(p for (s, f), p in ends.items() if s <= 0 < f)
    assert (got.win, got.lose, got.both, got.stuck) == (win, lose, 0, 0)
    assert got.rounds == rounds
    assert got.left[STAMINA] == _marginal(ends, 0)
    assert got.left[F_STAMINA] == _marginal(ends, 1)


def _marginal(ends, i):
    out: dict[int, Fraction] = {}
    for k, p in ends.items():
        if p:
            out[k[i]] = out.get(k[i], Fraction(0)) + p
    return dict(sorted(out.items()))


@pytest.mark.parametrize(("mine", "theirs", "stamina", "foe"), _grid())
def test_the_opposed_kind_equals_an_independent_chain_never_testing_luck(mine, theirs, stamina, foe):
    ends, rounds = oracle(mine, theirs, stamina, foe, 0, 20, foe, always=False)
    _check(companion(mine, theirs, stamina, foe, 0, 20, foe, False), ends, rounds)


def _whole_grid_pairs() -> list[tuple[int, int]]:
    """One pair of SKILLs (4-12) for each of the 17 differences -8..8, from (4, 12) through (8, 8) to
    (12, 4), so that every SKILL from 4 to 12 is taken on both sides."""
    return [(8 + math.ceil(d / 2), 8 - math.floor(d / 2)) for d in range(-8, 9)]


@pytest.mark.parametrize(("mine", "theirs"), _whole_grid_pairs())
def test_the_opposed_kind_equals_the_chain_at_every_stamina_from_1_to_20_for_both_sides(mine, theirs):
    """A round's chances depend on the SKILLs only through their difference: for each difference, the
    whole STAMINA grid (400 starts), so the 17 pairs cover every start the grid of SKILLs can reach."""
    for stamina in range(1, 21):
        for foe in range(1, 21):
            ends, rounds = oracle(mine, theirs, stamina, foe, 0, 20, 20, always=False)
            _check(companion(mine, theirs, stamina, foe, 0, 20, 20, False), ends, rounds)


def test_the_whole_grid_takes_every_difference_and_every_skill_on_both_sides():
    pairs = _whole_grid_pairs()
    assert sorted(m - t for m, t in pairs) == list(range(-8, 9))
    assert {m for m, _ in pairs} == {t for _, t in pairs} == set(range(4, 13))


def _luck_cases() -> list[tuple[int, ...]]:
    rng = random.Random(2026)
    cases = [(4, 12, 1, 20, 12), (12, 4, 20, 1, 0), (9, 9, 20, 20, 12), (12, 12, 20, 20, 7)]
    cases += [
        (rng.randint(4, 12), rng.randint(4, 12), rng.randint(1, 20), rng.randint(1, 20), rng.randint(0, 12))
        for _ in range(20)
    ]
    return cases


@pytest.mark.parametrize(("mine", "theirs", "stamina", "foe", "luck"), _luck_cases())
def test_the_opposed_kind_equals_an_independent_chain_always_testing_luck(mine, theirs, stamina, foe, luck):
    top = 20  # a lucky blow heals at most to the max; the foe at most to what it started with
    ends, rounds = oracle(mine, theirs, stamina, foe, luck, top, foe, always=True)
    _check(companion(mine, theirs, stamina, foe, luck, top, foe, True), ends, rounds)


def test_a_lucky_blow_heals_no_further_than_the_max():
    ends, rounds = oracle(9, 9, 5, 6, 12, 6, 6, always=True)
    _check(companion(9, 9, 5, 6, 12, 6, 6, True), ends, rounds)


# ---- the table kind ------------------------------------------------------------------------------


def table_pack(rows: dict[int, list[str]], dice: str, columns: list[str], zero: str = "") -> str:
    lines = [
        '[pack]\nname = "t"\n[trackers]\nCS = { start = 10, max = 30 }\nEP = { start = 20, max = 30 }',
        f'[fights.crt]\nkind = "table"\nratio = "CS - foe.CS"\ndice = "{dice}"\n{zero}',
        "columns = [" + ", ".join(f'"{c}"' for c in columns) + "]",
        'until = "EP <= 0 or foe.EP <= 0"\n[fights.crt.rows]',
    ]
    lines += [f"{n} = [" + ", ".join(f'"{c}"' for c in cells) + "]" for n, cells in rows.items()]
    return "\n".join(lines) + "\n"


def brute_force(rows, faces, column, you, foe, depth=None):
    """Every sequence of die faces until the fight ends (``depth``: stop there, the rest unfinished):
    {(your EP, the foe's): chance}, the unfinished chance, and the rounds counted over finished fights."""
    ends: dict[tuple[int, int], Fraction] = {}
    unfinished = Fraction(0)
    rounds = Fraction(0)
    share = Fraction(1, len(faces))

    def walk(y, f, p, n):
        nonlocal unfinished, rounds
        if y <= 0 or f <= 0:
            ends[(y, f)] = ends.get((y, f), Fraction(0)) + p
            rounds += p * n
            return
        if depth is not None and n >= depth:
            unfinished += p
            return
        for face in faces:
            e, mine = rows[face][column].split("/")
            f2 = 0 if e == "k" else max(0, f - int(e))
            y2 = 0 if mine == "k" else max(0, y - int(mine))
            walk(y2, f2, p * share, n + 1)

    walk(you, foe, Fraction(1), 0)
    return ends, unfinished, rounds


def _random_table(rng: random.Random, readings: list[int], width: int, loops: bool) -> dict[int, list[str]]:
    def cell() -> str:
        while True:
            e, p = rng.choice(["0", "1", "1", "2", "3", "k"]), rng.choice(["0", "1", "2", "2", "k"])
            if loops or (e, p) != ("0", "0"):
                return f"{e}/{p}"

    return {n: [cell() for _ in range(width)] for n in readings}


@pytest.mark.parametrize("seed", range(12))
def test_the_table_kind_equals_brute_force_enumeration(seed):
    rng = random.Random(seed)
    columns = ["<=-1", "0", "1..2", ">=3"]
    if seed % 2:
        dice, zero, readings, faces = "1d10", "zero = 0", list(range(10)), [f % 10 for f in range(1, 11)]
    else:
        dice, zero, readings, faces = "1d6", "", list(range(1, 7)), list(range(1, 7))
    rows = _random_table(rng, readings, len(columns), loops=False)
    fight = parse_pack(table_pack(rows, dice, columns, zero), "t.toml").fights["crt"]
    mine, theirs = rng.randint(8, 14), 10
    you, foe = rng.randint(1, 3), rng.randint(1, 3)
    column = fight.column(mine - theirs)
    ends, unfinished, rounds = brute_force(rows, faces, column, you, foe)
    assert unfinished == 0
    cs, ep, fcs, fep = Ref("you", "cs", "CS"), Ref("you", "ep", "EP"), Ref("foe", "cs", "CS"), Ref("foe", "ep", "EP")
    got = fight_odds(fight, {cs: mine, ep: you, fcs: theirs, fep: foe}, {cs: 30, ep: 30, fcs: theirs, fep: foe})
    assert got.left[ep] == _marginal(ends, 0) and got.left[fep] == _marginal(ends, 1)
    assert got.win == sum(p for (y, f), p in ends.items() if f <= 0 < y)
    assert got.both == sum(p for (y, f), p in ends.items() if f <= 0 and y <= 0)
    assert got.rounds == rounds


ROAD = read_pack(EXAMPLES / "salt-road.toml")


@pytest.mark.parametrize(("column", "ratio"), list(enumerate([-11, -10, -8, -6, -4, -2, 0, 1, 3, 5, 7, 9, 11])))
def test_the_salt_roads_own_table_equals_brute_force_in_every_column(column, ratio):
    """The example pack's 13 columns, each at ENDURANCE 1-6 on both sides, against every sequence of
    the d10's results (its 10 read as row 0) until somebody is down."""
    import tomllib

    fight = ROAD.fights["blade"]
    raw = tomllib.loads((EXAMPLES / "salt-road.toml").read_text(encoding="utf-8"))["fights"]["blade"]["rows"]
    rows = {int(n): cells for n, cells in raw.items()}
    faces = [f % 10 for f in range(1, 11)]
    cs, ep = Ref("you", "combat", "COMBAT"), Ref("you", "hp", "ENDURANCE")
    fcs, fep = Ref("foe", "combat", "COMBAT"), Ref("foe", "endurance", "ENDURANCE")
    assert fight.column(ratio) == column  # a ratio inside that column's band
    for you in range(1, 7):
        for foe in range(1, 7):
            ends, unfinished, rounds = brute_force(rows, faces, column, you, foe)
            assert unfinished == 0
            got = fight_odds(fight, {cs: 15 + ratio, ep: you, fcs: 15, fep: foe}, {cs: 30, ep: 25, fcs: 15, fep: foe})
            assert got.left[ep] == _marginal(ends, 0) and got.left[fep] == _marginal(ends, 1)
            assert got.win == sum(p for (y, f), p in ends.items() if f <= 0 < y)
            assert got.lose == sum(p for (y, f), p in ends.items() if y <= 0 < f)
            assert got.rounds == rounds


def test_a_table_with_rounds_where_nobody_is_hurt_is_the_enumeration_cut_at_any_depth():
    """Cut at depth 6, the enumeration's chance of every end lies between its own value and that value
    plus the chance it left unfinished (which shrinks with the depth)."""
    rows = {n: ["0/0", "0/0", "2/1", "k/0"] if n < 4 else ["0/2", "1/1", "1/0", "0/0"] for n in range(1, 7)}
    columns = ["<=-1", "0", "1..2", ">=3"]
    fight = parse_pack(table_pack(rows, "1d6", columns), "t.toml").fights["crt"]
    cs, ep, fcs, fep = Ref("you", "cs", "CS"), Ref("you", "ep", "EP"), Ref("foe", "cs", "CS"), Ref("foe", "ep", "EP")
    looped = 0
    for mine in (9, 10, 12, 14):
        got = fight_odds(fight, {cs: mine, ep: 3, fcs: 10, fep: 3}, {cs: 30, ep: 30, fcs: 10, fep: 3})
        ends, unfinished, _rounds = brute_force(rows, list(range(1, 7)), fight.column(mine - 10), 3, 3, depth=6)
        assert got.stuck == 0 and got.win + got.lose + got.both == 1
        assert unfinished < Fraction(1, 2)
        looped += unfinished > 0
        win = sum(p for (y, f), p in ends.items() if f <= 0 < y)
        assert win <= got.win <= win + unfinished
        for i, ref in ((0, ep), (1, fep)):
            for value, p in _marginal(ends, i).items():
                assert p <= got.left[ref][value] <= p + unfinished
    assert looped == 3  # the three columns with a cell where nobody is hurt


# ---- rounds that come back, and fights that never end -----------------------------------------------

REGEN = """
[pack]
name = "r"
[trackers]
SKILL = 9
STAMINA = { start = 8, max = 8 }
[fights.troll]
kind = "opposed"
attack = "2d6 + SKILL"
foe_attack = "2d6 + foe.SKILL"
win = "foe.STAMINA -2"
lose = "STAMINA -2"
tie = "foe.STAMINA +1"
until = "STAMINA <= 0 or foe.STAMINA <= 0"
"""


def test_a_foe_that_heals_on_a_tie_is_solved_exactly_where_rounds_come_back():
    """The chance to win from every position satisfies the chain's equations exactly:
    P(s, f) = (w P(s, f - 2) + l P(s - 2, f) + t P(s, min(top, f + 1))) / 1296."""
    fight = parse_pack(REGEN, "r.toml").fights["troll"]
    skill, st, fs, fst = (
        Ref("you", "skill", "SKILL"),
        Ref("you", "stamina", "STAMINA"),
        Ref("foe", "skill", "SKILL"),
        Ref("foe", "stamina", "STAMINA"),
    )
    top = 9
    w, lo, t = round_chances(9, 10)

    def p(s, f):
        if f <= 0:
            return Fraction(1)
        if s <= 0:
            return Fraction(0)
        return fight_odds(fight, {skill: 9, st: s, fs: 10, fst: f}, {skill: 9, st: 8, fs: 10, fst: top}).win

    for s in range(1, 9):
        for f in range(1, top + 1):
            here = p(s, f)
            assert here == (w * p(s, max(0, f - 2)) + lo * p(max(0, s - 2), f) + t * p(s, min(top, f + 1))) / 1296


def test_a_fight_no_round_can_end_is_stuck_and_says_so():
    fight = parse_pack(REGEN.replace('lose = "STAMINA -2"', 'lose = "none"'), "r.toml").fights["troll"]
    skill, st, fs, fst = (
        Ref("you", "skill", "SKILL"),
        Ref("you", "stamina", "STAMINA"),
        Ref("foe", "skill", "SKILL"),
        Ref("foe", "stamina", "STAMINA"),
    )
    got = fight_odds(
        fight, {skill: 0, st: 5, fs: 30, fst: 5}, {skill: 9, st: 8, fs: 30, fst: 5}
    )  # you never win a round
    assert (got.win, got.lose, got.stuck, got.rounds) == (0, 0, 1, None)


def test_too_many_positions_are_refused_with_the_bound():
    import companion.packs.fight_chain as chain

    old = chain.MAX_POSITIONS
    chain.MAX_POSITIONS = 50
    try:
        with pytest.raises(InputError, match="more than 50 positions"):
            companion(9, 9, 20, 20, 12, 20, 20, True)
    finally:
        chain.MAX_POSITIONS = old


def test_every_tracker_at_thirty_is_counted():
    got = companion(9, 9, 30, 30, 30, 30, 30, True)
    assert got.win + got.lose == 1 and got.positions < 5_000
