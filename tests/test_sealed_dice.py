"""Dice anyone can verify (issue 39): ``new --sealed`` hides the seed behind its SHA-256 commitment in
every output until ``dice reveal`` or the game's end; ``dice verify FILE`` accepts the JSON export and
refuses it with a face changed, a roll removed or a wrong seed, naming the first difference; undone
rolls are in the export and said; physical rolls are the player's own."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest

from tests.helpers import cli, open_session


def ok(*args: str):
    result = cli(*args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result


@pytest.fixture
def sealed(isolated_home):
    said = ok("new", "freeform", "--name", "s", "--sealed").stdout
    s = open_session(isolated_home, "s")
    assert s.meta.sealed and str(s.meta.seed) not in said and s.meta.sealed in said
    ok("roll", "2d6", "--why", "the gate")
    ok("roll", "1d20")
    ok("undo")  # taken back ...
    ok("roll", "1d20", "--why", "again")  # ... and rolled again: the same place in the stream
    ok("roll", "3d6", "--got", "1,2,3")
    ok("note", "a draught")
    ok("roll", "4dt")
    return isolated_home


def outputs(home: Path, tmp: Path) -> dict[str, str]:
    out = {name: ok(*args).stdout for name, args in {
        "status": ("status",),
        "status --json": ("status", "--json"),
        "history": ("history", "--json"),
        "dice audit": ("dice", "audit"),
    }.items()}  # fmt: skip
    for fmt in ("md", "html", "lonelog", "json"):
        target = tmp / f"s.{fmt}"
        ok("export", str(target), "-f", fmt)
        out[f"export {fmt}"] = target.read_text(encoding="utf-8")
    out["the log"] = (home.parent / "logs" / "s.md").read_text(encoding="utf-8")
    return out


def test_a_sealed_session_hides_its_seed_everywhere_until_it_is_revealed(sealed, tmp_path):
    s = open_session(sealed, "s")
    seed, salt, commit = str(s.meta.seed), s.meta.salt, s.meta.sealed
    assert hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest() == commit
    for name, text in outputs(sealed, tmp_path).items():
        assert seed not in text and salt not in text, name
    shown = outputs(sealed, tmp_path)
    assert commit in shown["the log"] and commit in shown["export json"] and commit[:16] in shown["status"]
    doc = json.loads(shown["export json"])
    assert doc["session"]["seed"] is None and doc["session"]["sealed"] == {
        "commitment": commit,
        "salt": None,
        "revealed": None,
    }
    said = ok("dice", "reveal").stdout
    assert f"The seed: {seed}" in said and f"The salt: {salt}" in said
    shown = outputs(sealed, tmp_path)
    assert seed in shown["export json"] and seed in shown["the log"] and seed in shown["status"]
    assert json.loads(shown["export json"])["session"]["sealed"]["revealed"] == 6


def verified(path: Path) -> str:
    return ok("dice", "verify", str(path)).stdout


def refused(doc: dict, path: Path) -> str:
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = cli("dice", "verify", str(path))
    assert result.exit_code == 1 and result.stderr.count("\n") == 1, result.stderr
    return result.stderr


def test_dice_verify_accepts_the_export_and_refuses_a_face_changed_a_roll_removed_or_a_wrong_seed(sealed, tmp_path):
    ok("dice", "reveal")
    path = tmp_path / "s.json"
    ok("export", str(path), "-f", "json")
    said = verified(path)
    assert "match the commitment" in said and said.endswith("Verified.\n")
    assert "Every virtual roll matches the seed: 7 dice in 3 rolls (#1 to #5), in order." in said
    assert "1 physical roll: the player's own dice (#3)" in said
    assert "#2 1d20 [" in said and "drawn again as #2, the same dice" in said
    assert "The seed was revealed at #6, after the last roll." in said
    doc = json.loads(path.read_text(encoding="utf-8"))

    changed = copy.deepcopy(doc)
    roll = changed["events"][0]
    roll["faces"][1] = roll["faces"][1] % 6 + 1
    assert "not verified: #1 (2d6, the gate): the file shows" in refused(changed, tmp_path / "face.json")

    removed = copy.deepcopy(doc)
    del removed["events"][1]
    assert "not verified: #2 is missing: the events go from #1 to #3" in refused(removed, tmp_path / "gone.json")
    for n, event in enumerate(removed["events"], start=1):
        event["id"] = n  # the ids made whole again: the stream still knows
    why = refused(removed, tmp_path / "renumbered.json")
    assert "not verified: " in why and ("the seed gives" in why or "missing before the reveal" in why)

    wrong = copy.deepcopy(doc)
    next(e for e in wrong["events"] if e["t"] == "reveal")["seed"] += 1
    assert "do not match the commitment" in refused(wrong, tmp_path / "seed.json")

    undone = copy.deepcopy(doc)
    face = undone["undone"][0]["events"][0]["faces"]
    face[0] = face[0] % 20 + 1
    assert "not verified: undone #2 (1d20)" in refused(undone, tmp_path / "undone.json")
    data = json.loads(ok("dice", "verify", str(path), "--json").stdout)
    assert data["verified"] is True and data["undone"][0]["same_dice_again"] is True


def test_a_sealed_seed_not_yet_revealed_is_not_verified(sealed, tmp_path):
    path = tmp_path / "s.json"
    ok("export", str(path), "-f", "json")
    result = cli("dice", "verify", str(path))
    assert result.exit_code == 1 and "the seed is still sealed" in result.stderr


def test_the_games_end_reveals_the_seed_and_undo_cannot_go_back_past_it(isolated_home, tmp_path):
    ok("new", "haunted-tower", "--name", "h", "--sealed")
    for name in ("Aria", "Bram", "Cael"):
        ok("haunted", "hero", name, "--speed", "6", "--hp", "6", "--attack", "3", "--ac", "5", "--ability", "-")
    ok("haunted", "first")
    seed = str(open_session(isolated_home, "h").meta.seed)
    assert seed not in ok("status").stdout
    said = ok("haunted", "end").stdout
    assert f"The dice's seed revealed: {seed}" in said and seed in ok("status").stdout
    result = cli("undo")
    assert result.exit_code == 1 and "undo cannot go back past it" in result.stderr
    path = tmp_path / "h.json"
    ok("export", str(path), "-f", "json")
    assert "3 dice in 3 rolls" in verified(path)  # the Haunted Tower's own rolls name their dice


def test_what_sealing_refuses_is_one_line(isolated_home, tmp_path):
    result = cli("new", "freeform", "--name", "x", "--sealed", "--seed", "3")
    assert result.exit_code == 2 and "--sealed draws its own seed" in result.stderr
    ok("new", "freeform", "--name", "plain", "--seed", "3")
    result = cli("dice", "reveal")
    assert result.exit_code == 2 and "not sealed" in result.stderr
    ok("roll", "2d6")
    path = tmp_path / "plain.json"
    ok("export", str(path), "-f", "json")
    assert "Not sealed: the seed 3 was known from the start" in verified(path)
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    result = cli("dice", "verify", str(tmp_path / "bad.json"))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    result = cli("dice", "verify", str(tmp_path / "none.json"))
    assert result.exit_code == 2 and "cannot read" in result.stderr


def test_the_sealed_export_with_its_undone_rolls_validates_against_the_schema(sealed, tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).resolve().parent.parent / "docs" / "session-export.schema.json").read_text())
    for step in ("sealed", "revealed"):
        path = tmp_path / f"{step}.json"
        ok("export", str(path), "-f", "json")
        doc = json.loads(path.read_text(encoding="utf-8"))
        jsonschema.validate(doc, schema)
        assert doc["undone"][0]["after"] == 1 and doc["undone"][0]["events"][0]["expr"] == "1d20"
        if step == "sealed":
            ok("dice", "reveal")


def test_a_game_that_keeps_a_secret_drawn_from_the_dice_keeps_its_seed_sealed_too(isolated_home, tmp_path):
    """The Dragon's Den draws its dragon from the sealed dice, face down: the seed would name it, so
    it stays sealed (and the history says the draw was secret) until the game reveals the dragon."""
    ok("new", "dragons-den", "--name", "dd", "--sealed")
    for typed in ("2", "7", "done", "virtual", "roll", "roll", "roll", "hide"):
        ok("next", typed)
    result = cli("dice", "reveal")
    assert result.exit_code == 2 and "keeps a secret its dice would give away" in result.stderr
    said = ok("history").stdout
    assert "draw a dragon chit (12 in the cup) → drawn in secret" in said, said
    seed = str(open_session(isolated_home, "dd").meta.seed)
    path = tmp_path / "dd.json"
    ok("export", str(path), "-f", "json")
    assert seed not in path.read_text(encoding="utf-8")
