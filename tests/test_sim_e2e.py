"""End to end in a real pseudo-terminal: the simulator's progress bar and report, and fight odds with their chart."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.terminal import close, pty_spawn  # noqa: E402

pytestmark = pytest.mark.e2e

COMPANION = str(Path(sys.executable).with_name("companion"))
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]|\r")


def run_in_terminal(tmp_path: Path, *args: str, timeout: float = 300) -> tuple[str, int]:
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm-256color")
    env["COMPANION_HOME"] = str(tmp_path / "home")
    env["COMPANION_LOGS"] = str(tmp_path / "logs")
    env.pop("NO_COLOR", None)
    child = pty_spawn(COMPANION, list(args), env=env, dimensions=(24, 100), encoding="utf-8", timeout=timeout)
    raw = child.read()
    close(child)
    return raw, child.exitstatus


def test_simulate_in_a_terminal_shows_a_progress_bar_then_the_report(tmp_path):
    """Three chunks of runs on two processes; the pool stopping its workers at the end prints nothing."""
    raw, status = run_in_terminal(tmp_path, "simulate", "inverted-tower", "--runs", "600", "--seed", "1", "--jobs", "2")
    assert status == 0, raw[-2000:]
    assert "simulating" in raw and "/600" in raw  # the bar, drawn while the runs were played
    assert "Traceback" not in raw and "Terminated" not in raw, raw[-2000:]
    text = ANSI.sub("", raw)
    assert "The Inverted Tower: 600 runs, seed 1, policy steady" in text
    assert "Win rate (the Necromancer slain)" in text and "95% interval" in text
    assert "Floor of death" in text and "runs/s on 2 processes" in text


def test_simulate_json_keeps_stdout_clean_and_the_bar_on_the_terminal(tmp_path):
    """stdout to a file, stderr at the terminal: the bar is drawn there, the file holds only the JSON."""
    env = dict(os.environ, COMPANION_HOME=str(tmp_path / "h"), COMPANION_LOGS=str(tmp_path / "l"))
    out = tmp_path / "report.json"
    child = pty_spawn(
        "/bin/sh",
        ["-c", f"'{COMPANION}' simulate it --runs 300 --seed 9 --json > '{out}'"],
        env=env,
        dimensions=(24, 100),
        encoding="utf-8",
        timeout=60,
    )
    raw = child.read()
    close(child)
    assert child.exitstatus == 0, raw
    assert "simulating" in raw
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["runs"] == 300 and doc["figures"]["won"]["n"] == 300


def test_fight_odds_in_a_terminal_draw_their_chart(tmp_path):
    raw, status = run_in_terminal(
        tmp_path, "odds", "fight", "it", "--mobs", "2", "--elite", "--attr", "2", "--hp", "6", "--floor", "3"
    )
    assert status == 0, raw
    text = ANSI.sub("", raw)
    assert text.startswith("2 Skeleton Warriors + a Lich on floor 3, HP 6, attribute +2:")
    assert "HP at the end of the fight" in text and "dead" in text and "█" in text


def ctrl_c_as_at_a_terminal() -> None:
    """Ctrl-C at its default, as in a program a person starts at a terminal. A background job of a
    script (``pytest ... &`` in a non-interactive shell) starts with SIGINT ignored, its children
    inherit that, and Python then leaves it ignored: Ctrl-C would do nothing at all."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_a_simulation_on_every_core_with_one_line(tmp_path):
    env = dict(os.environ, COMPANION_HOME=str(tmp_path / "h"), COMPANION_LOGS=str(tmp_path / "l"))
    child = pty_spawn(
        COMPANION,
        ["simulate", "it", "--runs", "1000000", "--jobs", "2"],
        env=env,
        dimensions=(24, 100),
        encoding="utf-8",
        timeout=30,
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    child.expect("simulating")
    child.sendintr()
    rest = child.read()
    close(child)
    assert child.exitstatus == 130
    assert "interrupted" in rest and "Traceback" not in rest and "KeyboardInterrupt" not in rest


def test_the_adventure_in_the_dungeon_in_a_terminal_simulated_and_counted(tmp_path):
    """The player's numbers entered once; the simulator plays with them (a bar, then the report), and a
    big whole fight says it is counting before its chart."""
    import subprocess

    from tests.aitd_support import DATA

    env = dict(os.environ, COMPANION_HOME=str(tmp_path / "home"), COMPANION_LOGS=str(tmp_path / "logs"))
    args = [COMPANION, "gamedata", "talisman", *(f"{k}={v}" for k, v in DATA.items())]
    subprocess.run(args, env=env, check=True, capture_output=True)
    raw, status = run_in_terminal(tmp_path, "simulate", "talisman", "--runs", "100", "--seed", "3")
    assert status == 0, raw[-2000:]
    text = ANSI.sub("", raw)
    assert "simulating" in raw and "The Adventure in the Dungeon: 100 runs, seed 3, policy steady" in text
    assert "Won: out with the Talisman" in text and "Kills until the Talisman" in text
    raw, status = run_in_terminal(tmp_path, "odds", "fight", "talisman", "6", "--fresh")  # the Gorgon
    assert status == 0, raw[-2000:]
    text = ANSI.sub("", raw)
    # The whole fight is counted at once now (odds/fight_chain.py): no "Counting every way…" notice before the chart.
    assert "Counting every way" not in text
    assert "Area 6: the Gorgon (6 hits to slay), the party with 29 hits left:" in text
    assert "Heroes standing when the fight ends" in text and "█" in text


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _workers(pid: int) -> list[int]:
    """The simulation's worker processes: forks of it, so with its command line (multiprocessing's
    resource tracker, also a child, runs another)."""
    try:
        own = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    found = []
    for child in _children(pid):
        try:
            if Path(f"/proc/{child}/cmdline").read_bytes() == own:
                found.append(child)
        except OSError:
            continue
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_a_worker_killed_from_outside_stops_the_simulation_with_one_line(tmp_path):
    """multiprocessing.Pool waited forever for the runs of a worker killed from outside (the OOM
    killer, a kill -9): the simulation hung. Now it stops with one line, exit code 1."""
    import subprocess
    import time

    env = dict(os.environ, COMPANION_HOME=str(tmp_path / "home"), COMPANION_LOGS=str(tmp_path / "logs"))
    sim = subprocess.Popen(
        [COMPANION, "simulate", "it", "--runs", "1000000", "--jobs", "2", "--seed", "1"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while len(workers := _workers(sim.pid)) < 2:
            assert sim.poll() is None and time.monotonic() < deadline, "no workers started"
            time.sleep(0.05)
        os.kill(workers[0], signal.SIGKILL)
        _, err = sim.communicate(timeout=60)
    finally:
        if sim.poll() is None:  # hung: end it and its workers, then fail below
            for worker in _children(sim.pid):
                os.kill(worker, signal.SIGKILL)
            sim.kill()
            sim.wait()
    assert sim.returncode == 1, err
    assert "a simulation process ended before its runs were done" in err, err
    assert "Traceback" not in err, err
    assert _workers(sim.pid) == []
