"""Table packs at the command line: ``roll DR NAME`` / ``roll check NAME``, their odds, ``new --tables``.

``companion roll`` and ``companion odds`` hand a ``DR NAME`` or ``check NAME`` here first (see
:func:`wants`); a table the session's own game has is left to them, so the built-in games read their
tables exactly as before. Only this module and :mod:`companion.packs` import ``tomllib``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError, InputError, NotFoundError

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.dice.expr import Expr
    from companion.dice.roll import Roll
    from companion.packs.find import Found
    from companion.packs.pack import Check, Effect, Pack, PackTable
    from companion.session.service import Session

Segment = tuple[str, str]


def wants(words: list[str]) -> bool:
    """``DR NAME`` or ``check NAME``: a roll a table pack may answer."""
    return len(words) >= 2 and words[0].lower() in ("dr", "check")


# ---- finding packs ---------------------------------------------------------------------------


def available(env: Env) -> Found:
    """The active session's copies first, then the player's folder."""
    from companion.cli.kit import active_name, store
    from companion.packs.find import Found, config_dir, scan, session_dir

    found = Found()
    name = active_name(env)
    if name is not None:
        scan(session_dir(store(env).files(name).dir), found, origin="session")
    scan(config_dir(env.data_dir), found, origin="folder")
    return found


def names_for_completion(kind: str, data: Path, override: Path | None, session: str | None) -> list[tuple[str, str]]:
    """Table (``kind`` "dr") or check names for Tab: the session's packs, the player's folder, its game."""
    from companion.packs.find import Found, config_dir, scan, session_dir

    found = Found()
    if session:
        scan(session_dir(data / "sessions" / session), found, origin="session")
    scan(config_dir(override), found)
    out = [(n, p.title) for p in found.packs for n in (p.tables if kind == "dr" else p.checks)]
    if kind == "dr" and session:
        from companion.games import load
        from companion.store.sessions import Store

        spec = load(Store(data).files(session).read_meta()["meta"]["game"])
        out += [(n, spec.title) for n in spec.tables]
    return out


def _game_table(env: Env, name: str, game: str | None) -> bool:
    """True when the game (--game, else the active session's) has a table of this name."""
    if game is None:
        from companion.cli.kit import active_game

        game = active_game(env)
    if game is None:
        return False
    from companion.games import load

    tables = load(game).tables
    return any(c in tables for c in (name, name.removesuffix("s"), name + "s"))


def _leave_to_game(env: Env) -> bool:
    """Whether a DR no pack answers is the active game's to refuse (any game but freeform)."""
    from companion.cli.kit import active_game

    return active_game(env) not in ("freeform",)


def lookup(env: Env, kind: str, name: str, found: Found | None = None) -> tuple[Pack, Any]:
    """The pack and the table (``kind`` "dr") or check ("check") called ``name`` or ``PACK/NAME``."""
    found = found if found is not None else available(env)
    pack_name, _, item = name.strip().lower().rpartition("/")
    hits = []
    for pack in found.packs:
        if pack_name and pack.name != pack_name:
            continue
        obj = pack.table(item) if kind == "dr" else pack.check(item)
        if obj is not None:
            hits.append((pack, obj))
    what = "table" if kind == "dr" else "check"
    if not hits:
        if found.broken:
            raise found.broken[0]
        known = sorted(f"{p.name}/{n}" for p in found.packs for n in (p.tables if kind == "dr" else p.checks))
        if not found.packs:
            message = f"no {what} {item!r}: no table pack is in use"
        else:
            message = f"no {what} {item!r} in your table packs; " + (
                f"{what}s: {', '.join(known)}" if known else f"they have no {what}s"
            )
        raise NotFoundError(
            message,
            hint="companion tables list shows every pack; start a session with companion new freeform --tables FILE",
        )
    if len(hits) > 1 and found.origin.get(hits[0][0].name) != "session":
        names = " or ".join(f"{p.name}/{item}" for p, _ in hits)
        raise InputError(f"{len(hits)} packs have a {what} {item!r}: write {names}")
    return hits[0]


def resolve(env: Env, text: str) -> Pack:
    """``--tables`` value: a file, or the name of a pack in the player's folder."""
    from companion.packs.find import config_dir, scan
    from companion.packs.pack import read_pack

    path = Path(text).expanduser()
    if path.suffix == ".toml" or path.exists() or "/" in text:
        return read_pack(path, shown=text)
    folder = config_dir(env.data_dir)
    found = scan(folder)
    for pack in found.packs:
        if pack.name == text:
            return pack
    names = ", ".join(p.name for p in found.packs) or f"none in {folder}"
    raise NotFoundError(f"no table pack {text!r}: give a .toml file, or one of your packs: {names}")


def attach(env: Env, session: Session, packs: list[Pack]) -> None:
    """Keep a copy of each pack in the session, and start the trackers the packs declare."""
    from companion.cli.kit import opened
    from companion.packs.find import session_dir
    from companion.store.atomic import write_atomic

    folder = session_dir(session.files.dir)
    folder.mkdir(parents=True, exist_ok=True)
    for pack in packs:
        write_atomic(folder / f"{pack.name}.toml", pack.source)
    with opened(env, name=session.files.slug) as s:
        for pack in packs:
            for t in pack.trackers.values():
                event: dict[str, Any] = {"t": "counter", "name": t.key, "op": "set", "value": t.start, "label": t.name}
                if t.max is not None:
                    event["max"] = t.max
                event["why"] = f"{pack.title}: starting value"
                s.record(event)


def check_packs(packs: list[Pack], game: str) -> None:
    """Refuse two packs with one name, two packs with one tracker, and trackers in a game with rules of its own."""
    seen: dict[str, Pack] = {}
    kept: dict[str, Pack] = {}
    for pack in packs:
        if pack.name in seen:
            raise InputError(f"two --tables packs are both named {pack.name!r}; give each pack once")
        seen[pack.name] = pack
        if pack.trackers and game != "freeform":
            names = ", ".join(t.name for t in pack.trackers.values())
            raise InputError(
                f"{pack.path}: {pack.name} declares trackers ({names}), and only a freeform session keeps a pack's "
                f"trackers (the {game} rules keep their own); use companion new freeform --tables, or a pack "
                "without [trackers]"
            )
        for t in pack.trackers.values():
            if t.key in kept:
                other = next(o for o in kept[t.key].trackers.values() if o.key == t.key)
                what = f"an HP tracker ({other.name} and {t.name})" if t.hp or other.hp else f"the tracker {t.name}"
                raise InputError(f"{kept[t.key].name} and {pack.name} both declare {what}; keep it in one pack")
            kept[t.key] = pack


# ---- rolling ---------------------------------------------------------------------------------


class _Dice:
    """Faces for each roll of a chain: from --got (``4/3,5``), a prompt, or virtual dice."""

    def __init__(self, env: Env, got: str | None, virtual: Any, physical: bool, mod: int = 0) -> None:
        self.env = env
        self.gots = [g for g in got.split("/")] if got is not None else []
        self.virtual = virtual
        self.physical = physical
        self.mod = mod
        self.used = 0

    def __call__(self, expr: Expr, why: str) -> Roll:
        from companion.dice.source import read_physical

        i = self.used
        self.used += 1
        if i < len(self.gots):
            return read_physical(expr, self.gots[i], self.mod, allow_total=True)
        if self.physical:
            if not self.env.interactive:
                example = "/".join([*self.gots, ",".join("3" for _ in expr.dice)])
                raise InputError(
                    f"this session uses physical dice: give the faces of every roll with --got, one roll after "
                    f"another, separated by / (e.g. --got {example})"
                )
            from companion.cli.kit import ask_physical

            return ask_physical(self.env, expr, self.mod, why)
        return self.virtual.roll(expr, self.mod)

    def done(self) -> None:
        if self.used < len(self.gots):
            raise InputError(
                f"--got gives {len(self.gots)} rolls but this took {self.used}; give one set of faces per roll"
            )


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
) -> bool:
    """Roll ``DR NAME`` or ``check NAME`` from a table pack; False when it is not a pack's to answer."""
    kind, name = words[0].lower(), " ".join(words[1:])
    if kind == "dr" and (game is not None or _game_table(env, name.lower(), None)):
        return False
    found = available(env)
    if kind == "dr" and not found.packs and not found.broken and _leave_to_game(env):
        return False  # no packs at all: the built-in games' DR and its messages
    pack, obj = lookup(env, kind, name, found)
    if kind == "dr" and mod:
        raise InputError(f"DR {obj.name} takes no modifier: a table reads the bare dice")
    from companion.cli.kit import active_name

    session_name = None if scratch else active_name(env)
    extra: dict[str, Any] = {}
    if session_name is not None:
        if seed is not None:
            raise CompanionError(
                f"session {session_name!r} rolls from its own seed; drop --seed, or add --scratch to roll outside it"
            )
        from companion.cli.kit import opened

        with opened(env, name=session_name) as session:
            dice = _Dice(env, got, session.dice(), session.state.dice == "physical", mod)
            event, effects, note = _run(pack, obj, kind, dice, session, why)
            session.record(event)
            extra["session"] = session.name
            after = {e.name: session.state.trackers.counters.get(e.name) for e in effects if e.kind != "item"}
            items = dict(session.state.trackers.items)
    else:
        from companion.dice.source import VirtualDice, new_seed

        if seed is None and got is None:
            seed = new_seed()
        dice = _Dice(env, got, VirtualDice(seed or 0), False, mod)
        event, effects, note = _run(pack, obj, kind, dice, None, why)
        if seed is not None:
            extra["seed"] = seed
        after, items = {}, {}
    _show(env, pack, event, effects, after, items, note, extra, json_out)
    return True


