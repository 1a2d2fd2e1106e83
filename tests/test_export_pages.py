"""Every game's page and Lonelog from a real session played through ``companion next`` (issue 34).

Each game is played as scripts/play_sessions.py plays it (the cards and heroes typed first where the
game asks for them, then every step answered as ``next`` shows it; a table pack's fights round by
round, with its checks between them), then exported:

- the page shows big moments with exact odds, lowest first, each read where the game shows its odds,
  and reads at 390 and 1280 CSS px in headless Chromium where it is installed (tests/test_export_phone.py's
  measures); it is under 400 KB;
- its Lonelog reads back with tests/lonelog_reader.py: every roll's line within 80 columns (its detail
  on the next line), one arrow, rooms in the dungeon add-on's words, the foes of every combat tagged
  ``[F:]``, the heroes ``[PC:]``, and no ``@`` action in a game's setup.
"""

from __future__ import annotations

import functools
import re
from fractions import Fraction
from pathlib import Path

import html5lib
import pytest

from tests.export_support import ROOT
from tests.lonelog_reader import read
from tests.test_export_browser import CHROMIUM
from tests.test_export_phone import laid_out, reads

pytestmark = pytest.mark.slow

XHTML = "{http://www.w3.org/1999/xhtml}"
#: Steps each game is played for (enough for its fights; the Dark Tower and a pack session end sooner).
STEPS = {"inverted-tower": 70, "talisman": 90, "haunted-tower": 90, "dragons-den": 160, "dark-tower": 60}
GAMES = ("inverted-tower", "talisman", "haunted-tower", "dragons-den", "dark-tower", "freeform")
#: The dungeon add-on's room statuses.
STATUSES = {"unexplored", "active", "cleared", "cleared, looted", "looted", "locked", "trapped", "safe", "collapsed"}


@functools.cache
def _script():
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("play_sessions", ROOT / "scripts" / "play_sessions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["play_sessions"] = module
    spec.loader.exec_module(module)
    return module


def played(game: str, root: Path) -> dict[str, Path]:
    """``game`` played under ``root`` as scripts/play_sessions.py plays it, and its exports by format."""
    script = _script()
    script.play(game, root, steps=STEPS.get(game))
    return script.export(root)


def _moments(page: str) -> list[tuple[str, Fraction]]:
    doc = html5lib.HTMLParser(namespaceHTMLElements=True).parse(page)
    section = doc.find(f".//{XHTML}section[@id='moments']")
    out = []
    for li in section.iter(f"{XHTML}li"):
        of = li.get("data-of")
        if of is None:
            continue
        data = next(li.iter(f"{XHTML}data"))
        x = Fraction(data.get("value"))
        out.append((of, 1 - x if of == "stand" else x))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_a_real_session_s_page_and_lonelog(tmp_path, game):
    """One game played once: its page (big moments, size, both widths) and its Lonelog."""
    exports = played(game, tmp_path / game)
    page = exports["html"].read_text(encoding="utf-8")
    the_page_shows_big_moments_with_exact_odds(game, page)
    if CHROMIUM is not None:
        for width in (390, 1280):
            m, png = laid_out(tmp_path, page, width, game)
            reads(m, png, width, texts=10)
    the_lonelog_is_lonelog_to_the_letter(game, exports["lonelog"].read_text(encoding="utf-8"))


def the_page_shows_big_moments_with_exact_odds(game: str, page: str) -> None:
    assert len(page.encode()) < 400_000, f"{game}'s page is {len(page.encode()):,} bytes"
    moments = _moments(page)
    assert moments, f"{game}: no big moment on the page"
    lows = [x for _, x in moments]
    assert lows == sorted(lows), f"{game}: the big moments lowest first: {lows}"
    if game == "freeform":  # a pack's fights and checks
        assert {"win", "pass"} <= {of for of, _ in moments}
        assert "STAMINA over the session" in page and "LUCK" in page and "HP over" not in page
    if game == "talisman":  # each hero in each fight: his chance to fall
        assert 'data-of="stand"' in page


def the_lonelog_is_lonelog_to_the_letter(game: str, text: str) -> None:
    log = read(text)
    body = text.split("\n---\n", 1)[1]
    lines = body.splitlines()
    for n, line in enumerate(lines):
        if line.startswith(("d: ", "tbl: ")):
            assert len(line) <= 80, f"a roll's line past 80 columns: {line!r}"
            if not re.search(r"\((virtual, seed \d+|physical|amended)\)$", line):
                assert lines[n + 1].startswith("(note: "), f"the detail on the next line: {line!r}"
        outside = re.sub(r"\[[^\]]*\]", "", line)
        assert not any(a in outside for a in "→⟶"), f"one arrow: {line!r}"
    assert log.rolls or log.tables
    assert {status for status, _ in log.dungeon_status.values()} <= STATUSES
    if game in ("inverted-tower", "dark-tower", "haunted-tower", "talisman"):
        assert log.combats and all(c.foes for c in log.combats if c.rolls), f"{game}: every combat's foes [F:]"
    if game in ("inverted-tower", "dark-tower"):
        assert any(name for name, state in log.foes.items() if state == "dead"), "a foe slain: [F:...|dead]"
    if game in ("dragons-den", "dark-tower", "haunted-tower"):
        assert len(log.pcs) >= 2, f"{game}: every hero a [PC:]: {sorted(log.pcs)}"
    setup = body.split("\n### S1 ", 1)[0]
    if game == "dark-tower":
        assert "\n@ " not in setup and "[PC:Ann|" in setup and "[PC:Bo|" in setup, "the setup as one block"
