"""The Dark Tower's rules on a session state: setup, drawing, checks, fights, help, levels, items.

One implementation for both ways of playing: the guided engine (``engine.py``) calls these functions
while it folds its answers, and the one-shot commands (``cli.py``) record ``dark`` events whose
reducer (``reduce``) calls the same functions. Plain Python on the state: no I/O, no dice (a roll
comes in as a :class:`companion.dice.roll.Roll`), no clock. Bad input raises
:class:`companion.errors.InputError` before anything changes.

Every reading of the Russian text these functions encode is in ``docs/rules/dark-tower.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.errors import InputError
from companion.games.dark_tower import cards as C
from companion.games.dark_tower import data
from companion.games.dark_tower.decks import FloorDeck, deck_counts
from companion.games.dark_tower.model import DarkTower, Deck, Held, Hero
from companion.i18n import _, count, ngettext

if TYPE_CHECKING:
    from companion.dice.roll import Roll
    from companion.session.state import State


# ---- small helpers -------------------------------------------------------------------------------


def game(state: State) -> DarkTower:
    g = state.game
    if not isinstance(g, DarkTower):
        raise InputError(_("this session is not a Dark Tower game; start one with: companion new dark-tower"))
    return g


def lang(state: State) -> str:
    return game(state).lang


def t(state: State, term: str) -> str:
    return C.term(term, lang(state))


def name_of(state: State, kind: str, card_slug: str) -> str:
    return C.title(C.get(state, kind, card_slug), lang(state))


def hero_card(state: State, hero: Hero) -> C.HeroCard:
    card = C.get(state, "hero", hero.card)
    assert isinstance(card, C.HeroCard)
    return card


def item_card(state: State, item: str) -> C.ItemCard:
    card = C.get(state, "item", item)
    assert isinstance(card, C.ItemCard)
    return card


def monster_card(state: State, monster: str) -> C.MonsterCard:
    card = C.get(state, "monster", monster)
    assert isinstance(card, C.MonsterCard)
    return card


def hero_index(state: State, text: str) -> int:
    """A hero by its player's name, its hero card's name, or its place at the table (1-4)."""
    g = game(state)
    t_ = text.strip()
    if t_.isdigit() and 1 <= int(t_) <= len(g.heroes):
        return int(t_) - 1
    wanted = C.slug(t_)
    for i, h in enumerate(g.heroes):
        card = C.get(state, "hero", h.card)
        if wanted in (C.slug(h.player), h.card, C.slug(card.name), C.slug(card.ru)):
            return i
    players = ", ".join(h.player for h in g.heroes) or _("none yet")
    raise InputError(
        _("no player or hero {text!r} at the table; players: {players}").format(text=text, players=players)
    )


def held_index(state: State, who: int, text: str) -> int:
    """The place of an item in a hero's hand, by name (English or Russian) or by its number (1-based)."""
    hero = game(state).heroes[who]
    t_ = text.strip()
    if t_.isdigit() and 1 <= int(t_) <= len(hero.items):
        return int(t_) - 1
    wanted = C.slug(t_)
    for i, held in enumerate(hero.items):
        card = item_card(state, held.card)
        if wanted in (held.card, C.slug(card.name), C.slug(card.ru)):
            return i
    have = ", ".join(name_of(state, "item", h.card) for h in hero.items) or _("no items")
    raise InputError(_("{player} holds no {text!r} (holds: {have})").format(player=hero.player, text=text, have=have))


def _phase(state: State, *phases: str, doing: str) -> DarkTower:
    """``doing`` is already in the words shown (``_("add a player")``)."""
    g = game(state)
    if g.phase not in phases:
        raise InputError(_("cannot {doing} now: {waiting}").format(doing=doing, waiting=waiting_for(state)))
    return g


def waiting_for(state: State) -> str:
    """What the game waits for, in words (for error lines and the screen)."""
    g = game(state)
    if state.finished or g.phase == "over":
        return _("the game is over ({result})").format(result=t(state, state.finished or "over"))
    if g.phase == "setup":
        return _("the game is being set up (add players, a quest, then start)")
    who = g.current().player
    if g.phase == "draw":
        return _("{player} draws the top card of floor {floor}").format(player=who, floor=g.floor)
    if g.phase == "obstacle":
        return _("{player} rolls the check of {obstacle}").format(
            player=who, obstacle=name_of(state, "obstacle", g.obstacle or "")
        )
    if g.phase == "fight":
        return _("{player} fights {monsters}").format(player=who, monsters=group_text(state))
    if g.owed:
        return _("{player} discards a random item").format(player=g.heroes[g.owed[0]].player)
    return _("{player} ends the turn (trades and discards first)").format(player=who)


def group_text(state: State) -> str:
    g = game(state)
    names = [f"{name_of(state, 'monster', m)} ({monster_card(state, m).strength})" for m in g.group]
    return " + ".join(names) if names else _("nothing")


def _bump(g: DarkTower, phase: str) -> None:
    g.phase = phase
    g.step += 1


# ---- cards ---------------------------------------------------------------------------------------


def enter_card(state: State, kind: str, card: C.Card, card_slug: str | None = None) -> str:
    """Keep a card in the session's data (the CLI and the engine's ``data.`` answers put it in the catalogue)."""
    card_slug = card_slug or C.slug_for(state.data, kind, card)
    if not card_slug:
        raise InputError(_("a card needs a name"))
    state.data[C.key(kind, card_slug)] = C.to_json(card)
    state.log.text(_("Card entered: {kind} {card}.").format(kind=t(state, kind), card=C.describe(card, lang(state))))
    return card_slug


