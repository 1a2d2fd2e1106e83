"""Guided play of the Dark Tower: the table's turn-by-turn menu, as an engine generator.

The engine asks (Choices, Numbers, Texts, Rolls) and calls :mod:`rules` with the answers; it never
rolls, prints or reads the clock. It reads the game's ``phase`` fresh at the top of every step, so a
one-shot command run between two answers (``companion dark ...``) is simply where the next step
starts; a step that notices the game moved on under it (``game.step`` changed) gives up and lets the
loop start the step the game is in now.

Random picks come from the session's dice through the protocol: ``1dN`` picks one of N cards (a
random starting item, a quest, the next card of a deck when companion draws, the item a monster
takes), and the shell answers it with virtual dice or the number the players rolled or picked.

Request keys (a replay checks them): ``setup.lang``, ``setup.cards``, ``setup.more``, ``setup.player``,
``setup.first``, ``setup.decks``, ``card.<kind>`` (pick a card), ``card.<kind>.<field>`` and
``data.<kind>`` (enter a new card; the ``data.`` answer puts it in the catalogue), ``pick.<what>``
(a 1dN pick), ``turn.card``, ``draw.floor``, ``draw.group``, ``draw.summon``, ``fight.help``, ``fight.use``,
``fight.condition``, ``fight.roll``, ``fight.cast``, ``check.use``, ``check.roll``, ``lose.item``,
``end.menu``, ``end.discard``, ``end.to``, ``trade.*``, ``health.*``.
"""

from __future__ import annotations

import copy
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from companion.dice.expr import Expr, parse
from companion.dice.render import fraction
from companion.engine.requests import REFRESH, Choice, Number, Option, RollRequest, Text, choice
from companion.errors import InputError
from companion.games.dark_tower import cards as C
from companion.games.dark_tower import (
    data,
    lookup,
    odds,
    rules_checks,
    rules_draw,
    rules_fights,
    rules_health,
    rules_items,
    rules_setup,
    rules_turns,
)
from companion.games.dark_tower.lookup import game, t
from companion.games.dark_tower.rules_fights import Plan
from companion.i18n import _, count, ngettext

if TYPE_CHECKING:
    from companion.session.state import State

Flow = Generator[Any, Any, Any]

NOTHING = {"-", "—", "none", "no", "нет", "ничего", ""}


def _opt(text: str) -> str:
    """A card's optional text: ``-`` (or nothing) reads as none."""
    return "" if text.strip().lower() in NOTHING else text.strip()


def pick_expr(n: int) -> Expr:
    """``1dN`` (N ≥ 2): one of N cards, picked with the session's dice (or the number the players picked)."""
    return parse(f"1d{n}")


def pct(p: Any) -> str:
    """``12.5%``; a possible outcome never reads 0.0% (``<0.1%``): the rule every game's odds follow."""
    from fractions import Fraction

    from companion.dice.odds import percent

    return percent(Fraction(p))


# ---- the loop ------------------------------------------------------------------------------------


STEPS = {"setup": "setup", "draw": "draw_step", "obstacle": "check_step", "fight": "fight_step", "end": "end_step"}


def play(state: State) -> Flow:
    while not state.finished:
        step = STEPS.get(game(state).phase)
        if step is None:
            return
        yield from refreshed(state, globals()[step](state))


def refreshed(state: State, flow: Flow) -> Flow:
    """Run one step, answering :data:`REFRESH` (a one-shot command changed the table) for it.

    The fold sends ``REFRESH`` instead of an answer when a one-shot event (``companion dark ...``)
    is folded while a request waits (``GameSpec.refresh``). If the event changed the table (the game's
    state: a card drawn, a trade, a hero's health, a deck count), the step is dropped and the loop asks
    again from the fresh state, so the player's next answer goes to a question built from what is on the
    table now. If it changed only the card catalogue (``companion dark card``), the question keeps its
    place, and a card menu is asked again with the new card in it.
    """
    try:
        request = next(flow)
    except StopIteration as stop:
        return stop.value
    while True:
        table = copy.deepcopy(game(state))
        answer = yield request
        while answer is REFRESH:
            if state.finished or game(state) != table:
                flow.close()
                return None
            if isinstance(request, Choice) and request.key in CARD_MENUS:
                try:
                    request = flow.send(REFRESH)
                except StopIteration as stop:  # pragma: no cover - a card menu always asks again
                    return stop.value
            answer = yield request
        try:
            request = flow.send(answer)
        except StopIteration as stop:
            return stop.value


