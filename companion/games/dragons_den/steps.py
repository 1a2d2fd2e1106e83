"""Every action at the table as a small generator: it asks for dice and choices, then applies the rules.

One implementation serves both ways of playing:

- the guided menu (:mod:`.engine`) yields these steps' requests to ``companion play`` / ``next``;
- a one-shot command (:mod:`.actions`) answers them (virtual dice, ``--got`` faces, options) on a copy
  of the state, records one ``dragon`` event with the answers, and the event's reducer runs the
  same step again on the session's state with those answers.

A step checks everything it can *before* its first request and raises :class:`InputError` if the
action is not possible, so bad input changes nothing. After each request it reads the state again
(a one-shot command may have changed it in between) and gives up with a log line if the action no
longer makes sense.

Draws from a cup companion keeps are a roll of ``1dN`` over the ``N`` chits left, read as the N-th
chit in the cup's order (numbers ascending; monster chits before treasure chits), asked as a virtual
roll. When the players draw real chits, they type the chit instead.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from companion.dice.expr import parse
from companion.engine.requests import Number, Option, Request, RollRequest, Text, choice
from companion.errors import InputError
from companion.games.dragons_den import data, odds, rules
from companion.games.dragons_den.state import DRAGON, ESCAPED, HEROES, HIDDEN, IN, OVER, TRAPPED, Den, Figure, Score
from companion.session.state import State

Steps = Generator[Request, Any, Any]

#: A request asked again after a wrong answer starts its prompt with this (the one-shot answerer
#: turns it into an error line instead of asking again).
REASK = "✗ "

YES, NO = "yes", "no"


# ---- small helpers ------------------------------------------------------------------------------


def den_of(state: State) -> Den:
    return state.game


def who(f: Figure) -> str:
    """How the log names a figure: heroes by name, monsters and the dragon with "the"."""
    if f.kind == "hero":
        return f.name
    if f.kind == "dragon" and f.status == HIDDEN:
        return "the dragon"
    return f"the {f.name}"


def cap(text: str) -> str:
    """The first letter in capitals, the rest as it is ("the Goblin" → "The Goblin")."""
    return text[:1].upper() + text[1:]


def open_line(state: State, text: str) -> str:
    """Open the log line of one action; rolls and effects hang under it."""
    den = den_of(state)
    den.lines += 1
    key = f"dd-{den.lines}"
    state.log.line(key, text)
    return key


def say(state: State, *lines: str) -> None:
    for line in lines:
        state.log.text(line)


def figure(den: Den, key: str) -> Figure:
    f = den.figure(key)
    if f is None:
        raise InputError(f"nobody called {key!r} is on the board")
    return f


def reask_error(request: Request) -> str | None:
    """The error a re-asked request carries (for the one-shot answerer), else None."""
    prompt = getattr(request, "prompt", "")
    if prompt.startswith(REASK):
        return prompt[len(REASK) :].split(" — ", 1)[0]
    return None


def yes_no(key: str, prompt: str, yes: str, no: str, info: tuple[str, ...] = ()) -> Request:
    return choice(key, prompt, Option(YES, yes), Option(NO, no), info=info)


def check_roll(key: str, health: int, why: str, info: tuple[str, ...] = ()) -> RollRequest:
    """A d6 that succeeds at or under ``health`` (an attack or a breath save)."""
    return RollRequest(key, parse(f"1d{data.ATTACK_DIE}<={rules.attack_target(health)}"), why, info=info)


# ---- drawing from cups ----------------------------------------------------------------------------


def draw(
    state: State,
    cup: Callable[[], list[Any]],
    *,
    key: str,
    what: str,
    entered: bool,
    read: Callable[[Any], Any],
    ask: Callable[[str], Request],
    secret: bool = False,
    where: str = "in the cup",
) -> Generator[Request, Any, tuple[Any, str] | None]:
    """Draw one chit from ``cup()`` (re-read after every request); returns (chit, how it was drawn).

    Virtual: a roll of 1dN over the N chits left, read as the N-th. Entered: the player types the
    chit (``ask`` makes the request from a prompt; ``read`` turns the answer into a chit, or raises).
    The caller removes the chit from its cup.
    """
    error = ""
    while True:
        chits = cup()
        if not chits:
            return None
        if entered:
            prompt = f"Which {what} was drawn?"
            answer = yield ask(f"{REASK}{error} — {prompt}" if error else prompt)
            try:
                chit = read(answer)
            except InputError as exc:
                error = exc.message
                continue
            if chit not in cup():
                error = f"{answer} is not {where} (left: {len(cup())} chits)"
                continue
            return chit, f"{what} {chit} entered by the players"
        if len(chits) == 1:
            return chits[0], f"the last {what} {where}"
        roll = yield RollRequest(
            key,
            parse(f"1d{len(chits)}"),
            f"draw a {what} ({len(chits)} {where})",
            secret=secret,
            virtual=True,
        )
        chits = cup()
        if not 1 <= roll.total <= len(chits):  # the cup changed while the roll was asked
            continue
        faces = " ".join(f"[{f}]" for f in roll.faces) if roll.faces else str(roll.total)
        return chits[roll.total - 1], f"1d{len(chits)} → {faces} · {roll.source}"


def _number(key: str, lo: int, hi: int, where: str, secret: bool = False) -> Callable[[str], Request]:
    return lambda prompt: Number(key, prompt, lo, hi, where=where, secret=secret)


def _as_int(answer: Any) -> int:
    return int(answer)


def draw_hoard(state: State, hero_key: str, count: int) -> Steps:
    """A hero takes ``count`` chits from the hoard, at random (face down in the lair)."""
    for _ in range(count):
        den = den_of(state)
        hero = den.figure(hero_key)
        if hero is None or hero.status != IN or not den.hoard:
            return
        got = yield from draw(
            state,
            lambda: den_of(state).hoard,
            key="dd.draw.hoard",
            what="dragon treasure chit",
            where="in the lair",
            entered=den.chits == "physical",
            read=_as_int,
            ask=_number("dd.draw.hoard", 1, data.HOARD_CHITS, "the number on the dragon treasure chit"),
        )
        if got is None:
            return
        n = got[0]
        den = den_of(state)
        hero = den.figure(hero_key)
        if hero is None or n not in den.hoard:
            return
        say(state, *rules.give(den, hero, f"D{n}", state.data))


# ---- setup ---------------------------------------------------------------------------------------


def setup(state: State, args: dict[str, Any]) -> Steps:
    """Choose the heroes, how chits are drawn, then the dragon player draws the dragon in secret."""
    den = den_of(state)
    if den.phase != "setup":
        raise InputError("the game is already set up")
    numbers = [int(n) for n in args.get("heroes", [])]
    if not numbers:
        raise InputError("choose at least one hero (1 to 7)")
    if len(set(numbers)) != len(numbers) or any(n not in data.HERO_BY_NUMBER for n in numbers):
        raise InputError(f"heroes are numbered 1 to 7, each at most once; got {', '.join(map(str, numbers))}")
    chits = args.get("chits", "virtual")
    if chits not in ("virtual", "physical"):
        raise InputError(f"chits are drawn 'virtual' (by companion) or 'physical' (you type them), not {chits!r}")
    entered = chits == "physical"
    den.chits = chits
    den.heroes = [rules.hero_figure(data.HERO_BY_NUMBER[n]) for n in sorted(numbers, reverse=True)]
    state.log.heading("Setting up the den")
    open_line(state, "Heroes, in turn order: " + ", ".join(f"#{h.number} {h.name}" for h in den.heroes))
    got = yield from draw(
        state,
        lambda: den_of(state).cup,
        key="dd.draw.dragon",
        what="dragon chit",
        entered=entered,
        read=_as_int,
        ask=_number("dd.draw.dragon", 1, data.DRAGON_CHITS, "the dragon player's chit, typed unseen", secret=True),
        secret=True,
    )
    assert got is not None
    chit, how = got
    den = den_of(state)
    den.cup.remove(chit)
    den.dragon = rules.dragon_figure(data.DRAGON_BY_CHIT[chit])
    den.dragon_draw = how
    discards = data.DRAGON_CHITS - 1 - den.countdown
    for _ in range(discards):
        got = yield from draw(
            state,
            lambda: den_of(state).cup,
            key="dd.draw.discard",
            what="dragon chit to set aside",
            entered=entered,
            read=_as_int,
            ask=_number("dd.draw.discard", 1, data.DRAGON_CHITS, "a chit set aside, typed unseen", secret=True),
            secret=True,
        )
        assert got is not None
        den = den_of(state)
        den.cup.remove(got[0])
        den.discards.append(got[0])
    aside = f"; {discards} more set aside unseen" if discards else " (the longer game: none set aside)"
    say(
        state,
        f"The dragon player draws the dragon in secret and lays it face down in the lair{aside}. "
        f"{len(den.cup)} countdown chits stay in the dragon cup.",
        f"Room chits: {'typed by the players as they are revealed' if entered else 'drawn by companion'}"
        + (" (one monster and one treasure in each room)." if den.one_each else " (two in each of rooms 1-20)."),
        f"The hoard: {len(den.hoard)} dragon treasure chits face down in the lair.",
    )
    new_round(state)


def new_round(state: State) -> None:
    den = den_of(state)
    rules.start_round(den)
    state.log.heading(f"Round {den.round}")


# ---- revealing ------------------------------------------------------------------------------------


def reveal(state: State, args: dict[str, Any]) -> Steps:
    """A hero enters a room with face-down chits: his move ends and both chits are revealed."""
    den = den_of(state)
    rules.require_playing(den)
    room = int(args.get("room", 0))
    if not 1 <= room <= data.CHIT_ROOMS:
        raise InputError(f"only rooms 1 to {data.CHIT_ROOMS} hold chits; {room} does not")
    if room in den.rooms:
        shown = ", ".join(rules.chit_label(state.data, c) for c in den.rooms[room]) or "nothing"
        raise InputError(f"room {room} is already revealed: {shown}")
    entering = den.figure(den.turn) if den.phase == HEROES else None
    line = open_line(state, f"Room {room}" + (f": {entering.name} enters" if entering else ""))
    entered = den.chits == "physical"
    found: list[str] = []
    kinds = ("M", "T") if den.one_each else (None, None)
    for kind in kinds[: data.CHITS_PER_ROOM]:

        def cup(kind: str | None = kind) -> list[str]:
            chits = den_of(state).room_cup
            return [c for c in chits if kind is None or c[0] == kind]

        what = {"M": "monster chit", "T": "treasure chit", None: "room chit"}[kind]
        got = yield from draw(
            state,
            cup,
            key="dd.draw.room",
            what=what,
            entered=entered,
            read=rules.parse_room_chit,
            ask=lambda prompt: Text("dd.draw.room", prompt + " (m1-m20 for a monster, t1-t20 for a treasure)"),
        )
        if got is None:
            break
        chit, how = got
        den = den_of(state)
        den.room_cup.remove(chit)
        found.append(chit)
        say(state, rules.chit_label(state.data, chit) + (f" ({how})" if entered else ""))
    den = den_of(state)
    den.rooms[room] = found
    names = []
    for chit in found:
        if chit[0] == "M":
            note = data.MONSTER_BY_CHIT[int(chit[1:])]
            monster = rules.monster_figure(note, room)
            den.monsters.append(monster)
            special = f", {data.SPECIALS[note.special][0]}" if note.special else ""
            names.append(f"{note.name} (health {note.health}, speed {note.speed}{special})")
        else:
            den.loose[chit] = room
            names.append(rules.chit_text(state.data, chit))
    state.log.update(line, f"Room {room}: " + (" and ".join(names) if names else "nothing left to draw"))


def reveal_dragon(state: State, args: dict[str, Any] | None = None) -> Steps:
    """The dragon's chit is turned over: a hero enters the lair, or the dragon stirs."""
    den = den_of(state)
    rules.require_playing(den)
    if den.dragon is None or den.dragon.status != HIDDEN:
        raise InputError("the dragon is already revealed")
    _reveal(state)
    return
    yield  # a generator like every step


