"""Reducers for The Inverted Tower's one-shot events: table-top play recorded without guided play.

A player with paper and real dice records what happened (``companion tower room trap INT failed``,
``companion tower kill``) and these reducers apply the draft's consequences with the same
:mod:`.rules` functions guided play uses (HP lost, XP and level ups, the boss's drop), and refuse
what the rules forbid (a 13th room, a second Trap room on a floor) with one clear line. Every check
comes before any change, so a refused event leaves the state as it was.

The ``xp`` reducer replaces the generic one, so ``companion xp +N`` levels up by this game's reading
(one implementation: :func:`.rules.gain_xp`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.errors import InputError
from companion.games.inverted_tower import data as d
from companion.games.inverted_tower import rules
from companion.games.inverted_tower.data import wares
from companion.games.inverted_tower.model import Fight, Tower
from companion.log.corrections import corrected

if TYPE_CHECKING:
    from companion.session.state import State

Event = dict[str, Any]

#: What ``companion tower room KIND`` accepts, and what each kind is.
ROOM_KINDS: dict[str, str] = {
    "trap": "a Trap: give the attribute and passed/failed (a failed trap costs 1 HP)",
    "merchant": "the Merchant",
    "bonfire": "a Bonfire (heals to Max HP)",
    "stairs": "the Stairs",
    "empty": "an empty room (a duplicate event)",
    "mobs": "an encounter: give how many Skeleton Warriors (1-3) and --elite if one is a Lich",
    "boss": "the boss's lair, also the stairs: give its minions (2 or 4)",
}


def _flags(state: State) -> rules.Flags:
    return rules.Flags(state.meta.variants)


def _ready(state: State) -> Tower:
    """The hero must exist, and guided play must not be in the middle of a room."""
    g: Tower = state.game
    if not g.created:
        raise InputError("make the hero first: companion tower hero STR|DEX|INT")
    if state.finished is not None:
        raise InputError(f"the game is over ({state.finished})")
    if g.busy:
        raise InputError("guided play is resolving a room: finish it in companion play (or companion next)")
    rules.sync_floor(state)  # follow a generic ``companion floor N``
    return g


def _no_fight(g: Tower) -> None:
    if g.fight is not None:
        raise InputError("a fight is going on: record each roll with companion tower kill or companion tower fail")


def _standing_in(g: Tower, number: int, where: str) -> None:
    """Refuse unless the hero stands in room ``number`` (``where`` says what is there: "the merchant is"):
    going back there is a DC with wandering monsters, which guided play asks and a command must not skip."""
    if g.at == number:
        return
    here = f"room {g.at} ({d.ROOM_TITLES.get(g.rooms[g.at - 1], 'unexplored')})" if g.at else "no room yet"
    raise InputError(
        f"you stand in {here}; {where} in room {number}: go back there first (companion tower back {number})"
    )


def _mobs(event: Event) -> tuple[int, bool]:
    n = int(event.get("mobs", 0))
    if not 1 <= n <= 3:
        raise InputError(f"an encounter has 1 to 3 {d.NORMAL_NAME}s (SR 1,2,3), not {n}")
    return n, bool(event.get("elite"))


def xp(state: State, event: Event) -> None:
    n = int(event["n"])
    if state.log.enabled and event.get("correct"):  # the sheet fixed: said so, and levels still follow
        have = state.trackers.counters["xp"].value
        state.log.text(corrected("XP", have, max(0, have + n)))
    elif state.log.enabled:
        state.log.text(f"XP {n:+d}.")
    rules.gain_xp(state, n)


def hero(state: State, event: Event) -> None:
    g: Tower = state.game
    attr = rules.attribute(event["attribute"])
    if g.created:
        raise InputError("the hero is already made")
    if event.get("name"):
        state.hero = str(event["name"])
    rules.create_hero(state, attr)
    if not g.entered:
        rules.enter_floor(state, 1)


def room(state: State, event: Event) -> None:
    g = _ready(state)
    _no_fight(g)
    flags = _flags(state)
    kind = str(event["kind"]).lower()
    if kind not in ROOM_KINDS:
        raise InputError(f"{kind!r} is not a room kind; kinds: {', '.join(ROOM_KINDS)}")
    number = rules.check_new_room(g)
    final = g.floor >= d.LAST_FLOOR
    dead_end = number == d.MAX_ROOMS and not rules.has_stairs(g)
    if dead_end and kind != "boss":
        raise InputError(
            f"room {d.MAX_ROOMS} without the stairs found is the stairs and the boss's lair: "
            "companion tower room boss MINIONS"
        )
    taken = rules.taken_events(g, g.floor, flags.boss_stairs)
    if kind in ("trap", "merchant", "bonfire", "stairs") and kind in taken:
        if kind == d.STAIRS and final:
            raise InputError(f"floor {d.LAST_FLOOR} has no stairs: the {d.FINAL_BOSS_NAME} waits in its last room")
        raise InputError(f"floor {g.floor} already has a {d.ROOM_TITLES[kind]} room; record this one as empty")
    if kind == "stairs" and flags.boss_stairs:
        raise InputError("with boss-guards-stairs the stairs are the boss's lair: companion tower room boss MINIONS")
    if kind == "boss":
        if not (dead_end or flags.boss_stairs):
            raise InputError(f"a boss waits only in a dead end (room {d.MAX_ROOMS} without the stairs found)")
        if flags.boss_stairs and d.STAIRS in taken and not dead_end:
            raise InputError(f"floor {g.floor} already has its stairs")
        minions = int(event.get("minions", 0))
        if minions not in (d.BOSS_MINIONS_FAIL, d.BOSS_MINIONS_PASS):
            raise InputError(f"a boss has {d.BOSS_MINIONS_PASS} minions (DC passed) or {d.BOSS_MINIONS_FAIL} (failed)")
    attr = ""
    if kind == "trap":
        attr = rules.attribute(str(event.get("attribute", "")))
        if event.get("result") not in ("passed", "failed"):
            raise InputError("a trap is passed or failed")
    if kind == "mobs":
        _mobs(event)
    # every check is done: change the state
    rules.open_room(state, number)
    if kind == "trap":
        failed = event["result"] == "failed"
        rules.set_room(state, number, d.TRAP, f"Trap ({attr}) ({'Failed' if failed else 'Passed'})")
        if not failed:
            g.loot = "due"
        elif not rules.hurt(state, d.TRAP_DAMAGE):
            rules.die(state)
    elif kind == "merchant":
        rules.set_room(state, number, d.MERCHANT, "Merchant")
    elif kind == "bonfire":
        rules.set_room(state, number, d.BONFIRE, "Bonfire")
        rules.heal_full(state)
    elif kind == "stairs":
        rules.set_room(state, number, d.STAIRS, "Stairs")
    elif kind == "empty":
        rules.set_room(state, number, d.EMPTY, "Empty")
    elif kind == "mobs":
        n, elite = _mobs(event)
        f = Fight(n - elite, "elite" if elite else "")
        g.fight = f
        rules.set_room(state, number, d.ENCOUNTER, rules.fight_text(f))
    else:
        title = rules.lair_title(final, dead_end)
        f = Fight(int(event["minions"]), "necromancer" if final else "boss", prefix=title)
        g.fight = f
        rules.set_room(state, number, d.LAIR, rules.fight_text(f))


def back(state: State, event: Event) -> None:
    g = _ready(state)
    _no_fight(g)
    number = int(event["room"])
    if not 1 <= number <= len(g.rooms):
        raise InputError(f"floor {g.floor} has no room {number} yet (it has {len(g.rooms)})")
    if number == g.at:
        raise InputError(f"you stand in room {number} already: going back is to another room of this floor")
    mobs = _mobs(event) if int(event.get("mobs", 0)) else None  # checked before anything changes
    room_ = rules.reopen_room(state, number)
    if mobs is not None:
        n, elite = mobs
        f = Fight(n - elite, "elite" if elite else "", prefix=room_.content + " ⟶ Wandering: Yes. ", sep=", ")
        g.fight = f
        rules.set_room(state, number, content=rules.fight_text(f))
    else:
        rules.set_room(state, number, content=room_.content + " ⟶ Wandering: No")
    if g.rooms[number - 1] == d.BONFIRE and _flags(state).bonfire:
        rules.heal_full(state)
    elif g.rooms[number - 1] == d.BONFIRE and state.log.enabled:
        state.log.text(f"The bonfire does not burn again (variant {d.BONFIRE_EVERY_VISIT}: it heals on every visit).")


def _fight(state: State) -> tuple[Tower, Fight]:
    g = _ready(state)
    if g.fight is None:
        raise InputError("no fight is going on: record one with companion tower room mobs N (or back ROOM --mobs N)")
    return g, g.fight


def kill(state: State, event: Event) -> None:
    g, f = _fight(state)
    i = f.killed + 1
    strong = i > f.normal
    f.killed = i
    g.kills += 1
    if strong:
        if f.strong == "elite":
            g.elites += 1
        else:
            g.bosses += 1
    rules.set_room(state, g.at, content=rules.fight_text(f))
    gained = rules.kill_xp(state, strong, _flags(state).farming)
    if gained:
        rules.gain_xp(state, gained)
    elif state.log.enabled:
        state.log.text(rules.no_xp_text(state))
    if f.killed >= f.foes:
        g.fight = None
        if f.strong == "necromancer":
            rules.win(state)
        elif f.strong == "boss":
            rules.boss_drop(state, False)
        else:
            g.loot = "due"  # a won encounter (or wandering monsters): one DR for treasure


def fail(state: State, event: Event) -> None:
    g, f = _fight(state)
    strong = f.killed + 1 > f.normal
    damage = d.STRONG_DAMAGE_VARIANT if strong and _flags(state).elites2 else d.DAMAGE
    if not rules.hurt(state, damage):
        g.fight = None
        rules.set_room(state, g.at, content=rules.fight_text(f, dead=True))
        rules.die(state)
    elif state.log.enabled:
        c = rules.hp(state)
        state.log.text(f"Fight: {rules.foe_name(f, f.killed + 1)}: failed, HP {c.value}/{c.max}.")


def treasure(state: State, event: Event) -> None:
    _ready(state)
    what = str(event["what"])
    if what not in ("gold", d.DAGGER, d.POTION):
        raise InputError(f"{what!r} is not a treasure; treasure is 1 gp, a dagger or a potion")
    refusal = rules.treasure_refusal(state)
    if refusal is not None:
        raise InputError(refusal)
    rules.take_treasure(state, what)
    if state.log.enabled:
        state.log.text(f"Treasure: {'1 gp' if what == 'gold' else 'a ' + what}.")


def check_down(state: State) -> Tower:
    """Refuse (InputError) unless the hero may take the stairs now: in the stairs room, no fight going on."""
    g = _ready(state)
    _no_fight(g)
    if g.floor >= d.LAST_FLOOR:
        raise InputError(f"floor {d.LAST_FLOOR} is the last: slay the {d.FINAL_BOSS_NAME} to win")
    if not rules.has_stairs(g):
        raise InputError(f"the stairs of floor {g.floor} are not found yet")
    _standing_in(g, rules.stairs_room(g), "the stairs are")
    return g


def down(state: State, event: Event) -> None:
    check_down(state)
    rules.descend(state)


def floor(state: State, event: Event) -> None:
    """The generic ``companion floor N``: the stairs when it is the next floor and the hero may take them
    (asked first, :mod:`.hand`); a correction (``--correct``), or an old save's jump, moves the sheet."""
    g: Tower = state.game
    n = int(event["n"])
    if not event.get("correct") and n == g.floor + 1:
        try:
            check_down(state)
        except InputError:
            pass  # recorded before the rule: replayed as it was played
        else:
            rules.descend(state)
            return
    before = state.trackers.floor
    state.trackers.floor = n
    state.log.heading(f"Floor {n}")
    rules.sync_floor(state)
    g.loot = ""
    if event.get("correct"):
        state.log.text(corrected("floor", before, n))


