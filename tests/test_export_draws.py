"""Draws are not dice (issue 34): a chit drawn from a cup or a card from a deck is logged as a draw that
names what it drew, left out of the dice audit and the page's dice section, and listed on the page as
what was drawn; Lonelog writes it in the cards add-on's form (``d: draw=8 of 9 -> dragon chit 4``).

A Dragon's Den game is played through ``companion next`` with its chits drawn by companion, as a table
would, until rooms are revealed and countdown chits drawn."""

from __future__ import annotations

import json
import re
from pathlib import Path

import html5lib
from typer.testing import CliRunner

from companion.cli.app import app
from companion.dice.expr import parse
from tests.lonelog_reader import read

runner = CliRunner()
XHTML = "{http://www.w3.org/1999/xhtml}"


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result.stdout


def js(*args: str):
    return json.loads(ok(*args, "--json"))


def play_the_den(steps: int = 140) -> None:
    """A Dragon's Den of two heroes, chits drawn by companion: rooms entered one after another, every
    monster met attacked, turns ended; the dragon player's turns as the game asks."""
    ok("new", "dragons-den", "--name", "den", "--seed", "3")
    for answer in ("=2", "=7", "=done", "virtual"):
        ok("next", answer)
    rooms = iter(range(1, 21))
    for _ in range(steps):
        step = js("next")["pending"]
        if step is None:
            break
        if step["kind"] == "roll":
            ok("next", "roll")
            continue
        if step["kind"] == "number":
            ok("next", str(next(rooms, step["lo"])))
            continue
        values = [o["value"] for o in step.get("options", [])]
        wanted = [v for v in values if v.startswith("attack:")] or [
            v for v in ("hide", "reveal", "move", "end") if v in values
        ]
        ok("next", "=" + (wanted[0] if wanted else step.get("best") or values[0]))


def drawn_sizes(events: list[dict]) -> list[str]:
    """The 1dN of every draw from a cup in ``events`` (what a d39 of the audit would have been); a draw
    the export withholds (the face-down dragon's) has none."""
    return [
        e["expr"]
        for e in events
        if e.get("t") == "answer" and str(e.get("key", "")).startswith("dd.draw.") and "expr" in e
    ]


def test_a_den_s_draws_are_logged_audited_and_shown_as_draws(tmp_path):
    play_the_den()
    exported = js("export", str(tmp_path / "den.json"), "--format", "json")
    document = json.loads(Path(exported["file"]).read_text(encoding="utf-8"))
    events = document["events"]
    draws = drawn_sizes(events)
    assert len(draws) >= 10 and any(int(e[2:]) > 12 for e in draws), "rooms revealed: chits drawn from big cups"

    # The log: each draw says what it drew, where in the cup; no draw is a die's "natural" face.
    log = Path(js("export", str(tmp_path / "den.md"), "--format", "md")["file"]).read_text(encoding="utf-8")
    drew = [line for line in log.splitlines() if line.lstrip("- ").startswith("drew ")]
    assert drew and all(re.search(r"drew \*\*.+\*\* \(\d+ of \d+\) · virtual — draw a ", line) for line in drew)
    assert any("drew **monster chit" in line for line in drew) and any("drew **treasure chit" in line for line in drew)
    assert not any("natural" in line for line in drew)
    assert not re.search(r"`1d(1[3-9]|[2-4]\d)`", log), "no cup draw of 13 chits or more is a d: roll"

    # The audit: the dice are the dice rolled (the d6 and d10 of moves, attacks and saves), no draw.
    audit = js("dice", "audit", "--all")
    counted = sum(r["rolls"] for r in audit["dice"])
    rolled = sum(
        len(parse(e["expr"]).dice)
        for e in events
        if e.get("t") == "answer" and "expr" in e and not str(e.get("key", "")).startswith("dd.draw.")
    )
    assert counted == rolled and audit["draws"] == len(draws)
    assert {r["die"] for r in audit["dice"]} <= {"d6", "d10"}, audit["dice"]
    said = ok("dice", "audit", "--all")
    assert "d39" not in said and f"{len(draws)} draws from a cup or a deck left out" in " ".join(said.split())
    assert {r["die"] for r in document["dice_audit"]} <= {"d6", "d10"}

    # The page: no histogram of a cup; its draws listed as what they drew.
    page = Path(js("export", str(tmp_path / "den.html"), "--format", "html")["file"])
    doc = html5lib.HTMLParser(namespaceHTMLElements=True).parse(page.read_text(encoding="utf-8"))
    dice = doc.find(f".//{XHTML}section[@id='dice']")
    heads = ["".join(h.itertext()) for h in dice.iter(f"{XHTML}h3")]
    assert not any(re.fullmatch(r"d(1[3-9]|[2-4]\d)", h) for h in heads), heads
    listed = " ".join("".join(dd.itertext()) for dd in dice.iter(f"{XHTML}dd"))
    assert "monster chit" in listed and "treasure chit" in listed
    assert page.stat().st_size < 400_000

    # Lonelog: the cards add-on's draw, read back.
    text = ok("export", "-", "--format", "lonelog")
    lonelog = read(text)
    draws_read = [r for r in lonelog.rolls if r.startswith("d: draw=")]
    assert draws_read and all(re.match(r"d: draw=\d+ of \d+ -> \S", r) for r in draws_read)
    assert len(draws_read) == len(drew)


