"""The Haunted Tower's guided menu, driven with scripted answers and fixed dice through the fold."""

from __future__ import annotations

from typing import Any

from companion.dice.roll import evaluate
from companion.engine.requests import Choice, RollRequest
from companion.games.haunted_tower import GAME
from companion.games.haunted_tower.rules import lookup
from companion.session.fold import Fold, answer_event
from companion.session.service import new_state
from companion.session.state import Meta
from tests.haunted_helpers import ARIA, BRAM, CAEL


def new_fold(*variants: str, data: dict[str, Any] | None = None) -> Fold:
    meta = Meta(name="t", slug="t", game="haunted-tower", seed=1, dice="virtual", variants=list(variants))
    fold = Fold(GAME, new_state(GAME, meta))
    if data:
        fold.apply({"t": "gamedata", "values": data, "source": "catalogue"})
    fold.start()
    return fold


def answer(fold: Fold, value: Any, key: str | None = None) -> None:
    """Answer what the engine asks: a face for a roll, a choice value, a number or a text."""
    req = fold.pending
    assert req is not None, "the game is over"
    if key is not None:
        assert req.key == key, f"asked {req.key!r}, expected {key!r}"
    if isinstance(req, RollRequest):
        value = evaluate(req.expr, (value,), req.mod, parts=req.parts)
    elif isinstance(req, Choice):
        assert value in req.values(), f"{value!r} not in {req.values()} for {req.key}"
    fold.apply(answer_event(req, value))


def haunted(fold: Fold, op: str, **kw: Any) -> None:
    """A one-shot command's event, as ``companion haunted OP`` records it."""
    fold.apply({"t": "haunted", "op": op, **kw})


def weapon(hero: str, name: str) -> dict[str, Any]:
    return {"hero": hero, "item": name, "chit": {"kind": "weapon", "use": "attack", "hits": ["magical"]}}


def script(fold: Fold, *steps: tuple[str, Any]) -> None:
    for key, value in steps:
        answer(fold, value, key)


CARDS = {f"hero.{c.name}": c.to_data() for c in (ARIA, BRAM, CAEL)}


def ready(*variants: str) -> Fold:
    """Three heroes from the catalogue, play started with Aria first."""
    fold = new_fold(*variants, data=CARDS)
    for name in ("Aria", "Bram", "Cael"):
        script(fold, ("menu", "hero"), ("hero.card", name))
    script(fold, ("menu", "start"), ("order.roll", 9), ("order.roll", 2), ("order.roll", 3))
    return fold


def test_a_new_hero_card_is_asked_once_under_data_keys():
    fold = new_fold()
    menu = fold.pending
    assert menu.key == "menu" and menu.values() == ("hero",)
    # no player count yet: every count is listed
    assert menu.info[0] == "Blue chits each player draws: 3 players 17, 4 players 13, 5 players 10, 6 players 8."
    script(
        fold,
        ("menu", "hero"),
        ("data.hero.name", "Dwarf"),
        ("data.hero.speed", 4),
        ("data.hero.hp", 7),
        ("data.hero.attack", 3),
        ("data.hero.ac", 5),
        ("data.hero.ability", "+1 against undead"),
        ("data.hero.bonus", "yes"),
        ("data.hero.bonus.attack", 1),
        ("data.hero.bonus.damage", 0),
        ("data.hero.bonus.ac", 0),
        ("data.hero.bonus.vs", "undead"),
        ("data.hero.bonus.hits", "done"),
        ("data.hero.limits", "rules"),
    )
    state = fold.state
    assert state.data["hero.Dwarf"] == {
        "speed": 4,
        "hp": 7,
        "attack": 3,
        "ac": 5,
        "ability": "+1 against undead",
        "bonus": {"attack": 1, "damage": 0, "ac": 0, "vs": "undead", "hits": []},
    }
    assert [h.name for h in state.game.heroes] == ["Dwarf"]


def test_a_known_card_is_picked_from_the_catalogue():
    fold = new_fold(data=CARDS)
    script(fold, ("menu", "hero"))
    assert fold.pending.key == "hero.card"
    assert fold.pending.values() == ("Aria", "Bram", "Cael", "__new__", "__back__")
    script(fold, ("hero.card", "Bram"))
    assert fold.state.game.heroes[0].card.bonus.hits == ["magic"]


