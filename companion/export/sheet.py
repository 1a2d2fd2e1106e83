"""What the Lonelog add-ons record, read from a session's state after each event: rooms, resources, foes.

A :class:`Sheet` is a snapshot of the numbers the add-ons of Lonelog v1.6 tag (docs/log-format.md,
"Lonelog"); :func:`changes` turns two snapshots into the tags that say what changed between them, in
the add-ons' own symbols:

- the dungeon add-on: ``[R:ID|status|description]`` for a room met or changed (the ID is the room's
  number, ``F2.3`` for room 3 of floor 2 where a game has floors of rooms: the same form all session
  long); its status in the add-on's words, from what is in it (:func:`room_status`), and a room is
  tagged once something is known of it;
- the resource add-on: ``[Inv:Torch|3→2]`` for an item's count, ``[Wealth:Gold+15]`` for gold, and a
  ``[PC:Name|HP-2|HP 6]`` for the hero's other counters (HP, XP, level);
- the combat add-on: ``[F:Name|HP-3|HP 3]`` for a foe's health, ``[F:Name|dead]`` when it is slain.

Games are read by their shape, as the replay reads them: the trackers every game shares (counters,
items, rooms, tallies), a game's figures (a ``heroes`` field holds the heroes; any other figure with
a health is a foe), and the fight on its board (the game's own view of the table: a foe that has no
health of its own, an Inverted Tower's Skeleton Warrior, a Dark Tower's monster, is in the fight while
the board shows it there, and slain when it leaves it and the game is not lost).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.i18n import pgettext
from companion.session.state import State

#: Counters that are money: the resource add-on's ``[Wealth:]``.
WEALTH = ("gold", "silver", "copper", "coins", "treasure")

#: A room tracker's state in the dungeon add-on's words (the add-on: unexplored, active, cleared,
#: looted, locked, trapped, safe, collapsed; a state of a player's own is kept as written).
STATUS = {
    "unexplored": "unexplored",
    "active": "active",  # foes stand in it
    "cleared": "cleared",
    "looted": "cleared, looted",
    "trap": "trapped",
    "event": "safe",  # a merchant, a bonfire: no threat in it
    "stairs": "safe",
    "boss": "active",  # the boss stands in its lair
    "fled": "active",  # the foes are still there
    "empty": "cleared",
}
#: A room's text that says nothing yet (the Inverted Tower's room as it is entered).
UNKNOWN = ("", "…")


def room_status(state: str, content: str) -> str | None:
    """A room's status in the dungeon add-on's words, from what is in it; None while nothing is known
    of a room just entered (its first tag waits for what is in it)."""
    if state == "unexplored" and content.strip() in UNKNOWN:
        return None
    if "(alive)" in content:  # the fight in it was lost: its foes stand
        return "active"
    return STATUS.get(state, state or "active")


def room_id(floor: int, number: int, floors: bool) -> str:
    """``3``, or ``F2.3`` (room 3 of floor 2) in a game of floors."""
    return f"F{floor}.{number}" if floors else str(number)


def one_line(text: object) -> str:
    """Text as one line, without the two characters that would end or split a tag (``]``, ``|``)."""
    return " ".join(str(text).replace("|", "/").replace("]", ")").replace("[", "(").split())


@dataclass(frozen=True)
class Sheet:
    #: Counter name → (label, value, max).
    counters: dict[str, tuple[str, int, int | None]] = field(default_factory=dict)
    items: dict[str, int] = field(default_factory=dict)
    #: (floor, room number) → (status, description): rooms something is known of.
    rooms: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)
    #: Foe name → its health (None: no health known, only whether it stands) and whether it is down.
    foes: dict[str, tuple[int | None, bool]] = field(default_factory=dict)
    #: Hero name → health.
    heroes: dict[str, int] = field(default_factory=dict)
    #: The round of the fight under way, where the game counts rounds.
    round: int | None = None
    #: The foes in the fight on the game's board (its view of the table): name → health, if it has one.
    fighting: dict[str, int | None] = field(default_factory=dict)
    #: The game is over and lost (a foe that leaves the board then was not slain).
    lost: bool = False
    #: The heroes on the game's board: name → (health as shown, what matters most in the game).
    party: dict[str, tuple[str, str]] = field(default_factory=dict)


def _health(obj: Any) -> int | None:
    for attr in ("health", "hp"):
        value = getattr(obj, attr, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _figures(game: Any) -> tuple[dict[str, int], dict[str, tuple[int | None, bool]]]:
    heroes: dict[str, int] = {}
    foes: dict[str, tuple[int | None, bool]] = {}
    if game is None or not hasattr(game, "__dataclass_fields__"):
        return heroes, foes
    for fname in game.__dataclass_fields__:
        value = getattr(game, fname, None)
        for item in value if isinstance(value, list) else [value]:
            if item is None or isinstance(item, (str, int, float, dict, list, bool)):
                continue
            health = _health(item)
            name = next((getattr(item, a) for a in ("name", "player") if isinstance(getattr(item, a, None), str)), None)
            if name is None and isinstance(getattr(item, "monster", None), str):  # a fight holding its foe's HP
                name = item.monster
            if not name or health is None:
                continue
            if fname.startswith(("hero", "player", "party")):
                heroes[name] = health
            else:
                down = getattr(item, "status", "") in ("slain", "dead", "killed")
                foes[name] = (health, down or health <= 0)
    return heroes, foes


def _round(state: State) -> int | None:
    game = state.game
    fight = getattr(game, "fight", None)
    for obj, attr in ((fight, "round"), (game, "round")):
        value = getattr(obj, attr, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    pack = state.trackers.fight
    return pack.rounds if pack is not None else None


def _number(text: str) -> int | None:
    head = text.strip().lstrip("♥").split("/")[0]
    return int(head) if head.isdigit() and "/" in text else None


def sheet_of(state: State, board: Any = None) -> Sheet:
    """The sheet of ``state``; ``board``: the game's board for it (its fight's foes, its heroes)."""
    t = state.trackers
    counters = {
        name: (c.label or (name.upper() if len(name) <= 3 else name.capitalize()), c.value, c.max)
        for name, c in t.counters.items()
    }
    if "xp" in t.counters:
        counters["level"] = ("Level", t.level, None)
    rooms = {}
    for r in t.rooms:
        status = room_status(r.state, r.content)
        if status is not None:
            rooms[(r.floor, r.number)] = (status, "" if r.content.strip() in UNKNOWN else r.content)
    heroes, foes = _figures(state.game)
    for tally in t.tallies.values():
        if tally.monster:
            foes[tally.name] = (tally.left, tally.slain)
        else:
            heroes[tally.name] = tally.left
    if t.fight is not None:
        foe = t.fight.foe
        hp = next((v for k, v in t.fight.values.items() if k.lower() in ("stamina", "hp", "health")), None)
        foes.setdefault(foe, (hp, False))
    fighting: dict[str, int | None] = {}
    party: dict[str, tuple[str, str]] = {}
    if board is not None and t.fight is None:  # a table pack's fight: its foe is the tracker's (above)
        names = {f.name for f in board.heroes}
        fighting = {f.name: _number(f.health) for f in board.fight if f.name not in names and not f.out}
        party = {f.name: (f.health, f.extra) for f in board.heroes}
    lost = bool(state.finished) and str(state.finished).lower().startswith(("lost", "dead", "died", "defeat"))
    return Sheet(counters, dict(t.items), rooms, foes, heroes, _round(state), fighting, lost, party)


def _delta(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def room_tag(key: tuple[int, int], status: str, desc: str, floors: bool) -> str:
    """``[R:F1.2|cleared|Mob 1 (killed) -> Wandering: No]``: Lonelog's one arrow in a room's words too."""
    desc = desc.replace("⟶", "->").replace("→", "->")
    fields = [f"R:{room_id(*key, floors)}", one_line(status)] + ([one_line(desc)] if desc else [])
    return "[" + "|".join(fields) + "]"


def changes(before: Sheet, after: Sheet, hero: str, floors: bool = False) -> list[str]:
    """The add-on tags for what changed from ``before`` to ``after`` (none when nothing did); ``floors``:
    the session's rooms are on several floors (their IDs are ``F2.3`` all along)."""
    out: list[str] = []
    for key, (status, desc) in after.rooms.items():
        if before.rooms.get(key) != (status, desc):
            out.append(room_tag(key, status, desc, floors))
    for name in dict.fromkeys([*before.items, *after.items]):
        was, now = before.items.get(name, 0), after.items.get(name, 0)
        if was != now:
            shown = "depleted" if now == 0 else f"{was}→{now}" if was else str(now)
            out.append(f"[Inv:{one_line(name)}|{shown}]")
    pc: list[str] = []
    for name, (label, value, most) in after.counters.items():
        known = before.counters.get(name)
        was = known[1] if known is not None else None
        if was == value:
            continue
        now = f"{value}/{most}" if most is not None else str(value)
        if name in WEALTH:
            change = f" {value}" if was is None else _delta(value - was)
            out.append(f"[Wealth:{one_line(label.capitalize())}{change}]")
        elif was is None:  # a counter set up: its value, no change
            pc.append(f"{one_line(label)} {now}")
        else:
            pc.append(f"{one_line(label)}{_delta(value - was)}|{one_line(label)} {now}")
    for name, value in after.heroes.items():
        was = before.heroes.get(name)
        if was is not None and was != value:
            out.append(f"[PC:{one_line(name)}|HP{_delta(value - was)}|HP {value}]")
    if pc:
        out.append(f"[PC:{one_line(hero)}|" + "|".join(pc) + "]")
    for name, (health, down) in after.foes.items():
        was = before.foes.get(name)
        if was is None or was == (health, down):
            continue
        if down and not was[1]:
            out.append(f"[F:{one_line(name)}|{_dead()}]")
        elif health is not None and was[0] is not None and health != was[0]:
            out.append(f"[F:{one_line(name)}|HP{_delta(health - was[0])}|HP {health}]")
    for name, health in after.fighting.items():  # a foe the board shows, with no figure of its own
        was_hp = before.fighting.get(name)
        if name not in after.foes and health is not None and was_hp is not None and health != was_hp:
            out.append(f"[F:{one_line(name)}|HP{_delta(health - was_hp)}|HP {health}]")
    for name in before.fighting:
        if name not in after.fighting and name not in after.foes and not after.lost:
            out.append(f"[F:{one_line(name)}|{_dead()}]")
    return out


