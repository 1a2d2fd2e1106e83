"""The Haunted Tower's rules: every step of play as a plain function of the session state.

The guided menu (``engine.py``) and the one-shot commands (``cli.py`` through ``events.py``) both
call these functions, so there is one implementation of the rules. A function here:

- takes the dice as faces already rolled (never rolls, never prints, never reads a clock);
- checks everything first and raises :class:`~companion.errors.InputError` before changing anything;
- changes ``state.game`` and writes what happened to ``state.log``.

A fight is a small state machine (:class:`~companion.games.haunted_tower.model.Fight`): its
``phase`` names the next step, :func:`need` says what that step asks for (a roll, a decision, an
item), and one function applies each step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.dice.expr import Expr, Term
from companion.dice.faces import plain
from companion.engine.requests import RollRequest
from companion.errors import InputError
from companion.games.haunted_tower import data as D
from companion.games.haunted_tower.model import Card, Chit, Fight, HauntedTower, Hero, Item
from companion.games.haunted_tower.monsters import (
    CRAWLER_PENALTY,
    EFFECT_DAMAGE,
    EFFECT_TEXT,
    HITS,
    MONSTERS,
    SPECTER,
    VAMPIRE,
    Monster,
)

if TYPE_CHECKING:
    from companion.session.state import State

#: Variant names (see ``__init__.VARIANTS`` and docs/rules/haunted-tower.md).
RUN_FAIL_TURN = D.RUN_FAIL_TURN
SPECTER_UNDEAD = D.SPECTER_UNDEAD
DEAD_SCORE = D.DEAD_SCORE

D6 = plain(D.D6)
D10 = plain(D.D10)


def game(state: State) -> HauntedTower:
    return state.game


# ---- finding things ----------------------------------------------------------------------------


def _norm(text: str) -> str:
    return " ".join(text.strip().lower().split())


def find_hero(g: HauntedTower, text: str, *, living: bool = True) -> Hero:
    """A hero by name, or by an unambiguous start of it (``ar`` for Aria)."""
    t = _norm(text)
    pool = [h for h in g.heroes if not (living and h.out)]
    exact = [h for h in pool if _norm(h.name) == t]
    matches = exact or ([h for h in pool if _norm(h.name).startswith(t)] if t else [])
    if len(matches) == 1:
        return matches[0]
    names = ", ".join(h.name for h in pool) or "none yet"
    if matches:
        raise InputError(f"{text!r} could be {', '.join(h.name for h in matches)}; say which")
    gone = [h for h in g.heroes if h.out and _norm(h.name) == t]
    if gone:
        raise InputError(f"{gone[0].name} is out of the game (died twice)")
    raise InputError(f"no hero {text!r} in this game; heroes: {names}")


def find_item(hero: Hero, text: str) -> Item:
    """An item the hero holds by its name, the start of its name, or the start of a word in it
    (``stake`` for the Wooden stake)."""
    t = _norm(text)
    exact = [i for i in hero.items if _norm(i.name) == t]
    matches = exact or ([i for i in hero.items if _norm(i.name).startswith(t)] if t else [])
    if not matches and t:
        matches = [i for i in hero.items if any(w.startswith(t) for w in _norm(i.name).split())]
    if len(matches) >= 1 and len({m.name for m in matches}) == 1:
        return matches[0]
    held = ", ".join(i.name for i in hero.items) or "nothing"
    if matches:
        raise InputError(f"{text!r} could be {', '.join(i.name for i in matches)}; say which")
    raise InputError(f"{hero.name} holds no item {text!r}; {hero.name} holds: {held}")


def living(g: HauntedTower) -> list[Hero]:
    return [h for h in g.heroes if not h.out]


def right_of(g: HauntedTower, hero: Hero) -> Hero | None:
    """The hero on this hero's right: the one before it in the clockwise seat order.

    "Any monster attacks against a hero are handled by the player to his or her right."
    """
    seats = [h for h in g.heroes if not h.out or h is hero]
    if len(seats) < 2:
        return None
    return seats[(seats.index(hero) - 1) % len(seats)]


def fighting(state: State) -> tuple[Fight, Hero, Monster]:
    """The fight in progress, its hero and its monster; InputError when there is none."""
    g = game(state)
    if g.fight is None:
        raise InputError("no fight is in progress; start one with: companion haunted fight HERO MONSTER")
    f = g.fight
    return f, find_hero(g, f.hero, living=False), MONSTERS[f.monster]


# ---- the numbers of a fight --------------------------------------------------------------------


def is_undead(monster: Monster, variants: list[str]) -> bool:
    return monster.undead or (monster.key == SPECTER and SPECTER_UNDEAD in variants)


def _bonus_applies(hero: Hero, monster: Monster | None, variants: list[str]) -> bool:
    if hero.card.bonus.vs == "all":
        return True
    return monster is not None and is_undead(monster, variants)


def _counts(item: Item, monster: Monster | None) -> bool:
    """False for a metal item's bonuses against the rust monster."""
    return not (item.metal and monster is not None and monster.on_hit == "rust")