def validate(card: C.Card) -> None:
    """Refuse numbers a card cannot print (one line each)."""
    if isinstance(card, C.HeroCard):
        if card.health < 1:
            raise InputError(_("a hero's health is at least 1"))
        if len(card.bonus) != data.MAX_LEVEL:
            raise InputError(_("a hero has a combat bonus for each of the {n} levels").format(n=data.MAX_LEVEL))
        for s in card.spells:
            if not 1 <= s.level <= data.MAX_LEVEL:
                raise InputError(_("spell {name!r}: the level is 1 to {n}").format(name=s.name, n=data.MAX_LEVEL))
            if s.activated and s.cost < 1:
                raise InputError(_("spell {name!r}: an activated spell costs at least 1 ★").format(name=s.name))
    elif isinstance(card, C.MonsterCard):
        if not 1 <= card.floor <= data.FLOORS:
            raise InputError(_("a monster lives on floor 1 to {n}").format(n=data.FLOORS))
        if card.strength < 0:
            raise InputError(_("a monster's strength is 0 or more"))
    elif isinstance(card, C.ObstacleCard):
        if card.check < 0 or card.damage < 0 or card.penalty < 0:
            raise InputError(_("an obstacle's check, health loss and penalty are 0 or more"))
    elif isinstance(card, C.QuestCard) and (
        len(card.adds) != data.FLOORS or any(len(a) != 3 or min(a) < 0 for a in card.adds)
    ):
        raise InputError(_("a quest adds 0 or more monsters, obstacles and items to each of the 3 floors"))


# ---- setup ---------------------------------------------------------------------------------------


def add_hero(state: State, player: str, hero: str) -> Hero:
    g = _phase(state, "setup", doing=_("add a player"))
    player = " ".join(player.split())
    if not player:
        raise InputError(_("a player needs a name"))
    if len(g.heroes) >= data.MAX_PLAYERS:
        raise InputError(_("the Dark Tower is for at most {n} players").format(n=data.MAX_PLAYERS))
    if any(C.slug(h.player) == C.slug(player) for h in g.heroes):
        raise InputError(_("{player} is already at the table").format(player=player))
    if any(h.card == hero for h in g.heroes):
        raise InputError(
            _("{hero} is already taken; each player picks a different hero").format(hero=name_of(state, "hero", hero))
        )
    card = C.get(state, "hero", hero)
    assert isinstance(card, C.HeroCard)
    h = Hero(player=player, card=hero, health=card.health, max_health=card.health)
    g.heroes.append(h)
    state.log.text(_("{player} plays {card}.").format(player=player, card=C.describe(card, lang(state))), under=False)
    return h


def gain_item(state: State, who: int, item: str, *, fresh: bool = False, how: str = "takes") -> None:
    g = game(state)
    hero = g.heroes[who]
    card = item_card(state, item)
    hero.items.append(Held(item, fresh))
    later = _(" (usable from their next turn)") if fresh else ""
    text = C.describe(card, lang(state))
    if how == "takes":
        line = _("{player} takes {item}{later}.")
    elif how == "gets":
        line = _("{player} gets {item}{later}.")
    else:  # a word a saved event kept as it was typed
        line = "{player} " + how + " {item}{later}."
    state.log.text(line.format(player=hero.player, item=text, later=later))


def choose_quest(state: State, quest: str | None) -> None:
    g = _phase(state, "setup", doing=_("choose the quest"))
    if quest is not None:
        card = C.get(state, "quest", quest)
        state.log.text(f"{t(state, 'quest')}: {C.describe(card, lang(state))}.", under=False)
    else:
        state.log.text(_("No quest: the heroes win by beating every monster in the tower."), under=False)
    g.quest = quest
    g.quest_chosen = True


def planned_decks(state: State) -> list[FloorDeck]:
    """The three decks the recipe gives for this table (its players, variant and quest)."""
    g = game(state)
    adds = None
    if g.quest is not None:
        q = C.get(state, "quest", g.quest)
        assert isinstance(q, C.QuestCard)
        adds = q.adds
    fixed = data.FIXED_MONSTERS in state.meta.variants
    return deck_counts(max(1, len(g.heroes)), fixed_monsters=fixed, quest=adds)


def deck_text(deck: Deck | FloorDeck, lang_: str = "en") -> str:
    m, o, i = deck.monsters, deck.obstacles, deck.items
    return ", ".join(
        (
            count(m, "{n} monster", "{n} monsters"),
            count(o, "{n} obstacle", "{n} obstacles"),
            count(i, "{n} item", "{n} items"),
        )
    )


def start(state: State, first: int) -> None:
    """Build the decks, put every hero on floor 1 at level 1, and give ``first`` the first turn."""
    g = _phase(state, "setup", doing=_("start"))
    if not g.heroes:
        raise InputError(_("add at least one player first (companion dark join PLAYER HERO)"))
    if not g.quest_chosen:
        raise InputError(_("choose the quest first (companion dark quest NAME, or --none)"))
    if not 0 <= first < len(g.heroes):
        raise InputError(_("player {n} is not at the table").format(n=first + 1))
    g.decks = [Deck(d.floor, d.monsters, d.obstacles, d.items) for d in planned_decks(state)]
    g.floor = 1
    for h in g.heroes:
        h.level = 1
    g.turn = first
    _floor_heading(state)
    _begin_turn(state)


def _floor_heading(state: State) -> None:
    g = game(state)
    state.log.heading(_("Floor {n}").format(n=g.floor))
    state.log.text(_("Deck: {cards}.").format(cards=deck_text(g.deck(), lang(state))), under=False)


def _begin_turn(state: State) -> None:
    g = game(state)
    g.turns += 1
    hero = g.current()
    for held in hero.items:
        held.fresh = False  # traded items are usable from their new owner's next turn
    state.log.line(f"turn-{g.turns}", _("Turn {n} · {player}").format(n=g.turns, player=hero.player))
    _bump(g, "fight" if g.group else "draw")
    if g.group:
        state.log.text(
            _("{player} must fight {monsters} first.").format(player=hero.player, monsters=group_text(state))
        )


# ---- drawing -------------------------------------------------------------------------------------


def other_floor(state: State, monster: str) -> int | None:
    """The floor ``monster``'s card names when it is not this one (its card goes in that floor's pile)."""
    card = monster_card(state, monster)
    floor = game(state).floor
    return card.floor if card.floor and card.floor != floor else None


