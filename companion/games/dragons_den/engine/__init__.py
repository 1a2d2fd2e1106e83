"""``companion play`` for the Dragon's Den: a menu of what can happen at the table now.

The engine asks who plays and how chits are drawn, lets the dragon player draw the dragon in
secret, then loops: a Choice of the actions open to whoever's turn it is (with the odds in the
hints), a few follow-up choices (which target, which heroes the breath reaches), and the action's
own step from :mod:`.steps`, the same code the one-shot ``companion dragon ...`` commands run.
"""

from __future__ import annotations

import copy
from collections.abc import Generator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from companion.engine.keys import assign
from companion.engine.requests import REFRESH, Choice, Engine, Number, Option, Request, choice
from companion.errors import InputError
from companion.games.dragons_den import data, odds, rules
from companion.games.dragons_den.engine import common, steps
from companion.games.dragons_den.model import HEROES, HIDDEN, IN, OVER, SETUP, Den, Figure
from companion.i18n import ngettext
from companion.session.state import State

if TYPE_CHECKING:
    from companion.contract.game import Chance

Picker = Generator[Request, Any, tuple[str, dict[str, Any]] | None]

#: The menus' keys (:mod:`companion.engine.keys`), the same whatever else is on the menu: a hero's
#: turn and the dragon player's share Advance ``ad``, the lair ``la`` and End ``en``.
KEYS = {
    "move": "ad",
    "run": "ru",
    "reveal": "ro",
    "lair": "la",
    "take": "ta",
    "escape": "le",
    "end": "en",
    "peek": "lo",
    "attack:dragon": "dg",
    "monster-move": "ad",
    "monster-attack": "at",
    "special": "sp",
    "dragon-move": "da",
    "breath": "br",
    "back": "ba",
    "done": "do",
    **{f"ability:{a}": k for a, k in (("axe", "ax"), ("deathblow", "de"), ("heal", "he"), ("wounds", "wo"))},
    **{f"ability:{a}": k for a, k in (("missile", "mi"), ("trickster", "cl"), ("charm", "ch"), ("sneak", "sn"))},
}
#: Each monster's letters and each hero's (an attack on the Giant Rat is ``gr``, Jared is ``ja``): made
#: once over every card, apart from the menus' own keys.
MONSTER_KEYS = assign((m.name for m in data.MONSTERS), KEYS.values())
HERO_KEYS = assign((h.key for h in data.HEROES), ("ba", "do"))


def keyed(option: Option) -> Option:
    """The option with its key from :data:`KEYS`."""
    key = KEYS.get(option.value, "")
    return replace(option, key=key) if key else option


def figure_key(figure: Figure) -> str:
    """A figure's letters: a monster's by its name, a hero's by its card, the dragon's ``dg``."""
    if figure.kind == "hero":
        return HERO_KEYS.get(figure.key, "")
    if figure.kind == "dragon":
        return KEYS["attack:dragon"]
    return MONSTER_KEYS.get(figure.name, "")


BACK = Option("back", "← Back", key="ba")


def play(state: State) -> Engine:
    """The table's loop. The fold sends REFRESH after a one-shot command (``Game.refresh``, in sessions
    made at contract revision 1 or later): the menu is built again from the table as it stands, and a
    step under way that the command changed the table under is dropped (:func:`fresh`)."""
    notice = ""
    while True:
        den: Den = state.game
        if den.phase == OVER:
            return
        if den.phase == SETUP:
            args = yield from fresh(state, _setup_choices(state))
            if args is not None and args is not DROPPED:
                notice = yield from _guarded(state, "setup", args)
                if not notice and state.game.chits == "virtual":
                    yield from fresh(state, peek(state))
            continue
        seen = den.actions
        value = yield menu(state, notice)
        notice = ""
        if value is REFRESH:
            continue  # a one-shot command changed the table: the menu, built again from it
        if state.game.actions != seen:
            # A session made before the contract: its engine was not told, and the answer was to a stale menu.
            notice = "The table changed since that menu was shown; here it is again."
            continue
        picked = yield from fresh(state, _pick(state, value))
        if picked is not None and picked is not DROPPED:
            notice = yield from _guarded(state, *picked)


