"""The rules of The Inverted Tower as plain functions over a session state: no I/O, no dice.

Guided play (:mod:`.engine`) and the table-top one-shot commands (:mod:`.rules.events`) both change the
state through these functions, so a room, a kill or a level up means the same thing whichever way it
was recorded. In particular :func:`gain_xp` is the one reading of "Every (10 + current level) XP, you
level up": the engine, ``companion tower kill`` and the generic ``companion xp +N`` all call it.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.games.inverted_tower import data as d
from companion.games.inverted_tower.model import Fight, Tower
from companion.session.trackers import Counter, Room

if TYPE_CHECKING:
    from companion.session.state import State


class Flags:
    """The session's variants as attributes, read once per engine (they never change in a session)."""

    __slots__ = ("bonfire", "boss_stairs", "elites2", "farming", "merchant_buys", "reroll")

    def __init__(self, variants: list[str] | tuple[str, ...]) -> None:
        self.elites2 = d.ELITES_DEAL_2 in variants
        self.farming = d.NO_XP_FARMING in variants
        self.boss_stairs = d.BOSS_GUARDS_STAIRS in variants
        self.reroll = d.REROLL_DUPLICATES in variants
        self.merchant_buys = d.MERCHANT_BUYS in variants
        self.bonfire = d.BONFIRE_EVERY_VISIT in variants


# ---- the hero ------------------------------------------------------------------------------------
def setup(state: State) -> None:
    """A new session: Max HP 5 (full), one dagger, one potion, level 1, floor 1, no point placed yet."""
    t = state.trackers
    state.game = Tower()
    hp = t.counter("hp")
    hp.max = hp.value = d.START_MAX_HP
    t.counter("xp")
    t.counter("gold")
    t.items.update(d.START_ITEMS)
    t.level = d.START_LEVEL
    t.floor = 1


def attribute(name: str) -> str:
    """An attribute name as typed (``str``, ``Dex``) → ``STR``/``DEX``/``INT``, or one clear error."""
    key = name.strip().upper()
    if key not in d.ATTRIBUTES:
        raise InputError(f"{name!r} is not an attribute; the attributes are {', '.join(d.ATTRIBUTES)}")
    return key


def create_hero(state: State, attr: str) -> None:
    g: Tower = state.game
    if g.created:
        raise InputError("the hero is already made")
    g.attributes[attr] += d.START_POINTS
    g.created = True
    if state.log.enabled:
        who = state.hero or "The hero"
        state.log.text(
            f"{who}: +{d.START_POINTS} {attr}; HP {d.START_MAX_HP}/{d.START_MAX_HP}, "
            f"{d.START_ITEMS[d.DAGGER]} dagger, {d.START_ITEMS[d.POTION]} potion.",
            under=False,
        )


def hp(state: State) -> Counter:
    return state.trackers.counters["hp"]


def heal_full(state: State) -> int:
    """Heal to Max HP ("You can never heal past your Max HP"); returns HP gained."""
    c = hp(state)
    before = c.value
    c.value = c.max if c.max is not None else c.value
    return c.value - before


def drink(state: State) -> None:
    """Drink a potion: recover to Max HP, then it is discarded."""
    items = state.trackers.items
    if items.get(d.POTION, 0) <= 0:
        raise InputError("there is no potion to drink")
    items[d.POTION] -= 1
    before = hp(state).value
    heal_full(state)
    if state.log.enabled:
        c = hp(state)
        state.log.text(f"Drank a potion: HP {before} → {c.value}/{c.max}.")


def can_drink(state: State) -> bool:
    """A potion is offered when there is one and it would heal."""
    c = state.trackers.counters["hp"]
    return state.trackers.items.get(d.POTION, 0) > 0 and c.max is not None and c.value < c.max


def hurt(state: State, n: int) -> bool:
    """Lose ``n`` HP, said in the log (``−1 HP (4/5)``); True if the hero is still alive."""
    c = hp(state)
    c.value = max(0, c.value - n)
    if state.log.enabled:
        state.log.text(f"−{n} HP ({c.value}/{c.max}).")
    return c.value > 0


def record(state: State) -> str:
    """The run in one line, for its last log entry: ``level 4, 23 kills, 2 Liches, 1 boss``."""
    g: Tower = state.game
    parts = [f"level {state.trackers.level}", f"{g.kills} kill{'s' if g.kills != 1 else ''}"]
    if g.elites:
        parts.append(f"{g.elites} {d.ELITE_NAME}{'es' if g.elites > 1 else ''}")
    if g.bosses:
        parts.append(f"{g.bosses} boss{'es' if g.bosses > 1 else ''}")
    return ", ".join(parts)


