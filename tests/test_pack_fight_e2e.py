"""A pack fight's screens in a real pseudo-terminal at 80 and 120 columns (pyte): the odds before the
fight, a round with its odds line, the fight as it stands, and physical dice typed at the prompt."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

from tests.terminal import COMPANION, broken_words, close, edge_problems, pty_spawn, run_cli, terminal_env  # noqa: E402

pytestmark = pytest.mark.e2e

KEEP = str(Path(__file__).resolve().parent.parent / "examples" / "tables" / "ashen-keep.toml")


def screen(env: dict[str, str], cols: int, *args: str) -> list[str]:
    child = pty_spawn(COMPANION, list(args), env={**env, "COLUMNS": str(cols)}, dimensions=(80, cols), encoding="utf-8")
    out = child.read()
    assert close(child) == 0, out
    term = pyte.Screen(cols, 80)
    pyte.Stream(term).feed(out.replace("\n", "\r\n"))
    lines = [line.rstrip() for line in term.display]
    assert not edge_problems(lines, cols) and not broken_words(lines, cols), lines
    return [line for line in lines if line]


@pytest.mark.parametrize("cols", [80, 120])
def test_the_odds_a_round_and_the_fight_read_whole_on_the_screen(tmp_path, cols):
    env = terminal_env(tmp_path, cols)
    assert (
        run_cli(
            env, "new", "freeform", "--name", "keep", "--seed", "4", "--tables", KEEP, "--got", "3/3,3/4"
        ).returncode
        == 0
    )
    odds = "\n".join(screen(env, cols, "odds", "fight", "pack", "sword", "--foe", "warden"))
    assert "win                        7099/8192 (86.7%)" in odds
    assert "always testing LUCK: win   80.37%" in odds
    assert "Your STAMINA at the end of the fight" in odds and "Iron warden's STAMINA at the end" in odds
    assert "10.70 rounds on average, ties counted." in odds
    assert run_cli(env, "fight", "start", "sword", "--foe", "warden").returncode == 0
    shown = screen(env, cols, "fight", "round", "--got", "1,1/6,6")
    text = "\n".join(shown).replace("\u00a0", " ")  # a roll's faces are held together by no-break spaces
    assert "🎲 2d6 +9 SKILL → [1] [1] = 11 · physical — Round 1: your attack" in text
    assert "Round 1: Iron warden wins it, 21 to 11." in text
    odds_line = next(i for i, line in enumerate(shown) if "Odds now:" in line)
    assert shown[odds_line].startswith("  Odds now: win ")
    for line in shown[odds_line + 1 :]:  # a wrapped odds or Next line hangs under its first word
        assert line.startswith("  ")
    assert re.search(
        r"Next: companion fight round, companion fight luck, companion fight flee", " ".join(" ".join(shown).split())
    )
    now = screen(env, cols, "fight")
    assert now[:3] == [
        "Sword against claw, after round 1",
        "  Iron warden: SKILL 9, STAMINA 10",
        "  You: SKILL 9, STAMINA 16, LUCK 10",
    ]


def test_physical_dice_are_asked_for_each_side_at_the_prompt(tmp_path):
    env = terminal_env(tmp_path, 80)
    assert (
        run_cli(env, "new", "freeform", "--physical", "--name", "keep", "--tables", KEEP, "--got", "3/3,3/4").returncode
        == 0
    )
    assert run_cli(env, "fight", "start", "sword", "--foe", "ghoul").returncode == 0
    child = pty_spawn(COMPANION, ["fight", "round"], env=env, dimensions=(24, 80), encoding="utf-8", timeout=60)
    child.expect("your attack")
    child.send("4 4\r")
    child.expect("attack")
    child.send("2 1\r")
    child.expect(pexpect.EOF)
    assert close(child) == 0
    log = run_cli(env, "log").stdout
    assert "Round 1: you win it, 17 to 10." in log
    assert "Cinder ghoul: STAMINA 4/6" in log


def test_starting_scores_are_asked_in_tracker_order_at_a_terminal(tmp_path):
    env = terminal_env(tmp_path, 80)
    child = pty_spawn(
        COMPANION,
        ["new", "freeform", "--physical", "--name", "hero", "--tables", KEEP],
        env=env,
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=60,
    )
    child.expect("SKILL: your starting score")
    child.send("7\r")  # not a face of a d6: asked again
    child.expect("not a face of a d6")
    child.sendcontrol("u")
    child.send("5\r")
    child.expect("STAMINA: your starting score")
    child.send("2 6\r")
    child.expect("LUCK: your starting score")
    child.send("1\r")
    child.expect(pexpect.EOF)
    assert close(child) == 0
    out = run_cli(env, "tracker").stdout
    assert out.splitlines()[:3] == ["SKILL: 11/11", "STAMINA: 20/20", "LUCK: 7/7"]
