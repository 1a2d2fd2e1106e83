"""Words for every action (issue 39): every event type of every game, built-in and a game's own, has a
label in the player's words, in the session's language; undo, redo, ``history`` and the page say it,
and none of them shows an internal key (a request's key such as ``fight.hero-attack``, an option's
value such as ``attack:``, an event's type such as ``dark health`` or ``tower-room``)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from tests.dark_tower_session import run_steps, steps
from tests.helpers import cli
from tests.russian_words import decimal_points, latin_words, wrong_plurals

ROOT = Path(__file__).resolve().parent.parent / "companion"
GAMES = ("inverted-tower", "talisman", "haunted-tower", "dragons-den", "dark-tower", "freeform")


def ops(game: str) -> dict[str, set[str]]:
    """Each of a game's own event types, with the ops (``op`` or ``do``) its reducer takes."""
    from companion.games import load

    spec = load(game)
    out: dict[str, set[str]] = {t: set() for t in spec.reducers}
    if game == "dark-tower":  # its reducer is one chain of ``op == "..."``: read from the source
        tree = ast.parse((ROOT / "games/dark_tower/rules/events.py").read_text(encoding="utf-8"))
        out["dark"] = {
            c.comparators[0].value
            for c in ast.walk(tree)
            if isinstance(c, ast.Compare) and isinstance(c.left, ast.Name) and c.left.id == "op"
        }
    elif game == "haunted-tower":
        from companion.games.haunted_tower.rules.events import OPS

        out["haunted"] = set(OPS)
    elif game == "dragons-den":
        from companion.games.dragons_den.engine.steps import ACTIONS

        out["dragon"] = set(ACTIONS)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_action_a_game_records_has_its_words(game):
    from companion.games import load
    from companion.session.labels import SHARED_TYPES, label

    spec = load(game)
    found = ops(game)
    assert game in ("talisman", "freeform") or found, "a game with actions of its own"
    samples = {  # every shared action says itself, whichever game records it
        "roll": {"expr": "2d6", "faces": [3, 4], "src": "virtual"},
        "note": {"text": "a draught"},
        "mode": {"dice": "physical"},
        "amend": {"target": 2, "roll": {"faces": [5]}, "reason": "misread"},
        "tally": {"op": "hit", "name": "Orc", "n": 2},
        "counter": {"name": "hp", "op": "add", "value": -1},
        "xp": {"n": 3},
        "item": {"name": "rope", "delta": 1},
        "room": {"number": 4, "content": "Mob 1", "state": "cleared"},
        "floor": {"n": 2},
        "talisman": {"faces": [6, 6], "src": "virtual"},
        "hero": {"name": "Aria"},
        "gamedata": {"values": {"area12": 3}},
        "end": {"result": "won"},
        "table": {"pack": "p", "table": "room", "rolls": [{"expr": "1d6", "faces": [5], "result": "x"}]},
        "table_reset": {"tables": ["p/room"]},
        "fight": {"op": "round", "rolls": [{"expr": "2d6", "faces": [1, 2], "src": "virtual"}]},
        "section": {"n": 213},
        "reveal": {"seed": 5, "salt": "ab", "draws": 0},
    }
    for t, names in found.items():
        for op in sorted(names) or [None]:
            # a shared action a game reduces its own way (the Inverted Tower's floor) has the shared fields
            event = {"t": t, **samples.get(t, {}), **({"op": op} if op else {})}
            if t == "dragon":
                event = {"t": t, "do": op, "args": {}}
            words = label(spec, event).line()
            assert not re.search(rf"(?<![\w-]){re.escape(f'{t} {op}')}(?![\w-])", words), (t, op, words)
            assert not re.search(r"\w-\w", t) or t not in words, (t, words)
            assert words != "a step of the game", (t, op)
    assert set(samples) == set(SHARED_TYPES)
    for t, fields in samples.items():
        words = label(spec, {"t": t, **fields}).line()
        assert words and words != "a step of the game", (t, words)
        assert t not in ("fight", "table", "roll") or "[" in words, (t, words)