def test_a_draw_that_names_nothing_says_where_in_the_cup():
    from companion.log.markdown import roll_text

    line = {"expr": "1d9", "dice": "[8]", "total": 8, "outcome": "8", "source": "virtual", "draw": True}
    assert roll_text({**line, "why": "draw a countdown chit (9 in the cup)"}) == (
        "drew **8 of 9** · virtual — draw a countdown chit (9 in the cup)"
    )
    assert roll_text({**line, "drew": "dragon chit 4"}) == "drew **dragon chit 4** (8 of 9) · virtual"


def test_a_face_down_dragon_is_named_in_no_export_and_drawn_in_no_audit(tmp_path):
    """The dragon lies face down: rooms are revealed (chits drawn, logged as draws) and no export, the
    markdown log, the page, Lonelog or JSON, names it or the chits set aside; the audit counts no draw."""
    import os

    from companion.games.dragons_den.model import HIDDEN
    from tests.helpers import open_session

    ok("new", "dragons-den", "--name", "den", "--seed", "11")
    for answer in ("=3", "=5", "=done", "virtual"):
        ok("next", answer)
    rooms = iter(range(1, 21))
    for _ in range(40):  # the heroes' first turn: rooms revealed, no one near the lair
        step = js("next")["pending"]
        if step is None or (step.get("key") == "dd.menu" and "the dragon player" in step.get("text", "")):
            break
        if step["kind"] == "roll":
            ok("next", "roll")
        elif step["kind"] == "number":
            ok("next", str(next(rooms)))
        else:
            values = [o["value"] for o in step["options"]]
            if "reveal" in values and not step["text"].startswith("Round 1 · the dragon"):
                ok("next", "=reveal")
            elif "hide" in values:
                ok("next", "=hide")
            elif "end" in values:
                ok("next", "=end")
            else:
                break
    session = open_session(Path(os.environ["COMPANION_HOME"]), "den")
    den = session.state.game
    assert den.dragon is not None and den.dragon.status == HIDDEN, "the dragon is still face down"
    secret = den.dragon.name
    assert any(len(chits) == 2 for chits in den.rooms.values()), "rooms were revealed"
    texts = {}
    for fmt in ("md", "html", "lonelog", "json"):
        path = Path(js("export", str(tmp_path / f"den.{fmt}"), "--format", fmt)["file"])
        texts[fmt] = path.read_text(encoding="utf-8")
    for fmt, text in texts.items():
        assert secret not in text, f"the {fmt} export names the face-down {secret}"
    assert "drew **monster chit" in texts["md"] or "drew **treasure chit" in texts["md"]
    assert json.loads(texts["json"])["withheld"], "the JSON says what it withholds"
    assert "draw a dragon chit" not in texts["md"] + texts["html"] + texts["lonelog"], "the secret draws are not shown"
    audit = js("dice", "audit", "--all")
    assert {r["die"] for r in audit["dice"]} <= {"d6", "d10"} and audit["draws"] >= 2
    # the owner's own backup keeps it, and says so; only as one session's json
    backup = Path(js("export", str(tmp_path / "backup.json"), "--format", "json", "--reveal-secrets")["file"])
    kept = json.loads(backup.read_text(encoding="utf-8"))
    assert secret in backup.read_text(encoding="utf-8") and kept["revealed_secrets"] and not kept["withheld"]
    for args in (("--format", "html"), ("--format", "json", "--all")):
        refused = runner.invoke(app, ["export", str(tmp_path / "x"), *args, "--reveal-secrets"])
        assert refused.exit_code == 2 and "--reveal-secrets is for one session's --format json" in refused.stderr