# ---- cards ---------------------------------------------------------------------------------------


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


def _yes_no(key: str, prompt: str, info: tuple[str, ...] = ()) -> Choice:
    return choice(key, prompt, ("yes", _("Yes")), ("no", _("No")), info=info)


def enter_card(state: State, kind: str) -> Flow:
    """Ask for a new card's every number, keep it, and return its slug."""
    lang = lookup.lang(state)
    where = _("as printed on the card")
    name = (yield Text(f"card.{kind}.name", _name_prompt(kind))).strip()
    while not C.slug(name):  # a name needs a letter or a digit to be kept under
        name = (yield Text(f"card.{kind}.name", _("A card's name needs a letter or a digit: its name?"))).strip()
    anything = _("Anything else {card}'s card says? (- for nothing)").format(card=name)
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
                _("{card}'s spells: {spells}").format(card=name, spells=listed),
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
                _("{card}'s properties (under the picture): pick to switch").format(card=name),
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
            cls = C.item_class((yield Text("card.item.other", _("{card}'s class, as printed").format(card=name))))
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


def random_pick(state: State, what: str, candidates: list[str], why: str) -> Flow:
    """One of ``candidates``, by a ``1dN`` roll (none needed for a single one)."""
    if len(candidates) == 1:
        return candidates[0]
    roll = yield RollRequest(f"pick.{what}", pick_expr(len(candidates)), why)
    return candidates[roll.total - 1]


# ---- setup ---------------------------------------------------------------------------------------


def setup(state: State) -> Flow:
    g = game(state)
    if not g.heroes:
        if state.meta.lang is None:  # a session started with no language chosen asks here (as it always did)
            lang = yield choice(
                "setup.lang",
                _("Show the rules' terms in"),
                ("en", _("English")),
                ("ru", _("Russian, the rule text's own terms (Этаж, Здоровье, ...)")),
            )
            rules_setup.set_lang(state, lang)
        g.cards = yield choice(
            "setup.cards",
            _("Where do the cards come from?"),
            ("table", _("Your own cards: you shuffle and draw, and tell companion what came up")),
            ("companion", _("Companion picks them from your catalogue with the session's dice (1dN)")),
        )
    problem: tuple[str, ...] = ()
    while len(g.heroes) < data.MAX_PLAYERS:
        if g.heroes:
            more = yield choice(
                "setup.more",
                _("{n} at the table: {players}").format(n=len(g.heroes), players=", ".join(h.player for h in g.heroes)),
                ("add", _("Add a player")),
                ("done", _("Everyone is here")),
                info=problem,
            )
            if more == "done":
                break
        player = " ".join((yield Text("setup.player", _("Player {n}'s name").format(n=len(g.heroes) + 1))).split())
        if any(C.slug(h.player) == C.slug(player) for h in g.heroes):
            problem = (_("{player} is already at the table; give another name.").format(player=player),)
            continue
        problem = ()
        hero = yield from pick_card(
            state, "hero", _("{player}'s hero").format(player=player), exclude=tuple(h.card for h in g.heroes)
        )
        if any(h.card == hero for h in g.heroes):
            problem = (_("{hero} is already taken.").format(hero=lookup.name_of(state, "hero", hero)),)
            continue
        rules_setup.add_hero(state, player, hero)
    for i, hero in enumerate(g.heroes):
        if hero.items:
            continue
        item = yield from random_card(state, "item", _("{player}'s random item").format(player=hero.player))
        rules_items.gain_item(state, i, item)
    if not g.quest_chosen:
        quest = yield from random_card(
            state, "quest", _("The random quest"), extra=((NO_QUEST, _("No quest: win by beating every monster")),)
        )
        rules_setup.choose_quest(state, None if quest == NO_QUEST else quest)
    plan = rules_setup.planned_decks(state)
    lang = lookup.lang(state)
    variant = _("fixed monsters (variant)") if data.FIXED_MONSTERS in state.meta.variants else _("monsters per player")
    lines = tuple(
        ngettext("Floor {n}: {cards} = {total} card", "Floor {n}: {cards} = {total} cards", d.total).format(
            n=d.floor, cards=lookup.deck_text(d, lang), total=d.total
        )
        for d in plan
    )
    build = (
        ngettext(
            "Build the three floor decks ({n} player, {variant}, with the quest's cards)",
            "Build the three floor decks ({n} players, {variant}, with the quest's cards)",
            len(g.heroes),
        )
        if g.quest
        else ngettext(
            "Build the three floor decks ({n} player, {variant})",
            "Build the three floor decks ({n} players, {variant})",
            len(g.heroes),
        )
    )
    yield choice(
        "setup.decks",
        build.format(n=len(g.heroes), variant=variant),
        (
            "ready",
            _("The decks are built: {decks}").format(
                decks="; ".join(f"{d.floor}: {d.monsters}/{d.obstacles}/{d.items}" for d in plan)
            ),
        ),
        info=lines,
    )
    first = 0
    if len(g.heroes) > 1:
        answer = yield choice(
            "setup.first",
            _("Who goes first?"),
            *[(str(i), h.player) for i, h in enumerate(g.heroes)],
            ("roll", _("Roll for it ({dice})").format(dice=f"1d{len(g.heroes)}")),
        )
        if answer == "roll":
            roll = yield RollRequest("pick.first", pick_expr(len(g.heroes)), _("who goes first"))
            first = roll.total - 1
        else:
            first = int(answer)
    rules_setup.start(state, first)