def attack_means(hero: Hero) -> list[Item]:
    """The items the hero can attack with now (one magical weapon at a time, uses left)."""
    return [i for i in hero.items if i.use == "attack" and (i.left is None or i.left > 0)]


def attack_parts(
    hero: Hero, monster: Monster | None, weapon: Item | None, variants: list[str], *, slowed: bool = False
) -> tuple[tuple[str, int], ...]:
    """The labelled parts of the hero's attack number: card, −1 chits, items, ability, venom."""
    parts: list[tuple[str, int]] = [("Att", hero.card.attack)]
    if hero.minus:
        parts.append(("energy drain", -len(hero.minus)))  # its −1 chits: "+2 Att −1 energy drain"
    for item in hero.items:
        if item.use == "worn" and item.attack and _counts(item, monster):
            parts.append((item.name, item.attack))
    if weapon is not None and weapon.attack and _counts(weapon, monster):
        parts.append((weapon.name, weapon.attack))
    if hero.card.bonus.attack and _bonus_applies(hero, monster, variants):
        parts.append(("ability", hero.card.bonus.attack))
    if slowed:
        parts.append(("venom", CRAWLER_PENALTY))
    return tuple(parts)


def ac_parts(hero: Hero, monster: Monster | None, variants: list[str]) -> tuple[tuple[str, int], ...]:
    """The labelled parts of the hero's armor class: card, armor, shield, other items, ability."""
    parts: list[tuple[str, int]] = [("AC", hero.card.ac)]
    for item in hero.items:
        if item.ac and item.use != "spend" and _counts(item, monster):
            parts.append((item.name, item.ac))
    if hero.card.bonus.ac and _bonus_applies(hero, monster, variants):
        parts.append(("ability", hero.card.bonus.ac))
    return tuple(parts)


def total(parts: tuple[tuple[str, int], ...]) -> int:
    return sum(v for _, v in parts)


def attack_number(hero: Hero, monster: Monster | None = None, variants: list[str] | None = None) -> int:
    """The hero's attack number without a weapon (as the health table shows it)."""
    return total(attack_parts(hero, monster, None, variants or []))


def armor_class(hero: Hero, monster: Monster | None = None, variants: list[str] | None = None) -> int:
    return total(ac_parts(hero, monster, variants or []))


def damage_of(hero: Hero, monster: Monster, weapon: Item | None, variants: list[str]) -> tuple[int, str]:
    """HP one hit of the hero takes off the monster, and why it is 0 when it is.

    Normal damage is 1 plus the damage bonuses of the weapon used, of worn items and of the ability;
    a monster that only some attacks can damage takes 0 from any other attack.
    """
    hits = set(hero.card.bonus.hits) if _bonus_applies(hero, monster, variants) else set()
    if weapon is not None:
        hits |= set(weapon.hits)
    if monster.hurt_by is not None and not hits & monster.hurt_by:
        return 0, f"only {monster.hurt_text()} can damage the {monster.name}"
    amount = D.NORMAL_DAMAGE
    if weapon is not None and _counts(weapon, monster):
        amount += weapon.damage
    for item in hero.items:
        if item.use == "worn" and item.damage and _counts(item, monster):
            amount += item.damage
    if _bonus_applies(hero, monster, variants):
        amount += hero.card.bonus.damage
    return max(0, amount), ""


# ---- rolls, as the engine asks for them and the one-shot commands roll them --------------------


def check(sides_die: int, target: int) -> Expr:
    """``1d6>=AC`` or ``1d10>=Att``: a roll that passes at ``target`` or more."""
    return Expr("sum", (Term(1, plain(sides_die)),), op=">=", target=target)


def bare(sides_die: int) -> Expr:
    return Expr("sum", (Term(1, plain(sides_die)),))


@dataclass(frozen=True, slots=True)
class RollSpec:
    """One roll a step needs: what the engine asks (as a RollRequest) and a one-shot command rolls."""

    key: str
    expr: Expr
    why: str
    parts: tuple[tuple[str, int], ...] = ()

    @property
    def mod(self) -> int:
        return total(self.parts)

    def request(self, info: tuple[str, ...] = ()) -> RollRequest:
        return RollRequest(self.key, self.expr, self.why, self.mod, self.parts, info)