def _reveal(state: State) -> None:
    den = den_of(state)
    assert den.dragon is not None
    note = rules.dragon_note(den)
    den.dragon.status = IN
    open_line(state, f"The dragon is revealed: chit {note.chit}, the {note.name}")
    say(
        state,
        f"Health {note.health}, speed {note.speed}, {note.breath_title} "
        f"({'2 health, or 1 on a save' if note.breath == 'greater' else '1 health, no save'}); "
        f"drawn in secret: {den.dragon_draw}.",
    )


# ---- moving ---------------------------------------------------------------------------------------


def move(state: State, args: dict[str, Any]) -> Steps:
    """Advance (1d6 + speed) or, for a hero, run (1d6 + 1d10 + speed); Cara may add her Haste."""
    den = den_of(state)
    mover = figure(den, str(args.get("who", "")))
    run = bool(args.get("run", False))
    if mover.kind == "hero":
        rules.require_hero_turn(den, mover)
        rules.require_free(den, mover, "run" if run else "advance")
        if run and mover.key in den.acted:
            raise InputError(f"{mover.name} has attacked this turn and may not run (advance and attack, or run)")
    else:
        if run:
            raise InputError("only heroes may run; monsters and the dragon advance")
        rules.require_dragon_turn(den)
        if mover.status not in (IN, HIDDEN):
            raise InputError(f"the {mover.name} is {mover.status}")
    if mover.key in den.moved:
        raise InputError(f"{who(mover)} has already moved this turn")
    if mover.kind == "dragon" and mover.status == HIDDEN:
        _reveal(state)
    den.moved.append(mover.key)
    if run:
        den.ran.append(mover.key)
    verb = "runs" if run else "advances"
    line = open_line(state, f"{cap(who(mover))} {verb}")
    dist = odds.movement(mover.speed, run=run)
    lo, hi = min(dist), max(dist)
    dice = data.RUN_DICE if run else data.ADVANCE_DICE
    info = [f"{'Run' if run else 'Advance'} {dice} + speed {mover.speed}: {lo}-{hi} squares; {odds.reach_text(dist)}"]
    if mover.kind != "hero" and not den.alarm:
        info.append(f"{cap(who(mover))} may not leave its room until the alarm sounds.")
    roll = yield RollRequest(
        "dd.move",
        parse(data.RUN_DICE if run else data.ADVANCE_DICE),
        f"{mover.name} {verb}",
        mover.speed,
        (("speed", mover.speed),),
        info=tuple(info),
    )
    squares = roll.total
    extra = ""
    den = den_of(state)
    mover = figure(den, mover.key)
    if mover.kind == "hero" and "haste" in data.HERO_BY_KEY[mover.key].abilities and mover.key not in den.acted:
        answer = yield yes_no(
            "dd.haste",
            f"{mover.name} moves {squares} squares. Cast Haste for more?",
            f"Cast Haste (costs 1 health; 1-5 adds that many squares: {odds.chance_text(odds.haste_chance())}; "
            "instead of an attack)",
            "No Haste",
        )
        den = den_of(state)
        mover = figure(den, mover.key)
        if answer == YES and mover.status == IN and mover.key not in den.acted:
            den.acted.append(mover.key)
            say(state, "Haste Spell: " + rules.pay(mover, "haste"))
            haste = parse(f"1d6<={data.HASTE_WORKS_UP_TO}")
            hroll = yield RollRequest("dd.haste", haste, f"{mover.name}'s Haste Spell")
            den = den_of(state)
            if hroll.success:
                squares += hroll.total
                extra = f" (Haste +{hroll.total})"
            else:
                extra = " (Haste failed)"
            say(state, *rules.settle(den, [mover]))
    state.log.update(line, f"{cap(who(mover))} {verb} up to {squares} squares{extra}")
    stop = " (stopping on the first square of a room with face-down chits)" if mover.kind == "hero" else ""
    say(state, f"{cap(who(mover))} may move up to {squares} squares{stop}.")