def test_setup_menu_shows_the_blue_chits_and_the_purple_order():
    fold = new_fold(data=CARDS)
    for name in ("Aria", "Bram", "Cael"):
        script(fold, ("menu", "hero"), ("hero.card", name))
    menu = fold.pending
    assert "placement" in menu.values() and "start" in menu.values()
    assert any("3 players draw 17 each" in line for line in menu.info)
    assert any("Specter of Sir Jameson" in line for line in menu.info)


def test_who_goes_first_rolls_again_on_a_tie():
    fold = ready()
    g = fold.state.game
    assert g.order == ["Aria", "Bram", "Cael"] and g.round == 1
    script(fold, ("menu", "order"), ("order.roll", 5), ("order.roll", 5), ("order.roll", 1))
    assert g.rolloff == ["Aria", "Bram"] and fold.pending.key == "order.roll"
    script(fold, ("order.roll", 2), ("order.roll", 8))
    assert g.order == ["Bram", "Cael", "Aria"] and g.round == 2


def test_a_whole_fight_in_the_menu():
    fold = ready()
    state = fold.state
    script(
        fold,
        ("menu", "fight"),
        ("fight.hero", "Aria"),
        ("fight.group", "numbered"),
        ("fight.monster", "ghoul"),
        ("fight.back", "blue"),
    )
    assert state.game.fight is not None
    init = fold.pending
    assert init.key == "fight.initiative.hero" and "attacks first: 1/2" in init.info[0]
    script(fold, ("fight.initiative.hero", 2), ("fight.initiative.monster", 5))
    attack = fold.pending
    assert attack.key == "fight.monster-attack" and str(attack.expr) == "1d6>=5" and attack.mod == 3
    assert "1d10" in attack.info[0]
    script(fold, ("fight.monster-attack", 4), ("fight.table", 9))  # 7 >= 5: a hit; 9: no move next turn
    assert lookup.find_hero(state.game, "Aria").hp == 5 and lookup.find_hero(state.game, "Aria").held_round == 1
    turn = fold.pending
    assert turn.key == "fight.turn"
    assert turn.values() == ("attack:", "run", "menu")
    assert turn.option("attack:").hint == "hits on a 3+ on the die: 2/3 (66.7%), 1 damage"
    assert turn.option("run").hint == "1d10 ≥ 3: 4/5 (80.0%)"
    advice = GAME.advise(state, turn)
    assert advice[0].startswith("Fight on to the end: win ")
    assert "it attacks again at once" in advice[-1]
    script(fold, ("fight.turn", "attack:"), ("fight.hero-attack", 6))
    script(fold, ("fight.initiative.hero", 6), ("fight.initiative.monster", 1))
    script(fold, ("fight.turn", "attack:"), ("fight.hero-attack", 6))
    assert state.game.fight is None
    aria = lookup.find_hero(state.game, "Aria")
    assert aria.standups == ["ghoul"] and aria.chits[0].back == "blue"
    assert fold.pending.key == "menu"
    line = state.log.line_text("fight-1")
    assert line == "Fight 1: Aria vs the Ghoul (blue chit): Aria kills it in round 2"


def test_stepping_out_of_a_fight_and_back():
    fold = ready()
    script(
        fold,
        ("menu", "fight"),
        ("fight.hero", "Cael"),
        ("fight.group", "rest"),
        ("fight.monster", "zombie"),
        ("fight.back", "blue"),
    )
    assert fold.pending.key == "fight.turn"  # the zombie always loses the initiative
    script(fold, ("fight.turn", "menu"))
    menu = fold.pending
    assert menu.key == "menu" and menu.values()[0] == "back"
    assert "fight" not in menu.values() and "order" not in menu.values()
    script(fold, ("menu", "hp"), ("hp.hero", "Cael"), ("hp.change", -1))
    assert fold.pending.key == "menu"
    script(fold, ("menu", "back"))
    assert fold.pending.key == "fight.turn"


