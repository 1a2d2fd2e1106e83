"""Make the format-2 saves in tests/data/v2/ (run once, with the code of commit ea5ecae).

Format 3 gives every journal line its check and the journal's header each sealed file's digest; a
format-2 session opens as it is and is written again as format 3 the first time a command opens it
under its lock. These saves were written by the format-2 code itself, so that is tested on what
players have on disk, not on a save imitated by hand:

    git worktree add /tmp/v2 ea5ecae && cd /tmp/v2 && python tests/data/make_v2_saves.py

(with the project's venv; the script writes into the checkout it is run from: copy tests/data/v2 back).
It plays two sessions through the real commands (in-process, with pinned timestamps) and keeps, for
each, what ``status --json`` and the regenerated log said under format 2 (``expected/``).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent / "v2"


def main() -> None:
    os.environ["SOURCE_DATE_EPOCH"] = "1764633600"
    os.environ.pop("COMPANION_SESSION", None)
    with tempfile.TemporaryDirectory() as tmp:
        home, logs = Path(tmp) / "home", Path(tmp) / "logs"
        os.environ["COMPANION_HOME"], os.environ["COMPANION_LOGS"] = str(home), str(logs)
        from typer.testing import CliRunner

        from companion.cli.app import app

        def cli(*args: str) -> str:
            result = CliRunner().invoke(app, list(args))
            if result.exit_code != 0:
                raise SystemExit(f"companion {' '.join(args)}: {result.stderr or result.stdout}")
            return result.stdout

        freeform(cli)
        tower(cli)
        shutil.rmtree(HERE, ignore_errors=True)
        (HERE / "expected").mkdir(parents=True)
        shutil.copytree(home / "sessions", HERE / "sessions")
        for slug in sorted(p.name for p in (home / "sessions").iterdir() if not p.name.startswith(".")):
            (HERE / "expected" / f"{slug}.status.json").write_text(cli("--session", slug, "status", "--json"))
            (HERE / "expected" / f"{slug}.md").write_text(cli("--session", slug, "export", "-"))
            (HERE / "expected" / f"{slug}.log-on-disk.md").write_bytes((logs / f"{slug}.md").read_bytes())
        for name in (".lock", ".owner"):
            for path in HERE.rglob(name):
                path.unlink()
        for folder in HERE.glob("sessions/*/checkpoints"):  # the newest two: the fixture stays small
            for path in sorted(folder.iterdir())[:-2]:
                path.unlink()
    print(f"written to {HERE}")


def freeform(cli) -> None:
    """About 570 actions: a sealed events file and a journal of 300 more, trackers of every kind, physical and
    amended rolls, a redo list."""
    cli("new", "freeform", "--name", "long-run", "--seed", "11", "--hero", "Aria")
    cli("tally", "add", "Adelhardt", "9", "--role", "paladin")
    cli("tally", "add", "Orc", "99", "--monster")
    cli("hp", "=10", "--max", "10")
    cli("floor", "1")
    for i in range(1, 125):
        cli("room", str(i % 12 + 1), f"Mob {i}", "--state", "cleared" if i % 3 else "seen")
        cli("roll", "2d6", "--why", f"search {i}")
        cli("roll", "DC+1", "--got", str(i % 6 + 1))
        if i % 2:
            cli("tally", "hit", "Orc")
        else:
            cli("tally", "hit" if i % 4 == 2 else "heal", "Adelhardt")
        if i % 5 == 0:
            cli("note", f"A note with *markup* and `code` #{i}")
        if i % 7 == 0:
            cli("gold", "+3")
            cli("item", "dagger", "+1")
        if i % 20 == 0:
            cli("floor", str(i // 20 + 1))
    cli("mode", "physical")
    cli("roll", "2d6", "--got", "1,1", "--why", "the trap")
    cli("amend", "--reason", "misread the die", "--got", "5,6", "--yes")
    cli("xp", "+2")
    cli("note", "the last thing")
    cli("undo")
    cli("undo")


def tower(cli) -> None:
    """A guided Inverted Tower game played through ``companion next`` for 40 answers."""
    cli("new", "inverted-tower", "--name", "tower", "--seed", "5")
    for _ in range(40):
        data = json.loads(cli("next", "--json"))
        if data["done"]:
            break
        request = data["request"]
        kind = request["type"]
        if kind == "text":
            cli("next", "Aria")
        elif kind == "choice":
            cli("next", "=" + request["options"][0]["value"])
        elif kind == "number":
            cli("next", str(request.get("lo", 1)))
        else:
            cli("next", "roll")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    main()