def _own_floor(state: State, monster: str, any_floor: bool, command: str) -> None:
    """Refuse a monster from another floor's pile unless the players confirm it (``any_floor``)."""
    floor = other_floor(state, monster)
    if floor is not None and not any_floor:
        card = monster_card(state, monster)
        raise InputError(
            _("{monster} lives on floor {floor}: its card goes in floor {floor}'s pile, not floor {here}'s").format(
                monster=C.title(card, lang(state)), floor=floor, here=game(state).floor
            ),
            hint=_("if it really came up here (a quest may add it), confirm with: {command} --any-floor").format(
                command=command
            ),
        )


def draw(state: State, kind: str, card_slug: str, *, any_floor: bool = False) -> None:
    """The current player drew the top card of the floor: a monster, an obstacle or an item.

    A monster whose card names another floor is refused unless ``any_floor`` confirms it: the text puts
    each monster in its own floor's pile (a quest's own cards may say otherwise)."""
    g = _phase(state, "draw", doing=_("draw a card"))
    deck = g.deck()
    if deck.count(kind) < 1:
        raise InputError(
            _(
                "the floor {floor} deck has no {kind} left by the count ({cards}); "
                "fix the count with companion dark deck if your deck differs"
            ).format(floor=g.floor, kind=t(state, kind).lower(), cards=deck_text(deck))
        )
    if kind == "monster":
        _own_floor(state, card_slug, any_floor, "companion dark draw monster NAME")
    card = C.get(state, kind, card_slug)
    deck.take(kind)
    g.drawn.append(f"{kind}:{card_slug}")
    hero = g.current()
    label = _("Turn {n} · {player}: {kind} {card}").format(
        n=g.turns, player=hero.player, kind=t(state, kind), card=C.title(card, lang(state))
    )
    state.log.line(f"turn-{g.turns}", label)
    if card.text:
        state.log.text(card.text)
    if kind == "item":
        gain_item(state, g.turn, card_slug)
        _bump(g, "end")
        settle(state)  # the last card of the tower may be an item
    elif kind == "obstacle":
        g.obstacle = card_slug
        _bump(g, "obstacle")
    else:
        g.group = [card_slug]
        _bump(g, "fight")
        props = C.monster_props(card, lang(state))  # type: ignore[arg-type]
        if props:
            state.log.text(f"{C.title(card, lang(state))}: " + ", ".join(p.lower() for p in props) + ".")


def join_group(state: State, monster: str, *, from_deck: bool, any_floor: bool = False) -> None:
    """Another monster joins the group on the table (one that summons, or a card that says so).

    One from this floor's deck must be a monster of this floor, unless ``any_floor`` confirms it."""
    g = _phase(state, "fight", doing=_("add a monster to the group"))
    card = monster_card(state, monster)
    if from_deck:
        _own_floor(state, monster, any_floor, "companion dark group NAME --from-deck")
        deck = g.deck()
        if deck.monsters < 1:
            raise InputError(_("the floor {floor} deck has no monster left by the count").format(floor=g.floor))
        deck.take("monster")
        g.drawn.append(f"monster:{monster}")
    g.group.append(monster)
    g.step += 1
    line = (
        _("{monster} ({strength}) joins the group from the deck: {group}.")
        if from_deck
        else _("{monster} ({strength}) joins the group from outside the deck: {group}.")
    )
    state.log.text(line.format(monster=C.title(card, lang(state)), strength=card.strength, group=group_text(state)))


# ---- obstacle checks -----------------------------------------------------------------------------


def _usable(state: State, who: int, ignores: frozenset[str] = frozenset()) -> list[tuple[Held, C.ItemCard]]:
    """The items a hero can use now: not fresh from a trade, and not of a class the monster ignores."""
    hero = game(state).heroes[who]
    out = []
    for held in hero.items:
        if held.fresh:
            continue
        card = item_card(state, held.card)
        if card.cls and card.cls in ignores:
            continue
        out.append((held, card))
    return out


def single_use(state: State, who: int, ignores: frozenset[str] = frozenset()) -> list[str]:
    """The single-use items a hero may choose to use in this roll (slugs)."""
    return [held.card for held, card in _usable(state, who, ignores) if card.single]


def _check_use(state: State, who: int, use: list[str], ignores: frozenset[str] = frozenset()) -> None:
    allowed = single_use(state, who, ignores)
    for item in use:
        if item not in allowed:
            raise InputError(
                _("{item} is not a single-use item {player} can use now").format(
                    item=name_of(state, "item", item), player=game(state).heroes[who].player
                )
            )


def extra_dice(state: State, who: int, use: list[str], ignores: frozenset[str] = frozenset()) -> list[str]:
    """The "+1 кубик" items that add a die to this hero's roll (single-use ones only when used)."""
    return [
        held.card for held, card in _usable(state, who, ignores) if card.die and (not card.single or held.card in use)
    ]


def check_dice(state: State, use: list[str]) -> int:
    g = game(state)
    return data.CHECK_DICE + len(extra_dice(state, g.turn, use))


@dataclass
class CheckResult:
    obstacle: str
    check: int
    total: int
    passed: bool
    healed: int
    damage: int
    penalty: int
    event: str


