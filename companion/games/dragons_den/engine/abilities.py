"""The Dragon's Den's action steps: the heroes' special abilities and the monsters' specials.

One of the action steps shared by guided play and the one-shot commands: see :mod:`.engine.steps`.
"""

from __future__ import annotations

from typing import Any

from companion.dice.expr import parse
from companion.engine.requests import RollRequest
from companion.errors import InputError
from companion.games.dragons_den import data, rules
from companion.games.dragons_den.engine.common import Steps, den_of, figure, open_line, say, who
from companion.games.dragons_den.engine.cups import draw_hoard
from companion.games.dragons_den.model import HIDDEN, IN, Den, Figure
from companion.i18n import ngettext
from companion.session.state import State


def _foe(den: Den, args: dict[str, Any], *, dragon_only: bool = False, monsters_only: bool = False) -> Figure:
    key = args.get("target")
    if not key:
        raise InputError("name the target (a monster, or the dragon)")
    target = figure(den, str(key))
    if target.kind == "hero":
        raise InputError(f"{target.name} is a hero; this works on monsters and the dragon")
    if dragon_only and target.kind != "dragon":
        raise InputError("it works only on the dragon (monsters are not affected)")
    if monsters_only and target.kind != "monster":
        raise InputError("it works only on monsters")
    if target.status != IN:
        state_word = "hidden in the lair (reveal it first)" if target.status == HIDDEN else target.status
        raise InputError(f"{who(target)} is {state_word}")
    return target


def ability(state: State, args: dict[str, Any]) -> Steps:
    """A hero's special ability: pay 1 health, then its effect (see :data:`data.ABILITIES`)."""
    den = den_of(state)
    hero = figure(den, str(args.get("hero", "")))
    key = str(args.get("ability", "")).lower()
    rules.require_hero_turn(den, hero)
    spec = rules.require_ability(hero, key)
    if key == "shield":
        raise InputError("the Shield Spell is cast when Ren is hit (companion dragon attack MONSTER ren --shield)")
    if key == "haste":
        raise InputError("the Haste Spell is cast as Cara moves (companion dragon move cara --haste)")
    rules.require_free(den, hero, f"use {spec.name}")
    rules.require_attack_left(den, hero, f"use {spec.name}")
    target: Figure | None = None
    treasure = ""
    if key == "axe":
        target = _foe(den, args, dragon_only=True)
    elif key in ("deathblow", "wounds", "missile"):
        target = _foe(den, args)
    elif key == "heal":
        target = figure(den, str(args.get("target") or hero.key))
        if target.kind != "hero" or target.status != IN:
            raise InputError(f"{target.name} is not a hero in the den")
    elif key in ("trickster", "charm"):
        target = _foe(den, args)
        if target.kind == "monster":
            held = rules.monster_treasures(den, target)
            if not held:
                raise InputError(
                    f"the {target.name} has no treasure to give: no treasure chit lies in room {target.room}"
                )
            treasure = str(args.get("chit") or held[0]).upper()
            if treasure not in held:
                raise InputError(f"the {target.name}'s treasure is {' or '.join(held)}, not {treasure}")
        elif not den.hoard:
            raise InputError("the hoard is empty")
    elif key == "sneak":
        target = _foe(den, args, dragon_only=True)
    assert target is not None
    uses = rules.uses_left(hero, key)
    den.acted.append(hero.key)
    line = open_line(state, f"{hero.name}: {spec.name} on {who(target)}")
    left = ngettext("; {n} use left", "; {n} uses left", uses - 1).format(n=uses - 1) if uses is not None else ""
    say(state, rules.pay(hero, key) + left)
    summary = ""
    if key in ("axe", "missile"):
        roll = yield RollRequest("dd.damage", parse("1d6"), f"{spec.name}: health {who(target)} loses")
        den = den_of(state)
        target, hero = figure(den, target.key), figure(den, hero.key)
        summary = yield from _wound(state, hero, target, roll.total)
    elif key == "deathblow":
        summary = yield from _wound(state, hero, target, data.DEATHBLOW_DAMAGE)
    elif key == "wounds":
        summary = yield from _wound(state, hero, target, data.CAUSE_WOUNDS_DAMAGE)
    elif key == "heal":
        say(state, rules.change(target, data.HEAL_AMOUNT))
        summary = f"{target.name} is healed"
    elif key in ("trickster", "charm") and target.kind == "monster":
        say(state, *rules.give(den, hero, treasure, state.data))
        summary = f"the {target.name} gives up its treasure"
    elif key in ("trickster", "charm"):
        count = data.TRICKSTER_DRAGON_TREASURES if key == "trickster" else 1
        given = min(count, len(den.hoard))
        summary = ngettext("the dragon gives up {n} treasure", "the dragon gives up {n} treasures", given).format(
            n=given
        )
        yield from draw_hoard(state, hero.key, count)
    elif key == "sneak":
        den.sneaking.append(hero.key)
        summary = f"{hero.name} cowers under the dragon: its breath cannot touch him this dragon turn"
        yield from draw_hoard(state, hero.key, 1)
    den = den_of(state)
    say(state, *rules.settle(den, [figure(den, hero.key)]))
    state.log.update(line, f"{hero.name}: {spec.name} on {who(target)}: {summary}")


