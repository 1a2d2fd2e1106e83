"""The Adventure in the Dungeon's fight odds as ``companion odds fight`` gives them, checked three ways.

- **icepool**: an absorbing Markov chain written here from the rule text alone (one round a step,
  composed by icepool from the round's 2d6 rolls: Krylla's first strike, the monster's attacks, the
  heroes' attacks), for the areas without special rules beyond targets, bonuses and penalties, solved
  by icepool; the solver's whole distribution in detail (slain, every hero fallen, no one left to hurt
  it, each hero standing, 0-4 standing, the party's hits left) must equal it exactly. A chain of one
  roll a step held every situation inside a round too, and icepool's Gaussian elimination took up to a
  minute on the biggest of the 16 fights; with whole rounds it holds only the situations at a round's
  start (at most a few hundred, each with its self-loop) and the same 16 fights take seconds in all.
- **a brute-force solve** of the round kernel (the same step functions the engine plays) for every
  special rule (webs, tentacles, paralysis, lock-outs, the Gorgon, the skeletons, the variants).
- **the engine**: ``--round`` is the distribution of the engine's own round.
"""

from __future__ import annotations

import functools
import json
import random
from fractions import Fraction

import icepool
import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.games.adventure_in_the_dungeon import data as D
from companion.games.adventure_in_the_dungeon import odds as O
from companion.games.adventure_in_the_dungeon import rules as R
from tests.aitd_support import DATA
from tests.exact_solve import add, eliminate

runner = CliRunner()
TWO_D6 = 2 @ icepool.d6

#: The areas the oracle covers, as the rule text describes them (docs/rules, "The areas"):
#: hits, heroes attacked (None: every hero), bonus, heroes' penalty, hits a blow, magic or poison,
#: the heroes who alone can hit it (and whom alone it fights while one lives), the dwarf takes 1 hit.
TEXT = {
    1: dict(hits=8, attacks=None, bonus=3, penalty=0, damage=1, resisted=True, only=(), dwarf_one=False),
    2: dict(hits=5, attacks=1, bonus=1, penalty=0, damage=1, resisted=True, only=(0, 3), dwarf_one=False),
    4: dict(hits=4, attacks=1, bonus=0, penalty=1, damage=2, resisted=False, only=(), dwarf_one=True),
    9: dict(hits=5, attacks=3, bonus=1, penalty=2, damage=1, resisted=False, only=(), dwarf_one=False),
}
KRYLLA, IBLI, REGALAN = 1, 2, 3