def _run(pack: Pack, obj: Any, kind: str, dice: _Dice, session: Session | None, why: str | None):
    from companion.packs import rolling

    note = ""
    if kind == "dr":
        steps = rolling.roll_chain(pack, obj, dice)
        dice.done()
        return rolling.table_event(pack, steps, why), rolling.chain_effects(steps), note
    value, note = tracker_value(obj, session)
    expr = rolling.check_expr(obj, value)
    result = dice(expr, f"check {obj.name}")
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
    if json_out:
        data: dict[str, Any] = {
            "pack": pack.name,
            "table": event.get("table"),
            "check": event.get("check"),
            "rolls": [_json_roll(r) for r in event["rolls"]],
            "effects": [_json_effect(e, after, items) for e in effects],
            **extra,
        }
        if note:
            data["note"] = note
        env.print_json(data)
        return
    lines: list[list[Segment]] = []
    for r in event["rolls"]:
        lines.append(_roll_segments(r))
    for e in effects:
        lines.append([("  " + e.text, "cyan"), (" → " + _effect_now(e, after, items), "bold")])
    if note:
        lines.append([(f"  ({note})", "dim")])
    if "seed" in extra:
        lines[0].append((f" (seed {extra['seed']})", "dim"))
    if "session" in extra:
        from companion.i18n import _

        lines.append([("  " + _("recorded in {session}").format(session=extra["session"]), "dim")])
    _print(env, lines)


