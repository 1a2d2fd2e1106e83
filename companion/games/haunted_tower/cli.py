"""``companion haunted ...``: each step of the Haunted Tower at the table in one command.

Every command that changes the game records one ``haunted`` event through ``Session.record`` (so
the log, undo and replay see it) and applies :mod:`.rules` exactly as guided play does. Rolls are
virtual, or the faces you rolled with ``--got``; a session in physical-dice mode asks for them at a
terminal. Only typer is imported here at module level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import SIGNED, JsonOpt

if TYPE_CHECKING:
    from companion.cli.env import Env
    from companion.dice.roll import Roll
    from companion.games.haunted_tower.rules import RollSpec
    from companion.session.service import Session
    from companion.session.state import State

GAME = "haunted-tower"

app = typer.Typer(
    help="D&D The Haunted Tower at the table: heroes, fights by the rules, health, climbing, score.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog="[bold]A fight[/bold]: fight HERO MONSTER → init → attack (whoever's turn it is) or run → ...",
)

HeroArg = Annotated[str, typer.Argument(help="The hero (a unique start of the name will do).", show_default=False)]
ItemArg = Annotated[str, typer.Argument(help="The item, as on the chit (a unique start will do).", show_default=False)]
GotOpt = Annotated[
    str | None, typer.Option("--got", "-g", help="The face(s) you rolled (physical dice).", show_default=False)
]


# ---- plumbing ----------------------------------------------------------------------------------


def _session(env: Env) -> Any:
    """The active session, checked to be a Haunted Tower game (a context manager)."""
    from contextlib import contextmanager

    from companion.errors import CompanionError
    from companion.session.api import opened

    @contextmanager
    def cm() -> Any:
        with opened(env) as session:
            if session.meta.game != GAME:
                raise CompanionError(
                    f"the current session plays {session.meta.game}, not the Haunted Tower",
                    hint="start one with: companion new haunted-tower",
                )
            yield session

    return cm()


def _record(env: Env, session: Session, event: dict[str, Any], json_out: bool, data: bool = False) -> None:
    """Record one event, then show what it did and what comes next."""
    before = len(session.state.log.entries)
    event_id = session.record({"t": "haunted", **event})
    if data:
        from companion.session import catalogue

        catalogue.merge(session.data_dir, GAME, session.state.data)
    _show_new(env, session, before, json_out, event_id)


def _show_new(env: Env, session: Session, before: int, json_out: bool, event_id: int) -> None:
    from companion.games.haunted_tower import view
    from companion.log.markdown import entry_text

    entries = session.state.log.entries[before:]
    hint = next_hint(session.state)
    if json_out:
        env.print_json(
            {
                "session": session.name,
                "event": event_id,
                "log": [entry_text(e) for e in entries],
                "fight": _fight_json(session.state),
                "figures": view.figures(session.state),
                "next": hint,
                "finished": session.state.finished,
            }
        )
        return
    from companion.shell.panels import entry_renderable

    for entry in entries:
        env.print(entry_renderable(entry))
    if hint:
        env.print(f"[dim]{hint}[/dim]")


def _fight_json(state: State) -> dict[str, Any] | None:
    from companion.games.haunted_tower.monsters import MONSTERS

    f = state.game.fight
    if f is None:
        return None
    m = MONSTERS[f.monster]
    return {
        "n": f.n,
        "hero": f.hero,
        "monster": m.name,
        "hp": f.hp,
        "max_hp": m.hp,
        "round": f.round,
        "phase": f.phase,
        "slowed": f.slowed,
        "drained": f.drained,
    }


def next_hint(state: State) -> str:
    """What the table does next, with the command that does it."""
    from companion.games.haunted_tower import rules as R

    g = state.game
    if state.finished:
        return f"The game is over: {state.finished}."
    if g.rolloff:
        return f"{' and '.join(g.rolloff)} roll 1d10 again: companion haunted first"
    n = R.need(state)
    if n is None:
        return ""
    _, hero, monster = R.fighting(state)
    return {
        "initiative": "Next: initiative, 1d6 each: companion haunted init",
        "hero": f"Next: {hero.name}'s turn: companion haunted attack [--with ITEM], or companion haunted run",
        "monster": f"Next: the {monster.name} attacks: companion haunted attack",
        "table": f"Next: the {monster.name}'s hit rolls 1d10: companion haunted attack",
        "pick": f"Next: the {monster.name}'s player picks an item: companion haunted attack --take ITEM",
    }[n.step]


class _Roller:
    """Rolls for one command: the faces given, a prompt in physical mode, or the session's dice."""

    def __init__(self, env: Env, session: Session) -> None:
        self.env = env
        self.session = session
        self.dice = session.dice()
        self.payloads: list[dict[str, Any]] = []

    def roll(self, spec: RollSpec, given: str | None) -> Roll:
        from companion.dice.source import read_physical

        if given is not None:
            roll = read_physical(spec.expr, given, spec.mod, parts=spec.parts)
        elif self.session.state.dice == "physical":
            from companion.session.api import ask_physical

            roll = ask_physical(self.env, spec.expr, spec.mod, spec.why)
        else:
            roll = self.dice.roll(spec.expr, spec.mod, spec.parts)
        self.payloads.append({"faces": list(roll.faces or ()), "src": roll.source})
        return roll