#: What :func:`fresh` returns for a step a one-shot command changed the table under.
DROPPED = object()


def fresh(state: State, flow: Generator[Request, Any, Any]) -> Generator[Request, Any, Any]:
    """Run one step, answering REFRESH for it: if the one-shot command changed the den, the step is
    dropped (:data:`DROPPED`) and the loop asks again from the table as it stands; if not, the same
    request is asked again."""
    try:
        request = next(flow)
    except StopIteration as stop:
        return stop.value
    while True:
        table = copy.deepcopy(state.game)
        answer = yield request
        while answer is REFRESH:
            if state.game != table:
                flow.close()
                return DROPPED
            answer = yield request
        try:
            request = flow.send(answer)
        except StopIteration as stop:
            return stop.value


def _guarded(state: State, do: str, args: dict[str, Any]) -> Generator[Request, Any, str]:
    """Run a step; an action that is not possible (now) comes back as a notice on the next menu."""
    try:
        yield from fresh(state, steps.run(state, do, args))
    except InputError as exc:
        return f"{common.REASK}{exc.message}"
    return ""


# ---- setup ----------------------------------------------------------------------------------------


def _setup_choices(state: State) -> Generator[Request, Any, dict[str, Any] | None]:
    chosen: list[int] = []
    while len(chosen) < len(data.HEROES):
        if state.game.phase != SETUP:
            return None
        options = []
        if chosen:
            names = ", ".join(data.HERO_BY_NUMBER[n].name for n in sorted(chosen, reverse=True))
            options.append(Option("done", f"Start with {names}", key="do"))
        for card in data.HEROES:
            if card.number not in chosen:
                abilities = ", ".join(data.ABILITIES[a].name for a in card.abilities)
                options.append(
                    Option(
                        str(card.number),
                        f"#{card.number} {card.title}",
                        f"health {card.health}, speed {card.speed}; {abilities}",
                        HERO_KEYS[card.key],
                    )
                )
        prompt = "Which heroes are played? (one player is the dragon; up to seven heroes)"
        if chosen:
            prompt = "Another hero, or start?"
        value = yield Choice("dd.setup.hero", prompt, tuple(options))
        if value == "done":
            break
        chosen.append(int(value))
    if state.game.phase != SETUP:
        return None
    physical_first = state.dice == "physical"
    virtual = Option("virtual", "companion draws them", "virtual cups; the dragon stays secret until revealed")
    physical = Option("physical", "we draw real chits and type them", "the dragon chit is typed unseen")
    chits = yield Choice(
        "dd.setup.chits",
        "How are the chits drawn (the dragon, room chits, treasure, the countdown)?",
        (physical, virtual) if physical_first else (virtual, physical),
    )
    return {"heroes": chosen, "chits": chits}


def peek(state: State) -> Generator[Request, Any, None]:
    """Show the secret dragon to the dragon player only: it sits on a line of the menu that is
    cleared when the menu is answered, and the answer shown is "Hide it"."""
    den: Den = state.game
    if den.dragon is None or den.dragon.status != HIDDEN:
        return
    note = rules.dragon_note(den)
    yield replace(
        choice(
            "dd.peek",
            "Dragon player only, heroes look away: your dragon is on the second line. Enter hides it.",
            Option("hide", "Hide it"),
            Option(
                "hide-too",
                f"chit {note.chit}: {note.name}, health {note.health}, speed {note.speed}, {note.breath_title}",
            ),
        ),
        private=True,
    )


# ---- the menu ---------------------------------------------------------------------------------------


def menu(state: State, notice: str = "") -> Choice:
    den: Den = state.game
    info = [notice] if notice else []
    if den.phase == HEROES:
        hero = den.figure(den.turn)
        assert hero is not None
        prompt = f"Round {den.round} · {hero.name}'s turn (health {hero.health}/{hero.max_health}, speed {hero.speed})"
        options = _hero_options(state, den, hero)
        if rules.paralysed(den, hero):
            info.append(f"{hero.name} is paralysed: no advancing, running or attacking this turn.")
    else:
        prompt = f"Round {den.round} · the dragon player's turn"
        options = _dragon_options(den)
    if den.dragon is not None and den.dragon.status == HIDDEN:
        options.append(Option("peek", "Dragon player: look at the secret dragon"))
    return Choice("dd.menu", prompt, tuple(keyed(o) for o in options), tuple(info))


