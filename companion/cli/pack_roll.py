"""``roll DR NAME`` and ``roll check NAME`` from a table pack: the dice of each roll of a chain (``--got``,
a prompt, or virtual dice), a row the player chose (``--row``), the event, and what is shown.

Only :mod:`companion.cli.pack_use` (finding packs) is used for the pack itself; the rolling is
:mod:`companion.packs.rolling`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError, InputError
from companion.i18n import _

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.dice.expr import Expr
    from companion.dice.roll import Roll
    from companion.packs.model import Check, Effect, Pack, PackTable
    from companion.packs.rolling import Refuse
    from companion.session.service import Session

Segment = tuple[str, str]


def read_table_roll(table: PackTable, text: str) -> Roll:
    """What the player typed for a roll on ``table``: d66 as tens then units (``3,5`` or ``35``)."""
    from companion.dice.source import read_physical

    if table.read != "d66":
        return read_physical(table.expr, text, allow_total=True)
    compact = text.strip()
    if len(compact) == 2 and compact.isdigit():
        compact = f"{compact[0]},{compact[1]}"
    try:
        return read_physical(table.expr, compact, allow_total=False)
    except InputError:
        raise InputError(
            _("{text!r} is not a d66 roll; type the tens die, then the units die, each 1 to 6: 3,5 or 35").format(
                text=text.strip()
            )
        ) from None


class _Dice:
    """Faces for each roll of a chain: from --got (``4/3,5``), a prompt, or virtual dice."""

    def __init__(self, env: Env, got: str | None, virtual: Any, physical: bool, mod: int = 0) -> None:
        self.env = env
        self.gots = [g for g in got.split("/")] if got is not None else []
        self.virtual = virtual
        self.physical = physical
        self.mod = mod
        self.used = 0

    def __call__(self, table: PackTable, why: str, refuse: Refuse) -> tuple[Roll, list[Roll]]:
        """A roll on ``table`` that ``refuse`` accepts, and the virtual rolls rolled again to get it."""
        from companion.packs.rolling import MAX_REROLLS, gave_up

        i = self.used
        self.used += 1
        if i < len(self.gots):
            roll = read_table_roll(table, self.gots[i])
            refused = refuse(table.total_of(roll.faces, roll.total))
            if refused:
                raise InputError(_("--got {faces}: {why}").format(faces=self.gots[i].strip(), why=refused))
            return roll, []
        if self.physical:
            if not self.env.interactive:
                example = "/".join(
                    [*self.gots, "35" if table.read == "d66" else ",".join("3" for _ in table.expr.dice)]
                )
                raise InputError(
                    _(
                        "this session uses physical dice: give the faces of every roll with --got, one "
                        "roll after another, separated by / (e.g. --got {example})"
                    ).format(example=example)
                )
            return self._ask(table, why, refuse), []
        discarded = []
        for _n in range(MAX_REROLLS):
            roll = self.virtual.roll(table.expr, 0)
            if refuse(table.total_of(roll.faces, roll.total)) is None:
                return roll, discarded
            discarded.append(roll)
        raise CompanionError(gave_up(table))

    def _ask(self, table: PackTable, why: str, refuse: Refuse) -> Roll:
        from companion.shell.prompts import ask_faces

        def reader(expr: Expr, text: str, mod: int = 0, **_options: Any) -> Roll:
            roll = read_table_roll(table, text)
            refused = refuse(table.total_of(roll.faces, roll.total))
            if refused:
                raise InputError(refused)
            return roll

        hint = None
        if table.read == "d66":
            why = _("{why} (d66: the tens die, then the units die)").format(why=why)
            hint = _("the tens die, then the units die: 3 5 or 35")
        return ask_faces(table.expr, 0, why, reader=reader, hint=hint)

    def check(self, expr: Expr, why: str) -> Roll:
        """The roll of a check: its faces from --got, a prompt, or the virtual dice."""
        from companion.dice.source import read_physical

        i = self.used
        self.used += 1
        if i < len(self.gots):
            return read_physical(expr, self.gots[i], self.mod, allow_total=True)
        if self.physical:
            from companion.cli.kit import ask_physical

            return ask_physical(self.env, expr, self.mod, why)
        return self.virtual.roll(expr, self.mod)

    def done(self) -> None:
        if self.used < len(self.gots):
            raise InputError(
                _("--got gives {n} rolls but this took {used}; give one set of faces per roll").format(
                    n=len(self.gots), used=self.used
                )
            )


def drawn_in(session: Session | None, pack: Pack) -> dict[str, list[str]]:
    """The rows of ``pack``'s unique tables drawn in ``session`` since their reset, by table name."""
    if session is None:
        return {}
    prefix = f"{pack.name}/"
    return {k[len(prefix) :]: v for k, v in session.state.trackers.drawn.items() if k.startswith(prefix)}


