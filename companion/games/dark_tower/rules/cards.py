"""Cards: what each kind holds, how it is kept in the catalogue, found by name, and described.

The rule text prints no card lists, so a card is entered by the player the first time it is drawn
and kept in their catalogue (``companion/session/catalogue.py``) under ``cards.<kind>.<slug>``: one
key per card, so ``companion gamedata dark-tower --unset cards.monster.<slug>`` forgets one card.
A session keeps its own copy in ``state.data``; the rule text's two example cards are always known.

Names match in English or Russian, ignoring case, ``ё``/``е`` and punctuation.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from companion import i18n
from companion.errors import InputError
from companion.games.dark_tower import data

if TYPE_CHECKING:
    from companion.session.state import State


def slug(name: str) -> str:
    """The catalogue key of a name: lower case, ``ё`` as ``е``, runs of other characters as ``-``."""
    text = name.strip().lower().replace("ё", "е")
    return re.sub(r"[^\w]+", "-", text, flags=re.UNICODE).strip("-_")


@dataclass
class Spell:
    """A hero's spell, unlocked at ``level``. Permanent spells always count (when their condition
    holds); activated spells cost ``cost`` ★ energy each time."""

    name: str
    level: int = 1
    kind: str = "permanent"  # "permanent" or "activated"
    bonus: int = 0
    target: str = "self"  # "self", or "all": every hero ("каждому персонажу")
    cost: int = data.DEFAULT_SPELL_COST
    condition: str = ""
    ru: str = ""
    text: str = ""

    @property
    def activated(self) -> bool:
        return self.kind == "activated"


@dataclass
class HeroCard:
    name: str
    health: int
    #: The combat bonus the card prints for levels 1, 2 and 3 (0 where it prints none).
    bonus: list[int] = field(default_factory=lambda: [0, 0, 0])
    spells: list[Spell] = field(default_factory=list)
    ru: str = ""
    text: str = ""


@dataclass
class MonsterCard:
    name: str
    floor: int
    strength: int
    #: Item classes whose bonuses do not count against it ("Игнорирует бонус от брони/оружия").
    ignores: list[str] = field(default_factory=list)
    immune: bool = False
    summons: bool = False
    #: When it wins, the hero it fought discards a random item (the Gelatinous Cube).
    takes_item: bool = False
    ru: str = ""
    text: str = ""


@dataclass
class ItemCard:
    name: str
    cls: str = ""  # "" for an item with no class (no limit)
    bonus: int = 0
    die: bool = False  # "+1 кубик": one more die in every roll of its owner
    single: bool = False  # "Разовый": used once in the owner's turn, then discarded
    ru: str = ""
    text: str = ""


@dataclass
class ObstacleCard:
    name: str
    check: int
    damage: int = 0  # health lost on a failed check
    penalty: int = 0  # taken off the combat bonus in the hero's next fight
    event: str = ""  # an event the players follow from the card
    ru: str = ""
    text: str = ""


@dataclass
class QuestCard:
    name: str
    goal: str = ""
    #: Cards the quest adds to each floor's deck: adds[floor - 1] = [monsters, obstacles, items].
    adds: list[list[int]] = field(default_factory=lambda: [[0, 0, 0], [0, 0, 0], [0, 0, 0]])
    ru: str = ""
    text: str = ""


Card = HeroCard | MonsterCard | ItemCard | ObstacleCard | QuestCard
TYPES: dict[str, type] = {
    "hero": HeroCard,
    "monster": MonsterCard,
    "obstacle": ObstacleCard,
    "item": ItemCard,
    "quest": QuestCard,
}


def key(kind: str, card_slug: str) -> str:
    return f"cards.{kind}.{card_slug}"


def to_json(card: Card) -> dict[str, Any]:
    """The catalogue form of a card: its fields, empty ones left out."""
    out: dict[str, Any] = {}
    for name, value in asdict(card).items():
        if (value is None or value is False or value == "" or value == []) and name != "name":
            continue
        if name == "spells":
            value = [{k: v for k, v in s.items() if v not in ("", None, [])} for s in value]
        out[name] = value
    return out


def from_json(kind: str, raw: dict[str, Any]) -> Card:
    """A card from its catalogue form; a hand-edited catalogue with a bad card fails in one line."""
    try:
        values = dict(raw)
        if kind == "hero":
            values["spells"] = [Spell(**s) for s in values.get("spells", [])]
        return TYPES[kind](**values)
    except (TypeError, KeyError) as exc:
        raise InputError(
            i18n._("the card {name!r} in your game data cannot be read ({error})").format(
                name=raw.get("name", "?"), error=exc
            )
        ) from None


def known(values: dict[str, Any], kind: str) -> dict[str, Card]:
    """Every card of ``kind`` in ``values`` (game data), after the rule text's examples."""
    found: dict[str, Card] = {}
    for card_slug, raw in data.BUILTIN[kind].items():
        found[card_slug] = from_json(kind, raw)
    prefix = f"cards.{kind}."
    for k, raw in values.items():
        if k.startswith(prefix) and isinstance(raw, dict):
            found[k[len(prefix) :]] = from_json(kind, raw)
    return found