def random_card(state: State, kind: str, prompt: str, *, extra: tuple[tuple[str, str], ...] = ()) -> Flow:
    """A random card of ``kind``: the one the players drew, or companion's pick from the catalogue."""
    g = game(state)
    in_play = {h.card for hero in g.heroes for h in hero.items} | {d.split(":", 1)[1] for d in g.drawn}
    if g.cards == "companion":
        candidates = sorted(s for s in C.catalogue(state, kind) if s not in in_play)
        if candidates:
            return (yield from random_pick(state, kind, candidates, prompt))
        info = (
            {
                "item": _("Your catalogue has no item card left to pick from: enter one."),
                "quest": _("Your catalogue has no quest card left to pick from: enter one."),
            }.get(kind)
            or _("Your catalogue has no card of this kind left to pick from: enter one."),
        )
        return (yield from pick_card(state, kind, prompt, extra=extra, info=info))
    return (yield from pick_card(state, kind, _("{what}: which card did you draw?").format(what=prompt), extra=extra))


# ---- a turn: the top card ------------------------------------------------------------------------


def draw_step(state: State) -> Flow:
    g = game(state)
    step = g.step
    deck = g.deck()
    hero = g.current()
    head = _("Turn {n} · {player}: the top card of floor {floor}").format(n=g.turns, player=hero.player, floor=g.floor)
    extra = [("quest", _("The quest is done"))] if g.quest else []
    if deck.left == 0 and g.floor == data.FLOORS:
        rules_turns.settle(state)  # the tower is empty: every monster is beaten
        return
    if deck.left == 0:
        options = [("up", _("Go up to floor {n}").format(n=g.floor + 1))] if g.floor < data.FLOORS else []
        answer = yield choice("turn.card", _("{head}: the deck is empty.").format(head=head), *options, *extra)
        if g.step != step:
            return
        if answer == "up":
            rules_turns.enter_next_floor(state)
        else:
            rules_turns.quest_done(state)
        return
    left = ngettext("{n} left: {cards}", "{n} left: {cards}", deck.left).format(
        n=deck.left, cards=lookup.deck_text(deck, lookup.lang(state))
    )
    if g.cards == "companion":
        answer = yield choice("turn.card", f"{head} ({left})", ("draw", _("Draw it")), *extra)
    else:
        kinds = [
            (
                k,
                ngettext("{kind} ({n} left)", "{kind} ({n} left)", deck.count(k)).format(
                    kind=t(state, k), n=deck.count(k)
                ),
            )
            for k in data.DECK_KINDS
            if deck.count(k)
        ]
        answer = yield choice(
            "turn.card", _("{head}: what is it? ({left})").format(head=head, left=left), *kinds, *extra
        )
    if g.step != step:
        return
    if answer == "quest":
        rules_turns.quest_done(state)
        return
    if answer == "draw":
        roll_pos = 1
        if deck.left > 1:
            roll = yield RollRequest(
                "pick.card", pick_expr(deck.left), _("the top card of floor {n}").format(n=g.floor)
            )
            if g.step != step:
                return
            roll_pos = roll.total
        kind = (
            "monster"
            if roll_pos <= deck.monsters
            else ("obstacle" if roll_pos <= deck.monsters + deck.obstacles else "item")
        )
        card = yield from companion_card(state, kind)
    else:
        kind = answer
        card = yield from pick_card(state, kind, _which(kind), this_floor=kind == "monster")
    if g.step != step:
        return
    any_floor = False
    if kind == "monster" and rules_draw.other_floor(state, card) is not None:  # a new card entered for another floor
        any_floor = yield from confirm_floor(state, card)
        if not any_floor or g.step != step:
            return
    rules_draw.draw(state, kind, card, any_floor=any_floor)
    if kind == "monster":
        yield from summons(state)


