"""Exact fight odds: checked against icepool's absorbing chains, and against fights the engine plays.

- The Inverted Tower: on many random fights, :func:`fight_odds` equals the absorbing Markov chain
  icepool solves from the combat rule alone (an oracle written here, not the game's code).
- The Dark Tower: the one-roll fight equals icepool's joint distribution of the Dark Tower dice.
- The odds are also checked against the simulator playing the engine's own fight with the
  session's virtual dice: the exact win chance, mean HP left and chance of every end HP lie in the
  simulator's intervals.
- Every game's :class:`~companion.sim.fights.FightOutcome` adds up to 1.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction
from pathlib import Path

import icepool
import pytest

from companion import games
from companion.games.dark_tower import odds as dt_odds
from companion.games.dragons_den import odds as dd_odds
from companion.games.haunted_tower import odds as ht_odds
from companion.games.haunted_tower.data.monsters import MONSTERS as HT_MONSTERS
from companion.games.inverted_tower import data as d
from companion.games.inverted_tower import engine, rules
from companion.games.inverted_tower.odds import fight_odds, fight_outcome
from companion.games.inverted_tower.rules import Flags
from companion.sim import runner
from companion.sim.fights import FIGHT_ODDS, outcome_function
from companion.sim.report import build
from companion.sim.runner import HISTOGRAM, RATE, Metric, PolicySpec, Simulator
from companion.sim.stats import wilson
from tests.aitd_support import DATA as AITD_DATA
from tests.contract_support import toy_game
from tests.dragons_den.test_odds import oracle as dd_oracle

Z999 = 3.2905  # two-sided 99.9%


# ---- The Inverted Tower against icepool -----------------------------------------------------------
def icepool_fight(
    hp: int, attribute: int, floor: int, normal: int, strong: bool, plan: tuple[int, ...], strong_damage: int
) -> dict[int, Fraction]:
    """The HP at the end, from icepool's absorbing chain over (roll number, foes killed, HP).

    Written from the rule text: a DC (a natural 6 passes, a natural 1 fails, else face + attribute
    − floor (not on floor 1) + daggers ≥ 5) kills the foe in front; a fail costs 1 HP, or
    ``strong_damage`` against the strong foe fought last.
    """
    damages = [1] * normal + ([strong_damage] if strong else [])
    base = attribute - (0 if floor == 1 else floor)
    foes, last = len(damages), len(plan)

    def step(state: tuple[int, int, int], face: int) -> tuple[int, int, int]:
        i, k, h = state
        if h <= 0 or k == foes:
            return state  # absorbing: the fight is over
        modifier = base + (plan[i] if i < last else 0)
        passed = face == 6 or (face != 1 and face + modifier >= 5)
        nxt = min(i + 1, last)
        return (nxt, k + 1, h) if passed else (nxt, k, max(0, h - damages[k]))

    chain = icepool.map(step, (0, 0, hp), icepool.d6, star=False, repeat="inf")
    ends: dict[int, int] = {}
    for (_, _, h), count in chain.items():
        ends[h] = ends.get(h, 0) + count
    total = chain.denominator()
    return {h: Fraction(c, total) for h, c in sorted(ends.items())}


def random_fights(n: int, seed: int) -> list[tuple]:
    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        normal = rng.randint(0, 4)
        strong = rng.random() < 0.5 or normal == 0
        plan = tuple(rng.randint(0, 2) for _ in range(rng.randint(0, 3)))
        cases.append(
            (rng.randint(1, 7), rng.randint(-1, 5), rng.randint(1, 10), normal, strong, plan, rng.randint(1, 2))
        )
    return cases


@pytest.mark.parametrize("case", random_fights(60, 2026))
def test_inverted_tower_odds_equal_icepools_absorbing_chain(case):
    hp, attribute, floor, normal, strong, plan, strong_damage = case
    variants = (d.ELITES_DEAL_2,) if strong_damage == 2 else ()
    o = fight_odds(hp, attribute, floor, normal, elite=strong, daggers=plan, variants=variants)
    assert o.hp == icepool_fight(hp, attribute, floor, normal, strong, plan, strong_damage)
    assert o.win == sum(p for h, p in o.hp.items() if h > 0)
    assert o.hp_left == sum(h * p for h, p in o.hp.items())


def test_a_twenty_hp_fight_equals_icepool_too():
    o = fight_odds(20, 2, 3, 4, boss=True, daggers=(1, 1, 0, 2), variants=(d.ELITES_DEAL_2,))
    assert o.hp == icepool_fight(20, 2, 3, 4, True, (1, 1, 0, 2), 2)


# ---- The Dark Tower against icepool ---------------------------------------------------------------
def icepool_dt(bonus: int, strength: int, dice: int, boosts: tuple[tuple[int, int], ...]) -> dict[int, Fraction]:
    """Margin (total − strength) distribution: icepool's joint (numbers, ♥, ★) of the Dark Tower dice,
    the ★ spent on the best set of spells (each at most once)."""
    v = icepool.Vector
    die = icepool.Die([v((1, 0, 0)), v((2, 0, 0)), v((3, 0, 0)), v((0, 1, 0)), v((0, 1, 0)), v((0, 0, 1))])
    pool = die
    for _ in range(dice - 1):
        pool = pool + die

    def best(stars: int) -> int:
        return max(
            (
                sum(b for b, _ in chosen)
                for r in range(len(boosts) + 1)
                for chosen in itertools.combinations(boosts, r)
                if sum(c for _, c in chosen) <= stars
            ),
            default=0,
        )

    out: dict[int, Fraction] = {}
    total = pool.denominator()
    for (s, _, st), count in pool.items():
        m = bonus + s + best(st) - strength
        out[m] = out.get(m, Fraction(0)) + Fraction(count, total)
    return out


@pytest.mark.parametrize(
    ("bonus", "strength", "dice", "boosts"),
    [(0, 4, 4, ()), (3, 9, 4, ()), (5, 12, 5, ((2, 1),)), (-2, 3, 3, ((1, 1), (3, 2))), (8, 20, 6, ((4, 1), (2, 1)))],
)
def test_dark_tower_odds_equal_icepools_dice(bonus, strength, dice, boosts):
    fo = dt_odds.fight_odds(bonus, strength, dice, boosts)
    margins: dict[int, Fraction] = {}
    for (m, _, _), p in fo.outcomes.items():
        margins[m] = margins.get(m, Fraction(0)) + p
    assert margins == icepool_dt(bonus, strength, dice, boosts)
    o = dt_odds.fight_outcome(bonus, strength, dice, boosts, health=3, max_health=5)
    assert o.win + o.lose + o.draw == 1
    assert o.win == sum(p for m, p in margins.items() if m > 0)


# ---- the odds against the simulator -----------------------------------------------------------------
def _fight_play(state):
    """A one-fight game: the Inverted Tower engine's own fight, set up from ``state.data["fight"]``."""
    hp, attribute, floor, normal, elite, daggers = state.data["fight"]
    rules.create_hero(state, "STR")
    state.game.attributes["STR"] = attribute
    rules.enter_floor(state, floor)
    t = state.trackers
    t.counters["hp"].value = t.counters["hp"].max = hp
    t.items.update({"dagger": daggers, "potion": 0})
    rules.open_room(state, 1)
    yield from engine.fight(state, Flags(state.meta.variants), 1, normal, "elite" if elite else "", "", " ")
    if state.finished is None:
        state.finished = "won"


