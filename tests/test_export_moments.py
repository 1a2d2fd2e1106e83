"""The big moments of every game, end to end: a session played through the commands, exported with
``companion export --format html``, the page parsed with html5lib, and every chance it shows
compared with what ``companion odds fight`` says for the position the page names."""

from __future__ import annotations

import json
import os
import shlex
from fractions import Fraction
from pathlib import Path

import html5lib
from typer.testing import CliRunner

from companion.cli.app import app
from companion.sim.fights import chance_text

runner = CliRunner()
XHTML = "{http://www.w3.org/1999/xhtml}"


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result.stdout


def js(*args: str):
    return json.loads(ok(*args, "--json"))


def text(el) -> str:
    return " ".join("".join(el.itertext()).split())


def exported(tmp_path: Path):
    """``companion export --format html`` into its default place, parsed: the big moments, and every
    fight (listed after the log when there are more than the moments show)."""
    done = js("export", "--format", "html")
    page = Path(done["file"])
    assert page.suffix == ".html" and page.exists()
    doc = html5lib.HTMLParser(strict=True, namespaceHTMLElements=True).parse(page.read_text(encoding="utf-8"))
    moments = doc.find(f".//{XHTML}section[@id='moments']")
    assert moments is not None, "every page has the big moments"
    every = doc.find(f".//{XHTML}section[@id='fights']")
    if every is not None:
        shown = {text(h) for h in moments.iter(f"{XHTML}h3")}
        assert shown and shown < {text(h) for h in every.iter(f"{XHTML}h3")}
    return doc.find(f".//{XHTML}main")


def positions(section) -> list[tuple[Fraction, str, str, str]]:
    """Every chance the section shows, exactly (its data value), with the odds command under it, what
    it is a chance of (``win``; ``stand``: a hero's, shown as the chance to fall; ``pass``: a check's)
    and the title of what it is read in."""
    out = []
    for li in section.iter(f"{XHTML}li"):
        of = li.get("data-of")
        if of is None:
            continue
        title = text(li.find(f"{XHTML}h3"))
        for span in li.iter(f"{XHTML}span"):
            if "at" not in (span.get("class") or "").split():
                continue
            value = span.find(f"{XHTML}data").get("value")
            shown = text(span.find(f"{XHTML}data"))
            command = text(span.find(f"{XHTML}code"))
            x = Fraction(value)
            assert shown == chance_text(x), (value, shown)  # the fraction where it is short, else a percentage
            out.append((x, command, of, title))
    return out


def same_as_the_odds_command(section) -> int:
    """Run each named position's odds command; its exact chance is the page's (a fight's chance to win, a
    hero's chance to fall as the command lists it, a check's chance to pass). Returns how many."""
    found = positions(section)
    for chance, command, of, title in found:
        words = shlex.split(command)
        said = js(*words[1:])
        if of == "pass":
            assert words[:2] == ["companion", "odds"], command
            assert Fraction(said["success"]) == chance, (command, said["success"], chance)
            continue
        if of == "stand" and words[2] != "fight":  # a save: its chance to pass is the chance to stand
            assert Fraction(said["success"]) == 1 - chance, (command, said["success"], chance)
            continue
        assert words[:3] == ["companion", "odds", "fight"], command
        if of == "stand":
            hero = title.split(" against ")[0]
            assert Fraction(said["more"][f"{hero} falls"]) == chance, (command, said["more"], chance)
        else:
            assert Fraction(said["win"]) == chance, (command, said["win"], chance)
    return len(found)


def lowest_first(page) -> list[Fraction]:
    """The big moments' lowest chances (a hero's chance to come through standing, for a fall), checked to
    be listed lowest first; returned in the order shown."""
    moments = page.find(f".//{XHTML}section[@id='moments']")
    lows = []
    for li in moments.iter(f"{XHTML}li"):
        if li.get("data-of") is None:
            continue
        data = next(li.iter(f"{XHTML}data"))  # the first chance of an item is its lowest point
        x = Fraction(data.get("value"))
        lows.append(1 - x if li.get("data-of") == "stand" else x)
    assert lows == sorted(lows), f"the big moments lowest first: {lows}"
    return lows