def _weapon(hero: Hero, name: str) -> Item | None:
    if not name:
        return None
    item = find_item(hero, name)
    if item.use != "attack":
        raise InputError(f"{item.name} is not used to attack ({item.kind}); its bonuses count by themselves")
    if item.left is not None and item.left <= 0:
        raise InputError(f"{item.name} has no uses left")
    return item


def initiative_specs(state: State) -> tuple[RollSpec, RollSpec]:
    f, hero, monster = fighting(state)
    bonus = monster.initiative_bonus
    return (
        RollSpec("fight.initiative.hero", bare(D.D6), f"Round {f.round} initiative: {hero.name}"),
        RollSpec(
            "fight.initiative.monster",
            bare(D.D6),
            f"Round {f.round} initiative: {monster.name}",
            ((monster.name, bonus),) if bonus else (),
        ),
    )


def attack_spec(state: State, weapon: str = "") -> RollSpec:
    f, hero, monster = fighting(state)
    item = _weapon(hero, weapon)
    parts = attack_parts(hero, monster, item, state.meta.variants, slowed=f.slowed)
    with_ = f" with {item.name}" if item else ""
    return RollSpec(
        "fight.hero-attack", check(D.D6, monster.ac), f"{hero.name} attacks the {monster.name}{with_}", parts
    )


def monster_spec(state: State) -> RollSpec:
    _, hero, monster = fighting(state)
    ac = armor_class(hero, monster, state.meta.variants)
    return RollSpec(
        "fight.monster-attack", check(D.D6, ac), f"The {monster.name} attacks {hero.name}", (("Att", monster.att),)
    )


def run_spec(state: State) -> RollSpec:
    _, hero, monster = fighting(state)
    return RollSpec("fight.run", check(D.D10, monster.att), f"{hero.name} runs from the {monster.name}")


def table_spec(state: State) -> RollSpec:
    monster = fighting(state)[2]
    return RollSpec("fight.table", bare(D.D10), f"{monster.name}'s hit: {monster.table_text()}")


def order_spec(name: str, purpose: str) -> RollSpec:
    what = "places the first chit" if purpose == "placement" else "goes first"
    return RollSpec("order.roll", bare(D.D10), f"Who {what}: {name}")


# ---- what the fight needs next -----------------------------------------------------------------


@dataclass(frozen=True)
class Need:
    """The next step of a fight: ``initiative``, ``hero``, ``monster``, ``table`` or ``pick``."""

    step: str
    rolls: tuple[RollSpec, ...] = ()
    #: For ``pick``: the items the monster's player chooses from; for ``hero``: the attack means.
    items: tuple[str, ...] = field(default=())


def need(state: State) -> Need | None:
    g = game(state)
    if g.fight is None:
        return None
    f, hero, _ = fighting(state)
    if f.phase == "initiative":
        return Need("initiative", initiative_specs(state))
    if f.phase == "hero":
        return Need("hero", items=tuple(i.name for i in attack_means(hero)))
    if f.phase == "monster":
        return Need("monster", (monster_spec(state),))
    if f.phase == "table":
        return Need("table", (table_spec(state),))
    return Need("pick", items=tuple(i.name for i in pick_options(hero, f.pick)))


def pick_options(hero: Hero, pick: str) -> list[Item]:
    if pick == "rust":
        return [i for i in hero.items if i.metal]
    return list(hero.items)


def expect(state: State, phase: str, step: str) -> None:
    """Raise the one-line error saying what comes next, unless the fight is at ``phase``."""
    f, hero, monster = fighting(state)
    if f.phase != phase:
        raise _phase_error(f, hero, monster, step)


def _phase_error(f: Fight, hero: Hero, monster: Monster, step: str) -> InputError:
    now = {
        "initiative": "initiative is to be rolled (companion haunted init)",
        "hero": f"it is {hero.name}'s turn: attack or run (companion haunted attack / run)",
        "monster": f"it is the {monster.name}'s turn to attack (companion haunted attack)",
        "table": f"the {monster.name}'s hit needs its 1d10 roll (companion haunted attack --table N)",
        "pick": f"the {monster.name}'s player picks one of {hero.name}'s items (companion haunted attack --take ITEM)",
    }[f.phase]
    return InputError(f"cannot {step} now: {now}")


# ---- heroes ------------------------------------------------------------------------------------


