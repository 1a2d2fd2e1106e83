"""Property test: whatever the dice and the choices, guided play never reaches a state the rules forbid."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.requests import Choice, RollRequest
from companion.games.inverted_tower import data as d
from companion.games.inverted_tower import rules
from companion.session import codec
from tests.it_helpers import SPEC, Game, at_floor

MAX_STEPS = 400


def check(game: Game, attributes_at_start: int) -> None:
    state = game.state
    g, t = state.game, state.trackers
    hp = t.counters["hp"]
    assert 0 <= hp.value <= hp.max
    if hp.value == 0:  # no negative HP carried on: a hero at 0 HP is dead and the game is over
        assert state.finished == "lost" and game.fold.done
    assert 1 <= t.floor == g.floor <= d.LAST_FLOOR
    assert len(g.rooms) <= d.MAX_ROOMS
    assert all(r.number <= d.MAX_ROOMS for r in t.rooms)
    assert max(Counter((r.floor, r.number) for r in t.rooms).values(), default=1) == 1
    kinds = Counter(k for k in g.rooms if k in d.EVENT_KINDS or k == d.LAIR)
    assert all(n == 1 for n in kinds.values()), g.rooms
    assert kinds[d.STAIRS] + kinds[d.LAIR] <= 1
    if g.floor == d.LAST_FLOOR and d.BOSS_GUARDS_STAIRS not in state.meta.variants:
        assert kinds[d.STAIRS] == 0
    assert all(n >= 0 for n in t.items.values())
    assert t.counters["gold"].value >= 0
    assert 0 <= t.counters["xp"].value < rules.xp_to_next(t.level)
    assert g.points >= 0 and all(v >= 0 for v in g.attributes.values())
    if g.created:  # every level up gives one point, placed now or later
        assert sum(g.attributes.values()) == attributes_at_start + (t.level - 1) - g.points
    assert hp.max == d.START_MAX_HP + (t.level - 1)
    if state.finished == "won":
        assert g.floor == d.LAST_FLOOR and g.bosses >= 1
    if g.fight is not None:
        assert 0 <= g.fight.killed < g.fight.foes


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_no_scripted_game_reaches_a_forbidden_state(data):
    variants = tuple(sorted(data.draw(st.sets(st.sampled_from(sorted(d.VARIANTS))), label="variants")))
    floor = data.draw(st.integers(1, d.LAST_FLOOR), label="floor")
    strength = data.draw(st.integers(0, 12), label="STR")
    game = Game(variants) if floor == 1 else at_floor(floor, attrs={"STR": strength}, variants=variants)
    at_start = d.START_POINTS if floor == 1 else strength
    # Lucky dice now and then carry a hero deeper than plain random dice would.
    luck = data.draw(st.integers(0, 3), label="luck")
    for _ in range(MAX_STEPS):
        request = game.request
        if request is None:
            break
        if isinstance(request, RollRequest):
            if request.key == "room.dc" and luck:
                face = data.draw(st.sampled_from((1, 6)))
            else:
                face = data.draw(st.integers(1 + luck, 6))
            game.send(request.key, face)
        elif isinstance(request, Choice):
            values = request.values()  # the first option half the time: explore, roll, fight with STR
            game.send(request.key, values[data.draw(st.one_of(st.just(0), st.integers(0, len(values) - 1)))])
        else:
            game.send(request.key, "Aria")
        check(game, at_start)
    # The same answers replayed from the start give the same state: the save is its events.
    replay = Game(variants) if floor == 1 else at_floor(floor, attrs={"STR": strength}, variants=variants)
    for event in game.history:
        replay.fold.apply(event)
    assert codec.dump(replay.state) == codec.dump(game.state)
    # And the snapshot codec gives the state back as it was.
    loaded = codec.load(type(game.state), codec.dump(game.state))
    loaded.game = codec.load(SPEC.state_type, loaded.game)
    assert codec.dump(loaded) == codec.dump(game.state)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    variants=st.sets(st.sampled_from(sorted(d.VARIANTS))),
    floor=st.integers(1, d.LAST_FLOOR),
    strength=st.integers(0, 12),
    explore=st.floats(0.5, 1.0),
)
def test_seeded_whole_games_never_reach_a_forbidden_state(seed, variants, floor, strength, explore):
    """Whole games with seeded dice and a player who mostly explores, so runs go deep and some are won."""
    import random

    rng = random.Random(seed)
    variants = tuple(sorted(variants))
    game = Game(variants) if floor == 1 else at_floor(floor, attrs={"STR": strength}, variants=variants)
    at_start = d.START_POINTS if floor == 1 else strength
    for _ in range(MAX_STEPS * 2):
        request = game.request
        if request is None:
            break
        if isinstance(request, RollRequest):
            game.send(request.key, rng.randint(1, 6))
        elif isinstance(request, Choice):
            values = request.values()
            pick = values[0] if rng.random() < explore else rng.choice(values)
            if request.key == "turn" and "down" in values and rng.random() < explore:
                pick = "down"
            game.send(request.key, pick)
        else:
            game.send(request.key, "Aria")
        check(game, at_start)