def _one_dagger_a_roll(state, request):
    """fight_odds(daggers=n): one dagger on each roll from the first while they last."""
    if request.key == "combat.daggers":
        return "1" if "1" in request.values() else "0"
    return "STR" if request.key == "combat.attribute" else request.values()[0]


#: ``companion.games.load("it-fight")`` and the simulator's registry find these once the test registers them.
GAME = toy_game(name="it-fight", title="One Inverted Tower fight", setup=rules.setup, play=_fight_play)
FIGHT_SIM = Simulator(
    game="it-fight",
    policies=(PolicySpec("daggers", "one dagger a roll while they last", _one_dagger_a_roll),),
    metrics=(Metric("won", "won", RATE), Metric("hp", "HP at the end", HISTOGRAM)),
    record=lambda state, run: {"won": state.finished == "won", "hp": state.trackers.counters["hp"].value},
)


@pytest.mark.parametrize(
    ("fight", "variants"),
    [
        ((5, 1, 1, 2, True, 0), ()),
        ((4, 2, 3, 1, True, 2), (d.ELITES_DEAL_2,)),
        ((6, 0, 2, 3, False, 1), ()),
    ],
)
def test_the_exact_odds_lie_within_the_simulators_intervals(monkeypatch, fight, variants):
    """The simulator (its runner, seeds, policy, tally and report) plays the engine's fight; the exact
    odds lie in its intervals. The report gives 95%; with 3 fights x 8 figures a 95% check would fail
    by design one time in twenty, so each is checked at 99.9% from the report's own counts."""
    monkeypatch.setitem(games.GAMES, "it-fight", __name__)
    monkeypatch.setitem(runner.SIMULATORS, "it-fight", f"{__name__}:FIGHT_SIM")
    hp, attribute, floor, normal, elite, daggers = fight
    exact = fight_odds(hp, attribute, floor, normal, elite=elite, daggers=daggers, variants=variants)
    n = 3000
    tally = runner.simulate("it-fight", n, 99, variants=variants, data={"fight": list(fight)})
    doc = build(FIGHT_SIM, tally, title="fight", seed=99, variants=variants, policy="daggers")
    won = doc["figures"]["won"]
    assert won["n"] == n
    lo, hi = wilson(won["count"], n, z=Z999)
    assert lo <= float(exact.win) <= hi
    ends = doc["figures"]["hp"]
    total, squares = tally.sums["hp"][1], tally.sums["hp"][2]
    sd = math.sqrt((n * squares - total * total) / (n * (n - 1)))
    assert abs(ends["mean"] - float(exact.hp_left)) <= Z999 * sd / math.sqrt(n)
    for h, p in exact.hp.items():
        count = ends["values"].get(str(h), {"count": 0})["count"]
        lo, hi = wilson(count, n, z=Z999)
        assert lo <= float(p) <= hi, h
    assert set(ends["values"]) <= {str(h) for h in exact.hp}  # no end the odds call impossible