def _faces(r: dict[str, Any]) -> str:
    if r.get("faces") is None:
        return f"(total {r['total']})"
    return " ".join(f"[{f}]" for f in r["faces"])


def _total(r: dict[str, Any]) -> int:
    from companion.dice.expr import parse
    from companion.dice.roll import evaluate, evaluate_total

    expr = parse(r["expr"])
    if r.get("faces") is not None:
        return evaluate(expr, tuple(r["faces"]), 0, source=r["src"]).total
    return evaluate_total(expr, int(r["total"]), 0, source=r["src"]).total


def _roll_segments(r: dict[str, Any]) -> list[Segment]:
    depth = r.get("depth", 0)
    total = _total(r)
    if "table" in r:
        segs: list[Segment] = [("  " * depth + f"DR {r['table']}", "bold"), (f" ({r['expr']})", "dim")]
        segs.append(("  " + _faces(r), "bold magenta"))
        if r.get("faces") is not None and len(r["faces"]) > 1:
            segs.append((f" = {total}", "bold"))
        segs.append((f"  → {r['result']}", "bold"))
    else:
        tracker = r.get("tracker")
        head = f"check {r['check']}"
        segs = [
            (head, "bold"),
            (f" ({r['expr']}" + (f", {tracker['name']} {tracker['value']}" if tracker else "") + ")", "dim"),
        ]
        segs.append(("  " + _faces(r), "bold magenta"))
        if r.get("faces") is None or len(r["faces"]) > 1 or total != sum(r["faces"]):
            segs.append((f" = {total}", "bold"))
        passed = r["result"].startswith("pass")
        segs.append((f"  → {r['result']}", "bold green" if passed else "bold red"))
    segs.append((f"  · {r['src']}", "italic dim"))
    return segs


def _effect_now(e: Effect, after: dict[str, Any], items: dict[str, int]) -> str:
    if e.kind == "item":
        return f"{e.name}: {items[e.name]}" if e.name in items else "not applied (no session)"
    counter = after.get(e.name)
    if counter is None:
        return "not applied (no session)"
    return f"{e.label}: {counter.value}" + (f"/{counter.max}" if counter.max is not None else "")


