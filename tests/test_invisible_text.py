"""Bidirectional and zero-width characters are data too (#36 item 9), and ESC from a hand-edited save
never reaches a page raw (item 11).

U+202E (RIGHT-TO-LEFT OVERRIDE) reorders the text after it and U+200B (ZERO WIDTH SPACE) cannot be
seen: in a note they are kept as typed in the events and in the JSON (escaped), shown as their code at a
terminal (⟨U+202E⟩), and left out of the html and the served page; in a name (a tally's, an item's, a
hero's, a session's) they are refused, as is a blank name.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers import cli, cli_json, open_session

RLO, ZWSP = "\u202e", "\u200b"
NOTE = f"the {RLO}door{ZWSP} is open"


def _home() -> Path:
    return Path(os.environ["COMPANION_HOME"])


def test_a_note_keeps_them_as_typed_and_shows_them_as_their_code(tmp_path):
    assert cli("new", "freeform", "--name", "t").exit_code == 0
    noted = cli("note", NOTE)
    assert noted.exit_code == 0, noted.stderr
    assert open_session(_home(), "t").files.read_events()[-1]["text"] == NOTE  # the event: as typed
    for args in (["log"], ["status"], ["export", "-"], ["note", "plain"]):
        result = cli(*args)
        out = result.stdout + result.stderr
        assert RLO not in out and ZWSP not in out, (args, out)
    assert "the ⟨U+202E⟩door⟨U+200B⟩ is open" in cli("log").stdout
    raw = cli("export", "--format", "json", "-").stdout
    assert RLO not in raw and "\\u202e" in raw and "\\u200b" in raw  # escaped in the JSON text
    assert NOTE in json.dumps(json.loads(raw), ensure_ascii=False)  # the same data
    page = tmp_path / "t.html"
    assert cli("export", "--format", "html", str(page)).exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert RLO not in html and ZWSP not in html
    assert "the ⟨U+202E⟩door⟨U+200B⟩ is open" in html  # the log's words, as the log shows them


def test_the_served_page_leaves_them_out():
    from companion.serve import page
    from companion.serve.view import of_session

    assert cli("new", "freeform", "--name", "t").exit_code == 0
    assert cli("note", NOTE).exit_code == 0
    session = open_session(_home(), "t")
    view = of_session(session, 1, None, None)
    import dataclasses

    view = dataclasses.replace(view, log=(*view.log, NOTE))  # and were the raw text to reach it
    html = page.page(view, page.fragment(view, "token"))
    assert RLO not in html and ZWSP not in html
    assert "the ⟨U+202E⟩door⟨U+200B⟩ is open" in html and "the door is open" in html


@pytest.mark.parametrize(
    "args",
    [
        ["tally", "add", f"Orc{RLO}", "3"],
        ["tally", "add", f"Or{ZWSP}c", "3"],
        ["tally", "hit", f"Orc{RLO}"],
        ["tally", "add", "", "3"],
        ["tally", "add", "   ", "3"],
        ["item", f"rope{ZWSP}", "+1"],
        ["item", " ", "+1"],
        ["new", "freeform", "--name", f"evil{RLO}txt.md"],
        ["new", "freeform", "--hero", f"Ar{ZWSP}ia"],
        ["sessions", "rename", "t", f"t{RLO}2"],
    ],
)
def test_a_name_with_them_or_a_blank_name_is_refused_in_one_line(args):
    assert cli("new", "freeform", "--name", "t").exit_code == 0
    result = cli(*args)
    assert result.exit_code == 2, (args, result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1 and RLO not in result.stderr and ZWSP not in result.stderr
    assert "a name" in result.stderr, result.stderr
    assert cli_json("status")["events"] == 0
    assert [r["session"] for r in cli_json("sessions")] == ["t"]


def test_esc_and_bidi_from_a_hand_edited_save_never_reach_the_page_raw(tmp_path):
    assert cli("new", "freeform", "--name", "t", "--hero", "Aria").exit_code == 0
    assert cli("note", "a note").exit_code == 0
    meta = _home() / "sessions" / "t" / "session.json"
    doc = json.loads(meta.read_text())
    doc["meta"]["1"]["meta"]["hero"] = f"Ar\x1b[31mia{RLO}"
    doc["meta"]["1"]["meta"]["name"] = f"t\x1b]0;owned\x07{ZWSP}"
    meta.write_text(json.dumps(doc))
    page = tmp_path / "t.html"
    result = cli("export", "--format", "html", str(page))
    assert result.exit_code == 0, result.stderr
    html = page.read_text(encoding="utf-8")
    assert not any(c in html for c in ("\x1b", "\x07", RLO, ZWSP))
    assert "Ar␛[31mia" in html
    from html.parser import HTMLParser

    HTMLParser().feed(html)  # parses
