"""``companion dark draw``, ``check``, ``fight``, ``lose``, ... ``end``: the steps of a turn, and corrections.

Registered on ``companion dark`` by :mod:`companion.games.dark_tower.cli`; only typer is imported at
module level.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from companion.games.dark_tower.cli.common import (
    GotOpt,
    JsonOpt,
    _dry,
    _env,
    _hero,
    _info,
    _ints,
    _record,
    _roll,
    _session,
    _show,
    _shown_in,
)

app = typer.Typer()


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
    from companion.games.dark_tower.rules import cards as C
    from companion.i18n import _

    with _session(ctx) as session:
        k = C.kind_of(kind)
        if k not in ("monster", "obstacle", "item"):
            raise InputError(_("a floor's deck holds monsters, obstacles and items"))
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
    from companion.games.dark_tower.rules import cards as C

    with _session(ctx) as session:
        before = len(session.state.log.entries)
        card = C.find(session.state, "monster", monster)
        event = {"op": "group", "monster": card, "from_deck": from_deck}
        _record(session, {**event, **({"any_floor": True} if any_floor else {})})
        _show(ctx, session, before, json_out)


def _odds_first(ctx: typer.Context, session: Any, got: str | None, lines: list[str], json_out: bool) -> list[str]:
    """The odds before a roll: shown now when the player is asked for the dice at a prompt; otherwise
    (typed faces, virtual dice) returned to show once the roll is read, so a refusal is the one line."""
    env = _env(ctx)
    if got is None and session.state.dice == "physical" and env.interactive:
        _info(env, lines, json_out)
        return []
    return list(lines)


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
    from companion.games.dark_tower import odds
    from companion.games.dark_tower.rules import cards as C
    from companion.games.dark_tower.rules import checks as rules_checks
    from companion.games.dark_tower.rules import lookup
    from companion.i18n import _, ngettext

    env = _env(ctx)
    with _session(ctx) as session:
        state = session.state
        g = lookup.game(state)
        if g.phase != "obstacle":
            from companion.errors import InputError

            raise InputError(_("there is no obstacle to check: {what}").format(what=lookup.waiting_for(state)))
        items = [lookup.held_index(state, g.turn, u) for u in use or []]
        used = [g.current().items[i].card for i in items]
        card = C.get(state, "obstacle", g.obstacle or "")
        dice = rules_checks.check_dice(state, used)
        co = odds.check_odds(card.check, dice)  # type: ignore[union-attr]
        with _shown_in(ctx, session):
            line = ngettext(
                "{obstacle}: {n} die must show more than {check}: pass {odds}",
                "{obstacle}: {n} dice must show more than {check}: pass {odds}",
                dice,
            ).format(obstacle=C.title(card), n=dice, check=card.check, odds=fraction(co.passed))  # type: ignore[union-attr]
        later = _odds_first(ctx, session, got, [line], json_out)
        expr = parse(f"{dice}dt>{card.check}")  # type: ignore[union-attr]
        roll, payload = _roll(
            ctx,
            session,
            expr,
            got,
            _("{player}: check {n}").format(player=g.current().player, n=card.check),  # type: ignore[union-attr]
        )
        result = rules_checks.resolve_check(_dry(session), roll, used)
        _info(env, later, json_out)  # the odds, once nothing can refuse the roll any more
        before = len(state.log.entries)
        why = (
            f"{g.current().player}: {lookup.t(state, 'check').lower()} {card.check}"  # type: ignore[union-attr]
            if lookup.lang(state) == "en"
            else _("{player}: check {n}").format(player=g.current().player, n=card.check)  # type: ignore[union-attr]
        )
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
    from companion.games.dark_tower import odds
    from companion.games.dark_tower.engine.fights import odds_lines
    from companion.games.dark_tower.rules import cards as C
    from companion.games.dark_tower.rules import fights as rules_fights
    from companion.games.dark_tower.rules import lookup
    from companion.i18n import _

    env = _env(ctx)
    with _session(ctx) as session:
        state = session.state
        g = lookup.game(state)
        if g.phase != "fight":
            raise InputError(_("there is no fight now: {what}").format(what=lookup.waiting_for(state)))
        plan = rules_fights.Plan()
        if helper is not None:
            plan.helper = _hero(session, helper)
        plan.use = [g.current().items[lookup.held_index(state, g.turn, u)].card for u in use or []]
        plan.conditions = [C.slug(c) for c in condition or []]
        bonus = rules_fights.fight_bonus(state, plan)
        with _shown_in(ctx, session):
            lines = odds_lines(state, plan)
        fo = odds.fight_odds(bonus.total, bonus.strength, bonus.dice, rules_fights.boosts(state, bonus))
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
        later = _odds_first(ctx, session, got, lines, json_out)
        why = (
            f"{g.current().player}: {lookup.t(state, 'fight').lower()} {lookup.group_text(state)}"
            if lookup.lang(state) == "en"
            else _("{player}: fight {monsters}").format(player=g.current().player, monsters=lookup.group_text(state))
        )
        roll, payload = _roll(ctx, session, parse(f"{bonus.dice}dt"), got, why)
        payload["mod"] = bonus.total
        payload["parts"] = [list(p) for p in bonus.parts]
        from companion.dice.roll import evaluate

        roll = evaluate(roll.expr, roll.faces or (), bonus.total, source=roll.source, parts=tuple(bonus.parts))
        chosen, skipped = _choose_casts(state, bonus, roll.stars or 0, cast)
        result = rules_fights.resolve_fight(_dry(session), plan, roll, chosen)
        _info(env, later, json_out)  # the odds, once nothing can refuse the roll any more
        _info(env, [_("Not enough ★ for {spell}: not cast.").format(spell=s) for s in skipped], json_out)
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
    from companion.games.dark_tower.rules import cards as C
    from companion.games.dark_tower.rules import fights as rules_fights
    from companion.i18n import _

    wanted = cast or ["auto"]
    if wanted in (["auto"], ["авто"]):
        return rules_fights.best_castings(state, bonus, stars), []
    if wanted in (["none"], ["нет"]):
        return [], []
    chosen: list[tuple[int, str]] = []
    skipped: list[str] = []
    for name in wanted:
        key = C.slug(name)
        option = next((c for c in bonus.castable if key in (c.slug, C.slug(c.spell.ru))), None)
        if option is None:
            known = ", ".join(C.spell_name(c.spell) for c in bonus.castable) or _("none in this fight")
            raise InputError(
                _("{name!r} is not an activated spell the heroes can cast here (castable: {known})").format(
                    name=name, known=known
                )
            )
        try:
            rules_fights.castings(state, bonus, [*chosen, (option.hero, option.slug)], stars)
        except InputError:
            skipped.append(C.spell_name(option.spell))
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
    from companion.games.dark_tower.rules import lookup
    from companion.i18n import _, owned

    with _session(ctx) as session:
        state = session.state
        g = lookup.game(state)
        if not g.owed:
            raise InputError(_("nobody owes a random item now"))
        who = _hero(session, player) if player else g.owed[0]
        if who not in g.owed:
            raise InputError(_("{player} owes no item").format(player=g.heroes[who].player))
        hero = g.heroes[who]
        before = len(state.log.entries)
        event: dict[str, Any] = {"op": "lose", "hero": who}
        if name is not None:
            event["index"] = lookup.held_index(state, who, name)
        elif len(hero.items) == 1:
            event["index"] = 0
        else:
            from companion.games.dark_tower.engine.asks import pick_expr

            _picked, payload = _roll(
                ctx,
                session,
                pick_expr(len(hero.items)),
                got,
                owned(_("{player}'s random item").format(player=hero.player), hero.player),
            )
            event["roll"] = {**payload, "draw": True}  # an item picked at random: a draw, not a die
            event["why"] = _("{player} discards a random item").format(player=hero.player)
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
    from companion.games.dark_tower.rules import lookup

    with _session(ctx) as session:
        before = len(session.state.log.entries)
        who = _hero(session, player)
        index = lookup.held_index(session.state, who, name)
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
    from companion.games.dark_tower.rules import lookup

    with _session(ctx) as session:
        state = session.state
        before = len(state.log.entries)
        a, b = _hero(session, player), _hero(session, other)
        event = {
            "op": "trade",
            "a": a,
            "item_a": lookup.held_index(state, a, name),
            "b": b,
            "item_b": lookup.held_index(state, b, back) if back else None,
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
        from companion.i18n import _

        raise InputError(_("give a change (+N, -N, =N) or --max N"))
    with _session(ctx) as session:
        before = len(session.state.log.entries)
        who = _hero(session, player)
        event: dict[str, Any] = {"op": "health", "hero": who}
        if change is not None:
            from companion.i18n import pgettext

            op, n = parse_change(change, pgettext("of", "health"))
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
    from companion.i18n import _

    with _session(ctx) as session:
        before = len(session.state.log.entries)
        _record(session, {"op": "deck", "floor": floor, "counts": _ints(counts, 3, _("the counts"))})
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