def check_card(card: Card) -> None:
    if not card.name.strip():
        raise InputError("a hero needs a name")
    for label, value, lo, hi in (
        ("speed", card.speed, 0, 30),
        ("hit points", card.hp, 1, 99),
        ("attack number", card.attack, -9, 30),
        ("armor class", card.ac, 0, 40),
    ):
        if not lo <= value <= hi:
            raise InputError(f"{card.name}'s {label} {value} is out of range ({lo} to {hi})")
    if card.bonus.vs not in ("all", "undead"):
        raise InputError(f"an ability bonus applies against 'all' or 'undead', not {card.bonus.vs!r}")
    for h in card.bonus.hits:
        if h not in HITS:
            raise InputError(f"{h!r} is not one of: {', '.join(HITS)}")
    for kind, n in card.limits.items():
        if kind not in D.LIMITS or not 0 <= n <= 9:
            raise InputError(f"a limit is a count from 0 to 9 for armor, weapon or shield, not {kind}={n}")


def add_hero(state: State, card: Card) -> Hero:
    g = game(state)
    check_card(card)
    if any(_norm(h.name) == _norm(card.name) for h in g.heroes):
        raise InputError(f"{card.name} is already in this game")
    if len(g.heroes) >= D.MAX_PLAYERS:
        raise InputError(f"the Haunted Tower is played by {D.MIN_PLAYERS} to {D.MAX_PLAYERS} heroes, no more")
    if g.phase == "over":
        raise InputError("the game is over")
    hero = Hero(name=card.name.strip(), card=card, hp=card.hp, seat=len(g.heroes))
    g.heroes.append(hero)
    state.log.text(
        f"{hero.name} joins: speed {card.speed}, HP {card.hp}, Att {card.attack}, AC {card.ac}"
        + (f"; {card.ability}" if card.ability else "")
        + (f" ({card.bonus.text()})" if card.bonus.any() else ""),
        under=False,
    )
    return hero


def update_card(state: State, card: Card) -> None:
    """A corrected hero card: the hero in play (if any) takes the new numbers; HP keeps its wounds."""
    check_card(card)
    g = game(state)
    for hero in g.heroes:
        if _norm(hero.name) == _norm(card.name):
            wounds = hero.card.hp - hero.hp
            hero.card = card
            hero.hp = max(0 if hero.out else 1, card.hp - wounds)
            state.log.text(f"{hero.name}'s card corrected: HP {hero.hp}/{card.hp}, Att {card.attack}, AC {card.ac}.")


def _ready(g: HauntedTower) -> None:
    if g.phase == "over":
        raise InputError("the game is over (companion haunted score shows the final score)")
    if len(g.heroes) < D.MIN_PLAYERS:
        raise InputError(
            f"the Haunted Tower is played by {D.MIN_PLAYERS} to {D.MAX_PLAYERS} heroes; add "
            f"{D.MIN_PLAYERS - len(g.heroes)} more with: companion haunted hero NAME"
        )


# ---- who goes first ----------------------------------------------------------------------------


def start_rolloff(state: State, purpose: str) -> None:
    g = game(state)
    _ready(g)
    if purpose not in ("placement", "round"):
        raise InputError(f"unknown roll {purpose!r}")
    if g.fight is not None:
        raise InputError("finish the fight first")
    g.rolloff = [h.name for h in living(g)]
    g.rolloff_for = purpose
    if not g.dealt:
        g.dealt = len(g.rolloff)
        state.log.text(f"{g.dealt} players: each draws {D.BLUE_CHITS[g.dealt]} blue chits.", under=False)


def order_roll(state: State, faces: list[int]) -> str | None:
    """1d10 for each hero still rolling (seat order); the highest goes first, a tie at the top rolls again.

    Returns the winner, or None when tied heroes must roll again.
    """
    g = game(state)
    if not g.rolloff:
        raise InputError("nobody is rolling for who goes first")
    if len(faces) != len(g.rolloff):
        raise InputError(f"give one 1d10 face for each of {', '.join(g.rolloff)} ({len(g.rolloff)} faces)")
    for face in faces:
        if not 1 <= face <= D.D10:
            raise InputError(f"{face} is not a face of 1d10")
    results = dict(zip(g.rolloff, faces, strict=True))
    top = max(faces)
    tied = [name for name, face in results.items() if face == top]
    if len(tied) > 1:
        g.rolloff = tied
        state.log.text(f"Tie at {top} between {' and '.join(tied)}: they roll again.")
        return None
    winner = tied[0]
    seats = [h.name for h in living(g)]
    start = seats.index(winner)
    order = seats[start:] + seats[:start]
    purpose = g.rolloff_for
    g.rolloff = []
    g.rolloff_for = ""
    if purpose == "placement":
        state.log.text(f"{winner} rolled highest ({top}) and places the first chit; then {', '.join(order[1:])}.")
        return winner
    g.phase = "play"
    g.round += 1
    g.order = order
    for hero in g.heroes:
        if hero.held_round is not None and g.round > hero.held_round + 1:
            hero.held_round = None
    state.log.heading(f"Round {g.round}")
    state.log.text(f"{winner} rolled highest ({top}) and goes first; order: {', '.join(order)}.")
    return winner