def fights(page) -> list[tuple[str, str]]:
    """(title, result word) of each fight, in the order fought."""
    every = page.find(f".//{XHTML}section[@id='fights']")
    section = every if every is not None else page.find(f".//{XHTML}section[@id='moments']")
    out = []
    for li in section.iter(f"{XHTML}li"):
        h3 = li.find(f"{XHTML}h3")
        result = h3.find(f"{XHTML}span")
        out.append((text(h3)[: -len(text(result))].strip(), text(result)))
    return out


# ---- The Inverted Tower: guided play, one step at a time ----------------------------------------


def tower_answer(request: dict, turn: int) -> str:
    values = [o["value"] for o in request["options"]] if request["type"] == "choice" else []
    if request["type"] == "roll":
        return "roll"
    if request["key"] == "combat.daggers":
        return "=1" if "1" in values else "=0"
    if "potion" in values and turn % 4 == 0:
        return "=potion"
    if request["key"] in ("hero.attribute", "level.attribute", "combat.attribute"):
        return "=STR"
    if request["key"] == "turn":
        return "=" + next(v for v in ("new", "down", "stairs", "back") if v in values)
    return "=" + values[0] if values else "1"


def test_the_inverted_tower(tmp_path):
    ok("new", "inverted-tower", "--seed", "4", "--hero", "Aria")
    step = js("next")
    turn = 0
    while not step["done"] and turn < 150:
        step = js("next", tower_answer(step["request"], turn))
        turn += 1
    section = exported(tmp_path)
    listed = fights(section)
    assert len(listed) >= 5 and {r for _, r in listed} <= {"won", "lost", "not over"}
    assert all(title.startswith("Floor ") and ", room " in title for title, _ in listed)
    assert "fights; where the chance was lowest or changed most, lowest first (every one is listed after" in text(
        section
    )
    assert "What turned it:" in text(section)
    assert same_as_the_odds_command(section) >= 2 * len(listed) - 1


# ---- The Adventure in the Dungeon: guided play, stopped in the middle ---------------------------

HOUSE = {
    "source": "house",
    "rangeress.hits": 7, "rangeress.to_hit": 6, "rangeress.be_hit": 9,
    "fighter.hits": 8, "fighter.to_hit": 5, "fighter.be_hit": 10,
    "wizard.hits": 5, "wizard.to_hit": 9, "wizard.be_hit": 8,
    "area12.kind": "empty",
}  # fmt: skip


def dungeon_answer(request: dict) -> str:
    if request["type"] == "roll":
        return "roll"
    values = [o["value"] for o in request["options"]]
    if request["key"] == "area.enter":  # areas whose whole fight counts fast, exactly (for the odds command)
        return "=" + next((v for v in ("4", "2", "11", "8", "5") if v in values), values[0])
    return "=" + next((v for v in ("strike", "fight", "flee") if v in values), values[0])


def test_the_adventure_in_the_dungeon_in_play(tmp_path):
    ok("gamedata", "talisman", *(f"{k}={v}" for k, v in HOUSE.items()))
    ok("new", "talisman", "--seed", "12")
    step = js("next")
    for _ in range(60):
        step = js("next", dungeon_answer(step["request"]))
    assert not step["done"]
    section = exported(tmp_path)
    listed = fights(section)
    areas = [title for title, _ in listed if title.startswith("Area ")]
    heroes = [title for title, _ in listed if not title.startswith("Area ")]
    assert areas and all(": the " in title for title in areas)
    # Each hero standing in a fight is followed too (his chance to fall, as the odds command lists it).
    assert heroes and all(" against the " in title and "(area " in title for title in heroes)
    assert same_as_the_odds_command(section) >= len(listed)


# ---- The Haunted Tower: one-shot commands with the dice the players rolled ----------------------