def resolve_check(state: State, roll: Roll, use: list[str]) -> CheckResult:
    """The obstacle check: the numbers more than the check value pass; each ♥ heals 1; a fail applies the card."""
    g = _phase(state, "obstacle", doing=_("roll an obstacle check"))
    _check_use(state, g.turn, use)
    dice = check_dice(state, use)
    if roll.faces is None or len(roll.faces) != dice or not roll.expr.has_dt:
        raise InputError(
            ngettext("this check rolls {n} Dark Tower die", "this check rolls {n} Dark Tower dice", dice).format(n=dice)
        )
    card = C.get(state, "obstacle", g.obstacle or "")
    assert isinstance(card, C.ObstacleCard)
    hero = g.current()
    numbers = roll.total - roll.modifier
    passed = numbers > card.check
    healed = heal(state, g.turn, (roll.hearts or 0) * data.HEAL_PER_HEART)
    result = CheckResult(g.obstacle or "", card.check, numbers, passed, healed, 0, 0, "")
    name = C.title(card, lang(state))
    if passed:
        state.log.text(
            _("{total} is more than {check}: {player} gets past {obstacle}.").format(
                total=numbers, check=card.check, player=hero.player, obstacle=name
            )
        )
    else:
        state.log.text(
            _("{total} is not more than {check}: {obstacle} takes effect.").format(
                total=numbers, check=card.check, obstacle=name
            )
        )
        if card.damage:
            result.damage = hurt(state, g.turn, card.damage, f"{name}")
        if card.penalty:
            hero.penalty += card.penalty
            result.penalty = card.penalty
            state.log.text(
                _("{player}: −{n} in the next fight (penalty {total}).").format(
                    player=hero.player, n=card.penalty, total=hero.penalty
                )
            )
        if card.event:
            result.event = card.event
            state.log.text(_("Event: {event}").format(event=card.event))
    _spend_single(state, g.turn, use)
    outcome = _("passed") if passed else _("failed")
    state.log.update(
        f"turn-{g.turns}",
        _("Turn {n} · {player}: {kind} {card} ({check}) — {outcome}").format(
            n=g.turns, player=hero.player, kind=t(state, "obstacle"), card=name, check=card.check, outcome=outcome
        ),
    )
    g.obstacle = None
    _bump(g, "end")
    settle(state)
    return result


def heal(state: State, who: int, amount: int) -> int:
    """Restore up to ``amount`` health (never above the card's health); returns what was restored."""
    hero = game(state).heroes[who]
    if amount <= 0 or hero.fallen:
        return 0
    before = hero.health
    hero.health = min(hero.max_health, hero.health + amount)
    gained = hero.health - before
    if gained:
        state.log.text(
            ngettext(
                "♥ ×{hearts}: {player} heals {n} → {health}/{max}.",
                "♥ ×{hearts}: {player} heals {n} → {health}/{max}.",
                gained,
            ).format(hearts=amount, player=hero.player, n=gained, health=hero.health, max=hero.max_health)
        )
    else:
        state.log.text(
            _("♥ ×{hearts}: {player} is at full health ({health}/{max}).").format(
                hearts=amount, player=hero.player, health=hero.health, max=hero.max_health
            )
        )
    return gained


def hurt(state: State, who: int, amount: int, why: str) -> int:
    hero = game(state).heroes[who]
    if amount <= 0 or hero.fallen:
        return 0
    before = hero.health
    hero.health = max(0, hero.health - amount)
    state.log.text(
        ngettext(
            "{player} loses {n} health ({why}) → {health}/{max}.",
            "{player} loses {n} health ({why}) → {health}/{max}.",
            amount,
        ).format(player=hero.player, n=amount, why=why, health=hero.health, max=hero.max_health)
    )
    if hero.health == 0 and before > 0:
        hero.fallen = True
        state.log.text(_("{player} has fallen.").format(player=hero.player))
    return before - hero.health


def _spend_single(state: State, who: int, use: list[str]) -> None:
    hero = game(state).heroes[who]
    for item in use:
        for i, held in enumerate(hero.items):
            if held.card == item:
                del hero.items[i]
                state.log.text(
                    _("{player} used up {item} (single use).").format(
                        player=hero.player, item=name_of(state, "item", item)
                    )
                )
                break


# ---- fights --------------------------------------------------------------------------------------


@dataclass
class Plan:
    """Choices made before a fight's roll: the helper, the single-use items used, the conditions that hold."""

    helper: int | None = None
    use: list[str] = field(default_factory=list)
    #: Slugs of permanent spells whose condition holds in this fight.
    conditions: list[str] = field(default_factory=list)


@dataclass
class Castable:
    """An activated spell a hero in the fight may cast with ★ energy."""

    hero: int
    spell: C.Spell
    #: What it adds to the fight's total (its bonus, once per hero it targets).
    value: int

    @property
    def slug(self) -> str:
        return C.slug(self.spell.name)


@dataclass
class Bonus:
    """Everything the heroes bring to a fight before the dice."""

    parts: list[tuple[str, int]]
    dice: int
    strength: int
    castable: list[Castable]
    ignores: frozenset[str]
    immune: bool
    conditional: list[tuple[int, C.Spell]]

    @property
    def total(self) -> int:
        return sum(v for _k, v in self.parts)


def participants(state: State, plan: Plan) -> list[int]:
    g = game(state)
    return [g.turn] + ([plan.helper] if plan.helper is not None else [])


def can_help(state: State) -> list[int]:
    """Who may be called to help in this fight (from floor 2 on: any other living hero)."""
    g = game(state)
    if g.floor < data.HELP_FROM_FLOOR:
        return []
    return [i for i in g.living() if i != g.turn]


def _check_plan(state: State, plan: Plan) -> None:
    g = game(state)
    if plan.helper is not None:
        if g.floor < data.HELP_FROM_FLOOR:
            raise InputError(
                _("help can be called from floor {first} on; this is floor {floor}").format(
                    first=data.HELP_FROM_FLOOR, floor=g.floor
                )
            )
        if plan.helper == g.turn:
            raise InputError(_("the leader cannot help themselves; call another player"))
        if not 0 <= plan.helper < len(g.heroes) or g.heroes[plan.helper].fallen:
            raise InputError(_("that player cannot help: they are not at the table or have fallen"))


def spells_at_level(state: State, who: int) -> list[C.Spell]:
    hero = game(state).heroes[who]
    return [s for s in hero_card(state, hero).spells if s.level <= hero.level]


