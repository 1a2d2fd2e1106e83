"""The Dragon's Den's action steps: attacks with their odds, Ren's Shield, and the dragon's breath.

One of the action steps shared by guided play and the one-shot commands: see :mod:`.engine.steps`.
"""

from __future__ import annotations

from typing import Any

from companion.dice.expr import parse
from companion.engine.requests import RollRequest
from companion.errors import InputError
from companion.games.dragons_den import data, odds, rules
from companion.games.dragons_den.engine.common import (
    YES,
    Steps,
    cap,
    check_roll,
    den_of,
    figure,
    open_line,
    say,
    who,
    yes_no,
)
from companion.games.dragons_den.engine.cups import draw_hoard
from companion.games.dragons_den.engine.moves import turn_over_dragon
from companion.games.dragons_den.model import HIDDEN, IN, Figure
from companion.session.state import State


def attack_info(attacker: Figure, target: Figure) -> tuple[str, ...]:
    """The odds shown before an attack: this blow, and a fight to the end from here."""
    p = odds.attack_chance(attacker.health)
    lines = [
        f"{attacker.name} hits on a d6 of 1-{rules.attack_target(attacker.health)}: {odds.chance_text(p)}"
        + (" (automatic: no roll)" if rules.automatic(attacker.health) else "")
    ]
    if target.kind != "dragon" and attacker.kind != "dragon":
        from companion.sim.chart import spark

        ex = odds.exchange(attacker.health, target.health)
        lines.append(
            f"Trading blows until one falls ({attacker.health} vs {target.health} health, "
            f"{attacker.name} first): {attacker.name} wins {odds.chance_text(ex.win)}"
        )
        shares = [ex.lose] + [ex.first_left.get(h, odds.ZERO) for h in range(1, attacker.health + 1)]
        mean = sum(h * p for h, p in enumerate(shares))
        lines.append(
            f"{attacker.name}'s health at the end: slain {spark(shares)} {attacker.health} · "
            f"{float(mean):.1f} on average"
        )
    return tuple(lines)


def attack(state: State, args: dict[str, Any]) -> Steps:
    """One attack: a d6 at or under the attacker's current health takes 1 health from the target."""
    den = den_of(state)
    attacker = figure(den, str(args.get("attacker", "")))
    target = figure(den, str(args.get("target", "")))
    if attacker.kind == "dragon":
        raise InputError("the dragon attacks with its breath: companion dragon breath")
    if attacker.kind == "hero":
        rules.require_hero_turn(den, attacker)
        rules.require_free(den, attacker, "attack")
        rules.require_attack_left(den, attacker)
        if target.kind == "hero":
            raise InputError("heroes attack monsters and the dragon, not each other")
    else:
        rules.require_dragon_turn(den)
        if attacker.status != IN:
            raise InputError(f"the {attacker.name} is {attacker.status}")
        if attacker.key in den.acted:
            raise InputError(f"the {attacker.name} has already attacked (or used its special) this turn")
        if target.kind != "hero":
            raise InputError("monsters attack heroes")
    if target.status != IN:
        state_word = "hidden in the lair (reveal it first)" if target.status == HIDDEN else target.status
        raise InputError(f"{who(target)} is {state_word}")
    den.acted.append(attacker.key)
    line = open_line(state, f"{cap(who(attacker))} attacks {who(target)}")
    info = attack_info(attacker, target)
    if rules.automatic(attacker.health):
        hit = True
        say(state, f"Automatic success: {attacker.name}'s health {attacker.health} is 6 or more.")
    else:
        roll = yield check_roll("dd.attack", attacker.health, f"{attacker.name} attacks {who(target)}", info)
        hit = bool(roll.success)
    den = den_of(state)
    attacker, target = figure(den, attacker.key), figure(den, target.key)
    if attacker.status != IN or target.status != IN:
        state.log.update(line, f"{cap(who(attacker))} attacks {who(target)}: nobody left to hit")
        return
    if not hit:
        state.log.update(line, f"{cap(who(attacker))} attacks {who(target)}: miss")
        return
    harmed = yield from shielded(state, target, data.ATTACK_DAMAGE, f"the {attacker.name}'s attack")
    den = den_of(state)
    target = figure(den, target.key)
    if harmed:
        say(state, rules.change(target, -harmed))
    say(state, *rules.settle(den, [target], slayer=attacker))
    state.log.update(line, f"{cap(who(attacker))} attacks {who(target)}: hit")
    if target.kind == "dragon" and target.status == IN:
        yield from draw_hoard(state, attacker.key, 1)