def _which(kind: str) -> str:
    if kind == "monster":
        return _("Which monster?")
    if kind == "obstacle":
        return _("Which obstacle?")
    return _("Which item?")


def companion_card(state: State, kind: str) -> Flow:
    """Companion's draw: a card of ``kind`` from the catalogue not drawn yet (floor-matched monsters)."""
    g = game(state)
    drawn = {d.split(":", 1)[1] for d in g.drawn if d.startswith(kind + ":")}
    held = {h.card for hero in g.heroes for h in hero.items}
    candidates = []
    for s, c in sorted(C.catalogue(state, kind).items()):
        if s in drawn or s in held:
            continue
        if kind == "monster" and c.floor != g.floor:  # type: ignore[union-attr]
            continue
        candidates.append(s)
    if candidates:
        why = {"monster": _("which monster it is"), "obstacle": _("which obstacle it is")}.get(kind) or _(
            "which item it is"
        )
        return (yield from random_pick(state, kind, candidates, why))
    if kind == "monster":
        info = _("A monster comes up, and your catalogue has none left for this floor: enter the card.")
        prompt = _("The monster that comes up")
    elif kind == "obstacle":
        info = _("A obstacle comes up, and your catalogue has none left for this floor: enter the card.")
        prompt = _("The obstacle that comes up")
    else:
        info = _("A item comes up, and your catalogue has none left for this floor: enter the card.")
        prompt = _("The item that comes up")
    return (yield from pick_card(state, kind, prompt, info=(info,), this_floor=kind == "monster"))


def confirm_floor(state: State, monster: str) -> Flow:
    """A monster whose card names another floor: the text puts it in that floor's pile. True to take it."""
    card = lookup.monster_card(state, monster)
    name = C.title(card, lookup.lang(state))
    answer = yield _yes_no(
        "draw.floor",
        _("{monster} is a floor {floor} card. Drawn here anyway?").format(monster=name, floor=card.floor),
        info=(
            _("Each monster goes in its own floor's pile; a quest's cards may say otherwise."),
            _("No goes back to the top card."),
        ),
    )
    return answer == "yes"


def summons(state: State) -> Flow:
    """A monster that summons brings others into the fight: the players add them to the group."""
    g = game(state)
    step = g.step
    while any(lookup.monster_card(state, m).summons for m in g.group):
        options = [("fight", _("No more: the group is complete"))]
        if g.deck().monsters:
            options.append(
                (
                    "deck",
                    ngettext(
                        "A monster from this floor's deck ({n} left)",
                        "A monster from this floor's deck ({n} left)",
                        g.deck().monsters,
                    ).format(n=g.deck().monsters),
                )
            )
        options.append(("outside", _("A monster the card names (not from the deck)")))
        answer = yield choice(
            "draw.group",
            _("{monsters}: it summons. Does another monster join the fight?").format(monsters=lookup.group_text(state)),
            *options,
        )
        if g.step != step or answer == "fight":
            return
        from_deck = answer == "deck"
        monster = yield from pick_card(state, "monster", _("Which monster joins?"), this_floor=from_deck)
        if g.step != step:
            return
        any_floor = False
        if from_deck and rules_draw.other_floor(state, monster) is not None:
            any_floor = yield from confirm_floor(state, monster)
            if not any_floor or g.step != step:
                continue
        rules_draw.join_group(state, monster, from_deck=from_deck, any_floor=any_floor)
        step = g.step


# ---- obstacles -----------------------------------------------------------------------------------


