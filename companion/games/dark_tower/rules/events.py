"""The Dark Tower's one-shot events: the reducer of the ``dark`` events the commands record.

Plain Python on the state, shared by guided play and the one-shot commands: see :mod:`.lookup`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.errors import InputError
from companion.games.dark_tower.rules import cards as C
from companion.games.dark_tower.rules.checks import resolve_check
from companion.games.dark_tower.rules.draw import draw, join_group
from companion.games.dark_tower.rules.fights import Plan, resolve_fight
from companion.games.dark_tower.rules.health import change_health
from companion.games.dark_tower.rules.items import discard, gain_item, lose_item, trade
from companion.games.dark_tower.rules.lookup import game, name_of
from companion.games.dark_tower.rules.setup import (
    add_hero,
    check_starting_items,
    choose_quest,
    enter_card,
    set_lang,
    start,
    validate,
)
from companion.games.dark_tower.rules.turns import end_turn, enter_next_floor, pass_if_fallen, quest_done, set_deck
from companion.i18n import _

if TYPE_CHECKING:
    from companion.session.state import State


def reduce(state: State, event: dict[str, Any]) -> None:
    """Apply a ``dark`` event recorded by a one-shot command (see ``cli/``): the same rules as guided play."""
    from companion.dice.expr import parse
    from companion.log.rolls import draw_line, roll_line
    from companion.session.fold import roll_from

    op = event.get("op")
    game(state)
    roll = None
    if isinstance(event.get("roll"), dict):
        payload = event["roll"]
        expr = parse(payload["expr"])
        roll = roll_from(expr, payload, int(payload.get("mod", 0)), tuple((a, b) for a, b in payload.get("parts", [])))
        original = None
        if payload.get("original") is not None:
            from companion.dice.render import dice_text

            original = dice_text(roll_from(expr, payload["original"], int(payload.get("mod", 0))))
        line = roll_line(roll, event.get("why", ""), amended_from=original, reason=payload.get("reason"))
        state.log.roll(draw_line(line) if payload.get("draw") else line, event=event.get("id"))
        state.rolls += 1
    if op == "card":
        card = C.from_json(event["kind"], event["card"])
        validate(card)
        enter_card(state, event["kind"], card, event.get("slug"))
    elif op == "join":
        add_hero(state, event["player"], event["hero"])
    elif op == "item":
        gain_item(state, int(event["hero"]), event["item"], how=event.get("how", "takes"))
    elif op == "quest":
        choose_quest(state, event.get("quest"))
    elif op == "start":
        if game(state).phase == "setup":
            check_starting_items(state)
        start(state, int(event["first"]))
    elif op == "draw":
        draw(state, event["kind"], event["card"], any_floor=bool(event.get("any_floor")))
    elif op == "group":
        join_group(
            state, event["monster"], from_deck=bool(event.get("from_deck")), any_floor=bool(event.get("any_floor"))
        )
    elif op == "check":
        assert roll is not None
        resolve_check(state, roll, list(event.get("use", [])))
    elif op == "fight":
        assert roll is not None
        plan = Plan(event.get("helper"), list(event.get("use", [])), list(event.get("conditions", [])))
        resolve_fight(state, plan, roll, [(int(h), s) for h, s in event.get("cast", [])])
    elif op == "lose":
        index = int(event["index"]) if roll is None else (roll.total - 1)
        items = game(state).heroes[int(event["hero"])].items
        if roll is not None and 0 <= index < len(items):
            state.log.drew(name_of(state, "item", items[index].card))
        lose_item(state, int(event["hero"]), index)
        pass_if_fallen(state)  # the random item a helper owed was the last thing of a fallen leader's turn
    elif op == "discard":
        discard(state, int(event["hero"]), int(event["index"]), event.get("to"))
    elif op == "trade":
        trade(state, int(event["a"]), int(event["item_a"]), int(event["b"]), event.get("item_b"))
    elif op == "end":
        end_turn(state)
    elif op == "floor":
        enter_next_floor(state, force=bool(event.get("force")))
    elif op == "quest-done":
        quest_done(state)
    elif op == "health":
        change_health(state, int(event["hero"]), event.get("delta"), event.get("value"), event.get("max"))
    elif op == "deck":
        set_deck(state, int(event["floor"]), tuple(event["counts"]))  # type: ignore[arg-type]
    elif op == "lang":
        set_lang(state, event["lang"])
    else:
        raise InputError(_("unknown Dark Tower action {op!r}").format(op=op))