# ---- attacks --------------------------------------------------------------------------------------


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


# ---- abilities ------------------------------------------------------------------------------------


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
    say(state, rules.pay(hero, key) + (f"; {uses - 1} use(s) left" if uses is not None else ""))
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
        summary = f"the dragon gives up {min(count, len(den.hoard))} treasure(s)"
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


# ---- monsters' specials ---------------------------------------------------------------------------


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
        summary = ", ".join(who(t) for t in targets) + f" lose {data.WRAITH_WOUNDS_DAMAGE} each"
    say(state, *rules.settle(den, [*targets, monster]))
    state.log.update(line, f"The {monster.name}: {name}: {summary}")
    return
    yield  # a generator like every step


# ---- the dragon's breath --------------------------------------------------------------------------


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
        _reveal(state)
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


# ---- treasure, leaving, turns ---------------------------------------------------------------------


def take(state: State, args: dict[str, Any]) -> Steps:
    """A hero "attacks" a treasure lying in a room: he picks it up, no roll (it is his attack this turn)."""
    den = den_of(state)
    hero = figure(den, str(args.get("hero", "")))
    rules.require_hero_turn(den, hero)
    rules.require_free(den, hero, "take a treasure")
    rules.require_attack_left(den, hero, "take a treasure")
    chit = str(args.get("chit", "")).upper()
    if chit not in den.loose:
        lying = ", ".join(f"{c} in room {r}" for c, r in den.loose.items()) or "none"
        raise InputError(f"{chit or 'that'} is not a treasure lying in a room (lying: {lying})")
    den.acted.append(hero.key)
    line = open_line(state, f"{hero.name} takes a treasure")
    say(state, *rules.give(den, hero, chit, state.data))
    state.log.update(line, f"{hero.name} takes {rules.chit_text(state.data, chit)}")
    return
    yield  # a generator like every step


