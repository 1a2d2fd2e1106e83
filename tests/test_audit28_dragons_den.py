"""Rules audit, turn 3 (#28), the Dragon's Den with typed chits: item 8, as the player types it.

- The last hero in turn order may leave the den after the alarm ("A hero may leave the dragon den at any
  time"): ``dragon escape --chit N`` takes the countdown chit the dragon player then draws.
- An ability that draws from the hoard asks for ``--hoard``, the option that gives it.
"""

from __future__ import annotations

from tests.audit_support import js, refused, run


def _den(name: str) -> None:
    run("new", "dragons-den", "--physical", "--name", name)
    run("dragon", "setup", "7", "4", "2", "--chits", "physical", "--dragon", "5", "--discard", "1", "--discard", "2")


def test_the_last_hero_escapes_after_the_alarm_with_the_countdown_chit():
    _den("d8")
    run("dragon", "reveal", "1", "--chit", "t12", "--chit", "t7")
    run("dragon", "take", "T12")  # the alarm sounds
    run("dragon", "end-turn")
    run("dragon", "end-turn")  # Jared O'loria, the last in turn order
    refused("dragon", "escape", says="Which countdown chit was drawn?: give it with --chit")
    out = run("dragon", "escape", "--chit", "4").stdout
    assert "Jared O'loria leaves the den" in out and "Countdown: dragon chit 4 drawn; 8 left in the cup" in out
    assert js("status")["state"]["game"]["phase"] == "dragon"


def test_magic_missile_on_the_dragon_asks_for_the_hoard_chit_by_its_option():
    _den("d8m")
    run("dragon", "lair")
    run("dragon", "end-turn")  # Ren Wardo, the Magic-User
    refused("dragon", "ability", "missile", "dragon", "--got", "5", says="give it with --hoard")
    out = run("dragon", "ability", "missile", "dragon", "--got", "5", "--hoard", "3").stdout
    assert "Ren Wardo takes dragon treasure 3" in out