def oracle(area: int, nums: R.Numbers, m0: int, hs0: tuple[int, ...]) -> dict[tuple, Fraction]:
    """The fight to the end as icepool's absorbing chain: the end ``(outcome, hits of each hero)`` →
    chance, a fallen hero's hits at the maximum. Krylla strikes first whenever she can.

    One step of the chain is a whole round, composed by icepool from its 2d6 rolls (Krylla's first
    strike, the monster's attacks, the heroes' attacks), so the chain holds only the situations at a
    round's start, each with its self-loop (a round where every roll misses), and icepool's absorbing
    solve stays small."""
    a = TEXT[area]
    maxh, to_hit, be_hit = nums

    def can_hit(h: int) -> bool:
        return not a["only"] or h in a["only"]

    def living(hs: tuple[int, ...]) -> list[int]:
        return [h for h in range(4) if hs[h] < maxh[h]]

    def over(m: int, hs: tuple[int, ...]) -> str | None:
        if m >= a["hits"]:
            return "slain"
        live = living(hs)
        if not live:
            return "wiped"
        if not any(can_hit(h) for h in live):
            return "stuck"
        return None

    def targets(hs: tuple[int, ...], attacked: int) -> tuple[int, ...]:
        live = living(hs)
        pool = [h for h in live if h in a["only"]] or live
        order = [h for h in pool if attacked >> h & 1] + [h for h in pool if not attacked >> h & 1]
        return tuple(order if a["attacks"] is None else order[: a["attacks"]])

    # A state of the chain: (0, monster's hits, heroes' hits) at a round's start, or (1, outcome,
    # heroes' hits) at the end. Inside a round: what is left of it (pairs ("first" | "monster" |
    # "heroes", -1) until they are spelled out as ("monster" | "hero", hero)), who attacked (a mask),
    # and whether the Wizard was struck.
    @functools.cache
    def rest_of_round(m: int, hs: tuple[int, ...], queue: tuple, attacked: int, struck: int) -> object:
        """Where the rest of the round leaves the fight: a state, or a die of states when a roll is needed."""
        while True:
            o = over(m, hs)
            if o:
                return (1, o, tuple(min(h, x) for h, x in zip(hs, maxh, strict=True)))
            if not queue:  # the round is over
                return (0, m, hs)
            (what, h), rest = queue[0], queue[1:]
            if what == "first":
                if KRYLLA in living(hs) and can_hit(KRYLLA):
                    break
                queue = rest
            elif what == "monster" and h < 0:
                queue = tuple(("monster", t) for t in targets(hs, attacked)) + rest
            elif what == "heroes":
                queue = tuple(("hero", t) for t in range(4)) + rest
            elif what == "monster":
                if h in living(hs):
                    break
                queue = rest
            else:
                if h in living(hs) and can_hit(h) and not attacked >> h & 1:
                    break
                queue = rest
        return icepool.map(lambda dice: roll(m, hs, queue, attacked, struck, dice), TWO_D6, star=False)

    def roll(m: int, hs: tuple[int, ...], queue: tuple, attacked: int, struck: int, dice: int) -> object:
        """The roll of ``dice`` for the round's next step, then the rest of the round."""
        (what, h), rest = queue[0], queue[1:]
        hs = list(hs)
        if what == "first":
            attacked |= 1 << KRYLLA
            if dice - a["penalty"] >= to_hit[KRYLLA]:
                m += 1
        elif what == "monster":
            total = dice + a["bonus"] - (1 if h == IBLI and a["resisted"] else 0)
            if total >= be_hit[h]:
                hs[h] += 1 if (h == IBLI and a["dwarf_one"]) else a["damage"]
                struck = struck or int(h == REGALAN)
        else:
            attacked |= 1 << h
            spell = h == REGALAN and not struck
            if dice - a["penalty"] >= (D.MAGIC_TO_HIT if spell else to_hit[h]):
                m += D.MAGIC_HITS if spell else 1
        return rest_of_round(m, tuple(hs), rest, attacked, struck)

    @functools.cache  # icepool asks again for a state each time it meets it
    def one_round(state: tuple) -> object:
        if state[0] == 1:
            return state  # the end: absorbing
        _, m, hs = state
        return rest_of_round(m, hs, (("first", -1), ("monster", -1), ("heroes", -1)), 0, 0)

    chain = icepool.map(one_round, (0, m0, tuple(hs0)), star=False, repeat="inf")
    total = chain.denominator()
    return {(o, hs): Fraction(c, total) for (_, o, hs), c in chain.items()}


def summary(ends: dict[tuple, Fraction], maxh: tuple[int, ...]) -> dict[str, object]:
    """What the solver reports in detail, read off the distribution of ends."""
    out: dict[str, object] = {}
    standing = [Fraction(0)] * 4
    survivors = [Fraction(0)] * 5
    hits = hits_slain = Fraction(0)
    for (o, hs), p in ends.items():
        live = [h for h in range(4) if hs[h] < maxh[h]]
        for h in live:
            standing[h] += p
        survivors[len(live)] += p
        left = sum(maxh[h] - hs[h] for h in live)
        hits += left * p
        if o == "slain":
            hits_slain += left * p
    slain = sum((p for (o, _), p in ends.items() if o == "slain"), Fraction(0))
    out["slain"] = slain
    out["wiped"] = sum((p for (o, _), p in ends.items() if o == "wiped"), Fraction(0))
    out["stuck"] = sum((p for (o, _), p in ends.items() if o == "stuck"), Fraction(0))
    out["standing"] = tuple(standing)
    out["survivors"] = tuple(survivors)
    out["hits_left"] = hits
    out["hits_left_slain"] = hits_slain / slain if slain else None
    return out


def random_cases(n: int, seed: int) -> list[tuple]:
    """Small parties with random numbers, near the end of fights against each area (each area in turn,
    so the 16 cases hold four of each); fights of up to 250 situations, the biggest a party of 9 hits
    against the Ocular Terror's last 2. icepool's general solve grows fast with the situations (about
    a second for the biggest of these), so bigger fights are left to the brute-force solve below."""
    rng = random.Random(seed)
    cases: list[tuple] = []
    while len(cases) < n:
        area = sorted(TEXT)[len(cases) % len(TEXT)]
        maxh = (rng.randint(1, 3), rng.randint(1, 2), rng.randint(1, 2), rng.randint(1, 2))
        nums = R.Numbers(
            maxh,
            (4, rng.randint(6, 10), rng.randint(6, 10), rng.randint(7, 11)),
            (11, rng.randint(5, 9), rng.randint(5, 9), rng.randint(5, 8)),
        )
        hs = tuple(rng.randint(0, x - 1) if rng.random() < 0.5 else 0 for x in maxh)
        m0 = rng.randint(max(0, TEXT[area]["hits"] - 2), TEXT[area]["hits"] - 1)
        model = R.compile_model(next(a for a in D.AREAS if a.number == area), nums)
        if situations(model, R.Fight(m0, hs)) <= 250:
            cases.append((area, nums, m0, hs))
    return cases


