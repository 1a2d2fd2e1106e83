"""Regenerate the example dungeon logs in ``logs/`` from seeded, scripted sessions.

Each example is a list of real ``companion`` commands run in a throwaway data folder with a fixed
seed and ``SOURCE_DATE_EPOCH``, so the same code always writes the same log. CI regenerates them
(``tests/test_example_logs.py``) and fails if a committed log differs.

    python scripts/make_example_logs.py            # rewrite logs/*.md
    python scripts/make_example_logs.py OUT_DIR    # write them somewhere else
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EPOCH = "1764460800"  # 2025-11-30T00:00:00Z: fixed, so the front matter's timestamps never move


@contextlib.contextmanager
def _environment(work: Path) -> Iterator[None]:
    keys = {"COMPANION_HOME": str(work / "home"), "COMPANION_LOGS": str(work / "logs"), "SOURCE_DATE_EPOCH": EPOCH}
    saved = {k: os.environ.get(k) for k in [*keys, "COMPANION_SESSION", "NO_COLOR"]}
    os.environ.update(keys)
    os.environ.pop("COMPANION_SESSION", None)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def run(*args: str) -> None:
    """Run one companion command in-process; a failure stops the example loudly."""
    from companion.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    if code != 0:
        raise SystemExit(f"companion {' '.join(args)} failed ({code}): {err.getvalue().strip()}")


def freeform() -> str:
    """A table-top evening with the 1979 book and real dice beside companion: trackers and rolls."""
    run("new", "freeform", "--name", "freeform-example", "--seed", "1979", "--hero", "The party of four")
    run("tally", "add", "Adelhardt", "9", "--role", "paladin")
    run("tally", "add", "Krylla", "7", "--role", "rangeress")
    run("hp", "=5", "--max", "5")
    run("floor", "1")
    run("room", "1", "Trap (INT) (Failed)", "--state", "trap")
    run("roll", "SR", "STR,DEX,INT", "--why", "the kind of trap")
    run("roll", "DC", "--got", "3", "--why", "disarm the INT trap")
    run("hp", "-1", "--why", "the trap")
    run("room", "2", "Mob 1 (killed) Mob 2 (killed)", "--state", "cleared")
    run("roll", "DC", "--mod", "1", "--why", "attack Skeleton Warrior 1")
    run("roll", "DC", "--mod", "1", "--got", "1", "--why", "attack Skeleton Warrior 2")
    run("amend", "--reason", "the die had rolled under the book: it showed a 6", "--got", "6")
    run("xp", "+2")
    run("roll", "DR", "--why", "treasure")
    run("item", "dagger", "+1")
    run("tally", "add", "Ogre Mage", "4", "--monster")
    run("tally", "hit", "Ogre Mage", "2")
    run("tally", "hit", "Adelhardt", "4")
    run("talisman", "--left", "10", "--got", "4,3")
    run("roll", "3dt", "--got", "1,heart,star", "--why", "a Dark Tower pool, typed with symbols")
    run("note", "Krylla wants to go back to Room 2: companion roll DC decides if something wanders in.")
    return "freeform-example"


#: Example log file name (in logs/) → the function that plays it and returns the session's name.
EXAMPLES: dict[str, Callable[[], str]] = {
    "freeform-example.md": freeform,
}


def make(out_dir: Path, names: list[str] | None = None) -> list[Path]:
    """Play each example in a fresh temporary data folder and copy its log to ``out_dir``."""
    sys.path.insert(0, str(ROOT))
    written = []
    for filename, play in EXAMPLES.items():
        if names and filename not in names:
            continue
        with tempfile.TemporaryDirectory() as tmp, _environment(Path(tmp)):
            session = play()
            target = out_dir / filename
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(tmp) / "logs" / f"{session}.md", target)
            written.append(target)
    return written


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "logs"
    for path in make(out):
        print(path)