def hero_parts(
    state: State,
    i: int,
    *,
    ignores: frozenset[str] = frozenset(),
    use: list[str] | None = None,
    conditions: list[str] | None = None,
    tag: str = "",
) -> tuple[list[tuple[str, int]], list[tuple[int, C.Spell]]]:
    """One hero's part of a fight's bonus, labelled; and the permanent spells that wait on a condition.

    The card's own bonus for the level, its permanent spells for itself, every living hero's spells
    for every hero ("каждому персонажу"), the items it can use (single-use ones only when ``use``d, in
    its own turn), less its penalty.
    """
    g = game(state)
    hero = g.heroes[i]
    use = use or []
    conditions = conditions or []
    parts: list[tuple[str, int]] = []
    conditional: list[tuple[int, C.Spell]] = []
    base = hero_card(state, hero).bonus[hero.level - 1]
    if base:
        parts.append((_("Level {n}").format(n=hero.level) + tag, base))
    for spell in spells_at_level(state, i):
        if spell.activated or spell.target != "self":
            continue
        if spell.condition:
            conditional.append((i, spell))
            if C.slug(spell.name) not in conditions:
                continue
        parts.append((_spell_label(state, spell) + tag, spell.bonus))
    for j in g.living():
        for spell in spells_at_level(state, j):
            if spell.activated or spell.target != "all":
                continue
            if spell.condition:
                conditional.append((j, spell))
                if C.slug(spell.name) not in conditions:
                    continue
            source = "" if j == i else _(" from {player}").format(player=g.heroes[j].player)
            parts.append((_spell_label(state, spell) + source + tag, spell.bonus))
    for held, item in _usable(state, i, ignores):
        if item.single and (i != g.turn or held.card not in use):
            continue  # single-use items only in their owner's own turn, when used
        if item.bonus:
            parts.append((C.title(item, lang(state)) + tag, item.bonus))
    if hero.penalty:
        parts.append((_("penalty") + tag, -hero.penalty))
    return parts, conditional


def standing_bonus(state: State, i: int) -> int:
    """A hero's combat bonus as things stand (no monster, no single-use item, no condition): for the screen."""
    return sum(v for _k, v in hero_parts(state, i)[0])


def fight_bonus(state: State, plan: Plan) -> Bonus:
    """The heroes' total before the dice, part by part, and what the roll may add (dice, spells)."""
    g = game(state)
    _check_plan(state, plan)
    monsters = [monster_card(state, m) for m in g.group]
    ignores = frozenset(c for m in monsters for c in m.ignores)
    immune = any(m.immune for m in monsters)
    strength = sum(m.strength for m in monsters)
    _check_use(state, g.turn, plan.use, ignores)
    who = participants(state, plan)
    parts: list[tuple[str, int]] = []
    conditional: list[tuple[int, C.Spell]] = []
    for i in who:
        tag = f" ({g.heroes[i].player})" if i != g.turn else ""
        own, waiting = hero_parts(state, i, ignores=ignores, use=plan.use, conditions=plan.conditions, tag=tag)
        parts.extend(own)
        conditional.extend(w for w in waiting if w not in conditional)
    castable: list[Castable] = []
    if not immune:
        for i in who:
            for spell in spells_at_level(state, i):
                if spell.activated and spell.bonus:
                    value = spell.bonus * (len(who) if spell.target == "all" else 1)
                    castable.append(Castable(i, spell, value))
    dice = data.FIGHT_DICE + len(extra_dice(state, g.turn, plan.use, ignores))
    return Bonus(parts, dice, strength, castable, ignores, immune, conditional)


def _spell_label(state: State, spell: C.Spell) -> str:
    return spell.ru if lang(state) == "ru" and spell.ru else spell.name


def boosts(state: State, bonus: Bonus) -> list[tuple[int, int]]:
    """The leader's activated spells as (bonus, cost), for the odds (only the leader rolls ★)."""
    g = game(state)
    return [(c.value, c.spell.cost) for c in bonus.castable if c.hero == g.turn]


@dataclass
class FightResult:
    total: int
    strength: int
    won: bool
    damage: int
    healed: int
    energy: int
    cast: list[str]
    fallen: list[str]
    owed: list[str]


def resolve_fight(state: State, plan: Plan, roll: Roll, cast: list[tuple[int, str]]) -> FightResult:
    """The fight: ♥ heal the leader, ★ give the leader energy for ``cast``, then the totals compare.

    More than the strength beats every monster on the table; otherwise each hero in the fight takes
    the difference (0 on a tie, when the monsters stay), and a monster that takes an item does.
    """
    g = _phase(state, "fight", doing=_("fight"))
    if not g.group:
        raise InputError(_("there is no monster on the table to fight"))
    bonus = fight_bonus(state, plan)
    if roll.faces is None or len(roll.faces) != bonus.dice or not roll.expr.has_dt:
        raise InputError(
            ngettext("this fight rolls {n} Dark Tower die", "this fight rolls {n} Dark Tower dice", bonus.dice).format(
                n=bonus.dice
            )
        )
    leader = g.current()
    who = participants(state, plan)
    gained = (roll.stars or 0) * data.ENERGY_PER_STAR
    chosen = castings(state, bonus, cast, gained)  # checked before anything changes
    if plan.helper is not None:
        state.log.text(
            _("{helper} helps {leader}; {leader} leads and rolls.").format(
                helper=g.heroes[plan.helper].player, leader=leader.player
            )
        )
    numbers = roll.total - roll.modifier
    healed = heal(state, g.turn, (roll.hearts or 0) * data.HEAL_PER_HEART)
    if gained:
        leader.energy += gained
        state.log.text(
            ngettext(
                "★ ×{stars}: {player} has {n} energy this turn.",
                "★ ×{stars}: {player} has {n} energy this turn.",
                leader.energy,
            ).format(stars=roll.stars, player=leader.player, n=leader.energy)
        )
    added = 0
    cast_names: list[str] = []
    for option in chosen:
        hero = g.heroes[option.hero]
        hero.energy -= option.spell.cost
        added += option.value
        cast_names.append(option.spell.name)
        state.log.text(
            _("{player} casts {spell}: {value} for {cost}★.").format(
                player=hero.player,
                spell=_spell_label(state, option.spell),
                value=f"{option.value:+d}",
                cost=option.spell.cost,
            )
        )
    total = numbers + bonus.total + added
    strength = bonus.strength
    won = total > strength
    result = FightResult(total, strength, won, 0, healed, gained, cast_names, [], [])
    names = group_text(state)
    if won:
        state.log.text(
            ngettext(
                "{total} beats {strength}: {monsters} is beaten.",
                "{total} beats {strength}: {monsters} are beaten.",
                len(g.group),
            ).format(total=total, strength=strength, monsters=names)
        )
        g.beaten += len(g.group)
        g.group = []
        outcome = _("beaten")
    else:
        diff = strength - total
        result.damage = diff
        if diff == 0:
            state.log.text(
                _("{total} ties {strength}: the monster is not beaten and deals no damage.").format(
                    total=total, strength=strength
                )
            )
        else:
            state.log.text(
                ngettext(
                    "{total} does not beat {strength}: {n} damage to each hero in the fight.",
                    "{total} does not beat {strength}: {n} damage to each hero in the fight.",
                    diff,
                ).format(total=total, strength=strength, n=diff)
            )
        for i in who:
            hurt(state, i, diff, names)
        outcome = (
            ngettext("not beaten, {n} damage", "not beaten, {n} damage", diff).format(n=diff)
            if diff
            else _("not beaten, a tie")
        )
    _spend_single(state, g.turn, plan.use)
    for i in who:
        g.heroes[i].penalty = 0
    if not won:
        takers = sum(1 for m in g.group if monster_card(state, m).takes_item)
        for _taker in range(takers):
            for i in who:
                if g.heroes[i].alive and g.heroes[i].items:
                    g.owed.append(i)
                    result.owed.append(g.heroes[i].player)
    settle_owed(state)
    result.fallen = [g.heroes[i].player for i in who if g.heroes[i].fallen]
    helper = _(" with {player}").format(player=g.heroes[plan.helper].player) if plan.helper is not None else ""
    state.log.update(
        f"turn-{g.turns}",
        _("Turn {n} · {player}{helper}: Fight {monsters} — {outcome}").format(
            n=g.turns, player=leader.player, helper=helper, monsters=names, outcome=outcome
        ),
    )
    _bump(g, "end")
    settle(state)
    return result