def situations(model: R.Model, s: R.Fight) -> int:
    return O.fight_odds(model, s, exact=False).states


@pytest.mark.parametrize("case", random_cases(16, 1979))
def test_the_odds_in_detail_equal_icepools_absorbing_chain(case):
    area, nums, m0, hs = case
    model = R.compile_model(next(a for a in D.AREAS if a.number == area), nums)
    got = O.fight_odds(model, R.Fight(m0, hs), detail=True)
    expected = summary(oracle(area, nums, m0, hs), nums.maxh)
    assert got is not None
    assert {k: getattr(got, k) for k in expected} == expected
    plain = O.fight_odds(model, R.Fight(m0, hs))  # the chances alone (the table's count) agree
    assert (plain.slain, plain.wiped, plain.stuck) == (got.slain, got.wiped, got.stuck)
    assert plain.survivors is None


# ---- in detail, for every special rule: a brute-force solve of the engine's round -----------------


def brute_detail(model: R.Model, start: R.Fight, first: bool = True) -> O.FightOdds:
    """Solve the round kernel's whole chain, keeping the end states, then read the figures off them."""
    states = [O.canon(model, start)]
    index = {states[0]: 0}
    kernels = []
    while len(kernels) < len(states):
        k = O.round_ends(model, states[len(kernels)], first_strike=first)
        kernels.append(k)
        for n in k:
            if R.outcome(model, n) is None and n not in index:
                index[n] = len(states)
                states.append(n)
    n = len(states)
    width = O.WIDTH
    rows: list[dict[int, Fraction]] = [{i: Fraction(1)} for i in range(n)]
    for i, k in enumerate(kernels):
        for t, p in k.items():
            o = R.outcome(model, t)
            if o is None:
                add(rows[i], index[t], -p)
            else:
                value = O.end_value(model, t, o)
                for c in range(width):
                    add(rows[i], n + c, p * value[c])
    stuck_rows = eliminate(rows, n)
    assert not stuck_rows, "these cases all end"
    x = [rows[0].get(n + c, Fraction(0)) for c in range(width)]
    some = tuple(x[O.SURVIVORS_AT : O.SURVIVORS_AT + 4])
    slain, wiped = x[O.SLAIN_AT], x[O.WIPED_AT]
    return O.FightOdds(
        slain,
        wiped,
        1 - slain - wiped,
        0,
        standing=tuple(x[O.STANDING_AT : O.STANDING_AT + 4]),
        survivors=(wiped, *some),
        hits_left=x[O.HITS_AT],
        hits_left_slain=x[O.HITS_SLAIN_AT] / slain if slain else None,
    )


CASES = [
    (6, (), R.Fight(3, (0, 0, 0, 0))),
    (6, (R.GORGON_EACH,), R.Fight(3, (0, 0, 0, 0))),
    (13, (), R.Fight(2, (0, 0, 0, 0))),
    (13, (R.MAGIC_TWO_SKELETONS,), R.Fight(2, (0, 0, 0, 0))),
    (8, (), R.Fight(1, (1, 0, 0, 0), para=0b0100)),  # the Creeper with the dwarf paralysed
    (8, (), R.Fight(0, (0, 0, 0, 0), cure=True)),  # the Creeper when the cure is spent
    (7, (), R.Fight(6, (1, 0, 0, 0), twine=0b0010)),  # the octopus with Krylla entwined
    (10, (), R.Fight(5, (0, 0, 0, 0), nlock=0b0101)),  # the Remorhaz after two misses
    (11, (), R.Fight(1, (0, 0, 0, 0), trap=0b1010)),  # the spider with two heroes in the webs
    (3, (), R.Fight(6, (0, 0, 0, 0))),  # the rats: no flight, no spells
    (5, (), R.Fight(3, (0, 0, 1, 0))),  # the Jelly: only the dwarf and the Wizard
]
SMALL = R.Numbers((2, 1, 2, 1), (6, 7, 6, 9), (9, 8, 9, 7))


