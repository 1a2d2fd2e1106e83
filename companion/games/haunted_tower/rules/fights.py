"""The Haunted Tower's fights: initiative, the hero's attack or run, the monster's attack, wounds and
falls, the table roll after a special hit, and the item a monster takes.

One implementation of the rules for guided play and the one-shot commands: see :mod:`.lookup`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.games.haunted_tower import data as D
from companion.games.haunted_tower.data.monsters import (
    CRAWLER_PENALTY,
    EFFECT_DAMAGE,
    EFFECT_TEXT,
    MONSTERS,
    SPECTER,
    VAMPIRE,
    Monster,
)
from companion.games.haunted_tower.model import Chit, Fight, Hero, Item
from companion.games.haunted_tower.rules.heroes import check_ready
from companion.games.haunted_tower.rules.lookup import (
    RUN_FAIL_TURN,
    end_fight,
    fight_title,
    fighting,
    find_hero,
    find_item,
    game,
    living,
    norm,
    right_of,
)
from companion.games.haunted_tower.rules.numbers import armor_class, attack_number, attack_parts, damage_of, total
from companion.games.haunted_tower.rules.rolls import phase_error, pick_options, weapon_named
from companion.games.haunted_tower.rules.score import finish
from companion.i18n import possessive

if TYPE_CHECKING:
    from companion.session.state import State


def start_fight(state: State, hero_name: str, monster_key: str, back: str) -> Fight:
    g = game(state)
    check_ready(g)
    hero = find_hero(g, hero_name)
    monster = MONSTERS[monster_key]
    if g.fight is not None:
        other = MONSTERS[g.fight.monster].name
        raise InputError(f"a fight is in progress ({g.fight.hero} vs the {other}); finish it first")
    if back not in D.BACKS:
        raise InputError(f"a chit has a blue or a purple back, not {back!r}")
    if monster.key == SPECTER and back != "purple":
        raise InputError("the Specter of Sir Jameson's chit is a purple chit")
    if monster.key == SPECTER and g.specter_dead:
        raise InputError("the Specter of Sir Jameson is already dead")
    if monster.key == SPECTER and hero.tower != D.SPECTER_TOWER:
        raise InputError(
            f"the Specter of Sir Jameson's chit lies only in Tower {D.SPECTER_TOWER}'s rooms; "
            f"{hero.name} is on Tower {hero.tower}"
        )
    g.phase = "play"
    g.fights += 1
    # The specter is at full strength (HP 8) at every encounter: every fight starts at the listing's HP.
    f = Fight(n=g.fights, hero=hero.name, monster=monster.key, back=back, hp=monster.hp)
    g.fight = f
    state.log.line(f.key, fight_title(f, monster))
    special = f"; {monster.special}" if monster.special else ""
    state.log.text(f"The {monster.name}: HP {monster.hp}, Att {monster.att}, AC {monster.ac}{special}.")
    if monster.key == SPECTER:
        g.specter_seen = True
    if monster.standups == 0:
        state.log.text(f"The box has no {monster.name} stand-up; use a stand-in.")
    _new_round(state, f, monster, first=True)
    return f


def _new_round(state: State, f: Fight, monster: Monster, *, first: bool = False) -> None:
    if not first:
        f.round += 1
    f.order = []
    f.acted = []
    f.extra = False
    if monster.initiative == "last":
        f.order = ["hero", "monster"]
        f.phase = "hero"
        state.log.text(f"Round {f.round}: the {monster.name} always loses the initiative; {f.hero} attacks first.")
    else:
        f.phase = "initiative"


def _fight_at(state: State, phase: str, step: str) -> tuple[Fight, Hero, Monster]:
    """The fight in progress, its hero and its monster, when it is at ``phase``; else the one-line error
    saying what comes next. ``step`` names what was asked, with ``{hero}`` and ``{monster}`` in it."""
    f, hero, monster = fighting(state)
    if f.phase != phase:
        raise phase_error(f, hero, monster, step.format(hero=hero.name, monster=monster.name))
    return f, hero, monster


def _check_face(face: int, die: int) -> None:
    if not 1 <= face <= die:
        raise InputError(f"{face} is not a face of 1d{die}")


def initiative(state: State, hero_face: int, monster_face: int) -> str | None:
    """Both roll 1d6 (the pit viper adds 1); the higher attacks first; a tie rolls again.

    Returns ``hero`` or ``monster``, or None after a tie.
    """
    f, hero, monster = _fight_at(state, "initiative", "roll initiative")
    for face in (hero_face, monster_face):
        _check_face(face, D.D6)
    m = monster_face + monster.initiative_bonus
    if hero_face == m:
        state.log.text(f"Initiative tied at {m}: roll again.")
        return None
    first = "hero" if hero_face > m else "monster"
    f.order = [first, "monster" if first == "hero" else "hero"]
    f.phase = first
    who = hero.name if first == "hero" else f"the {monster.name}"
    state.log.text(f"{who[0].upper() + who[1:]} attacks first ({max(hero_face, m)} to {min(hero_face, m)}).")
    return first


def _after(state: State, f: Fight, monster: Monster, who: str) -> None:
    """A side has acted: the other side's turn, or a new round."""
    game_ = game(state)
    if game_.fight is not f:
        return  # the fight ended
    if who not in f.acted:
        f.acted.append(who)
    if f.extra and who == "monster":
        _new_round(state, f, monster)
        return
    other = "monster" if who == "hero" else "hero"
    if other not in f.acted:
        f.phase = other
    else:
        _new_round(state, f, monster)


