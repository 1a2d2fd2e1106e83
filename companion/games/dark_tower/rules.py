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

if TYPE_CHECKING:
    from companion.dice.roll import Roll
    from companion.session.state import State


# ---- small helpers -------------------------------------------------------------------------------


def game(state: State) -> DarkTower:
    g = state.game
    if not isinstance(g, DarkTower):
        raise InputError("this session is not a Dark Tower game; start one with: companion new dark-tower")
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
    players = ", ".join(h.player for h in g.heroes) or "none yet"
    raise InputError(f"no player or hero {text!r} at the table; players: {players}")


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
    have = ", ".join(name_of(state, "item", h.card) for h in hero.items) or "no items"
    raise InputError(f"{hero.player} holds no {text!r} (holds: {have})")


def _phase(state: State, *phases: str, doing: str) -> DarkTower:
    g = game(state)
    if g.phase not in phases:
        raise InputError(f"cannot {doing} now: {waiting_for(state)}")
    return g


def waiting_for(state: State) -> str:
    """What the game waits for, in words (for error lines and the screen)."""
    g = game(state)
    if state.finished or g.phase == "over":
        return f"the game is over ({state.finished})"
    if g.phase == "setup":
        return "the game is being set up (add players, a quest, then start)"
    who = g.current().player
    if g.phase == "draw":
        return f"{who} draws the top card of floor {g.floor}"
    if g.phase == "obstacle":
        return f"{who} rolls the check of {name_of(state, 'obstacle', g.obstacle or '')}"
    if g.phase == "fight":
        return f"{who} fights {group_text(state)}"
    if g.owed:
        return f"{g.heroes[g.owed[0]].player} discards a random item"
    return f"{who} ends the turn (trades and discards first)"


def group_text(state: State) -> str:
    g = game(state)
    names = [f"{name_of(state, 'monster', m)} ({monster_card(state, m).strength})" for m in g.group]
    return " + ".join(names) if names else "nothing"


def _bump(g: DarkTower, phase: str) -> None:
    g.phase = phase
    g.step += 1


# ---- cards ---------------------------------------------------------------------------------------


def enter_card(state: State, kind: str, card: C.Card, card_slug: str | None = None) -> str:
    """Keep a card in the session's data (the CLI and the engine's ``data.`` answers put it in the catalogue)."""
    card_slug = card_slug or C.slug_for(state.data, kind, card)
    if not card_slug:
        raise InputError(f"a {kind} card needs a name")
    state.data[C.key(kind, card_slug)] = C.to_json(card)
    state.log.text(f"Card entered: {t(state, kind)} {C.describe(card, lang(state))}.")
    return card_slug


def validate(card: C.Card) -> None:
    """Refuse numbers a card cannot print (one line each)."""
    if isinstance(card, C.HeroCard):
        if card.health < 1:
            raise InputError("a hero's health is at least 1")
        if len(card.bonus) != data.MAX_LEVEL:
            raise InputError(f"a hero has a combat bonus for each of the {data.MAX_LEVEL} levels")
        for s in card.spells:
            if not 1 <= s.level <= data.MAX_LEVEL:
                raise InputError(f"spell {s.name!r}: the level is 1 to {data.MAX_LEVEL}")
            if s.activated and s.cost < 1:
                raise InputError(f"spell {s.name!r}: an activated spell costs at least 1 ★")
    elif isinstance(card, C.MonsterCard):
        if not 1 <= card.floor <= data.FLOORS:
            raise InputError(f"a monster lives on floor 1 to {data.FLOORS}")
        if card.strength < 0:
            raise InputError("a monster's strength is 0 or more")
    elif isinstance(card, C.ObstacleCard):
        if card.check < 0 or card.damage < 0 or card.penalty < 0:
            raise InputError("an obstacle's check, health loss and penalty are 0 or more")
    elif isinstance(card, C.QuestCard) and (
        len(card.adds) != data.FLOORS or any(len(a) != 3 or min(a) < 0 for a in card.adds)
    ):
        raise InputError("a quest adds 0 or more monsters, obstacles and items to each of the 3 floors")