def shielded(state: State, target: Figure, damage: int, source: str) -> Steps:
    """Ren may cast his Shield when harm comes his way: on 1-5 it does no harm. Returns the harm done."""
    card = data.HERO_BY_KEY.get(target.key)
    if target.kind != "hero" or card is None or "shield" not in card.abilities:
        return damage
    s = odds.shield_chance()
    cost = data.ABILITY_COST
    answer = yield yes_no(
        "dd.shield",
        f"{target.name} is hit by {source} ({damage} health). Cast the Shield Spell?",
        f"Cast Shield: lose {cost} if it holds (1-{data.SHIELD_SAVES_UP_TO}: {odds.chance_text(s)}), "
        f"{cost + damage} if it fails",
        f"No Shield: lose {damage}",
        info=(f"{target.name} has {target.health} health.",),
    )
    den = den_of(state)
    target = figure(den, target.key)
    if answer != YES or target.status != IN:
        return damage
    say(state, "Shield Spell: " + rules.pay(target, "shield"))
    shield = parse(f"1d6<={data.SHIELD_SAVES_UP_TO}")
    roll = yield RollRequest("dd.shield.roll", shield, f"{target.name}'s Shield Spell")
    if roll.success:
        say(state, f"The Shield holds: {source} does {target.name} no harm.")
        return 0
    say(state, "The Shield fails.")
    return damage


def breath(state: State, args: dict[str, Any]) -> Steps:
    """Every hero in the dragon's room: greater breath 2 health (1 on a save), lesser 1; costs the dragon 1."""
    den = den_of(state)
    rules.require_dragon_turn(den)
    dragon = den.dragon
    if dragon is None or dragon.status not in (IN, HIDDEN):
        raise InputError("there is no dragon left to breathe")
    if den.breathed:
        raise InputError("the dragon has already breathed this turn")
    keys = [str(k) for k in args.get("targets", [])]
    if not keys:
        raise InputError("name every hero in the dragon's room (the breath reaches all of them)")
    targets = [figure(den, k) for k in keys]
    for t in targets:
        if t.kind != "hero" or t.status != IN:
            raise InputError(f"{t.name} is not a hero in the den")
    if len(set(keys)) != len(keys):
        raise InputError("name each hero once")
    # A hero cowering under the dragon (Sneak) is out of the breath's reach this turn: he is left out,
    # and the breath goes on to the others (only when it reaches no one is it refused).
    cowering = [t.name for t in targets if t.key in den.sneaking]
    keys = [k for k, t in zip(keys, targets, strict=True) if t.key not in den.sneaking]
    if not keys:
        raise InputError(
            f"{' and '.join(cowering)} {'is' if len(cowering) == 1 else 'are'} cowering under the dragon (Sneak): "
            "its breath reaches no one named"
        )
    if dragon.status == HIDDEN:
        turn_over_dragon(state)
    note = rules.dragon_note(den)
    greater = note.breath == "greater"
    den.breathed = True
    line = open_line(state, f"The {note.name} breathes: {note.breath_title}")
    say(state, rules.pay(dragon, "breath", data.BREATH_COST))
    for name in cowering:
        say(state, f"{name} cowers under the dragon (Sneak): the breath passes over him.")
    for key in keys:
        den = den_of(state)
        hero = figure(den, key)
        if hero.status != IN:
            continue
        loss = data.LESSER_BREATH_DAMAGE
        if greater:
            if rules.automatic(hero.health):
                say(state, f"{hero.name} saves automatically (health {hero.health} is 6 or more).")
                loss = data.GREATER_BREATH_SAVED
            else:
                p = odds.breath_save_chance(hero.health)
                roll = yield check_roll(
                    f"dd.save.{hero.key}",
                    hero.health,
                    f"{hero.name}'s save against the {note.breath_name.lower()}",
                    (
                        f"{hero.name} saves on a d6 of 1-{rules.attack_target(hero.health)}: {odds.chance_text(p)}; "
                        f"a save halves the harm to {data.GREATER_BREATH_SAVED}",
                    ),
                )
                loss = data.GREATER_BREATH_SAVED if roll.success else data.GREATER_BREATH_DAMAGE
        harm = loss
        if rules.SHIELD_ATTACKS_ONLY not in state.meta.variants:
            harm = yield from shielded(state, hero, loss, "the breath")
        den = den_of(state)
        hero = figure(den, key)
        if harm:
            say(state, rules.change(hero, -harm))
        say(state, *rules.settle(den, [hero]))
    den = den_of(state)
    say(state, *rules.settle(den, [figure(den, "dragon")]))
    state.log.update(line, f"The {note.name} breathes on " + ", ".join(figure(den, k).name for k in keys))
