"""The Dragon's Den's action steps: revealing a room's chits and the dragon, and moving.

One of the action steps shared by guided play and the one-shot commands: see :mod:`.engine.steps`.
"""

from __future__ import annotations

from typing import Any

from companion.dice.expr import parse
from companion.engine.requests import RollRequest, Text
from companion.errors import InputError
from companion.games.dragons_den import data, odds, rules
from companion.games.dragons_den.engine.common import YES, Steps, cap, den_of, figure, open_line, say, who, yes_no
from companion.games.dragons_den.engine.cups import draw
from companion.games.dragons_den.model import HEROES, HIDDEN, IN
from companion.session.state import State


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
            name=lambda chit: rules.chit_label(state.data, chit),
        )
        if got is None:
            break
        chit, how = got
        den = den_of(state)
        den.room_cup.remove(chit)
        found.append(chit)
        if entered:
            say(state, f"{rules.chit_label(state.data, chit)} ({how})")
        elif not how.startswith("1d"):  # the last chit in the cup: no draw logged to name it
            say(state, rules.chit_label(state.data, chit))
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
    turn_over_dragon(state)
    return
    yield  # a generator like every step


def turn_over_dragon(state: State) -> None:
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
        turn_over_dragon(state)
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
