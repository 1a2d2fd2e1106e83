"""What a guided game costs in CPU time at a terminal, with Python's cycle collector as it starts and
settled (``companion.shell.prompts.settle_memory``, which ``companion play`` calls).

Plays The Inverted Tower in a pseudo-terminal (pexpect): a new session with the same seed each time,
Enter at every prompt (a virtual roll, the first choice) until the prompts counted are answered, then
Ctrl-D. Both ways run the same ``companion play`` through ``python -c``, the stock way with
``settle_memory`` replaced by a no-op; they alternate, round after round. Prints the mean CPU time of
a game (the process's own, from the kernel's accounting of the reaped child) and the ratio.

    .venv/bin/python benchmarks/play_terminal.py            # 8 rounds of 80 prompts
    .venv/bin/python benchmarks/play_terminal.py --quick    # 2 rounds of 30

Ratios are measured in one run on a shared machine; read them, not the absolute times.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import pexpect

COMPANION = str(Path(sys.executable).with_name("companion"))
PROMPT_OPEN = "\x1b[?2004h"  # prompt_toolkit turns bracketed paste on when a prompt opens
PLAY = "import sys; from companion.cli.main import run; sys.argv = ['companion', 'play']; run()"
WAYS = {
    "stock": "import companion.shell.prompts as p; p.settle_memory = lambda: None; " + PLAY,
    "settled": PLAY,
}


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def game(env: dict[str, str], code: str, prompts: int, seed: int) -> tuple[float, int]:
    """One game of up to ``prompts`` answers; the CPU seconds of its process and the answers given."""
    subprocess.run([COMPANION, "new", "inverted-tower", "--seed", str(seed), "--hero", "Aria"], env=env, check=True,
                   capture_output=True)  # fmt: skip
    before = children_cpu()
    child = pexpect.spawn(sys.executable, ["-c", code], env=env, dimensions=(24, 80), encoding="utf-8", timeout=60)
    child.delaybeforesend = None
    answered = 0
    while answered < prompts:
        if child.expect_exact([PROMPT_OPEN, pexpect.EOF]) == 1:
            break  # the game ended
        child.send("\r")
        answered += 1
    else:
        child.expect_exact(PROMPT_OPEN)
        child.sendcontrol("d")  # end of input at any prompt: everything answered is saved
        child.expect(pexpect.EOF)
    child.wait()
    child.close()
    return children_cpu() - before, answered


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and prompts, for a smoke run")
    rounds, prompts = (2, 30) if parser.parse_args().quick else (8, 80)
    cpu: dict[str, list[float]] = {way: [] for way in WAYS}
    answers: dict[str, list[int]] = {way: [] for way in WAYS}
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, COMPANION_LOGS=str(Path(tmp) / "logs"), PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm")
        env.pop("COMPANION_SESSION", None)
        for n in range(rounds):
            for way, code in WAYS.items():
                env["COMPANION_HOME"] = str(Path(tmp) / f"{way}-{n}")
                seconds, answered = game(env, code, prompts, seed=7)
                cpu[way].append(seconds)
                answers[way].append(answered)
    assert answers["stock"] == answers["settled"], answers  # the same games
    stock, settled = (statistics.mean(cpu[way]) for way in WAYS)
    print(f"{rounds} games of {answers['stock'][0]} prompts each way; mean CPU s of a game's process")
    print(f"  collector as it starts {stock:.3f}   settled {settled:.3f}   ratio {stock / settled:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
