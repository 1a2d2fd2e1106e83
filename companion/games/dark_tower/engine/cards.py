"""The Dark Tower's guided engine: the card menus, and a new card entered number by number.

Part of the guided engine: see ``engine/__init__.py`` (the loop, and the keys every request is asked under).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.requests import REFRESH, Choice, Number, Option, Text, choice
from companion.games.dark_tower import data
from companion.games.dark_tower.engine.asks import Flow
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules import lookup
from companion.games.dark_tower.rules import setup as rules_setup
from companion.games.dark_tower.rules.lookup import game
from companion.i18n import _

if TYPE_CHECKING:
    from companion.session.state import State


NOTHING = {"-", "—", "none", "no", "нет", "ничего", ""}


def _opt(text: str) -> str:
    """A card's optional text: ``-`` (or nothing) reads as none."""
    return "" if text.strip().lower() in NOTHING else text.strip()


#: Choice values that can never be a card's slug (a slug holds only letters, digits, ``_`` and ``-``).
NEW, NO_QUEST = "+new", "+none"


#: The card menus :func:`pick_card` asks: rebuilt on ``REFRESH`` (``companion dark card`` adds a card).
CARD_MENUS = {f"card.{kind}" for kind in data.CARD_KINDS}


def pick_card(
    state: State,
    kind: str,
    prompt: str,
    *,
    exclude: tuple[str, ...] = (),
    extra: tuple[tuple[str, str], ...] = (),
    info: tuple[str, ...] = (),
    this_floor: bool = False,
) -> Flow:
    """Choose a known card of ``kind`` (or enter a new one); returns its slug, or an ``extra`` value.

    Items a hero holds are not offered (each card is in the game once); with ``this_floor``, only the
    monsters of the heroes' floor are (the text puts each monster in its own floor's pile)."""
    while True:
        g = game(state)
        held = {h.card for hero in g.heroes for h in hero.items} if kind == "item" else set()
        known = {s: c for s, c in C.catalogue(state, kind).items() if s not in exclude and s not in held}
        if this_floor:
            known = {s: c for s, c in known.items() if c.floor == g.floor}  # type: ignore[union-attr]
        items = list(known.items())
        if kind == "monster":  # this floor's monsters first
            items.sort(key=lambda sc: (sc[1].floor != g.floor, sc[1].name.lower()))  # type: ignore[union-attr]
        else:
            items.sort(key=lambda sc: sc[1].name.lower())
        options = [Option(s, C.describe(c, lookup.lang(state))) for s, c in items]
        options += [Option(v, label) for v, label in extra]
        options.append(Option(NEW, _new_card(kind)))
        answer = yield Choice(f"card.{kind}", prompt, tuple(options), info)
        if answer is not REFRESH:
            break
    if answer == NEW:
        return (yield from enter_card(state, kind))
    return answer


def _new_card(kind: str) -> str:
    return {
        "hero": _("A new hero card: enter it (it is kept for your next games)"),
        "monster": _("A new monster card: enter it (it is kept for your next games)"),
        "obstacle": _("A new obstacle card: enter it (it is kept for your next games)"),
        "item": _("A new item card: enter it (it is kept for your next games)"),
    }.get(kind) or _("A new quest card: enter it (it is kept for your next games)")


def _name_prompt(kind: str) -> str:
    return {
        "hero": _("The hero card's name (English or Russian)?"),
        "monster": _("The monster card's name (English or Russian)?"),
        "obstacle": _("The obstacle card's name (English or Russian)?"),
        "item": _("The item card's name (English or Russian)?"),
    }.get(kind) or _("The quest card's name (English or Russian)?")