def _hero_options(state: State, den: Den, hero: Figure) -> list[Option]:
    options: list[Option] = []
    free = not rules.paralysed(den, hero)
    can_attack = free and hero.key not in den.acted and hero.key not in den.ran
    if free and hero.key not in den.moved:
        adv = odds.movement(hero.speed)
        options.append(Option("move", "Advance", f"1d6+{hero.speed}: {min(adv)}-{max(adv)} squares"))
        if hero.key not in den.acted:
            run = odds.movement(hero.speed, run=True)
            options.append(
                Option("run", "Run (no attack this turn)", f"1d6+1d10+{hero.speed}: {min(run)}-{max(run)} squares")
            )
    left = data.CHIT_ROOMS - len(den.rooms)
    if free and left:
        options.append(
            Option(
                "reveal",
                "Entered a room: reveal its chits",
                ngettext("{n} room still face down", "{n} rooms still face down", left).format(n=left),
            )
        )
    if free and den.dragon is not None and den.dragon.status == HIDDEN:
        options.append(Option("lair", "Entered the lair: reveal the dragon"))
    if can_attack:
        for m in den.monsters_alive():
            options.append(
                Option(
                    f"attack:{m.key}",
                    f"Attack the {m.name} ({m.health}/{m.max_health})",
                    _attack_hint(hero, m),
                    figure_key(m),
                )
            )
        if den.dragon_on_board():
            d = den.dragon
            assert d is not None
            options.append(
                Option(
                    "attack:dragon",
                    f"Attack the {d.name} ({d.health}/{d.max_health})",
                    _attack_hint(hero, d) + "; a hit takes a chit from the hoard",
                )
            )
        if den.loose:
            options.append(Option("take", "Take a treasure lying here", f"{len(den.loose)} lying in rooms"))
        card = data.HERO_BY_KEY[hero.key]
        for key in card.abilities:
            ab = data.ABILITIES[key]
            left_uses = rules.uses_left(hero, key)
            if not ab.instead or key == "haste" or left_uses == 0 or not _ability_open(den, key):
                continue
            hint = f"costs 1 health{'' if hero.health > 1 else ': fatal at 1 health'}; {ab.summary}"
            if left_uses is not None:
                hint = ngettext("{n} use left; ", "{n} uses left; ", left_uses).format(n=left_uses) + hint
            options.append(Option(f"ability:{key}", ab.name, hint))
    if free:
        options.append(
            Option(
                "escape",
                "Leave the den (for good)",
                ngettext("carrying {n} chit", "carrying {n} chits", len(hero.treasure)).format(n=len(hero.treasure)),
            )
        )
    options.append(Option("end", f"End {hero.name}'s turn"))
    return options


def _ability_open(den: Den, key: str) -> bool:
    """Whether the ability has anything to work on now (the menu leaves out the ones that have not)."""
    if key in ("axe", "sneak"):
        return den.dragon_on_board()
    if key in ("deathblow", "wounds", "missile"):
        return bool(_foes(den))
    if key in ("trickster", "charm"):
        return any(rules.monster_treasures(den, m) for m in den.monsters_alive()) or (
            den.dragon_on_board() and bool(den.hoard)
        )
    return True


def chances(state: State, request: Request) -> list[Chance]:
    """At a hero's turn: each attack on a monster shown with its chance to win fighting to the end (the
    odds its hint gives). Nothing else on the menu is shown with odds (an attack on the dragon shows
    only its chance to hit): those are not compared."""
    from companion.contract.game import Chance

    den: Den = state.game
    if request.key != "dd.menu" or den is None or den.phase != HEROES:
        return []
    hero = den.figure(den.turn)
    if hero is None:
        return []
    out = []
    for m in den.monsters_alive():
        out.append(Chance(f"attack:{m.key}", odds.exchange(hero.health, m.health).win))
    return out


def _attack_hint(attacker: Figure, target: Figure) -> str:
    p = odds.attack_chance(attacker.health)
    text = f"hits on 1-{rules.attack_target(attacker.health)}: {odds.pct(p)}"
    if target.kind != "dragon":
        text += f"; fighting to the end: {odds.pct(odds.exchange(attacker.health, target.health).win)}"
    return text