def roll(
    env: Env,
    words: list[str],
    *,
    mod: int,
    got: str | None,
    seed: int | None,
    json_out: bool,
    why: str | None,
    scratch: bool,
    game: str | None,
    row: int | None = None,
    aside: str | None = None,
) -> bool:
    """Roll ``DR NAME`` or ``check NAME`` from a table pack; False when it is not a pack's to answer.
    ``aside``: the active session a roll given ``--seed`` is made beside (a scratch roll, said so)."""
    from companion.cli.pack_use import _game_table, _leave_to_game, available, lookup

    kind, name = words[0].lower(), " ".join(words[1:])
    if kind == "dr" and (game is not None or _game_table(env, name.lower(), None)):
        return False
    found = available(env, kind, name)
    if kind == "dr" and not found.packs and not found.broken and _leave_to_game(env):
        return False  # no packs at all: the built-in games' DR and its messages
    pack, obj = lookup(env, kind, name, found)
    if kind == "dr" and mod:
        raise InputError(_("DR {name} takes no modifier: a table reads the bare dice").format(name=obj.name))
    if kind != "dr" and row is not None:
        raise InputError(_("--row picks a row of a table (DR NAME); a check is rolled"))
    from companion.cli.kit import active_name

    session_name = None if scratch else active_name(env)
    extra: dict[str, Any] = {}
    if session_name is not None and seed is not None:  # a session rolls from its own seed
        session_name, aside = None, session_name
    if session_name is not None:
        from companion.cli.kit import opened

        with opened(env, name=session_name) as session:
            dice = _Dice(env, got, session.dice(), session.state.dice == "physical", mod)
            event, effects, note = _run(pack, obj, kind, dice, session, why, row)
            session.record(event)
            extra["session"] = session.name
            after = {e.name: session.state.trackers.counters.get(e.name) for e in effects if e.kind != "item"}
            items = dict(session.state.trackers.items)
    else:
        from companion.dice.source import VirtualDice, new_seed

        if seed is None and got is None:
            seed = new_seed()
        dice = _Dice(env, got, VirtualDice(seed or 0), False, mod)
        event, effects, note = _run(pack, obj, kind, dice, None, why, row)
        if seed is not None:
            extra["seed"] = seed
        after, items = {}, {}
        if aside is not None:
            extra["scratch"] = aside
        elif any(r.get("unique") for r in event["rolls"]):
            note = _("no session is active: the rows drawn are not kept")
    _show(env, pack, event, effects, after, items, note, extra, json_out)
    return True


def _run(pack: Pack, obj: Any, kind: str, dice: _Dice, session: Session | None, why: str | None, row: int | None):
    from companion.packs import rolling

    note = ""
    if kind == "dr":
        steps = rolling.roll_chain(pack, obj, dice, drawn=drawn_in(session, pack), row=row)
        dice.done()
        return rolling.table_event(pack, steps, why), rolling.chain_effects(steps), note
    value, note = tracker_value(obj, session)
    expr = rolling.check_expr(obj, value)
    result = dice.check(expr, f"check {obj.name}")
    dice.done()
    event = rolling.check_event(pack, obj, result, value, why)
    return event, rolling.check_effects(obj, bool(result.success)), note


def tracker_value(check: Check, session: Session | None) -> tuple[int | None, str]:
    """The current value of the tracker a check is against, and a note when it is the pack's start."""
    spec = check.tracker
    if spec is None:
        return None, ""
    if session is not None:
        counter = session.state.trackers.counters.get(spec.key)
        if counter is not None:
            return counter.value, ""
        return spec.start, f"{spec.name} {spec.start} is the pack's start: this session keeps no {spec.name}"
    return spec.start, f"{spec.name} {spec.start} is the pack's start: no session is active"


def _show(
    env: Env,
    pack: Pack,
    event: dict[str, Any],
    effects: list[Effect],
    after: dict[str, Any],
    items: dict[str, int],
    note: str,
    extra: dict[str, Any],
    json_out: bool,
) -> None:
    rolls = [r for r in event["rolls"] if not r.get("discarded")]
    if json_out:
        data: dict[str, Any] = {
            "pack": pack.name,
            "table": event.get("table"),
            "check": event.get("check"),
            "rolls": [_json_roll(r) for r in rolls],
            "effects": [_json_effect(e, after, items) for e in effects],
            **extra,
        }
        if note:
            data["note"] = note
        env.print_json(data)
        return
    lines: list[list[Segment]] = []
    for r in rolls:
        lines.append(_roll_segments(r))
    for e in effects:
        lines.append([("  " + e.text, "cyan"), (" → " + _effect_now(e, after, items), "bold")])
    if note:
        lines.append([(f"  ({note})", "dim")])
    if "seed" in extra:
        lines[0].append((f" (seed {extra['seed']})", "dim"))
    if "session" in extra:
        lines.append([("  " + _("recorded in {session}").format(session=extra["session"]), "dim")])
    if "scratch" in extra:
        from companion.cli.kit import scratch_note

        lines.append([(scratch_note(extra["scratch"]), "dim")])
    print_lines(env, lines)