def escape(state: State, args: dict[str, Any]) -> Steps:
    """A hero steps onto an entrance and leaves the den for good, with what he carries."""
    den = den_of(state)
    hero = figure(den, str(args.get("hero", "")))
    rules.require_hero_turn(den, hero)
    rules.require_free(den, hero, "move")
    hero.status = ESCAPED
    gp = sum(rules.chit_value(state.data, c) for c in hero.treasure)
    open_line(state, f"{hero.name} leaves the den with {len(hero.treasure)} treasure chit(s) worth {gp:,} gp")
    return
    yield  # a generator like every step


def end_turn(state: State, args: dict[str, Any] | None = None) -> Steps:
    """Pass the turn: to the next hero (7 down to 1), then to the dragon player, then a new round."""
    den = den_of(state)
    rules.require_playing(den)
    if den.phase == HEROES:
        current = den.figure(den.turn)
        number = current.number if current is not None else 99
        yield from _next_hero(state, number)
    else:
        new_round(state)


def _next_hero(state: State, after: int) -> Steps:
    den = den_of(state)
    nxt = rules.next_hero(den, after)
    if nxt is not None:
        den.turn = nxt.key
        return
    yield from dragon_turn(state)


def dragon_turn(state: State) -> Steps:
    """The dragon player's turn begins: once the alarm has sounded, a countdown chit is drawn first."""
    den = den_of(state)
    den.phase, den.turn = DRAGON, ""
    state.log.heading(f"Round {den.round}: the dragon player's turn", level=3)
    if not den.alarm:
        return
    line = open_line(state, "Countdown: the dragon player draws a dragon chit")
    got = yield from draw(
        state,
        lambda: den_of(state).cup,
        key="dd.draw.countdown",
        what="countdown chit",
        entered=den.chits == "physical",
        read=_as_int,
        ask=_number("dd.draw.countdown", 1, data.DRAGON_CHITS, "the number on the dragon chit drawn"),
    )
    if got is None:
        return
    den = den_of(state)
    den.cup.remove(got[0])
    den.drawn.append(got[0])
    state.log.update(line, f"Countdown: dragon chit {got[0]} drawn; {len(den.cup)} left in the cup")
    say(state, f"Dragon chit {got[0]} is set aside: {len(den.cup)} left in the cup.")
    if not den.cup:
        finish(state, "The last dragon chit is drawn: the gates slam shut.")