def check_step(state: State) -> Flow:
    g = game(state)
    step = g.step
    card = C.get(state, "obstacle", g.obstacle or "")
    assert isinstance(card, C.ObstacleCard)
    hero = g.current()
    use: list[str] = []
    for item in rules_items.single_use(state, g.turn):
        item_text = C.describe(lookup.item_card(state, item), lookup.lang(state))
        if not lookup.item_card(state, item).die:
            continue  # only a die counts in a check: a single-use bonus item is kept for a fight
        answer = yield _yes_no(
            "check.use", _("Use {item} for this check? It is discarded after.").format(item=item_text)
        )
        if g.step != step:
            return
        if answer == "yes":
            use.append(item)
    dice = rules_checks.check_dice(state, use)
    fail = []
    if card.damage:
        fail.append(ngettext("lose {n} health", "lose {n} health", card.damage).format(n=card.damage))
    if card.penalty:
        fail.append(_("−{n} in the next fight").format(n=card.penalty))
    if card.event:
        fail.append(card.event)
    co = odds.check_odds(card.check, dice)
    info = (
        ngettext(
            "{obstacle}: the numbers on {n} die must be more than {check}.",
            "{obstacle}: the numbers on {n} dice must be more than {check}.",
            dice,
        ).format(obstacle=C.title(card, lookup.lang(state)), n=dice, check=card.check),
        _("On a fail: {what}. Each ♥ heals 1 either way.").format(what="; ".join(fail) or _("nothing more")),
        _("Pass {passed} · fail {failed}").format(passed=fraction(co.passed), failed=pct(co.failed)),
    )
    expr = parse(f"{dice}dt>{card.check}")
    roll = yield RollRequest(
        "check.roll", expr, _("{player}: check {n}").format(player=hero.player, n=card.check), info=info
    )
    if g.step != step:
        state.log.text(_("(that roll was overtaken by a one-shot command and is not used)"))
        return
    rules_checks.resolve_check(state, roll, use)


# ---- fights --------------------------------------------------------------------------------------


def odds_lines(state: State, plan: Plan) -> tuple[str, ...]:
    """The fight's exact odds before the roll: win, tie, the damage, and each hero's chance to fall."""
    g = game(state)
    bonus = rules_fights.fight_bonus(state, plan)
    boosts = rules_fights.boosts(state, bonus)
    fo = odds.fight_odds(bonus.total, bonus.strength, bonus.dice, boosts)
    dmg = ", ".join(f"{d}: {pct(p)}" for d, p in fo.damage.items() if d > 0 and p >= 0.0005)
    spells = ", ".join(C.spell_name(c.spell) for c in bonus.castable if c.hero == g.turn)
    lines = [
        ngettext(
            "{n} die {bonus} vs {strength}: beaten when the total is more than {strength}",
            "{n} dice {bonus} vs {strength}: beaten when the total is more than {strength}",
            bonus.dice,
        ).format(n=bonus.dice, bonus=f"{bonus.total:+d}", strength=bonus.strength)
        + (_("; ★ can cast {spells}").format(spells=spells) if boosts else ""),
        _("Win {win} · tie {tie} (not beaten, no damage)").format(win=fraction(fo.win), tie=pct(fo.tie))
        + (_(" · lose {p}").format(p=pct(fo.loss - fo.tie)) if fo.loss > fo.tie else ""),
    ]
    if dmg:
        lines.append(
            _("Damage to each hero in the fight: {damage} (average {mean})").format(
                damage=dmg, mean=f"{float(fo.mean_damage):.2f}"
            )
        )
    for i in rules_fights.participants(state, plan):
        h = g.heroes[i]
        fall = odds.fall_chance(fo, h.health, h.max_health, heals=i == g.turn)
        if fall:
            lines.append(
                _("{player} ({health}/{max}) falls: {p}").format(
                    player=h.player, health=h.health, max=h.max_health, p=pct(fall)
                )
            )
    if bonus.immune:
        lines.append(_("Immune to spells: activated spells do not work on it."))
    if bonus.ignores:
        lines.append(
            _("It ignores the bonuses of: {classes}").format(
                classes=", ".join(C.class_name(c, lookup.lang(state)) for c in bonus.ignores)
            )
        )
    return tuple(lines)