def die(state: State) -> None:
    state.finished = "lost"
    if state.log.enabled:
        g: Tower = state.game
        where = f", in room {g.at}" if g.at else ""
        state.log.text(f"The hero dies on floor {g.floor}{where} ({record(state)}).", under=False)


def xp_to_next(level: int) -> int:
    """XP needed to go from ``level`` to the next: "Every (10 + current level) XP, you level up"."""
    return d.XP_BASE + level


def gain_xp(state: State, n: int) -> int:
    """Add ``n`` XP and apply every level up it brings; returns the number of level ups.

    Our reading: the XP bar is spent at each level up and the remainder carries over (the same as
    levelling at total XP 11, 23, 36, ...). A level up raises Max HP by 1 (not the current HP) and
    gives one attribute point, placed by the player (guided play asks at once; ``companion tower
    level ATTR`` places it at the table).
    """
    t = state.trackers
    xp = t.counters["xp"]
    xp.value = max(0, xp.value + n)
    ups = 0
    while xp.value >= d.XP_BASE + t.level:
        xp.value -= d.XP_BASE + t.level
        t.level += 1
        c = t.counters["hp"]
        c.max = (c.max or 0) + d.LEVEL_MAX_HP
        state.game.points += d.LEVEL_POINTS
        ups += 1
        if state.log.enabled:
            state.log.text(f"Level {t.level}! Max HP {c.max}; {d.LEVEL_POINTS} attribute point to place.")
    return ups


def kill_xp(state: State, strong: bool, farming: bool) -> int:
    """XP for a kill: 1, or 2 for an elite or a boss; 0 with no-xp-farming once level ≥ floor + 2."""
    t = state.trackers
    if farming and t.level >= t.floor + d.FARMING_GAP:
        return 0
    return d.XP_STRONG if strong else d.XP_NORMAL


def no_xp_text(state: State) -> str:
    """Why a kill gave no XP (no-xp-farming: the hero's level is floor + 2 or more)."""
    t = state.trackers
    return (
        f"No XP for this kill: level {t.level} on floor {t.floor} "
        f"({d.NO_XP_FARMING}: no XP at floor + {d.FARMING_GAP} or more)."
    )


def place_point(state: State, attr: str) -> None:
    g: Tower = state.game
    if g.points <= 0:
        raise InputError("there is no level-up point to place")
    g.points -= 1
    g.attributes[attr] += 1
    if state.log.enabled:
        state.log.text(f"+1 {attr} (now {g.attributes[attr]}).")


def gain(state: State, what: str, n: int = 1) -> None:
    """Gain gold (a counter) or an item (dagger, potion)."""
    t = state.trackers
    if what == "gold":
        t.counters["gold"].value += n
    else:
        t.items[what] = t.items.get(what, 0) + n


def treasure_refusal(state: State) -> str | None:
    """Why no treasure may be taken now (one line), or None when one DR on the treasure table is due.

    Treasure comes after a won encounter ("If the encounter is successful, DR for treasure") and after a
    passed trap ("If it fails, -1 HP and no treasure"); once per room; a boss's drop is its treasure."""
    g: Tower = state.game
    if g.loot == "due":
        return None
    rule = "treasure comes after a won encounter or a passed trap (one DR on the treasure table)"
    if g.fight is not None:
        return f"a fight is going on: {rule}"
    if g.at == 0 or g.at > len(g.rooms):
        return f"no room is explored on floor {g.floor} yet: {rule}"
    kind = g.rooms[g.at - 1]
    if g.loot == "taken":
        return f"room {g.at}'s treasure is already taken: {rule}, once"
    if kind == d.TRAP:
        return f"room {g.at}'s trap was failed: -1 HP and no treasure"
    if kind == d.LAIR:
        return "the boss's drop is its treasure (a potion, a dagger and 1 gp, added when it died)"
    if kind == d.ENCOUNTER:
        return f"room {g.at}'s treasure is not due: {rule}"
    return f"room {g.at} ({d.ROOM_TITLES.get(kind, kind)}) holds no treasure: {rule}"


def take_treasure(state: State, what: str) -> None:
    """The treasure the DR gave (or the player rolled at the table): gained, and this room's is taken."""
    gain(state, what, 1)
    state.game.loot = "taken"


# ---- combat --------------------------------------------------------------------------------------
def floor_penalty(floor: int) -> int:
    """Combat: "minus floor level (ignore this on floor 1)"."""
    return 0 if floor <= d.NO_FLOOR_PENALTY_ON else floor


