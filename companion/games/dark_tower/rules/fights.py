"""The Dark Tower's rules for fights: help, the heroes' bonus part by part, ★ energy and spells, the
fight's roll and what it does.

Plain Python on the state, shared by guided play and the one-shot commands: see :mod:`.lookup`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.games.dark_tower import data
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules.health import heal, hurt
from companion.games.dark_tower.rules.items import check_use, extra_dice, settle_owed, spend_single, usable_items
from companion.games.dark_tower.rules.lookup import bump, game, group_text, hero_card, lang, monster_card, require_phase
from companion.games.dark_tower.rules.turns import settle
from companion.i18n import _, ngettext

if TYPE_CHECKING:
    from companion.dice.roll import Roll
    from companion.session.state import State


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
    # Its own spells for itself first, then every living hero's spells for every hero.
    for j, target in [(i, "self"), *((k, "all") for k in g.living())]:
        for spell in spells_at_level(state, j):
            if spell.activated or spell.target != target:
                continue
            if spell.condition:
                conditional.append((j, spell))
                if C.slug(spell.name) not in conditions:
                    continue
            if j == i:
                source = tag
            elif tag:  # another hero's spell for a helper: «+1 Благословение леса (от Бориса, для Ани)»
                source = _(" from {player} ({target})").format(player=g.heroes[j].player, target=hero.player)
            else:
                source = _(" from {player}").format(player=g.heroes[j].player)
            parts.append((_spell_label(state, spell) + source, spell.bonus))
    for held, item in usable_items(state, i, ignores):
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
    check_use(state, g.turn, plan.use, ignores)
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
    g = require_phase(state, "fight", doing=_("fight"))
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
    g.last = "beaten" if won else ("tie" if total == strength else "damage")
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
    spend_single(state, g.turn, plan.use)
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
    bump(g, "end")
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