# ---- every game's outcome ---------------------------------------------------------------------------
EXAMPLES = {
    "inverted-tower": {"hp": 5, "attribute": 1, "floor": 2, "normal": 2, "elite": True, "daggers": 1},
    "dark-tower": {"bonus": 3, "strength": [5, 4], "boosts": [(2, 1)], "health": 4, "max_health": 6},
    "talisman": {"area": 9, "values": AITD_DATA, "hits": (6, 4, 5, 2), "monster_hits": 2},
    "haunted-tower": {
        "monster": HT_MONSTERS["carrion-crawler"],
        "hero_hp": 5,
        "hero_attack": 3,
        "hero_ac": 5,
        "hero_damage": 1,
        "run_at": 2,
    },
    "dragons-den": {"health": 5, "against": 7, "name": "Ren", "other": "the troll"},
    "pack": {
        "pack": str(Path(__file__).resolve().parent.parent / "examples" / "tables" / "ashen-keep.toml"),
        "fight": "sword",
        "foe": {"SKILL": 9, "STAMINA": 10},
        "you": {"SKILL": 9, "STAMINA": 12, "LUCK": 10},
        "flee_at": 4,
    },
}


@pytest.mark.parametrize("game", list(FIGHT_ODDS))
def test_every_registered_game_gives_an_outcome_that_adds_up(game):
    o = outcome_function(game)(**EXAMPLES[game])
    assert o.game == game
    total = o.win + o.lose + (o.flee or 0) + (o.draw or 0)
    assert total == 1
    for chart in o.charts:
        assert sum(p for _, p in chart.rows) == 1, chart.title
    if o.hp_left is not None:
        assert o.hp_left >= 0