def hero_attack(state: State, weapon: str, face: int) -> bool:
    """The hero's attack: 1d6 + attack number against the monster's AC; returns True on a hit."""
    f, hero, monster = _fight_at(state, "hero", "let {hero} attack")
    item = weapon_named(hero, weapon)
    _check_face(face, D.D6)
    variants = state.meta.variants
    parts = attack_parts(hero, monster, item, variants, slowed=f.slowed)
    score = face + total(parts)
    hit = score >= monster.ac
    amount, why_not = damage_of(hero, monster, item, variants)
    f.slowed = False
    if item is not None and item.left is not None:
        item.left -= 1
        if item.left <= 0:
            hero.items.remove(item)
            state.log.text(f"{item.name} is used for the last time: removed from the game.")
    if not hit:
        state.log.text(f"{hero.name} misses ({score} against AC {monster.ac}).")
        _after(state, f, monster, "hero")
        return False
    if amount <= 0:
        state.log.text(f"{hero.name} hits, but does no damage: {why_not or 'its bonuses leave no damage'}.")
        _after(state, f, monster, "hero")
        return True
    f.hp -= amount
    f.damaged = True
    if monster.key == SPECTER and not hero.specter_damaged:
        hero.specter_damaged = True
        state.log.text(f"{hero.name} has damaged the specter (+{D.POINTS['specter_damaged']} at the end).")
    state.log.text(f"{hero.name} hits for {amount}: the {monster.name} HP {max(0, f.hp)}/{monster.hp}.")
    if f.hp <= 0:
        _kill(state, f, hero, monster, item)
        return True
    _after(state, f, monster, "hero")
    return True


def _kill(state: State, f: Fight, hero: Hero, monster: Monster, item: Item | None) -> None:
    g = game(state)
    hero.standups.append(monster.key)
    hero.chits.append(Chit(monster.key, f.back))
    g.kills[monster.key] = g.kills.get(monster.key, 0) + 1
    extra = ""
    if monster.key == VAMPIRE and item is not None and "stake" in item.hits:
        hero.stake = True
        extra = f" with the stake (+{D.POINTS['stake']} at the end)"
    state.log.text(f"{hero.name} kills the {monster.name}{extra} and keeps its stand-up and its {f.back} chit.")
    end_fight(state, f, monster, f"{hero.name} kills it in round {f.round}")
    if monster.key == SPECTER:
        hero.specter_killed = True
        g.specter_dead = True
        finish(state, f"{hero.name} killed the Specter of Sir Jameson")


def run_away(state: State, face: int) -> bool:
    """Instead of attacking, 1d10 at or above the monster's attack number; returns True on escape."""
    f, hero, monster = _fight_at(state, "hero", "let {hero} run")
    _check_face(face, D.D10)
    if face >= monster.att:
        if monster.key == SPECTER:
            state.log.text(
                f"{hero.name} gets away and backs up {D.SPECTER_BACK_OFF} spaces the way they came; "
                "the specter stays where it was (at full HP 8 next time)."
            )
            end_fight(state, f, monster, f"{hero.name} ran away in round {f.round}; the specter stays")
        else:
            state.log.text(f"{hero.name} gets away: the {monster.name} and its chit are removed from the board.")
            end_fight(state, f, monster, f"{hero.name} ran away in round {f.round}")
        return True
    if "monster" in f.acted and RUN_FAIL_TURN not in state.meta.variants:
        # The monster already attacked this round: the failed run gives it one more attack now.
        state.log.text(f"{hero.name} does not get away: the {monster.name} attacks again at once.")
        f.acted.append("hero")
        f.extra = True
        f.phase = "monster"
        return False
    if "monster" in f.acted:  # run-fail-turn: the run only cost the hero's attack
        state.log.text(
            f"{hero.name} does not get away; the {monster.name} has attacked this round, so the next round "
            f"starts (variant {RUN_FAIL_TURN}: it attacks on its next turn)."
        )
    else:
        state.log.text(f"{hero.name} does not get away: the {monster.name} attacks (its turn of the round).")
    _after(state, f, monster, "hero")
    return False