HEROES = {
    "Aria": ["--speed", "6", "--hp", "6", "--attack", "3", "--ac", "5", "--ability", "fighter"],
    "Bram": ["--speed", "5", "--hp", "5", "--attack", "2", "--ac", "4", "--ability", "cleric", "--hits", "magic"],
    "Cael": ["--speed", "7", "--hp", "4", "--attack", "2", "--ac", "3", "--ability", "elf"],
}


def test_the_haunted_tower(tmp_path):
    ok("new", "haunted-tower", "--seed", "5")
    for name, card in HEROES.items():
        ok("haunted", "hero", name, *card)
    ok("haunted", "first", "--got", "9,2,3")
    # Aria kills a ghoul over two rounds; a hit on her costs 1 HP (its 1d10: no bite).
    ok("haunted", "fight", "Aria", "ghoul")
    ok("haunted", "init", "--got", "5,2")
    ok("haunted", "attack", "--got", "6")
    ok("haunted", "attack", "--got", "6", "--table", "2")
    ok("haunted", "init", "--got", "6,1")
    ok("haunted", "attack", "--got", "3")
    # Cael meets giant rats and falls.
    ok("haunted", "fight", "Cael", "giant rats")
    for _ in range(4):
        ok("haunted", "init", "--got", "1,6")
        ok("haunted", "attack", "--got", "6", "--table", "2")
        if js("haunted", "health")["fight"] is None:
            break
        ok("haunted", "attack", "--got", "1")
    section = exported(tmp_path)
    listed = fights(section)
    # Two fights: both shown, the lowest chance to win first (Cael's, lost).
    assert listed[0] == ("Fight 2: Cael vs the Giant Rats (blue chit)", "lost")
    assert listed[1] == ("Fight 1: Aria vs the Ghoul (blue chit)", "won")
    assert lowest_first(section)
    assert "What turned it:" in text(section)
    assert same_as_the_odds_command(section) >= 4


# ---- The Dragon's Den: one-shot commands, chits and dice typed ----------------------------------


def test_the_dragons_den(tmp_path):
    ok("new", "dragons-den", "--seed", "7")
    ok("dragon", "setup", "sam", "talina", "--chits", "physical", "--dragon", "9", "--discard", "1", "--discard", "2")
    ok("mode", "physical")
    ok("dragon", "reveal", "4", "--chit", "m19", "--chit", "t7")  # the Lizard Man Chieftain, health 8
    chief = "lizard-man-chieftain"
    for got in (None, "3", "3", None):  # each round: Sam, Talina, then the chieftain strikes Sam (or not)
        ok("dragon", "attack", chief)  # a hero at health 6 or more hits without a roll
        ok("dragon", "end-turn")
        ok("dragon", "attack", chief)
        if js("dragon", "health")["figures"][-1]["status"] == "slain":
            break
        ok("dragon", "end-turn")
        if got is not None:
            ok("dragon", "attack", chief, "sam", "--got", got)
        ok("dragon", "end-turn")
    section = exported(tmp_path)
    listed = fights(section)
    assert listed == [  # the chieftain is slain: both heroes' fights with it are won
        ("Sam Barleyman against the Lizard Man Chieftain", "won"),
        ("Talina against the Lizard Man Chieftain", "won"),
    ]
    assert same_as_the_odds_command(section) >= len(listed)


# ---- The Dark Tower: the whole session of tests/dark_tower_session.py ---------------------------


def test_the_dark_tower(tmp_path):
    from tests.dark_tower_session import play

    play("en", tmp_path)
    section = exported(tmp_path)
    listed = fights(section)
    assert sorted(listed) == [
        ("Turn 2 · Bo: fight Skeleton (5)", "won"),
        ("Turn 3 · Аня: fight Шаман (3) + Тролль (9)", "won"),
    ]
    assert lowest_first(section)
    assert same_as_the_odds_command(section) >= 2


