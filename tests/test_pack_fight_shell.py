"""A table pack's fight in ``companion shell``: it is the pending step (the next round, with its odds),
answered bare (Enter, the faces of both sides, ``luck``, ``flee``), and it is on the bar at 80x30 and
120x40 (pyte); the same fight played with one-shot commands leaves the same session."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.shell_term import COMPANION, CTRL_D, ENTER, Term
from tests.terminal import edge_problems, prepare, run_cli
from tests.test_completion import bash_complete  # noqa: F401  (the fixture)

pytestmark = pytest.mark.e2e

KEEP = str(Path(__file__).resolve().parent.parent / "examples" / "tables" / "ashen-keep.toml")
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?")


def environ(home: Path) -> dict[str, str]:
    return dict(os.environ, COMPANION_HOME=str(home / "home"), COMPANION_LOGS=str(home / "logs"))


def ok(env: dict[str, str], *args: str) -> str:
    result = run_cli(env, *args)
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result.stdout


def same(env: dict[str, str], home: Path) -> tuple[str, str]:
    status = json.loads(ok(env, "status", "--json"))
    log = Path(status["meta"]["log"]).read_text("utf-8")
    text = json.dumps(status, sort_keys=True, ensure_ascii=False).replace(str(home), "HOME")
    return TIME.sub("TIME", text), TIME.sub("TIME", log.replace(str(home), "HOME"))


def test_bare_answers_play_the_fight_as_the_commands_do(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    envs = environ(one), environ(two)
    for env in envs:
        ok(env, "new", "freeform", "--name", "keep", "--seed", "4", "--tables", KEEP, "--got", "3/3,3/4")
        ok(env, "fight", "start", "sword", "--foe", "warden")
    # One-shot commands ...
    for args in (
        ["fight", "round"],  # virtual dice: Enter
        ["fight", "round", "--got", "6,6/1,1"],
        ["fight", "luck"],
        ["fight", "round", "--got", "4,5/3,3"],
        ["fight", "flee"],
    ):
        ok(envs[0], *args)
    # ... and the same as bare answers in the shell: Enter, the four faces, luck, 4533 (a digit a die), flee.
    lines = ["", "6 6 1 1", "luck", "4 5 3 3", "flee"]
    result = subprocess.run(
        [COMPANION, "shell"], input="\n".join(lines) + "\n", capture_output=True, text=True, env=envs[1], timeout=600
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr, (result.stdout, result.stderr)
    assert same(envs[1], two) == same(envs[0], one)
    assert "You got away from Iron warden, after 3 rounds." in same(envs[1], two)[1]


def test_a_bare_line_that_is_no_answer_to_the_round_says_what_is(tmp_path):
    env = environ(tmp_path)
    ok(env, "new", "freeform", "--name", "keep", "--seed", "4", "--tables", KEEP, "--got", "3/3,3/4")
    ok(env, "fight", "start", "sword", "--foe", "warden")
    result = subprocess.run(
        [COMPANION, "shell"], input="4 5 1\nluck\n", capture_output=True, text=True, env=env, timeout=600
    )
    assert "companion: type each die, 4 in all (each roll's dice in turn, e.g. 4 5 2 6)" in result.stderr
    # luck is fight luck, which says why there is nothing to test it on yet
    assert "companion: no round is played yet: fight round first, then fight luck on its wound" in result.stderr
    assert json.loads(ok(env, "fight", "--json"))["rounds"] == 0  # nothing was played


@pytest.mark.parametrize("size", [(80, 30), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_fight_is_the_step_and_on_the_bar(size):
    env = dict(os.environ)
    prepare(env, "new", "freeform", "--name", "keep", "--seed", "4", "--tables", KEEP, "--got", "3/3,3/4")
    prepare(env, "fight", "start", "sword", "--foe", "warden")
    cols, rows = size
    t = Term("shell", cols=cols, rows=rows, cpr=True)
    t.wait_for("keep>")
    t.wait_for("⚔", bottom=8)
    screen = t.display().split("\n")
    text = "\n".join(screen)
    assert "Round 1: your attack and Iron warden's: win 86.7%, lose 13.3%" in text  # the odds before the round
    bar = "\n".join(screen[-8:])
    assert "▶ Round 1: your attack and Iron warden's · win 86.7%, lose 13.3%" in bar
    assert "⚔ Sword against claw, round 1:" in bar
    assert "you STAMINA 18/18" in bar and "Iron warden STAMINA 10/10" in bar
    assert not edge_problems(screen, cols), "\n".join(edge_problems(screen, cols))
    t.send("6 6 1 1" + ENTER)
    t.wait_for("Iron warden STAMINA 8/10", bottom=8)
    t.wait_for("round 2", bottom=8)
    t.send(CTRL_D)
    assert t.close() == 0


def test_tab_completes_the_packs_fights_and_foes(bash_complete, isolated_home):  # noqa: F811
    assert run_cli(dict(os.environ), "new", "freeform", "--tables", KEEP, "--got", "3/3,3/4").returncode == 0
    assert bash_complete("companion fight start ") == ["sword"]
    assert bash_complete("companion fight start sword --foe ") == ["ghoul", "warden", "wyrm"]
    assert bash_complete("companion fight start sword --foe w") == ["warden", "wyrm"]
    assert bash_complete("companion odds fight pack ") == ["sword"]
