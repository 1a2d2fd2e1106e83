"""``companion dragon ...``: one-shot commands for every step of a Dragon's Den turn.

Each action command answers the action's step (:mod:`.steps`) from its options (``--got`` faces,
``--chit`` chits, ``--shield``/``--haste``) or the session's virtual dice, and records one ``dragon``
event through ``Session.record``, so ``companion log``, ``undo`` and replays see it. The guided
``companion play`` menu runs the very same steps.

Only typer is imported here at module level: everything else is imported inside the commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import JsonOpt

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.engine.requests import Request, RollRequest
    from companion.games.dragons_den.state import Den
    from companion.session.service import Session

app = typer.Typer(
    help="D&D The Dragon's Den at the table: attacks, abilities, breath, chits, the alarm and the score. "
    "Every action is recorded in the current session (undo and the log see it).",
    no_args_is_help=True,
    add_completion=False,
)

GotOpt = Annotated[
    list[str] | None,
    typer.Option("--got", "-g", help="The die you rolled yourself (else the session's dice).", show_default=False),
]
ChitOpt = Annotated[
    list[str] | None,
    typer.Option("--chit", help="The chit you drew from a real cup (repeat for several).", show_default=False),
]


# ---- plumbing ---------------------------------------------------------------------------------------


def _den(session: Session) -> Den:
    from companion.errors import CompanionError

    if session.meta.game != "dragons-den":
        raise CompanionError(
            f"session {session.name!r} plays {session.meta.game}, not the Dragon's Den",
            hint="start one with: companion new dragons-den",
        )
    return session.state.game


def resolve(den: Den, text: str, *, kinds: tuple[str, ...] = ("hero", "monster", "dragon")) -> str:
    """A figure's key from what a player types: ``sam``, ``#7``, ``7`` (a hero), ``m15``, ``troll``, ``dragon``."""
    from companion.errors import InputError
    from companion.games.dragons_den.state import HIDDEN

    t = " ".join(text.strip().lower().split()).lstrip("#")
    figures = [f for f in den.figures() if f.kind in kinds]

    def name(f) -> str:  # a hidden dragon answers to "dragon" only: its name would give it away
        return "dragon" if f.status == HIDDEN else f.name.lower()

    for f in figures:
        if t in (f.key, name(f)) or (f.kind == "dragon" and t in ("dragon", "d")):
            return f.key
        if f.kind == "hero" and t == str(f.number):
            return f.key
        if f.kind == "monster" and t in (f"m{f.number}", f"m {f.number}"):
            return f.key
    dashed = t.replace(" ", "-")
    matches = [
        f.key
        for f in figures
        if f.key.startswith(dashed) or name(f).startswith(t) or any(w.startswith(t) for w in name(f).split())
    ]
    if len(set(matches)) == 1:
        return matches[0]
    known = ", ".join(f.key for f in figures) or "nobody yet"
    if matches:
        raise InputError(f"{text!r} could be {', '.join(sorted(set(matches)))}; say which")
    raise InputError(f"nobody called {text!r} is on the board; on the board: {known}")


def _current_hero(den: Den) -> str:
    from companion.errors import InputError

    if not den.turn:
        raise InputError("it is not a hero's turn: name who acts")
    return den.turn


def _queues(got: list[str] | None, key: str) -> dict[str, list[str]]:
    return {key: list(got)} if got else {}


def _answers(
    env: Env,
    session: Session,
    *,
    got: dict[str, list[str]],
    picks: dict[str, list[str]],
    chits: list[str],
    typed_chits: bool | None = None,
):
    """The answerer of a one-shot action: options first, then a prompt at a terminal, else virtual dice."""
    from companion.errors import InputError
    from companion.games.dragons_den.actions import LiveAnswers

    dice = session.dice()
    physical_chits = _den(session).chits == "physical" if typed_chits is None else typed_chits
    if chits and not physical_chits:
        raise InputError("companion draws the chits in this game (it was set up with virtual chits); drop --chit")

    def ask_faces(request: RollRequest):
        from companion.dice.source import read_physical
        from companion.shell.prompts import ask_faces as prompt_faces

        return prompt_faces(request.expr, request.mod, request.why, reader=read_physical)

    def ask_chit(request: Request) -> str:
        import questionary

        prompt = getattr(request, "prompt", "Which chit?")
        ask = questionary.password if getattr(request, "secret", False) else questionary.text
        return ask(prompt).unsafe_ask()

    return LiveAnswers(
        roll_virtual=lambda r: dice.roll(r.expr, r.mod, r.parts),
        physical=session.state.dice == "physical",
        got=got,
        picks=picks,
        chits=chits,
        ask_faces=ask_faces if env.interactive else None,
        ask_chit=ask_chit if (env.interactive and physical_chits) else None,
    )