def _dead() -> str:
    """A foe slain, as the combat add-on says it (in the session's language)."""
    return pgettext("lonelog", "dead")


def foe_tags(sheet: Sheet, before: Sheet | None = None, new_only: bool = False) -> list[str]:
    """``[F:Name|HP 6]`` for every foe standing when a fight opens (``new_only``: those not in ``before``):
    the game's figures with a health, and the foes its board shows in the fight."""
    out = []
    for name, (health, down) in sheet.foes.items():
        if down or (new_only and before is not None and name in before.foes):
            continue
        out.append(f"[F:{one_line(name)}" + (f"|HP {health}" if health is not None else "") + "]")
    for name, health in sheet.fighting.items():
        if name in sheet.foes or (new_only and before is not None and name in before.fighting):
            continue
        out.append(f"[F:{one_line(name)}" + (f"|HP {health}" if health is not None else "") + "]")
    return out


def dungeon_status(sheet: Sheet, floors: bool = False) -> list[str]:
    """The dungeon add-on's ``[DUNGEON STATUS]`` block: every room as the session left it."""
    if not sheet.rooms:
        return []
    rows = [room_tag(key, status, desc, floors) for key, (status, desc) in sheet.rooms.items()]
    return ["[DUNGEON STATUS]", *rows, "[/DUNGEON STATUS]"]


def resources(sheet: Sheet, hero: str) -> list[str]:
    """The resource add-on's ``[RESOURCES]`` block: the hero's counters, money and items at the end."""
    stats = [
        f"{one_line(label)} {value}/{most}" if most is not None else f"{one_line(label)} {value}"
        for name, (label, value, most) in sheet.counters.items()
        if name not in WEALTH
    ]
    money = [f"{one_line(label.capitalize())} {v}" for name, (label, v, _m) in sheet.counters.items() if name in WEALTH]
    items = [f"[Inv:{one_line(name)}|{n}]" for name, n in sheet.items.items() if n]
    if not (stats or money or items):
        return []
    lines = ["[RESOURCES]"]
    if stats:
        lines.append(f"[PC:{one_line(hero)}|" + "|".join(stats) + "]")
    if money:
        lines.append("[Wealth:" + "|".join(money) + "]")
    return [*lines, *items, "[/RESOURCES]"]
