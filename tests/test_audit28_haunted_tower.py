"""Rules audit, turn 3 (#28), the Haunted Tower's table assistant: items 6 and 7, as the player types them.

6. No chit is taken during a fight; the specter only on Tower 3; a trade only between heroes on the same
   tower; nothing after the game is over.
7. ``haunted attack`` attacks with what ``haunted odds`` showed (the best chance), and the odds say what
   they assume of an item with limited uses.
"""

from __future__ import annotations

from tests.audit_support import js, refused, run


def _three_heroes() -> None:
    run("new", "haunted-tower", "--physical", "--name", "h6")
    for name in ("Aria", "Bram", "Cael"):
        run("haunted", "hero", name, "--speed", "5", "--hp", "5", "--attack", "3", "--ac", "5", "--ability", "-")
    run("haunted", "item", "Bram", "Sword +1", "--kind", "weapon", "--attack", "1", "--metal")


def _held(hero: str) -> list[str]:
    heroes = js("status")["state"]["game"]["heroes"]
    return [i["name"] for h in heroes if h["name"] == hero for i in h["items"]]


# ---- item 6 -----------------------------------------------------------------------------------------


def test_no_chit_is_taken_in_the_middle_of_a_fight():
    _three_heroes()
    run("haunted", "fight", "Bram", "ghoul")
    refused("haunted", "item", "Bram", "Sword +1", says="Bram is fighting the Ghoul: a chit is taken when a hero")
    run("haunted", "init", "--got", "1,6")  # the ghoul attacks first
    refused("haunted", "item", "Aria", "Sword +1", says="a chit is taken when a hero encounters it, not during a fight")
    assert _held("Bram") == ["Sword +1"] and _held("Aria") == []


def test_the_specter_is_met_only_on_tower_3():
    _three_heroes()
    refused(
        "haunted",
        "fight",
        "Bram",
        "specter",
        says="the Specter of Sir Jameson's chit lies only in Tower 3's rooms; Bram is on Tower 1",
    )


def test_a_trade_needs_the_heroes_on_the_same_tower():
    _three_heroes()
    run("haunted", "item", "Bram", "Shield", "--kind", "shield", "--ac", "1", "--back", "purple")
    run("haunted", "climb", "Bram", "--cleared")  # Tower 2
    refused(
        "haunted",
        "give",
        "Bram",
        "Shield",
        "Aria",
        says="Bram is on Tower 2 and Aria on Tower 1: heroes trade only when they are adjacent",
    )
    run("haunted", "climb", "Aria", "--cleared")
    run("haunted", "give", "Bram", "Shield", "Aria")
    assert _held("Aria") == ["Shield"]


def test_nothing_changes_after_the_game_is_over():
    _three_heroes()
    run("haunted", "end", "--reason", "time")
    refused("haunted", "hp", "Bram", "-1", says="the game is over")
    refused("haunted", "item", "Aria", "Sword +1", says="the game is over")
    refused("haunted", "fight", "Aria", "ghoul", says="the game is over")


# ---- item 7 -----------------------------------------------------------------------------------------


def test_the_attack_uses_the_weapon_the_odds_showed():
    _three_heroes()
    run("haunted", "fight", "Bram", "ghoul")
    run("haunted", "init", "--got", "6,1")
    odds = run("haunted", "odds").stdout
    assert "Att 4 with Sword +1" in odds
    out = run("haunted", "attack", "--got", "2").stdout  # 2 + 3 + 1 = 6 against AC 6: the sword hits
    assert "with Sword +1" in out and "Bram hits for 1" in out


def test_an_attack_without_the_item_is_asked_for_with_none():
    _three_heroes()
    run("haunted", "fight", "Bram", "ghoul")
    run("haunted", "init", "--got", "6,1")
    out = run("haunted", "attack", "--with", "none", "--got", "2").stdout  # 2 + 3 = 5 against AC 6
    assert "with Sword" not in out and "Bram misses" in out


def test_the_odds_say_a_one_use_item_is_counted_as_lasting_the_fight():
    _three_heroes()
    run("haunted", "item", "Cael", "Holy water", "--kind", "other", "--use", "attack", "--hits", "holy", "--uses", "1")
    run("haunted", "fight", "Cael", "mummy")
    out = run("haunted", "odds").stdout
    assert "with Holy water" in out
    assert "(counting Holy water's 1 use left as lasting the whole fight)" in out
