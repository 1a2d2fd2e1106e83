"""Guided play of The Inverted Tower: a generator that asks for every roll and choice, in rule order.

The engine never rolls, prints or reads the clock; it yields requests (see
:mod:`companion.engine.requests`) and changes ``state`` with :mod:`.rules`. It reads the state again
after every answer (one-shot commands such as ``companion hp -1`` may change it in between).

It is also what the simulator runs thousands of times a second, so it is kept lean: every request
and choice that does not depend on the state is built once, the others are cached by what they
depend on, the odds are left to the shell (:mod:`.view`), and log text is only built when the log is
enabled.

How a turn goes (our reading of a draft without a map; see ``docs/rules/inverted-tower.md``):

- explore a new room (at most 12 a floor): a DC; on a pass a DR for the event, on a fail an encounter;
  the 12th room, if the floor's stairs are not found yet, is the stairs and the boss's lair;
- or go back to a known room of this floor: a DC, and on a pass a wandering encounter there;
- or take the stairs (going back to them first, with the wandering check, if the hero is elsewhere);
- a potion may be drunk at every choice, and a level-up point is placed as soon as it is earned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.dice.expr import EC, dc, dr, sr
from companion.engine.requests import REFRESH, Choice, Option, RollRequest, Text

from . import data as d
from . import rules
from .model import Fight, Tower
from .rules import Flags
from .rules.tables import EVENT, EVENT_BY_TOTAL, TREASURE, TREASURE_BY_TOTAL, table_text

if TYPE_CHECKING:
    from companion.engine.requests import Engine
    from companion.session.state import State

# ---- requests that never change ------------------------------------------------------------------
DC = dc()
DAGGER, POTION = d.DAGGER, d.POTION
NAME = Text("hero.name", "Your hero's name?")
ROOM_DC = RollRequest("room.dc", DC, "New room: an event on a pass, an encounter on a fail")
EVENT_INFO = (table_text(EVENT),)
EVENT_DR = RollRequest("room.event", dr("event"), "Event: which one?", info=EVENT_INFO)
EVENT_AGAIN = RollRequest("room.event", dr("event"), "Event again: this floor already has that one", info=EVENT_INFO)
COUNT_SR = RollRequest("encounter.count", sr("1", "2", "3"), f"Encounter: how many {d.NORMAL_NAME}s?")
ELITE_EC = RollRequest("encounter.elite", EC, f"Encounter: is one of them an elite ({d.ELITE_NAME})?")
TREASURE_DR = RollRequest("treasure", dr("treasure"), "Treasure", info=(table_text(TREASURE),))
TRAP_SR = RollRequest("trap.kind", sr(*d.ATTRIBUTES), "Trap: which kind?")
WANDER_DC = RollRequest("wander.dc", DC, "Going back: wandering monsters on a pass")
MINIONS_DC = RollRequest(
    "boss.minions",
    DC,
    f"Boss: how many minions? {d.BOSS_MINIONS_PASS} on a pass, {d.BOSS_MINIONS_FAIL} on a fail",
)

POTION_OPTION = Option("potion", "Drink a potion (heal to Max HP)")
CREATE = Choice(
    "hero.attribute",
    "Your hero: put 1 point in which attribute?",
    tuple(Option(a, f"{a}: {d.ATTRIBUTE_TEXT[a]}") for a in d.ATTRIBUTES),
)

# ---- requests cached by what they depend on --------------------------------------------------------
_cache: dict[Any, Any] = {}
_CACHE_LIMIT = 20_000


def _cached(key: Any, build: Any, *args: Any) -> Any:
    """The request cached under ``key``, built by ``build(*args)`` the first time (no closure per call)."""
    value = _cache.get(key)
    if value is None:
        if len(_cache) > _CACHE_LIMIT:
            _cache.clear()
        value = _cache[key] = build(*args)
    return value


def _with_potion(options: tuple[Option, ...], potion: bool) -> tuple[Option, ...]:
    return (*options, POTION_OPTION) if potion else options


def _build_attributes(key: str, prompt: str, values: tuple[int, ...], potion: bool) -> Choice:
    options = tuple(Option(a, f"{a} {v:+d}") for a, v in zip(d.ATTRIBUTES, values, strict=True))
    return Choice(key, prompt, _with_potion(options, potion))


def _attribute_options(state: State, key: str, prompt: str) -> Choice:
    attrs = state.game.attributes
    values = (attrs["STR"], attrs["DEX"], attrs["INT"])
    potion = rules.can_drink(state)
    return _cached((key, values, potion), _build_attributes, key, prompt, values, potion)


def fight_attribute_choice(state: State) -> Choice:
    return _attribute_options(state, "combat.attribute", "Fight with which attribute?")


def level_choice(state: State) -> Choice:
    return _attribute_options(state, "level.attribute", "Level up! Add 1 point to which attribute?")


def _build_daggers(useful: tuple[int, ...], potion: bool) -> Choice:
    options = [Option("0", "Roll without a dagger" if useful else "Roll")]
    for n in useful:
        options.append(Option(str(n), f"Spend {n} dagger{'s' if n > 1 else ''} (+{n * d.DAGGER_BONUS})"))
    prompt = "Spend daggers on this roll?" if useful else "Roll, or drink a potion first?"
    return Choice("combat.daggers", prompt, _with_potion(tuple(options), potion))


def dagger_choice(useful: tuple[int, ...], potion: bool) -> Choice:
    """Roll, or spend one of the dagger counts in ``useful`` (those that raise this roll's chance)."""
    return _cached(("daggers", useful, potion), _build_daggers, useful, potion)


def _build_combat(why: str, attr: str, value: int, floor: int, daggers: int) -> RollRequest:
    parts: list[tuple[str, int]] = [(attr, value)]
    penalty = rules.floor_penalty(floor)
    if penalty:
        parts.append(("floor", -penalty))
    if daggers:
        parts.append(("dagger", daggers * d.DAGGER_BONUS))
    return RollRequest("combat.roll", DC, why, sum(p[1] for p in parts), tuple(parts))


def combat_request(f: Fight, i: int, attr: str, value: int, floor: int, daggers: int) -> RollRequest:
    """The combat DC against foe ``i``: the attribute, minus the floor (not on floor 1), plus daggers."""
    strong = f.strong if i > f.normal else ""
    key = ("combat", strong, f.normal, i, attr, value, floor, daggers)
    request = _cache.get(key)
    if request is None:
        request = _cached(key, _build_combat, f"Fight: {rules.foe_name(f, i)}", attr, value, floor, daggers)
    return request


def _build_trap(attr: str, value: int) -> RollRequest:
    cost = f"{d.TRAP_DAMAGE} HP"
    return RollRequest("trap.dc", DC, f"Trap ({attr}): get past it (a fail costs {cost})", value, ((attr, value),))


def trap_request(attr: str, value: int) -> RollRequest:
    return _cached(("trap", attr, value), _build_trap, attr, value)


def _build_turn(new: bool, down: bool, stairs: int, back: bool, potion: bool, floor: int) -> Choice:
    options = []
    if new:
        options.append(Option("new", "Explore a new room"))
    if down:
        options.append(Option("down", f"Take the stairs down to floor {floor + 1}"))
    if stairs:
        options.append(Option("stairs", f"Go back to the stairs (Room {stairs}) and down to floor {floor + 1}"))
    if back:
        options.append(Option("back", "Go back to a known room"))
    return Choice("turn", "What now?", _with_potion(tuple(options), potion))


def turn_choice(state: State) -> Choice:
    g: Tower = state.game
    n = len(g.rooms)
    stairs = rules.stairs_room(g) if g.floor < d.LAST_FLOOR else 0
    args = (
        n < d.MAX_ROOMS,
        stairs != 0 and stairs == g.at,
        stairs if stairs != g.at else 0,
        n > 1 or (n == 1 and g.at != 1),
        rules.can_drink(state),
        g.floor,
    )
    return _cached(("turn", *args), _build_turn, *args)


def back_choice(state: State) -> Choice:
    """Which known room of this floor to go back to (built on demand: it lists the rooms as logged)."""
    g: Tower = state.game
    options = []
    for number in range(1, len(g.rooms) + 1):
        if number == g.at:
            continue
        room = rules.tracker_room(state, g.floor, number)
        options.append(Option(str(number), room.line()))
    return Choice("turn.room", "Go back to which room? (a DC: wandering monsters on a pass)", tuple(options))


def _build_merchant(buy: bool, sell_dagger: bool, sell_potion: bool, potion: bool, both_ways: bool) -> Choice:
    options = []
    if buy:
        options.append(Option("buy-dagger", f"Buy a dagger ({d.PRICE} gp)"))
        options.append(Option("buy-potion", f"Buy a potion ({d.PRICE} gp)"))
    if sell_dagger:
        options.append(Option("sell-dagger", f"Sell a dagger ({d.PRICE} gp)"))
    if sell_potion:
        options.append(Option("sell-potion", f"Sell a potion ({d.PRICE} gp)"))
    options.append(Option("leave", "Leave the merchant"))
    verb = "buys and sells" if both_ways else "sells"
    prompt = f"The merchant {verb} daggers and potions for {d.PRICE} gp each"
    return Choice("merchant", prompt, _with_potion(tuple(options), potion))


def merchant_choice(state: State, flags: Flags) -> Choice:
    t = state.trackers
    args = (
        t.counters["gold"].value >= d.PRICE,
        flags.merchant_buys and t.items.get(d.DAGGER, 0) > 0,
        flags.merchant_buys and t.items.get(d.POTION, 0) > 0,
        rules.can_drink(state),
        flags.merchant_buys,
    )
    return _cached(("merchant", *args), _build_merchant, *args)


def ask(state: State, build: Any, *args: Any) -> Engine:
    """Ask a choice; a potion drunk there is applied and the choice asked again (with fresh state).

    A choice with a lone option (a fresh floor with no potion to drink, one room to go back to) is
    taken without asking: there is nothing to decide, and the table keeps its pace.
    """
    while True:
        choice = build(state, *args)
        if len(choice.options) == 1:
            return choice.options[0].value
        answer = yield choice
        if answer is REFRESH:
            continue  # a one-shot command changed the table: the choice, built again from it
        if answer != "potion":
            return answer
        if rules.can_drink(state):  # read fresh: a one-shot command may have used the potion meanwhile
            rules.drink(state)


# ---- the game ------------------------------------------------------------------------------------
def play(state: State) -> Engine:
    flags = Flags(state.meta.variants)
    g: Tower = state.game
    if not g.created:
        if not state.hero:
            while (hero := (yield NAME)) is REFRESH:
                pass  # a one-shot command changed the table: asked again, built from it
            state.hero = hero
        while (attr := (yield CREATE)) is REFRESH:
            pass  # a one-shot command changed the table: asked again, built from it
        rules.create_hero(state, attr)
    if not g.entered:
        rules.enter_floor(state, 1)
    hp = state.trackers.counters["hp"]
    while state.finished is None:
        rules.sync_floor(state)
        if hp.value <= 0:
            rules.die(state)
            return
        if g.points > 0:
            yield from place_points(state)
        action = yield from ask(state, turn_choice)
        if hp.value <= 0:  # ``companion hp =0`` meanwhile: the top of the loop ends the run
            continue
        # Each action is checked against the state as it is now; one made impossible by a one-shot
        # command in the meantime (a room recorded by hand, a floor changed) is dropped and the turn asked again.
        if action == "new":
            if len(g.rooms) < d.MAX_ROOMS:
                yield from new_room(state, flags)
        elif action == "back":
            number = int((yield from ask(state, back_choice)))
            if 1 <= number <= len(g.rooms) and number != g.at:
                yield from go_back(state, flags, number, descend=False)
        elif action == "stairs":
            number = rules.stairs_room(g)
            if number and g.floor < d.LAST_FLOOR:
                yield from go_back(state, flags, number, descend=True)
        elif action == "down" and rules.stairs_room(g) == g.at != 0 and g.floor < d.LAST_FLOOR:
            rules.descend(state)


def place_points(state: State) -> Engine:
    g: Tower = state.game
    while g.points > 0:
        attr = yield from ask(state, level_choice)
        if g.points > 0:  # ``companion tower level`` may have placed it meanwhile
            rules.place_point(state, attr)


def new_room(state: State, flags: Flags) -> Engine:
    g: Tower = state.game
    number = rules.check_new_room(g)
    g.busy = True
    rules.open_room(state, number)
    if number == d.MAX_ROOMS and not rules.has_stairs(g):
        yield from lair(state, flags, number, dead_end=True)
    else:
        while (roll := (yield ROOM_DC)) is REFRESH:
            pass  # a one-shot command changed the table: asked again, built from it
        if roll.success:
            yield from event(state, flags, number)
        else:
            rules.set_room(state, number, d.ENCOUNTER)
            yield from encounter(state, flags, number, "", " ")
    g.busy = False


def event(state: State, flags: Flags, number: int) -> Engine:
    g: Tower = state.game
    taken = rules.taken_events(g, g.floor, flags.boss_stairs)
    kind = ""
    duplicate = ""
    if len(taken) < len(d.EVENT_KINDS):
        while (roll := (yield EVENT_DR)) is REFRESH:
            pass  # a one-shot command changed the table: asked again, built from it
        kind = EVENT_BY_TOTAL[roll.total]
        while kind in taken:
            if not flags.reroll:
                duplicate, kind = kind, ""
                break
            while (roll := (yield EVENT_AGAIN)) is REFRESH:
                pass  # a one-shot command changed the table: asked again, built from it
            kind = EVENT_BY_TOTAL[roll.total]
    if not kind:
        if state.log.enabled:
            why = f"a second {d.ROOM_TITLES[duplicate]}" if duplicate else "every event is found"
            said = f"{why} on floor {g.floor}"
            if duplicate == d.STAIRS and g.floor >= d.LAST_FLOOR:
                why = said = f"floor {d.LAST_FLOOR} has no stairs"
            rules.set_room(state, number, d.EMPTY, f"Empty ({why})")
            # Said as a line of its own: the roll above names the event, which this floor already has.
            state.log.text(f"Room {number} is empty: {said}.")
        else:
            rules.set_room(state, number, d.EMPTY)
    elif kind == d.TRAP:
        yield from trap(state, number)
    elif kind == d.MERCHANT:
        rules.set_room(state, number, d.MERCHANT, "Merchant")
        yield from merchant(state, flags)
    elif kind == d.BONFIRE:
        rules.set_room(state, number, d.BONFIRE, "Bonfire")
        bonfire(state)
    elif flags.boss_stairs:
        yield from lair(state, flags, number, dead_end=False)
    else:
        rules.set_room(state, number, d.STAIRS, "Stairs")


def trap(state: State, number: int) -> Engine:
    rules.set_room(state, number, d.TRAP, "Trap")
    while (roll := (yield TRAP_SR)) is REFRESH:
        pass  # a one-shot command changed the table: asked again, built from it
    attr = d.ATTRIBUTES[roll.option - 1]
    rules.set_room(state, number, content=f"Trap ({attr})")
    while (roll := (yield trap_request(attr, state.game.attributes[attr]))) is REFRESH:
        pass  # a one-shot command changed the table: asked again, built from it
    if roll.success:
        rules.set_room(state, number, content=f"Trap ({attr}) (Passed)")
        yield from treasure(state)
    else:
        rules.set_room(state, number, content=f"Trap ({attr}) (Failed)")
        if not rules.hurt(state, d.TRAP_DAMAGE):
            rules.die(state)


def bonfire(state: State) -> None:
    c = rules.hp(state)
    before = c.value
    rules.heal_full(state)
    if state.log.enabled:
        if before >= c.max:
            state.log.text(f"The bonfire: HP already full ({c.value}/{c.max}).")
        else:
            state.log.text(f"The bonfire heals: HP {before} → {c.value}/{c.max}.")


def merchant(state: State, flags: Flags) -> Engine:
    t = state.trackers
    if state.log.enabled and len(merchant_choice(state, flags).options) == 1:
        # Nothing to trade, so nothing is asked: say the merchant is there and what things cost.
        cannot = "and nothing to sell" if flags.merchant_buys else "and the merchant only sells"
        state.log.text(
            f"The merchant is here: daggers and potions, {d.PRICE} gp each; "
            f"you have {t.counters['gold'].value} gp {cannot}."
        )
    while True:
        answer = yield from ask(state, merchant_choice, flags)  # nothing to trade: "leave" is taken
        if answer == "leave":
            return
        verb, _, item = answer.partition("-")
        gold = t.counters["gold"]
        can = gold.value >= d.PRICE if verb == "buy" else t.items.get(item, 0) > 0
        if not can:
            continue  # the gold or the item went meanwhile (a one-shot command): ask again
        if verb == "buy":
            gold.value -= d.PRICE
            t.items[item] = t.items.get(item, 0) + 1
        else:
            gold.value += d.PRICE
            t.items[item] -= 1
        if state.log.enabled:
            state.log.text(f"{'Bought' if verb == 'buy' else 'Sold'} a {item} ({d.PRICE} gp); gold {gold.value}.")


def treasure(state: State) -> Engine:
    while (roll := (yield TREASURE_DR)) is REFRESH:
        pass  # a one-shot command changed the table: asked again, built from it
    what, n = TREASURE_BY_TOTAL[roll.total]
    rules.gain(state, what, n)
    state.game.loot = "taken"


def encounter(state: State, flags: Flags, number: int, prefix: str, sep: str) -> Engine:
    while (roll := (yield COUNT_SR)) is REFRESH:
        pass  # a one-shot command changed the table: asked again, built from it
    count = roll.option
    while (roll := (yield ELITE_EC)) is REFRESH:
        pass  # a one-shot command changed the table: asked again, built from it
    elite = bool(roll.success)
    won = yield from fight(state, flags, number, count - elite, "elite" if elite else "", prefix, sep)
    if won:
        yield from treasure(state)


def lair(state: State, flags: Flags, number: int, dead_end: bool) -> Engine:
    """The boss's lair: the stairs too. Floor 10's boss is the Necromancer; slaying him wins the game."""
    g: Tower = state.game
    final = g.floor >= d.LAST_FLOOR
    title = rules.lair_title(final, dead_end)
    rules.set_room(state, number, d.LAIR, title)
    while (roll := (yield MINIONS_DC)) is REFRESH:
        pass  # a one-shot command changed the table: asked again, built from it
    minions = d.BOSS_MINIONS_PASS if roll.success else d.BOSS_MINIONS_FAIL
    won = yield from fight(state, flags, number, minions, "necromancer" if final else "boss", title, " ")
    if won:
        if final:  # the game is won: the Necromancer's drop would never be used
            rules.win(state)
        else:
            rules.boss_drop(state, final)


def fight(state: State, flags: Flags, number: int, normal: int, strong: str, prefix: str, sep: str) -> Engine:
    """Fight the foes one by one, each until it dies (or the hero does). Returns True on a win."""
    g: Tower = state.game
    t = state.trackers
    hp = t.counters["hp"]
    items = t.items
    log = state.log.enabled
    f = Fight(normal, strong, prefix=prefix, sep=sep)
    g.fight = f
    room = rules.tracker_room(state, g.floor, number)
    was, room.state = room.state, d.FIGHTING  # foes stand in it: the room is what is in it
    if log:
        rules.set_room(state, number, content=rules.fight_text(f))
    f.attribute = yield from ask(state, fight_attribute_choice)
    foes = f.foes
    while f.killed < foes:
        if g.points > 0:
            yield from place_points(state)
        if hp.value <= 0:  # a one-shot command may have taken the last HP
            break
        i = f.killed + 1
        attr = f.attribute
        value = g.attributes[attr]
        floor = t.floor
        owned = items.get(DAGGER, 0)
        useful = rules.dagger_counts(value - rules.floor_penalty(floor), owned) if owned else ()
        potion = items.get(POTION, 0) > 0 and hp.value < hp.max
        spend = 0
        if useful or potion:
            answer = yield dagger_choice(useful, potion)
            if answer is REFRESH:
                continue  # the table changed: the top of the loop reads it again
            if answer == "potion":
                if rules.can_drink(state):
                    rules.drink(state)
                continue
            if hp.value <= 0:
                continue  # the HP went meanwhile: the top of the loop ends the fight
            spend = min(int(answer), items.get(d.DAGGER, 0))  # read fresh after the answer
            if spend:
                items[d.DAGGER] -= spend
                f.daggers += spend
        while (roll := (yield combat_request(f, i, attr, value, floor, spend))) is REFRESH:
            value, floor = g.attributes[attr], t.floor  # the roll, built again from the table as it stands
        strong_now = i > f.normal
        if roll.success:
            f.killed = i
            g.kills += 1
            if strong_now:
                if strong == "elite":
                    g.elites += 1
                else:
                    g.bosses += 1
            if log:
                rules.set_room(state, number, content=rules.fight_text(f))
            xp = rules.kill_xp(state, strong_now, flags.farming)
            if xp:
                rules.gain_xp(state, xp)
            elif log:
                state.log.text(rules.no_xp_text(state))
        elif not rules.hurt(state, d.STRONG_DAMAGE_VARIANT if (strong_now and flags.elites2) else d.DAMAGE):
            break
    won = f.killed >= foes
    g.fight = None
    if won:  # every foe slain: an encounter's room is cleared; a room met before keeps what it was
        room = rules.tracker_room(state, g.floor, number)
        room.state = "cleared" if was in (d.FIGHTING, "unexplored", d.TRACKER_STATE[d.LAIR]) else was
    if not won:
        rules.set_room(state, number, content=rules.fight_text(f, dead=True))
        rules.die(state)
    elif not log:
        rules.set_room(state, number, content=rules.fight_text(f))
    return won


def go_back(state: State, flags: Flags, number: int, descend: bool) -> Engine:
    """Move back to a known room: a DC, and on a pass a wandering encounter there."""
    g: Tower = state.game
    g.busy = True
    room = rules.reopen_room(state, number)
    while (roll := (yield WANDER_DC)) is REFRESH:
        pass  # a one-shot command changed the table: asked again, built from it
    if roll.success:
        yield from encounter(state, flags, number, room.content + " ⟶ Wandering: Yes. ", ", ")
        if state.finished is not None:
            g.busy = False
            return
    else:
        rules.set_room(state, number, content=room.content + " ⟶ Wandering: No")
    kind = g.rooms[number - 1]
    if kind == d.MERCHANT:
        yield from merchant(state, flags)
    elif kind == d.BONFIRE and flags.bonfire:
        bonfire(state)
    elif kind == d.BONFIRE and state.log.enabled:
        state.log.text(f"The bonfire does not burn again (variant {d.BONFIRE_EVERY_VISIT}: it heals on every visit).")
    if descend and (kind == d.STAIRS or kind == d.LAIR):
        rules.descend(state)
    g.busy = False
