"""``companion dark card`` and ``cards``: the cards players enter (kept in their catalogue).

Registered on ``companion dark`` by :mod:`companion.games.dark_tower.cli`; only typer is imported at
module level.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from companion.games.dark_tower.cli.common import (
    JsonOpt,
    _env,
    _ints,
    _record,
    _session,
    _split,
)

app = typer.Typer()


def _spell(text: str) -> Any:
    """``NAME:LEVEL:KIND:BONUS[:TARGET[:COST]]``, e.g. ``Heroic Valor:2:activated:4:self:1``."""
    from companion.errors import InputError
    from companion.games.dark_tower.rules import cards as C

    bits = [b.strip() for b in text.split(":", 6)]
    if len(bits) < 4 or not bits[0]:
        from companion.i18n import _

        raise InputError(
            _(
                "{text!r} is not a spell; write NAME:LEVEL:KIND:BONUS[:TARGET[:COST[:CONDITION]]] "
                "(e.g. 'Battle Cry:1:permanent:2:all' or 'Heroic Valor:2:activated:4:self:1')"
            ).format(text=text)
        )
    try:
        level, bonus = int(bits[1]), int(bits[3])
        cost = int(bits[5]) if len(bits) >= 6 and bits[5] else 1
    except ValueError:
        from companion.i18n import _

        raise InputError(_("{text!r}: the level, the bonus and the cost are whole numbers").format(text=text)) from None
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
    from companion.cli.kit import active_game
    from companion.errors import InputError
    from companion.games.dark_tower.rules import cards as C
    from companion.games.dark_tower.rules import setup as rules_setup
    from companion.session import catalogue
    from companion.store.paths import data_dir

    env = _env(ctx)
    k = C.kind_of(kind)
    card: C.Card
    words = C.properties(props)
    allowed = {"monster": {"ignores", "immune", "summons", "takes_item"}, "item": {"die", "single"}}.get(k, set())
    from companion.i18n import _

    if words - allowed:
        raise InputError(
            _("a {kind} card has no property {word!r}").format(kind=C.term(k).lower(), word=sorted(words - allowed)[0])
        )
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
            raise InputError(_("a {kind} card needs {option}").format(kind=C.term(k).lower(), option=option))
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
                raise InputError(_("an item's --bonus is one whole number, not {text!r}").format(text=bonus)) from None
        card = C.ItemCard(name, C.item_class(cls), value, die, single, ru, text)
    elif k == "obstacle":
        card = C.ObstacleCard(name, need(check, "--check"), damage, penalty, event, ru, text)
    else:
        rows = [[0, 0, 0] for _floor in range(3)]
        for a in adds or []:
            fl, sep, counts = a.partition(":")
            if not sep or not fl.strip().isdigit() or not 1 <= int(fl) <= 3:
                raise InputError(_("{text!r} is not FLOOR:MONSTERS,OBSTACLES,ITEMS (e.g. 3:1,0,0)").format(text=a))
            rows[int(fl) - 1] = _ints(counts, 3, "--adds")
        card = C.QuestCard(name, goal, rows, ru, text)
    rules_setup.validate(card)
    if not C.slug(card.name):
        raise InputError(_("a card needs a name"))
    stored = C.to_json(card)
    recorded = None
    values = catalogue.load(data_dir(env.data_dir), "dark-tower")
    if active_game(env) == "dark-tower":
        with _session(ctx) as session:
            card_slug = C.slug_for({**values, **session.state.data}, k, card)
            key = C.key(k, card_slug)
            mark = {catalogue.MARK: {"key": key, "was": values.get(key), "now": stored}}  # undone with the event
            recorded = _record(session, {"op": "card", "kind": k, "card": stored, "slug": card_slug, **mark})
    else:
        card_slug = C.slug_for(values, k, card)
    path = catalogue.path(data_dir(env.data_dir), "dark-tower")
    catalogue.merge(data_dir(env.data_dir), "dark-tower", {C.key(k, card_slug): stored})
    if json_out:
        env.print_json({"kind": k, "slug": card_slug, "card": stored, "catalogue": str(path), "event": recorded})
        return
    lang = ctx.meta.get("dark_lang")
    env.print(C.words(lang).gettext("{kind}: {card}").format(kind=C.term(k, lang), card=C.describe(card, lang)))
    kept = (
        _("Kept in {path}; recorded in the session (#{n})").format(path=path, n=recorded)
        if recorded
        else _("Kept in {path}").format(path=path)
    )
    env.print(kept, style="dim")


@app.command("cards")
def cards_cmd(
    ctx: typer.Context,
    kind: Annotated[str | None, typer.Argument(help="Only this kind (hero, monster, ...).", show_default=False)] = None,
    json_out: JsonOpt = False,
) -> None:
    """List the cards you have entered (and the rule text's two examples)."""
    from companion.cli.kit import active_game
    from companion.games.dark_tower import data
    from companion.games.dark_tower.rules import cards as C
    from companion.session import catalogue
    from companion.store.paths import data_dir

    env = _env(ctx)
    kinds = [C.kind_of(kind)] if kind else list(data.CARD_KINDS)
    values = catalogue.load(data_dir(env.data_dir), "dark-tower")
    if active_game(env) == "dark-tower":
        with _session(ctx) as session:
            values = {**values, **session.state.data}
    lang = ctx.meta.get("dark_lang")
    found = {k: C.known(values, k) for k in kinds}
    if json_out:
        env.print_json({k: {s: C.to_json(c) for s, c in cs.items()} for k, cs in found.items()})
        return
    from companion.cli.env import styled

    PLURAL = {"hero": "heroes", "monster": "monsters", "obstacle": "obstacles", "item": "items", "quest": "quests"}
    for k, cs in found.items():
        env.print(styled("[bold]{kind}[/bold] ({n})", kind=C.term(PLURAL[k], lang), n=len(cs)))  # a list: plural
        for _slug, c in sorted(cs.items()):
            env.print(styled("  {card}", card=C.describe(c, lang)))  # typed by its name, as shown (ё and all)