def slug_for(values: dict[str, Any], kind: str, card: Card) -> str:
    """The key a card is kept under: a known card's, when the name (or the Russian name) matches one.

    Entering "Желатиновый Куб" again corrects the Gelatinous Cube rather than adding a twin.
    """
    names = {slug(card.name), slug(card.ru)} - {""}
    for card_slug, other in known(values, kind).items():
        if names & ({card_slug, slug(other.name), slug(other.ru)} - {""}):
            return card_slug
    return slug(card.name)


def catalogue(state: State, kind: str) -> dict[str, Card]:
    """Every card of ``kind`` this session knows: the rule text's examples, then the player's own."""
    return known(state.data, kind)


def get(state: State, kind: str, card_slug: str) -> Card:
    cards = catalogue(state, kind)
    if card_slug not in cards:
        raise InputError(
            i18n._("no card {name!r} is known; enter it first (companion dark card {kind} ...)").format(
                name=card_slug, kind=kind
            )
        )
    return cards[card_slug]


def kind_of(text: str) -> str:
    """A kind of card from what a player typed, English or Russian."""
    k = data.KIND_WORDS.get(text.strip().lower().replace("ё", "е"))
    if k is None:
        raise InputError(
            i18n._(
                "{text!r} is not a kind of card; use monster, obstacle, item, hero or quest (or монстр, ...)"
            ).format(text=text)
        )
    return k


def find(state: State, kind: str, text: str) -> str:
    """The slug of the card of ``kind`` named ``text`` (English or Russian name, or a unique start of one)."""
    cards = catalogue(state, kind)
    wanted = slug(text)
    if not wanted:
        raise InputError(i18n._("a card needs a name"))
    for card_slug, card in cards.items():
        if wanted in (card_slug, slug(card.name), slug(card.ru)):
            return card_slug
    starts = [s for s, c in cards.items() if any(n.startswith(wanted) for n in (s, slug(c.name), slug(c.ru)) if n)]
    if len(starts) == 1:
        return starts[0]
    known = ", ".join(title(c) for c in cards.values()) or i18n._("none yet")
    if len(starts) > 1:
        raise InputError(
            i18n._("{text!r} could be several cards: {cards}").format(
                text=text, cards=", ".join(title(cards[s]) for s in starts)
            )
        )
    raise InputError(
        i18n._(
            "no {kind} card named {text!r}; known: {known} (enter a new one with companion dark card {command})"
        ).format(kind=term(kind).lower(), text=text, known=known, command=term(kind).lower())
    )


# ---- words a player types ------------------------------------------------------------------------


def item_class(text: str) -> str:
    """An item class: weapon/оружие, armor/броня, none, or any other class as typed (lower case)."""
    t = text.strip().lower().replace("ё", "е")
    return data.CLASS_WORDS.get(t, t)


def properties(text: str) -> set[str]:
    """Card properties from a list a player typed: ``immune, summons`` or ``иммунитет, призывает``.

    A property may be typed as the start of the rule text's own words (``Игнорирует бонус от
    брони/оружия`` reads as ``ignores``).
    """
    found = set()
    for part in re.split(r"[,;]", text):
        t = part.strip().lower().replace("ё", "е")
        if not t:
            continue
        word = data.PROPERTY_WORDS.get(t) or data.PROPERTY_WORDS.get(t.split()[0])
        if word is None:
            raise InputError(
                i18n._(
                    "{text!r} is not a card property; use ignores, immune, summons, takes-item, die, single "
                    "(игнорирует, иммунитет, призывает, разовый, ...)"
                ).format(text=part.strip())
            )
        found.add(word)
    return found


def spell_kind(text: str) -> str:
    k = data.SPELL_KIND_WORDS.get(text.strip().lower())
    if k is None:
        raise InputError(
            i18n._("{text!r} is not a kind of spell; use permanent or activated (постоянное, активируемое)").format(
                text=text
            )
        )
    return k


def spell_target(text: str) -> str:
    t = data.TARGET_WORDS.get(text.strip().lower())
    if t is None:
        raise InputError(i18n._("{text!r} is not a spell target; use self or all (себе, каждому)").format(text=text))
    return t