@functools.cache  # asked at every fight roll; a simulation asks it a hundred thousand times
def dagger_counts(base: int, owned: int) -> tuple[int, ...]:
    """How many of the ``owned`` daggers are worth spending on a roll with modifier ``base``.

    A count is worth it when it raises the roll's chance over one dagger fewer: not past the one that
    makes it pass on 2+ (a natural 1 always fails), and not while the roll still passes only on a
    natural 6 (which always passes): at DC −3 a single dagger changes nothing, two do.
    """
    from companion.dice.odds import dc_chance

    return tuple(n for n in range(1, owned + 1) if dc_chance(base + n) > dc_chance(base + n - 1))


def lair_title(final: bool, dead_end: bool) -> str:
    """The lair's room line before its foes, one form in guided and table play: ``Stairs (dead end), Boss:``
    for the 12th room without the stairs found, ``Stairs, Boss:`` when a boss guards the stairs (a variant),
    and ``Necromancer's lair:`` on the last floor."""
    if final:
        return f"{d.FINAL_BOSS_NAME}'s lair: "
    return "Stairs (dead end), Boss: " if dead_end else "Stairs, Boss: "


def room_title(g: Tower, kind: str) -> str:
    """A room kind as the panel lists it: the last floor's lair is the Necromancer's (it has no stairs)."""
    if kind == d.LAIR and g.floor >= d.LAST_FLOOR:
        return f"{d.FINAL_BOSS_NAME}'s lair"
    return d.ROOM_TITLES[kind]


def strong_title(kind: str) -> str:
    return {"elite": d.ELITE_NAME, "boss": d.BOSS_NAME, "necromancer": d.FINAL_BOSS_NAME}[kind]


def foe_name(f: Fight, i: int) -> str:
    """The ``i``-th foe (1-based) as the prompts name it."""
    if i <= f.normal:
        return f"{d.NORMAL_NAME} {i} of {f.normal}"
    if f.strong == "elite":
        return f"{d.ELITE_NAME} (elite)"
    if f.strong == "boss":
        return f"{d.BOSS_NAME} (boss)"
    return f"the {d.FINAL_BOSS_NAME}"


def fight_text(f: Fight, dead: bool = False) -> str:
    """The foes in the Dungeon Log's form: ``Mob 1 (killed) Mob 2 (killed) Mob 3 (elite)``."""
    tags = []
    for i in range(1, f.foes + 1):
        if i <= f.normal:
            tag = f"Mob {i}"
        elif f.strong == "elite":
            tag = f"Mob {i} (elite)"
        elif f.strong == "boss":
            tag = "Boss"
        else:
            tag = "Necromancer"
        if i <= f.killed:
            tag += " (killed)"
        elif dead:
            tag += " (alive)"
        tags.append(tag)
    return f.prefix + f.sep.join(tags)


# ---- floors and rooms ----------------------------------------------------------------------------
def find_room(state: State, floor: int, number: int) -> Room | None:
    """The generic tracker's room, or None (the last one is the usual case, so look there first)."""
    rooms = state.trackers.rooms
    if rooms:
        last = rooms[-1]
        if last.floor == floor and last.number == number:
            return last
    for room in reversed(rooms):
        if room.floor == floor and room.number == number:
            return room
    return None


def tracker_room(state: State, floor: int, number: int) -> Room:
    """The generic tracker's room, added if the tracker lost it (e.g. a hand edit of the rooms)."""
    room = find_room(state, floor, number)
    if room is None:
        room = Room(floor, number)
        state.trackers.rooms.append(room)
    return room


def enter_floor(state: State, floor: int) -> None:
    g: Tower = state.game
    g.floor = floor
    g.rooms = []
    g.at = 0
    g.loot = ""
    g.entered = True
    state.trackers.floor = floor
    state.log.heading(f"Floor {floor}")


def sync_floor(state: State) -> None:
    """Follow a floor change made by the generic ``companion floor N`` (read fresh after each answer)."""
    g: Tower = state.game
    if state.trackers.floor != g.floor:
        g.floor = state.trackers.floor
        g.rooms = []
        g.at = 0


def has_stairs(g: Tower) -> bool:
    rooms = g.rooms
    return d.STAIRS in rooms or d.LAIR in rooms


def stairs_room(g: Tower) -> int:
    """The number of this floor's stairs room, 0 if not found."""
    for i, kind in enumerate(g.rooms, 1):
        if kind == d.STAIRS or kind == d.LAIR:
            return i
    return 0


