"""What a table pack costs a one-shot roll: ``roll DR room`` from a pack vs ``roll 2d6``, in one run.

Run it with the project's virtual environment (standard library only; it is not a test):

    .venv/bin/python benchmarks/table_packs.py            # 30 rounds

The pack (examples/tables/sunken-crypt.toml) sits in the player's tables folder, so every roll reads
and checks it, as a player's roll does. Rounds are interleaved and shuffled as in startup.py, and the
figures are ratios to ``python -c pass`` and to ``roll 2d6`` measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from startup import companion_script, run_once

PACK = Path(__file__).resolve().parent.parent / "examples" / "tables" / "sunken-crypt.toml"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="rounds (default 30)")
    args = parser.parse_args()
    script = str(companion_script())
    cmds = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "companion roll 2d6": [script, "roll", "2d6"],
        "companion roll DR room --got 1": [script, "roll", "DR", "room", "--got", "1"],
        "companion odds DR monster": [script, "odds", "DR", "monster"],
    }
    order = random.Random(0)
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as home:
        (Path(home) / "tables").mkdir()
        shutil.copy(PACK, Path(home) / "tables")
        env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_") and k != "PYTHONDONTWRITEBYTECODE"}
        env.update(COMPANION_HOME=home, NO_COLOR="1", PYTHONPYCACHEPREFIX=str(Path(home) / "pycache"))
        for argv in cmds.values():
            run_once(argv, env)
        times: dict[str, list[float]] = {name: [] for name in cmds}
        for _ in range(args.rounds):
            names = list(cmds)
            order.shuffle(names)
            for name in names:
                times[name].append(run_once(cmds[name], env))
    base = statistics.median(times["python -c pass"])
    roll = statistics.median(times["companion roll 2d6"])
    print(f"table packs, {args.rounds} interleaved rounds, {os.cpu_count()} CPUs")
    print(f"{'command':<34}{'median':>9}{'x pass':>9}{'x roll 2d6':>12}")
    for name, values in times.items():
        med = statistics.median(values)
        print(f"{name:<34}{med * 1000:>7.1f}ms{med / base:>8.2f}x{med / roll:>11.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