def enter_card(state: State, kind: str) -> Flow:
    """Ask for a new card's every number, keep it, and return its slug."""
    lang = lookup.lang(state)
    where = _("as printed on the card")
    name = (yield Text(f"card.{kind}.name", _name_prompt(kind))).strip()
    while not C.slug(name):  # a name needs a letter or a digit to be kept under
        name = (yield Text(f"card.{kind}.name", _("A card's name needs a letter or a digit: its name?"))).strip()
    anything = _("{card}: anything else the card says? (- for nothing)").format(card=name)
    known = C.catalogue(state, kind)
    wanted = C.slug(name)
    for card_slug, card in known.items():
        if wanted in (card_slug, C.slug(card.name), C.slug(card.ru)):
            return card_slug  # already known: the catalogue's numbers are used
    card: C.Card
    if kind == "hero":
        health = yield Number(
            "card.hero.health",
            _("{card}: health").format(card=name),
            1,
            99,
            where=_("the number on the right of the card"),
        )
        bonus = []
        for level in range(1, data.MAX_LEVEL + 1):
            bonus.append(
                (
                    yield Number(
                        "card.hero.bonus",
                        _("{card}: combat bonus the card prints for level {n}").format(card=name, n=level),
                        -20,
                        50,
                        where=_("0 if it prints none (spells are entered next)"),
                        default=0,
                    )
                )
            )
        spells: list[C.Spell] = []
        while True:
            listed = "; ".join(C.spell_text(s, lang) for s in spells) or _("none yet")
            more = yield choice(
                "card.hero.spells",
                _("{card}: spells: {spells}").format(card=name, spells=listed),
                ("add", _("Add a spell")),
                ("done", _("No more spells")),
            )
            if more == "done":
                break
            spells.append((yield from enter_spell(state, name)))
        text = _opt((yield Text("data.hero", anything, default="-")))
        card = C.HeroCard(name, health, bonus, spells, text=text)
    elif kind == "monster":
        g = game(state)
        floor = yield Number(
            "card.monster.floor",
            _("{card}: floor").format(card=name),
            1,
            data.FLOORS,
            where=_("the mark top right"),
            default=g.floor,
        )
        strength = yield Number(
            "card.monster.strength", _("{card}: strength").format(card=name), 0, 99, where=_("bottom right")
        )
        props = {"ignores": False, "immune": False, "summons": False, "takes_item": False}
        while True:
            options = [Option(p, ("[x] " if on else "[ ] ") + C.term(p, lang)) for p, on in props.items()] + [
                Option("done", _("Done: these are its properties"))
            ]
            answer = yield Choice(
                "card.monster.props",
                _("{card}: properties (under the picture): pick to switch").format(card=name),
                tuple(options),
            )
            if answer == "done":
                break
            props[answer] = not props[answer]
        text = _opt((yield Text("data.monster", anything, default="-")))
        card = C.MonsterCard(
            name,
            floor,
            strength,
            [data.WEAPON, data.ARMOR] if props["ignores"] else [],
            props["immune"],
            props["summons"],
            props["takes_item"],
            text=text,
        )
    elif kind == "item":
        cls = yield choice(
            "card.item.class",
            _("{card}: class").format(card=name),
            (data.WEAPON, C.term("weapon", lang)),
            (data.ARMOR, C.term("armor", lang)),
            ("none", _("No class")),
            ("other", _("Another class (type it)")),
        )
        if cls == "none":
            cls = ""
        elif cls == "other":
            cls = C.item_class((yield Text("card.item.other", _("{card}: class, as printed").format(card=name))))
        bonus_ = yield Number(
            "card.item.bonus", _("{card}: combat bonus").format(card=name), -20, 50, where=where, default=0
        )
        props = {"extra_die": False, "single": False}
        while True:
            options = [Option(p, ("[x] " if on else "[ ] ") + C.term(p, lang)) for p, on in props.items()] + [
                Option("done", _("Done"))
            ]
            answer = yield Choice("card.item.props", _("{card}: pick to switch").format(card=name), tuple(options))
            if answer == "done":
                break
            props[answer] = not props[answer]
        text = _opt((yield Text("data.item", anything, default="-")))
        card = C.ItemCard(name, cls, bonus_, props["extra_die"], props["single"], text=text)
    elif kind == "obstacle":
        check = yield Number(
            "card.obstacle.check",
            _("{card}: check value").format(card=name),
            0,
            99,
            where=_("on the right of the card"),
        )
        damage = yield Number(
            "card.obstacle.damage", _("{card}: health lost on a fail").format(card=name), 0, 99, default=0
        )
        penalty = yield Number(
            "card.obstacle.penalty",
            _("{card}: penalty in the next fight on a fail").format(card=name),
            0,
            99,
            default=0,
        )
        event = _opt(
            (yield Text("data.obstacle", _("{card}: its event on a fail (- for none)").format(card=name), default="-"))
        )
        card = C.ObstacleCard(name, check, damage, penalty, event)
    else:
        adds = []
        for floor in range(1, data.FLOORS + 1):
            row = []
            for k in data.DECK_KINDS:
                row.append(
                    (yield Number("card.quest.adds", _quest_adds(k).format(card=name, n=floor), 0, 20, default=0))
                )
            adds.append(row)
        goal = _opt(
            (
                yield Text(
                    "data.quest", _("{card}: its goal, as the card says (- for none)").format(card=name), default="-"
                )
            )
        )
        card = C.QuestCard(name, goal, adds)
    rules_setup.validate(card)
    return rules_setup.enter_card(state, kind, card)


def _quest_adds(kind: str) -> str:
    if kind == "monster":
        return _("{card}: monsters it adds to floor {n}")
    if kind == "obstacle":
        return _("{card}: obstacles it adds to floor {n}")
    return _("{card}: items it adds to floor {n}")


def enter_spell(state: State, hero: str) -> Flow:
    name = (yield Text("card.hero.spell", _("{hero}: the spell's name").format(hero=hero))).strip()
    level = yield Number(
        "card.hero.level",
        _("{spell}: learnt at level").format(spell=name),
        1,
        data.MAX_LEVEL,
        where=_("on the left"),
        default=1,
    )
    kind = yield choice(
        "card.hero.kind",
        _("{spell}: permanent, or activated with ★ energy?").format(spell=name),
        ("permanent", _("Permanent (постоянное)")),
        ("activated", _("Activated with ★ energy (активируемое)")),
    )
    bonus = yield Number(
        "card.hero.spell_bonus", _("{spell}: combat bonus it gives").format(spell=name), -20, 50, default=0
    )
    target = yield choice(
        "card.hero.target",
        _("{spell}: to whom?").format(spell=name),
        ("self", _("The hero himself")),
        ("all", _("Every hero (каждому персонажу)")),
    )
    cost = data.DEFAULT_SPELL_COST
    condition = ""
    if kind == "activated":
        cost = yield Number(
            "card.hero.cost",
            _("{spell}: ★ energy it costs").format(spell=name),
            1,
            6,
            default=data.DEFAULT_SPELL_COST,
        )
    else:
        condition = _opt(
            (
                yield Text(
                    "card.hero.condition",
                    _("{spell}: its condition, if any (- if it always acts)").format(spell=name),
                    default="-",
                )
            )
        )
    return C.Spell(name, level, kind, bonus, target, cost, condition)
