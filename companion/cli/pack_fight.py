"""A pack's fights at the command line: finding a fight and its foe, the numbers of both sides (the
session's counters, ``--set``, the foe's ``KEY=VALUE``), and the one-line odds shown at the table.

Used by :mod:`companion.cli.pack_fight_cmds` (``companion fight ...`` and ``companion odds fight pack``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from companion.errors import InputError, NotFoundError

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.packs.fight_model import Fight, Foe, Ref
    from companion.packs.model import Check, Pack
    from companion.session.service import Session
    from companion.session.trackers import PackFight

_NUMBER = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_-]{0,39})\s*=\s*(\d{1,3})\s*$")


def lookup(env: Env, name: str) -> tuple[Pack, Fight]:
    """The fight ``name`` (or ``PACK/NAME``) in the session's packs, then the player's folder."""
    from companion.cli.pack_use import available

    found = available(env)
    pack_name, _, item = name.strip().lower().rpartition("/")
    hits = [(p, p.fights[item]) for p in found.packs if item in p.fights and (not pack_name or p.name == pack_name)]
    if not hits:
        if found.broken:
            raise found.broken[0]
        known = sorted(f"{p.name}/{n}" for p in found.packs for n in p.fights)
        from companion.i18n import _

        message = _("no fight {name!r} in your table packs; fights: {known}").format(
            name=item, known=", ".join(known) or _("none")
        )
        raise NotFoundError(
            message,
            hint=None
            if known
            else _(
                "a pack's [fights.NAME] blocks are its fights; start a session with "
                "companion new freeform --tables FILE"
            ),
        )
    if len(hits) > 1 and found.origin.get(hits[0][0].name) != "session":
        from companion.i18n import _

        names = " or ".join(f"{p.name}/{item}" for p, _f in hits)
        raise InputError(
            _("{n} packs have a fight {name!r}: write {names}").format(n=len(hits), name=item, names=names)
        )
    return hits[0]


def in_progress(env: Env, fight: PackFight) -> tuple[Pack, Fight]:
    """The pack and fight of the fight in progress (the session's copy of the pack comes first)."""
    return lookup(env, f"{fight.pack}/{fight.fight}")


def luck_check(pack: Pack, fight: Fight) -> Check | None:
    return pack.checks.get(fight.luck.check) if fight.luck is not None else None


def numbers(words: list[str] | None, what: str) -> dict[str, int]:
    """``SKILL=9 STAMINA=10`` by lower-case name (the name as typed kept in ``numbers.labels``)."""
    from companion.i18n import _

    out: dict[str, int] = {}
    for word in words or ():
        m = _NUMBER.match(word)
        if m is None:
            raise InputError(
                _("{word!r} is not a number for {what}; write NAME=N, e.g. SKILL=9 STAMINA=10").format(
                    word=word, what=what
                )
            )
        out[m.group(1).lower()] = int(m.group(2))
    return out


def find_foe(pack: Pack, text: str) -> Foe | None:
    key = text.strip().lower()
    return pack.foes.get(key) or next((f for f in pack.foes.values() if f.name.lower() == key), None)


def foe_values(pack: Pack, fight: Fight, text: str | None, words: list[str] | None) -> tuple[str, list[list[Any]]]:
    """The foe's name and numbers ``[[key, label, value], ...]`` in the order the fight names them:
    a ``[foes]`` entry (by its key or name) with ``KEY=VALUE`` changes, or a foe of your own. Words
    before the first ``KEY=VALUE`` are the rest of the foe's name (``--foe Cave troll SKILL=9``)."""
    from companion.i18n import _

    words = list(words or [])
    while text and words and "=" not in words[0]:  # --foe Cave troll SKILL=9: the name's other words
        text = f"{text} {words.pop(0)}"
    given = numbers(words, _("the foe"))
    if text is None or not text.strip():
        known = ", ".join(pack.foes) or _("none in this pack")
        raise InputError(
            _('name the foe: --foe NAME (from [foes]: {known}) or --foe "Cave troll" SKILL=9 STAMINA=10').format(
                known=known
            )
        )
    foe = find_foe(pack, text)
    names = fight.foe_names
    wanted = {n.lower() for n in names}
    for key in given:
        if key not in wanted:
            raise InputError(
                _("fight {fight} reads the foe's {names}; {key} is none of them").format(
                    fight=fight.name, names=", ".join(names), key=key.upper()
                )
            )
    out = []
    missing = []
    for label in names:
        v = given.get(label.lower(), foe.value(label.lower()) if foe is not None else None)
        if v is None:
            missing.append(label)
        out.append([label.lower(), label, v])
    if missing:
        example = " ".join(f"{m}=N" for m in missing)
        raise InputError(
            _("{foe} needs {names} for fight {fight}: give {example} (or --foe a name from [foes]: {known})").format(
                foe=text.strip(), names=", ".join(missing), fight=fight.name, example=example,
                known=", ".join(pack.foes) or _("none"),
            )
        )  # fmt: skip
    return (foe.name if foe is not None else text.strip()), out


def your_numbers(
    pack: Pack, fight: Fight, check: Check | None, session: Session | None, sets: dict[str, int]
) -> tuple[dict[Ref, int], dict[Ref, int | None], list[str]]:
    """Your side of the fight: the session's counters (else the pack's starting values), ``--set``
    changing any; and a note for each value that is the pack's start."""
    from companion.i18n import _
    from companion.packs.fight_model import YOU
    from companion.packs.fight_play import play_refs

    values: dict[Ref, int] = {}
    maxes: dict[Ref, int | None] = {}
    notes: list[str] = []
    counters = session.state.trackers.counters if session is not None else {}
    refs = [r for r in play_refs(fight, check) if r.side == YOU]
    known = {r.label.lower() for r in refs} | {r.key for r in refs}
    for key in sets:
        if key not in known:
            raise InputError(
                _("--set {key}: fight {fight} reads your {names}").format(
                    key=key.upper(), fight=fight.name, names=", ".join(r.label for r in refs)
                )
            )
    for ref in refs:
        spec = next((t for t in pack.trackers.values() if t.key == ref.key), None)
        counter = counters.get(ref.key)
        top = counter.max if counter is not None else (spec.max if spec is not None else None)
        given = sets.get(ref.label.lower(), sets.get(ref.key))
        if counter is None and spec is not None and spec.roll and given is None:
            raise InputError(
                _("{label} is rolled ({roll}) when a session starts with the pack: give --set {label}=N").format(
                    label=ref.label, roll=spec.roll
                )
            )
        if given is not None:
            value = given
        elif counter is not None:
            value = counter.value
        elif spec is not None and not getattr(spec, "roll", None):
            value = spec.start
            notes.append(_("{label} {n} is the pack's start").format(label=ref.label, n=value))
        else:
            value = None
        if value is None:
            raise InputError(
                _(
                    "{label} has no value here: give --set {label}=N (or play in a session started with the pack)"
                ).format(label=ref.label)
            )
        if counter is None and spec is not None and spec.max_start:
            top = value if given is not None else spec.start  # max = "start": where it starts
        if top is not None and value > top:
            raise InputError(_("--set {label}={n} is above its max {top}").format(label=ref.label, n=value, top=top))
        values[ref] = value
        maxes[ref] = top
    return values, maxes, notes


def foe_refs(fight: Fight, check: Check | None, foe: list[list[Any]]) -> tuple[dict[Ref, int], dict[Ref, int | None]]:
    from companion.packs.fight_model import FOE
    from companion.packs.fight_play import play_refs

    given = {k: v for k, _label, v in foe}
    values: dict[Ref, int] = {}
    maxes: dict[Ref, int | None] = {}
    for ref in play_refs(fight, check):
        if ref.side == FOE:
            values[ref] = given[ref.key]
            maxes[ref] = given[ref.key]
    return values, maxes


def state_refs(fight: Fight, check: Check | None, state: PackFight) -> tuple[dict[Ref, int], dict[Ref, int | None]]:
    """The foe's side of the fight in progress: its numbers now, each kept at most what it started at."""
    from companion.packs.fight_model import FOE
    from companion.packs.fight_play import play_refs

    values: dict[Ref, int] = {}
    maxes: dict[Ref, int | None] = {}
    for ref in play_refs(fight, check):
        if ref.side == FOE:
            values[ref] = state.values.get(ref.key, 0)
            maxes[ref] = state.maxes.get(ref.key)
    return values, maxes


def odds_line(fight: Fight, check: Check | None, values: dict[Ref, int], maxes: dict[Ref, int | None]) -> str:
    """``Odds now: win 87.2%, lose 12.8%, about 9.3 rounds`` (never testing LUCK; with a LUCK test, the
    chance when always testing too)."""
    from companion.i18n import _, number
    from companion.packs.fight_outcome import both_policies
    from companion.sim.fights import share_text

    try:
        never, always = both_policies(fight, values, maxes, check)
    except InputError as exc:  # too big to count: say so, the round is recorded all the same
        return _("Odds: not counted ({why})").format(why=exc)
    text = _("Odds now: win {win}, lose {lose}").format(win=share_text(never.win), lose=share_text(never.lose))
    if never.both:
        text += _(", both fall {p}").format(p=share_text(never.both))
    if never.rounds is not None:
        text += _(", about {n} rounds").format(n=number(float(never.rounds), 1))
    else:
        text += _(", it may never end")
    if always is not None:
        text += _(" (testing LUCK every time: win {win})").format(win=share_text(always.win))
    return text


class Play:
    """The fight in progress in an open session: its pack, rules, board and position."""

    def __init__(self, env: Env, session: Any) -> None:
        from companion.i18n import _
        from companion.packs import fight_play

        self.env = env
        self.session = session
        self.state = session.state.trackers.fight
        if self.state is None:
            from companion.errors import InputError

            raise InputError(_("no fight is in progress; start one with companion fight start NAME --foe NAME"))
        self.pack, self.fight = in_progress(env, self.state)
        self.check = luck_check(self.pack, self.fight)
        you, you_max = yours(self.pack, self.fight, self.check, session)
        foe, foe_max = state_refs(self.fight, self.check, self.state)
        self.values = {**you, **foe}
        self.maxes = {**you_max, **foe_max}
        self.board = fight_play.board(self.fight, self.check, self.maxes)
        self.pos = self.board.position(self.values)


def yours(pack: Any, fight: Any, check: Any, session: Any) -> tuple[dict, dict]:
    """Your numbers for a played fight: the session's counters, each one the fight names."""
    from companion.errors import InputError
    from companion.i18n import _
    from companion.packs.fight_model import YOU
    from companion.packs.fight_play import play_refs

    counters = session.state.trackers.counters
    for ref in play_refs(fight, check):
        if ref.side == YOU and ref.key not in counters:
            raise InputError(
                _(
                    "this session keeps no {label}, and fight {fight} reads it; play it in a session started with "
                    "the pack: companion new freeform --tables FILE"
                ).format(label=ref.label, fight=fight.name)
            )
    values, maxes, _notes = your_numbers(pack, fight, check, session, {})
    return values, maxes


def pending_step(env: Env, session: Session) -> Any:
    """The fight in progress as the shell's pending step: its next round, with the odds before it.

    A :class:`companion.engine.pending.Pending` of kind ``roll`` whose bare answer runs ``fight
    round`` (Enter: the session's dice; typed faces: ``--got``, your dice then the foe's), and whose
    other answers are ``luck`` and ``flee`` where the fight allows them. None when the fight cannot be
    read (its pack gone): the shell shows no step then, and ``fight round`` says what is wrong.
    """
    from companion.dice.expr import Expr
    from companion.engine.pending import Pending
    from companion.engine.requests import RollRequest
    from companion.errors import CompanionError
    from companion.i18n import _, number, owned
    from companion.sim.fights import share_text

    try:
        play = Play(env, session)
    except CompanionError:
        return None
    fight, state, board, pos = play.fight, play.state, play.board, play.pos
    n = state.rounds + 1
    if fight.kind == "opposed":
        a, b = fight.attack, fight.foe_attack
        expr = Expr("sum", (*a.expr.terms, *b.expr.terms))  # type: ignore[union-attr]
        split = (len(a.expr.dice), len(b.expr.dice))  # type: ignore[union-attr]
        why = owned(_("Round {n}: your attack and {foe}'s").format(n=n, foe=state.foe), state.foe)
        dice = f"{a.expr} {board.value(a, pos):+d} / {b.expr} {board.value(b, pos):+d}".replace("-", "−")
        example = " ".join(["4", "5", "2", "6", "3", "1"][: sum(split)]) if sum(split) <= 6 else "4 5 …"
    else:
        expr = fight.expr  # type: ignore[assignment]
        split = (len(expr.dice),)
        why = _("Round {n}: the combat results table, ratio {ratio}").format(
            n=n,
            ratio=f"{board.value(fight.ratio, pos):+d}",  # type: ignore[arg-type]
        )
        dice = str(expr)
        example = " ".join(["7", "3", "5"][: split[0]])
    from companion.packs.fight_outcome import both_policies

    info = []
    try:
        never, always = both_policies(fight, play.values, play.maxes, play.check)
        odds = _("win {win}, lose {lose}").format(win=share_text(never.win), lose=share_text(never.lose))
        if never.rounds is not None:
            info.append(_("about {n} rounds to go").format(n=number(float(never.rounds), 1)))
        if always is not None:
            info.append(_("testing LUCK every time: win {win}").format(win=share_text(always.win)))
    except CompanionError as exc:
        odds = _("odds not counted ({why})").format(why=exc)
    words: list[tuple[str, tuple[str, ...]]] = []
    keys = [
        _("Enter rolls both sides") if session.state.dice == "virtual" else _("roll, then type the faces"),
        _("the faces: yours, then the foe's ({example})").format(example=example)
        if fight.kind == "opposed"
        else _("the face you rolled ({example})").format(example=example),
    ]
    if fight.luck is not None:  # taken even when no test is due: fight luck then says why not
        words.append(("luck", ("fight", "luck")))
    if fight.luck is not None and state.last in ("win", "lose") and not state.tested:
        keys.append(_("luck: test your LUCK on this round's wound"))
        info.append(_("luck: test your LUCK on round {n}'s wound").format(n=state.rounds))
    if fight.flee is not None:
        cost = "; ".join(e.text for e in fight.flee) or _("nothing")
        words.append(("flee", ("fight", "flee")))
        keys.append(_("flee: run, at a cost of {cost}").format(cost=cost))
        info.append(_("flee: run, at a cost of {cost}").format(cost=cost))
    keys.append(_("fight end: the book ends the fight"))
    return Pending(
        "roll",
        "fight.round",
        why,
        odds=odds,
        dice=dice,
        info=tuple(info),
        enter_rolls=session.state.dice == "virtual",
        example=example,
        keys=tuple(keys),
        request=RollRequest("fight.round", expr, why),
        run=("fight", "round"),
        split=split,
        words=tuple(words),
    )
