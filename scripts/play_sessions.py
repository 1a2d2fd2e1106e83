#!/usr/bin/env python3
"""Play a real session of every game through ``companion next``, export it, and photograph its page.

    python scripts/play_sessions.py OUT                 # every game: OUT/GAME/ (the session and its exports)
    python scripts/play_sessions.py OUT --game dragons-den --steps 400
    python scripts/play_sessions.py OUT --shots docs/export --top   # and the page at 390 and 1280 px (Chromium)

Each game is set up as a player would (the cards and heroes typed first where the game asks for
them), then every step is answered as ``companion next`` shows it, by a seeded player: an option the
game's script prefers (an attack, a room to enter), else the one the game stars, else one at random;
a roll with the virtual dice. A table pack's session fights its pack's fights round by round
(``fight round``, what the shell's Enter runs) and checks its trackers. The session then goes out in
every format (``export --format md, html, lonelog, json``), ``dice audit`` beside it; with ``--shots``
the page is laid out in headless Chromium at 390 and 1280 CSS px (the phone in an iframe: headless
Chromium opens no window under 500 px) and a screenshot of each kept, as ``GAME-390.png``.

The commands run in this process through typer's runner, in ``OUT/GAME/home`` and ``OUT/GAME/logs``.
``--stop-at KEY`` leaves a game waiting at the first step of that key (a Dragon's Den with its
dragon still face down, for instance).
"""

from __future__ import annotations

import argparse
import html
import json
import os
import random
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
KEEP = str(ROOT / "examples" / "tables" / "ashen-keep.toml")


@dataclass
class Script:
    """How a player plays one game: what they type first, and which options they like."""

    setup: list[list[str]]
    #: Answers given first, in order (the game's own setup questions).
    before: list[str] = field(default_factory=list)
    #: One-shot commands typed after ``before``.
    then: list[list[str]] = field(default_factory=list)
    #: Option values picked when offered, most wanted first (``attack:`` any value starting so).
    prefer: tuple[str, ...] = ()
    #: Option values never picked while another is offered.
    avoid: tuple[str, ...] = ("peek", "menu", "undo")
    #: How often the player takes the starred option over a wanted one or a random one.
    trust: float = 0.7
    #: Steps to answer at most.
    steps: int = 300
    #: For a table pack: (fight, foe) pairs fought round by round, and checks rolled between them.
    fights: list[tuple[str, str]] = field(default_factory=list)
    checks: list[list[str]] = field(default_factory=list)


HEROES = (("Aria", 6, 3, 5), ("Bram", 7, 2, 6), ("Cael", 5, 2, 6))
NO = ("--ability", "-")

SCRIPTS: dict[str, Script] = {
    "inverted-tower": Script([["new", "inverted-tower", "--name", "run", "--seed", "3", "--hero", "Ann"]]),
    "talisman": Script(
        [["new", "talisman", "--name", "run", "--seed", "2"]],
        ["suggested"],
        prefer=("fight",),
        avoid=("peek", "menu", "undo", "abandon"),
    ),
    "haunted-tower": Script(
        [
            ["new", "haunted-tower", "--name", "run", "--seed", "5"],
            *(
                ["haunted", "hero", name, "--speed", "6", "--hp", str(hp), "--attack", str(att), "--ac", str(ac), *NO]
                for name, hp, att, ac in HEROES
            ),
        ],
        ["start"],
        prefer=("fight", "attack", "blue"),
    ),
    "dragons-den": Script(
        [["new", "dragons-den", "--name", "run", "--seed", "7"]],
        ["=1", "=2", "=3", "=6", "=done", "virtual"],
        prefer=("hide", "attack:", "breath", "take:", "treasure:", "reveal", "lair", "move", "end"),
        trust=0.5,
        steps=420,
    ),
    "dark-tower": Script(
        [
            ["new", "dark-tower", "--name", "run", "--seed", "5"],
            ["dark", "card", "hero", "Rogue", "--health", "8", "--bonus", "1,1,2"],
            ["dark", "card", "item", "Sword", "--class", "weapon", "--bonus", "2"],
            ["dark", "card", "item", "Mail", "--class", "armor", "--bonus", "1", "--single"],
            ["dark", "card", "obstacle", "Pit", "--check", "5", "--damage", "2", "--penalty", "1"],
            ["dark", "card", "monster", "Skeleton", "--floor", "1", "--strength", "5"],
            ["dark", "card", "monster", "Troll", "--floor", "2", "--strength", "9"],
            ["dark", "card", "monster", "Lich", "--floor", "3", "--strength", "12"],
        ],
        ["en", "table", "Ann", "clan-champion", "add", "Bo", "rogue", "done", "sword", "1", "+none", "ready", "1"],
        prefer=("monster", "obstacle", "fight", "skeleton", "troll", "lich", "pit", "end"),
        steps=260,
    ),
    "freeform": Script(
        [["new", "freeform", "--name", "run", "--seed", "4", "--tables", KEEP, "--got", "3/3,3/4"]],
        fights=[("sword", "ghoul"), ("sword", "warden")],
        checks=[["roll", "check", "luck"], ["roll", "DR", "stair"], ["roll", "check", "skill"]],
    ),
}