def level(state: State, event: Event) -> None:
    _ready(state)
    rules.place_point(state, rules.attribute(event["attribute"]))


def potion(state: State, event: Event) -> None:
    _ready(state)
    if not rules.can_drink(state):
        c = rules.hp(state)
        if state.trackers.items.get(d.POTION, 0) <= 0:
            raise InputError("there is no potion to drink")
        raise InputError(f"HP is full ({c.value}/{c.max}): a potion would heal nothing")
    rules.drink(state)


def trade(state: State, event: Event) -> None:
    g = _ready(state)
    _no_fight(g)
    op, item = event["op"], event["item"]
    n = int(event.get("n", 1))
    if item not in d.MERCHANT_WARES:
        raise InputError(f"the merchant trades daggers and potions, not {item!r}")
    if d.MERCHANT not in g.rooms:
        raise InputError(f"floor {g.floor} has no merchant found yet")
    _standing_in(g, g.rooms.index(d.MERCHANT) + 1, "the merchant is")
    if n < 1:
        raise InputError("trade at least one")
    t = state.trackers
    gold = t.counters["gold"]
    if op == "buy":
        if gold.value < n * d.PRICE:
            cost = f"{'costs' if n == 1 else 'cost'} {n * d.PRICE} gp"
            raise InputError(f"{wares(item, n)} {cost}; you have {gold.value} gp")
        gold.value -= n * d.PRICE
        t.items[item] = t.items.get(item, 0) + n
    else:
        if not _flags(state).merchant_buys:
            raise InputError(f"the merchant only sells (play with --variant {d.MERCHANT_BUYS} to sell to it)")
        if t.items.get(item, 0) < n:
            raise InputError(f"you have {wares(item, t.items.get(item, 0))}")
        gold.value += n * d.PRICE
        t.items[item] -= n
    if state.log.enabled:
        state.log.text(f"{'Bought' if op == 'buy' else 'Sold'} {wares(item, n)} ({n * d.PRICE} gp); gold {gold.value}.")


REDUCERS: dict[str, Callable[[State, Event], None]] = {
    "xp": xp,
    "tower-hero": hero,
    "tower-room": room,
    "tower-back": back,
    "tower-kill": kill,
    "tower-fail": fail,
    "tower-treasure": treasure,
    "tower-down": down,
    "floor": floor,
    "tower-level": level,
    "tower-potion": potion,
    "tower-trade": trade,
}