def finish(state: State, why: str) -> None:
    """The end: heroes still inside are trapped; read both victory charts."""
    den = den_of(state)
    state.log.heading("The end")
    open_line(state, why)
    for h in den.heroes:
        if h.status == IN:
            h.status = TRAPPED
            say(state, f"{h.name} is trapped inside the den.")
    den.phase, den.turn = OVER, ""
    score = rules.final_score(den, state.data)
    den.score = score
    for line in score_lines(den, state.data):
        say(state, line)
    state.finished = (
        f"heroes: {score.heroes_result} ({score.haul:,} gp); dragon: {score.dragon_result} ({score.happiness})"
    )


def reckoning(den: Den, values: dict[str, Any]) -> Score:
    """The final score, or, while the game goes on, the score if the gates shut now."""
    if den.phase == OVER:
        return rules.final_score(den, values)  # read again: a treasure row may be corrected after the end
    import copy

    shut = copy.deepcopy(den)
    for h in shut.heroes:
        if h.status == IN:
            h.status = TRAPPED
    return rules.final_score(shut, values)


def score_lines(den: Den, values: dict[str, Any]) -> list[str]:
    """The reckoning, line by line, as the log and ``companion dragon score`` show it."""
    s = reckoning(den, values)
    lost = s.slain + s.trapped
    lines = [
        f"Treasure carried out by {s.escaped} hero(es): {s.carried:,} gp; "
        f"monuments for {lost} hero(es) slain or trapped: -{lost * data.MONUMENT_GP:,} gp; "
        f"the heroes' haul: {s.haul:,} gp.",
        f"Heroes' Victory Chart: {s.heroes_result} — {s.heroes_outcome}",
        f"Dragon happiness: {lost} hero(es) slain or trapped + {s.hoard_left} chit(s) left in the lair + "
        f"{s.held_by_lost} held by lost heroes = {s.happiness} point(s).",
        f"Dragon's Victory Chart: {s.dragon_result} — {s.dragon_outcome}",
    ]
    return lines