def moved(state: State, name: str) -> None:
    """The ghoul-bitten hero has sat out the move it lost."""
    hero = find_hero(game(state), name)
    if hero.held_round is None:
        raise InputError(f"{hero.name} has no move to sit out")
    hero.held_round = None
    state.log.text(f"{hero.name} sat out the move the ghoul took; free to move again.")


# ---- fights ------------------------------------------------------------------------------------


def start_fight(state: State, hero_name: str, monster_key: str, back: str) -> Fight:
    g = game(state)
    _ready(g)
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
    g.phase = "play"
    g.fights += 1
    # The specter is at full strength (HP 8) at every encounter: every fight starts at the listing's HP.
    f = Fight(n=g.fights, hero=hero.name, monster=monster.key, back=back, hp=monster.hp)
    g.fight = f
    state.log.line(f.key, _fight_title(f, monster))
    special = f"; {monster.special}" if monster.special else ""
    state.log.text(f"The {monster.name}: HP {monster.hp}, Att {monster.att}, AC {monster.ac}{special}.")
    if monster.key == SPECTER:
        g.specter_seen = True
    if monster.standups == 0:
        state.log.text(f"The box has no {monster.name} stand-up; use a stand-in.")
    _new_round(state, f, monster, first=True)
    return f


def _fight_title(f: Fight, monster: Monster) -> str:
    return f"Fight {f.n}: {f.hero} vs the {monster.name} ({f.back} chit)"


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


def initiative(state: State, hero_face: int, monster_face: int) -> str | None:
    """Both roll 1d6 (the pit viper adds 1); the higher attacks first; a tie rolls again.

    Returns ``hero`` or ``monster``, or None after a tie.
    """
    f, hero, monster = fighting(state)
    if f.phase != "initiative":
        raise _phase_error(f, hero, monster, "roll initiative")
    for face in (hero_face, monster_face):
        if not 1 <= face <= D.D6:
            raise InputError(f"{face} is not a face of 1d6")
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
    f, hero, monster = fighting(state)
    if f.phase != "hero":
        raise _phase_error(f, hero, monster, f"let {hero.name} attack")
    item = _weapon(hero, weapon)
    if not 1 <= face <= D.D6:
        raise InputError(f"{face} is not a face of 1d6")
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
    _end_fight(state, f, monster, f"{hero.name} kills it in round {f.round}")
    if monster.key == SPECTER:
        hero.specter_killed = True
        g.specter_dead = True
        finish(state, f"{hero.name} killed the Specter of Sir Jameson")


def _end_fight(state: State, f: Fight, monster: Monster, outcome: str) -> None:
    g = game(state)
    g.fight = None
    state.log.update(f.key, f"{_fight_title(f, monster)}: {outcome}")
    state.log.close()


def run_away(state: State, face: int) -> bool:
    """Instead of attacking, 1d10 at or above the monster's attack number; returns True on escape."""
    f, hero, monster = fighting(state)
    if f.phase != "hero":
        raise _phase_error(f, hero, monster, f"let {hero.name} run")
    if not 1 <= face <= D.D10:
        raise InputError(f"{face} is not a face of 1d10")
    if face >= monster.att:
        if monster.key == SPECTER:
            state.log.text(
                f"{hero.name} gets away and backs up {D.SPECTER_BACK_OFF} spaces the way they came; "
                "the specter stays where it was (at full HP 8 next time)."
            )
            _end_fight(state, f, monster, f"{hero.name} ran away in round {f.round}; the specter stays")
        else:
            state.log.text(f"{hero.name} gets away: the {monster.name} and its chit are removed from the board.")
            _end_fight(state, f, monster, f"{hero.name} ran away in round {f.round}")
        return True
    state.log.text(f"{hero.name} does not get away: the {monster.name} attacks.")
    if "monster" in f.acted and RUN_FAIL_TURN not in state.meta.variants:
        # The monster already attacked this round: the failed run gives it one more attack now.
        f.acted.append("hero")
        f.extra = True
        f.phase = "monster"
        return False
    _after(state, f, monster, "hero")
    return False