# ---- setup ---------------------------------------------------------------------------------------


def add_hero(state: State, player: str, hero: str) -> Hero:
    g = _phase(state, "setup", doing="add a player")
    player = " ".join(player.split())
    if not player:
        raise InputError("a player needs a name")
    if len(g.heroes) >= data.MAX_PLAYERS:
        raise InputError(f"the Dark Tower is for at most {data.MAX_PLAYERS} players")
    if any(C.slug(h.player) == C.slug(player) for h in g.heroes):
        raise InputError(f"{player} is already at the table")
    if any(h.card == hero for h in g.heroes):
        raise InputError(f"{name_of(state, 'hero', hero)} is already taken; each player picks a different hero")
    card = C.get(state, "hero", hero)
    assert isinstance(card, C.HeroCard)
    h = Hero(player=player, card=hero, health=card.health, max_health=card.health)
    g.heroes.append(h)
    state.log.text(f"{player} plays {C.describe(card, lang(state))}.", under=False)
    return h


def gain_item(state: State, who: int, item: str, *, fresh: bool = False, how: str = "takes") -> None:
    g = game(state)
    hero = g.heroes[who]
    card = item_card(state, item)
    hero.items.append(Held(item, fresh))
    later = " (usable from their next turn)" if fresh else ""
    state.log.text(f"{hero.player} {how} {C.describe(card, lang(state))}{later}.")


def choose_quest(state: State, quest: str | None) -> None:
    g = _phase(state, "setup", doing="choose the quest")
    if quest is not None:
        card = C.get(state, "quest", quest)
        state.log.text(f"{t(state, 'quest')}: {C.describe(card, lang(state))}.", under=False)
    else:
        state.log.text("No quest: the heroes win by beating every monster in the tower.", under=False)
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
    if lang_ == "ru":
        return f"монстры {m}, препятствия {o}, предметы {i}"
    return f"{m} monster{'s' * (m != 1)}, {o} obstacle{'s' * (o != 1)}, {i} item{'s' * (i != 1)}"


def start(state: State, first: int) -> None:
    """Build the decks, put every hero on floor 1 at level 1, and give ``first`` the first turn."""
    g = _phase(state, "setup", doing="start")
    if not g.heroes:
        raise InputError("add at least one player first (companion dark join PLAYER HERO)")
    if not g.quest_chosen:
        raise InputError("choose the quest first (companion dark quest NAME, or --none)")
    if not 0 <= first < len(g.heroes):
        raise InputError(f"player {first + 1} is not at the table")
    g.decks = [Deck(d.floor, d.monsters, d.obstacles, d.items) for d in planned_decks(state)]
    g.floor = 1
    for h in g.heroes:
        h.level = 1
    g.turn = first
    _floor_heading(state)
    _begin_turn(state)


def _floor_heading(state: State) -> None:
    g = game(state)
    state.log.heading(f"{t(state, 'floor')} {g.floor}")
    state.log.text(f"{t(state, 'deck')}: {deck_text(g.deck(), lang(state))}.", under=False)


def _begin_turn(state: State) -> None:
    g = game(state)
    g.turns += 1
    hero = g.current()
    for held in hero.items:
        held.fresh = False  # traded items are usable from their new owner's next turn
    state.log.line(f"turn-{g.turns}", f"{t(state, 'turn')} {g.turns} · {hero.player}")
    _bump(g, "fight" if g.group else "draw")
    if g.group:
        state.log.text(f"{hero.player} must fight {group_text(state)} first.")


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
            f"{C.title(card, lang(state))} lives on floor {floor}: its card goes in floor {floor}'s pile, "
            f"not floor {game(state).floor}'s",
            hint=f"if it really came up here (a quest may add it), confirm with: {command} --any-floor",
        )