def test_robber_fly_pick_and_run_away_in_the_menu():
    fold = ready()
    state = fold.state
    haunted(fold, "item", hero="Aria", item="Ring", chit={"kind": "other", "ac": 1})
    script(
        fold,
        ("menu", "fight"),
        ("fight.hero", "Aria"),
        ("fight.group", "rest"),
        ("fight.monster", "robber-fly"),
        ("fight.back", "blue"),
    )
    script(fold, ("fight.initiative.hero", 1), ("fight.initiative.monster", 6), ("fight.monster-attack", 6))
    pick = fold.pending
    assert pick.key == "fight.pick" and pick.values() == ("Ring",)
    script(fold, ("fight.pick", "Ring"), ("fight.turn", "run"), ("fight.run", 2))
    assert state.game.fight is None  # 2 >= Att 2: away
    assert state.game.kills == {}


def test_taking_a_new_item_asks_the_chit_once_and_keeps_it():
    fold = ready()
    state = fold.state
    script(
        fold,
        ("menu", "item"),
        ("item.hero", "Aria"),
        ("item.which", "__new__"),
        ("data.item.name", "Silver dagger"),
        ("data.item.kind", "weapon"),
        ("data.item.back", "purple"),
        ("data.item.attack", 1),
        ("data.item.damage", 0),
        ("data.item.ac", 0),
        ("data.item.metal", "yes"),
    )
    hits = fold.pending
    assert hits.key == "data.item.hits" and hits.option("magical").label == "☑ a magical weapon"
    script(fold, ("data.item.hits", "magical"), ("data.item.hits", "silver"), ("data.item.hits", "done"))
    script(fold, ("data.item.uses", 0))
    assert state.data["item.Silver dagger"]["hits"] == ["silver"]
    aria = lookup.find_hero(state.game, "Aria")
    assert [i.name for i in aria.items] == ["Silver dagger"] and aria.items[0].back == "purple"
    # the next time it is known
    script(fold, ("menu", "item"), ("item.hero", "Bram"), ("item.which", "Silver dagger"), ("item.back", "blue"))
    assert lookup.find_hero(state.game, "Bram").items[0].back == "blue"


def test_over_the_limit_the_menu_offers_leave_or_swap():
    fold = ready()
    state = fold.state
    for name in ("A", "B"):
        haunted(fold, "item", **weapon("Aria", name))
    state.data["item.C"] = weapon("Aria", "C")["chit"]
    script(fold, ("menu", "item"), ("item.hero", "Aria"), ("item.which", "C"), ("item.back", "blue"))
    assert fold.pending.key == "item.swap"
    assert fold.pending.values() == ("leave", "swap:A", "swap:B")
    script(fold, ("item.swap", "swap:A"))
    assert [i.name for i in lookup.find_hero(state.game, "Aria").items] == ["B", "C"]


def test_climb_trade_score_and_end_in_the_menu():
    fold = ready()
    state = fold.state
    aria = lookup.find_hero(state.game, "Aria")
    haunted(fold, "hp", hero="Aria", delta=-6)  # a death: one -1 chit
    for back in ("blue", "blue", "purple"):
        haunted(fold, "fight", hero="Aria", monster="skeleton", back=back)
        six = [{"faces": [6], "src": "virtual"}]
        haunted(fold, "init", steps=[{"do": "init"}], rolls=[*six, {"faces": [1], "src": "virtual"}])
        haunted(fold, "attack", steps=[{"do": "attack", "weapon": ""}], rolls=six)
    script(fold, ("menu", "climb"), ("climb.hero", "Aria"))
    assert aria.tower == 2
    script(fold, ("menu", "trade"), ("trade.hero", "Aria"))
    assert fold.pending.values() == ("blue", "purple", "__back__")
    script(fold, ("trade.pay", "purple"))
    assert aria.minus == []
    script(fold, ("menu", "score"))
    assert fold.pending.info[0] == "Score so far:"
    assert fold.pending.info[1].startswith("Aria: 5")  # 3 stand-ups and two blue chits
    script(fold, ("menu", "end"), ("end.confirm", "end"))
    assert fold.done and state.finished == "Aria wins with 5 points"


def test_climbing_with_too_few_chits_asks_about_an_empty_tower():
    fold = ready()
    script(fold, ("menu", "climb"))
    assert fold.pending.option("Aria").hint == "chits worth 0 blue of the 3 needed."
    script(fold, ("climb.hero", "Aria"), ("climb.cleared", "stay"))
    assert lookup.find_hero(fold.state.game, "Aria").tower == 1
    script(fold, ("menu", "climb"), ("climb.hero", "Aria"), ("climb.cleared", "cleared"))
    assert lookup.find_hero(fold.state.game, "Aria").tower == 2