def after(state: State) -> Steps:
    """After every action: pass the turn of a hero who is no longer in the den; end a den with no hero."""
    den = den_of(state)
    if den.phase in ("setup", OVER):
        return
    if rules.nobody_inside(den):
        finish(state, "No hero is left inside the den.")
        return
    if den.phase == HEROES:
        current = den.figure(den.turn)
        if current is None or current.status != IN:
            yield from _next_hero(state, current.number if current is not None else 99)


ACTIONS: dict[str, Callable[[State, dict[str, Any]], Steps]] = {
    "setup": setup,
    "reveal": reveal,
    "lair": reveal_dragon,
    "move": move,
    "attack": attack,
    "ability": ability,
    "special": special,
    "breath": breath,
    "take": take,
    "escape": escape,
    "end-turn": end_turn,
}


def run(state: State, do: str, args: dict[str, Any]) -> Steps:
    """Run the action ``do`` with ``args``, then the checks every action is followed by."""
    step = ACTIONS.get(do)
    if step is None:
        raise InputError(f"unknown action {do!r}; actions: {', '.join(ACTIONS)}")
    gen = step(state, args)
    request = next(gen, None)  # the step's checks run here: a refused action changes nothing
    den_of(state).actions += 1
    if request is not None:
        answer = yield request
        while True:
            try:
                request = gen.send(answer)
            except StopIteration:
                break
            answer = yield request
    yield from after(state)


__all__ = ["ACTIONS", "DRAGON", "REASK", "Steps", "run"]
