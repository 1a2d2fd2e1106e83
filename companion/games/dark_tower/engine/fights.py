"""The Dark Tower's guided engine: an obstacle's check and a fight, with their exact odds.

Part of the guided engine: see ``engine/__init__.py`` (the loop, and the keys every request is asked under).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.dice.expr import parse
from companion.dice.render import fraction
from companion.engine.keys import assign
from companion.engine.requests import Choice, Option, RollRequest
from companion.errors import InputError
from companion.games.dark_tower import odds
from companion.games.dark_tower.engine.asks import Flow, pct, yes_no
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules import checks as rules_checks
from companion.games.dark_tower.rules import fights as rules_fights
from companion.games.dark_tower.rules import items as rules_items
from companion.games.dark_tower.rules import lookup
from companion.games.dark_tower.rules.fights import Plan
from companion.games.dark_tower.rules.lookup import game
from companion.i18n import _, ngettext, number, owned, pair

if TYPE_CHECKING:
    from companion.contract.game import Chance
    from companion.engine.requests import Request
    from companion.session.state import State


#: Sessions made at this contract revision or later (``Meta.revision``) are asked for no ★ spell once
#: the roll has already won; older ones replay as they were played.
SPELLS_ONLY_TO_WIN = 2


def check_step(state: State) -> Flow:
    g = game(state)
    step = g.step
    card = C.get(state, "obstacle", g.obstacle or "")
    assert isinstance(card, C.ObstacleCard)
    hero = g.current()
    use: list[str] = []
    for item in rules_items.single_use(state, g.turn):
        item_text = C.describe(lookup.item_card(state, item), lookup.lang(state))
        if not lookup.item_card(state, item).die:
            continue  # only a die counts in a check: a single-use bonus item is kept for a fight
        answer = yield yes_no(
            "check.use", _("Use {item} for this check? It is discarded after.").format(item=item_text)
        )
        if g.step != step:
            return
        if answer == "yes":
            use.append(item)
    dice = rules_checks.check_dice(state, use)
    fail = []
    if card.damage:
        fail.append(ngettext("lose {n} health", "lose {n} health", card.damage).format(n=card.damage))
    if card.penalty:
        fail.append(_("−{n} in the next fight").format(n=card.penalty))
    if card.event:
        fail.append(card.event)
    co = odds.check_odds(card.check, dice)
    info = (
        ngettext(
            "{obstacle}: the numbers on {n} die must be more than {check}.",
            "{obstacle}: the numbers on {n} dice must be more than {check}.",
            dice,
        ).format(obstacle=C.title(card, lookup.lang(state)), n=dice, check=card.check),
        _("On a fail: {what}. Each ♥ heals 1 either way.").format(what="; ".join(fail) or _("nothing more")),
        _("Pass {passed} · fail {failed}").format(passed=fraction(co.passed), failed=pct(co.failed)),
    )
    expr = parse(f"{dice}dt>{card.check}")
    roll = yield RollRequest(
        "check.roll", expr, _("{player}: check {n}").format(player=hero.player, n=card.check), info=info
    )
    if g.step != step:
        state.log.text(_("(that roll was overtaken by a one-shot command and is not used)"))
        return
    rules_checks.resolve_check(state, roll, use)


def odds_lines(state: State, plan: Plan) -> tuple[str, ...]:
    """The fight's exact odds before the roll: win, tie, the damage, and each hero's chance to fall."""
    g = game(state)
    bonus = rules_fights.fight_bonus(state, plan)
    boosts = rules_fights.boosts(state, bonus)
    fo = odds.fight_odds(bonus.total, bonus.strength, bonus.dice, boosts)
    dmg = ", ".join(pair(d, pct(p)) for d, p in fo.damage.items() if d > 0 and p >= 0.0005)
    spells = ", ".join(C.spell_name(c.spell) for c in bonus.castable if c.hero == g.turn)
    lines = [
        ngettext(
            "{n} die {bonus} vs {strength}: beaten when the total is more than {strength}",
            "{n} dice {bonus} vs {strength}: beaten when the total is more than {strength}",
            bonus.dice,
        ).format(n=bonus.dice, bonus=f"{bonus.total:+d}", strength=bonus.strength)
        + (_("; ★ can cast {spells}").format(spells=spells) if boosts else ""),
        (_("Win {win} · tie {tie} (not beaten, no damage)") if fo.tie else _("Win {win}")).format(
            win=fraction(fo.win), tie=pct(fo.tie)
        )
        + (_(" · lose {p}").format(p=pct(fo.loss - fo.tie)) if fo.loss > fo.tie else ""),
    ]
    if dmg:
        lines.append(
            _("Damage to each hero in the fight: {damage} (average {mean})").format(
                damage=dmg, mean=number(float(fo.mean_damage), 2)
            )
        )
    for i in rules_fights.participants(state, plan):
        h = g.heroes[i]
        fall = odds.fall_chance(fo, h.health, h.max_health, heals=i == g.turn)
        if fall:
            lines.append(
                _("{player} ({health}/{max}) falls: {p}").format(
                    player=h.player, health=h.health, max=h.max_health, p=pct(fall)
                )
            )
    if bonus.immune:
        lines.append(_("Immune to spells: activated spells do not work on it."))
    if bonus.ignores:
        lines.append(
            _("It ignores the bonuses of: {classes}").format(
                classes=", ".join(C.class_name(c, lookup.lang(state)) for c in bonus.ignores)
            )
        )
    return tuple(lines)


def fight_step(state: State) -> Flow:
    g = game(state)
    step = g.step
    leader = g.current()
    plan = Plan()
    helpers = rules_fights.can_help(state)
    if helpers:
        options = [Option("alone", _("Fight alone"), _win_hint(state, plan), key="fi")]
        # A helper's key is the player's letters, made over every player at the table (issue 33).
        keys = assign([h.player for h in g.heroes], ("fi",))
        for i in helpers:
            trial = Plan(helper=i)
            player = g.heroes[i].player
            options.append(
                Option(str(i), _("Call {player} to help").format(player=player), _win_hint(state, trial), keys[player])
            )
        answer = yield Choice(
            "fight.help",
            ngettext(
                "{player} fights {monsters}. Call another player to help?",
                "{player} fights {monsters}. Call another player to help?",
                len(g.group),
            ).format(player=leader.player, monsters=lookup.group_text(state)),
            tuple(options),
            odds_lines(state, plan),
        )
        if g.step != step:
            return
        plan.helper = None if answer == "alone" else int(answer)
    bonus = rules_fights.fight_bonus(state, plan)
    for item in rules_items.single_use(state, g.turn, bonus.ignores):
        item_text = C.describe(lookup.item_card(state, item), lookup.lang(state))
        answer = yield yes_no(
            "fight.use",
            _("Use {item} in this fight? It is discarded after.").format(item=item_text),
            odds_lines(state, plan),
        )
        if g.step != step:
            return
        if answer == "yes":
            plan.use.append(item)
    for who, spell in rules_fights.fight_bonus(state, plan).conditional:
        answer = yield yes_no(
            "fight.condition",
            owned(
                _("{player}'s {spell}: does this hold now? {condition}").format(
                    player=g.heroes[who].player, spell=C.spell_name(spell), condition=spell.condition
                ),
                g.heroes[who].player,
            ),
        )
        if g.step != step:
            return
        if answer == "yes":
            plan.conditions.append(C.slug(spell.name))
    bonus = rules_fights.fight_bonus(state, plan)
    why = _("{player}: fight {monsters}").format(player=leader.player, monsters=lookup.group_text(state))
    roll = yield RollRequest(
        "fight.roll", parse(f"{bonus.dice}dt"), why, bonus.total, tuple(bonus.parts), odds_lines(state, plan)
    )
    if g.step != step:
        state.log.text(_("(that roll was overtaken by a one-shot command and is not used)"))
        return
    bonus = rules_fights.fight_bonus(state, plan)
    gained = roll.stars or 0
    cast: list[tuple[int, str]] = []
    numbers = roll.total - roll.modifier
    while True:
        chosen = rules_fights.castings(state, bonus, cast, gained)
        total = numbers + bonus.total + sum(c.value for c in chosen)
        options = []
        for c in bonus.castable:
            if c in chosen:
                continue
            try:
                rules_fights.castings(state, bonus, [*cast, (c.hero, c.slug)], gained)
            except InputError:
                continue  # not enough energy for it
            after = total + c.value
            options.append(
                Option(
                    f"{c.hero}:{c.slug}",
                    _("{player} casts {spell}: {value} for {cost}★").format(
                        player=g.heroes[c.hero].player,
                        spell=C.spell_name(c.spell),
                        value=f"{c.value:+d}",
                        cost=c.spell.cost,
                    ),
                    _verdict(after, bonus.strength),
                )
            )
        if not options or (total > bonus.strength and state.meta.revision >= SPELLS_ONLY_TO_WIN):
            break  # no spell to spend: none castable, or the dice have won already
        answer = yield Choice(
            "fight.cast",
            _("{verdict}. Spend ★ energy on a spell?").format(verdict=_verdict(total, bonus.strength)),
            (*options, Option("done", _("No (more) spells"))),
        )
        if g.step != step:
            return
        if answer == "done":
            break
        hero_i, _sep, spell_slug = answer.partition(":")
        cast.append((int(hero_i), spell_slug))
    rules_fights.resolve_fight(state, plan, roll, cast)


def _win(state: State, plan: Plan) -> tuple[int, odds.FightOdds] | None:
    try:
        bonus = rules_fights.fight_bonus(state, plan)
    except InputError:
        return None
    return bonus.total, odds.fight_odds(bonus.total, bonus.strength, bonus.dice, rules_fights.boosts(state, bonus))


def _win_hint(state: State, plan: Plan) -> str:
    won = _win(state, plan)
    if won is None:
        return ""
    return _("{bonus}, win {p}").format(bonus=f"{won[0]:+d}", p=pct(won[1].win))


def chances(state: State, request: Request) -> list[Chance]:
    """At "call another player to help?": each way to fight and its chance to win (the best is alone
    where calling a helper wins no more often: alone is listed first)."""
    from companion.contract.game import Chance

    if not isinstance(request, Choice) or request.key != "fight.help":
        return []
    out: list[Chance] = []
    for option in request.options:
        won = _win(state, Plan() if option.value == "alone" else Plan(helper=int(option.value)))
        if won is not None:
            out.append(Chance(option.value, won[1].win))
    return out


def _verdict(total: int, strength: int) -> str:
    if total > strength:
        return _("{total} beats {strength}").format(total=total, strength=strength)
    return _("{total} does not beat {strength}").format(total=total, strength=strength)