def _faces(got: str | None, count: int, what: str) -> list[str | None]:
    """Split ``--got 4,2`` into one face per roll (None each when nothing was given)."""
    if got is None:
        return [None] * count
    from companion.errors import InputError

    parts = [p for p in got.replace(",", " ").split() if p]
    if len(parts) != count:
        raise InputError(f"--got needs {count} face(s): {what}")
    return parts  # type: ignore[return-value]


def _sim(session: Session) -> State:
    """A copy of the state to work a command's steps out on, before anything is recorded."""
    import copy

    return copy.deepcopy(session.state)


# ---- setup and heroes --------------------------------------------------------------------------


def _known(state: Any, kind: str, name: str) -> tuple[dict[str, Any], str]:
    """A hero card or item chit already in the game data, whatever case the player types its name in:
    a copy of its values ({} if new), and the name to keep (the stored one if known)."""
    wanted = f"{kind}.{name.strip().lower()}"
    key = next((k for k in state.data if k.lower() == wanted), None)
    known: dict[str, Any] = dict(state.data[key]) if key else {}
    return known, key[len(kind) + 1 :] if key else name.strip()


@app.command("setup")
def setup_cmd(
    ctx: typer.Context,
    players: Annotated[
        int | None, typer.Option("--players", "-p", min=3, max=6, help="Only this number of players.")
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Setting up: blue chits per player, the purple chits' order, the specter's chit."""
    env: Env = ctx.obj
    from companion.games.haunted_tower import data as D

    if json_out:
        env.print_json(
            {"blue_chits": {str(k): v for k, v in D.BLUE_CHITS.items()}, "reminders": D.setup_lines(players)}
        )
        return
    for line in D.setup_lines(players):
        env.print(f"• {line}")


@app.command("monsters")
def monsters_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """The monster listing: HP, attack, armor class, undead, stand-ups and special rules."""
    env: Env = ctx.obj
    from companion.games.haunted_tower import view
    from companion.games.haunted_tower.monsters import MONSTERS

    if json_out:
        env.print_json(
            [
                {
                    "key": m.key,
                    "name": m.name,
                    "hp": m.hp,
                    "att": m.att,
                    "ac": m.ac,
                    "undead": m.undead,
                    "listed": m.listed,
                    "standups": m.standups,
                    "on_hit": m.on_hit,
                    "hurt_by": sorted(m.hurt_by) if m.hurt_by is not None else None,
                    "initiative": m.initiative,
                    "special": m.special,
                }
                for m in MONSTERS.values()
            ]
        )
        return
    env.print(view.monster_table([]))


def _split(text: str | None) -> list[str]:
    return [p.strip().lower() for p in (text or "").replace(";", ",").split(",") if p.strip()]


@app.command("hero")
def hero_cmd(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The hero's name, as on the hero card.", show_default=False)],
    speed: Annotated[int | None, typer.Option(help="Speed, from the card.", show_default=False)] = None,
    hp: Annotated[int | None, typer.Option(help="Hit points, from the card.", show_default=False)] = None,
    attack: Annotated[int | None, typer.Option(help="Attack number, from the card.", show_default=False)] = None,
    ac: Annotated[int | None, typer.Option(help="Armor class, from the card.", show_default=False)] = None,
    ability: Annotated[
        str | None, typer.Option(help="Special ability, as the card words it.", show_default=False)
    ] = None,
    bonus_attack: Annotated[int | None, typer.Option(help="The ability's attack bonus.", show_default=False)] = None,
    bonus_damage: Annotated[int | None, typer.Option(help="The ability's damage bonus.", show_default=False)] = None,
    bonus_ac: Annotated[int | None, typer.Option(help="The ability's armor class bonus.", show_default=False)] = None,
    vs: Annotated[
        str | None, typer.Option(help="The bonus applies against: all or undead.", show_default=False)
    ] = None,
    hits: Annotated[
        str | None,
        typer.Option(
            help="The hero's own attacks count as: magic, magical, silver, holy (comma list).", show_default=False
        ),
    ] = None,
    armor: Annotated[
        int | None, typer.Option(help="Armor chits allowed, if the card differs.", show_default=False)
    ] = None,
    weapons: Annotated[
        int | None, typer.Option(help="Weapon chits allowed, if the card differs.", show_default=False)
    ] = None,
    shields: Annotated[
        int | None, typer.Option(help="Shield chits allowed, if the card differs.", show_default=False)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Add a hero (the card's numbers are typed once and kept), or correct a hero card's numbers."""
    env: Env = ctx.obj
    from companion.errors import InputError
    from companion.games.haunted_tower import rules as R
    from companion.games.haunted_tower.model import Card

    with _session(env) as session:
        state = session.state
        known, card_name = _known(state, "hero", name)
        given = {"speed": speed, "hp": hp, "attack": attack, "ac": ac, "ability": ability}
        values = {**known, **{k: v for k, v in given.items() if v is not None}}
        missing = [f"--{k}" for k in ("speed", "hp", "attack", "ac", "ability") if k not in values]
        if missing:
            raise InputError(
                f"{card_name}'s card is not in your game data yet: give {', '.join(missing)} (from the hero card)"
            )
        bonus = dict(known.get("bonus") or {})
        for k, v in (("attack", bonus_attack), ("damage", bonus_damage), ("ac", bonus_ac), ("vs", vs)):
            if v is not None:
                bonus[k] = v.strip().lower() if isinstance(v, str) else v
        if hits is not None:
            bonus["hits"] = _split(hits)
        values["bonus"] = bonus
        limits = dict(known.get("limits") or {})
        for k, v in (("armor", armor), ("weapon", weapons), ("shield", shields)):
            if v is not None:
                limits[k] = v
        values["limits"] = limits
        card = Card.from_data(card_name, values)
        R.check_card(card)
        changed = any(v is not None for v in given.values()) or any(
            v is not None for v in (bonus_attack, bonus_damage, bonus_ac, vs, hits, armor, weapons, shields)
        )
        in_game = any(h.name.lower() == card.name.lower() for h in state.game.heroes)
        if in_game and not changed:
            raise InputError(f"{card.name} is already in this game (give new numbers to correct the card)")
        event = {"op": "card" if in_game else "hero", "hero": card.name, "card": card.to_data()}
        _record(env, session, event, json_out, data=True)


@app.command("first")
def first_cmd(
    ctx: typer.Context,
    placement: Annotated[
        bool, typer.Option("--placement", help="Who places the first chit (setup), not who moves first.")
    ] = False,
    got: Annotated[
        str | None,
        typer.Option("--got", "-g", help="Each hero's 1d10 in seat order, e.g. 7,3,10,2.", show_default=False),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Roll 1d10 each: the highest goes first (ties roll again, with this command)."""
    env: Env = ctx.obj
    from companion.games.haunted_tower import rules as R

    with _session(env) as session:
        sim = _sim(session)
        g = sim.game
        purpose = "placement" if placement else "round"
        if not g.rolloff:
            R.start_rolloff(sim, purpose)
        roller = _Roller(env, session)
        names = list(g.rolloff)
        faces = []
        for name, face in zip(names, _faces(got, len(names), ", ".join(names)), strict=True):
            faces.append(roller.roll(R.order_spec(name, g.rolloff_for), face).faces[0])  # type: ignore[index]
        R.order_roll(sim, faces)
        _record(env, session, {"op": "first", "purpose": purpose, "rolls": roller.payloads}, json_out)


# ---- fights ------------------------------------------------------------------------------------


@app.command("fight")
def fight_cmd(
    ctx: typer.Context,
    hero: Annotated[str, typer.Argument(help="The hero who reveals the chit.", show_default=False)],
    monster: Annotated[list[str], typer.Argument(help="The monster, e.g. ghoul or 'giant rat'.", show_default=False)],
    purple: Annotated[bool, typer.Option("--purple", help="The chit has a purple back (default blue).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """A hero reveals a monster chit: the fight starts (the monster's stats and rule are shown)."""
    env: Env = ctx.obj
    from companion.games.haunted_tower import rules as R
    from companion.games.haunted_tower.monsters import SPECTER, find

    m = find(" ".join(monster))
    back = "purple" if purple or m.key == SPECTER else "blue"
    with _session(env) as session:
        sim = _sim(session)
        h = R.find_hero(sim.game, hero)
        R.start_fight(sim, h.name, m.key, back)
        _record(env, session, {"op": "fight", "hero": h.name, "monster": m.key, "back": back}, json_out)


@app.command("init")
def init_cmd(
    ctx: typer.Context,
    got: Annotated[
        str | None,
        typer.Option("--got", "-g", help="The hero's and the monster's 1d6, e.g. 4,2.", show_default=False),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Initiative: 1d6 each (the pit viper adds 1); the higher attacks first; a tie rolls again."""
    env: Env = ctx.obj
    from companion.games.haunted_tower import rules as R

    with _session(env) as session:
        sim = _sim(session)
        R.expect(sim, "initiative", "roll initiative")
        hero_spec, monster_spec = R.initiative_specs(sim)
        h_face, m_face = _faces(got, 2, "the hero's 1d6 and the monster's, e.g. --got 4,2")
        roller = _Roller(env, session)
        h = roller.roll(hero_spec, h_face)
        m = roller.roll(monster_spec, m_face)
        R.initiative(sim, h.faces[0], m.faces[0])  # type: ignore[index]
        _record(env, session, {"op": "init", "steps": [{"do": "init"}], "rolls": roller.payloads}, json_out)


@app.command("attack")
def attack_cmd(
    ctx: typer.Context,
    with_: Annotated[
        str | None, typer.Option("--with", "-w", help="The hero attacks with this item.", show_default=False)
    ] = None,
    got: GotOpt = None,
    table: Annotated[
        int | None, typer.Option("--table", "-t", help="The 1d10 after a hit (physical dice).", show_default=False)
    ] = None,
    take: Annotated[
        str | None,
        typer.Option(
            "--take", help="The item the robber fly or rust monster takes (its player's choice).", show_default=False
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """The attack of whoever's turn it is (the hero, or the monster with what its hit does)."""
    env: Env = ctx.obj
    from companion.errors import InputError
    from companion.games.haunted_tower import rules as R

    with _session(env) as session:
        sim = _sim(session)
        f, _, monster = R.fighting(sim)
        n = R.need(sim)
        assert n is not None
        if n.step == "initiative":
            raise InputError("roll initiative first: companion haunted init")
        if with_ and n.step != "hero":
            raise InputError(f"--with is for the hero's attack; now the {monster.name} acts")
        roller = _Roller(env, session)
        steps: list[dict[str, Any]] = []
        first = True
        while sim.game.fight is not None and sim.game.fight.n == f.n:
            n = R.need(sim)
            assert n is not None
            if n.step in ("hero", "monster", "initiative") and not first:
                break
            if n.step == "hero":
                weapon = R.find_item(R.fighting(sim)[1], with_).name if with_ else ""
                roll = roller.roll(R.attack_spec(sim, weapon), got)
                R.hero_attack(sim, weapon, roll.faces[0])  # type: ignore[index]
                steps.append({"do": "attack", "weapon": weapon})
            elif n.step == "monster":
                right = R.right_of(sim.game, R.fighting(sim)[1])
                if right is not None and not json_out:  # as guided play says it, before the roll
                    hero_name = R.fighting(sim)[1].name
                    env.print(f"{right.name}'s player (on {hero_name}'s right) rolls for the {monster.name}.")
                roll = roller.roll(R.monster_spec(sim), got)
                R.monster_attack(sim, roll.faces[0])  # type: ignore[index]
                steps.append({"do": "monster"})
            elif n.step == "table":
                given = str(table) if table is not None else (got if first else None)
                if given is None and sim.dice == "physical" and not env.interactive:
                    raise InputError(
                        f"the {monster.name} hits: {monster.table_text()}; give the 1d10 with --table N (1-10)"
                    )
                roll = roller.roll(R.table_spec(sim), given)
                R.table_roll(sim, roll.faces[0])  # type: ignore[index]
                steps.append({"do": "table"})
            else:
                item = _choose_take(env, sim, n.items, take)
                R.pick(sim, item)
                steps.append({"do": "pick", "item": item})
            first = False
        _record(env, session, {"op": "attack", "steps": steps, "rolls": roller.payloads}, json_out)


def _choose_take(env: Env, state: State, items: tuple[str, ...], take: str | None) -> str:
    from companion.errors import InputError
    from companion.games.haunted_tower import rules as R

    f, hero, monster = R.fighting(state)
    if take is not None:
        item = R.find_item(hero, take)
        if item.name not in items:
            raise InputError(f"the {monster.name} can take {', '.join(items)}; not {item.name}")
        return item.name
    if not env.interactive:
        raise InputError(f"the {monster.name} hits: its player picks one of {', '.join(items)} with --take NAME")
    import questionary

    what = "eats" if f.pick == "rust" else "takes"
    return questionary.select(f"The {monster.name}'s player chooses what it {what}", choices=list(items)).unsafe_ask()


@app.command("run")
def run_cmd(ctx: typer.Context, got: GotOpt = None, json_out: JsonOpt = False) -> None:
    """The hero runs away instead of attacking: 1d10 at or above the monster's attack number."""
    env: Env = ctx.obj
    from companion.games.haunted_tower import rules as R

    with _session(env) as session:
        sim = _sim(session)
        R.expect(sim, "hero", "run away")
        roller = _Roller(env, session)
        roll = roller.roll(R.run_spec(sim), got)
        R.run_away(sim, roll.faces[0])  # type: ignore[index]
        _record(env, session, {"op": "run", "steps": [{"do": "run"}], "rolls": roller.payloads}, json_out)


# ---- items, HP, climbing, trading ----------------------------------------------------------------


@app.command("item")
def item_cmd(
    ctx: typer.Context,
    hero: Annotated[str, typer.Argument(help="The hero who takes the chit.", show_default=False)],
    name: Annotated[str, typer.Argument(help="The item's name, as on the chit.", show_default=False)],
    kind: Annotated[str | None, typer.Option(help="armor, weapon, shield or other.", show_default=False)] = None,
    back: Annotated[str | None, typer.Option(help="blue or purple.", show_default=False)] = None,
    attack: Annotated[int | None, typer.Option(help="Attack bonus on the chit.", show_default=False)] = None,
    damage: Annotated[int | None, typer.Option(help="Damage bonus on the chit.", show_default=False)] = None,
    ac: Annotated[int | None, typer.Option(help="Armor class bonus on the chit.", show_default=False)] = None,
    metal: Annotated[bool | None, typer.Option("--metal/--not-metal", help="Metal or not.", show_default=False)] = None,
    hits: Annotated[
        str | None,
        typer.Option(
            help="An attack with it counts as: magical, magic, silver, holy, stake (comma list; "
            "a weapon chit is a magical weapon unless you say otherwise).",
            show_default=False,
        ),
    ] = None,
    use: Annotated[
        str | None,
        typer.Option(help="worn, attack or spend (weapons attack; armor and shields are worn).", show_default=False),
    ] = None,
    uses: Annotated[
        int | None, typer.Option(help="Limited uses on the chit (0: not limited).", show_default=False)
    ] = None,
    swap: Annotated[
        str | None, typer.Option(help="Over the limit: drop this item of the same kind.", show_default=False)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """A hero takes a magic item chit (typed once, kept in your game data for next time)."""
    env: Env = ctx.obj
    from companion.errors import InputError
    from companion.games.haunted_tower import rules as R
    from companion.games.haunted_tower.model import Item

    with _session(env) as session:
        state = session.state
        known, item_name = _known(state, "item", name)
        given: dict[str, Any] = {
            "kind": kind.strip().lower() if kind else None,
            "back": back.strip().lower() if back else None,
            "attack": attack,
            "damage": damage,
            "ac": ac,
            "metal": metal,
            "hits": _split(hits) if hits is not None else None,
            "use": use.strip().lower() if use else None,
        }
        define = any(v is not None for k, v in given.items() if k != "back") or uses is not None or not known
        values = {**known, **{k: v for k, v in given.items() if v is not None}}
        if uses is not None:
            values["uses"] = uses or None  # 0: not limited
        if "kind" not in values:
            raise InputError(f"{item_name} is not in your game data yet: give --kind (armor, weapon, shield or other)")
        kind_ = values["kind"]
        if "use" not in values:
            if kind_ == "other":
                raise InputError("say how it is used: --use worn, attack or spend")
            values["use"] = "attack" if kind_ == "weapon" else "worn"
        if "hits" not in values and kind_ == "weapon":
            values["hits"] = ["magical"]
        item = Item.from_data(item_name, values)
        R.check_item(item)
        sim = _sim(session)
        R.take_item(sim, hero, item, swap or "")
        hero_name = R.find_hero(sim.game, hero).name
        event = {"op": "item", "hero": hero_name, "item": item.name, "chit": item.to_data(), "define": define}
        if swap:
            event["swap"] = swap
        _record(env, session, event, json_out, data=define)


def _apply(env: Env, event: dict[str, Any], json_out: bool) -> None:
    """Try an event on a copy (so bad input changes nothing), then record it."""
    from companion.games.haunted_tower.events import reduce

    with _session(env) as session:
        sim = _sim(session)
        reduce(sim, {"t": "haunted", **event})
        _record(env, session, event, json_out)


@app.command("drop")
def drop_cmd(
    ctx: typer.Context,
    hero: HeroArg,
    item: ItemArg,
    json_out: JsonOpt = False,
) -> None:
    """Drop a magic item in an adjacent square."""
    _apply(ctx.obj, {"op": "drop", "hero": hero, "item": item}, json_out)


@app.command("give")
def give_cmd(
    ctx: typer.Context,
    hero: HeroArg,
    item: ItemArg,
    to: Annotated[str, typer.Argument(help="The adjacent hero who takes it.", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Trade: give a magic item to an adjacent hero (the limits still hold)."""
    _apply(ctx.obj, {"op": "give", "hero": hero, "item": item, "to": to}, json_out)


@app.command("use")
def use_cmd(
    ctx: typer.Context,
    hero: HeroArg,
    item: ItemArg,
    json_out: JsonOpt = False,
) -> None:
    """Use a limited item once (a potion); its last use removes it from the game."""
    _apply(ctx.obj, {"op": "use", "hero": hero, "item": item}, json_out)


@app.command("hp", context_settings=SIGNED)
def hp_cmd(
    ctx: typer.Context,
    hero: HeroArg,
    change: Annotated[str, typer.Argument(help="+N or -N.", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Change a hero's HP by hand (a potion, a correction); HP reaching zero is a death."""
    from companion.cli.common import parse_change
    from companion.errors import InputError

    op, n = parse_change(change, "HP")
    if op == "set":
        raise InputError("HP change by +N or -N here")
    _apply(ctx.obj, {"op": "hp", "hero": hero, "delta": n}, json_out)


@app.command("climb")
def climb_cmd(
    ctx: typer.Context,
    hero: HeroArg,
    cleared: Annotated[
        bool, typer.Option("--cleared", help="Every chit of the hero's tower is gone: climb anyway.")
    ] = False,
    check: Annotated[bool, typer.Option("--check", help="Only check; record nothing.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """The climbing check (3 blue chits for Tower 2, 6 for Tower 3; purple counts 2); climbs if allowed."""
    env: Env = ctx.obj
    if check:
        from companion.games.haunted_tower import rules as R

        with _session(env) as session:
            c = R.climb_check(R.find_hero(session.state.game, hero), cleared)
            if json_out:
                env.print_json({"hero": c.hero, "to": c.to, "have": c.have, "needs": c.needs, "ok": c.ok})
                return
            env.print(c.text())
        return
    _apply(env, {"op": "climb", "hero": hero, "cleared": cleared}, json_out)


@app.command("trade")
def trade_cmd(
    ctx: typer.Context,
    hero: HeroArg,
    pay: Annotated[str, typer.Argument(help="blue (two blue monster chits) or purple (one).", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Trade in monster chits to remove a −1 chit: two blue, or one purple."""
    _apply(ctx.obj, {"op": "trade", "hero": hero, "pay": pay.strip().lower()}, json_out)


@app.command("moved")
def moved_cmd(ctx: typer.Context, hero: HeroArg, json_out: JsonOpt = False) -> None:
    """The hero has sat out the move a ghoul's bite took."""
    _apply(ctx.obj, {"op": "moved", "hero": hero}, json_out)


@app.command("end")
def end_cmd(
    ctx: typer.Context,
    reason: Annotated[
        str, typer.Option("--reason", help="Why the game ends (kept in the log).")
    ] = "the players ended it",
    json_out: JsonOpt = False,
) -> None:
    """End the game now: the final score (the game also ends when the specter is killed)."""
    _apply(ctx.obj, {"op": "end", "reason": reason}, json_out)


# ---- looking things up -------------------------------------------------------------------------


@app.command("health")
def health_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """The health of every figure on the board at a glance."""
    env: Env = ctx.obj
    from companion.games.haunted_tower import view

    with _session(env) as session:
        if json_out:
            env.print_json({"figures": view.figures(session.state), "fight": _fight_json(session.state)})
            return
        env.print(view.health_table(session.state))
        hint = next_hint(session.state)
        if hint:
            env.print(f"[dim]{hint}[/dim]")


@app.command("score")
def score_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """The score table: stand-ups, chits, the stake and the specter bonuses."""
    env: Env = ctx.obj
    from companion.games.haunted_tower import view

    with _session(env) as session:
        if json_out:
            env.print_json(view.score_json(session.state))
            return
        env.print(view.score_table(session.state))


@app.command("odds")
def odds_cmd(
    ctx: typer.Context,
    hero: Annotated[
        str | None, typer.Argument(help="A hero (default: the fight in progress).", show_default=False)
    ] = None,
    monster: Annotated[list[str] | None, typer.Argument(help="A monster.", show_default=False)] = None,
    with_: Annotated[
        str | None,
        typer.Option("--with", "-w", help="Attack with this item (default: the best one here).", show_default=False),
    ] = None,
    run_at: Annotated[
        int, typer.Option("--run-at", min=0, help="Run away at this HP or less (0: fight to the end).")
    ] = 0,
    json_out: JsonOpt = False,
) -> None:
    """Exact odds: one attack each way, the initiative, running away, and the whole fight."""
    env: Env = ctx.obj
    from companion.dice.render import fraction
    from companion.errors import InputError
    from companion.games.haunted_tower import odds as O
    from companion.games.haunted_tower import rules as R
    from companion.games.haunted_tower import view
    from companion.games.haunted_tower.monsters import find

    with _session(env) as session:
        state = session.state
        g = state.game
        current = g.fight is not None and hero is None
        if current:
            f, h, m = R.fighting(state)
            monster_hp, slowed = f.hp, f.slowed
        else:
            if hero is None or not monster:
                raise InputError("no fight is in progress: give HERO MONSTER (e.g. companion haunted odds Aria ghoul)")
            h, m = R.find_hero(g, hero), find(" ".join(monster))
            monster_hp, slowed = m.hp, False
        weapon = R.find_item(h, with_) if with_ else view.best_weapon(state, h, m)
        if weapon is not None and weapon.use != "attack":
            raise InputError(f"{weapon.name} is not used to attack")
        variants = state.meta.variants
        parts = R.attack_parts(h, m, weapon, variants, slowed=slowed)
        p_hit = O.hit_chance(R.total(parts), m.ac)
        amount, why = R.damage_of(h, m, weapon, variants)
        ac = R.armor_class(h, m, variants)
        p_monster = O.hit_chance(m.att, ac)
        p_first = O.initiative_chance(m)
        p_run = O.run_chance(m.att)
        if current:
            duel = view.duel_for(state, weapon, run_at=run_at)
        else:
            duel = view.hero_duel(state, h, m, weapon, run_at=run_at)
        if json_out:

            def fr(p: Any) -> str:
                return f"{p.numerator}/{p.denominator}"

            env.print_json(
                {
                    "hero": h.name,
                    "monster": m.name,
                    "weapon": weapon.name if weapon else None,
                    "hero_attack": R.total(parts),
                    "hero_hits": fr(p_hit),
                    "hero_damage": amount,
                    "hero_first": fr(p_first),
                    "monster_hits": fr(p_monster),
                    "run_away": fr(p_run),
                    "run_at": run_at,
                    "duel": {k: fr(v) for k, v in duel.as_dict().items()},
                }
            )
            return
        with_text = f" with {weapon.name}" if weapon else ""
        env.print(
            f"[bold]{h.name}[/bold] (HP {h.hp}/{h.max_hp}, Att {R.total(parts)}{with_text}, AC {ac}) vs "
            f"[bold]the {m.name}[/bold] (HP {monster_hp}/{m.hp}, Att {m.att}, AC {m.ac})"
        )
        env.print(f"  Initiative: {h.name} attacks first {fraction(p_first)} (ties rolled again)")
        dmg = f"{amount} damage" if amount else f"no damage: {why}"
        env.print(f"  {h.name}'s attack: 1d6 + {R.total(parts)} ≥ {m.ac} → {fraction(p_hit)}, {dmg}")
        env.print(f"  The {m.name}'s attack: 1d6 + {m.att} ≥ {ac} → {fraction(p_monster)}")
        env.print(f"  Running away: 1d10 ≥ {m.att} → {fraction(p_run)}")
        plan = f"running at {run_at} HP or less" if run_at else "to the end"
        env.print(f"  The whole fight, {plan}: [bold]{O.duel_text(duel)}[/bold]")
        for k, v in duel.as_dict().items():
            if v:
                env.print(f"    {k}: {fraction(v)}")


# ---- companion odds fight haunted-tower ----------------------------------------------------------


def odds_fight(
    ctx: typer.Context,
    monster: Annotated[
        list[str] | None,
        typer.Argument(help="The monster, as in the listing (default: the fight in progress).", show_default=False),
    ] = None,
    hero: Annotated[
        str | None, typer.Option("--hero", help="A hero of the game: their HP and numbers.", show_default=False)
    ] = None,
    with_: Annotated[
        str | None,
        typer.Option(
            "--with", "-w", help="The hero attacks with this item (default: the best one).", show_default=False
        ),
    ] = None,
    hp: Annotated[int | None, typer.Option("--hp", help="The hero's HP now.", min=1, show_default=False)] = None,
    attack: Annotated[
        int | None,
        typer.Option("--attack", help="The hero's attack number, bonuses and −1 chits counted.", show_default=False),
    ] = None,
    ac: Annotated[int | None, typer.Option("--ac", help="The hero's armor class.", show_default=False)] = None,
    damage: Annotated[
        int | None,
        typer.Option("--damage", help="HP a hit takes off the monster (1; 0 if it cannot hurt it).", min=0),
    ] = None,
    monster_hp: Annotated[
        int | None, typer.Option("--monster-hp", help="The monster's HP now (default: the listing's).", min=1)
    ] = None,
    run_at: Annotated[
        int | None, typer.Option("--run-at", help="The hero runs away at this HP or less (0: never).", min=0)
    ] = None,
    items: Annotated[
        int | None, typer.Option("--items", help="Magic items the hero holds (the robber fly takes them).", min=0)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Exact odds of a duel with initiative: win, fall (a death), get away, and the hero's HP at the end.

    With a Haunted Tower game active and no monster named, the fight in progress as it stands (its
    hero, the monster's HP, where the round is, the best weapon); with --hero, that hero against the
    monster named. Without a game, give the hero's --hp, --attack and --ac.
    """
    env: Env = ctx.obj
    from companion.errors import InputError
    from companion.games.haunted_tower import data as D
    from companion.games.haunted_tower import rules as R
    from companion.games.haunted_tower import view
    from companion.games.haunted_tower.monsters import find
    from companion.games.haunted_tower.odds import fight_outcome
    from companion.session.api import active_game
    from companion.sim.fights import show

    named = find(" ".join(monster)) if monster else None
    args: dict[str, Any] = {}
    who = "The hero"
    if active_game(env) == GAME and (named is None or hero is not None):
        with _session(env) as session:
            state = session.state
            g = R.game(state)
            if named is None and hero is None:
                _, h, named = R.fighting(state)  # no fight: one line saying how to start one
                weapon = R.find_item(h, with_) if with_ else view.best_weapon(state, h, named)
                args = view.fight_args(state, weapon, run_at=run_at or 0)
            else:
                if named is None:
                    raise InputError("name the monster, e.g. companion odds fight haunted-tower ghoul --hero Aria")
                h = R.find_hero(g, hero or "")
                weapon = R.find_item(h, with_) if with_ else view.best_weapon(state, h, named)
                args = view.duel_args(state, h, named, weapon, run_at=run_at or 0)
            if weapon is not None and weapon.use != "attack":
                raise InputError(f"{weapon.name} is not used to attack")
            who = h.name + (f" with {weapon.name}" if weapon else "")
    elif hero is not None or with_ is not None:
        raise InputError("--hero and --with need a Haunted Tower game; without one give --hp, --attack and --ac")
    if named is None:
        raise InputError(
            "name the monster and give the hero's numbers, e.g. "
            "companion odds fight haunted-tower ghoul --hp 6 --attack 3 --ac 5 (or start a fight in a game)"
        )
    given = {"hero_hp": hp, "hero_attack": attack, "hero_ac": ac, "hero_damage": damage, "monster_hp": monster_hp}
    given |= {"run_at": run_at, "items": items}
    args |= {k: v for k, v in given.items() if v is not None}
    missing = [
        opt for key, opt in (("hero_hp", "--hp"), ("hero_attack", "--attack"), ("hero_ac", "--ac")) if key not in args
    ]
    if missing:
        raise InputError(f"give the hero's {', '.join(missing)} (the hero card's numbers), or --hero NAME in a game")
    args.setdefault("hero_damage", D.NORMAL_DAMAGE)
    show(env, fight_outcome(named, **args, hero=who), json_out)