def act(
    ctx: typer.Context,
    do: str,
    build: Any,
    *,
    got: Any = None,
    picks: dict[str, list[str]] | None = None,
    chits: list[str] | None = None,
    typed_chits: bool | None = None,
    json_out: bool = False,
) -> None:
    """Run one action: try it on a copy of the state, then record it as one event and show what happened.

    ``build(den)`` names the action's arguments (resolving the names players type); ``got`` gives the
    typed faces by request key, or is a function of the den that does.
    """
    import copy

    from companion.games.dragons_den import actions, view
    from companion.session.api import opened

    env: Env = ctx.obj
    with opened(env) as session:
        den = _den(session)
        args = build(den) if callable(build) else dict(build)
        faces = got(den) if callable(got) else (got or {})
        live = _answers(env, session, got=faces, picks=picks or {}, chits=list(chits or []), typed_chits=typed_chits)
        actions.drive(copy.deepcopy(session.state), do, args, live)  # bad input stops here, nothing saved
        for extra in live.unused():
            env.warn(f"{extra} was not needed (no such roll or draw came up); it is ignored")
        before = len(session.state.log.entries)
        event = {"t": actions.EVENT, "do": do, "args": args, "rolls": live.rolls, "picks": live.picks}
        event_id = session.record(event)
        new = session.state.log.entries[before:]
        if json_out:
            from companion.log.markdown import entry_text

            env.print_json(
                {
                    "session": session.name,
                    "event": event_id,
                    "log": [entry_text(e) for e in new],
                    "den": view.den_json(session.state),
                }
            )
            return
        from companion.shell.panels import entry_renderable

        for entry in new:
            env.print(entry_renderable(entry))
        if session.state.finished:
            env.print(f"[bold]The game is over:[/bold] {session.state.finished}")
        elif do in ("end-turn", "escape"):
            env.print(f"Now: {view.phase_text(session.state.game)}.")
        elif do == "setup":
            env.print("The dragon player sees the dragon with [bold]companion dragon peek[/bold] (heroes look away).")


# ---- setup and secrets ------------------------------------------------------------------------------