def test_the_inverted_tower_outcome_is_its_fight_odds():
    o = fight_outcome(5, 1, 2, 2, elite=True, daggers=1)
    exact = fight_odds(5, 1, 2, 2, elite=True, daggers=1)
    assert (o.win, o.lose, o.death, o.hp_left) == (exact.win, exact.death, exact.death, exact.hp_left)
    assert o.charts[0].rows[0] == ("dead", exact.death)


def test_a_long_fraction_never_reads_as_impossible_or_certain():
    from companion.sim.fights import chance_text, share_text

    tiny = Fraction(1, 3 * 10**7)
    assert chance_text(tiny) == "<0.01%" and chance_text(1 - tiny) == ">99.99%"
    assert chance_text(Fraction(1, 3)) == "1/3 (33.3%)" and chance_text(Fraction(10**7, 3 * 10**7 + 1)) == "33.33%"
    assert share_text(tiny) == "<0.1%" and share_text(1 - tiny) == ">99.9%"
    assert (share_text(Fraction(0)), share_text(Fraction(1)), share_text(Fraction(1, 8))) == ("0.0%", "100.0%", "12.5%")


@pytest.mark.parametrize(
    ("key", "kw"),
    [("ghoul", {}), ("robber-fly", {"items": 1, "run_at": 2}), ("gargoyle", {"hero_damage": 0, "run_at": 6})],
)
def test_the_haunted_tower_outcome_is_its_duel_with_the_hp_at_the_end(key, kw):
    """The duel's ends with the hero's HP are checked against icepool in tests/test_haunted_odds.py."""
    args = {"hero_hp": 6, "hero_attack": 3, "hero_ac": 5, "hero_damage": 1, **kw}
    monster = HT_MONSTERS[key]
    o = ht_odds.fight_outcome(monster, **args, hero="Aria")
    d = ht_odds.duel(monster, **args)
    ends = dict(ht_odds.duel_ends(monster, **args))
    assert (o.win, o.lose, o.death) == (d.win, d.fall, d.fall)
    assert (o.flee or 0) == d.escape and (o.draw or 0) == d.away + d.endless
    assert o.hp_left == sum(h * p for (_, h), p in ends.items())
    if d.win:
        assert o.hp_if_win == sum(h * p for (k, h), p in ends.items() if k == "win") / d.win
    chart = dict(o.charts[0].rows)
    assert chart.get("fallen", 0) == d.fall and sum(chart.values()) == 1
    assert dict(o.more)["running away succeeds (each try)"] == ht_odds.run_chance(monster.att)


@pytest.mark.parametrize(("health", "against", "first"), [(1, 1, True), (5, 7, True), (5, 7, False), (9, 3, False)])
def test_the_dragons_den_outcome_equals_icepools_exchange(health, against, first):
    """Both sides' health at the end, from icepool's absorbing chain (tests/dragons_den/test_odds.py)."""
    o = dd_odds.fight_outcome(health, against, first=first, name="Ren", other="the troll")
    ends = dd_oracle(health, against) if first else dd_oracle(against, health)
    mine = {}  # Ren's health at the end → chance (0: slain), and the troll's
    theirs = {}
    for (a, b, _), p in ends.items():
        me, them = (a, b) if first else (b, a)
        mine[me] = mine.get(me, 0) + p
        theirs[them] = theirs.get(them, 0) + p
    assert o.win == theirs.get(0, 0) and o.lose == mine.get(0, 0) and o.win + o.lose == 1
    assert o.hp_left == sum(h * p for h, p in mine.items())
    assert dict(o.charts[0].rows) == {("slain" if h == 0 else str(h)): p for h, p in mine.items() if p}
    assert dict(o.charts[1].rows) == {("slain" if h == 0 else str(h)): p for h, p in theirs.items() if p}