def draw(state: State, kind: str, card_slug: str, *, any_floor: bool = False) -> None:
    """The current player drew the top card of the floor: a monster, an obstacle or an item.

    A monster whose card names another floor is refused unless ``any_floor`` confirms it: the text puts
    each monster in its own floor's pile (a quest's own cards may say otherwise)."""
    g = _phase(state, "draw", doing="draw a card")
    deck = g.deck()
    if deck.count(kind) < 1:
        raise InputError(
            f"the floor {g.floor} deck has no {kind} left by the count ({deck_text(deck)}); "
            "fix the count with companion dark deck if your deck differs"
        )
    if kind == "monster":
        _own_floor(state, card_slug, any_floor, "companion dark draw monster NAME")
    card = C.get(state, kind, card_slug)
    deck.take(kind)
    g.drawn.append(f"{kind}:{card_slug}")
    hero = g.current()
    label = f"{t(state, 'turn')} {g.turns} · {hero.player}: {t(state, kind)} {C.title(card, lang(state))}"
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
    g = _phase(state, "fight", doing="add a monster to the group")
    card = monster_card(state, monster)
    if from_deck:
        _own_floor(state, monster, any_floor, "companion dark group NAME --from-deck")
        deck = g.deck()
        if deck.monsters < 1:
            raise InputError(f"the floor {g.floor} deck has no monster left by the count")
        deck.take("monster")
        g.drawn.append(f"monster:{monster}")
    g.group.append(monster)
    g.step += 1
    where = "from the deck" if from_deck else "from outside the deck"
    state.log.text(f"{C.title(card, lang(state))} ({card.strength}) joins the group {where}: {group_text(state)}.")


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
                f"{name_of(state, 'item', item)} is not a single-use item {game(state).heroes[who].player} can use now"
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
    g = _phase(state, "obstacle", doing="roll an obstacle check")
    _check_use(state, g.turn, use)
    dice = check_dice(state, use)
    if roll.faces is None or len(roll.faces) != dice or not roll.expr.has_dt:
        raise InputError(f"this check rolls {dice} Dark Tower dice")
    card = C.get(state, "obstacle", g.obstacle or "")
    assert isinstance(card, C.ObstacleCard)
    hero = g.current()
    numbers = roll.total - roll.modifier
    passed = numbers > card.check
    healed = heal(state, g.turn, (roll.hearts or 0) * data.HEAL_PER_HEART)
    result = CheckResult(g.obstacle or "", card.check, numbers, passed, healed, 0, 0, "")
    name = C.title(card, lang(state))
    if passed:
        state.log.text(f"{numbers} is more than {card.check}: {hero.player} gets past {name}.")
    else:
        state.log.text(f"{numbers} is not more than {card.check}: {name} takes effect.")
        if card.damage:
            result.damage = hurt(state, g.turn, card.damage, f"{name}")
        if card.penalty:
            hero.penalty += card.penalty
            result.penalty = card.penalty
            state.log.text(
                f"{hero.player}: −{card.penalty} in the next fight ({t(state, 'penalty').lower()} {hero.penalty})."
            )
        if card.event:
            result.event = card.event
            state.log.text(f"Event: {card.event}")
    _spend_single(state, g.turn, use)
    outcome = "passed" if passed else "failed"
    state.log.update(
        f"turn-{g.turns}",
        f"{t(state, 'turn')} {g.turns} · {hero.player}: {t(state, 'obstacle')} {name} ({card.check}) — {outcome}",
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
        state.log.text(f"♥ ×{amount}: {hero.player} heals {gained} → {hero.health}/{hero.max_health}.")
    else:
        state.log.text(f"♥ ×{amount}: {hero.player} is at full health ({hero.health}/{hero.max_health}).")
    return gained


def hurt(state: State, who: int, amount: int, why: str) -> int:
    hero = game(state).heroes[who]
    if amount <= 0 or hero.fallen:
        return 0
    before = hero.health
    hero.health = max(0, hero.health - amount)
    state.log.text(
        f"{hero.player} loses {amount} {t(state, 'health').lower()} ({why}) → {hero.health}/{hero.max_health}."
    )
    if hero.health == 0 and before > 0:
        hero.fallen = True
        state.log.text(f"{hero.player} has fallen.")
    return before - hero.health


def _spend_single(state: State, who: int, use: list[str]) -> None:
    hero = game(state).heroes[who]
    for item in use:
        for i, held in enumerate(hero.items):
            if held.card == item:
                del hero.items[i]
                state.log.text(f"{hero.player} used up {name_of(state, 'item', item)} ({t(state, 'single').lower()}).")
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
        return sum(v for _, v in self.parts)


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
            raise InputError(f"help can be called from floor {data.HELP_FROM_FLOOR} on; this is floor {g.floor}")
        if plan.helper == g.turn:
            raise InputError("the leader cannot help themselves; call another player")
        if not 0 <= plan.helper < len(g.heroes) or g.heroes[plan.helper].fallen:
            raise InputError("that player cannot help: they are not at the table or have fallen")


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
        parts.append((f"{t(state, 'level')} {hero.level}{tag}", base))
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
            source = "" if j == i else f" from {g.heroes[j].player}"
            parts.append((_spell_label(state, spell) + source + tag, spell.bonus))
    for held, item in _usable(state, i, ignores):
        if item.single and (i != g.turn or held.card not in use):
            continue  # single-use items only in their owner's own turn, when used
        if item.bonus:
            parts.append((C.title(item, lang(state)) + tag, item.bonus))
    if hero.penalty:
        parts.append((t(state, "penalty").lower() + tag, -hero.penalty))
    return parts, conditional


def standing_bonus(state: State, i: int) -> int:
    """A hero's combat bonus as things stand (no monster, no single-use item, no condition): for the screen."""
    return sum(v for _, v in hero_parts(state, i)[0])


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
    g = _phase(state, "fight", doing="fight")
    if not g.group:
        raise InputError("there is no monster on the table to fight")
    bonus = fight_bonus(state, plan)
    if roll.faces is None or len(roll.faces) != bonus.dice or not roll.expr.has_dt:
        raise InputError(f"this fight rolls {bonus.dice} Dark Tower dice")
    leader = g.current()
    who = participants(state, plan)
    gained = (roll.stars or 0) * data.ENERGY_PER_STAR
    chosen = castings(state, bonus, cast, gained)  # checked before anything changes
    if plan.helper is not None:
        state.log.text(f"{g.heroes[plan.helper].player} helps {leader.player}; {leader.player} leads and rolls.")
    numbers = roll.total - roll.modifier
    healed = heal(state, g.turn, (roll.hearts or 0) * data.HEAL_PER_HEART)
    if gained:
        leader.energy += gained
        state.log.text(f"★ ×{roll.stars}: {leader.player} has {leader.energy} energy this turn.")
    added = 0
    cast_names: list[str] = []
    for option in chosen:
        hero = g.heroes[option.hero]
        hero.energy -= option.spell.cost
        added += option.value
        cast_names.append(option.spell.name)
        state.log.text(
            f"{hero.player} casts {_spell_label(state, option.spell)}: {option.value:+d} for {option.spell.cost}★."
        )
    total = numbers + bonus.total + added
    strength = bonus.strength
    won = total > strength
    result = FightResult(total, strength, won, 0, healed, gained, cast_names, [], [])
    names = group_text(state)
    if won:
        state.log.text(f"{total} beats {strength}: {names} {'is' if len(g.group) == 1 else 'are'} beaten.")
        g.beaten += len(g.group)
        g.group = []
        outcome = "beaten"
    else:
        diff = strength - total
        result.damage = diff
        if diff == 0:
            state.log.text(f"{total} ties {strength}: the monster is not beaten and deals no damage.")
        else:
            state.log.text(f"{total} does not beat {strength}: {diff} damage to each hero in the fight.")
        for i in who:
            hurt(state, i, diff, names)
        outcome = "not beaten" + (f", {diff} damage" if diff else ", a tie")
    _spend_single(state, g.turn, plan.use)
    for i in who:
        g.heroes[i].penalty = 0
    if not won:
        takers = sum(1 for m in g.group if monster_card(state, m).takes_item)
        for _ in range(takers):
            for i in who:
                if g.heroes[i].alive and g.heroes[i].items:
                    g.owed.append(i)
                    result.owed.append(g.heroes[i].player)
    settle_owed(state)
    result.fallen = [g.heroes[i].player for i in who if g.heroes[i].fallen]
    helper = f" with {g.heroes[plan.helper].player}" if plan.helper is not None else ""
    state.log.update(
        f"turn-{g.turns}",
        f"{t(state, 'turn')} {g.turns} · {leader.player}{helper}: {t(state, 'fight')} {names} — {outcome}",
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
            why = " (the monster is immune to spells)" if bonus.immune else ""
            raise InputError(f"{spell_slug!r} is not an activated spell that can be cast in this fight{why}")
        if option in chosen:
            raise InputError(f"{option.spell.name} is cast once in a fight")
        if energy[caster] < option.spell.cost:
            raise InputError(
                f"{g.heroes[caster].player} has {energy[caster]} energy; {option.spell.name} costs {option.spell.cost}★"
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
        raise InputError(f"{g.heroes[who].player} owes no item")
    hero = g.heroes[who]
    if not 0 <= index < len(hero.items):
        raise InputError(f"{hero.player} holds {len(hero.items)} items; pick 1 to {len(hero.items)}")
    held = hero.items.pop(index)
    g.owed.remove(who)
    g.step += 1
    state.log.text(f"{hero.player} discards {name_of(state, 'item', held.card)} (a random item the monster takes).")
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
        raise InputError(f"cannot discard now: {waiting_for(state)}")
    hero = g.heroes[who]
    if not 0 <= index < len(hero.items):
        raise InputError(f"{hero.player} holds {len(hero.items)} items")
    if to is not None and (to == who or not 0 <= to < len(g.heroes) or g.heroes[to].fallen):
        raise InputError("the item goes to another living player, or to the discard pile")
    held = hero.items.pop(index)
    name = name_of(state, "item", held.card)
    if to is None:
        state.log.text(f"{hero.player} discards {name}.")
    else:
        g.heroes[to].items.append(Held(held.card, fresh=True))
        state.log.text(
            f"{hero.player} discards {name}; {g.heroes[to].player} picks it up (usable from their next turn)."
        )
    g.step += 1


def trade(state: State, a: int, item_a: int, b: int, item_b: int | None) -> None:
    """A trade at the end of a turn: received items are usable from their new owner's next turn."""
    g = _phase(state, "end", doing="trade")
    if a == b:
        raise InputError("a trade is between two players")
    if not (0 <= a < len(g.heroes) and 0 <= b < len(g.heroes)):
        raise InputError("a trade is between two players at the table")
    ha, hb = g.heroes[a], g.heroes[b]
    if ha.fallen or hb.fallen:
        raise InputError("a fallen hero cannot trade")
    if not 0 <= item_a < len(ha.items) or (item_b is not None and not 0 <= item_b < len(hb.items)):
        raise InputError("each side of a trade gives an item they hold")
    given = ha.items.pop(item_a)
    got = hb.items.pop(item_b) if item_b is not None else None
    hb.items.append(Held(given.card, fresh=True))
    if got is not None:
        ha.items.append(Held(got.card, fresh=True))
        state.log.text(
            f"{ha.player} trades {name_of(state, 'item', given.card)} for {hb.player}'s "
            f"{name_of(state, 'item', got.card)} (usable from their next turns)."
        )
    else:
        state.log.text(
            f"{ha.player} gives {name_of(state, 'item', given.card)} to {hb.player} (usable from their next turn)."
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
    g = _phase(state, "end", doing="end the turn")
    if g.owed:
        raise InputError(f"{g.heroes[g.owed[0]].player} must first discard a random item (companion dark lose)")
    extra = over_limit(state)
    if extra:
        i, cls, items = extra[0]
        names = ", ".join(name_of(state, "item", s) for s in items)
        raise InputError(
            f"{g.heroes[i].player} holds {len(items)} items of class {C.class_name(cls, lang(state))} ({names}): "
            f"discard down to {data.ITEMS_PER_CLASS} first (companion dark discard PLAYER ITEM)"
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
        raise InputError(f"cannot go up now: {waiting_for(state)}")
    if g.floor >= data.FLOORS:
        raise InputError(f"floor {data.FLOORS} is the top of the tower")
    if g.group:
        raise InputError(f"{group_text(state)} must be beaten before the heroes go up")
    if g.deck().left and not force:
        raise InputError(
            f"floor {g.floor} still has {g.deck().left} cards ({deck_text(g.deck())}); add --force to go up anyway"
        )
    g.floor += 1
    _floor_heading(state)
    for hero in g.heroes:
        if hero.fallen:
            continue
        hero.level = min(data.MAX_LEVEL, g.floor)
        new = [s for s in hero_card(state, hero).spells if s.level == hero.level]
        learnt = "; ".join(C.spell_text(s, lang(state)) for s in new)
        state.log.text(
            f"{hero.player} rises to {t(state, 'level').lower()} {hero.level}" + (f": {learnt}." if learnt else ".")
        )
    g.step += 1


def quest_done(state: State) -> None:
    g = game(state)
    if g.phase in ("setup", "over"):
        raise InputError(f"cannot finish the quest now: {waiting_for(state)}")
    if g.quest is None:
        raise InputError("this game has no quest; win by beating every monster")
    if not g.living():
        raise InputError("every hero has fallen")
    state.log.text(f"The quest is done: {name_of(state, 'quest', g.quest)}.", under=False)
    _finish(state, "won")


def settle(state: State) -> None:
    """End the game when it is decided: every hero fallen, or every monster in the tower beaten."""
    g = game(state)
    if not g.living():
        state.log.text("Every hero has fallen.", under=False)
        _finish(state, "lost")
        return
    if g.floor == data.FLOORS and not g.group and g.obstacle is None and g.deck().left == 0:
        survivors = ", ".join(g.heroes[i].player for i in g.living())
        state.log.text(f"Every monster in the tower is beaten. Standing: {survivors}.", under=False)
        _finish(state, "won")


def _finish(state: State, result: str) -> None:
    g = game(state)
    _bump(g, "over")
    state.finished = result
    state.log.text(f"The end: {result}.", under=False)


def change_health(
    state: State, who: int, delta: int | None = None, value: int | None = None, maximum: int | None = None
) -> None:
    """Health changed by a card's own text (an item that raises it, an event): by hand, within 0..max."""
    g = game(state)
    hero = g.heroes[who]
    if hero.fallen:
        raise InputError(f"{hero.player} has fallen; undo the action that felled them to take it back")
    if maximum is not None:
        if maximum < 1:
            raise InputError("the most health a hero can have is at least 1")
        hero.max_health = maximum
    new = hero.health
    if value is not None:
        new = value
    if delta is not None:
        new += delta
    hero.health = max(0, min(hero.max_health, new))
    state.log.text(f"{hero.player}: {t(state, 'health').lower()} {hero.health}/{hero.max_health}.")
    if hero.health == 0:
        hero.fallen = True
        state.log.text(f"{hero.player} has fallen.")
        settle(state)


def set_deck(state: State, floor: int, counts: tuple[int, int, int]) -> None:
    """Correct a deck's counts to what the table really has (a miscounted deck, a card's own text)."""
    g = game(state)
    if not g.decks:
        raise InputError("the decks are built when the game starts")
    if not 1 <= floor <= data.FLOORS or min(counts) < 0:
        raise InputError(f"floor 1 to {data.FLOORS}, and counts of 0 or more")
    deck = g.decks[floor - 1]
    deck.monsters, deck.obstacles, deck.items = counts
    state.log.text(f"{t(state, 'floor')} {floor} {t(state, 'deck').lower()} set to {deck_text(deck, lang(state))}.")
    g.step += 1
    if g.phase in ("draw", "end"):
        settle(state)  # an emptied top floor with no monster left is the end of the tower


def set_lang(state: State, value: str) -> None:
    if value not in ("en", "ru"):
        raise InputError(f"{value!r} is not a language; use en or ru")
    game(state).lang = value


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
        raise InputError(f"unknown Dark Tower action {op!r}")
