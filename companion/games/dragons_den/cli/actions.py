"""``companion dragon reveal``, ``move``, ``attack``, ``ability``, ``breath``, ... ``end-turn``: a turn's actions.

Registered on ``companion dragon`` by :mod:`companion.games.dragons_den.cli`; only typer is imported
at module level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import JsonOpt
from companion.games.dragons_den.cli.common import ChitOpt, GotOpt, _current_hero, _queues, act, resolve

if TYPE_CHECKING:
    from companion.games.dragons_den.model import Den

app = typer.Typer()


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
        list[str] | None,
        typer.Option("--hoard", help="Physical chits: a dragon treasure chit drawn (repeat for each)."),
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

    act(ctx, "ability", build, got=_queues(got, "dd.damage"), chits=hoard, json_out=json_out, chit_flag="--hoard")


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
    chit: Annotated[
        list[str] | None,
        typer.Option(
            "--chit",
            help="The last hero's turn ends: the countdown chit the dragon player draws (physical chits).",
            show_default=False,
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """A hero moves onto an entrance in his turn and leaves the den for good, with what he carries."""

    def build(den: Den) -> dict[str, Any]:
        return {"hero": resolve(den, hero, kinds=("hero",)) if hero else _current_hero(den)}

    act(ctx, "escape", build, chits=chit, json_out=json_out)


@app.command("end-turn")
def end_turn(ctx: typer.Context, chit: ChitOpt = None, json_out: JsonOpt = False) -> None:
    """End the turn: the next hero (#7 to #1), the dragon player (a countdown chit after the alarm), a new round."""
    act(ctx, "end-turn", {}, chits=chit, json_out=json_out)