def test_a_dark_tower_tie_is_a_tie_not_a_loss(tmp_path):
    """Equal totals: the monster is not beaten and deals no damage; the page's badge says a tie."""
    from tests.dark_tower_session import run_steps, steps

    commands = steps("en")
    upto = commands.index(["dark", "draw", "monster", "Skeleton"]) + 1
    done = run_steps([*commands[:upto], ["dark", "fight", "--got", "1,1,h,h"]], tmp_path)
    assert "[exit 0]" in done[-1][1] and "ties 5" in done[-1][1], done[-1][1]
    page = Path(tmp_path / "logs" / "page.html")
    run_steps([["export", str(page), "--format", "html"]], tmp_path)
    doc = html5lib.HTMLParser(namespaceHTMLElements=True).parse(page.read_text(encoding="utf-8"))
    listed = fights(doc.find(f".//{XHTML}main"))
    assert ("Turn 2 · Bo: fight Skeleton (5)", "a tie") in listed, listed


def test_a_table_pack_s_fights_and_checks(tmp_path):
    """A freeform session with a table pack: its fights (read before each round) and its checks are big
    moments, each chance the one its odds command gives; its trackers are charted by their names."""
    keep = str(Path(__file__).resolve().parent.parent / "examples" / "tables" / "ashen-keep.toml")
    ok("new", "freeform", "--name", "keep", "--seed", "4", "--tables", keep, "--got", "3/3,3/4")
    ok("fight", "start", "sword", "--foe", "ghoul")
    for _ in range(30):
        if js("status")["state"]["trackers"]["fight"] is None:
            break
        ok("fight", "round")
    ok("roll", "check", "luck")
    ok("roll", "check", "skill")
    section = exported(tmp_path)
    listed = fights(section)
    assert ("Test your LUCK", "passed") in listed or ("Test your LUCK", "failed") in listed
    assert any(title.startswith("Sword against claw: you against Cinder ghoul") for title, _ in listed), listed
    assert lowest_first(section)
    assert same_as_the_odds_command(section) >= 3
    titles = {"".join(t.itertext()) for t in section.iter("{http://www.w3.org/2000/svg}title")}
    assert "STAMINA over the session" in titles and any("LUCK" in t for t in titles), titles


def test_a_dragon_s_den_hero_under_a_greater_breath_is_a_chance_to_fall(tmp_path):
    """Before a hero's save against a greater breath at health 2 or less: his chance to stand is the
    save's (a save takes 1, a failed one 2), as ``companion odds 1d6<=N`` gives it; a fall ends it."""
    from companion.dice.expr import parse
    from companion.engine.requests import RollRequest
    from companion.export.moments import probe_for
    from companion.games.dragons_den.model import SLAIN
    from tests.helpers import open_session

    ok("new", "dragons-den", "--name", "den", "--seed", "7")
    ok("dragon", "setup", "sam", "talina", "--chits", "physical", "--dragon", "2", "--discard", "1", "--discard", "3")
    session = open_session(Path(os.environ["COMPANION_HOME"]), "den")
    den = session.state.game
    probe = probe_for("dragons-den")
    request = RollRequest("dd.save.sam", parse("1d6<=2"), "Sam Barleyman's save against the acid breath")
    assert probe.before(session.state, RollRequest("dd.save.sam", parse("1d6<=6"), ""), None) is None  # unhurt
    den.figure("sam").health = 2
    reading = probe.before(session.state, request, None)
    assert reading is not None and reading.of == "stand" and reading.chance == Fraction(1, 3)
    said = js(*shlex.split(reading.position.command())[1:])
    assert Fraction(said["success"]) == reading.chance  # companion odds 1d6<=2: the chance to stand
    assert probe.after(reading, session.state, None) is None
    den.figure("sam").status = SLAIN
    assert probe.result(reading, session.state) == "lost"
    den.figure("sam").health = 1
    den.figure("sam").status = "in"
    assert probe.before(session.state, request, None).chance == 0, "at health 1 he falls, save or not"