def taken_events(g: Tower, floor: int, boss_stairs: bool) -> set[str]:
    """Event kinds this floor already has. The last floor has no stairs to find, unless a boss guards them."""
    taken = {k for k in g.rooms if k in d.EVENT_KINDS}
    if d.LAIR in g.rooms or (floor >= d.LAST_FLOOR and not boss_stairs):
        taken.add(d.STAIRS)
    return taken


def open_room(state: State, number: int) -> Room:
    """A new room on this floor: counted at once (it may hold a fight), its log line opened."""
    g: Tower = state.game
    g.rooms.append("")
    g.at = number
    g.loot = ""
    room = Room(g.floor, number, "…", "unexplored")
    state.trackers.rooms.append(room)
    if state.log.enabled:  # the simulator plays with the log off: no line text to build
        state.log.line(room.key, room.line())
    return room


def set_room(state: State, number: int, kind: str | None = None, content: str | None = None) -> Room:
    """Set a room's kind and/or its log text (the tracker mirror and the log line change together)."""
    g: Tower = state.game
    room = tracker_room(state, g.floor, number)
    if kind is not None:
        g.rooms[number - 1] = kind
        room.state = d.TRACKER_STATE[kind]
    if content is not None:
        room.content = content
        if state.log.enabled:
            state.log.update(room.key, room.line())
            _update_visit(state, room)
    return room


#: A visit line's key: the room's key, ``@``, and where in the log the visit began.
VISIT = "@"


def reopen_room(state: State, number: int) -> Room:
    """Go back to a known room.

    The room's own line keeps the rule text's form and grows as before (``Room 1: Mob 1 (killed)
    ⟶ Wandering: Yes. Mob 1 (killed)``), while the return gets a line of its own where it happens
    in the log, ``Back in Room 1, after Room 8: Wandering: Yes. Mob 1 (killed)``, and its rolls,
    potions and treasure hang under that one: the log reads in the order of play.
    """
    g: Tower = state.game
    before = g.at
    g.at = number
    g.loot = ""
    room = tracker_room(state, g.floor, number)
    if state.log.enabled:
        log = state.log
        key = f"{room.key}{VISIT}{len(log.entries)}"
        head = f"Back in Room {number}" + (f", after Room {before}" if before and before != number else "")
        log.line(key, head + ":")
        entry = log.entries[log.lines[key]]
        entry["vh"], entry["vc"] = head, len(room.content)
    return room


def _update_visit(state: State, room: Room) -> None:
    """Keep the current visit line (if it is this room's) equal to what happened on this visit."""
    current = state.log.current
    if current is None or not current.startswith(room.key + VISIT):
        return
    entry = state.log.entries[state.log.lines[current]]
    since = room.content[entry["vc"] :].strip().removeprefix("⟶").strip()
    entry["t"] = f"{entry['vh']}: {since}" if since else f"{entry['vh']}:"


def in_room(state: State, room: Room) -> bool:
    """Whether the log's current line is this room's own line or a visit to it."""
    current = state.log.current
    return current is not None and (current == room.key or current.startswith(room.key + VISIT))


def check_new_room(g: Tower) -> int:
    """The number the next room on this floor gets, or one clear error if the floor is full."""
    n = len(g.rooms) + 1
    if n > d.MAX_ROOMS:
        raise InputError(f"floor {g.floor} already has {d.MAX_ROOMS} rooms, the most a floor can have")
    return n


def descend(state: State) -> None:
    g: Tower = state.game
    if g.floor >= d.LAST_FLOOR:
        raise InputError(f"floor {d.LAST_FLOOR} is the last: slay the {d.FINAL_BOSS_NAME} to win")
    if state.log.enabled:
        number = stairs_room(g)
        # The note hangs under the stairs room's line when that is where play is in the log; a room
        # found earlier is not reopened above the rooms played since (the log keeps time order).
        under = bool(number) and in_room(state, tracker_room(state, g.floor, number))
        state.log.text(f"Down the stairs to floor {g.floor + 1}.", under=under)
    enter_floor(state, g.floor + 1)


def boss_drop(state: State, final: bool) -> None:
    """A boss always drops one potion, one dagger and one gold piece."""
    for what, n in d.BOSS_DROP.items():
        gain(state, what, n)
    if state.log.enabled:
        who = d.FINAL_BOSS_NAME if final else d.BOSS_NAME
        state.log.text(f"The {who} drops a potion, a dagger and 1 gp.")


def win(state: State) -> None:
    state.finished = "won"
    if state.log.enabled:
        state.log.text(
            f"The {d.FINAL_BOSS_NAME} is slain on floor {d.LAST_FLOOR}. Victory! ({record(state)})", under=False
        )
