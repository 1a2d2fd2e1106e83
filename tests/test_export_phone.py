"""The html export on a phone (390 CSS px) and on a wide screen (1280 px), in headless Chromium.

Headless Chromium opens no window under 500 px, so the page is laid out in an iframe of the width
under test (``srcdoc``: the same origin as the small harness page around it, which measures it once
it has loaded and writes what it found into the harness, read back with ``--dump-dom``):

- the page never scrolls sideways: its document is no wider than the frame (a wide table scrolls in
  its own box);
- every chart's text as laid out on the screen (its font size times the SVG's scale) is at least
  10 CSS px;
- the tables sit in their scrolling boxes, and the print stylesheet is still there.

A screenshot of each width is taken too; after a failure it is kept in the test's folder (the
assertion message names it) to look at.

Skipped, with the reason, where Chromium is absent; ``.ci/run`` installs Debian's ``chromium``.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from tests.export_support import ROOT, examples_played_once, replayed, source  # noqa: F401 (a fixture)
from tests.test_export_browser import CHROMIUM, chromium

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="Chromium is not installed (Debian: apt-get install chromium; .ci/run installs it as root)",
    ),
]

#: What the harness measures in the framed page, once it has loaded.
MEASURE = r"""
const frame = document.getElementById("page");
frame.addEventListener("load", () => {
  const d = frame.contentDocument, w = frame.contentWindow;
  const texts = [];
  for (const t of d.querySelectorAll("svg text")) {
    if (!t.textContent.trim() || !t.getBoundingClientRect().width) continue;  // empty, or not shown
    const m = t.getScreenCTM();
    texts.push([t.textContent.trim(), parseFloat(w.getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b)]);
  }
  const tables = [...d.querySelectorAll("table")].map(t => {
    const box = t.parentElement, cue = box.nextElementSibling;
    const said = !!cue && cue.classList.contains("cue") && w.getComputedStyle(cue).display !== "none";
    return [box.className.split(" ")[0], box.clientWidth, t.scrollWidth, w.getComputedStyle(box).overflowX, said,
            Math.round(t.getBoundingClientRect().height / Math.max(1, t.rows.length))];
  });
  const edge = d.documentElement.clientWidth + 0.5;
  const wide = [...d.body.querySelectorAll("*")]
    .filter(e => e.getBoundingClientRect().right > edge && !e.closest(".scroll")).slice(0, 10)
    .map(e => e.tagName + "." + e.className + ": " + (e.textContent || "").slice(0, 60));
  const broken = [];  // a word of a table cell or of the header split across two lines
  for (const cell of d.querySelectorAll("td, th, dd, header .sub")) {
    const walk = d.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const m of node.data.matchAll(/\S+/g)) {
        const r = d.createRange();
        r.setStart(node, m.index);
        r.setEnd(node, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].filter(b => b.width).map(b => Math.round(b.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  const print = [...d.styleSheets].some(s => [...s.cssRules].some(r => r.media && r.media.mediaText === "print"));
  document.getElementById("out").textContent = JSON.stringify({
    client: d.documentElement.clientWidth, scroll: d.documentElement.scrollWidth, texts, tables, wide, print,
    broken
  });
});
"""


def harness(page: str, width: int, height: int) -> str:
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><style>html, body { margin: 0; background: #ddd; }'
        " iframe { border: 0; display: block; background: #fff; }</style></head><body>"
        f'<iframe id="page" width="{width}" height="{height}" srcdoc="{html.escape(page, quote=True)}"></iframe>'
        f'<pre id="out"></pre><script>{MEASURE}</script></body></html>'
    )


def laid_out(tmp_path: Path, page: str, width: int, name: str) -> tuple[dict, Path]:
    """The page framed at ``width`` CSS px: what the harness measured, and a screenshot of its top."""
    height = 2400
    frame = tmp_path / f"{name}-{width}.html"
    frame.write_text(harness(page, width, height), encoding="utf-8")
    proc = chromium(tmp_path, "--virtual-time-budget=10000", "--dump-dom", url=frame.as_uri())
    found = re.search(r'<pre id="out">(.*?)</pre>', proc.stdout, re.S)
    assert found and found.group(1), f"the harness measured nothing: {proc.stderr[-1500:]}"
    png = tmp_path / f"{name}-{width}.png"
    window = f"--window-size={max(width, 500) + 20},{height}"
    chromium(tmp_path, "--virtual-time-budget=10000", window, f"--screenshot={png}", url=frame.as_uri())
    return json.loads(html.unescape(found.group(1))), png


PAGES = {
    "inverted-tower": lambda: (ROOT / "logs" / "inverted-tower-example.html").read_text(encoding="utf-8"),
    "talisman": lambda: _page("talisman-example.md"),
}


def _page(name: str) -> str:
    from companion.export.html import page

    return page(source(name), replayed(name, odds=True))


@pytest.mark.parametrize("game", sorted(PAGES))
@pytest.mark.parametrize("width", [390, 1280])
def test_the_page_reads_at_the_width(tmp_path, game, width):
    m, png = laid_out(tmp_path, PAGES[game](), width, game)
    reads(m, png, width)
    if width == 390 and game == "inverted-tower":
        assert all(inner <= box + 1 for _, box, inner, *_ in m["tables"]), "the d6 table fits a phone"


def reads(m: dict, png: Path, width: int, texts: int = 30) -> None:
    """What the harness measured of a page at ``width``: it reads there (tests/test_export_pages.py too)."""
    where = f"(screenshot: {png})"
    assert png.exists(), "a screenshot to look at"
    assert m["scroll"] <= m["client"], f"the page scrolls sideways: {m['scroll']} > {m['client']} px {where}"
    assert not m["wide"], f"wider than the screen outside a scrolling box: {m['wide']} {where}"
    assert len(m["texts"]) >= texts, f"the charts' text is shown ({len(m['texts'])} pieces) {where}"
    small = [(t, round(size, 1)) for t, size in m["texts"] if size < 10]
    assert not small, f"chart text under 10 CSS px at {width} px: {small[:8]} {where}"
    assert m["tables"] and all(box == "scroll" and overflow == "auto" for box, _, _, overflow, *_ in m["tables"]), m[
        "tables"
    ]
    # Each table fits the screen, or scrolls in its box with the cue said beside it on a phone; no row is
    # taller than two lines of text.
    cut = [(box, inner) for _, box, inner, _, said, _ in m["tables"] if inner > box + 1 and not (said or width > 799)]
    assert not cut, f"a table wider than the screen with no sign that it scrolls: {cut} {where}"
    assert all(row <= 60 for *_, row in m["tables"]), f"rows too tall: {m['tables']} {where}"
    assert m["print"], "the print stylesheet is kept"
    assert not m["broken"], f"words broken across lines: {m['broken'][:10]} {where}"


def test_the_index_reads_on_a_phone(tmp_path):
    """``export --all``'s index at 390 px: no word (a date above all) broken across lines."""
    from companion.export.html import index_page

    pages = [(f"{n}.html", source(n)) for n in ("inverted-tower-example.md", "talisman-example.md")]
    m, png = laid_out(tmp_path, index_page(pages), 390, "index")
    assert m["scroll"] <= m["client"] and not m["wide"], f"the page scrolls sideways (screenshot: {png})"
    assert not m["broken"], f"words broken across lines: {m['broken'][:10]} (screenshot: {png})"
    assert m["tables"] and all(box == "scroll" for box, *_ in m["tables"])