def _wound(state: State, hero: Figure, target: Figure, amount: int) -> Steps:
    """Damage from an ability that counts as a successful attack (on the dragon: a chit from the hoard)."""
    den = den_of(state)
    if target.status != IN:
        return f"{who(target)} is already {target.status}"
    say(state, rules.change(target, -amount))
    say(state, *rules.settle(den, [target], slayer=hero))
    if target.kind == "dragon" and target.status == IN:
        yield from draw_hoard(state, hero.key, 1)
    return f"{who(target)} loses {amount}"


def special(state: State, args: dict[str, Any]) -> Steps:
    """The carrion crawler's Paralysis, the troll's Regenerate, the wraith's Cause Wounds."""
    den = den_of(state)
    monster = figure(den, str(args.get("monster", "")))
    rules.require_dragon_turn(den)
    if monster.kind != "monster" or monster.status != IN:
        raise InputError(f"{who(monster)} is not a monster on the board")
    kind = data.MONSTER_BY_CHIT[monster.number].special
    if not kind:
        raise InputError(f"the {monster.name} has no special ability (only the carrion crawler, troll and wraith)")
    if monster.key in den.acted:
        raise InputError(f"the {monster.name} has already attacked (or used its special) this turn")
    name = data.SPECIALS[kind][0]
    targets: list[Figure] = []
    if kind == "paralysis":
        target = figure(den, str(args.get("target", "")))
        if target.kind != "hero" or target.status != IN:
            raise InputError("the carrion crawler paralyses a hero in the den next to it")
        targets = [target]
    elif kind == "wounds":
        keys = [str(k) for k in args.get("targets", [])]
        if not keys:
            raise InputError("name every hero, monster or dragon next to the wraith")
        targets = [figure(den, k) for k in keys]
        for t in targets:
            if t.key == monster.key or t.status != IN:
                raise InputError(f"{who(t)} cannot be wounded by the wraith")
    den.acted.append(monster.key)
    line = open_line(state, f"The {monster.name}: {name}")
    say(state, rules.pay(monster, kind))
    if kind == "paralysis":
        targets[0].paralysed = den.round + 1
        summary = f"{targets[0].name} may not advance, run or attack next turn"
        say(state, summary + ".")
    elif kind == "regenerate":
        say(state, rules.change(monster, data.REGENERATE_AMOUNT, cap=data.REGENERATE_CAP))
        summary = f"back to {monster.health}"
    else:
        for t in targets:
            say(state, rules.change(t, -data.WRAITH_WOUNDS_DAMAGE))
        names = [who(t) for t in targets]
        damage = data.WRAITH_WOUNDS_DAMAGE
        summary = (
            f"{names[0]} loses {damage}"
            if len(names) == 1
            else f"{', '.join(names[:-1])} and {names[-1]} lose {damage} each"
        )
    say(state, *rules.settle(den, [*targets, monster]))
    state.log.update(line, f"The {monster.name}: {name}: {summary}")
    return
    yield  # a generator like every step