@pytest.mark.parametrize(("number", "variants", "start"), CASES)
def test_the_odds_in_detail_agree_with_a_brute_force_solve(number, variants, start):
    model = R.compile_model(next(a for a in D.AREAS if a.number == number), SMALL, frozenset(variants))
    O._CHAINS.clear()
    for first in (True, False):
        got = O.fight_odds(model, start, first_strike=first, detail=True)
        expected = brute_detail(model, R.begin_round(start), first)
        assert got is not None
        assert (got.slain, got.wiped, got.standing, got.survivors, got.hits_left, got.hits_left_slain) == (
            expected.slain,
            expected.wiped,
            expected.standing,
            expected.survivors,
            expected.hits_left,
            expected.hits_left_slain,
        )
        assert sum(got.survivors) == 1 and got.survivors[0] == got.wiped


def test_a_fight_no_one_can_win_ends_in_flight_with_who_stands_counted_after_it():
    """The Demon with only Krylla and Ibli left standing: no one can hurt it; they flee unhurt."""
    model = R.compile_model(next(a for a in D.AREAS if a.number == 2), SMALL)
    got = O.fight_odds(model, R.Fight(2, (2, 0, 0, 1)), detail=True)
    assert (got.slain, got.wiped, got.stuck) == (0, 0, 1)
    assert got.standing == (0, 1, 1, 0) and got.survivors == (0, 0, 1, 0, 0) and got.hits_left == 3


def test_the_whole_fight_in_detail_has_no_budget_and_floats_match():
    model = R.compile_model(next(a for a in D.AREAS if a.number == 9), R.numbers(DATA))
    O._CHAINS.clear()
    start = R.Fight(2, (5, 3, 4, 2))
    full = O.fight_odds(model, start, detail=True)
    fast = O.fight_odds(model, start, detail=True, exact=False)
    assert full.hits_left is not None and 0 < full.hits_left <= sum(R.numbers(DATA).maxh) - 14
    assert fast.hits_left == pytest.approx(float(full.hits_left), abs=1e-12)
    assert fast.slain == pytest.approx(float(full.slain), abs=1e-12)


# ---- the outcome every game gives -------------------------------------------------------------------


def test_the_whole_fight_outcome_is_the_odds_in_detail():
    o = O.fight_outcome(4, DATA, hits=(6, 4, 5, 2), monster_hits=1)
    model = R.compile_model(next(a for a in D.AREAS if a.number == 4), R.numbers(DATA))
    exact = O.fight_odds(model, R.Fight(1, (6, 4, 5, 2)), detail=True)
    assert (o.win, o.lose, o.hp_left, o.hp_if_win) == (exact.slain, exact.wiped, exact.hits_left, exact.hits_left_slain)
    assert (o.flee or 0) == exact.stuck
    labels = ("none", "1", "2", "3", "4")
    assert o.charts[0].rows == tuple(zip(labels, exact.survivors, strict=True))
    assert dict(o.more)["Regalan falls"] == 1 - exact.standing[3]
    assert o.inputs["hits"] == [6, 4, 5, 2] and o.inputs["numbers"]["source"] == "house"
    assert "house numbers" in " ".join(o.notes)


def test_one_round_is_the_rounds_own_distribution():
    model = R.compile_model(next(a for a in D.AREAS if a.number == 9), R.numbers(DATA))
    s = R.Fight(3, (4, 1, 0, 3))
    o = O.fight_outcome(9, DATA, fight=s, one_round=True)
    kernel = O.round_kernel(model, R.begin_round(s))
    assert o.win == kernel.get(R.SLAIN, 0) and o.lose == kernel.get(R.WIPED, 0)
    assert o.draw == sum(p for k, p in kernel.items() if isinstance(k, R.Fight))
    assert o.win + o.lose + o.draw + (o.flee or 0) == 1
    assert dict(o.more)["Krylla's first strike hits"] == O.chance(model.hit[D.RANGERESS][0])
    for chart in o.charts:
        assert sum(p for _, p in chart.rows) == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"area": 12}, "no monster in area 12"),
        ({"area": 9, "hits": (0, 0, 0)}, "four heroes"),
    ],
)
def test_bad_outcome_arguments_are_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        O.fight_outcome(values=DATA, **kwargs)
    with pytest.raises(ValueError, match="not entered"):
        O.fight_outcome(9, {})


# ---- the command line -------------------------------------------------------------------------------


def run(*args: str, code: int = 0):
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    return result


