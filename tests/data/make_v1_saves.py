"""Make the format-1 saves in tests/data/v1/ (run once, with the code of commit 1d3b34e).

The store's format 2 (the journal, checkpoints, the log written by what changed) migrates a format-1
save on open. These saves were written by the format-1 code itself, so the migration is tested on
what players have on disk, not on a save imitated by hand:

    git checkout 1d3b34e && python tests/data/make_v1_saves.py

It plays four sessions through the real commands (in-process, with pinned timestamps) and keeps, for
each, what ``status --json`` and the regenerated log said under format 1 (``expected/``).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent / "v1"


def main() -> None:
    os.environ["SOURCE_DATE_EPOCH"] = "1764633600"
    os.environ.pop("COMPANION_SESSION", None)
    with tempfile.TemporaryDirectory() as tmp:
        home, logs = Path(tmp) / "home", Path(tmp) / "logs"
        os.environ["COMPANION_HOME"], os.environ["COMPANION_LOGS"] = str(home), str(logs)
        from typer.testing import CliRunner

        from companion.cli.app import app

        def cli(*args: str, ok: bool = True) -> str | None:
            result = CliRunner().invoke(app, list(args))
            if result.exit_code != 0 and not ok:
                return None
            if result.exit_code != 0:
                raise SystemExit(f"companion {' '.join(args)}: {result.stderr or result.stdout}")
            return result.stdout

        freeform(cli)
        tower(cli)
        haunted(cli)
        shutil.rmtree(HERE, ignore_errors=True)
        (HERE / "expected").mkdir(parents=True)
        shutil.copytree(home / "sessions", HERE / "sessions")
        for slug in sorted(p.name for p in (home / "sessions").iterdir()):
            (HERE / "expected" / f"{slug}.status.json").write_text(cli("--session", slug, "status", "--json"))
            (HERE / "expected" / f"{slug}.md").write_text(cli("--session", slug, "export", "-"))
            (HERE / "expected" / f"{slug}.log-on-disk.md").write_bytes((logs / f"{slug}.md").read_bytes())
        for lock in HERE.rglob(".lock"):
            lock.unlink()
        for owner in HERE.rglob(".owner"):
            owner.unlink()
    print(f"written to {HERE}")


def freeform(cli) -> None:
    """300 actions over two events files, trackers of every kind, physical and amended rolls, a redo."""
    cli("new", "freeform", "--name", "long-run", "--seed", "11", "--hero", "Aria")
    cli("tally", "add", "Adelhardt", "9", "--role", "paladin")
    cli("tally", "add", "Orc", "3", "--monster")
    cli("hp", "=10", "--max", "10")
    cli("floor", "1")
    for i in range(1, 60):
        cli("room", str(i % 12 + 1), f"Mob {i}", "--state", "cleared" if i % 3 else "seen")
        cli("roll", "2d6", "--why", f"search {i}")
        cli("roll", "DC+1", "--got", str(i % 6 + 1))
        cli("tally", "hit", "Adelhardt" if i % 2 else "Orc")
        if i % 4 == 0:
            cli("tally", "heal", "Adelhardt")
        if i % 5 == 0:
            cli("note", f"A note with *markup* and `code` #{i}")
        if i % 7 == 0:
            cli("gold", "+3")
            cli("item", "dagger", "+1")
        if i % 10 == 0:
            cli("floor", str(i // 10 + 1))
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


def haunted(cli) -> None:
    """The Haunted Tower at the table, through its one-shot commands."""
    cli("new", "haunted-tower", "--name", "haunted", "--seed", "3")
    cli("haunted", "hero", "Aria", "--speed", "6", "--hp", "6", "--attack", "3", "--ac", "5", "--ability", "none")
    cli("haunted", "hero", "Bram", "--speed", "5", "--hp", "5", "--attack", "2", "--ac", "4", "--ability", "none")
    cli("haunted", "hero", "Cara", "--speed", "4", "--hp", "7", "--attack", "2", "--ac", "6", "--ability", "none")
    for hero, monster in (("Aria", "ghoul"), ("Bram", "giant rat"), ("Aria", "skeleton")):
        cli("haunted", "fight", hero, *monster.split())
        for _ in range(12):
            if cli("haunted", "attack", ok=False) is None and cli("haunted", "init", ok=False) is None:
                break


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    main()