def environment(root: Path) -> dict[str, str]:
    return {
        "COMPANION_HOME": str(root / "home"),
        "COMPANION_LOGS": str(root / "logs"),
        "COMPANION_STATE": str(root / "state"),
        "COLUMNS": "120",
        "NO_COLOR": "1",
        "TZ": "UTC",
    }


def run(root: Path, *args: str) -> Any:
    from typer.testing import CliRunner

    from companion import i18n
    from companion.cli.app import app

    i18n.activate(None)
    result = CliRunner().invoke(app, list(args), env=environment(root))
    i18n.activate(None)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def ok(root: Path, *args: str) -> str:
    result = run(root, *args)
    if result.exit_code != 0:
        raise SystemExit(f"companion {' '.join(args)}: {result.stderr or result.stdout}")
    return result.stdout


def answer(script: Script, step: dict[str, Any], rng: random.Random, numbers: list[int]) -> str:
    kind = step["kind"]
    if kind == "roll":
        return "roll"
    if kind == "number":
        lo, hi = step["lo"], step["hi"]
        numbers.append(0)
        return str(lo + (len(numbers) - 1) % (hi - lo + 1))
    if kind == "text":
        return "x"
    values = [o["value"] for o in step["options"]]
    usable = [v for v in values if v not in script.avoid] or values
    best = step.get("best")
    if best and best in usable and rng.random() < script.trust:
        return "=" + best
    for wanted in script.prefer:
        found = [v for v in usable if v == wanted or (wanted.endswith(":") and v.startswith(wanted))]
        if found and rng.random() < 0.85:
            return "=" + rng.choice(found)
    return "=" + rng.choice(usable)


def play(game: str, root: Path, *, steps: int | None = None, stop_at: str | None = None, seed: int = 1) -> int:
    """Play ``game`` under ``root``; how many steps were answered."""
    script = SCRIPTS[game]
    if root.exists():
        shutil.rmtree(root)
    for args in script.setup:
        ok(root, *args)
    if game == "freeform":
        return _pack(root, script)
    for typed in script.before:
        ok(root, "next", typed)
    for args in script.then:
        ok(root, *args)
    rng = random.Random(seed)
    numbers: list[int] = []
    answered = 0
    for _ in range(steps or script.steps):
        data = json.loads(ok(root, "next", "--json"))
        step = data.get("pending")
        if not step or data.get("done"):
            break
        if stop_at and step.get("key") == stop_at:
            break
        typed = answer(script, step, rng, numbers)
        result = run(root, "next", typed)
        if result.exit_code != 0:  # an option the table refuses now: take the first one offered
            values = [o["value"] for o in step.get("options", [])]
            if not values:
                raise SystemExit(f"{game}: next {typed}: {result.stderr or result.stdout}")
            ok(root, "next", "=" + values[0])
        answered += 1
    return answered


def _pack(root: Path, script: Script) -> int:
    """A table pack's fights, round by round, with checks between them."""
    from companion.session.service import Session
    from companion.store.sessions import Store

    done = 0
    for n, (fight, foe) in enumerate(script.fights):
        ok(root, "fight", "start", fight, "--foe", foe)
        for _ in range(60):
            files = Store(root / "home").open("run")
            with files.locked():
                if Session.open(files, engine=False).state.trackers.fight is None:
                    break
            ok(root, "fight", "round")
            done += 1
        ok(root, "section", str(10 * (n + 1)))
        for check in script.checks[n :: len(script.fights)]:
            ok(root, *check)
            done += 1
    return done


def export(root: Path) -> dict[str, Path]:
    files = {}
    for fmt, ext in (("md", "md"), ("html", "html"), ("lonelog", "lonelog.md"), ("json", "json")):
        path = root / "logs" / f"run.{ext}" if fmt != "md" else root / "logs" / "run.export.md"
        ok(root, "export", str(path), "--format", fmt)
        files[fmt] = path
    (root / "logs" / "audit.txt").write_text(ok(root, "dice", "audit"), encoding="utf-8")
    return files