def test_odds_fight_talisman_json_is_exact_and_adds_up():
    run("dungeon", "data", *(f"{k}={v}" for k, v in DATA.items()))
    data = json.loads(run("odds", "fight", "talisman", "4", "--json").stdout)
    model = R.compile_model(next(a for a in D.AREAS if a.number == 4), R.numbers(DATA))
    exact = O.fight_odds(model, R.Fight(0, (0, 0, 0, 0)), detail=True)
    assert data["game"] == "talisman" and data["inputs"]["area"] == 4
    assert Fraction(data["win"]) == exact.slain and Fraction(data["lose"]) == exact.wiped
    assert Fraction(data["hp_left"]) == exact.hits_left
    rows = data["charts"][0]["rows"]
    assert [r["label"] for r in rows] == ["none", "1", "2", "3", "4"]
    assert sum(Fraction(r["chance"]) for r in rows) == 1
    one = json.loads(run("odds", "fight", "talisman", "4", "--round", "--json").stdout)
    assert Fraction(one["win"]) + Fraction(one["lose"]) + Fraction(one["draw"]) + Fraction(one["flee"] or 0) == 1
    text = run("odds", "fight", "talisman", "4").stdout
    assert text.startswith("Area 4: the Ogre Mage (4 hits to slay), the party with 29 hits left:")
    assert "Heroes standing when the fight ends" in text and "when the Ogre Mage is slain" in text


def test_odds_fight_talisman_reads_the_game_at_the_fight_or_flee_choice():
    run("dungeon", "data", *(f"{k}={v}" for k, v in DATA.items()))
    run("new", "talisman", "--seed", "3")

    def nxt(*answer: str) -> dict:
        return json.loads(run("next", *answer, "--json").stdout)

    step = nxt()
    assert step["request"]["key"] == "area.enter"
    nxt("4")  # the Ogre Mage
    nxt("strike")
    nxt("6 6")  # Krylla hits it first
    step = nxt("1 1")  # it misses her
    assert step["request"]["key"] == "round.action"
    data = json.loads(run("odds", "fight", "talisman", "--json").stdout)
    assert data["inputs"]["area"] == 4 and data["inputs"]["monster_hits"] == 1 and data["inputs"]["from"] == "choice"
    model = R.compile_model(next(a for a in D.AREAS if a.number == 4), R.numbers(DATA))
    s = R.Fight(1, (0, 0, 0, 0), att=0b0010)  # Krylla has attacked this round
    exact = O.fight_odds(model, s, at="choice", detail=True)
    assert Fraction(data["win"]) == exact.slain and Fraction(data["hp_left"]) == exact.hits_left
    fresh = json.loads(run("odds", "fight", "talisman", "4", "--fresh", "--json").stdout)
    assert fresh["inputs"]["monster_hits"] == 0
    assert "--variant goes with --fresh" in run("odds", "fight", "talisman", "-V", "flee-with-all", code=2).stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("odds", "fight", "talisman", "9"), "numbers are not entered yet"),
        (("odds", "fight", "talisman"), None),
    ],
)
def test_odds_fight_talisman_without_numbers_or_area_is_one_line(args, message):
    if message is None:
        run("dungeon", "data", *(f"{k}={v}" for k, v in DATA.items()))
        message = "which area? e.g. companion odds fight talisman 9"
    err = run(*args, code=2).stderr
    assert message in err and "Traceback" not in err


def test_odds_fight_talisman_text_shows_floats_and_exact_on_request():
    # A party of 16 hits, not the house numbers' 29: the Xorn's whole fight is then 1,255 situations,
    # not 8,995, and the three exact counts here (the test's, --json's, --exact's) a fifth of the time.
    few = {**DATA, "rangeress.hits": 2, "fighter.hits": 3, "wizard.hits": 2}
    run("dungeon", "data", *(f"{k}={v}" for k, v in few.items()))
    model = R.compile_model(next(a for a in D.AREAS if a.number == 9), R.numbers(few))
    exact = O.fight_odds(model, R.Fight(0, (0, 0, 0, 0)), detail=True)
    from companion.sim.fights import chance_text

    text = run("odds", "fight", "talisman", "9").stdout
    assert f"the Xorn is slain  {chance_text(exact.slain)}" in text
    assert "/" not in text.split("\n")[1]  # a float's binary fraction is not shown as exact
    data = json.loads(run("odds", "fight", "talisman", "9", "--json").stdout)
    assert Fraction(data["win"]) == exact.slain  # --json is exact
    exact_text = run("odds", "fight", "talisman", "9", "--exact").stdout
    assert f"the Xorn is slain  {chance_text(exact.slain)}" in exact_text