def _dragon_options(den: Den) -> list[Option]:
    options: list[Option] = []
    monsters = den.monsters_alive()
    heroes = den.heroes_in()
    if any(m.key not in den.moved for m in monsters):
        options.append(Option("monster-move", "A monster advances"))
    if heroes and any(m.key not in den.acted for m in monsters):
        options.append(Option("monster-attack", "A monster attacks a hero"))
    if any(m.key not in den.acted and data.MONSTER_BY_CHIT[m.number].special for m in monsters):
        options.append(Option("special", "A monster uses its special ability"))
    dragon = den.dragon
    if dragon is not None and dragon.status == HIDDEN:
        options.append(Option("lair", "Reveal the dragon"))
    if dragon is not None and dragon.status in (IN, HIDDEN):
        if dragon.key not in den.moved:
            hint = "it may leave its lair" if den.alarm else "it may not leave its lair before the alarm"
            options.append(Option("dragon-move", "The dragon advances", hint))
        if not den.breathed and any(h.key not in den.sneaking for h in heroes):
            options.append(Option("breath", "The dragon breathes on the heroes in its room", "costs it 1 health"))
    options.append(Option("end", "End the dragon player's turn"))
    return options


# ---- follow-up choices ----------------------------------------------------------------------------


def _pick(state: State, value: str) -> Picker:
    den: Den = state.game
    hero = den.turn
    if value == "peek":
        yield from peek(state)
        return None
    if value in ("move", "run"):
        return "move", {"who": hero, "run": value == "run"}
    if value == "end":
        return "end-turn", {}
    if value == "lair":
        return "lair", {}
    if value.startswith("attack:"):
        return "attack", {"attacker": hero, "target": value.split(":", 1)[1]}
    if value == "reveal":
        room = yield from _room(state)
        return None if room is None else ("reveal", {"room": room})
    if value == "take":
        opts = [Option(c, f"{c}: {rules.chit_text(state.data, c)}", f"room {r}") for c, r in den.loose.items()]
        chit = yield Choice("dd.take", "Which treasure?", (*opts, BACK))
        return None if chit == "back" else ("take", {"hero": hero, "chit": chit})
    if value.startswith("ability:"):
        return (yield from _ability(state, value.split(":", 1)[1]))
    if value == "escape":
        sure = yield common.yes_no("dd.escape", "Leave the den for good?", "Yes, leave", "No, stay")
        return ("escape", {"hero": hero}) if sure == common.YES else None
    if value == "monster-move":
        m = yield from _one(
            state, "dd.monster", "Which monster advances?", [m for m in den.monsters_alive() if m.key not in den.moved]
        )
        return None if m is None else ("move", {"who": m})
    if value == "monster-attack":
        m = yield from _one(
            state, "dd.monster", "Which monster attacks?", [m for m in den.monsters_alive() if m.key not in den.acted]
        )
        if m is None:
            return None
        monster = state.game.figure(m)
        heroes = state.game.heroes_in()
        opts = [
            Option(h.key, f"{h.name} ({h.health}/{h.max_health})", _attack_hint(monster, h) if monster else "")
            for h in heroes
        ]
        opts = [replace(o, key=HERO_KEYS.get(o.value, "")) for o in opts]
        target = yield Choice("dd.target", f"The {monster.name if monster else m} attacks whom?", (*opts, BACK))
        return None if target == "back" else ("attack", {"attacker": m, "target": target})
    if value == "special":
        return (yield from _special(state))
    if value == "dragon-move":
        return "move", {"who": "dragon"}
    if value == "breath":
        heroes = [h for h in den.heroes_in() if h.key not in den.sneaking]
        picked = yield from _many(state, "dd.breath", "Which heroes are in the dragon's room?", heroes)
        return None if picked is None else ("breath", {"targets": picked})
    return None


