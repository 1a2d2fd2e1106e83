"""Bounds on every number a player types (#36 item 12), and charts that survive any stored value.

``hp =5 --max 1000000000000000`` was taken, and the page's chart then failed; ``xp +999999999`` said it
was "not a change to XP". Every integer a command takes has a maximum beyond any game's need (its own,
or companion.cli.bounds.MOST), refused with its range; a change typed as text too.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from companion.cli.bounds import MOST
from tests.helpers import cli, cli_json


@pytest.fixture(autouse=True)
def session():
    assert cli("new", "freeform", "--name", "f", "--seed", "1").exit_code == 0


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["hp", "=5", "--max", "1000000000000000"], "1000000000000000 is not in the range 0<=x<=999999"),
        (["gold", "+1", "--max", "10000000"], "10000000 is not in the range 0<=x<=999999"),
        (["xp", "+999999999"], "'+999999999' is too big a change to XP: N goes from 0 to 999,999"),
        (["gold", "=1000000"], "too big a change to Gold: N goes from 0 to 999,999"),
        (["hp", "-" + "9" * 40], "too big a change to HP"),
        (["item", "rope", "+10000000"], "too big a change to rope"),
        (["item", "add", "rope", "10000000"], "10000000 is not in the range 1<=x<=999999"),
        (["roll", "1d6", "--mod", "-99999999"], "-99999999 is not in the range -999999<=x<=999999"),
        (["room", "5", "--floor", "99999999"], "99999999 is not in the range 1<=x<=999999"),
        (["talisman", "--left", "99999999"], "99999999 is not in the range 0<=x<=999999"),
    ],
)
def test_a_number_beyond_any_games_need_is_refused_with_its_range(args, said):
    result = cli(*args)
    assert result.exit_code == 2, (args, result.stdout, result.stderr)
    assert said in " ".join(result.stderr.split()), result.stderr
    assert cli_json("status")["events"] == 0


def test_the_largest_numbers_are_taken():
    assert cli("hp", f"={MOST}", "--max", str(MOST)).exit_code == 0
    assert cli("gold", f"+{MOST}").exit_code == 0
    assert cli("xp", f"+{MOST}").exit_code == 0
    assert cli("roll", "2d6", "--seed", "123456789012345678901234567890", "--scratch").exit_code == 0  # a seed: any


def test_the_page_charts_any_stored_value(tmp_path):
    """A hand-edited save with a maximum far beyond any bound: the html export still draws its chart."""
    assert cli("hp", "=5", "--max", "5").exit_code == 0
    assert cli("hp", "-1").exit_code == 0
    journal = Path(os.environ["COMPANION_HOME"]) / "sessions" / "f" / "events" / "journal.jsonl"
    lines = journal.read_bytes().split(b"\n")
    from companion.store.journal import decode, encode

    first = decode(journal, lines[1])
    first["max"], first["value"] = 10**20, 10**19
    lines[1] = encode(first)[:-1]
    journal.write_bytes(b"\n".join(lines))
    (journal.parent.parent / "log.json").unlink()
    for child in (journal.parent.parent / "checkpoints").glob("*.json"):
        child.unlink()
    page = tmp_path / "f.html"
    result = cli("export", "--format", "html", str(page))
    assert result.exit_code == 0, result.stderr
    html = page.read_text(encoding="utf-8")
    assert "<svg" in html and "100000000000000000000" in html.replace(",", "").replace("\u202f", "")
    assert json.loads(cli("export", "--format", "json", "-").stdout)
