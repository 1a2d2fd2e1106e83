"""A table pack's fights and checks as the exports' big moments read them (companion/export/moments.py).

A freeform session keeps no rules of its own, but a table pack brings some: its ``[fights.NAME]`` (a
fight is read before each of its rounds, a LUCK test or a flight: the chance to win from there,
never testing LUCK, as ``companion odds fight pack`` and the line before each round show it) and its
``[checks.NAME]`` (a check is read as it is rolled: its chance to pass, the chance of its dice against
its target, as ``companion odds`` gives it). The fight's rules come from the session's copy of the
pack (``packs``); a check needs none, its event keeps its dice and target.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from companion.sim.fights import PASS, Position, Reading

#: A fight's ends as the moments name them.
_ENDS = {"win": "won", "lose": "lost", "both": "lost", "flee": "fled"}


class Probe:
    def __init__(self, packs: list[Any] | tuple[Any, ...] = ()) -> None:
        #: The session's copies of its table packs (companion/export/moments.py gives them).
        self.packs = list(packs)
        #: The event being applied (a check's and a fight's end are read from it).
        self.event: dict[str, Any] = {}
        #: The fight under way: the id of the event that started it.
        self.started: Any = None

    @property
    def rules(self) -> bool:
        """Whether there is anything to read: a table pack with a fight or a check."""
        return any(pack.fights or pack.checks for pack in self.packs)

    # ---- the probe ---------------------------------------------------------------------------
    def before(self, state: Any, request: Any, event: Any) -> list[Reading]:
        self.event = event or {}
        kind = self.event.get("t")
        if kind == "table" and self.event.get("check"):
            return self._checks(self.event)
        if kind == "fight":
            if self.event.get("op") == "start":
                self.started = self.event.get("id")
                return []
            if self.event.get("op") in ("round", "luck", "flee") and state.trackers.fight is not None:
                reading = self._fight(state)
                return [reading] if reading is not None else []
        return []

    def after(self, reading: Reading, state: Any, request: Any) -> Reading | None:
        if reading.of == PASS or state.trackers.fight is None:
            return None
        return self._fight(state)

    def result(self, reading: Reading, state: Any) -> str | None:
        if reading.of == PASS:
            _check, event, n = reading.fight
            if event != self.event.get("id"):
                return None
            rolls = [r for r in self.event.get("rolls", ()) if r.get("check")]
            passed = n < len(rolls) and str(rolls[n].get("result", "")).startswith("pass")
            return "won" if passed else "lost"
        if state.trackers.fight is not None and reading.fight == ("fight", self.started):
            return None
        return _ENDS.get(str(self.event.get("end", "")), "lost" if self.event.get("op") == "end" else None)

    # ---- the readings ------------------------------------------------------------------------
    def _checks(self, event: dict[str, Any]) -> list[Reading]:
        from companion.dice.expr import parse
        from companion.dice.odds import odds
        from companion.errors import CompanionError

        out = []
        for n, r in enumerate(x for x in event.get("rolls", ()) if x.get("check")):
            try:
                chance = odds(parse(str(r["expr"]))).success
            except (CompanionError, KeyError, AttributeError):
                continue
            if chance is None:
                continue
            tracker = r.get("tracker") or {}
            title = str(r.get("title") or r["check"])
            words = f"{title}: {r['expr']}" + (f" ({tracker['name']} {tracker['value']})" if tracker else "")
            position = Position(words, (str(r["expr"]),), odds="")
            out.append(Reading(("check", event.get("id"), n), title, Fraction(chance), position, of=PASS))
        return out

    def _fight(self, state: Any) -> Reading | None:
        from companion.packs.fight_model import FOE, YOU
        from companion.packs.fight_odds import fight_odds
        from companion.packs.fight_play import play_refs

        fight_state = state.trackers.fight
        found = self._rules(fight_state)
        if found is None:
            return None
        pack, fight = found
        check = pack.checks.get(fight.luck.check) if fight.luck is not None else None
        values: dict[Any, int] = {}
        maxes: dict[Any, int | None] = {}
        counters = state.trackers.counters
        for ref in play_refs(fight, check):
            if ref.side == YOU:
                counter = counters.get(ref.key)
                if counter is None:
                    return None
                values[ref], maxes[ref] = counter.value, counter.max
            elif ref.side == FOE:
                values[ref], maxes[ref] = fight_state.values.get(ref.key, 0), fight_state.maxes.get(ref.key)
        try:
            chance = fight_odds(fight, values, maxes, check=check, policy="never").win
        except Exception:  # too big to count: the page leaves the moment out
            return None
        yours = [(r.label, v) for r, v in values.items() if r.side == YOU]
        theirs = [(r.label, v) for r, v in values.items() if r.side == FOE]
        said = ", ".join(f"{label} {v}" for label, v in yours)
        foe = ", ".join(f"{label} {v}" for label, v in theirs)
        words = f"you ({said}) against {fight_state.foe} ({foe}), round {fight_state.rounds + 1}, never testing LUCK"
        args = ["pack", f"{pack.name}/{fight.name}", "--foe", fight_state.foe]
        args += [f"{label}={v}" for label, v in theirs]
        for label, v in yours:
            args += ["--set", f"{label}={v}"]
        title = f"{fight_state.title}: you against {fight_state.foe}"
        return Reading(("fight", self.started), title, chance, Position(words, tuple(args)))

    def _rules(self, fight_state: Any) -> tuple[Any, Any] | None:
        for pack in self.packs:
            if pack.name == fight_state.pack and fight_state.fight in pack.fights:
                return pack, pack.fights[fight_state.fight]
        return None