# ---- how a card reads ----------------------------------------------------------------------------


def words(lang: str | None = None):
    """The game's words in ``lang`` (the language shown now when None)."""
    return i18n.translator(lang or i18n.language(), "dark-tower")


def term(name: str, lang: str | None = None) -> str:
    """A term of the rules (``data.TERMS``) in ``lang``: Этаж, Здоровье, Разовый, ..."""
    return words(lang).gettext(data.TERMS[name])


def title(card: Card, lang: str | None = None) -> str:
    """The card's name: its Russian name in a Russian game when it has one (both names are kept)."""
    return card.ru if (lang or i18n.language()) == "ru" and card.ru else card.name


def class_name(cls: str, lang: str | None = None) -> str:
    if cls in (data.WEAPON, data.ARMOR):
        return term(cls, lang)
    return cls or words(lang).gettext("no class")


def _signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−")


def spell_name(spell: Spell, lang: str | None = None) -> str:
    return spell.ru if (lang or i18n.language()) == "ru" and spell.ru else spell.name


def spell_text(spell: Spell, lang: str | None = None) -> str:
    w = words(lang)
    name = spell_name(spell, lang)
    kind = term(spell.kind, lang)
    parts = [w.gettext("{spell} (level {n}, {kind}").format(spell=name, n=spell.level, kind=kind)]
    if spell.bonus:
        parts.append(f", {_signed(spell.bonus)} {term('self' if spell.target == 'self' else 'all', lang)}")
    if spell.activated:
        parts.append(f", {spell.cost}★")
    if spell.condition:
        parts.append(w.gettext("; when: {condition}").format(condition=spell.condition))
    return "".join(parts) + ")"


def describe(card: Card, lang: str | None = None) -> str:
    """One line: the card's name and every number and property it has."""
    w = words(lang)
    name = title(card, lang)
    if isinstance(card, HeroCard):
        bonus = "" if not any(card.bonus) else f", {term('bonus', lang)} " + "/".join(_signed(b) for b in card.bonus)
        spells = "; ".join(spell_text(s, lang) for s in card.spells)
        return f"{name}: {term('health', lang)} {card.health}{bonus}" + (f"; {spells}" if spells else "")
    if isinstance(card, MonsterCard):
        props = monster_props(card, lang)
        line = w.gettext("{name}: Floor {floor}, Strength {strength}").format(
            name=name, floor=card.floor, strength=card.strength
        )
        return line + (f"; {', '.join(props)}" if props else "")
    if isinstance(card, ItemCard):
        bits = [class_name(card.cls, lang)]
        if card.bonus:
            bits.append(_signed(card.bonus))
        if card.die:
            bits.append(term("extra_die", lang))
        if card.single:
            bits.append(term("single", lang))
        return f"{name} ({', '.join(bits)})"
    if isinstance(card, ObstacleCard):
        bits = []
        if card.damage:
            bits.append(w.gettext("−{n} health").format(n=card.damage))
        if card.penalty:
            bits.append(w.gettext("−{n} penalty").format(n=card.penalty))
        if card.event:
            bits.append(card.event)
        fail = w.gettext("; on a fail: ") + ", ".join(bits) if bits else ""
        return f"{name}: {term('check', lang)} {card.check}{fail}"
    adds = "; ".join(
        w.gettext("Floor {n}").format(n=f + 1)
        + ": "
        + ", ".join(_added(w, k, n) for n, k in zip(a, data.DECK_KINDS, strict=True) if n)
        for f, a in enumerate(card.adds)
        if any(a)
    )
    return (
        f"{name}"
        + (f": {card.goal}" if card.goal else "")
        + (w.gettext(" (adds {cards})").format(cards=adds) if adds else "")
    )


def _added(w: Any, kind: str, n: int) -> str:
    """A quest's cards added to a deck: "2 monsters"."""
    if kind == "monster":
        return w.ngettext("{n} monster", "{n} monsters", n).format(n=n)
    if kind == "obstacle":
        return w.ngettext("{n} obstacle", "{n} obstacles", n).format(n=n)
    return w.ngettext("{n} item", "{n} items", n).format(n=n)


def monster_props(card: MonsterCard, lang: str | None = None) -> list[str]:
    props = []
    if card.ignores:
        if set(card.ignores) >= {data.WEAPON, data.ARMOR}:
            props.append(term("ignores", lang))
        else:
            classes = "/".join(class_name(c, lang) for c in card.ignores)
            props.append(words(lang).gettext("Ignores bonuses of: ") + classes)
    if card.immune:
        props.append(term("immune", lang))
    if card.summons:
        props.append(term("summons", lang))
    if card.takes_item:
        props.append(term("takes_item", lang))
    return props