def monster_attack(state: State, face: int) -> bool:
    """The monster's attack: 1d6 + its attack number against the hero's AC; returns True on a hit."""
    f, hero, monster = fighting(state)
    if f.phase != "monster":
        raise _phase_error(f, hero, monster, f"let the {monster.name} attack")
    if not 1 <= face <= D.D6:
        raise InputError(f"{face} is not a face of 1d6")
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
            _end_fight(state, f, monster, "the robber fly went away")
            return True
        f.phase, f.pick = "pick", "steal"
        state.log.text(f"The {monster.name} hits: no damage, but it takes one of {hero.name}'s magic items.")
        return True
    if kind == "rust":
        metal = pick_options(hero, "rust")
        if not metal:
            state.log.text(f"The {monster.name} hits: no damage, and {hero.name} has no metal item for it to eat.")
            _after(state, f, monster, "monster")
            return True
        f.phase, f.pick = "pick", "rust"
        state.log.text(f"The {monster.name} hits: no damage, but it eats one of {hero.name}'s metal items.")
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
    _fall(state, hero)
    return True


def _fall(state: State, hero: Hero) -> None:
    """The hero's HP reached zero: the first time −1 attack and back to the doors; the second, out."""
    g = game(state)
    hero.deaths += 1
    if hero.deaths >= D.DEATHS_ALLOWED:
        hero.out = True
        hero.hp = 0
        hero.held_round = None
        state.log.text(f"{hero.name}'s HP reach zero a second time: {hero.name} is dead and out of the game.")
    else:
        hero.minus.append("death")
        hero.hp = hero.max_hp
        hero.tower = 1
        hero.held_round = None
        state.log.text(
            f"{hero.name}'s HP reach zero: −1 attack (a green −1 chit), HP restored to {hero.max_hp}; "
            f"{hero.name} is placed outside the tower and re-enters through the front doors."
        )
    f = g.fight
    if f is not None and _norm(f.hero) == _norm(hero.name):
        m = MONSTERS[f.monster]
        if m.key == SPECTER:
            state.log.text("The specter stays where it is.")
            _end_fight(state, f, m, f"{hero.name} fell in round {f.round}; the specter stays")
        else:
            state.log.text(f"The {m.name}'s stand-up is removed from the board.")
            _end_fight(state, f, m, f"{hero.name} fell in round {f.round}")
    if not living(g) and g.phase != "over":
        finish(state, "every hero is out of the game")


def table_roll(state: State, face: int) -> str:
    """The 1d10 after a hit of the basilisk, black widow, carrion crawler, ghoul or pit viper."""
    f, hero, monster = fighting(state)
    if f.phase != "table":
        raise _phase_error(f, hero, monster, "roll the hit's 1d10")
    if not 1 <= face <= D.D10:
        raise InputError(f"{face} is not a face of 1d10")
    effect = monster.table_effect(face)
    state.log.text(f"{face}: {EFFECT_TEXT[effect]}.")
    if effect == "stone":
        hero.hp = 0
        _fall(state, hero)
        return effect
    if effect == "slow":
        f.slowed = True
    if effect == "held":
        hero.held_round = game(state).round
    if not _wound(state, hero, EFFECT_DAMAGE[effect]):
        if effect == "slow":
            state.log.text(f"{hero.name}'s next attack roll on the {monster.name} is at {CRAWLER_PENALTY}.")
        if effect == "held":
            state.log.text(f"{hero.name} cannot move on the next turn (the fight goes on as usual).")
        _after(state, f, monster, "monster")
    return effect


def pick(state: State, name: str) -> Item:
    """The robber fly's or the rust monster's player takes one of the hero's items."""
    f, hero, monster = fighting(state)
    if f.phase != "pick":
        raise _phase_error(f, hero, monster, "take an item")
    item = find_item(hero, name)
    if item not in pick_options(hero, f.pick):
        raise InputError(f"the rust monster eats metal items only; {item.name} is not metal")
    hero.items.remove(item)
    if f.pick == "rust":
        state.log.text(f"The {monster.name} eats {item.name}: removed from the game.")
    else:
        right = right_of(game(state), hero)
        who = f"{right.name}'s player" if right else "the player on the right"
        state.log.text(f"The {monster.name} takes {item.name}: {who} moves it 10 squares away.")
    f.pick = ""
    _after(state, f, monster, "monster")
    return item


# ---- items -------------------------------------------------------------------------------------


def check_item(item: Item) -> None:
    if not item.name.strip():
        raise InputError("an item needs a name")
    if item.kind not in D.ITEM_KINDS:
        raise InputError(f"an item is {', '.join(D.ITEM_KINDS)}, not {item.kind!r}")
    if item.back not in D.BACKS:
        raise InputError(f"a chit has a blue or a purple back, not {item.back!r}")
    for h in item.hits:
        if h not in HITS:
            raise InputError(f"{h!r} is not one of: {', '.join(HITS)}")
    from companion.games.haunted_tower.model import ITEM_USES

    if item.use not in ITEM_USES:
        raise InputError(f"an item is used {', '.join(ITEM_USES)}, not {item.use!r}")
    if item.kind == "weapon" and item.use != "attack":
        raise InputError("a weapon is used to attack")
    if item.kind in ("armor", "shield") and item.use != "worn":
        raise InputError(f"{item.kind} is worn")
    for label, value in (("attack", item.attack), ("damage", item.damage), ("AC", item.ac)):
        if not -9 <= value <= 20:
            raise InputError(f"an item's {label} bonus is from -9 to 20, not {value}")
    if item.uses is not None and not 1 <= item.uses <= 99:
        raise InputError("limited uses are from 1 to 99")


