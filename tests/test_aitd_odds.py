"""The exact odds of The Adventure in the Dungeon, checked three ways:

- every roll's chance against icepool;
- the fight solver against an independent brute-force solve of the same Markov chain;
- the odds' model of a round against the engine itself: every dice outcome of a whole round is played
  through the real generator, and the distribution of where the round ends must match exactly.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import pytest

from companion.dice.roll import evaluate
from companion.engine.requests import RollRequest
from companion.games.adventure_in_the_dungeon import GAME
from companion.games.adventure_in_the_dungeon import data as D
from companion.games.adventure_in_the_dungeon import odds as O
from companion.games.adventure_in_the_dungeon import rules as R
from companion.games.adventure_in_the_dungeon.engine import model_for, snapshot
from tests.aitd_support import DATA, make_state, started
from tests.exact_solve import add, eliminate

NUMS = R.numbers(DATA)
AREAS = {a.number: a for a in D.AREAS}
TWO_D6 = 2 @ icepool.d6


# ---- every roll -----------------------------------------------------------------------------------


@pytest.mark.parametrize("area", D.AREAS, ids=lambda a: a.monster)
def test_every_rolls_chance_matches_icepool(area):
    model = R.compile_model(area, NUMS)
    for h in range(4):
        need, mod, _ = R.monster_roll(area, NUMS.be_hit, h)
        expected = (TWO_D6 + mod).probability(">=", need)
        assert O.chance(model.mon[h][0]) == expected
        if D.DOUBLE_ON_12 in area.rules:
            assert O.chance(model.mon[h][0], 2) == (TWO_D6 + mod).probability(">=", 12)
        for cast in (False, True):
            need, mod, _ = R.hero_roll(area, NUMS.to_hit, h, cast)
            assert O.chance(model.hit[h][cast]) == (TWO_D6 + mod).probability(">=", need)


def test_the_paladin_and_the_spell_use_the_numbers_the_text_prints():
    model = R.compile_model(AREAS[8], NUMS)  # no modifiers at the Cadaver Creeper
    assert O.chance(model.hit[D.PALADIN][0]) == TWO_D6.probability(">=", 4)
    assert O.chance(model.mon[D.PALADIN][0]) == TWO_D6.probability(">=", 11)
    assert O.chance(model.hit[D.WIZARD][1]) == TWO_D6.probability(">=", D.MAGIC_TO_HIT)


# ---- the solver against a brute-force solve -------------------------------------------------------


def brute(model: R.Model, start: R.Fight, first: bool = True) -> dict[R.Fight, tuple[Fraction, Fraction]]:
    """Every round-start state reachable from ``start`` (begun), solved as one linear system."""
    states = [O.canon(model, start)]
    index = {states[0]: 0}
    kernels = []
    i = 0
    while i < len(states):
        k = O.round_kernel(model, states[i], first)
        kernels.append(k)
        for n in k:
            if isinstance(n, R.Fight) and n not in index:
                index[n] = len(states)
                states.append(n)
        i += 1
    n = len(states)
    rows: list[dict[int, Fraction]] = [{i: Fraction(1)} for i in range(n)]
    for i, k in enumerate(kernels):
        for t, p in k.items():
            if isinstance(t, R.Fight):
                add(rows[i], index[t], -p)
            elif t == R.SLAIN:
                add(rows[i], n, p)
            elif t == R.WIPED:
                add(rows[i], n + 1, p)
    eliminate(rows, n)
    return {s: (rows[i].get(n, Fraction(0)), rows[i].get(n + 1, Fraction(0))) for s, i in index.items()}


SMALL = R.Numbers((2, 1, 2, 1), (6, 7, 6, 9), (9, 8, 9, 7))

CASES = [
    (area.number, (), R.Fight(max(0, area.hits - (2 if area.attacks == D.EVERY else 3)), (0, 0, 0, 0)))
    for area in D.AREAS
] + [
    (6, (R.GORGON_EACH,), R.Fight(3, (0, 0, 0, 0))),
    (13, (R.MAGIC_TWO_SKELETONS,), R.Fight(1, (0, 0, 0, 0))),
    (8, (), R.Fight(1, (1, 0, 0, 0), para=0b0100)),  # the Creeper with the dwarf paralysed
    (8, (), R.Fight(0, (0, 0, 0, 0), cure=True)),  # the Creeper when the cure is spent
    (7, (), R.Fight(6, (1, 0, 0, 0), twine=0b0010)),  # the octopus with Krylla entwined
    (10, (), R.Fight(5, (0, 0, 0, 0), nlock=0b0101)),  # the Remorhaz after two misses
    (11, (), R.Fight(1, (0, 0, 0, 0), trap=0b1010)),  # the spider with two heroes in the webs
    (2, (), R.Fight(3, (2, 0, 0, 0))),  # the Demon with only the Wizard left to hurt it
]


@pytest.mark.parametrize(("number", "variants", "start"), CASES)
def test_the_solver_agrees_with_a_brute_force_solve(number, variants, start):
    model = R.compile_model(AREAS[number], SMALL, frozenset(variants))
    O._CHAINS.clear()
    for first in (True, False):
        got = O.fight_odds(model, start, first_strike=first)
        expected = brute(model, R.begin_round(start), first)[O.canon(model, R.begin_round(start))]
        assert (got.slain, got.wiped) == expected
        assert got.slain + got.wiped + got.stuck == 1


def test_odds_at_the_choice_agree_with_a_brute_force_solve():
    model = R.compile_model(AREAS[9], SMALL)
    start = R.begin_round(R.Fight(2, (0, 0, 0, 0)))
    values = brute(model, start)
    # The Xorn has struck the Wizard this round: his spell is gone, so the heroes' turn is weaker.
    mid = R.Fight(2, (0, 0, 0, 0), struck=0b1000)
    expected_slain = expected_wiped = Fraction(0)
    for end, w in O.phase_b(model, mid).items():
        n = O.canon(model, R.begin_round(end))
        o = R.outcome(model, n)
        p = Fraction(w, O.T_B)
        if o == R.SLAIN:
            expected_slain += p
        elif o == R.WIPED:
            expected_wiped += p
        elif o is None:
            s, w_ = values.get(n) or brute(model, n)[n]
            expected_slain += p * s
            expected_wiped += p * w_
    got = O.fight_odds(model, mid, at="choice")
    assert (got.slain, got.wiped) == (expected_slain, expected_wiped)


def test_a_fight_that_can_never_change_is_stuck():
    # House numbers where neither side can ever roll high enough: no round changes anything.
    nums = R.Numbers((9, 1, 1, 1), (12, 12, 12, 12), (12, 12, 12, 12))
    area = D.Area(12, "Nowhere", "Shade", 3, bonus=-1, penalty=1)
    odds = O.fight_odds(R.compile_model(area, nums), R.Fight(0, (0, 1, 1, 1)))
    assert (odds.slain, odds.wiped, odds.stuck) == (0, 0, 1)


def test_a_kept_chain_gives_the_same_answer_as_a_fresh_one():
    model = R.compile_model(AREAS[9], NUMS)
    O._CHAINS.clear()
    start = R.Fight(1, (5, 3, 4, 2))
    first = O.fight_odds(model, start)
    assert first.slain + first.wiped + first.stuck == 1
    kernels = len(O.chain(model).kernels)
    assert kernels > 0
    assert O.fight_odds(model, start) == first  # the kernels are kept, the answer is the same
    assert len(O.chain(model).kernels) == kernels
    O._CHAINS.clear()
    assert O.fight_odds(model, start) == first


# ---- the odds' round against the engine's round ---------------------------------------------------


def classes(req: RollRequest) -> list[tuple[tuple[int, int], int]]:
    """The 36 rolls grouped by what can matter to the rules: hit or miss, and a total of 12 or more."""
    groups: dict[tuple[bool, bool], list] = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        roll = evaluate(req.expr, (a, b), req.mod)
        key = (bool(roll.success), roll.total >= 12)
        groups.setdefault(key, []).append((a, b))
    return [(faces[0], len(faces)) for faces in groups.values()]


def engine_round(setup, prefix: list) -> dict[object, Fraction]:
    """Play one round through the real engine for every dice outcome; where does it end, how often?"""
    out: dict[object, Fraction] = {}

    def replay(path):
        state = setup()
        engine = GAME.play(state)
        req = next(engine)
        for answer in prefix + path:
            if isinstance(req, RollRequest):
                answer = evaluate(req.expr, answer, req.mod, parts=req.parts)
            try:
                req = engine.send(answer)
            except StopIteration:
                req = None
        return state, req

    state0, _ = replay([])
    start_round, area = state0.game.round, state0.game.area

    def dfs(path, weight):
        state, req = replay(path)
        g = state.game
        if req is None or g.area is None or g.round > start_round:
            model = model_for(state, R.areas(state.data)[area])
            if g.area is None:
                key: object = R.SLAIN if area in g.cleared else R.WIPED
            else:
                n = O.canon(model, snapshot(state, model))
                key = R.outcome(model, n) or n
            out[key] = out.get(key, Fraction(0)) + weight
            return
        if isinstance(req, RollRequest):
            for faces, ways in classes(req):
                dfs([*path, faces], weight * Fraction(ways, 36))
        elif req.key == "round.first":
            dfs([*path, "strike"], weight)
        else:
            assert req.key == "round.action", req.key
            dfs([*path, "fight" if "fight" in req.values() else "flee"], weight)

    dfs([], Fraction(1))
    return out


def scenario(area: int, hits=(0, 0, 0, 0), monster=0, **flags):
    def setup():
        state = started(make_state())
        for hero, h in zip(D.HEROES, hits, strict=True):
            state.trackers.tallies[hero.name].hits = h
        for name, value in flags.items():
            setattr(state.game, name, value)
        if monster:
            from companion.session.trackers import Tally

            a = R.areas(state.data)[area]
            state.trackers.tallies[a.monster] = Tally(a.monster, a.hits, monster, "", True)
        return state

    return setup


ROUNDS = [
    (1, scenario(1, hits=(8, 6, 7, 4), monster=6), []),
    (2, scenario(2, hits=(7, 6, 0, 3), monster=3), []),
    (3, scenario(3, hits=(8, 6, 7, 5), monster=6), []),
    (4, scenario(4, hits=(7, 6, 7, 4), monster=2), []),
    (5, scenario(5, hits=(0, 0, 6, 3), monster=3), []),
    (6, scenario(6, hits=(7, 5, 7, 4), monster=4), []),
    (7, scenario(7, hits=(8, 6, 7, 5), monster=6, twine=0b0010), []),
    (8, scenario(8, hits=(7, 6, 6, 3), para=0b0100), []),
    (8, scenario(8, hits=(7, 6, 6, 3), cure=True), []),
    (9, scenario(9, hits=(8, 5, 7, 4), monster=3), []),
    (10, scenario(10, hits=(7, 5, 6, 3), monster=5, nlock=0b0101), []),
    (11, scenario(11, hits=(7, 6, 6, 3), monster=1), [(6, 6), (1, 1), (6, 6), (6, 6)]),
    (13, scenario(13, hits=(9, 6, 7, 3), monster=1), []),
]


@pytest.mark.parametrize(("area", "setup", "webs"), ROUNDS, ids=[f"area-{r[0]}" for r in ROUNDS])
def test_the_odds_model_of_a_round_is_the_engines_round(area, setup, webs):
    """Each case enters the area (the spider's web rolls fixed) and plays round 1 every possible way."""
    prefix: list = [str(area), *webs]
    got = engine_round(setup, prefix)
    state = setup()
    driver_state = state
    engine = GAME.play(driver_state)
    req = next(engine)
    for answer in prefix:
        if isinstance(req, RollRequest):
            answer = evaluate(req.expr, answer, req.mod, parts=req.parts)
        req = engine.send(answer)
    model = model_for(driver_state, R.areas(driver_state.data)[area])
    start = snapshot(driver_state, model)  # round 1 has begun
    expected = O.round_kernel(model, start)
    assert got == expected
    assert sum(got.values()) == 1


# ---- the Talisman ---------------------------------------------------------------------------------


def test_talisman_within_k_kills_against_every_sequence_of_rolls():
    monsters = 4
    for k in range(0, monsters + 1):
        found = Fraction(0)
        # A kill's roll is a 12 (1 way in 36) or not (35); the last monster always holds it.
        for seq in itertools.product((True, False), repeat=monsters - 1):
            p = Fraction(1)
            for twelve in seq:
                p *= Fraction(1, 36) if twelve else Fraction(35, 36)
            first = next((i + 1 for i, t in enumerate(seq) if t), monsters)
            if first <= k:
                found += p
        assert O.talisman_within(k, monsters) == found


def test_talisman_kill_distribution_sums_to_one_and_agrees_with_within():
    dist = O.talisman_found_on(3, 9)
    assert sum(dist.values()) == 1 and min(dist) == 4 and max(dist) == 12
    running = Fraction(0)
    for k in range(4, 13):
        running += dist[k]
        # Not found after 3 kills (probability (35/36)**3); then found by kill k.
        assert O.talisman_within(k, 12) == 1 - (1 - running) * Fraction(35, 36) ** 3


def test_percentages_never_round_a_chance_to_certainty():
    from companion.games.adventure_in_the_dungeon.view import pct

    assert pct(Fraction(1, 10**6)) == "<0.1%"
    assert pct(1 - Fraction(1, 10**6)) == ">99.9%"
    assert (pct(Fraction(0)), pct(Fraction(1)), pct(Fraction(1, 3))) == ("0%", "100%", "33.3%")
