"""Guided play of the Dark Tower: the engine driven with scripted answers and fixed dice, and replayed."""

from __future__ import annotations

from companion.dice.expr import parse
from companion.dice.render import fraction
from companion.dice.roll import evaluate
from companion.engine.requests import Choice, RollRequest
from companion.games.dark_tower import odds
from companion.games.dark_tower.rules import fights as rules_fights
from companion.games.dark_tower.rules import lookup
from companion.session import catalogue, codec
from companion.session.fold import answer_event
from companion.session.service import Session
from companion.store.sessions import Store
from tests.dark_tower_helpers import Script, new, table


def _solo_setup(script: Script) -> None:
    script.run(
        ("setup.lang", "en"),
        ("setup.cards", "table"),
        ("setup.player", "Ann"),
        ("card.hero", "clan-champion"),
        ("setup.more", "done"),
        ("card.item", "sword"),
        ("card.quest", "+none"),
        ("setup.decks", "ready"),
    )


def test_setup_enters_a_new_hero_and_quest_and_shows_the_decks_with_the_quests_cards():
    state = new()
    s = Script(state)
    s.run(("setup.lang", "en"), ("setup.cards", "table"), ("setup.player", "Ann"), ("card.hero", "+new"))
    s.run(
        ("card.hero.name", "Witch"),
        ("card.hero.health", 7),
        ("card.hero.bonus", 0),
        ("card.hero.bonus", 1),
        ("card.hero.bonus", 2),
        ("card.hero.spells", "add"),
        ("card.hero.spell", "Hex"),
        ("card.hero.level", 1),
        ("card.hero.kind", "activated"),
        ("card.hero.spell_bonus", 3),
        ("card.hero.target", "self"),
        ("card.hero.cost", 2),
        ("card.hero.spells", "done"),
        ("data.hero", "-"),
    )
    assert state.data["cards.hero.witch"]["spells"][0] == {
        "name": "Hex",
        "level": 1,
        "kind": "activated",
        "bonus": 3,
        "target": "self",
        "cost": 2,
    }
    s.run(("setup.more", "add"), ("setup.player", "ann"))  # "ann" is Ann: refused, asked again
    assert s.request.key == "setup.more" and "already at the table" in s.request.info[0]
    s.run(("setup.more", "add"), ("setup.player", "Bo"), ("card.hero", "clan-champion"), ("setup.more", "done"))
    s.run(("card.item", "sword"), ("card.item", "mail"), ("card.quest", "+new"), ("card.quest.name", "Lich Hunt"))
    for n in range(9):  # floors 1-3 × monsters, obstacles, items
        s.answer(1 if n == 6 else 0, key="card.quest.adds")  # one more monster on floor 3
    req = s.run(("data.quest", "Beat the Lich"))
    assert req.key == "setup.decks"
    assert req.info == (
        "Floor 1: 8 monsters, 2 obstacles, 1 item = 11 cards",
        "Floor 2: 6 monsters, 2 obstacles, 2 items = 10 cards",
        "Floor 3: 4 monsters, 1 obstacle, 1 item = 6 cards",
    )
    req = s.run(("setup.decks", "ready"))
    assert req.key == "setup.first" and req.values()[-1] == "roll"
    req = s.run(("setup.first", "roll"), ("pick.first", (2,)))
    g = lookup.game(state)
    assert g.current().player == "Bo" and g.phase == "draw" and req.key == "turn.card"
    assert "quest" in req.values()


def test_a_turn_of_guided_play_draws_a_new_monster_fights_it_and_passes_the_turn():
    state = new()
    s = Script(state)
    _solo_setup(s)
    req = s.run(("turn.card", "monster"), ("card.monster", "+new"), ("card.monster.name", "Bat"))
    assert req.key == "card.monster.floor" and req.default == 1
    req = s.run(
        ("card.monster.floor", 1),
        ("card.monster.strength", 7),
        ("card.monster.props", "immune"),
        ("card.monster.props", "done"),
        ("data.monster", "It flits."),
    )
    assert state.data["cards.monster.bat"] == {
        "name": "Bat",
        "floor": 1,
        "strength": 7,
        "immune": True,
        "text": "It flits.",
    }
    assert isinstance(req, RollRequest) and req.key == "fight.roll"
    assert str(req.expr) == "4dt" and req.mod == 4 and req.parts == (("Battle Cry", 2), ("Sword", 2))
    assert f"Win {fraction(odds.win_chance(4, 7))}" in req.info[1]
    req = s.answer((1, 1, 4, 6))  # 2 + 4 = 6 against 7: 1 damage (the ♥ heals nothing at full health)
    assert req.key == "end.menu"
    hero = lookup.game(state).heroes[0]
    assert hero.health == 9 and lookup.game(state).group == ["bat"]
    req = s.run(("end.menu", "end"))
    assert req.key == "fight.help" if lookup.game(state).floor > 1 else req.key == "fight.roll"


