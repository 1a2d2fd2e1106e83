"""The example html export committed in logs/ is what its seeded game makes, byte for byte."""

from __future__ import annotations

import html5lib

from tests.export_support import ROOT, fetched_resources, script


def test_committed_example_page_is_regenerated_exactly():
    s = script()
    for file, session in s.PAGES.items():
        committed = ROOT / "logs" / file
        assert committed.exists(), f"logs/{file} is missing: run python scripts/make_example_exports.py"
        made = s.page_text(s.SOURCES[session]())
        assert made == committed.read_text(encoding="utf-8"), (
            f"logs/{file} differs from what its seeded example makes: run python scripts/make_example_exports.py"
        )


def test_committed_example_page_is_a_whole_offline_page():
    text = (ROOT / "logs" / "inverted-tower-example.html").read_text(encoding="utf-8")
    doc = html5lib.parse(text)
    assert fetched_resources(doc) == []
    assert text.count("<svg") >= 3 and "<script" not in text
