"""The page's timeline (issue 39): the last actions in words, a tap on one offers "back to here" (a
POST like every tap: the token, the version the page showed), and redo; what they take back is said
on the page and in ``companion history``. A gamebook's branch shows on the page's log."""

from __future__ import annotations

import html
import json
import re

import pytest

from tests.serve_support import companion, serve


def _new(home, *args):
    done = companion(home, "new", *args)
    assert done.returncode == 0, done.stderr


def run(home, *args):
    done = companion(home, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def book(tmp_path):
    home = tmp_path / "home"
    _new(home, "freeform", "--name", "book", "--seed", "5")
    for args in (("section", "1"), ("roll", "2d6", "--why", "the gate"), ("section", "52"), ("section", "7")):
        run(home, *args)
    run(home, "section", "back", "2")
    return home


def words(part: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", part)).split())


def test_back_to_here_takes_back_what_came_after_in_one_tap_and_redo_brings_it_back(book):
    served = serve(book)
    try:
        _status, _h, body = served.request("GET", "/part")
        part = json.loads(body)
        text = words(part["html"])
        assert "The timeline" in text and "#2 the gate: 2d6" in text and "#5 back to §1 (2 sections)" in text
        assert "tried: §52 → §7, went back" in text  # the branch, on the page's log
        assert 'action="back"' in part["html"] and 'name="to" value="2"' in part["html"]
        assert "Back to here: take back the 3 actions after it" in text

        stale = served.post("/back", to="2", v=str(part["version"] - 1))
        assert stale["status"] == 409 and not stale["ok"]
        assert served.request("POST", "/back", form={"to": "2", "v": str(part["version"])}, token=False)[0] == 403
        assert served.post("/back", to="99", v=str(part["version"]))["status"] == 409
        assert served.post("/back", to="5", v=str(part["version"]))["status"] == 409  # the last: nothing after it

        got = served.post("/back", to="2", v=str(part["version"]))
        assert got["ok"], got
        text = words(got["html"])
        assert "#3" not in text.split("The timeline", 1)[1]
        assert "Redo: section §52" in text and "3 taken back in all" in text
        again = served.post("/redo", v=str(got["version"]))
        assert again["ok"] and "#3 section §52" in words(again["html"])
    finally:
        served.stop()
    data = json.loads(run(book, "history", "--json"))
    assert [a["n"] for a in data["actions"]] == [1, 2, 3]
    assert [a["n"] for a in data["undone"][0]["actions"]] == [4, 5] and data["undone"][0]["redo"] is True