# ---- the page in Chromium ---------------------------------------------------------------------------

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium(profile: Path, *args: str, url: str) -> subprocess.CompletedProcess:
    browser = next((p for name in BROWSERS if (p := shutil.which(name))), None)
    if browser is None:
        raise SystemExit("Chromium is not installed (Debian: apt-get install chromium)")
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
               "--hide-scrollbars", f"--user-data-dir={profile}", *args, url]  # fmt: skip
    env = {**os.environ, "HOME": str(profile)}
    return subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, stdin=subprocess.DEVNULL)


_HEIGHT = """
const frame = document.getElementById("page");
frame.addEventListener("load", () => {
  const body = frame.contentDocument.body;
  document.getElementById("out").textContent = String(Math.ceil(body.getBoundingClientRect().bottom) + 24);
});
"""


def shot(page: Path, width: int, png: Path, height: int | None = None) -> Path:
    """A screenshot of ``page`` laid out ``width`` CSS px wide (framed below 500 px), ``height`` tall
    (default: the whole page)."""
    import re

    png = png.resolve()
    work = png.parent / f".{png.stem}"
    work.mkdir(parents=True, exist_ok=True)
    text = page.read_text(encoding="utf-8")
    tall = height or 20000
    frame = work / "frame.html"
    frame.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"><style>html, body { margin: 0; background: #fff; }'
        " iframe { border: 0; display: block; }</style></head><body>"
        f'<iframe id="page" width="{width}" height="{tall}" srcdoc="{html.escape(text, quote=True)}"></iframe>'
        f'<pre id="out"></pre><script>{_HEIGHT}</script></body></html>',
        encoding="utf-8",
    )
    if height is None:
        dumped = chromium(work / "profile", "--virtual-time-budget=10000", "--dump-dom", url=frame.as_uri())
        found = re.search(r'<pre id="out">(\d+)</pre>', dumped.stdout)
        tall = int(found.group(1)) if found else 6000
        frame.write_text(frame.read_text(encoding="utf-8").replace('height="20000"', f'height="{tall}"'), "utf-8")
    window = f"--window-size={max(width, 500)},{tall}"
    chromium(work / "profile", "--virtual-time-budget=10000", window, f"--screenshot={png}", url=frame.as_uri())
    from PIL import Image

    with Image.open(png) as image:  # the frame sits at the left of a window of 500 px at least: keep the frame
        image.crop((0, 0, width, image.height)).convert("P", palette=Image.Palette.ADAPTIVE).save(png, optimize=True)
    shutil.rmtree(work, ignore_errors=True)
    return png


#: How much of a page's top docs/export/ keeps (--top): the summary, the run, the big moments, the dice.
TOP = {390: 3000, 1280: 2400}


def keep_top(png: Path, height: int) -> None:
    """Keep the top ``height`` px of the screenshot ``png``."""
    from PIL import Image

    with Image.open(png) as image:
        image.load()
        if image.height > height:
            image.crop((0, 0, image.width, height)).save(png, optimize=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--game", action="append", choices=sorted(SCRIPTS))
    parser.add_argument("--steps", type=int)
    parser.add_argument("--stop-at", help="leave the game waiting at the first step with this key")
    parser.add_argument("--seed", type=int, default=1, help="the player's choices (the dice have the game's seed)")
    parser.add_argument("--shots", type=Path, help="put screenshots of each page at 390 and 1280 px here")
    parser.add_argument("--tall", type=int, help="the screenshots' height in CSS px (default: the whole page)")
    parser.add_argument(
        "--top",
        action="store_true",
        help="keep each screenshot's top (3,000 px at 390, 2,400 at 1280), as docs/export/",
    )
    parser.add_argument("--no-export", action="store_true")
    args = parser.parse_args(argv)
    for game in args.game or list(SCRIPTS):
        root = args.out / game
        n = play(game, root, steps=args.steps, stop_at=args.stop_at, seed=args.seed)
        line = f"{game}: {n} steps"
        if not args.no_export:
            files = export(root)
            line += ", " + ", ".join(f"{fmt} {p.stat().st_size:,} B" for fmt, p in files.items())
            if args.shots:
                args.shots.mkdir(parents=True, exist_ok=True)
                for width in (390, 1280):
                    png = shot(files["html"], width, args.shots / f"{game}-{width}.png", args.tall)
                    if args.top:
                        keep_top(png, TOP[width])
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
