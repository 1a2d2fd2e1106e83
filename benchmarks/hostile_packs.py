"""What a hostile table pack costs (#22 item 11): each is refused, whole process, in about the time of
validating a good pack; and a folder full of them does not slow a roll on another pack.

Run it with the project's virtual environment (not a test; nothing here is asserted):

    .venv/bin/python benchmarks/hostile_packs.py            # 10 rounds

The packs are those of tests/hostile_packs.py (fan10.toml took 22.7 s for one roll, dfs6x4.toml 62 s
to validate, a pack of a million rows 35 s and 700 MB). Rounds are interleaved and shuffled, and the
figures are ratios to ``python -c pass`` and to validating examples/tables/sunken-crypt.toml, measured
in the same run.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from startup import companion_script  # noqa: E402

from tests.hostile_packs import HOSTILE, dfs, many_rows  # noqa: E402

PACK = ROOT / "examples" / "tables" / "sunken-crypt.toml"
CHOSEN = ("fan10", "fan20", "dfs6x4-twice", "chain-1000", "nested", "rows", "title", "dice", "escape-clipboard")


def run(argv: list[str], env: dict[str, str], code: int) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if proc.returncode != code:
        sys.exit(f"{' '.join(argv)} exited {proc.returncode}, not {code}: {proc.stderr.decode()[-500:]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="rounds (default 10)")
    args = parser.parse_args()
    script = str(companion_script())
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        tmp_path = Path(tmp)
        packs = tmp_path / "packs"
        packs.mkdir()
        for name in CHOSEN:
            (packs / f"{name}.toml").write_text(HOSTILE[name][0](), encoding="utf-8")
        (packs / "million.toml").write_text(many_rows(), encoding="utf-8")
        (packs / "dfs6x4.toml").write_text(dfs(6, 4), encoding="utf-8")
        clean, full = tmp_path / "clean", tmp_path / "full"
        for home in (clean, full):
            (home / "tables").mkdir(parents=True)
            shutil.copy(PACK, home / "tables")
        for pack in packs.iterdir():
            shutil.copy(pack, full / "tables")
        base_env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
        base_env.update(NO_COLOR="1", PYTHONPYCACHEPREFIX=str(tmp_path / "pycache"))
        env = {**base_env, "COMPANION_HOME": str(clean)}
        cmds: dict[str, tuple[list[str], dict[str, str], int]] = {
            "python -c pass": ([sys.executable, "-c", "pass"], env, 0),
            "validate sunken-crypt.toml": ([script, "tables", "validate", str(PACK)], env, 0),
            "validate dfs6x4.toml (valid)": ([script, "tables", "validate", str(packs / "dfs6x4.toml")], env, 0),
        }
        for name in (*CHOSEN, "million"):
            argv = [script, "tables", "validate", str(packs / f"{name}.toml")]
            cmds[f"validate {name}.toml (refused)"] = (argv, env, 2)
        roll = [script, "roll", "DR", "room", "--got", "1"]
        cmds["roll DR room, folder: the pack"] = (roll, env, 0)
        crowded = {**base_env, "COMPANION_HOME": str(full)}
        cmds[f"roll DR room, folder: + {len(CHOSEN) + 2} hostile"] = (roll, crowded, 0)
        for argv, e, code in cmds.values():
            run(argv, e, code)
        times: dict[str, list[float]] = {name: [] for name in cmds}
        order = random.Random(0)
        for _ in range(args.rounds):
            names = list(cmds)
            order.shuffle(names)
            for name in names:
                argv, e, code = cmds[name]
                times[name].append(run(argv, e, code))
    base = statistics.median(times["python -c pass"])
    good = statistics.median(times["validate sunken-crypt.toml"])
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"hostile packs, {args.rounds} interleaved rounds, {os.cpu_count()} CPUs, load {load:.1f}")
    print(f"{'command':<44}{'median':>9}{'x pass':>9}{'x a good pack':>15}")
    for name, values in times.items():
        med = statistics.median(values)
        print(f"{name:<44}{med * 1000:>7.0f}ms{med / base:>8.2f}x{med / good:>14.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