def _json_roll(r: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in r.items() if k in ("table", "check", "title", "expr", "faces", "row", "result", "depth")}
    out["total"] = _total(r)
    out["source"] = r["src"]
    if "tracker" in r:
        out["tracker"] = r["tracker"]
    return out


def _json_effect(e: Effect, after: dict[str, Any], items: dict[str, int]) -> dict[str, Any]:
    out: dict[str, Any] = {"effect": e.text, "tracker": e.label, "applied": False}
    if e.kind == "item" and e.name in items:
        out.update(applied=True, value=items[e.name])
    elif after.get(e.name) is not None:
        out.update(applied=True, value=after[e.name].value, max=after[e.name].max)
    return out


def _print(env: Env, lines: list[list[Segment]]) -> None:
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


# ---- odds ------------------------------------------------------------------------------------


def odds(env: Env, words: list[str], *, mod: int, json_out: bool) -> bool:
    """``odds DR NAME``: each row's exact chance; ``odds check NAME``: the chance to pass now."""
    kind, name = words[0].lower(), " ".join(words[1:])
    if kind == "dr" and _game_table(env, name.lower(), None):
        return _builtin_odds(env, name.lower(), json_out)
    found = available(env)
    if kind == "dr" and not found.packs and not found.broken:
        return False
    pack, obj = lookup(env, kind, name, found)
    if kind == "dr":
        if mod:
            raise InputError(f"DR {obj.name} takes no modifier: a table reads the bare dice")
        show_table_odds(env, pack, obj, json_out)
        return True
    from companion.dice.odds import odds as exact
    from companion.dice.render import fraction
    from companion.packs.rolling import check_expr

    session = None
    from companion.cli.kit import active_name, opened

    if active_name(env) is not None:
        with opened(env) as s:
            value, note = tracker_value(obj, s)
    else:
        value, note = tracker_value(obj, session)
    expr = check_expr(obj, value)
    o = exact(expr, mod)
    if json_out:
        data = {
            "pack": pack.name,
            "check": obj.name,
            "expr": str(expr),
            "modifier": mod,
            "target": o.target,
            "success": f"{o.success.numerator}/{o.success.denominator}",
            "percent": round(float(o.success) * 100, 3),
        }
        if obj.tracker is not None:
            data["tracker"] = {"name": obj.tracker.name, "value": value}
        if note:
            data["note"] = note
        env.print_json(data)
        return True
    against = f" ({obj.tracker.name} {value})" if obj.tracker is not None else ""
    modtext = f" {mod:+d}".replace("-", "−") if mod else ""
    lines: list[list[Segment]] = [
        [
            (f"check {obj.name}", "bold"),
            (f": {obj.dice}{modtext} {obj.target_text}{against}", ""),
            (f" → passes on {o.target}: ", ""),
            (fraction(o.success), "bold green"),  # type: ignore[arg-type]
        ]
    ]
    if note:
        lines.append([(f"  ({note})", "dim")])
    _print(env, lines)
    return True


def show_table_odds(env: Env, pack: Pack, table: PackTable, json_out: bool) -> None:
    from companion.dice.odds import percent
    from companion.packs.rolling import table_odds

    rows = table_odds(table)
    if json_out:
        env.print_json(
            {
                "pack": pack.name,
                "table": table.name,
                "dice": table.dice,
                "rows": [
                    {"roll": r.span, "result": r.result, "chance": f"{p.numerator}/{p.denominator}"} for r, p in rows
                ],
            }
        )
        return
    from rich.table import Table
    from rich.text import Text

    env.print(Text(f"DR {table.name}", style="bold").append(f" ({table.dice}): {table.title}", style=""))
    grid = Table(box=None, pad_edge=False, show_header=True)
    grid.add_column("roll", justify="right", no_wrap=True)
    grid.add_column("chance", justify="right", no_wrap=True)
    grid.add_column("", justify="right", no_wrap=True)
    grid.add_column("result", overflow="fold")
    for r, p in rows:
        grid.add_row(r.span, f"{p.numerator}/{p.denominator}", percent(p), Text(r.result))
    env.print(grid)


def _builtin_odds(env: Env, name: str, json_out: bool) -> bool:
    from companion.cli.kit import active_game
    from companion.packs.find import builtin_packs

    for pack in builtin_packs([active_game(env)]):
        for candidate in (name, name.removesuffix("s"), name + "s"):
            if candidate in pack.tables:
                show_table_odds(env, pack, pack.tables[candidate], json_out)
                return True
    return False