def test_companion_draws_random_cards_through_1dn_rolls():
    state = new()
    s = Script(state)
    s.run(("setup.lang", "ru"), ("setup.cards", "companion"), ("setup.player", "Ann"), ("card.hero", "rogue"))
    req = s.run(("setup.more", "done"))
    # five catalogue items: the random item is a 1d5
    assert req.key == "pick.item" and str(req.expr) == "1d5"
    req = s.answer((3,))  # items sorted by slug: axe, bomb, lucky-coin, mail, sword
    assert lookup.game(state).heroes[0].items[0].card == "lucky-coin"
    assert req.key == "card.quest"  # no quest in the catalogue: enter one or play without
    req = s.run(("card.quest", "+none"), ("setup.decks", "ready"))
    assert req.key == "turn.card" and "1 Этажа" in req.prompt and "4 монстра" in req.prompt
    req = s.run(("turn.card", "draw"))
    assert req.key == "pick.card" and str(req.expr) == "1d6"  # 4 monsters, 1 obstacle, 1 item
    req = s.answer((5,))  # the 5th card: the obstacle
    assert req.key == "check.roll" and str(req.expr) == "4dt>5"  # 3 dice, and the Lucky Coin adds one
    assert lookup.game(state).obstacle == "pit"


def test_a_summoner_brings_more_monsters_into_the_group():
    state = table([("Ann", "clan-champion", [])])
    s = Script(state)
    req = s.run(("turn.card", "monster"), ("card.monster", "shaman"))
    assert req.key == "draw.group"
    req = s.run(("draw.group", "deck"), ("card.monster", "rat"))
    assert req.key == "draw.group"
    req = s.run(("draw.group", "outside"), ("card.monster", "rat"), ("draw.group", "fight"))
    g = lookup.game(state)
    assert g.group == ["shaman", "rat", "rat"] and g.deck().monsters == 2
    assert req.key == "fight.roll" and "vs 7" in req.info[0]


def test_help_and_an_activated_spell_in_guided_play():
    state = table([("Ann", "clan-champion", []), ("Bo", "rogue", [])], floor=2)
    s = Script(state)
    req = s.run(("turn.card", "monster"), ("card.monster", "troll"))
    assert req.key == "fight.help"
    assert [o.value for o in req.options] == ["alone", "1"]
    assert req.options[1].hint.startswith("+6, win")
    req = s.run(("fight.help", "1"))
    assert req.key == "fight.roll" and req.mod == 6
    req = s.answer((1, 1, 6, 6))  # 2 + 6 = 8 against 9; two stars
    assert req.key == "fight.cast"
    assert req.prompt.startswith("8 does not beat 9")
    assert [o.value for o in req.options] == ["0:heroic-valor", "done"]  # Bo has no energy for Backstab
    assert req.options[0].hint == "12 beats 9"
    req = s.run(("fight.cast", "0:heroic-valor"))
    g = lookup.game(state)
    assert g.group == [] and g.beaten == 1 and g.heroes[0].energy == 1
    assert req.key == "end.menu"


def test_a_random_item_lost_to_the_cube_is_rolled_on_1dn():
    state = table([("Ann", "clan-champion", ["mail", "bomb"])])
    s = Script(state)
    s.run(("turn.card", "monster"), ("card.monster", "gelatinous-cube"))
    req = s.run(("fight.use", "no"))
    req = s.answer((6, 6, 6, 6))  # 3 against 4
    assert req.key == "lose.item" and str(req.expr) == "1d2"
    req = s.answer((2,))
    assert [h.card for h in lookup.game(state).heroes[0].items] == ["mail"]
    assert req.key == "end.menu"