def _faces(r: dict[str, Any]) -> str:
    if r.get("src") == "chosen":
        return _("row {n}").format(n=r["total"])
    if r.get("faces") is None:
        return f"(total {r['total']})"
    return " ".join(f"[{f}]" for f in r["faces"])


def roll_total(r: dict[str, Any]) -> int:
    """The total a roll entry of a table event gave (a d66 cell, a chosen row's total)."""
    if r.get("read") == "d66" and r.get("faces") is not None and len(r["faces"]) == 2:
        return 10 * r["faces"][0] + r["faces"][1]
    if r.get("src") == "chosen":
        return int(r["total"])
    from companion.dice.expr import parse
    from companion.dice.roll import evaluate, evaluate_total

    expr = parse(r["expr"])
    if r.get("faces") is not None:
        return evaluate(expr, tuple(r["faces"]), 0, source=r["src"]).total
    return evaluate_total(expr, int(r["total"]), 0, source=r["src"]).total


def _roll_segments(r: dict[str, Any]) -> list[Segment]:
    depth = r.get("depth", 0)
    total = roll_total(r)
    if "table" in r:
        dice = "d66" if r.get("read") == "d66" else r["expr"]
        segs: list[Segment] = [("  " * depth + f"DR {r['table']}", "bold"), (f" ({dice})", "dim")]
        segs.append(("  " + _faces(r), "bold magenta"))
        if r.get("faces") is not None and len(r["faces"]) > 1:
            segs.append((f" = {total}", "bold"))
        segs.append((f"  → {r['result']}", "bold"))
        if r.get("worse"):
            segs.append(("  " + _("(the same row again: make it worse)"), "bold red"))
    else:
        tracker = r.get("tracker")
        head = f"check {r['check']}"
        mods, target = _modified(r)
        segs = [
            (head, "bold"),
            (
                f" ({r['expr']}{mods}" + (f", {tracker['name']} {tracker['value']}" if tracker else "") + ")",
                "dim",
            ),
        ]
        segs.append(("  " + _faces(r), "bold magenta"))
        if r.get("faces") is None or len(r["faces"]) > 1 or total != sum(r["faces"]):
            segs.append((f" = {total}", "bold"))
        if target:
            segs.append((" " + _("vs {target}").format(target=target), "bold"))
        passed = r["result"].startswith("pass")
        segs.append((f"  → {r['result']}", "bold green" if passed else "bold red"))
    from companion.dice.render import source_text

    segs.append((f"  · {source_text(r['src'])}", "italic dim"))
    if r.get("rerolled"):
        from companion.i18n import ngettext

        n = r["rerolled"]
        segs.append(
            (" " + ngettext("(rolled again {n} time)", "(rolled again {n} times)", n).format(n=n), "italic dim")
        )
    return segs


def _modified(r: dict[str, Any]) -> tuple[str, str]:
    """A check rolled with ``--mod``: the modifier as the dice line writes it (`` −2``) and the total the
    dice need with it (``11 or less``); nothing for a check with no modifier."""
    if not r.get("mod"):
        return "", ""
    from companion.dice.expr import parse
    from companion.log.rolls import roll_line
    from companion.session.fold import roll_from

    line = roll_line(roll_from(parse(r["expr"]), r, int(r["mod"])), "")
    return " " + line.get("mods", ""), line.get("target", "")


def _effect_now(e: Effect, after: dict[str, Any], items: dict[str, int]) -> str:
    if e.kind == "item":
        return f"{e.name}: {items[e.name]}" if e.name in items else "not applied (no session)"
    counter = after.get(e.name)
    if counter is None:
        return "not applied (no session)"
    return f"{e.label}: {counter.value}" + (f"/{counter.max}" if counter.max is not None else "")


def _json_roll(r: dict[str, Any]) -> dict[str, Any]:
    keep = ("table", "check", "title", "expr", "faces", "row", "result", "depth", "read", "rerolled", "worse", "via")
    out = {k: v for k, v in r.items() if k in keep}
    out["total"] = roll_total(r)
    out["source"] = r["src"]
    if "tracker" in r:
        out["tracker"] = r["tracker"]
    if r.get("mod"):
        out["modifier"] = r["mod"]
        out["target"] = _modified(r)[1]
    return out


def _json_effect(e: Effect, after: dict[str, Any], items: dict[str, int]) -> dict[str, Any]:
    out: dict[str, Any] = {"effect": e.text, "tracker": e.label, "applied": False}
    if e.kind == "item" and e.name in items:
        out.update(applied=True, value=items[e.name])
    elif after.get(e.name) is not None:
        out.update(applied=True, value=after[e.name].value, max=after[e.name].max)
    return out


def print_lines(env: Env, lines: list[list[Segment]]) -> None:
    if not env.stdout_isatty:
        for segs in lines:
            env.echo("".join(text for text, _ in segs))
        return
    from rich.text import Text

    for segs in lines:
        text = Text()
        for part, style in segs:
            text.append(part, style=style)
        env.print(text)
