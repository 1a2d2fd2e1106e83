"""What a pack fight's exact odds cost: ``companion odds fight pack`` against ``companion odds DC``.

Run it with the project's virtual environment (standard library only; it is not a test):

    .venv/bin/python benchmarks/pack_fights.py            # best of 5 rounds

Each fight is counted by the command a player types, in a fresh process, right after ``companion odds
DC`` (the trivial command) in the same round: the figure is the ratio of their wall times (and of
their CPU times), the best of the rounds, with the command's peak memory. Target (#26): at most 10x
``companion odds DC`` and under 300 MiB, for every tracker up to 30. The fights are the example packs'
own (examples/tables/ashen-keep.toml, salt-road.toml), their trackers' maxima raised to 30 in a copy,
and one foe that heals on a tie (rounds that come back, the slowest kind to count).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "tables"
COMPANION = str(Path(sys.executable).with_name("companion"))
RATIO_TARGET = 10.0
MIB_TARGET = 300

HEALER = """
[fights.troll]
title = "A troll that heals"
kind = "opposed"
attack = "2d6 + SKILL"
foe_attack = "2d6 + foe.SKILL"
win = "foe.STAMINA -2"
lose = "STAMINA -2"
tie = "foe.STAMINA +1"
until = "STAMINA <= 0 or foe.STAMINA <= 0"
"""


def _raised(source: str) -> str:
    """The pack with every tracker's max at 30, so that any value up to 30 can be asked for."""
    return re.sub(r"max = \d+", "max = 30", source)


def _timed(args: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(wall seconds, peak RSS in MiB, CPU seconds) of one command in a child process."""
    start = time.perf_counter()
    with subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as child:
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        err = child.stderr.read().decode() if child.stderr else ""
    elapsed = time.perf_counter() - start
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed with exit code {child.returncode}: {err}")
    return elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def cases(folder: Path) -> list[tuple[str, list[str]]]:
    keep = folder / "ashen-keep.toml"
    keep.write_text(_raised((EXAMPLES / "ashen-keep.toml").read_text(encoding="utf-8")) + HEALER, encoding="utf-8")
    road = folder / "salt-road.toml"
    road.write_text(_raised((EXAMPLES / "salt-road.toml").read_text(encoding="utf-8")), encoding="utf-8")
    sword = ["odds", "fight", "pack", "sword", "--tables", str(keep)]
    blade = ["odds", "fight", "pack", "blade", "--tables", str(road)]
    troll = ["odds", "fight", "pack", "troll", "--tables", str(keep)]
    thirty = ["--set", "STAMINA=30", "--set", "LUCK=30"]
    return [
        (
            "opposed, all at 30, both LUCK policies",
            [*sword, "--foe", "F", "SKILL=9", "STAMINA=30", "--set", "SKILL=9", *thirty],
        ),
        (
            "opposed, SKILL 12 vs 4, all at 30",
            [*sword, "--foe", "F", "SKILL=4", "STAMINA=30", "--set", "SKILL=12", *thirty],
        ),
        (
            "opposed, SKILL 4 vs 12, all at 30",
            [*sword, "--foe", "F", "SKILL=12", "STAMINA=30", "--set", "SKILL=4", *thirty],
        ),
        (
            "opposed, all at 30, --flee-at 6",
            [*sword, "--foe", "F", "SKILL=9", "STAMINA=30", "--set", "SKILL=9", *thirty, "--flee-at", "6"],
        ),
        (
            "table, ENDURANCE 30 each, ratio 0",
            [*blade, "--foe", "F", "COMBAT=15", "ENDURANCE=30", "--set", "ENDURANCE=30"],
        ),
        (
            "table, ENDURANCE 30 each, ratio -11",
            [*blade, "--foe", "F", "COMBAT=26", "ENDURANCE=30", "--set", "ENDURANCE=30"],
        ),
        (
            "a foe that heals on a tie, 30 each",
            [*troll, "--foe", "F", "SKILL=9", "STAMINA=30", "--set", "SKILL=9", "--set", "STAMINA=30"],
        ),
        (
            "the same, --json (exact fractions)",
            [*troll, "--foe", "F", "SKILL=9", "STAMINA=30", "--set", "SKILL=9", "--set", "STAMINA=30", "--json"],
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the best ratio is kept (default 5)")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    print(
        f"Pack fights' exact odds as commands, ratio to `companion odds DC` in the same round (best of "
        f"{args.rounds}; target ≤ {RATIO_TARGET:.0f}x wall and < {MIB_TARGET} MiB); {os.cpu_count()} CPUs, "
        f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}:"
    )
    ok = True
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
        env.update(COMPANION_HOME=home, COMPANION_LOGS=home, NO_COLOR="1")
        for label, command in cases(Path(home)):
            best = None
            for _ in range(args.rounds):
                base, _mib, base_cpu = _timed([COMPANION, "odds", "DC"], env)
                took, mib, cpu = _timed([COMPANION, *command], env)
                if best is None or took / base < best[0]:
                    best = (took / base, took, mib, cpu / base_cpu, base)
            assert best is not None
            ratio, took, mib, cpu, base = best
            good = ratio <= RATIO_TARGET and mib < MIB_TARGET
            ok &= good
            print(
                f"  {label:<40} {ratio:5.2f}x wall {cpu:5.2f}x CPU  {took * 1000:6.0f} ms "
                f"(odds DC {base * 1000:4.0f} ms)  {mib:6.1f} MiB   {'ok' if good else 'OVER TARGET'}"
            )
    load = os.getloadavg()
    print(f"load after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