def _room(state: State) -> Generator[Request, Any, int | None]:
    error = ""
    while True:
        den: Den = state.game
        hero = den.figure(den.turn)
        prompt = f"Which room did {hero.name if hero else 'the hero'} enter? (0 to go back)"
        n = yield Number("dd.room", f"{common.REASK}{error} — {prompt}" if error else prompt, 0, data.CHIT_ROOMS)
        if n == 0:
            return None
        if n in state.game.rooms:
            error = f"room {n} is already revealed"
            continue
        return n


def _one(state: State, key: str, prompt: str, figures: list[Figure]) -> Generator[Request, Any, str | None]:
    opts = [Option(f.key, f"{f.name} ({f.health}/{f.max_health})", f"speed {f.speed}", figure_key(f)) for f in figures]
    value = yield Choice(key, prompt, (*opts, BACK))
    return None if value == "back" else value


def _many(state: State, key: str, prompt: str, figures: list[Figure]) -> Generator[Request, Any, list[str] | None]:
    """Pick several figures, one at a time, then Done."""
    picked: list[str] = []
    while True:
        opts = [
            Option(f.key, f"+ {f.name} ({f.health}/{f.max_health})", key=figure_key(f))
            for f in figures
            if f.key not in picked
        ]
        if picked:
            names = ", ".join(f.name for f in figures if f.key in picked)
            opts.insert(0, Option("done", f"Done: {names}", key="do"))
        if not [f for f in figures if f.key not in picked]:
            return picked
        value = yield Choice(key, prompt, (*opts, BACK))
        if value == "back":
            return None
        if value == "done":
            return picked
        picked.append(value)


def _foes(den: Den, *, dragon: bool = True, monsters: bool = True) -> list[Figure]:
    out = list(den.monsters_alive()) if monsters else []
    if dragon and den.dragon_on_board():
        assert den.dragon is not None
        out.append(den.dragon)
    return out


def _ability(state: State, key: str) -> Picker:
    den: Den = state.game
    hero = den.turn
    args: dict[str, Any] = {"hero": hero, "ability": key}
    if key in ("axe", "sneak"):
        return "ability", {**args, "target": "dragon"}
    if key in ("deathblow", "wounds", "missile"):
        target = yield from _one(state, "dd.target", "On which foe?", _foes(den))
        return None if target is None else ("ability", {**args, "target": target})
    if key == "heal":
        heroes = den.heroes_in()
        me = den.figure(hero)
        ordered = ([me] if me else []) + [h for h in heroes if h.key != hero]
        target = yield from _one(state, "dd.target", "Heal whom? (herself, or a hero next to her)", ordered)
        return None if target is None else ("ability", {**args, "target": target})
    # trickster and charm: a monster that has a treasure lying in its room, or the dragon's hoard
    foes = [m for m in den.monsters_alive() if rules.monster_treasures(den, m)]
    if den.dragon_on_board() and den.hoard:
        foes += _foes(den, monsters=False)
    target = yield from _one(state, "dd.target", "Which foe gives up treasure?", foes)
    if target is None:
        return None
    monster = state.game.figure(target)
    if monster is not None and monster.kind == "monster":
        held = rules.monster_treasures(state.game, monster)
        if len(held) > 1:
            opts = [Option(c, f"{c}: {rules.chit_text(state.data, c)}") for c in held]
            chit = yield Choice("dd.take", "Which of its treasures?", (*opts, BACK))
            if chit == "back":
                return None
            return "ability", {**args, "target": target, "chit": chit}
    return "ability", {**args, "target": target}


def _special(state: State) -> Picker:
    den: Den = state.game
    able = [m for m in den.monsters_alive() if m.key not in den.acted and data.MONSTER_BY_CHIT[m.number].special]
    m = yield from _one(state, "dd.monster", "Which monster?", able)
    if m is None:
        return None
    monster = state.game.figure(m)
    assert monster is not None
    kind = data.MONSTER_BY_CHIT[monster.number].special
    if kind == "regenerate":
        return "special", {"monster": m}
    if kind == "paralysis":
        target = yield from _one(state, "dd.target", "Paralyse which hero next to it?", state.game.heroes_in())
        return None if target is None else ("special", {"monster": m, "target": target})
    near = [f for f in state.game.figures() if f.status == IN and f.key != m]
    picked = yield from _many(state, "dd.wounds", "Who is next to the wraith?", near)
    return None if picked is None else ("special", {"monster": m, "targets": picked})
