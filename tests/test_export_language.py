"""The page in the game's language (#23): a Russian session's page is Russian around its Russian log.

A whole Тёмная Башня session is played through the commands (tests/dark_tower_session.py), then
``companion export --format html`` (and ``--all``) writes it: the page says ``lang="ru"``, and a reader
meets no Latin word on it outside the exceptions of tests/russian_words.py (the product's name, dice
notation, what the players typed), no number written with a decimal point, and no chart of XP in a
game that has none. The English session's page is English, with the same charts titled by what they
hold. The Russian page is laid out in headless Chromium at 390 and 1280 px too.
"""

from __future__ import annotations

from pathlib import Path

import html5lib
import pytest

from companion import __version__
from tests.dark_tower_session import play, run_steps
from tests.russian_words import decimal_points, latin_words

#: pygal's own data in the SVG (a point's coordinates, for its tooltips), not words anyone reads.
COORDINATES = (["x"], ["y"])


def shown_text(page: str) -> tuple[str, str]:
    """The page's ``lang`` and every piece of text a reader meets (titles and labels too)."""
    doc = html5lib.parse(page, namespaceHTMLElements=False)
    pieces: list[str] = []

    def walk(el) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        hidden = tag.endswith(("style", "script")) or (
            tag.endswith("desc") and (el.get("class") or "").split()[:1] in COORDINATES
        )
        if not hidden:
            pieces.append(el.text or "")
            pieces.extend(el.get(a) or "" for a in ("title", "aria-label", "alt"))
            for child in el:
                walk(child)
        pieces.append(el.tail or "")

    walk(doc)
    return doc.get("lang"), "\n".join(p for p in pieces if p.strip())


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    """Each language's session played and exported as html: (its home, what export printed)."""
    out = {}
    for lang in ("ru", "en"):
        home = tmp_path_factory.mktemp(f"dark-{lang}")
        play(lang, home)
        [(_, printed)] = run_steps([["export", "--format", "html"]], home)
        out[lang] = (home, printed)
    return out


def page_of(home: Path) -> str:
    return next((home / "logs").glob("*.html")).read_text(encoding="utf-8")


def test_a_russian_session_gets_a_russian_page(played):
    home, printed = played["ru"]
    assert printed.splitlines()[:2] == ["[exit 0]", "Страница записана: HOME/logs/dark-tower-1.html"]
    lang, text = shown_text(page_of(home))
    assert lang == "ru"
    for heading in ("Ход игры", "Главные моменты", "Кубики", "Журнал игры", "Тёмная Башня: dark-tower-1"):
        assert heading in text
    assert latin_words(text) == [], "every word around the log is Russian"
    assert decimal_points(text.replace(__version__, "")) == [], "numbers as Russian writes them (0,01; 72,9 %)"
    assert "Уровень" in text and "Опыт" not in text, "the Dark Tower has levels and no XP: no XP chart"
    assert "2 боя" in text and "записано 36" in text, "numbers and their nouns in the right form"


def test_an_english_session_gets_an_english_page_titled_by_what_it_holds(played):
    home, printed = played["en"]
    assert printed.splitlines()[1] == "Page written to HOME/logs/dark-tower-1.html"
    lang, text = shown_text(page_of(home))
    assert lang == "en"
    assert "The big moments" in text and "Level" in text
    assert "XP and level" not in text and "Experience" not in text, "no XP in a game without XP"


def test_the_index_is_in_the_language_of_the_command(played, tmp_path):
    home, _ = played["ru"]
    [(_, printed)] = run_steps([["export", "--all", "--format", "html", str(tmp_path / "all")]], home)
    assert printed.startswith("[exit 0]") and latin_words(printed) == [], printed
    lang, text = shown_text((tmp_path / "all" / "index.html").read_text(encoding="utf-8"))
    assert lang == "ru" and "Все сессии" in text and latin_words(text) == []


@pytest.mark.slow
@pytest.mark.parametrize("width", [390, 1280])
def test_the_russian_page_reads_at_the_width(played, tmp_path, width):
    from tests.test_export_browser import CHROMIUM

    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium)")
    from tests.test_export_phone import laid_out

    m, png = laid_out(tmp_path, page_of(played["ru"][0]), width, "dark-tower-ru")
    where = f"(screenshot: {png})"
    assert m["scroll"] <= m["client"] and not m["wide"], f"the page scrolls sideways {where}"
    assert len(m["texts"]) >= 30, f"the charts' text is shown {where}"
    small = [(t, round(size, 1)) for t, size in m["texts"] if size < 10]
    assert not small, f"chart text under 10 CSS px: {small[:8]} {where}"
    assert not m["broken"], f"words broken across lines: {m['broken'][:10]} {where}"