def fight_step(state: State) -> Flow:
    g = game(state)
    step = g.step
    leader = g.current()
    plan = Plan()
    helpers = rules_fights.can_help(state)
    if helpers:
        options = [Option("alone", _("Fight alone"), _win_hint(state, plan))]
        for i in helpers:
            trial = Plan(helper=i)
            options.append(
                Option(str(i), _("Call {player} to help").format(player=g.heroes[i].player), _win_hint(state, trial))
            )
        answer = yield Choice(
            "fight.help",
            _("{player} fights {monsters}. Call another player to help?").format(
                player=leader.player, monsters=lookup.group_text(state)
            ),
            tuple(options),
            odds_lines(state, plan),
        )
        if g.step != step:
            return
        plan.helper = None if answer == "alone" else int(answer)
    bonus = rules_fights.fight_bonus(state, plan)
    for item in rules_items.single_use(state, g.turn, bonus.ignores):
        item_text = C.describe(lookup.item_card(state, item), lookup.lang(state))
        answer = yield _yes_no(
            "fight.use",
            _("Use {item} in this fight? It is discarded after.").format(item=item_text),
            odds_lines(state, plan),
        )
        if g.step != step:
            return
        if answer == "yes":
            plan.use.append(item)
    for who, spell in rules_fights.fight_bonus(state, plan).conditional:
        answer = yield _yes_no(
            "fight.condition",
            _("{player}'s {spell}: does this hold now? {condition}").format(
                player=g.heroes[who].player, spell=C.spell_name(spell), condition=spell.condition
            ),
        )
        if g.step != step:
            return
        if answer == "yes":
            plan.conditions.append(C.slug(spell.name))
    bonus = rules_fights.fight_bonus(state, plan)
    why = _("{player}: fight {monsters}").format(player=leader.player, monsters=lookup.group_text(state))
    roll = yield RollRequest(
        "fight.roll", parse(f"{bonus.dice}dt"), why, bonus.total, tuple(bonus.parts), odds_lines(state, plan)
    )
    if g.step != step:
        state.log.text(_("(that roll was overtaken by a one-shot command and is not used)"))
        return
    bonus = rules_fights.fight_bonus(state, plan)
    gained = roll.stars or 0
    cast: list[tuple[int, str]] = []
    numbers = roll.total - roll.modifier
    while True:
        chosen = rules_fights.castings(state, bonus, cast, gained)
        total = numbers + bonus.total + sum(c.value for c in chosen)
        options = []
        for c in bonus.castable:
            if c in chosen:
                continue
            try:
                rules_fights.castings(state, bonus, [*cast, (c.hero, c.slug)], gained)
            except InputError:
                continue  # not enough energy for it
            after = total + c.value
            options.append(
                Option(
                    f"{c.hero}:{c.slug}",
                    _("{player} casts {spell}: {value} for {cost}★").format(
                        player=g.heroes[c.hero].player,
                        spell=C.spell_name(c.spell),
                        value=f"{c.value:+d}",
                        cost=c.spell.cost,
                    ),
                    _verdict(after, bonus.strength),
                )
            )
        if not options:
            break
        answer = yield Choice(
            "fight.cast",
            _("{verdict}. Spend ★ energy on a spell?").format(verdict=_verdict(total, bonus.strength)),
            (*options, Option("done", _("No (more) spells"))),
        )
        if g.step != step:
            return
        if answer == "done":
            break
        hero_i, _sep, spell_slug = answer.partition(":")
        cast.append((int(hero_i), spell_slug))
    rules_fights.resolve_fight(state, plan, roll, cast)


def _win_hint(state: State, plan: Plan) -> str:
    try:
        bonus = rules_fights.fight_bonus(state, plan)
    except InputError:
        return ""
    fo = odds.fight_odds(bonus.total, bonus.strength, bonus.dice, rules_fights.boosts(state, bonus))
    return _("{bonus}, win {p}").format(bonus=f"{bonus.total:+d}", p=pct(fo.win))


def _verdict(total: int, strength: int) -> str:
    if total > strength:
        return _("{total} beats {strength}").format(total=total, strength=strength)
    return _("{total} does not beat {strength}").format(total=total, strength=strength)


# ---- the end of a turn ---------------------------------------------------------------------------


