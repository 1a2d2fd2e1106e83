"""Fold events into a state, one at a time. The only place events change a state.

The same :class:`Fold` serves a live command (apply one new event to the loaded state) and a
rebuild (apply every event from the start); that is what keeps the snapshot, the log written live
and the log regenerated from the events in agreement.

A guided game's answers go to its engine: the fold starts the engine on the first answer, sends each
answer in, and keeps the request the engine is waiting on in ``pending``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.contract.game import Game
from companion.dice.expr import Expr, parse
from companion.dice.render import dice_text
from companion.dice.roll import Roll, evaluate, evaluate_total
from companion.engine.requests import REFRESH, Choice, Number, Request, RollRequest, Text
from companion.errors import CompanionError, InputError
from companion.i18n import N_, _, ngettext, quote
from companion.log.corrections import corrected
from companion.log.rolls import draw_line, roll_line
from companion.session.labels import keep
from companion.session.state import State
from companion.session.trackers import Room, Tally


class ReplayError(CompanionError):
    """A saved answer does not fit the request the rules make at that point."""


#: The log's lines about the session itself, not the game (the Lonelog export sets them apart).
DICE_SWITCHED = N_("Dice switched to {dice}.")
ROLL_AMENDED = N_("Roll #{n} amended: {reason}")
GAME_DATA_KEPT = N_("Game data (kept from an earlier game): {values}.")
GAME_DATA_ENTERED = N_("Game data (entered): {values}.")

#: Event types whose arrival changes the meaning of earlier events: the session rebuilds after them.
REBUILD_AFTER = {"amend"}
#: Event types that never change what a waiting engine would ask (see ``Game.refresh``).
NO_REFRESH = {"answer", "roll", "note", "mode", "amend", "section", "reveal"}


def roll_from(expr: Expr, payload: dict[str, Any], mod: int = 0, parts: tuple = (), source: str | None = None) -> Roll:
    src = source or payload.get("src", "virtual")
    if payload.get("faces") is not None:
        return evaluate(expr, tuple(payload["faces"]), mod, source=src, parts=parts)
    return evaluate_total(expr, int(payload["total"]), mod, source=src, parts=parts)


def answer_event(request: Request, answer: Any) -> dict[str, Any]:
    """The event that records ``answer`` to ``request`` (a Roll, a choice value, a number, a text)."""
    event: dict[str, Any] = {"t": "answer", "key": request.key}
    if isinstance(request, RollRequest):
        event["v"] = roll_payload(answer)
        event["expr"] = str(request.expr)
        event["mod"] = request.mod
    elif isinstance(request, Choice):
        event["v"] = {"choice": answer}
    elif isinstance(request, Number):
        event["v"] = {"n": answer}
    else:
        event["v"] = {"text": answer}
    return event


def roll_payload(roll: Roll) -> dict[str, Any]:
    """What an event keeps of a roll: the faces (or the total) and their source."""
    if roll.faces is not None:
        return {"faces": list(roll.faces), "src": roll.source}
    return {"total": roll.total - roll.modifier, "src": roll.source}


class Fold:
    def __init__(self, spec: Game, state: State, *, draws: int = 0, amended: dict[int, dict] | None = None) -> None:
        self.spec = spec
        self.state = state
        #: Virtual dice drawn so far: the seeded stream resumes after them.
        self.draws = draws
        self.amended = amended or {}
        self.engine: Any = None
        self.pending: Request | None = None
        self.done = False
        #: True for a fold resumed from a checkpoint after the engine had started: an engine started
        #: here would begin the game again, so it must be rebuilt from the events (Session.open).
        self.resumed = False
        #: True while a new action is folded (Session.record): a refusal that a rule made later must
        #: not stop an old save from folding its events again (they were accepted when recorded).
        self.live = False
        #: Where each event folded is said in words, by id (companion.session.labels), when someone
        #: keeps them (the shell, the page, history): ``{id: (fingerprint, language, Label)}``.
        self.said: dict[int, tuple[str, str, Any]] | None = None
        self.said_lang: str | None = None  # the language they are said in (else the one shown as it folds)
        self._reducers: dict[str, Callable[[Fold, dict[str, Any]], None]] = {
            "roll": Fold._roll,
            "answer": Fold._answer,
            "note": Fold._note,
            "mode": Fold._mode,
            "amend": Fold._amend,
            "tally": Fold._tally,
            "counter": Fold._counter,
            "xp": Fold._xp,
            "item": Fold._item,
            "room": Fold._room,
            "floor": Fold._floor,
            "talisman": Fold._talisman,
            "hero": Fold._hero,
            "gamedata": Fold._gamedata,
            "end": Fold._end,
            "table": Fold._table,
            "table_reset": Fold._table_reset,
            "fight": Fold._fight,
            "section": Fold._section,
            "reveal": Fold._reveal,
        }

    # ---- dispatch --------------------------------------------------------------------------
    def apply(self, event: dict[str, Any]) -> None:
        kind = event.get("t")
        self.state.log.mark = len(self.state.log.entries)
        if kind != "answer":  # said with the table as it stands before it
            keep(self.said, self.spec, event, self.state, None, self.said_lang)
        if event.get("tried"):  # the first action after an undo that took sections back: a branch left
            from companion.session.sections import fold_tried

            fold_tried(self.state, event)
        reducer = self._reducers.get(kind)  # type: ignore[arg-type]
        if kind in self.spec.reducers:  # a game may give a tracker its own reading (e.g. XP)
            self.spec.reducers[kind](self.state, self._game_roll(event))  # type: ignore[index]
            # An event with several dice keeps them in ``rolls`` instead ({faces, src} each; they
            # cannot be amended one by one: undo the command and run it again): count the virtual ones,
            # so the seeded stream resumes after them.
            for payload in event.get("rolls", ()):
                self._count_virtual(payload)
        elif reducer is not None:
            if self.spec.provides("tracked") and kind not in NO_REFRESH:
                self.spec.tracked(self.state, event, lambda: reducer(self, event))  # type: ignore[operator]
            else:
                reducer(self, event)
        else:
            raise ReplayError(_("event {n} has an unknown type {kind}").format(n=event.get("id"), kind=quote(kind)))
        if "at" in event:
            self.state.updated = event["at"]
        waiting = self.engine is not None and not self.done
        if waiting and kind not in NO_REFRESH and self.spec.refreshes(self.state.meta):
            self._advance(REFRESH)

    def _count_virtual(self, payload: dict[str, Any]) -> None:
        if payload.get("src") == "virtual" and payload.get("faces") is not None:
            self.draws += len(payload["faces"])

    def _amended_payload(
        self, event: dict[str, Any], payload: dict[str, Any]
    ) -> tuple[dict[str, Any], str | None, str | None]:
        """The payload to use for a roll event, and (original dice, reason) if it was amended."""
        amend = self.amended.get(event.get("id", -1))
        if amend is None:
            return payload, None, None
        return {**amend["roll"], "src": "amended"}, None, amend.get("reason")

    def _game_roll(self, event: dict[str, Any]) -> dict[str, Any]:
        """A game event's own dice: count the virtual ones, and hand the reducer any amended faces.

        A game's one-shot event keeps its dice under ``roll`` (``{"expr", "faces" or "total", "src"}``,
        as :func:`roll_payload` makes them, plus the expression). Counting them here keeps the seeded
        stream where it belongs, so the next virtual roll never repeats dice a one-shot command drew.
        When ``companion amend`` corrected the roll, the reducer gets the corrected faces with
        ``src: "amended"``, the original under ``original`` and the ``reason``.
        """
        payload = event.get("roll")
        if not isinstance(payload, dict):
            return event
        self._count_virtual(payload)
        amend = self.amended.get(event.get("id", -1))
        if amend is None:
            return event
        kept = {k: v for k, v in payload.items() if k not in ("faces", "total", "src")}
        corrected = {**kept, **amend["roll"], "src": "amended", "original": payload, "reason": amend.get("reason")}
        return {**event, "roll": corrected}

    # ---- guided play -----------------------------------------------------------------------
    def start(self) -> None:
        """Start the game's engine (once) and take its first request."""
        if self.engine is not None or self.done:
            return
        if self.resumed:
            raise ReplayError(
                _("the game's engine must be rebuilt from the events (the session came from a checkpoint)")
            )
        if not self.spec.guided:
            raise CompanionError(
                _("{game} has no guided play; use its one-shot commands").format(game=_(self.spec.title))
            )
        self.engine = self.spec.engine(self.state)
        self._advance(None, first=True)

    def _advance(self, answer: Any, first: bool = False) -> None:
        try:
            self.pending = next(self.engine) if first else self.engine.send(answer)
        except StopIteration:
            self.pending = None
            self.done = True

    def decode(self, request: Request, payload: dict[str, Any]) -> Any:
        """Turn a saved (or freshly given) answer into what the engine receives, checking it fits."""
        if isinstance(request, RollRequest):
            return roll_from(request.expr, payload, request.mod, request.parts)
        if isinstance(request, Choice):
            value = payload.get("choice")
            if value not in request.values():
                listed = ", ".join(request.values())
                raise InputError(
                    _("{text} is not one of the choices: {listed}").format(text=quote(value), listed=listed)
                )
            return value
        if isinstance(request, Number):
            n = payload.get("n")
            if not isinstance(n, int) or not request.lo <= n <= request.hi:
                raise InputError(
                    _("{text} is not a whole number from {lo} to {hi}").format(
                        text=quote(n), lo=request.lo, hi=request.hi
                    )
                )
            return n
        if isinstance(request, Text):
            text = payload.get("text")
            if not isinstance(text, str) or not text.strip():
                raise InputError(_("an answer is needed (empty text is not accepted)"))
            return text.strip()
        raise ReplayError(_("unknown request {request}").format(request=repr(request)))

    def _answer(self, event: dict[str, Any]) -> None:
        self.start()
        request = self.pending
        if request is None:
            raise ReplayError(_("event {n} answers a game that is already over").format(n=event.get("id")))
        if event.get("key") != request.key:
            raise ReplayError(
                _("the save does not match the rules: event {n} answers {key} but the game asks {asked}").format(
                    n=event.get("id"), key=repr(event.get("key")), asked=repr(request.key)
                )
            )
        keep(self.said, self.spec, event, self.state, request, self.said_lang)  # the step it answers
        payload = event["v"]
        original = None
        if isinstance(request, RollRequest):
            if "expr" in event and event["expr"] != str(request.expr):
                raise ReplayError(
                    _(
                        "the save does not match the rules: event {n} rolled {dice} but the game asks for {asked}"
                    ).format(n=event.get("id"), dice=event["expr"], asked=request.expr)
                )
            self._count_virtual(payload)
            used, _src, reason = self._amended_payload(event, payload)
            if used is not payload:
                original = dice_text(roll_from(request.expr, payload, request.mod, request.parts))
            answer = self.decode(request, used)
            if not request.secret:  # a secret roll is logged by the game when it may be revealed
                row = self._row(request.expr, answer)
                line = roll_line(answer, request.why, row=row, amended_from=original, reason=reason)
                if self.spec.is_draw(event, payload):  # a chit or a card (Game.draws): the game names it (Log.drew)
                    line = draw_line(line)
                self.state.log.roll(line, event=event.get("id"))
            self.state.rolls += 1
        else:
            answer = self.decode(request, payload)
        self._advance(answer)

    def _row(self, expr: Expr, roll: Roll) -> str | None:
        if expr.kind == "DR" and expr.table and expr.table in self.spec.tables:
            return self.spec.tables[expr.table].row_text(roll.total)
        return None

    # ---- one-shot events -------------------------------------------------------------------
    def _roll(self, event: dict[str, Any]) -> None:
        expr = parse(event["expr"])
        payload = {k: event[k] for k in ("faces", "total", "src") if k in event}
        self._count_virtual(payload)
        used, _src, reason = self._amended_payload(event, payload)
        parts = tuple((str(a), int(b)) for a, b in event.get("parts", []))
        roll = roll_from(expr, used, event.get("mod", 0), parts)
        original = None
        if used is not payload:
            original = dice_text(roll_from(expr, payload, event.get("mod", 0), parts))
        self.state.log.roll(
            roll_line(roll, event.get("why", ""), row=self._row(expr, roll), amended_from=original, reason=reason),
            event=event.get("id"),
        )
        self.state.rolls += 1

    def _table(self, event: dict[str, Any]) -> None:
        """A roll on a table pack's table (and the tables it led to), or a pack's check, with its effects.

        The event keeps each row's text (``companion.packs.rolling.table_event``), so it replays the
        same without the pack. Its rolls are corrected by undoing it and rolling again. A roll entry
        may be a virtual roll that was rolled again (``discarded``: counted, not logged), a row the
        player chose (``src: "chosen"``), or two d6 read as tens and units (``read: "d66"``); a
        ``unique`` table's row is kept as drawn until the table is reset.
        """
        for r in event["rolls"]:
            payload = {k: r[k] for k in ("faces", "total", "src") if k in r}
            self._count_virtual(payload)
            if r.get("discarded"):
                continue
            roll = roll_from(parse(r["expr"]), payload, int(r.get("mod", 0)))  # a check's --mod
            line = roll_line(roll, r.get("title", ""))
            line.pop("natural", None)  # a table row or a check's target reads the total, not a natural face
            if "table" in r:
                total = roll.total
                if r.get("read") == "d66" and roll.faces is not None and len(roll.faces) == 2:
                    total = 10 * roll.faces[0] + roll.faces[1]
                if r.get("src") == "chosen":
                    total = int(r["total"])
                    line["dice"] = _("row {n}").format(n=total)
                line["total"] = total
                line["expr"] = f"DR {r['table']}"
                line["outcome"] = f"{total}: {r['result']}"
                if r.get("worse"):
                    line["outcome"] += " " + _("(the same row again: make it worse)")
                if r.get("rerolled"):
                    n = r["rerolled"]
                    line["outcome"] += " " + ngettext("(rolled again {n} time)", "(rolled again {n} times)", n).format(
                        n=n
                    )
                if r.get("via"):
                    line["why"] = f"{r.get('title', r['table'])}, from {r['via']}"
                if r.get("unique"):
                    self.state.trackers.drawn.setdefault(f"{event['pack']}/{r['table']}", []).append(r["row"])
            else:
                line["outcome"] = r["result"]
                tracker = r.get("tracker")
                if tracker:
                    line["why"] = f"{r.get('title', r['check'])} ({tracker['name']} {tracker['value']})"
            self.state.log.roll(line, event=event.get("id"))
            self.state.rolls += 1
        source = event.get("table") or event.get("check")
        for effect in event.get("effects", ()):
            sub: dict[str, Any] = {"id": event.get("id")}
            if effect["kind"] == "xp":
                self._xp({**sub, "n": effect["value"]})
            elif effect["kind"] == "item":
                self._item({**sub, "name": effect["name"], "delta": effect["value"]})
            else:
                change = f"={effect['value']}" if effect["op"] == "set" else f"{effect['value']:+d}"
                self._counter(
                    {
                        **sub,
                        "name": effect["name"],
                        "op": effect["op"],
                        "value": effect["value"],
                        "label": effect["label"],
                        "why": f"{effect.get('from', source)}: {effect['label']} {change}",
                    }
                )

    def _table_reset(self, event: dict[str, Any]) -> None:
        """``companion tables reset NAME``: a unique table's drawn rows can come up again."""
        for key in event["tables"]:
            self.state.trackers.drawn.pop(key, None)
            self.state.log.text(
                _("Table {table} reset: every row can come up again.").format(table=key.rpartition("/")[2]),
                event=event.get("id"),
            )

    def _fight(self, event: dict[str, Any]) -> None:
        """A table pack's fight: ``companion fight start|round|luck|flee|end`` (docs/tables.md)."""
        from companion.session.pack_fight import fold_fight

        fold_fight(self, event)

    def _section(self, event: dict[str, Any]) -> None:
        """``companion section N`` or ``section back K``: a line of the decision log (docs/log-format.md)."""
        from companion.session.sections import fold_section

        fold_section(self.state, event)

    def _reveal(self, event: dict[str, Any]) -> None:
        """A sealed session's seed shown (``companion dice reveal``, or the game's end)."""
        from companion.session.reveal import fold_reveal

        if not fold_reveal(self.state, event):
            raise ReplayError(_("event {n} reveals a seed this session was not sealed with").format(n=event.get("id")))

    def _note(self, event: dict[str, Any]) -> None:
        self.state.log.note(event["text"], event=event.get("id"))

    def _mode(self, event: dict[str, Any]) -> None:
        self.state.dice = event["dice"]
        # Under the line in play, among its rolls: the log keeps the switch where it happened.
        self.state.log.text(_(DICE_SWITCHED).format(dice=_(event["dice"])), event=event.get("id"))

    def _amend(self, event: dict[str, Any]) -> None:
        # The amended faces were used when the target roll was folded (see ``amended``); the
        # amendment itself only leaves a trace in the log.
        self.state.log.text(
            _(ROLL_AMENDED).format(n=event["target"], reason=event.get("reason", "")).strip(),
            under=False,
            event=event.get("id"),
        )

    def _tally(self, event: dict[str, Any]) -> None:
        tallies = self.state.trackers.tallies
        op, name = event["op"], event["name"]
        log = self.state.log
        if op == "add":
            tallies[name] = Tally(name, int(event["max"]), 0, event.get("role", ""), bool(event.get("monster")))
            book = tallies[name].book()
            log.text(
                _("corrected: {tally}").format(tally=book) if event.get("correct") else book, event=event.get("id")
            )
            return
        tally = tallies.get(name)
        if tally is None:
            raise InputError(_("no tally named {name!r}").format(name=name))
        n = int(event.get("n", 1))
        if event.get("correct") and op in ("hit", "heal"):  # the sheet fixed: no cure, no blow
            before = tally.hits
            tally.hits = max(0, min(tally.max_hits, tally.hits + (n if op == "hit" else -n)))
            log.text(corrected(_("hits on {name}").format(name=name), before, tally.hits), event=event.get("id"))
            return
        if op == "hit":
            if tally.slain and self.live:
                raise InputError(
                    _("{name} is slain already ({hits} of {max} hits): no more hits").format(
                        name=name, hits=tally.hits, max=tally.max_hits
                    )
                )
            tally.hits = min(tally.max_hits, tally.hits + n)
        elif op == "heal":
            tally.set_hits(tally.hits - n)
        elif op == "remove":
            del tallies[name]
            removed = _("{name} removed from the tallies.").format(name=name)
            log.text(
                _("corrected: {what}").format(what=removed) if event.get("correct") else removed, event=event.get("id")
            )
            return
        hand = ""
        if op == "hit":
            hand = " — " + ngettext("{n} hit marked by hand", "{n} hits marked by hand", n).format(n=n)
        elif op == "heal":
            hand = " — " + ngettext("{n} hit removed by hand", "{n} hits removed by hand", n).format(n=n)
        log.text(tally.book() + hand, event=event.get("id"))

    def _counter(self, event: dict[str, Any]) -> None:
        """A counter change: optionally a new maximum, then ``add`` or ``set`` a value."""
        c = self.state.trackers.counter(event["name"])
        before = (c.value, c.max)
        if "max" in event:
            c.max = event["max"]
        op = event.get("op")
        if op == "set":
            c.value = max(0, int(event["value"]))
        elif op == "add":
            c.add(int(event["value"]))
        if c.max is not None:
            c.value = min(c.value, c.max)
        if event.get("label"):
            c.label = event["label"]
        label = c.label or (event["name"].upper() if len(event["name"]) <= 3 else event["name"].capitalize())
        if event.get("correct"):
            parts = []
            if before[1] != c.max:
                parts.append(corrected(_("Max {label}").format(label=label), before[1], c.max))
            if before[0] != c.value or not parts:
                parts.append(corrected(label, before[0], c.value))
            self.state.log.text(
                "; ".join(parts) + (f" ({event['why']})" if event.get("why") else ""), event=event.get("id")
            )
            return
        shown = f"{c.value}/{c.max}" if c.max is not None else str(c.value)
        self.state.log.text(
            f"{label}: {shown}" + (f" ({event['why']})" if event.get("why") else ""), event=event.get("id")
        )

    def _xp(self, event: dict[str, Any]) -> None:
        t = self.state.trackers
        xp = t.counter("xp")
        before = xp.value
        xp.add(int(event["n"]))
        text = corrected("XP", before, xp.value) if event.get("correct") else f"XP {int(event['n']):+d} → {xp.value}"
        if self.spec.levels:
            rule = self.spec.xp_to_next
            while xp.value >= rule(t.level):  # type: ignore[operator]
                xp.value -= rule(t.level)  # type: ignore[operator]
                t.level += 1
                text += _("; level up to {level}").format(level=t.level)
        self.state.log.text(text, event=event.get("id"))

    def _item(self, event: dict[str, Any]) -> None:
        items = self.state.trackers.items
        name = event["name"]
        n = items.get(name, 0) + int(event["delta"])
        if n < 0:
            raise InputError(_("there is no {name} to remove (you have {n})").format(name=name, n=items.get(name, 0)))
        before = items.get(name, 0)
        items[name] = n
        self.state.log.text(
            corrected(name, before, n) if event.get("correct") else f"{name}: {n}", event=event.get("id")
        )

    def _room(self, event: dict[str, Any]) -> None:
        t = self.state.trackers
        floor = int(event.get("floor", t.floor))
        number = int(event["number"])
        room = t.room(floor, number)
        if room is None:
            room = Room(floor, number)
            t.rooms.append(room)
        if event.get("content") is not None:
            room.content = event["content"]
        if event.get("state") is not None:
            room.state = event["state"]
        self.state.log.line(room.key, room.line(), event=event.get("id"))

    def _floor(self, event: dict[str, Any]) -> None:
        before = self.state.trackers.floor
        self.state.trackers.floor = int(event["n"])
        self.state.log.heading(_("Floor {n}").format(n=event["n"]))
        if event.get("correct"):
            self.state.log.text(corrected(_("floor"), before, event["n"]), event=event.get("id"))

    def _talisman(self, event: dict[str, Any]) -> None:
        from companion.dice.expr import TALISMAN

        ts = self.state.trackers.talisman
        if ts.found:
            raise InputError(_("the Talisman is already found: leave the dungeon!"))
        left = event.get("left")
        log = self.state.log
        if not ts.needs_roll(left):
            ts.after_kill(left)
            log.text(
                _("Kill {n}: the last monster held the Talisman. Found! Leave the dungeon.").format(n=ts.kills),
                event=event.get("id"),
            )
            return
        payload = {k: event[k] for k in ("faces", "total", "src") if k in event}
        self._count_virtual(payload)
        used, _src, reason = self._amended_payload(event, payload)
        roll = roll_from(TALISMAN, used)
        original = dice_text(roll_from(TALISMAN, payload)) if used is not payload else None
        result = ts.after_kill(left, roll.total)
        log.roll(
            roll_line(
                roll, _("Talisman search after kill {n}").format(n=ts.kills), amended_from=original, reason=reason
            ),
            event=event.get("id"),
        )
        self.state.rolls += 1
        if result == "found":
            log.text(_("The Talisman is found! Leave the dungeon."), event=event.get("id"))
        elif result == "held":
            log.text(_("One monster is left: it holds the Talisman."), event=event.get("id"))

    def _hero(self, event: dict[str, Any]) -> None:
        self.state.hero = event["name"]

    def _gamedata(self, event: dict[str, Any]) -> None:
        self.state.data.update(event["values"])
        values = event["values"]
        values = self.spec.read_data(self.state, values)  # the game reads its numbers (and says which to show)
        kept = event.get("source") == "catalogue"
        shown = ", ".join(f"{k} = {v}" for k, v in values.items() if not isinstance(v, (dict, list)))
        if shown:
            text = _(GAME_DATA_KEPT if kept else GAME_DATA_ENTERED).format(values=shown)
        else:
            text = _("Game data (kept from an earlier game).") if kept else _("Game data (entered).")
        self.state.log.text(text, under=False)

    def _end(self, event: dict[str, Any]) -> None:
        self.state.finished = event["result"]
        self.state.log.text(
            _("The end: {result}.").format(result=_(event["result"])), under=False, event=event.get("id")
        )


def amendments(events: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Which roll events were amended, by target id (the last amendment of a roll wins)."""
    out: dict[int, dict[str, Any]] = {}
    for event in events:
        if event.get("t") == "amend":
            out[int(event["target"])] = event
    return out


def roll_event(roll: Roll, why: str | None) -> dict[str, Any]:
    """A ``roll`` event for a roll made outside any request (``companion roll`` in a session)."""
    event: dict[str, Any] = {"t": "roll", "expr": str(roll.expr), "mod": roll.modifier - roll.expr.const}
    if roll.parts:
        event["parts"] = [list(p) for p in roll.parts]
    event.update(roll_payload(roll))
    if why:
        event["why"] = why
    return event
