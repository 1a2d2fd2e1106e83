"""A whole Тёмная Башня session through the command line: in English word for word as before the
translation, and in Russian with no English left (see tests/dark_tower_session.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.dark_tower_session import transcript

DATA = Path(__file__).parent / "data"


@pytest.mark.slow
def test_the_english_session_is_word_for_word_what_it_was(tmp_path):
    """tests/data/dark_tower_en.txt was captured from main before the catalogues (the same script)."""
    expected = (DATA / "dark_tower_en.txt").read_text(encoding="utf-8")
    got = transcript("en", tmp_path)
    assert got.splitlines() == expected.splitlines()