def castings(state: State, bonus: Bonus, cast: list[tuple[int, str]], gained: int) -> list[Castable]:
    """The spells ``cast`` as (hero, spell slug), checked: castable here, once each, within the energy.

    ``gained`` is the ★ the leader's roll brings; a helper has only the energy they already hold.
    """
    g = game(state)
    energy = {i: h.energy for i, h in enumerate(g.heroes)}
    energy[g.turn] += gained
    chosen: list[Castable] = []
    for caster, spell_slug in cast:
        option = next((c for c in bonus.castable if c.hero == caster and c.slug == spell_slug), None)
        if option is None:
            why = _(" (the monster is immune to spells)") if bonus.immune else ""
            raise InputError(
                _("{spell!r} is not an activated spell that can be cast in this fight{why}").format(
                    spell=spell_slug, why=why
                )
            )
        if option in chosen:
            raise InputError(_("{spell} is cast once in a fight").format(spell=_spell_label(state, option.spell)))
        if energy[caster] < option.spell.cost:
            raise InputError(
                ngettext(
                    "{player} has {n} energy; {spell} costs {cost}★",
                    "{player} has {n} energy; {spell} costs {cost}★",
                    energy[caster],
                ).format(
                    player=g.heroes[caster].player,
                    n=energy[caster],
                    spell=_spell_label(state, option.spell),
                    cost=option.spell.cost,
                )
            )
        energy[caster] -= option.spell.cost
        chosen.append(option)
    return chosen


def best_castings(state: State, bonus: Bonus, gained: int) -> list[tuple[int, str]]:
    """The casting that adds the most with the energy at hand (what ``--cast auto`` does)."""
    from itertools import combinations

    options = [c for c in bonus.castable if c.value > 0]
    best: list[Castable] = []
    best_value = 0
    for r in range(1, len(options) + 1):
        for chosen in combinations(options, r):
            try:
                castings(state, bonus, [(c.hero, c.slug) for c in chosen], gained)
            except InputError:
                continue
            value = sum(c.value for c in chosen)
            if value > best_value:
                best, best_value = list(chosen), value
    return [(c.hero, c.slug) for c in best]


def lose_item(state: State, who: int, index: int) -> str:
    """The hero owed to a monster that takes an item loses the ``index``-th item they hold (0-based)."""
    g = game(state)
    if who not in g.owed:
        raise InputError(_("{player} owes no item").format(player=g.heroes[who].player))
    hero = g.heroes[who]
    if not 0 <= index < len(hero.items):
        raise InputError(
            ngettext(
                "{player} holds {n} item; pick 1 to {n}", "{player} holds {n} items; pick 1 to {n}", len(hero.items)
            ).format(player=hero.player, n=len(hero.items))
        )
    held = hero.items.pop(index)
    g.owed.remove(who)
    g.step += 1
    state.log.text(
        _("{player} discards {item} (a random item the monster takes).").format(
            player=hero.player, item=name_of(state, "item", held.card)
        )
    )
    settle_owed(state)
    return held.card


def settle_owed(state: State) -> None:
    """A "random" item needs no roll when a hero holds one item (or none left to take)."""
    g = game(state)
    for who in list(g.owed):
        if who not in g.owed:
            continue
        items = g.heroes[who].items
        if not items:
            g.owed.remove(who)
        elif len(items) == 1:
            lose_item(state, who, 0)


# ---- items, trades and the end of a turn ---------------------------------------------------------