def over_limit(hero: Hero, kind: str) -> bool:
    limit = hero.card.limits.get(kind)
    if limit is None:
        return False
    return sum(1 for i in hero.items if i.kind == kind) >= limit


def take_item(state: State, hero_name: str, item: Item, swap: str = "") -> None:
    """The hero takes a magic item chit; over the limit, an item of the same kind must be swapped out."""
    g = game(state)
    hero = find_hero(g, hero_name)
    check_item(item)
    old: Item | None = None
    if over_limit(hero, item.kind):
        limit = hero.card.limits[item.kind]
        if not swap:
            same = ", ".join(i.name for i in hero.items if i.kind == item.kind)
            raise InputError(
                f"{hero.name} already carries {limit} {item.kind} chit{'s' if limit != 1 else ''} ({same}): "
                "leave the new chit, or swap one out (--swap NAME)"
            )
        old = find_item(hero, swap)
        if old.kind != item.kind:
            raise InputError(f"{old.name} is {old.kind}; swap out a {item.kind} chit")
    elif swap:
        old = find_item(hero, swap)
    held = Item(**{**item.__dict__, "left": item.uses})
    if old is not None:
        hero.items.remove(old)
        state.log.text(f"{hero.name} drops {old.name} in an adjacent square.")
    hero.items.append(held)
    state.log.text(f"{hero.name} takes {held.name} ({held.describe()}).")


def drop_item(state: State, hero_name: str, name: str) -> Item:
    hero = find_hero(game(state), hero_name)
    item = find_item(hero, name)
    hero.items.remove(item)
    state.log.text(f"{hero.name} drops {item.name} in an adjacent square (face up).")
    return item


def give_item(state: State, hero_name: str, name: str, to: str) -> Item:
    g = game(state)
    giver = find_hero(g, hero_name)
    taker = find_hero(g, to)
    if giver is taker:
        raise InputError("a hero trades with another hero")
    item = find_item(giver, name)
    if over_limit(taker, item.kind):
        raise InputError(f"{taker.name} already carries as many {item.kind} chits as allowed; drop one first")
    giver.items.remove(item)
    taker.items.append(item)
    state.log.text(f"{giver.name} gives {item.name} to {taker.name}.")
    return item


def use_item(state: State, hero_name: str, name: str) -> Item:
    """One use of a limited item spent by hand (a potion); the last use removes it from the game."""
    hero = find_hero(game(state), hero_name)
    item = find_item(hero, name)
    if item.left is None:
        raise InputError(f"{item.name} has no limited uses to count")
    item.left -= 1
    if item.left <= 0:
        hero.items.remove(item)
        state.log.text(f"{hero.name} uses {item.name} for the last time: removed from the game.")
    else:
        state.log.text(f"{hero.name} uses {item.name}: {item.left} use{'s' if item.left != 1 else ''} left.")
    return item


def change_hp(state: State, hero_name: str, delta: int) -> None:
    """HP changed by hand (a potion, a correction); never above the card's HP; zero is a death."""
    hero = find_hero(game(state), hero_name)
    if delta == 0:
        raise InputError("an HP change is +N or -N")
    before = hero.hp
    hero.hp = min(hero.max_hp, hero.hp + delta)
    state.log.text(f"{hero.name} HP {before} → {max(0, hero.hp)}/{hero.max_hp} (by hand).")
    if hero.hp <= 0:
        _fall(state, hero)


# ---- climbing and experience -------------------------------------------------------------------


def blue_equivalents(hero: Hero) -> int:
    """The chits a hero holds, counted as blue chits (a purple chit counts as two)."""
    backs = [c.back for c in hero.chits] + [i.back for i in hero.items]
    return sum(D.BLUE_EQUIVALENT[b] for b in backs)


@dataclass(frozen=True)
class ClimbCheck:
    hero: str
    to: int
    have: int
    needs: int
    cleared: bool

    @property
    def ok(self) -> bool:
        return self.have >= self.needs or self.cleared

    def text(self) -> str:
        worth = f"chits worth {self.have} blue of the {self.needs} needed"
        if self.ok and self.have < self.needs:
            return f"{self.hero} may climb to Tower {self.to}: Tower {self.to - 1} has no chits left ({worth})."
        if self.ok:
            return f"{self.hero} may climb to Tower {self.to}: {worth}."
        return f"{self.hero} cannot leave Tower {self.to - 1} yet: {worth}."