def test_a_one_shot_event_refreshes_the_waiting_menu():
    fold = ready()
    assert fold.pending.key == "menu" and "fight" in fold.pending.values()
    fold.apply({"t": "haunted", "op": "fight", "hero": "Bram", "monster": "ghoul", "back": "blue"})
    # the engine asks for the fight's next step at once, not the stale menu
    assert fold.pending.key == "fight.initiative.hero"
    fold.apply(
        {
            "t": "haunted",
            "op": "init",
            "steps": [{"do": "init"}],
            "rolls": [{"faces": [6], "src": "physical"}, {"faces": [1], "src": "physical"}],
        }
    )
    assert fold.pending.key == "fight.turn"


def test_a_one_shot_step_while_a_roll_waits_drops_the_stale_roll():
    fold = ready()
    script(
        fold,
        ("menu", "fight"),
        ("fight.hero", "Aria"),
        ("fight.group", "numbered"),
        ("fight.monster", "ghoul"),
        ("fight.back", "blue"),
    )
    script(fold, ("fight.initiative.hero", 6), ("fight.initiative.monster", 1), ("fight.turn", "attack:"))
    assert fold.pending.key == "fight.hero-attack"
    fold.apply({"t": "haunted", "op": "run", "steps": [{"do": "run"}], "rolls": [{"faces": [10], "src": "physical"}]})
    assert fold.state.game.fight is None and fold.pending.key == "menu"


def test_both_paths_give_the_same_state_and_log():
    """The same fight with the same dice, through the menu and through one-shot events."""
    guided = ready()
    script(
        guided,
        ("menu", "fight"),
        ("fight.hero", "Aria"),
        ("fight.group", "numbered"),
        ("fight.monster", "carrion-crawler"),
    )
    script(guided, ("fight.back", "purple"), ("fight.initiative.hero", 1), ("fight.initiative.monster", 4))
    script(guided, ("fight.monster-attack", 5), ("fight.table", 8), ("fight.turn", "attack:"), ("fight.hero-attack", 4))
    script(guided, ("fight.initiative.hero", 6), ("fight.initiative.monster", 2), ("fight.turn", "run"))
    script(guided, ("fight.run", 1), ("fight.monster-attack", 6), ("fight.table", 2))

    oneshot = ready()
    events = [
        {"op": "fight", "hero": "Aria", "monster": "carrion-crawler", "back": "purple"},
        {"op": "init", "steps": [{"do": "init"}], "rolls": [[1], [4]]},
        {"op": "attack", "steps": [{"do": "monster"}, {"do": "table"}], "rolls": [[5], [8]]},
        {"op": "attack", "steps": [{"do": "attack", "weapon": ""}], "rolls": [[4]]},
        {"op": "init", "steps": [{"do": "init"}], "rolls": [[6], [2]]},
        {"op": "run", "steps": [{"do": "run"}], "rolls": [[1]]},
        {"op": "attack", "steps": [{"do": "monster"}, {"do": "table"}], "rolls": [[6], [2]]},
    ]
    for event in events:
        event["rolls"] = [{"faces": f, "src": "virtual"} for f in event.get("rolls", [])]
        oneshot.apply({"t": "haunted", **event})
    from companion.session import codec

    assert codec.dump(guided.state.game) == codec.dump(oneshot.state.game)
    assert [e.get("t") or e.get("r") for e in guided.state.log.entries] == [
        e.get("t") or e.get("r") for e in oneshot.state.log.entries
    ]
    aria = lookup.find_hero(guided.state.game, "Aria")
    f = guided.state.game.fight
    # 6 - 1 (table 8, with the venom, spent on Aria's attack) - 1 (after the failed run)
    assert aria.hp == 4 and f.hp == 2 and f.phase == "initiative" and not f.slowed


def test_the_engine_survives_a_refused_step():
    fold = ready()
    state = fold.state
    # Bram holds an item that Aria cannot take (she already has two weapons)
    for name in ("A", "B"):
        haunted(fold, "item", **weapon("Aria", name))
    haunted(fold, "item", **weapon("Bram", "C"))
    script(fold, ("menu", "items"), ("items.hero", "Bram"), ("items.item", "C"), ("items.action", "give:Aria"))
    assert fold.pending.key == "menu"
    assert "Not done: Aria already carries" in state.log.entries[-1]["t"]