def internal_keys(events: list[dict]) -> set[str]:
    """What a player must never read: the steps' keys, option values with a colon, event types and ops."""
    keys: set[str] = set()
    for e in events:
        if e.get("t") == "answer":
            keys.add(str(e["key"]))
            choice = str((e.get("v") or {}).get("choice", ""))
            if ":" in choice and not choice.endswith(":"):
                keys.add(choice)
        elif e.get("op") or e.get("do"):
            keys.add(f"{e['t']} {e.get('op') or e.get('do')}")
        elif "-" in str(e.get("t")):
            keys.add(str(e["t"]))
    return {k for k in keys if "." in k or ":" in k or " " in k or "-" in k}


def named(keys: set[str], text: str) -> list[str]:
    return sorted(k for k in keys if re.search(rf"(?<![\w.:-]){re.escape(k)}(?![\w:-])", text))


def events_of(home: Path) -> list[dict]:
    from tests.helpers import open_session

    s = open_session(home, next(p.name for p in (home / "sessions").iterdir() if not p.name.startswith(".")))
    return [*s.files.read_events(), *(e for r in s.files.undone.read() for e in r["events"])]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_whole_dark_tower_session_is_said_in_words_in_its_language(tmp_path, lang):
    run_steps(steps(lang), tmp_path)
    said = run_steps([["history"], ["history", "--json"], ["undo"], ["undo", "--to", "20", "--yes"]], tmp_path)
    text = "\n".join(out for _args, out in said)
    assert all(out.startswith("[exit 0]") for _args, out in said), text
    words = [a["words"] for a in json.loads(said[1][1].split("\n", 1)[1])["actions"]]
    assert len(words) > 30
    assert "a step of the game" not in text and "шаг игры" not in text
    assert named(internal_keys(events_of(tmp_path / "home")), text) == []
    if lang == "ru":
        read = "\n".join([said[0][1], said[2][1], said[3][1], *words])  # what a player reads (not the JSON's keys)
        assert latin_words(read) == [] and wrong_plurals(read) == [] and decimal_points(read) == []
        assert "Отменено действие №36: стопка 3 Этажа собрана." in said[2][1]
        assert any(w.startswith("Аня сражается") for w in words), words
    else:
        assert any(w.startswith("Аня fights") for w in words), words


SCRIPTS = {
    "inverted-tower": (["new", "inverted-tower", "--name", "g", "--seed", "3", "--hero", "Ann"], []),
    "talisman": (["new", "talisman", "--name", "g", "--seed", "2"], []),
    "haunted-tower": (
        ["new", "haunted-tower", "--name", "g", "--seed", "5"],
        [
            ["haunted", "hero", name, "--speed", "6", "--hp", "6", "--attack", "3", "--ac", "5", "--ability", "-"]
            for name in ("Aria", "Bram", "Cael")
        ],
    ),
    "dragons-den": (["new", "dragons-den", "--name", "g", "--seed", "1"], []),
}


def answer(step: dict) -> str:
    """What a player answers: the dice for a roll, the starred option or the first, the lowest number."""
    if step["kind"] == "roll":
        return "roll"
    if step["kind"] == "number":
        return str(max(step["lo"], 1) if step["hi"] >= 1 else step["lo"])
    if step["kind"] == "text":
        return "x"
    values = [o["value"] for o in step["options"] if o["value"] not in ("peek", "menu", "__back__")]
    return "=" + (step.get("best") or values[0])


@pytest.mark.parametrize("game", sorted(SCRIPTS))
def test_each_guided_game_says_every_step_in_its_own_words(isolated_home, game):
    first, then = SCRIPTS[game]
    assert cli(*first).exit_code == 0
    for args in then:
        assert cli(*args).exit_code == 0, args
    for _ in range(30):
        step = json.loads(cli("next", "--json").stdout).get("pending")
        if step is None:
            break
        assert cli("next", answer(step)).exit_code == 0
    assert cli("undo").exit_code == 0 and cli("undo", "--to", "3", "--yes").exit_code == 0
    history = cli("history")
    data = json.loads(cli("history", "--json").stdout)
    text = history.stdout + json.dumps(data, ensure_ascii=False)
    assert len(data["actions"]) == 3 and data["undone"], text
    every = [a["words"] for a in data["actions"]] + [a["words"] for t in data["undone"] for a in t["actions"]]
    assert len(every) > 20 and "a step of the game" not in every
    assert named(internal_keys(events_of(isolated_home)), text) == []