def climb_check(hero: Hero, cleared: bool = False) -> ClimbCheck:
    to = hero.tower + 1
    if to > D.TOWERS:
        raise InputError(f"{hero.name} is already in Tower {D.TOWERS}, the top")
    return ClimbCheck(hero.name, to, blue_equivalents(hero), D.CLIMB_NEEDS[to], cleared)


def climb(state: State, hero_name: str, cleared: bool = False) -> ClimbCheck:
    g = game(state)
    hero = find_hero(g, hero_name)
    if g.fight is not None:
        raise InputError(
            f"{g.fight.hero} is fighting the {MONSTERS[g.fight.monster].name}: finish the fight "
            "(or run away) before anyone climbs"
        )
    c = climb_check(hero, cleared)
    if not c.ok:
        raise InputError(c.text()[:-1] + f" (if Tower {c.to - 1}'s chits are all gone: --cleared)")
    hero.tower = c.to
    state.log.text(c.text().replace("may climb", "climbs"))
    return c


def trade(state: State, hero_name: str, pay: str) -> None:
    """Two blue monster chits, or one purple monster chit, remove one −1 chit."""
    hero = find_hero(game(state), hero_name)
    if pay not in D.TRADE_COST:
        raise InputError(f"trade in blue or purple monster chits, not {pay!r}")
    if not hero.minus:
        raise InputError(f"{hero.name} has no −1 chit; chits are only traded to win back lost attack")
    need_ = D.TRADE_COST[pay]
    have = [c for c in hero.chits if c.back == pay]
    if len(have) < need_:
        raise InputError(f"{hero.name} has {len(have)} {pay} monster chit(s); the trade takes {need_}")
    for chit in have[:need_]:
        hero.chits.remove(chit)
    removed = hero.minus.pop()
    names = ", ".join(MONSTERS[c.monster].name for c in have[:need_])
    state.log.text(f"{hero.name} trades in {names} ({pay}) for the −1 chit from {removed}: Att {attack_number(hero)}.")


# ---- score -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreLine:
    hero: str
    counts: dict[str, int]
    points: dict[str, int]
    total: int
    out: bool
    scored: bool


def score_line(hero: Hero, variants: list[str]) -> ScoreLine:
    backs = [c.back for c in hero.chits] + [i.back for i in hero.items]
    counts = {
        "standups": len(hero.standups),
        "blue": backs.count("blue"),
        "purple": backs.count("purple"),
        "stake": int(hero.stake),
        "specter_damaged": int(hero.specter_damaged),
        "specter_killed": int(hero.specter_killed),
    }
    points = {k: n * D.POINTS[k] for k, n in counts.items()}
    scored = not hero.out or DEAD_SCORE in variants
    return ScoreLine(hero.name, counts, points, sum(points.values()) if scored else 0, hero.out, scored)


def scores(state: State) -> list[ScoreLine]:
    return [score_line(h, state.meta.variants) for h in game(state).heroes]


def winners(lines: list[ScoreLine]) -> list[str]:
    eligible = [line for line in lines if line.scored]
    if not eligible:
        return []
    best = max(line.total for line in eligible)
    return [line.hero for line in eligible if line.total == best]


def finish(state: State, reason: str) -> None:
    """End the game: the final score in the log, the winner(s) in ``state.finished``."""
    g = game(state)
    if g.phase == "over":
        raise InputError("the game is already over")
    if g.fight is not None:
        m = MONSTERS[g.fight.monster]
        _end_fight(state, g.fight, m, "the game ended")
    g.phase = "over"
    lines = scores(state)
    state.log.heading("Final score")
    state.log.text(f"The game ends: {reason}.")
    for line in lines:
        if not line.scored:
            state.log.text(f"{line.hero}: out of the game (died twice), no score.")
            continue
        bits = [f"{D.SHORT[key]} {line.counts[key]}×{D.POINTS[key]}" for key in D.POINTS if line.counts[key]]
        state.log.text(f"{line.hero}: {line.total} points" + (f" ({'; '.join(bits)})" if bits else ""))
    won = winners(lines)
    best = max((line.total for line in lines if line.scored), default=0)
    if not won:
        state.finished = "no hero left to win"
    elif len(won) == 1:
        state.finished = f"{won[0]} wins with {best} points"
    else:
        state.finished = f"{' and '.join(won)} share the win with {best} points"
    state.log.text(state.finished[0].upper() + state.finished[1:] + ".")