def end_step(state: State) -> Flow:
    g = game(state)
    step = g.step
    if g.owed:
        who = g.owed[0]
        hero = g.heroes[who]
        names = [lookup.name_of(state, "item", h.card) for h in hero.items]
        if len(hero.items) > 1:
            roll = yield RollRequest(
                "lose.item",
                pick_expr(len(hero.items)),
                _("{player} discards a random item: {items}").format(
                    player=hero.player, items=", ".join(f"{n + 1} {x}" for n, x in enumerate(names))
                ),
            )
            if g.step != step:
                return
            rules_items.lose_item(state, who, roll.total - 1)
        else:
            rules_items.lose_item(state, who, 0)
        return
    extra = rules_items.over_limit(state)
    if extra:
        who, cls, items = extra[0]
        hero = g.heroes[who]
        answer = yield choice(
            "end.discard",
            _("{player} may hold 1 {cls} item: discard which?").format(
                player=hero.player, cls=C.class_name(cls, lookup.lang(state))
            ),
            *[(s, C.describe(lookup.item_card(state, s), lookup.lang(state))) for s in items],
        )
        if g.step != step:
            return
        yield from give_away(state, who, lookup.held_index(state, who, answer))
        return
    leader = g.current()
    nxt = _next_player(state)
    options = [("end", _("End the turn (next: {player})").format(player=nxt))]
    if len(g.living()) > 1 and any(g.heroes[i].items for i in g.living()):
        options.append(("trade", _("Trade or give an item")))
    if any(g.heroes[i].items for i in g.living()):
        options.append(("discard", _("Discard an item")))
    options.append(("health", _("Change a hero's health (a card's own text)")))
    if g.quest:
        options.append(("quest", _("The quest is done")))
    answer = yield choice("end.menu", _("End of {player}'s turn").format(player=leader.player), *options)
    if g.step != step:
        return
    if answer == "end":
        rules_turns.end_turn(state)
    elif answer == "trade":
        yield from trade_flow(state)
    elif answer == "discard":
        who = yield from choose_hero(state, "discard.who", _("Who discards?"), need_items=True)
        if g.step != step:
            return
        index = yield from choose_item(state, "discard.item", who)
        if g.step != step:
            return
        yield from give_away(state, who, index)
    elif answer == "health":
        who = yield from choose_hero(state, "health.who", _("Whose health?"))
        hero = g.heroes[who]
        value = yield Number(
            "health.value",
            _("{player}'s health now").format(player=hero.player),
            0,
            hero.max_health,
            default=hero.health,
        )
        if g.step != step:
            return
        rules_health.change_health(state, who, value=value)
    else:
        rules_turns.quest_done(state)


def _next_player(state: State) -> str:
    g = game(state)
    n = len(g.heroes)
    for k in range(1, n + 1):
        h = g.heroes[(g.turn + k) % n]
        if h.alive:
            return h.player
    return _("nobody")


def choose_hero(state: State, key: str, prompt: str, *, need_items: bool = False, exclude: int | None = None) -> Flow:
    g = game(state)
    options = [
        (
            str(i),
            _("{player} ({items})").format(
                player=g.heroes[i].player, items=count(len(g.heroes[i].items), "{n} item", "{n} items")
            ),
        )
        for i in g.living()
        if i != exclude and (g.heroes[i].items or not need_items)
    ]
    return int((yield choice(key, prompt, *options)))


def choose_item(state: State, key: str, who: int, *, nothing: bool = False) -> Flow:
    g = game(state)
    hero = g.heroes[who]
    options = [
        (
            str(n),
            C.describe(lookup.item_card(state, h.card), lookup.lang(state))
            + (_(" (new: usable next turn)") if h.fresh else ""),
        )
        for n, h in enumerate(hero.items)
    ]
    if nothing:
        options.append(("none", _("Nothing in return")))
    answer = yield choice(key, _("{player}'s item").format(player=hero.player), *options)
    return None if answer == "none" else int(answer)


def give_away(state: State, who: int, index: int) -> Flow:
    """A discarded item: to the discard pile, or picked up by another player (the discarder decides)."""
    g = game(state)
    step = g.step
    others = [i for i in g.living() if i != who]
    to = None
    if others:
        answer = yield choice(
            "end.to",
            _("Does another player pick it up? (the one who discards decides)"),
            ("pile", _("No: to the discard pile")),
            *[(str(i), _("{player} picks it up").format(player=g.heroes[i].player)) for i in others],
        )
        if g.step != step:
            return
        to = None if answer == "pile" else int(answer)
    rules_items.discard(state, who, index, to)


def trade_flow(state: State) -> Flow:
    g = game(state)
    step = g.step
    a = yield from choose_hero(state, "trade.from", _("Who gives an item?"), need_items=True)
    item_a = yield from choose_item(state, "trade.give", a)
    b = yield from choose_hero(state, "trade.to", _("To whom?"), exclude=a)
    item_b = None
    if g.heroes[b].items:
        item_b = yield from choose_item(state, "trade.back", b, nothing=True)
    if g.step != step:
        return
    rules_items.trade(state, a, item_a, b, item_b)
