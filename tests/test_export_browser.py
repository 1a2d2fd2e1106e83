"""A real browser opens the html export: headless Chromium renders it to a PNG (JavaScript off) and
prints it to a PDF, and the charts are there and the pages are A4.

Skipped, with the reason, where Chromium is absent; ``.ci/run`` installs Debian's ``chromium``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.export_support import ROOT

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHROMIUM = next((path for name in BROWSERS if (path := shutil.which(name))), None)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="Chromium is not installed (Debian: apt-get install chromium; .ci/run installs it as root)",
    ),
]
PAGE = ROOT / "logs" / "inverted-tower-example.html"
WIDTH, HEIGHT = 1000, 2400
#: A4 in PostScript points, as a PDF's MediaBox gives it.
A4 = (595.28, 841.89)


def chromium(tmp_path: Path, *args: str, url: str | None = None) -> subprocess.CompletedProcess:
    """Headless Chromium on ``url`` (default: the example page) with ``args``, in a profile of its own."""
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",  # as root (CI) Chromium refuses to start with its sandbox
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'profile'}",
        *args,
        url or PAGE.as_uri(),
    ]
    env = {**os.environ, "HOME": str(tmp_path)}
    # Chromium starts in a few seconds; a loaded machine gets far more than ten times that.
    return subprocess.run(command, capture_output=True, text=True, timeout=240, env=env, stdin=subprocess.DEVNULL)


def _blend(colour: str, opacity: float) -> tuple[int, int, int]:
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return tuple(round(opacity * c + (1 - opacity) * 255) for c in rgb)  # type: ignore[return-value]


def _count(image, colour: tuple[int, int, int], box: tuple[int, int, int, int], tolerance: int = 14) -> int:
    region = image.crop(box)
    return sum(
        n
        for n, px in region.getcolors(region.width * region.height)
        if all(abs(a - b) <= tolerance for a, b in zip(px, colour, strict=True))
    )


def test_the_page_renders_its_charts_with_javascript_off(tmp_path):
    from PIL import Image

    from companion.export.charts import FAIR, FIGHT, PALETTE, SOURCE_COLOURS

    png = tmp_path / "page.png"
    proc = chromium(
        tmp_path, f"--window-size={WIDTH},{HEIGHT}", "--blink-settings=javascriptEnabled=false", f"--screenshot={png}"
    )
    assert png.exists(), proc.stderr[-2000:]
    image = Image.open(png).convert("RGB")
    assert image.size == (WIDTH, HEIGHT)
    top = (0, 0, WIDTH, 1100)  # the header, the HP chart and the XP chart
    fights = _count(image, _blend(FIGHT, 0.55), top)
    assert fights > 20_000, f"the fights' shading is drawn ({fights} pixels)"
    hp_line = _count(image, _blend(PALETTE[0], 0.55), top, tolerance=30)
    assert hp_line > 1_000, f"the HP line is drawn ({hp_line} pixels)"
    bars = (0, 1100, WIDTH, HEIGHT)  # the dice histogram below
    virtual = _count(image, _blend(SOURCE_COLOURS["virtual"], 0.9), bars)
    fair = _count(image, _blend(FAIR, 0.9), bars)
    assert virtual > 20_000 and fair > 20_000, f"the dice histogram's bars are drawn ({virtual}, {fair} pixels)"


def test_the_page_prints_on_a4(tmp_path):
    pdf = tmp_path / "page.pdf"
    proc = chromium(tmp_path, "--no-pdf-header-footer", f"--print-to-pdf={pdf}")
    assert pdf.exists(), proc.stderr[-2000:]
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-")
    boxes = [tuple(float(x) for x in m) for m in re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)]
    pages = len(re.findall(rb"/Type\s*/Page\b", data))
    assert boxes and pages >= 3, f"{pages} pages, boxes {boxes[:3]}"
    for width, height in boxes:
        assert abs(width - A4[0]) < 2 and abs(height - A4[1]) < 2, f"not A4: {width} x {height} points"
    # The charts are vector drawings in the PDF: their SVG paths make it far larger than text alone.
    assert len(data) > 150_000, f"a {len(data)}-byte PDF has no room for the charts"