def discard(state: State, who: int, index: int, to: int | None = None) -> None:
    """Discard an item; another player may pick it up (usable from their next turn)."""
    g = game(state)
    if g.phase in ("setup", "over"):
        raise InputError(_("cannot {doing} now: {waiting}").format(doing=_("discard"), waiting=waiting_for(state)))
    hero = g.heroes[who]
    if not 0 <= index < len(hero.items):
        raise InputError(
            ngettext("{player} holds {n} item", "{player} holds {n} items", len(hero.items)).format(
                player=hero.player, n=len(hero.items)
            )
        )
    if to is not None and (to == who or not 0 <= to < len(g.heroes) or g.heroes[to].fallen):
        raise InputError(_("the item goes to another living player, or to the discard pile"))
    held = hero.items.pop(index)
    name = name_of(state, "item", held.card)
    if to is None:
        state.log.text(_("{player} discards {item}.").format(player=hero.player, item=name))
    else:
        g.heroes[to].items.append(Held(held.card, fresh=True))
        state.log.text(
            _("{player} discards {item}; {other} picks it up (usable from their next turn).").format(
                player=hero.player, item=name, other=g.heroes[to].player
            )
        )
    g.step += 1


def trade(state: State, a: int, item_a: int, b: int, item_b: int | None) -> None:
    """A trade at the end of a turn: received items are usable from their new owner's next turn."""
    g = _phase(state, "end", doing=_("trade"))
    if a == b:
        raise InputError(_("a trade is between two players"))
    if not (0 <= a < len(g.heroes) and 0 <= b < len(g.heroes)):
        raise InputError(_("a trade is between two players at the table"))
    ha, hb = g.heroes[a], g.heroes[b]
    if ha.fallen or hb.fallen:
        raise InputError(_("a fallen hero cannot trade"))
    if not 0 <= item_a < len(ha.items) or (item_b is not None and not 0 <= item_b < len(hb.items)):
        raise InputError(_("each side of a trade gives an item they hold"))
    given = ha.items.pop(item_a)
    got = hb.items.pop(item_b) if item_b is not None else None
    hb.items.append(Held(given.card, fresh=True))
    if got is not None:
        ha.items.append(Held(got.card, fresh=True))
        state.log.text(
            _("{player} trades {item} for {other}'s {other_item} (usable from their next turns).").format(
                player=ha.player,
                item=name_of(state, "item", given.card),
                other=hb.player,
                other_item=name_of(state, "item", got.card),
            )
        )
    else:
        state.log.text(
            _("{player} gives {item} to {other} (usable from their next turn).").format(
                player=ha.player, item=name_of(state, "item", given.card), other=hb.player
            )
        )
    g.step += 1


def over_limit(state: State) -> list[tuple[int, str, list[str]]]:
    """Heroes holding more than one item of a class: (hero, class, item slugs)."""
    g = game(state)
    out = []
    for i, hero in enumerate(g.heroes):
        if hero.fallen:
            continue
        by_class: dict[str, list[str]] = {}
        for held in hero.items:
            cls = item_card(state, held.card).cls
            if cls:
                by_class.setdefault(cls, []).append(held.card)
        for cls, items in by_class.items():
            if len(items) > data.ITEMS_PER_CLASS:
                out.append((i, cls, items))
    return out


def end_turn(state: State) -> None:
    """Pass the turn: items over the class limit must be gone, energy fades, a cleared floor is left."""
    g = _phase(state, "end", doing=_("end the turn"))
    if g.owed:
        raise InputError(
            _("{player} must first discard a random item (companion dark lose)").format(
                player=g.heroes[g.owed[0]].player
            )
        )
    extra = over_limit(state)
    if extra:
        i, cls, items = extra[0]
        names = ", ".join(name_of(state, "item", s) for s in items)
        raise InputError(
            _(
                "{player} holds {n} items of class {cls} ({names}): "
                "discard down to {limit} first (companion dark discard PLAYER ITEM)"
            ).format(
                player=g.heroes[i].player,
                n=len(items),
                cls=C.class_name(cls, lang(state)),
                names=names,
                limit=data.ITEMS_PER_CLASS,
            )
        )
    for hero in g.heroes:
        hero.energy = 0
    state.log.close()
    if not g.group and g.deck().left == 0 and g.floor < data.FLOORS:
        enter_next_floor(state)
    living = g.living()
    if not living:
        return
    n = len(g.heroes)
    for k in range(1, n + 1):
        nxt = (g.turn + k) % n
        if g.heroes[nxt].alive:
            g.turn = nxt
            break
    _begin_turn(state)


def enter_next_floor(state: State, *, force: bool = False) -> None:
    """The heroes go up: every living hero rises to the new floor's level and learns its spells."""
    g = game(state)
    if g.phase in ("setup", "over"):
        raise InputError(_("cannot {doing} now: {waiting}").format(doing=_("go up"), waiting=waiting_for(state)))
    if g.floor >= data.FLOORS:
        raise InputError(_("floor {n} is the top of the tower").format(n=data.FLOORS))
    if g.group:
        raise InputError(_("{monsters} must be beaten before the heroes go up").format(monsters=group_text(state)))
    if g.deck().left and not force:
        raise InputError(
            ngettext(
                "floor {floor} still has {n} card ({cards}); add --force to go up anyway",
                "floor {floor} still has {n} cards ({cards}); add --force to go up anyway",
                g.deck().left,
            ).format(floor=g.floor, n=g.deck().left, cards=deck_text(g.deck()))
        )
    g.floor += 1
    _floor_heading(state)
    for hero in g.heroes:
        if hero.fallen:
            continue
        hero.level = min(data.MAX_LEVEL, g.floor)
        new = [s for s in hero_card(state, hero).spells if s.level == hero.level]
        learnt = "; ".join(C.spell_text(s, lang(state)) for s in new)
        line = _("{player} rises to level {n}: {spells}.") if learnt else _("{player} rises to level {n}.")
        state.log.text(line.format(player=hero.player, n=hero.level, spells=learnt))
    g.step += 1


def quest_done(state: State) -> None:
    g = game(state)
    if g.phase in ("setup", "over"):
        raise InputError(
            _("cannot {doing} now: {waiting}").format(doing=_("finish the quest"), waiting=waiting_for(state))
        )
    if g.quest is None:
        raise InputError(_("this game has no quest; win by beating every monster"))
    if not g.living():
        raise InputError(_("every hero has fallen"))
    state.log.text(_("The quest is done: {quest}.").format(quest=name_of(state, "quest", g.quest)), under=False)
    _finish(state, "won")


