"""``companion dark ...``: every step of the Dark Tower as a one-shot command.

Each command records a ``dark`` event in the active session through ``Session.record`` (so the log,
undo, amend and replays see it); the event's reducer calls the same rules as guided play. Cards
entered here go into the player's catalogue too. Only typer is imported at module level.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.dice.expr import Expr
    from companion.dice.roll import Roll
    from companion.session.service import Session

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")]
GotOpt = Annotated[
    str | None,
    typer.Option(
        "--got",
        "-g",
        help="The faces you rolled: 1, 2, 3, ♥ (or 4, 5, h) and ★ (or 6, s, *), e.g. 1,h,6.",
        show_default=False,
    ),
]

EPILOG = """\
[bold]A turn[/bold]

  companion dark draw monster "Gelatinous Cube"     the card you drew
  companion dark fight                              odds, roll, result
  companion dark draw obstacle Pit; companion dark check --got 1,4,6
  companion dark trade Aria Sword Bob; companion dark end

Russian names work too: companion dark draw монстр "Желатиновый Куб".
"""

app = typer.Typer(
    help="Тёмная Башня (Dark Tower): enter cards as they are drawn; companion does the dice, odds, health and turns.",
    epilog=EPILOG,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)


@app.callback()
def dark(
    ctx: typer.Context,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang", help="Show the rules' terms in en or ru (the rule text's own Russian).", show_default=False
        ),
    ] = None,
) -> None:
    """Тёмная Башня (Dark Tower): each step of a turn as a one-shot command."""
    if lang is not None:
        from companion.errors import InputError

        if lang not in ("en", "ru"):
            raise InputError(f"{lang!r} is not a language; use --lang en or --lang ru")
        ctx.meta["dark_lang"] = lang


# ---- plumbing ------------------------------------------------------------------------------------


def _env(ctx: typer.Context) -> Env:
    return ctx.obj


@contextmanager
def _session(ctx: typer.Context) -> Iterator[Session]:
    from companion.errors import CompanionError
    from companion.session.api import opened

    with opened(_env(ctx)) as session:
        if session.meta.game != "dark-tower":
            raise CompanionError(
                f"the current session plays {session.meta.game}, not the Dark Tower",
                hint="start one with: companion new dark-tower (or pick one: companion use NAME)",
            )
        yield session


@contextmanager
def _shown_in(ctx: typer.Context, session: Session) -> Iterator[None]:
    """Show terms in ``--lang`` for this command's output only: the save keeps the session's language."""
    g = session.state.game
    saved = g.lang
    g.lang = ctx.meta.get("dark_lang", saved)
    try:
        yield
    finally:
        g.lang = saved


def _record(session: Session, event: dict[str, Any]) -> int:
    """Record a ``dark`` event: its reducer applies the rules, and undo, the log and replays see it."""
    return session.record({"t": "dark", **event})


def _dry(session: Session) -> Any:
    """A copy of the state to try an action on first (for its result), before it is recorded."""
    return copy.deepcopy(session.state)


def _show(
    ctx: typer.Context, session: Session, before: int, json_out: bool, result: dict[str, Any] | None = None
) -> None:
    """What the action wrote to the log, and what the game waits for now (or one JSON object).

    A turn's line (``Turn 3 · Aria: Fight ...``) is updated in place as the turn goes on; when this
    action changed it, it is shown first.
    """
    from companion.games.dark_tower import rules, screen

    env = _env(ctx)
    log = session.state.log
    entries = log.entries[before:]
    turn_line = log.lines.get(f"turn-{rules.game(session.state).turns}")
    if turn_line is not None and turn_line < before and log.entries[turn_line]["t"] != ctx.meta.get("dark_line"):
        entries = [log.entries[turn_line], *entries]
    if json_out:
        from companion.log.markdown import entry_text

        data: dict[str, Any] = {"session": session.name, "events": session.count}
        if result is not None:
            data["result"] = result
        data["log"] = [entry_text(e) for e in entries]
        data["status"] = screen.status_json(session.state)
        env.print_json(data)
        return
    from rich.text import Text

    from companion.shell.panels import entry_renderable

    for entry in entries:
        env.print(entry_renderable(entry))
    with _shown_in(ctx, session):
        env.print(Text("Now: " + rules.waiting_for(session.state), style="bold"))


def _roll(ctx: typer.Context, session: Session, expr: Expr, got: str | None, why: str) -> tuple[Roll, dict[str, Any]]:
    """Roll ``expr``: the faces given, the player's typed faces (physical dice), or the session's dice."""
    from companion.dice.source import read_physical
    from companion.session.api import ask_physical
    from companion.session.fold import roll_payload

    if got is not None:
        roll = read_physical(expr, got)
    elif session.state.dice == "physical":
        roll = ask_physical(_env(ctx), expr, 0, why)
    else:
        roll = session.dice().roll(expr)
    return roll, {"expr": str(expr), **roll_payload(roll)}


def _hero(session: Session, text: str) -> int:
    from companion.games.dark_tower import rules

    return rules.hero_index(session.state, text)


def _info(env: Env, lines: tuple[str, ...] | list[str], json_out: bool) -> None:
    if json_out:
        return
    from rich.text import Text

    for line in lines:
        env.print(Text(line, style="dim"))


# ---- cards ---------------------------------------------------------------------------------------


def _split(text: str | None) -> list[str]:
    return [p.strip() for p in (text or "").replace(";", ",").split(",") if p.strip()]


def _ints(text: str, n: int, what: str) -> list[int]:
    from companion.errors import InputError

    parts = _split(text.replace("/", ","))
    try:
        values = [int(p) for p in parts]
    except ValueError:
        values = []
    if len(values) != n:
        raise InputError(f"{what} needs {n} whole numbers separated by commas, got {text!r}")
    return values


def _spell(text: str) -> Any:
    """``NAME:LEVEL:KIND:BONUS[:TARGET[:COST]]``, e.g. ``Heroic Valor:2:activated:4:self:1``."""
    from companion.errors import InputError
    from companion.games.dark_tower import cards as C

    bits = [b.strip() for b in text.split(":", 6)]
    if len(bits) < 4 or not bits[0]:
        raise InputError(
            f"{text!r} is not a spell; write NAME:LEVEL:KIND:BONUS[:TARGET[:COST[:CONDITION]]] "
            "(e.g. 'Battle Cry:1:permanent:2:all' or 'Heroic Valor:2:activated:4:self:1')"
        )
    try:
        level, bonus = int(bits[1]), int(bits[3])
        cost = int(bits[5]) if len(bits) >= 6 and bits[5] else 1
    except ValueError:
        raise InputError(f"{text!r}: the level, the bonus and the cost are whole numbers") from None
    target = C.spell_target(bits[4]) if len(bits) >= 5 and bits[4] else "self"
    condition = bits[6] if len(bits) == 7 else ""
    return C.Spell(bits[0], level, C.spell_kind(bits[2]), bonus, target, cost, condition)


@app.command("card")
def card_cmd(
    ctx: typer.Context,
    kind: Annotated[
        str, typer.Argument(help="hero, monster, obstacle, item or quest (or монстр, ...).", show_default=False)
    ],
    name: Annotated[str, typer.Argument(help="The card's name, as printed.", show_default=False)],
    ru: Annotated[str, typer.Option("--ru", help="Its Russian name, when NAME is the English one.")] = "",
    health: Annotated[int | None, typer.Option("--health", help="hero: health.", show_default=False)] = None,
    bonus: Annotated[
        str | None,
        typer.Option(
            "--bonus", help="hero: bonus for levels 1,2,3 (e.g. 0,0,0); item: combat bonus.", show_default=False
        ),
    ] = None,
    spell: Annotated[
        list[str] | None,
        typer.Option(
            "--spell", help="hero: NAME:LEVEL:KIND:BONUS[:TARGET[:COST]] (repeat for each spell).", show_default=False
        ),
    ] = None,
    floor: Annotated[int | None, typer.Option("--floor", help="monster: its floor (1-3).", show_default=False)] = None,
    strength: Annotated[int | None, typer.Option("--strength", help="monster: strength.", show_default=False)] = None,
    ignores: Annotated[
        str | None,
        typer.Option(
            "--ignores", help="monster: item classes it ignores (weapon,armor; оружие,броня).", show_default=False
        ),
    ] = None,
    immune: Annotated[bool, typer.Option("--immune", help="monster: immune to (activated) spells.")] = False,
    summons: Annotated[bool, typer.Option("--summons", help="monster: summons other monsters.")] = False,
    takes_item: Annotated[
        bool, typer.Option("--takes-item", help="monster: when it wins, the hero discards a random item.")
    ] = False,
    cls: Annotated[str, typer.Option("--class", help="item: weapon, armor, another class, or none.")] = "",
    die: Annotated[bool, typer.Option("--die", help="item: +1 die in every roll.")] = False,
    single: Annotated[bool, typer.Option("--single", help="item: single use.")] = False,
    check: Annotated[int | None, typer.Option("--check", help="obstacle: check value.", show_default=False)] = None,
    damage: Annotated[int, typer.Option("--damage", help="obstacle: health lost on a fail.")] = 0,
    penalty: Annotated[int, typer.Option("--penalty", help="obstacle: penalty in the next fight on a fail.")] = 0,
    event: Annotated[str, typer.Option("--event", help="obstacle: the event on a fail.")] = "",
    goal: Annotated[str, typer.Option("--goal", help="quest: its goal.")] = "",
    adds: Annotated[
        list[str] | None,
        typer.Option(
            "--adds", help="quest: FLOOR:MONSTERS,OBSTACLES,ITEMS it adds (e.g. 3:1,0,0).", show_default=False
        ),
    ] = None,
    props: Annotated[
        str,
        typer.Option(
            "--props",
            help="Properties as words: ignores, immune, summons, takes-item, die, single "
            "(or игнорирует, иммунитет, призывает, +1 кубик, разовый).",
        ),
    ] = "",
    text: Annotated[str, typer.Option("--text", help="Anything else the card says.")] = "",
    json_out: JsonOpt = False,
) -> None:
    """Enter a card (or correct one): kept in your catalogue for every next game."""
    from companion.errors import InputError
    from companion.games.dark_tower import cards as C
    from companion.games.dark_tower import rules
    from companion.session import catalogue
    from companion.session.api import active_game
    from companion.store.paths import data_dir

    env = _env(ctx)
    k = C.kind_of(kind)
    card: C.Card
    words = C.properties(props)
    allowed = {"monster": {"ignores", "immune", "summons", "takes_item"}, "item": {"die", "single"}}.get(k, set())
    if words - allowed:
        raise InputError(f"a {k} card has no property {sorted(words - allowed)[0]!r}")
    immune, summons, takes_item = (
        immune or "immune" in words,
        summons or "summons" in words,
        takes_item or "takes_item" in words,
    )
    die, single = die or "die" in words, single or "single" in words
    if "ignores" in words and not ignores:
        ignores = "weapon,armor"

    def need(value: Any, option: str) -> Any:
        if value is None:
            raise InputError(f"a {k} card needs {option}")
        return value

    if k == "hero":
        levels = _ints(bonus, 3, "--bonus") if bonus is not None else [0, 0, 0]
        card = C.HeroCard(name, need(health, "--health"), levels, [_spell(s) for s in spell or []], ru, text)
    elif k == "monster":
        classes = [C.item_class(c) for c in _split(ignores)]
        if any(c in ("all", "both", "все") for c in classes):
            classes = ["weapon", "armor"]
        card = C.MonsterCard(
            name, need(floor, "--floor"), need(strength, "--strength"), classes, immune, summons, takes_item, ru, text
        )
    elif k == "item":
        value = 0
        if bonus is not None:
            try:
                value = int(bonus)
            except ValueError:
                raise InputError(f"an item's --bonus is one whole number, not {bonus!r}") from None
        card = C.ItemCard(name, C.item_class(cls), value, die, single, ru, text)
    elif k == "obstacle":
        card = C.ObstacleCard(name, need(check, "--check"), damage, penalty, event, ru, text)
    else:
        rows = [[0, 0, 0] for _ in range(3)]
        for a in adds or []:
            fl, sep, counts = a.partition(":")
            if not sep or not fl.strip().isdigit() or not 1 <= int(fl) <= 3:
                raise InputError(f"{a!r} is not FLOOR:MONSTERS,OBSTACLES,ITEMS (e.g. 3:1,0,0)")
            rows[int(fl) - 1] = _ints(counts, 3, "--adds")
        card = C.QuestCard(name, goal, rows, ru, text)
    rules.validate(card)
    if not C.slug(card.name):
        raise InputError(f"a {k} card needs a name")
    stored = C.to_json(card)
    recorded = None
    values = catalogue.load(data_dir(env.data_dir), "dark-tower")
    if active_game(env) == "dark-tower":
        with _session(ctx) as session:
            card_slug = C.slug_for({**values, **session.state.data}, k, card)
            recorded = _record(session, {"op": "card", "kind": k, "card": stored, "slug": card_slug})
    else:
        card_slug = C.slug_for(values, k, card)
    path = catalogue.path(data_dir(env.data_dir), "dark-tower")
    catalogue.merge(data_dir(env.data_dir), "dark-tower", {C.key(k, card_slug): stored})
    if json_out:
        env.print_json({"kind": k, "slug": card_slug, "card": stored, "catalogue": str(path), "event": recorded})
        return
    env.print(f"{C.term(k, ctx.meta.get('dark_lang', 'en'))}: {C.describe(card, ctx.meta.get('dark_lang', 'en'))}")
    env.print(f"[dim]Kept in {path}" + (f"; recorded in the session (#{recorded})" if recorded else "") + "[/dim]")


@app.command("cards")
def cards_cmd(
    ctx: typer.Context,
    kind: Annotated[str | None, typer.Argument(help="Only this kind (hero, monster, ...).", show_default=False)] = None,
    json_out: JsonOpt = False,
) -> None:
    """List the cards you have entered (and the rule text's two examples)."""
    from companion.games.dark_tower import cards as C
    from companion.games.dark_tower import data
    from companion.session import catalogue
    from companion.session.api import active_game
    from companion.store.paths import data_dir

    env = _env(ctx)
    kinds = [C.kind_of(kind)] if kind else list(data.CARD_KINDS)
    values = catalogue.load(data_dir(env.data_dir), "dark-tower")
    if active_game(env) == "dark-tower":
        with _session(ctx) as session:
            values = {**values, **session.state.data}
    lang = ctx.meta.get("dark_lang", "en")
    found = {k: C.known(values, k) for k in kinds}
    if json_out:
        env.print_json({k: {s: C.to_json(c) for s, c in cs.items()} for k, cs in found.items()})
        return
    for k, cs in found.items():
        env.print(f"[bold]{C.term(k, lang)}[/bold] ({len(cs)})")
        for s, c in sorted(cs.items()):
            env.print(f"  {C.describe(c, lang)}  [dim]{s}[/dim]")


# ---- setup ---------------------------------------------------------------------------------------


@app.command("join")
def join(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="The player's name.", show_default=False)],
    hero: Annotated[str, typer.Argument(help="Their hero card (English or Russian name).", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Add a player and the hero they picked (before the game starts)."""
    from companion.games.dark_tower import cards as C

    with _session(ctx) as session:
        before = len(session.state.log.entries)
        card = C.find(session.state, "hero", hero)
        _record(session, {"op": "join", "player": player, "hero": card})
        _show(ctx, session, before, json_out)


@app.command("item")
def item(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="Who takes it.", show_default=False)],
    name: Annotated[str, typer.Argument(help="The item card (English or Russian name).", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """A player takes an item: their random starting item, or one a card gives."""
    from companion.games.dark_tower import cards as C

    with _session(ctx) as session:
        before = len(session.state.log.entries)
        who = _hero(session, player)
        card = C.find(session.state, "item", name)
        _record(session, {"op": "item", "hero": who, "item": card})
        _show(ctx, session, before, json_out)


@app.command("quest")
def quest(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Argument(help="The quest card drawn.", show_default=False)] = None,
    none: Annotated[bool, typer.Option("--none", help="Play without a quest: beat every monster.")] = False,
    done: Annotated[bool, typer.Option("--done", help="The quest is done: the heroes win.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Choose the quest (before the start), or mark it done (the heroes win)."""
    from companion.errors import InputError
    from companion.games.dark_tower import cards as C

    if sum((name is not None, none, done)) != 1:
        raise InputError("give the quest's name, or --none, or --done")
    with _session(ctx) as session:
        before = len(session.state.log.entries)
        if done:
            _record(session, {"op": "quest-done"})
        else:
            card = None if none else C.find(session.state, "quest", name or "")
            _record(session, {"op": "quest", "quest": card})
        _show(ctx, session, before, json_out)


@app.command("start")
def start_cmd(
    ctx: typer.Context,
    first: Annotated[
        str | None, typer.Option("--first", help="Who goes first (default: the first player).", show_default=False)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Build the three floor decks and start: floor 1, level 1, the first player's turn."""
    with _session(ctx) as session:
        before = len(session.state.log.entries)
        who = _hero(session, first) if first else 0
        _record(session, {"op": "start", "first": who})
        _show(ctx, session, before, json_out)


@app.command("decks")
def decks_cmd(
    ctx: typer.Context,
    players: Annotated[
        int | None,
        typer.Option(
            "--players", "-p", help="How many players (default: the session's).", min=1, max=4, show_default=False
        ),
    ] = None,
    fixed: Annotated[
        bool, typer.Option("--fixed-monsters", help="The fixed-monsters reading (default: the session's variant).")
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """The deck calculator: monster, obstacle and item cards for each floor's deck, per the rules."""
    from companion.errors import InputError
    from companion.games.dark_tower import data
    from companion.games.dark_tower.decks import deck_counts
    from companion.session.api import active_game

    env = _env(ctx)
    quest = None
    reading = fixed
    if players is None:
        if active_game(env) != "dark-tower":
            raise InputError("give --players N (1-4), or start a Dark Tower session")
        from companion.games.dark_tower import cards as C
        from companion.games.dark_tower import rules

        with _session(ctx) as session:
            g = rules.game(session.state)
            players = len(g.heroes)
            if not players:
                raise InputError("no players at the table yet; add them (companion dark join) or give --players N")
            reading = fixed or data.FIXED_MONSTERS in session.meta.variants
            if g.quest:
                q = C.get(session.state, "quest", g.quest)
                quest = q.adds  # type: ignore[union-attr]
    decks = deck_counts(players, fixed_monsters=reading, quest=quest)
    if json_out:
        env.print_json(
            {
                "players": players,
                "reading": data.FIXED_MONSTERS if reading else "per-player",
                "quest": quest,
                "floors": [
                    {
                        "floor": d.floor,
                        "monsters": d.monsters,
                        "obstacles": d.obstacles,
                        "items": d.items,
                        "total": d.total,
                    }
                    for d in decks
                ],
            }
        )
        return
    from rich.table import Table

    lang = ctx.meta.get("dark_lang", "en")
    from companion.games.dark_tower import cards as C

    table = Table(box=None, pad_edge=False)
    for col in (C.term("floor", lang), C.term("monsters", lang), C.term("obstacles", lang), C.term("items", lang), ""):
        table.add_column(col, justify="right")
    table.add_column("", justify="right")  # the total, right-aligned after its own "=" column
    for d in decks:
        table.add_row(str(d.floor), str(d.monsters), str(d.obstacles), str(d.items), "=", str(d.total))
    reading_text = "fixed monsters (variant)" if reading else "monsters per player"
    env.print(
        f"{players} player{'s' if players != 1 else ''}, {reading_text}" + (", with the quest's cards" if quest else "")
    )
    env.print(table)


# ---- a turn --------------------------------------------------------------------------------------


@app.command("draw")
def draw_cmd(
    ctx: typer.Context,
    kind: Annotated[
        str, typer.Argument(help="monster, obstacle or item (монстр, препятствие, предмет).", show_default=False)
    ],
    name: Annotated[
        str, typer.Argument(help="The card (enter a new one first with: companion dark card).", show_default=False)
    ],
    any_floor: Annotated[
        bool,
        typer.Option("--any-floor", help="A monster of another floor came up here (a quest's cards may say so)."),
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """The current player drew the top card of the floor."""
    from companion.errors import InputError
    from companion.games.dark_tower import cards as C

    with _session(ctx) as session:
        k = C.kind_of(kind)
        if k not in ("monster", "obstacle", "item"):
            raise InputError("a floor's deck holds monsters, obstacles and items")
        before = len(session.state.log.entries)
        card = C.find(session.state, k, name)
        _record(session, {"op": "draw", "kind": k, "card": card, **({"any_floor": True} if any_floor else {})})
        _show(ctx, session, before, json_out)


@app.command("group")
def group_cmd(
    ctx: typer.Context,
    monster: Annotated[str, typer.Argument(help="The monster that joins the fight.", show_default=False)],
    from_deck: Annotated[
        bool, typer.Option("--from-deck", help="It was drawn from this floor's deck (the count goes down).")
    ] = False,
    any_floor: Annotated[
        bool,
        typer.Option("--any-floor", help="A monster of another floor came up here (a quest's cards may say so)."),
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Another monster joins the group on the table (it was summoned, or a card says so)."""
    from companion.games.dark_tower import cards as C

    with _session(ctx) as session:
        before = len(session.state.log.entries)
        card = C.find(session.state, "monster", monster)
        event = {"op": "group", "monster": card, "from_deck": from_deck}
        _record(session, {**event, **({"any_floor": True} if any_floor else {})})
        _show(ctx, session, before, json_out)


@app.command("check")
def check_cmd(
    ctx: typer.Context,
    got: GotOpt = None,
    use: Annotated[
        list[str] | None, typer.Option("--use", help="A single-use +1 die item to use (repeat).", show_default=False)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Roll the drawn obstacle's check: the numbers on 3 dice must be more than its value; each ♥ heals 1."""
    from companion.dice.expr import parse
    from companion.dice.render import fraction
    from companion.dice.render import to_json as roll_json
    from companion.games.dark_tower import cards as C
    from companion.games.dark_tower import odds, rules

    env = _env(ctx)
    with _session(ctx) as session:
        state = session.state
        g = rules.game(state)
        if g.phase != "obstacle":
            from companion.errors import InputError

            raise InputError(f"there is no obstacle to check: {rules.waiting_for(state)}")
        items = [rules.held_index(state, g.turn, u) for u in use or []]
        used = [g.current().items[i].card for i in items]
        card = C.get(state, "obstacle", g.obstacle or "")
        dice = rules.check_dice(state, used)
        co = odds.check_odds(card.check, dice)  # type: ignore[union-attr]
        title = C.title(card, ctx.meta.get("dark_lang", g.lang))
        _info(env, [f"{title}: {dice} dice must show more than {card.check}: pass {fraction(co.passed)}"], json_out)  # type: ignore[union-attr]
        expr = parse(f"{dice}dt>{card.check}")  # type: ignore[union-attr]
        roll, payload = _roll(ctx, session, expr, got, f"{g.current().player}: check {card.check}")  # type: ignore[union-attr]
        result = rules.resolve_check(_dry(session), roll, used)
        before = len(state.log.entries)
        why = f"{g.current().player}: {rules.t(state, 'check').lower()} {card.check}"  # type: ignore[union-attr]
        _record(session, {"op": "check", "roll": payload, "use": used, "why": why})
        out = {
            "passed": result.passed,
            "total": result.total,
            "check": result.check,
            "healed": result.healed,
            "damage": result.damage,
            "penalty": result.penalty,
            "event": result.event,
            "odds": f"{co.passed.numerator}/{co.passed.denominator}",
            "roll": roll_json(roll),
        }
        _show(ctx, session, before, json_out, out)


@app.command("fight")
def fight_cmd(
    ctx: typer.Context,
    helper: Annotated[
        str | None,
        typer.Option(
            "--with", help="Call this player to help (from floor 2): bonuses add, you roll.", show_default=False
        ),
    ] = None,
    use: Annotated[
        list[str] | None,
        typer.Option("--use", help="A single-use item to use in this fight (repeat).", show_default=False),
    ] = None,
    condition: Annotated[
        list[str] | None,
        typer.Option("--condition", help="A permanent spell whose condition holds now (repeat).", show_default=False),
    ] = None,
    cast: Annotated[
        list[str] | None,
        typer.Option(
            "--cast",
            help="Spend ★ on these activated spells, as far as the energy goes; 'auto' (default) casts what adds "
            "most, 'none' keeps the energy.",
            show_default=False,
        ),
    ] = None,
    got: GotOpt = None,
    odds_only: Annotated[bool, typer.Option("--odds", help="Only show the odds; do not roll.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Fight the monsters on the table: the odds first, then 4 dice; ★ casts spells, ♥ heals."""
    from companion.dice.expr import parse
    from companion.dice.render import to_json as roll_json
    from companion.errors import InputError
    from companion.games.dark_tower import cards as C
    from companion.games.dark_tower import odds, rules
    from companion.games.dark_tower.engine import odds_lines

    env = _env(ctx)
    with _session(ctx) as session:
        state = session.state
        g = rules.game(state)
        if g.phase != "fight":
            raise InputError(f"there is no fight now: {rules.waiting_for(state)}")
        plan = rules.Plan()
        if helper is not None:
            plan.helper = _hero(session, helper)
        plan.use = [g.current().items[rules.held_index(state, g.turn, u)].card for u in use or []]
        plan.conditions = [C.slug(c) for c in condition or []]
        bonus = rules.fight_bonus(state, plan)
        with _shown_in(ctx, session):
            lines = odds_lines(state, plan)
        fo = odds.fight_odds(bonus.total, bonus.strength, bonus.dice, rules.boosts(state, bonus))
        odds_data = {
            "bonus": bonus.total,
            "parts": [list(p) for p in bonus.parts],
            "dice": bonus.dice,
            "strength": bonus.strength,
            "win": f"{fo.win.numerator}/{fo.win.denominator}",
            "tie": f"{fo.tie.numerator}/{fo.tie.denominator}",
            "damage": {str(d): f"{p.numerator}/{p.denominator}" for d, p in fo.damage.items()},
        }
        if odds_only:
            if json_out:
                env.print_json({"odds": odds_data, "lines": list(lines)})
            else:
                _info(env, lines, False)
            return
        _info(env, lines, json_out)
        why = f"{g.current().player}: {rules.t(state, 'fight').lower()} {rules.group_text(state)}"
        roll, payload = _roll(ctx, session, parse(f"{bonus.dice}dt"), got, why)
        payload["mod"] = bonus.total
        payload["parts"] = [list(p) for p in bonus.parts]
        from companion.dice.roll import evaluate

        roll = evaluate(roll.expr, roll.faces or (), bonus.total, source=roll.source, parts=tuple(bonus.parts))
        chosen, skipped = _choose_casts(state, bonus, roll.stars or 0, cast)
        _info(env, [f"Not enough ★ for {s}: not cast." for s in skipped], json_out)
        result = rules.resolve_fight(_dry(session), plan, roll, chosen)
        before = len(state.log.entries)
        _record(
            session,
            {
                "op": "fight",
                "roll": payload,
                "why": why,
                "helper": plan.helper,
                "use": plan.use,
                "conditions": plan.conditions,
                "cast": [list(c) for c in chosen],
            },
        )
        out = {
            "won": result.won,
            "total": result.total,
            "strength": result.strength,
            "damage": result.damage,
            "healed": result.healed,
            "energy": result.energy,
            "cast": result.cast,
            "fallen": result.fallen,
            "owed": result.owed,
            "odds": odds_data,
            "roll": roll_json(roll),
        }
        _show(ctx, session, before, json_out, out)


def _choose_casts(
    state: Any, bonus: Any, stars: int, cast: list[str] | None
) -> tuple[list[tuple[int, str]], list[str]]:
    """The spells to cast: ``auto`` (the most bonus), ``none``, or the named ones while the energy lasts."""
    from companion.errors import InputError
    from companion.games.dark_tower import cards as C
    from companion.games.dark_tower import rules

    wanted = cast or ["auto"]
    if wanted == ["auto"]:
        return rules.best_castings(state, bonus, stars), []
    if wanted == ["none"]:
        return [], []
    chosen: list[tuple[int, str]] = []
    skipped: list[str] = []
    for name in wanted:
        key = C.slug(name)
        option = next((c for c in bonus.castable if key in (c.slug, C.slug(c.spell.ru))), None)
        if option is None:
            known = ", ".join(c.spell.name for c in bonus.castable) or "none in this fight"
            raise InputError(f"{name!r} is not an activated spell the heroes can cast here (castable: {known})")
        try:
            rules.castings(state, bonus, [*chosen, (option.hero, option.slug)], stars)
        except InputError:
            skipped.append(option.spell.name)
            continue
        chosen.append((option.hero, option.slug))
    return chosen, skipped


@app.command("lose")
def lose_cmd(
    ctx: typer.Context,
    player: Annotated[
        str | None, typer.Argument(help="Who loses an item (default: the first who owes one).", show_default=False)
    ] = None,
    name: Annotated[
        str | None, typer.Argument(help="The item, if you picked it at random yourselves.", show_default=False)
    ] = None,
    got: GotOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The random item a monster takes (the Gelatinous Cube): 1dN with the session's dice, or the one you picked."""
    from companion.errors import InputError
    from companion.games.dark_tower import rules

    with _session(ctx) as session:
        state = session.state
        g = rules.game(state)
        if not g.owed:
            raise InputError("nobody owes a random item now")
        who = _hero(session, player) if player else g.owed[0]
        if who not in g.owed:
            raise InputError(f"{g.heroes[who].player} owes no item")
        hero = g.heroes[who]
        before = len(state.log.entries)
        event: dict[str, Any] = {"op": "lose", "hero": who}
        if name is not None:
            event["index"] = rules.held_index(state, who, name)
        elif len(hero.items) == 1:
            event["index"] = 0
        else:
            from companion.games.dark_tower.engine import pick_expr

            _, payload = _roll(ctx, session, pick_expr(len(hero.items)), got, f"{hero.player}'s random item")
            event["roll"] = payload
            event["why"] = f"{hero.player} discards a random item"
        _record(session, event)
        _show(ctx, session, before, json_out)


@app.command("discard")
def discard_cmd(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="Who discards.", show_default=False)],
    name: Annotated[str, typer.Argument(help="The item (name or its number in their hand).", show_default=False)],
    to: Annotated[
        str | None,
        typer.Option("--to", help="Another player picks it up (usable from their next turn).", show_default=False),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Discard an item (one of each class may be held); another player may pick it up."""
    from companion.games.dark_tower import rules

    with _session(ctx) as session:
        before = len(session.state.log.entries)
        who = _hero(session, player)
        index = rules.held_index(session.state, who, name)
        _record(session, {"op": "discard", "hero": who, "index": index, "to": _hero(session, to) if to else None})
        _show(ctx, session, before, json_out)


@app.command("trade")
def trade_cmd(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="Who gives.", show_default=False)],
    name: Annotated[str, typer.Argument(help="What they give.", show_default=False)],
    other: Annotated[str, typer.Argument(help="Who receives.", show_default=False)],
    back: Annotated[
        str | None, typer.Argument(help="What the other gives back (nothing: a gift).", show_default=False)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Trade at the end of a turn: the items received are usable from their owner's next turn."""
    from companion.games.dark_tower import rules

    with _session(ctx) as session:
        state = session.state
        before = len(state.log.entries)
        a, b = _hero(session, player), _hero(session, other)
        event = {
            "op": "trade",
            "a": a,
            "item_a": rules.held_index(state, a, name),
            "b": b,
            "item_b": rules.held_index(state, b, back) if back else None,
        }
        _record(session, event)
        _show(ctx, session, before, json_out)


@app.command("end")
def end_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """End the turn: energy fades, items over the class limit must be gone, a cleared floor is left."""
    with _session(ctx) as session:
        before = len(session.state.log.entries)
        _record(session, {"op": "end"})
        _show(ctx, session, before, json_out)


@app.command("floor")
def floor_cmd(
    ctx: typer.Context,
    force: Annotated[bool, typer.Option("--force", help="Go up even if the count says cards are left.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Go up to the next floor: every hero rises a level and learns its spells (end does this by itself)."""
    with _session(ctx) as session:
        before = len(session.state.log.entries)
        _record(session, {"op": "floor", "force": force})
        _show(ctx, session, before, json_out)


@app.command("hp", context_settings={"ignore_unknown_options": True})
def hp_cmd(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="Whose health.", show_default=False)],
    change: Annotated[str | None, typer.Argument(help="+N, -N or =N.", show_default=False)] = None,
    maximum: Annotated[
        int | None, typer.Option("--max", help="A new most health (an item that raises it).", show_default=False)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Change a hero's health by a card's own text (dice, fights and obstacles do it by themselves)."""
    from companion.cli.common import parse_change
    from companion.errors import InputError

    if change is None and maximum is None:
        raise InputError("give a change (+N, -N, =N) or --max N")
    with _session(ctx) as session:
        before = len(session.state.log.entries)
        who = _hero(session, player)
        event: dict[str, Any] = {"op": "health", "hero": who}
        if change is not None:
            op, n = parse_change(change, "health")
            event["value" if op == "set" else "delta"] = n
        if maximum is not None:
            event["max"] = maximum
        _record(session, event)
        _show(ctx, session, before, json_out)


@app.command("deck")
def deck_cmd(
    ctx: typer.Context,
    floor: Annotated[int, typer.Argument(help="The floor.", min=1, max=3, show_default=False)],
    counts: Annotated[str, typer.Argument(help="MONSTERS,OBSTACLES,ITEMS left in it.", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Correct a deck's count to what your table really has."""
    with _session(ctx) as session:
        before = len(session.state.log.entries)
        _record(session, {"op": "deck", "floor": floor, "counts": _ints(counts, 3, "the counts")})
        _show(ctx, session, before, json_out)


@app.command("lang")
def lang_cmd(
    ctx: typer.Context,
    lang: Annotated[str, typer.Argument(help="en, or ru for the rule text's own Russian terms.", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Show the rules' terms in English or Russian in this session (guided play, the screen and the log)."""
    with _session(ctx) as session:
        before = len(session.state.log.entries)
        _record(session, {"op": "lang", "lang": lang.strip().lower()})
        _show(ctx, session, before, json_out)


@app.command("status")
def status_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """The table: the floor and its deck, each hero's health, level, energy and items, what comes next."""
    from companion.games.dark_tower import screen

    env = _env(ctx)
    with _session(ctx) as session:
        if json_out:
            env.print_json(screen.status_json(session.state))
            return
        from companion.shell.panels import status_panel

        with _shown_in(ctx, session):
            env.print(status_panel(session))


@app.command("odds")
def odds_cmd(
    ctx: typer.Context,
    what: Annotated[str, typer.Argument(help="check or fight.", show_default=False)],
    numbers: Annotated[
        list[int] | None,
        typer.Argument(help="check: VALUE; fight: BONUS STRENGTH.", show_default=False),
    ] = None,
    dice: Annotated[
        int | None,
        typer.Option("--dice", help="Dice rolled (3 for a check, 4 for a fight).", min=1, max=12, show_default=False),
    ] = None,
    boost: Annotated[
        list[str] | None,
        typer.Option(
            "--boost", help="fight: an activated spell BONUS[:COST] the ★ can cast (repeat).", show_default=False
        ),
    ] = None,
    health: Annotated[
        int | None,
        typer.Option("--health", help="fight: the roller's health, for the chance to fall.", show_default=False),
    ] = None,
    max_health: Annotated[
        int | None,
        typer.Option(
            "--max-health", help="fight: the most health the ♥ can heal to (default: --health).", show_default=False
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Exact odds: 3 dice over a check value, or 4 dice bringing a bonus above a monster's strength."""
    from companion.dice.render import fraction
    from companion.errors import InputError
    from companion.games.dark_tower import data, odds

    env = _env(ctx)
    nums = numbers or []

    def frac(p: Any) -> str:
        return f"{p.numerator}/{p.denominator}"

    if what in ("check", "проверка"):
        if len(nums) != 1:
            raise InputError("odds check takes the check VALUE, e.g. companion dark odds check 5")
        co = odds.check_odds(nums[0], dice or data.CHECK_DICE)
        if json_out:
            env.print_json(
                {
                    "check": co.check,
                    "dice": co.dice,
                    "pass": frac(co.passed),
                    "hearts": {str(k): frac(v) for k, v in co.hearts.items()},
                }
            )
            return
        env.print(f"{co.dice} dice, numbers more than {co.check}: pass {fraction(co.passed)}")
        env.print("  ♥ " + ", ".join(f"{k}: {odds_pct(v)}" for k, v in co.hearts.items()))
        return
    if what not in ("fight", "бой"):
        raise InputError(f"{what!r}: use check or fight")
    if len(nums) != 2:
        raise InputError("odds fight takes BONUS STRENGTH, e.g. companion dark odds fight 4 9")
    boosts = []
    for b in boost or []:
        v, _, c = b.partition(":")
        try:
            boosts.append((int(v), int(c) if c else 1))
        except ValueError:
            raise InputError(f"{b!r} is not BONUS[:COST], e.g. 4:1") from None
    fo = odds.fight_odds(nums[0], nums[1], dice or data.FIGHT_DICE, boosts)
    top = max(health or 0, max_health or 0)
    fall = odds.fall_chance(fo, health, top) if health else None
    if json_out:
        env.print_json(
            {
                "bonus": nums[0],
                "strength": nums[1],
                "dice": fo.dice,
                "boosts": [list(b) for b in boosts],
                "win": frac(fo.win),
                "tie": frac(fo.tie),
                "damage": {str(k): frac(v) for k, v in fo.damage.items()},
                "hearts": {str(k): frac(v) for k, v in fo.hearts.items()},
                "energy": {str(k): frac(v) for k, v in fo.energy.items()},
                "fall": frac(fall) if fall is not None else None,
            }
        )
        return
    env.print(f"{fo.dice} dice {nums[0]:+d} vs {nums[1]}: win {fraction(fo.win)} · tie {odds_pct(fo.tie)} (no damage)")
    env.print("  damage: " + ", ".join(f"{k}: {odds_pct(v)}" for k, v in fo.damage.items() if k))
    env.print("  ♥ " + ", ".join(f"{k}: {odds_pct(v)}" for k, v in fo.hearts.items()))
    env.print("  ★ " + ", ".join(f"{k}: {odds_pct(v)}" for k, v in fo.energy.items()))
    if fall is not None:
        env.print(f"  the roller at {health}/{top} health falls (♥ heal first): {fraction(fall)}")


def odds_pct(p: Any) -> str:
    """``12.5%``; a possible outcome never reads 0.0% (``<0.1%``): the rule every chance follows."""
    from fractions import Fraction

    from companion.dice.odds import percent

    return percent(Fraction(p))


def _health(text: str, option: str) -> tuple[int, int]:
    """``4`` or ``4/6`` (health, max health), or one clear error."""
    from companion.errors import InputError

    now, _, top = text.partition("/")
    try:
        health = int(now)
        most = int(top) if top else health
    except ValueError:
        raise InputError(f"{option} {text!r}: give HEALTH or HEALTH/MAX, e.g. 4/6") from None
    if health < 0 or most < health or most > 99:
        raise InputError(f"{option} {text!r}: health is 0 to MAX, and MAX at most 99")
    return health, most


def odds_fight(
    ctx: typer.Context,
    bonus: Annotated[
        int | None,
        typer.Option(
            "--bonus", help="The heroes' total combat bonus (default: the fight on the table).", show_default=False
        ),
    ] = None,
    strength: Annotated[
        list[int] | None,
        typer.Option(
            "--strength",
            help="The monster's strength; repeat it for a group (their strengths add up).",
            show_default=False,
        ),
    ] = None,
    dice: Annotated[
        int | None,
        typer.Option("--dice", help="Dice rolled (4, plus one per extra die).", min=1, max=12, show_default=False),
    ] = None,
    boost: Annotated[
        list[str] | None,
        typer.Option("--boost", help="An activated spell BONUS[:COST] the ★ can cast (repeat).", show_default=False),
    ] = None,
    health: Annotated[
        str | None,
        typer.Option("--health", help="The roller's HEALTH[/MAX], for the chance to fall.", show_default=False),
    ] = None,
    helper: Annotated[
        str | None,
        typer.Option("--helper", help="A helper's HEALTH[/MAX] (no hearts heal a helper).", show_default=False),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Exact odds of a fight against a monster or a group: beaten, tie, damage, the health left.

    With a Dark Tower session in a fight, what you leave out comes from the fight on the table as it
    stands (the roller alone, no single-use item): its bonus, strength, dice, spells and health.
    """
    from companion.errors import InputError
    from companion.games.dark_tower import data, rules
    from companion.games.dark_tower.odds import fight_outcome
    from companion.session.api import active_game
    from companion.sim.fights import show

    env = _env(ctx)
    boosts: list[tuple[int, int]] | None = None
    if boost is not None:
        boosts = []
        for b in boost:
            v, _, c = b.partition(":")
            try:
                boosts.append((int(v), int(c) if c else data.DEFAULT_SPELL_COST))
            except ValueError:
                raise InputError(f"--boost {b!r}: give BONUS[:COST], e.g. 4:1") from None
    roller = _health(health, "--health") if health is not None else None
    table: dict[str, Any] = {}
    if (bonus is None or strength is None) and active_game(env) == "dark-tower":
        with _session(ctx) as session:
            state = session.state
            g = state.game
            if g.phase == "fight" and g.group:
                fb = rules.fight_bonus(state, rules.Plan())
                hero = g.current()
                table = {
                    "bonus": fb.total,
                    "strength": [rules.monster_card(state, m).strength for m in g.group],
                    "dice": fb.dice,
                    "boosts": rules.boosts(state, fb),
                    "health": (hero.health, hero.max_health),
                }
    if bonus is None:
        bonus = table.get("bonus")
    if not strength:
        strength = table.get("strength")
    if bonus is None or not strength:
        raise InputError(
            "give --bonus and --strength (no Dark Tower fight is on the table to read them from), "
            "e.g. companion odds fight dark-tower --bonus 3 --strength 9"
        )
    if any(s < 0 for s in strength):
        raise InputError("a strength cannot be negative")
    if roller is None:
        roller = table.get("health")
    o = fight_outcome(
        bonus,
        strength,
        dice or table.get("dice") or data.FIGHT_DICE,
        boosts if boosts is not None else table.get("boosts", ()),
        health=roller[0] if roller else None,
        max_health=roller[1] if roller else None,
        helper=_health(helper, "--helper") if helper is not None else None,
    )
    show(env, o, json_out)
