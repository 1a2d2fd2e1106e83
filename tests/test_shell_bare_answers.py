"""Bare answers in ``companion shell`` are exactly ``companion next ANSWER``.

A whole Inverted Tower game, a Haunted Tower fight and a Dark Tower turn are played twice from the
same start: once one step at a time through ``companion next ANSWER`` (typed dice, a menu's number),
once in ``companion shell`` with bare answers only (``45`` for two dice, an option's first letters, a
number). Afterwards ``status --json`` and the log of the two sessions are the same.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
from pathlib import Path

import pytest

from companion.dice.expr import parse
from companion.dice.source import read_physical
from companion.engine.describe import parse_choice
from companion.engine.requests import Choice, Option
from companion.errors import InputError
from companion.shell.words import SHELL_WORDS, SHORT_FORMS
from tests.shell_term import COMPANION
from tests.terminal import run_cli

pytestmark = pytest.mark.e2e

TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?")


def environ(home: Path) -> dict[str, str]:
    return dict(os.environ, COMPANION_HOME=str(home / "home"), COMPANION_LOGS=str(home / "logs"))


def ok(env: dict[str, str], *args: str) -> str:
    result = run_cli(env, *args)
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result.stdout


def commands() -> set[str]:
    from companion.cli.app import root_command

    root = root_command()
    ctx = root.make_context("companion", ["--help"], resilient_parsing=True)
    return set(root.list_commands(ctx))


def is_dice(word: str) -> bool:
    try:
        parse(word)
    except InputError:
        return False
    return True


def bare_choice(options: list[dict], index: int, taken: set[str]) -> str:
    """The shortest start of the option's label that picks it alone and reads as no command, else its number."""
    request = Choice("k", "?", tuple(Option(o["value"], o["label"], o["hint"]) for o in options))
    label = options[index]["label"]
    for k in range(2, min(len(label), 12) + 1):
        word = label[:k]
        if not word.isalpha() or word in taken or word in SHORT_FORMS or word in SHELL_WORDS or is_dice(word):
            continue
        try:
            if parse_choice(request, word) == options[index]["value"]:
                return word
        except InputError:
            continue
    return str(index + 1)


def bare_faces(expr: str, mod: int, faces: list[int]) -> str:
    """``45`` for two dice where that reads only as the faces, else ``4 5``."""
    spread = " ".join(str(f) for f in faces)
    if len(faces) < 2 or any(f > 9 for f in faces):
        return spread
    joined = "".join(str(f) for f in faces)
    try:
        read_physical(parse(expr), joined, mod, allow_total=True)
    except InputError:
        return joined
    return spread


def plan(env: dict[str, str], stop, rng: random.Random, pick, limit: int) -> list[tuple[str, str]]:
    """Play the session in ``env`` through ``companion next ANSWER`` until ``stop(status)``; each step's
    bare line for the shell and the words given to ``next``."""
    taken = commands()
    names = ["Ana", "Bo", "Cy", "Di"]
    steps: list[tuple[str, str]] = []
    for _ in range(limit):
        status = json.loads(ok(env, "status", "--json"))
        if stop(status):
            return steps
        step = json.loads(ok(env, "next", "--json"))
        request = step["request"]
        assert request is not None, steps
        if request["type"] == "roll":
            expr = parse(request["expr"])
            faces = [rng.randint(1, d.sides) for d in expr.dice]
            answer = " ".join(str(f) for f in faces)
            bare = bare_faces(request["expr"], request["mod"], faces)
        elif request["type"] == "choice":
            i = pick(request, rng)
            answer, bare = str(i + 1), bare_choice(request["options"], i, taken)
        elif request["type"] == "number":
            answer = bare = str(request["lo"] if request["lo"] > 0 else max(1, min(request["hi"], 1)))
        else:
            answer = bare = names.pop(0) if names else "Aria"
        ok(env, "next", *answer.split())
        steps.append((bare, answer))
    raise AssertionError(f"the play did not reach its end in {limit} steps: {steps[-5:]}")


def shell(env: dict[str, str], lines: list[str]) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [COMPANION, "shell"], input="\n".join(lines) + "\n", capture_output=True, text=True, env=env, timeout=600
    )
    assert result.returncode == 0, (result.stdout[-2000:], result.stderr[-2000:])
    assert "Traceback" not in result.stderr
    return result