def settle(state: State) -> None:
    """End the game when it is decided: every hero fallen, or every monster in the tower beaten."""
    g = game(state)
    if not g.living():
        state.log.text(_("Every hero has fallen."), under=False)
        _finish(state, "lost")
        return
    if g.floor == data.FLOORS and not g.group and g.obstacle is None and g.deck().left == 0:
        survivors = ", ".join(g.heroes[i].player for i in g.living())
        state.log.text(
            _("Every monster in the tower is beaten. Standing: {players}.").format(players=survivors), under=False
        )
        _finish(state, "won")


def _finish(state: State, result: str) -> None:
    g = game(state)
    _bump(g, "over")
    state.finished = result
    state.log.text(_("The end: {result}.").format(result=t(state, result)), under=False)


def change_health(
    state: State, who: int, delta: int | None = None, value: int | None = None, maximum: int | None = None
) -> None:
    """Health changed by a card's own text (an item that raises it, an event): by hand, within 0..max."""
    g = game(state)
    hero = g.heroes[who]
    if hero.fallen:
        raise InputError(
            _("{player} has fallen; undo the action that felled them to take it back").format(player=hero.player)
        )
    if maximum is not None:
        if maximum < 1:
            raise InputError(_("the most health a hero can have is at least 1"))
        hero.max_health = maximum
    new = hero.health
    if value is not None:
        new = value
    if delta is not None:
        new += delta
    hero.health = max(0, min(hero.max_health, new))
    state.log.text(
        _("{player}: health {health}/{max}.").format(player=hero.player, health=hero.health, max=hero.max_health)
    )
    if hero.health == 0:
        hero.fallen = True
        state.log.text(_("{player} has fallen.").format(player=hero.player))
        settle(state)


def set_deck(state: State, floor: int, counts: tuple[int, int, int]) -> None:
    """Correct a deck's counts to what the table really has (a miscounted deck, a card's own text)."""
    g = game(state)
    if not g.decks:
        raise InputError(_("the decks are built when the game starts"))
    if not 1 <= floor <= data.FLOORS or min(counts) < 0:
        raise InputError(_("floor 1 to {n}, and counts of 0 or more").format(n=data.FLOORS))
    deck = g.decks[floor - 1]
    deck.monsters, deck.obstacles, deck.items = counts
    state.log.text(_("Floor {n} deck set to {cards}.").format(n=floor, cards=deck_text(deck, lang(state))))
    g.step += 1
    if g.phase in ("draw", "end"):
        settle(state)  # an emptied top floor with no monster left is the end of the tower


def set_lang(state: State, value: str) -> None:
    from companion import i18n

    if value not in i18n.languages(state.meta.game):
        known = " or ".join(i18n.languages(state.meta.game))
        raise InputError(_("{lang!r} is not a language; use {known}").format(lang=value, known=known))
    game(state).lang = value
    i18n.activate(value, state.meta.game)


# ---- the one-shot events -------------------------------------------------------------------------


def reduce(state: State, event: dict[str, Any]) -> None:
    """Apply a ``dark`` event recorded by a one-shot command (see ``cli.py``): the same rules as guided play."""
    from companion.dice.expr import parse
    from companion.log.rolls import roll_line
    from companion.session.fold import roll_from

    op = event.get("op")
    game(state)
    roll = None
    if isinstance(event.get("roll"), dict):
        payload = event["roll"]
        expr = parse(payload["expr"])
        roll = roll_from(expr, payload, int(payload.get("mod", 0)), tuple((a, b) for a, b in payload.get("parts", [])))
        original = None
        if payload.get("original") is not None:
            from companion.dice.render import dice_text

            original = dice_text(roll_from(expr, payload["original"], int(payload.get("mod", 0))))
        state.log.roll(
            roll_line(roll, event.get("why", ""), amended_from=original, reason=payload.get("reason")),
            event=event.get("id"),
        )
        state.rolls += 1
    if op == "card":
        card = C.from_json(event["kind"], event["card"])
        validate(card)
        enter_card(state, event["kind"], card, event.get("slug"))
    elif op == "join":
        add_hero(state, event["player"], event["hero"])
    elif op == "item":
        gain_item(state, int(event["hero"]), event["item"], how=event.get("how", "takes"))
    elif op == "quest":
        choose_quest(state, event.get("quest"))
    elif op == "start":
        start(state, int(event["first"]))
    elif op == "draw":
        draw(state, event["kind"], event["card"], any_floor=bool(event.get("any_floor")))
    elif op == "group":
        join_group(
            state, event["monster"], from_deck=bool(event.get("from_deck")), any_floor=bool(event.get("any_floor"))
        )
    elif op == "check":
        assert roll is not None
        resolve_check(state, roll, list(event.get("use", [])))
    elif op == "fight":
        assert roll is not None
        plan = Plan(event.get("helper"), list(event.get("use", [])), list(event.get("conditions", [])))
        resolve_fight(state, plan, roll, [(int(h), s) for h, s in event.get("cast", [])])
    elif op == "lose":
        index = int(event["index"]) if roll is None else (roll.total - 1)
        lose_item(state, int(event["hero"]), index)
    elif op == "discard":
        discard(state, int(event["hero"]), int(event["index"]), event.get("to"))
    elif op == "trade":
        trade(state, int(event["a"]), int(event["item_a"]), int(event["b"]), event.get("item_b"))
    elif op == "end":
        end_turn(state)
    elif op == "floor":
        enter_next_floor(state, force=bool(event.get("force")))
    elif op == "quest-done":
        quest_done(state)
    elif op == "health":
        change_health(state, int(event["hero"]), event.get("delta"), event.get("value"), event.get("max"))
    elif op == "deck":
        set_deck(state, int(event["floor"]), tuple(event["counts"]))  # type: ignore[arg-type]
    elif op == "lang":
        set_lang(state, event["lang"])
    else:
        raise InputError(_("unknown Dark Tower action {op!r}").format(op=op))