def test_items_over_the_class_limit_are_discarded_and_may_be_picked_up():
    state = table([("Ann", "clan-champion", ["sword"]), ("Bo", "rogue", [])])
    s = Script(state)
    req = s.run(("turn.card", "item"), ("card.item", "axe"))
    assert req.key == "end.discard" and req.values() == ("sword", "axe")
    req = s.run(("end.discard", "sword"), ("end.to", "1"))
    g = lookup.game(state)
    assert [h.card for h in g.heroes[0].items] == ["axe"]
    assert [(h.card, h.fresh) for h in g.heroes[1].items] == [("sword", True)]
    assert req.key == "end.menu"
    req = s.run(
        ("end.menu", "trade"), ("trade.from", "0"), ("trade.give", "0"), ("trade.to", "1"), ("trade.back", "none")
    )
    assert [h.card for h in g.heroes[1].items] == ["sword", "axe"]
    assert req.key == "end.discard" and req.prompt.startswith("Bo may hold 1 Weapon")  # before the turn can end


def test_a_step_overtaken_by_a_one_shot_command_starts_again_from_the_state():
    state = table([("Ann", "clan-champion", [])])
    s = Script(state)
    req = s.run(("turn.card", "monster"), ("card.monster", "rat"))
    assert req.key == "fight.roll"
    # a one-shot fight resolves it between two answers
    rules_fights.resolve_fight(state, rules_fights.Plan(), evaluate(parse("4dt"), (3, 3, 3, 3)), [])
    req = s.answer((1, 1, 1, 1))
    assert req.key == "end.menu" and lookup.game(state).beaten == 1
    assert any("overtaken" in e.get("t", "") for e in state.log.entries)


def _record_answers(session: Session, answers: list) -> None:
    for value in answers:
        session.fold.start()
        request = session.fold.pending
        if isinstance(request, RollRequest):
            value = evaluate(request.expr, tuple(value), request.mod, source="physical", parts=request.parts)
        elif isinstance(request, Choice):
            assert value in request.values(), (value, request)
        session.record(answer_event(request, value))


def test_guided_play_replays_from_its_events_and_new_cards_reach_the_catalogue(tmp_path):
    store = Store(tmp_path / "data")
    session = Session.create(store, "g", "dark-tower", seed=3, physical=True, variants=[], logs_dir=tmp_path / "logs")
    with session.files.locked():
        _record_answers(
            session,
            [
                *("en", "table", "Ann", "clan-champion", "done", "+new", "Dagger", "weapon", 1, "done", "-", "+none"),
                *("ready", "monster", "gelatinous-cube", (1, 2, 4, 6), "end", "monster", "gelatinous-cube"),
                (1, 1, 1, 1),
            ],
        )
        live = codec.dump(session.state)
        text = session.log_text()
    again = Session.open(store.open("g"), engine=True)
    assert codec.dump(again.state) == live
    assert again.log_text() == text
    assert again.fold.pending.key == "end.menu"
    assert lookup.game(again.state).beaten == 2
    assert catalogue.load(tmp_path / "data", "dark-tower")["cards.item.dagger"] == {
        "name": "Dagger",
        "cls": "weapon",
        "bonus": 1,
    }
    second = Session.create(store, "h", "dark-tower", seed=4, physical=False, variants=[], logs_dir=tmp_path / "logs")
    assert "cards.item.dagger" in second.state.data


def test_a_card_name_without_a_letter_is_asked_again():
    state = table([("Ann", "clan-champion", [])])
    s = Script(state)
    req = s.run(("turn.card", "monster"), ("card.monster", "+new"), ("card.monster.name", "!!!"))
    assert req.key == "card.monster.name" and "needs a letter" in req.prompt
    assert s.run(("card.monster.name", "Ogre")).key == "card.monster.floor"


def test_no_spell_is_offered_once_the_dice_have_won():
    """A roll that already beats the monsters asks for no ★ spell (sessions made at contract revision 2
    on); an older session replays as it was played, asking."""
    from companion.games.dark_tower.engine.fights import SPELLS_ONLY_TO_WIN

    for revision, asked in ((SPELLS_ONLY_TO_WIN, False), (0, True)):
        state = table([("Ann", "clan-champion", []), ("Bo", "rogue", [])], floor=2)
        state.meta.revision = revision
        s = Script(state)
        s.run(("turn.card", "monster"), ("card.monster", "troll"), ("fight.help", "1"))
        req = s.answer((3, 3, 6, 6))  # 6 + 6 = 12 against 9: won, with two stars to spend
        assert (req.key == "fight.cast") == asked, (revision, req.key)
        if asked:
            assert req.prompt.startswith("12 beats 9")
            req = s.run(("fight.cast", "done"))
        assert req.key == "end.menu" and lookup.game(state).beaten == 1