def monster_attack(state: State, face: int) -> bool:
    """The monster's attack: 1d6 + its attack number against the hero's AC; returns True on a hit."""
    f, hero, monster = _fight_at(state, "monster", "let the {monster} attack")
    _check_face(face, D.D6)
    ac = armor_class(hero, monster, state.meta.variants)
    score = face + monster.att
    if score < ac:
        state.log.text(f"The {monster.name} misses ({score} against AC {ac}).")
        _after(state, f, monster, "monster")
        return False
    kind = monster.on_hit
    if kind == "table":
        f.phase = "table"
        state.log.text(f"The {monster.name} hits ({score} against AC {ac}): roll 1d10 for its effect.")
        return True
    if kind == "steal":
        if not hero.items:
            state.log.text(f"The {monster.name} hits {hero.name}, who has no magic items left: it goes away.")
            end_fight(state, f, monster, "the robber fly went away")
            return True
        f.phase, f.pick = "pick", "steal"
        state.log.text(f"The {monster.name} hits: no damage, but it takes one of {possessive(hero.name)} magic items.")
        return True
    if kind == "rust":
        metal = pick_options(hero, "rust")
        if not metal:
            state.log.text(f"The {monster.name} hits: no damage, and {hero.name} has no metal item for it to eat.")
            _after(state, f, monster, "monster")
            return True
        f.phase, f.pick = "pick", "rust"
        state.log.text(f"The {monster.name} hits: no damage, but it eats one of {possessive(hero.name)} metal items.")
        return True
    state.log.text(f"The {monster.name} hits ({score} against AC {ac}).")
    if kind in ("drain", "double-drain"):
        _drain(state, f, hero, monster)
    if not _wound(state, hero, EFFECT_DAMAGE[kind]):
        _after(state, f, monster, "monster")
    return True


def _drain(state: State, f: Fight, hero: Hero, monster: Monster) -> None:
    if f.drained:
        state.log.text(f"(The {monster.name} has already given {hero.name} its one −1 chit.)")
        return
    f.drained = True
    hero.minus.append(f"energy drain: {monster.name}")
    state.log.text(f"Energy drain: {hero.name} takes a green −1 chit (Att {attack_number(hero)}).")


def _wound(state: State, hero: Hero, amount: int) -> bool:
    """Take ``amount`` HP off the hero; returns True when the hero falls (and the fight ended)."""
    hero.hp -= amount
    state.log.text(f"{hero.name} loses {amount} HP: HP {max(0, hero.hp)}/{hero.max_hp}.")
    if hero.hp > 0:
        return False
    fall(state, hero)
    return True


def fall(state: State, hero: Hero) -> None:
    """The hero's HP reached zero: the first time −1 attack and back to the doors; the second, out."""
    g = game(state)
    hero.deaths += 1
    if hero.deaths >= D.DEATHS_ALLOWED:
        hero.out = True
        hero.hp = 0
        hero.held_round = None
        state.log.text(f"{possessive(hero.name)} HP reach zero a second time: {hero.name} is dead and out of the game.")
    else:
        hero.minus.append("death")
        hero.hp = hero.max_hp
        hero.tower = 1
        hero.held_round = None
        state.log.text(
            f"{possessive(hero.name)} HP reach zero: −1 attack (a green −1 chit), HP restored to {hero.max_hp}; "
            f"{hero.name} is placed outside the tower and re-enters through the front doors."
        )
    f = g.fight
    if f is not None and norm(f.hero) == norm(hero.name):
        m = MONSTERS[f.monster]
        if m.key == SPECTER:
            state.log.text("The specter stays where it is.")
            end_fight(state, f, m, f"{hero.name} fell in round {f.round}; the specter stays")
        else:
            state.log.text(f"The {m.name}'s stand-up is removed from the board.")
            end_fight(state, f, m, f"{hero.name} fell in round {f.round}")
    if not living(g) and g.phase != "over":
        finish(state, "every hero is out of the game")


def table_roll(state: State, face: int) -> str:
    """The 1d10 after a hit of the basilisk, black widow, carrion crawler, ghoul or pit viper."""
    f, hero, monster = _fight_at(state, "table", "roll the hit's 1d10")
    _check_face(face, D.D10)
    effect = monster.table_effect(face)
    state.log.text(f"{face}: {EFFECT_TEXT[effect]}.")
    if effect == "stone":
        hero.hp = 0
        fall(state, hero)
        return effect
    if effect == "slow":
        f.slowed = True
    if effect == "held":
        hero.held_round = game(state).round
    if not _wound(state, hero, EFFECT_DAMAGE[effect]):
        if effect == "slow":
            state.log.text(f"{possessive(hero.name)} next attack roll on the {monster.name} is at {CRAWLER_PENALTY}.")
        if effect == "held":
            state.log.text(f"{hero.name} cannot move on the next turn (the fight goes on as usual).")
        _after(state, f, monster, "monster")
    return effect


def pick(state: State, name: str) -> Item:
    """The robber fly's or the rust monster's player takes one of the hero's items."""
    f, hero, monster = _fight_at(state, "pick", "take an item")
    item = find_item(hero, name)
    if item not in pick_options(hero, f.pick):
        raise InputError(f"the rust monster eats metal items only; {item.name} is not metal")
    hero.items.remove(item)
    if f.pick == "rust":
        state.log.text(f"The {monster.name} eats {item.name}: removed from the game.")
    else:
        right = right_of(game(state), hero)
        who = f"{possessive(right.name)} player" if right else "the player on the right"
        state.log.text(f"The {monster.name} takes {item.name}: {who} moves it 10 squares away.")
    f.pick = ""
    _after(state, f, monster, "monster")
    return item