def same(env: dict[str, str], home: Path) -> tuple[str, str]:
    status = json.loads(ok(env, "status", "--json"))
    log = Path(status["meta"]["log"]).read_text("utf-8")
    text = json.dumps(status, sort_keys=True, ensure_ascii=False).replace(str(home), "HOME")
    return TIME.sub("TIME", text), TIME.sub("TIME", log.replace(str(home), "HOME"))


def both(tmp_path: Path, setup: list[list[str]], stop, pick, limit: int, seed: int) -> list[tuple[str, str]]:
    one, two = tmp_path / "one", tmp_path / "two"
    env1, env2 = environ(one), environ(two)
    for args in setup:
        ok(env1, *args)
        ok(env2, *args)
    steps = plan(env1, stop, random.Random(seed), pick, limit)
    shell(env2, [bare for bare, _answer in steps])
    assert same(env2, two) == same(env1, one)
    return steps


def test_a_whole_inverted_tower_game_with_bare_answers(tmp_path):
    def pick(request: dict, rng: random.Random) -> int:
        keep = [i for i, o in enumerate(request["options"]) if not o["label"].startswith(("←", "✕"))]
        return rng.choice(keep)

    steps = both(
        tmp_path,
        [["new", "inverted-tower", "--name", "game", "--seed", "8", "--physical"]],
        lambda status: status["state"]["finished"] is not None,
        pick,
        limit=800,
        seed=3,
    )
    bare = [b for b, _a in steps]
    assert any(len(b) == 2 and b.isdigit() for b in bare) or any(b.isalpha() and len(b) > 1 for b in bare)
    assert any(b.isalpha() and len(b) > 1 for b in bare)  # an option by its first letters


def test_a_haunted_tower_fight_with_bare_answers(tmp_path):
    setup = [["new", "haunted-tower", "--name", "game", "--seed", "5", "--physical"]]
    for i, name in enumerate(("Aria", "Bram", "Cael")):
        setup.append(
            [
                "haunted",
                "hero",
                name,
                "--speed",
                "6",
                "--hp",
                str(6 + i),
                "--attack",
                "3",
                "--ac",
                "5",
                "--ability",
                "-",
            ]
        )
    setup.append(
        ["haunted", "hero", "Dana", "--speed", "5", "--hp", "7", "--attack", "2", "--ac", "4", "--ability", "-"]
    )
    seen = {"fight": False}

    def stop(status: dict) -> bool:
        fight = status["state"]["game"]["fight"]
        if fight is not None:
            seen["fight"] = True
        return seen["fight"] and fight is None

    def pick(request: dict, rng: random.Random) -> int:
        values = [o["value"] for o in request["options"]]
        for wanted in ("start", "fight", "attack", "gargoyle", "blue"):
            if wanted in values:
                return values.index(wanted)
        return 0

    steps = both(tmp_path, setup, stop, pick, limit=120, seed=11)
    assert len(steps) > 8


def test_a_dark_tower_turn_with_bare_answers(tmp_path):
    setup = [
        ["new", "dark-tower", "--name", "game", "--seed", "5"],
        ["dark", "card", "hero", "Rogue", "--health", "8", "--bonus", "1,1,2"],
        ["dark", "card", "item", "Sword", "--class", "weapon", "--bonus", "2"],
        ["dark", "card", "item", "Mail", "--class", "armor", "--bonus", "1", "--single"],
        ["dark", "card", "obstacle", "Pit", "--check", "5", "--damage", "2", "--penalty", "1"],
        ["dark", "card", "monster", "Skeleton", "--floor", "1", "--strength", "5"],
    ]

    def stop(status: dict) -> bool:
        return status["state"]["game"]["turns"] >= 2  # turn 1 played to its end

    def pick(request: dict, rng: random.Random) -> int:
        values = [o["value"] for o in request["options"]]
        if "done" in values and "add" in values:  # "N at the table": two players
            return values.index("add" if request["prompt"].startswith("1 ") else "done")
        for wanted in ("en", "table", "clan-champion", "rogue", "sword", "mail", "+none", "ready", "obstacle", "pit"):
            if wanted in values:
                return values.index(wanted)
        if "end" in values:
            return values.index("end")
        return 0

    steps = both(tmp_path, setup, stop, pick, limit=80, seed=2)
    assert len(steps) > 5