@app.command()
def setup(
    ctx: typer.Context,
    heroes: Annotated[list[str], typer.Argument(help="The heroes played: numbers 1-7 or names (sam, 7, cara).")],
    chits: Annotated[
        str, typer.Option("--chits", help="virtual: companion draws every chit; physical: you type the chits drawn.")
    ] = "virtual",
    dragon: Annotated[
        int | None,
        typer.Option(
            "--dragon", help="Physical chits: the dragon chit drawn (asked unseen if omitted).", min=1, max=12
        ),
    ] = None,
    discard: Annotated[
        list[int] | None,
        typer.Option("--discard", help="Physical chits: a dragon chit set aside (twice in the standard game)."),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Choose the heroes and how chits are drawn; the dragon player draws the dragon in secret."""
    from companion.errors import InputError
    from companion.games.dragons_den import data

    numbers: list[int] = []
    for word in heroes:
        for part in word.replace(",", " ").split():
            t = part.strip().lower().lstrip("#")
            card = data.HERO_BY_KEY.get(t) or (data.HERO_BY_NUMBER.get(int(t)) if t.isdigit() else None)
            if card is None:
                matches = [c for c in data.HEROES if c.name.lower().startswith(t)]
                card = matches[0] if len(matches) == 1 else None
            if card is None:
                raise InputError(
                    f"{part!r} is not a hero; the heroes: " + ", ".join(f"{c.number} {c.key}" for c in data.HEROES)
                )
            numbers.append(card.number)
    chits = chits.strip().lower()
    typed = [str(dragon)] if dragon is not None else []
    typed += [str(d) for d in discard or []]
    if typed and chits != "physical":
        raise InputError("--dragon and --discard are for physical chits (--chits physical)")
    env: Env = ctx.obj
    if chits == "physical" and dragon is None and not env.interactive:
        raise InputError("physical chits: give the dragon chit with --dragon (and the chits set aside with --discard)")
    act(
        ctx,
        "setup",
        {"heroes": numbers, "chits": chits},
        chits=typed,
        typed_chits=chits == "physical",
        json_out=json_out,
    )


@app.command()
def peek(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Dragon player only: show the secret dragon (at a terminal, Enter hides it again)."""
    from companion.games.dragons_den import rules
    from companion.session.api import opened

    env: Env = ctx.obj
    with opened(env) as session:
        den = _den(session)
        if den.dragon is None:
            from companion.errors import InputError

            raise InputError("no dragon is drawn yet", hint="companion dragon setup")
        note = rules.dragon_note(den)
    text = f"Dragon chit {note.chit}: the {note.name}. Health {note.health}, speed {note.speed}, {note.breath_title}."
    if json_out:
        env.print_json(
            {
                "chit": note.chit,
                "name": note.name,
                "health": note.health,
                "speed": note.speed,
                "breath": note.breath,
                "breath_name": note.breath_name,
            }
        )
        return
    env.echo(text)
    if env.interactive:
        import questionary

        questionary.password("Enter hides it again").unsafe_ask()
        import shutil

        width = max(20, shutil.get_terminal_size().columns)
        up = -(-len(text) // width) + 1  # the dragon's lines (wrapped) and the prompt's
        env.stdout.write(f"\x1b[{up}F\x1b[J")  # back up over them, then clear to the end of the screen
        env.stdout.flush()
        env.echo("(hidden)")


# ---- looking ----------------------------------------------------------------------------------------


@app.command()
def health(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Every figure on the board at a glance: health bars, speed, abilities left, treasure."""
    from companion.games.dragons_den import view
    from companion.session.api import opened

    env: Env = ctx.obj
    with opened(env) as session:
        _den(session)
        if json_out:
            env.print_json(view.den_json(session.state))
            return
        env.print(view.health_table(session.state))


@app.command()
def score(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """The heroes' haul and the dragon's happiness against both victory charts (final, or if the gates shut now)."""
    from companion.games.dragons_den import steps
    from companion.session import codec
    from companion.session.api import opened

    env: Env = ctx.obj
    with opened(env) as session:
        den = _den(session)
        final = den.score is not None
        s = steps.reckoning(den, session.state.data)
        lines = steps.score_lines(den, session.state.data)
    if json_out:
        env.print_json({"final": final, **codec.dump(s)})
        return
    if not final:
        env.print("[dim]The game goes on. If the gates shut now (heroes inside trapped):[/dim]")
    for line in lines:
        env.print(line)


# ---- actions ----------------------------------------------------------------------------------------


@app.command()
def reveal(
    ctx: typer.Context,
    room: Annotated[int, typer.Argument(help="The room entered (1-20).", min=1, max=20)],
    chit: ChitOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """A hero entered a room with face-down chits: reveal them (monsters appear, treasure is named)."""
    act(ctx, "reveal", {"room": room}, chits=chit, json_out=json_out)


@app.command()
def lair(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Reveal the dragon (a hero entered the lair, or the dragon stirs)."""
    act(ctx, "lair", {}, json_out=json_out)


def _move(ctx: typer.Context, who: str | None, run: bool, haste: bool, got, haste_got, json_out: bool) -> None:
    def build(den: Den) -> dict[str, Any]:
        from companion.errors import InputError
        from companion.games.dragons_den import data

        key = resolve(den, who) if who else _current_hero(den)
        card = data.HERO_BY_KEY.get(key)
        if haste and (card is None or "haste" not in card.abilities):
            raise InputError("--haste is Cara Windwright's spell")
        return {"who": key, "run": run}

    got_q = _queues(got, "dd.move") | _queues(haste_got, "dd.haste")
    act(ctx, "move", build, got=got_q, picks={"dd.haste": ["yes" if haste else "no"]}, json_out=json_out)


@app.command()
def move(
    ctx: typer.Context,
    who: Annotated[str | None, typer.Argument(help="Who advances (default: the hero whose turn it is).")] = None,
    run: Annotated[bool, typer.Option("--run", help="A hero runs: 1d6 + 1d10 + speed, no attack this turn.")] = False,
    haste: Annotated[bool, typer.Option("--haste", help="Cara casts Haste for extra squares.")] = False,
    got: GotOpt = None,
    haste_got: Annotated[list[str] | None, typer.Option("--haste-got", help="The Haste die you rolled.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Advance 1d6 + speed squares (or run with --run)."""
    _move(ctx, who, run, haste, got, haste_got, json_out)


@app.command("run")
def run_cmd(
    ctx: typer.Context,
    who: Annotated[str | None, typer.Argument(help="Who runs (default: the hero whose turn it is).")] = None,
    haste: Annotated[bool, typer.Option("--haste", help="Cara casts Haste for extra squares.")] = False,
    got: GotOpt = None,
    haste_got: Annotated[list[str] | None, typer.Option("--haste-got", help="The Haste die you rolled.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """A hero runs: 1d6 + 1d10 + speed squares, and may not attack this turn."""
    _move(ctx, who, True, haste, got, haste_got, json_out)


@app.command()
def attack(
    ctx: typer.Context,
    names: Annotated[list[str], typer.Argument(help="TARGET (the current hero attacks) or ATTACKER TARGET.")],
    got: GotOpt = None,
    shield: Annotated[bool, typer.Option("--shield", help="If Ren is hit, he casts the Shield Spell.")] = False,
    shield_got: Annotated[list[str] | None, typer.Option("--shield-got", help="The Shield die you rolled.")] = None,
    chit: Annotated[
        list[str] | None,
        typer.Option(
            "--chit", help="A hit on the dragon: the hoard chit the hero drew (physical chits).", show_default=False
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """One attack: it succeeds on a d6 at or under the attacker's current health."""
    from companion.errors import InputError

    if len(names) not in (1, 2):
        raise InputError("name the target, or the attacker and the target (attack goblin, attack troll sam)")

    def build(den: Den) -> dict[str, Any]:
        attacker = resolve(den, names[0]) if len(names) == 2 else _current_hero(den)
        return {"attacker": attacker, "target": resolve(den, names[-1])}

    got_q = _queues(got, "dd.attack") | _queues(shield_got, "dd.shield.roll")
    picks = {"dd.shield": ["yes" if shield else "no"]}
    act(ctx, "attack", build, got=got_q, picks=picks, chits=chit, json_out=json_out)


ABILITY_WORDS = {
    "axe": "axe",
    "rune-axe": "axe",
    "dragonbane": "axe",
    "deathblow": "deathblow",
    "heal": "heal",
    "wounds": "wounds",
    "cause-wounds": "wounds",
    "missile": "missile",
    "magic-missile": "missile",
    "trickster": "trickster",
    "trick": "trickster",
    "charm": "charm",
    "sneak": "sneak",
    "shield": "shield",
    "haste": "haste",
}


@app.command()
def ability(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="axe, deathblow, heal, wounds, missile, trickster, charm or sneak.")],
    target: Annotated[
        str | None, typer.Argument(help="On whom (heal: default herself; axe, sneak: the dragon).")
    ] = None,
    hero: Annotated[
        str | None, typer.Option("--hero", help="Who uses it (default: the hero whose turn it is).")
    ] = None,
    chit: Annotated[
        str | None, typer.Option("--chit", help="Trickster/Charm on a monster: which treasure (T7).")
    ] = None,
    got: GotOpt = None,
    hoard: Annotated[
        list[str] | None, typer.Option("--hoard", help="Physical chits: the dragon treasure chit(s) drawn.")
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """A hero's special ability, instead of an attack: it costs 1 health (Deathblow and Magic Missile: 4 uses)."""
    from companion.errors import InputError

    key = ABILITY_WORDS.get(name.strip().lower().replace(" ", "-").replace("_", "-"))
    if key is None:
        raise InputError(
            f"{name!r} is not an ability; abilities: axe, deathblow, heal, wounds, missile, trickster, charm, sneak"
        )

    def build(den: Den) -> dict[str, Any]:
        who = resolve(den, hero, kinds=("hero",)) if hero else _current_hero(den)
        args: dict[str, Any] = {"hero": who, "ability": key}
        if target:
            args["target"] = resolve(den, target)
        elif key in ("axe", "sneak"):
            args["target"] = "dragon"
        if chit:
            args["chit"] = chit.strip().upper()
        return args

    act(ctx, "ability", build, got=_queues(got, "dd.damage"), chits=hoard, json_out=json_out)


@app.command()
def special(
    ctx: typer.Context,
    monster: Annotated[str, typer.Argument(help="The carrion crawler, the troll or the wraith.")],
    targets: Annotated[
        list[str] | None, typer.Argument(help="Paralysis: the hero; Cause Wounds: everyone next to the wraith.")
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """A monster's special, instead of its attack: Paralysis, Regenerate or Cause Wounds (costs it 1 health)."""

    def build(den: Den) -> dict[str, Any]:
        key = resolve(den, monster, kinds=("monster",))
        names = [resolve(den, t) for t in targets or []]
        args: dict[str, Any] = {"monster": key}
        if names:
            args["target"] = names[0]
            args["targets"] = names
        return args

    act(ctx, "special", build, json_out=json_out)


@app.command()
def breath(
    ctx: typer.Context,
    heroes: Annotated[list[str], typer.Argument(help="Every hero in the dragon's room.")],
    got: Annotated[
        list[str] | None,
        typer.Option("--got", "-g", help="A save you rolled: HERO=FACE (e.g. sam=3), or faces in order."),
    ] = None,
    shield: Annotated[bool, typer.Option("--shield", help="Ren casts the Shield Spell against the breath.")] = False,
    shield_got: Annotated[list[str] | None, typer.Option("--shield-got", help="The Shield die you rolled.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """The dragon breathes on every hero in its room (greater: 2 health, 1 on a save; lesser: 1); it costs it 1."""

    def build(den: Den) -> dict[str, Any]:
        return {"targets": [resolve(den, h, kinds=("hero",)) for h in heroes]}

    def faces(den: Den) -> dict[str, list[str]]:
        queues: dict[str, list[str]] = {}
        for g in got or []:
            who, sep, face = g.partition("=")
            key = f"dd.save.{resolve(den, who, kinds=('hero',))}" if sep else "dd.save"
            queues.setdefault(key, []).append(face if sep else g)
        if shield_got:
            queues["dd.shield.roll"] = list(shield_got)
        return queues

    act(ctx, "breath", build, got=faces, picks={"dd.shield": ["yes" if shield else "no"]}, json_out=json_out)


@app.command()
def take(
    ctx: typer.Context,
    chit: Annotated[str, typer.Argument(help="The treasure chit lying in a room (T7).")],
    hero: Annotated[
        str | None, typer.Option("--hero", help="Who takes it (default: the hero whose turn it is).")
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """A hero picks up a treasure lying in a room (his attack this turn; no roll)."""

    def build(den: Den) -> dict[str, Any]:
        who = resolve(den, hero, kinds=("hero",)) if hero else _current_hero(den)
        return {"hero": who, "chit": chit.strip().upper()}

    act(ctx, "take", build, json_out=json_out)


@app.command()
def escape(
    ctx: typer.Context,
    hero: Annotated[str | None, typer.Argument(help="Who leaves (default: the hero whose turn it is).")] = None,
    json_out: JsonOpt = False,
) -> None:
    """A hero steps onto an entrance and leaves the den for good, with what he carries."""

    def build(den: Den) -> dict[str, Any]:
        return {"hero": resolve(den, hero, kinds=("hero",)) if hero else _current_hero(den)}

    act(ctx, "escape", build, json_out=json_out)


@app.command("end-turn")
def end_turn(ctx: typer.Context, chit: ChitOpt = None, json_out: JsonOpt = False) -> None:
    """End the turn: the next hero (#7 to #1), the dragon player (a countdown chit after the alarm), a new round."""
    act(ctx, "end-turn", {}, chits=chit, json_out=json_out)


# ---- tables and odds --------------------------------------------------------------------------------

NOTES = ("heroes", "monsters", "dragons", "treasure", "charts")


@app.command()
def notes(
    ctx: typer.Context,
    what: Annotated[str, typer.Argument(help="heroes, monsters, dragons, treasure, charts or all.")] = "all",
    json_out: JsonOpt = False,
) -> None:
    """The rules' tables: heroes, monsters, dragons, both treasure tables (with your corrections), the charts."""
    from companion.errors import InputError
    from companion.games.dragons_den import tables

    env: Env = ctx.obj
    what = what.strip().lower()
    if what != "all" and what not in NOTES:
        raise InputError(f"{what!r} is not a table; tables: {', '.join(NOTES)} or all")
    values = _values(env)
    chosen = NOTES if what == "all" else (what,)
    if json_out:
        env.print_json({name: tables.as_json(name, values) for name in chosen})
        return
    for name in chosen:
        for table in tables.render(name, values):
            env.print(table)


def _values(env: Env) -> dict[str, Any]:
    """The game data in force: the active Dragon's Den session's, else the player's catalogue."""
    from companion.session import catalogue
    from companion.session.api import active_game, opened
    from companion.store.paths import data_dir

    try:
        game = active_game(env)
    except Exception:  # a damaged or missing session: fall back to the catalogue
        game = None
    if game == "dragons-den":
        with opened(env) as session:
            return dict(session.state.data)
    return catalogue.load(data_dir(env.data_dir), "dragons-den")


@app.command()
def treasure(
    ctx: typer.Context,
    table: Annotated[str | None, typer.Argument(help="dragon or monster.", show_default=False)] = None,
    row: Annotated[int | None, typer.Argument(help="The row (chit number).", min=1, max=20, show_default=False)] = None,
    name: Annotated[str | None, typer.Option("--name", help="The treasure's name, as your rules show it.")] = None,
    gp: Annotated[int | None, typer.Option("--gp", help="Its value in gp, as your rules show it.", min=0)] = None,
    json_out: JsonOpt = False,
) -> None:
    """Show the treasure tables, or correct a row (rows 9 and 10 are garbled in the text): kept for every new game."""
    from companion.errors import InputError
    from companion.games.dragons_den import data, rules, tables
    from companion.session import catalogue
    from companion.session.api import active_game, opened
    from companion.store.paths import data_dir

    env: Env = ctx.obj
    if table is None:
        notes(ctx, "treasure", json_out)
        return
    table = table.strip().lower()
    if table not in data.TREASURE_TABLES:
        raise InputError(f"{table!r} is not a treasure table; use dragon or monster")
    size = len(data.TREASURE_TABLES[table])
    if row is None or not 1 <= row <= size:
        raise InputError(f"the {table} treasure table has rows 1 to {size}")
    values: dict[str, Any] = {}
    if name is not None:
        if not name.strip():
            raise InputError("--name needs some text")
        values[f"treasure.{table}.{row}.name"] = name.strip()
    if gp is not None:
        values[f"treasure.{table}.{row}.gp"] = gp
    recorded = None
    if values:
        catalogue.merge(data_dir(env.data_dir), "dragons-den", values)
        if active_game(env) == "dragons-den":
            with opened(env) as session:
                session.record({"t": "gamedata", "values": values})
                recorded = session.name
    current = _values(env)
    fixed = rules.treasure_row(current, table, row)
    if json_out:
        env.print_json({"table": table, **tables.row_json(fixed), "saved": bool(values), "session": recorded})
        return
    env.print(f"{table.capitalize()} treasure {row}: {tables.row_text(fixed)}")
    if values:
        where = f" and to session {recorded}" if recorded else ""
        env.print(f"Saved to your game data (every new Dragon's Den game uses it){where}.")


@app.command()
def odds(
    ctx: typer.Context,
    names: Annotated[
        list[str] | None, typer.Argument(help="ATTACKER TARGET on the board (default: the current turn's options).")
    ] = None,
    health: Annotated[
        int | None, typer.Option("--health", help="The striker's health (no session needed).", min=1)
    ] = None,
    against: Annotated[int | None, typer.Option("--against", help="The other side's health.", min=1)] = None,
    need: Annotated[
        int | None, typer.Option("--need", help="Squares a move must reach (run-away odds).", min=0)
    ] = None,
    speed: Annotated[int | None, typer.Option("--speed", help="The mover's speed (with --need).", min=0)] = None,
    run: Annotated[bool, typer.Option("--run", help="With --need: running (1d6 + 1d10 + speed).")] = False,
    haste: Annotated[
        bool, typer.Option("--haste", help="With --need: Cara's Haste adds its d6 (a 6 adds nothing).")
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Exact odds: an attack, a fight to the end, a breath save, a move reaching N squares."""
    from companion.errors import InputError
    from companion.games.dragons_den import tables

    env: Env = ctx.obj
    if need is not None:
        who = None
        if speed is None:
            if not names:
                raise InputError("give --speed, or name who moves")
            from companion.session.api import opened

            with opened(env) as session:
                den = _den(session)
                f = den.figure(resolve(den, names[0]))
                assert f is not None
                speed, who = f.speed, f.name
        data_ = tables.move_odds(speed, need, run=run, haste=haste, who=who)
    elif health is not None or against is not None:
        if health is None or against is None:
            raise InputError("--health and --against go together: the two sides' health")
        data_ = tables.fight_odds(health, against)
    else:
        from companion.session.api import opened

        with opened(env) as session:
            den = _den(session)
            if names:
                if len(names) != 2:
                    raise InputError("name the attacker and the target (odds jared goblin)")
                a = den.figure(resolve(den, names[0]))
                b = den.figure(resolve(den, names[1]))
                assert a is not None and b is not None
                data_ = tables.figure_odds(den, a, b)
            else:
                data_ = tables.turn_odds(den)
    if json_out:
        env.print_json(data_)
        return
    for line in data_["lines"]:
        env.print(line)


# ---- companion odds fight dragons-den ------------------------------------------------------------


def odds_fight(
    ctx: typer.Context,
    names: Annotated[
        list[str] | None,
        typer.Argument(
            help="ATTACKER [TARGET] on the board (default: the hero whose turn it is, against the one monster).",
            show_default=False,
        ),
    ] = None,
    health: Annotated[
        int | None, typer.Option("--health", help="The striker's health (no game needed).", min=1, show_default=False)
    ] = None,
    against: Annotated[
        int | None, typer.Option("--against", help="The other side's health.", min=1, show_default=False)
    ] = None,
    second: Annotated[bool, typer.Option("--second", help="The other side strikes first.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Exact odds of an exchange of attacks at the current health: single blows in turn until one falls.

    With a Dragon's Den game active, the figures on the board at their health now (a hero against a
    monster, or a monster against a hero); --health and --against set a health yourself.
    """
    env: Env = ctx.obj
    from companion.errors import InputError
    from companion.games.dragons_den.odds import fight_outcome
    from companion.session.api import active_game, opened
    from companion.sim.fights import show

    name, other = "the striker", "the other side"
    if active_game(env) == "dragons-den" and (names or health is None or against is None):
        with opened(env) as session:
            den = _den(session)
            if len(names or []) > 2:
                raise InputError("name the attacker and the target, e.g. companion odds fight dragons-den jared goblin")
            a = den.figure(resolve(den, names[0]) if names else _current_hero(den))
            if names and len(names) == 2:
                b = den.figure(resolve(den, names[1]))
            else:
                foes = den.monsters_alive() if a is not None and a.kind == "hero" else den.heroes_in()
                if len(foes) != 1:
                    raise InputError(f"name the target: {a.name if a else 'who'} against whom?")
                b = foes[0]
            assert a is not None and b is not None
            if "dragon" in (a.kind, b.kind):
                raise InputError(
                    "the dragon does not trade blows: its only attack is its breath (companion dragon odds)"
                )
            if (a.kind == "hero") == (b.kind == "hero"):
                raise InputError("an exchange is a hero against a monster, or a monster against a hero")
            name, other = a.name, (f"the {b.name}" if b.kind == "monster" else b.name)
            if a.kind == "monster":
                name = f"the {a.name}"
            health = a.health if health is None else health
            against = b.health if against is None else against
    elif names:
        raise InputError("naming figures needs a Dragon's Den game; without one give --health and --against")
    if health is None or against is None:
        raise InputError("give --health and --against: the two sides' health (or name figures in a game)")
    show(env, fight_outcome(health, against, first=not second, name=name, other=other), json_out)
