"""Keys a player presses for the same moves, three ways: shell bare answers, shell full commands, guided play.

Three scripted moves with typed (physical) dice, each from the same start:

- a Haunted Tower fight (a hero meets a monster, the initiative, the attacks to the end);
- a Dark Tower turn (an obstacle drawn, its check, the end of the turn);
- an Inverted Tower room (the room's roll, the encounter, the fight, the treasure).

First the moves are played one step at a time through ``companion next ANSWER`` (the reference). Then
the same answers are given three ways, each on a session of its own made the same way, and each
session must end exactly as the reference did (``status --json``):

- **shell, bare answers**: ``companion shell`` with the bare lines (``45``, ``at``, ``3``), each
  line and its Enter counted;
- **shell, full commands**: ``companion shell`` with ``next ANSWER`` lines (what the shell took before
  it read bare answers), counted the same way;
- **guided play**: ``companion play`` in a pseudo-terminal, the keys sent counted as they are sent:
  a number key for a menu (no Enter), the faces and Enter at a roll, ``y`` and Enter where it asks
  "Go on anyway?".

    .venv/bin/python benchmarks/keystrokes.py

The target (issue #21): bare answers cost at most 1.5x guided play's keys.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pexpect

COMPANION = str(Path(sys.executable).with_name("companion"))
PASTE_ON, PASTE_OFF = "\x1b[?2004h", "\x1b[?2004l"
DRAWN = re.compile(r"\x1b\[\?7h\x1b\[0m(?:\x1b\[\?12l\x1b\[\?25h)?\Z")
DONE = re.compile(r"\x1b\[J\x1b\[\?7h\x1b\[0m(?:\x1b\[\?12l\x1b\[\?25h)?\Z")
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?")
#: Words a bare answer must not be (the shell's own and its short forms).
SHELL = {"exit", "quit", "help", "clear", "shell", "companion", "r", "h", "u", "s", "t", "n", "l", "p"}


def companion(env: dict[str, str], *args: str) -> str:
    result = subprocess.run([COMPANION, *args], env=env, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise SystemExit(f"companion {' '.join(args)}: {result.stderr.strip()}")
    return result.stdout


def state(env: dict[str, str], home: Path) -> str:
    status = json.loads(companion(env, "status", "--json"))
    status.pop("meta", None)
    return TIME.sub("T", json.dumps(status["state"], sort_keys=True).replace(str(home), "HOME"))


# ---- the reference: one step at a time through companion next -------------------------------------


def bare_choice(options: list[dict], index: int, commands: set[str]) -> str:
    """What a player types for the option: its number, or the start of its label (two letters or more)
    where that picks it alone and is shorter than the number."""
    label = options[index]["label"]
    for k in range(2, min(len(label), 12) + 1):
        word = label[:k].lower()
        if not word.isalpha() or word in commands or word in SHELL:
            continue
        hits = [o for o in options if o["label"].lower().startswith(word) or o["value"].lower().startswith(word)]
        if len(hits) == 1 and hits[0] is options[index] and not re.fullmatch(r"\d*d\d+|dc|dr|ec|sr", word):
            return word if len(word) < len(str(index + 1)) else str(index + 1)
    return str(index + 1)


def bare_faces(faces: list[int], total_ok: bool) -> str:
    spread = " ".join(map(str, faces))
    if len(faces) < 2 or any(f > 9 for f in faces) or total_ok:
        return spread
    return "".join(map(str, faces))


class Step:
    def __init__(self, request: dict, answer: str, bare: str, options: int = 0, index: int = 0) -> None:
        self.request, self.answer, self.bare, self.options, self.index = request, answer, bare, options, index


def reference(env: dict[str, str], pick: Callable[[dict], int], stop: Callable[[dict, dict], bool], rng: random.Random,
              commands: set[str], limit: int = 200) -> list[Step]:  # fmt: skip
    steps: list[Step] = []
    for _ in range(limit):
        data = json.loads(companion(env, "next", "--json"))
        status = json.loads(companion(env, "status", "--json"))
        request = data["request"]
        if request is None or stop(status, request):
            return steps
        if request["type"] == "roll":
            from companion.dice.expr import parse

            expr = parse(request["expr"])
            faces = [rng.randint(1, d.sides) for d in expr.dice]
            joined = "".join(map(str, faces))
            total_ok = (
                len(faces) > 1
                and expr.kind in ("sum", "talisman")
                and not expr.has_dt
                and int(joined) <= sum(d.sides for d in expr.dice)
            )
            step = Step(request, " ".join(map(str, faces)), bare_faces(faces, total_ok))
        elif request["type"] == "choice":
            i = pick(request)
            step = Step(request, str(i + 1), bare_choice(request["options"], i, commands), len(request["options"]), i)
        elif request["type"] == "number":
            step = Step(request, str(request["lo"]), str(request["lo"]))
        else:
            step = Step(request, "Aria", "Aria")
        companion(env, "next", *step.answer.split())
        steps.append(step)
    raise SystemExit("the scripted move did not end")


# ---- guided play in a pseudo-terminal ---------------------------------------------------------------


class Play:
    def __init__(self, env: dict[str, str]) -> None:
        self.child = pexpect.spawn(COMPANION, ["play"], env=env, dimensions=(40, 120), encoding="utf-8", timeout=60)
        self.child.delaybeforesend = None
        self.raw = ""
        self.keys = 0

    def read(self) -> None:
        with contextlib.suppress(pexpect.TIMEOUT):
            self.raw += self.child.read_nonblocking(1 << 20, timeout=5)

    def ready(self) -> None:
        deadline = time.monotonic() + 120
        while not (DRAWN.search(self.raw[-40:]) and not DONE.search(self.raw[-40:])
                   and self.raw.rfind(PASTE_ON) > self.raw.rfind(PASTE_OFF)):  # fmt: skip
            if time.monotonic() > deadline:
                raise SystemExit("guided play stopped answering:\n" + self.raw[-2000:])
            self.read()

    def send(self, keys: str) -> str:
        """Send ``keys`` at the prompt; what was printed until the next prompt."""
        self.ready()
        mark = len(self.raw)
        self.child.send(keys)
        self.keys += len(keys)
        deadline = time.monotonic() + 120
        while PASTE_OFF not in self.raw[mark:]:
            if time.monotonic() > deadline:
                raise SystemExit("guided play did not take " + repr(keys))
            self.read()
        self.ready()
        return self.raw[mark:]

    def close(self) -> None:
        self.ready()
        self.child.sendcontrol("d")
        self.child.expect(pexpect.EOF)
        self.child.wait()


def guided_keys(step: Step) -> str:
    if step.request["type"] == "choice":
        number = step.index + 1
        digits = str(number)
        return digits if number * 10 > step.options else digits + "\r"
    return step.answer + "\r"


def guided(env: dict[str, str], steps: list[Step]) -> int:
    play = Play(env)
    for step in steps:
        out = play.send(guided_keys(step))
        if "Go on anyway?" in out:
            play.send("y\r")
    play.close()
    return play.keys


def piped(env: dict[str, str], lines: list[str]) -> int:
    result = subprocess.run([COMPANION, "shell"], env=env, input="\n".join(lines) + "\n", capture_output=True,
                            text=True, timeout=600)  # fmt: skip
    if result.returncode != 0:
        raise SystemExit("the shell refused a line:\n" + result.stderr[-2000:])
    return sum(len(line) + 1 for line in lines)


# ---- the moves ------------------------------------------------------------------------------------


def haunted() -> dict:
    setup = [["new", "haunted-tower", "--name", "move", "--seed", "5", "--physical"]]
    for name, hp in (("Aria", 6), ("Bram", 7), ("Cael", 5)):
        setup.append(["haunted", "hero", name, "--speed", "6", "--hp", str(hp), "--attack", "3", "--ac", "5",
                      "--ability", "-"])  # fmt: skip
    before = ["start", "7", "3", "5"]  # play starts; who moves first
    seen = {"fight": False}

    def stop(status: dict, request: dict) -> bool:
        fight = status["state"]["game"]["fight"]
        seen["fight"] = seen["fight"] or fight is not None
        return seen["fight"] and fight is None

    def pick(request: dict) -> int:
        values = [o["value"] for o in request["options"]]
        for wanted in ("fight", "Aria", "attack", "gargoyle", "blue"):
            if wanted in values:
                return values.index(wanted)
        labels = [o["label"] for o in request["options"]]
        return next((i for i, label in enumerate(labels) if "Basilisk" in label or label.startswith("Aria")), 0)

    return {"name": "Haunted Tower fight", "setup": setup, "before": before, "stop": stop, "pick": pick}


def dark() -> dict:
    setup = [
        ["new", "dark-tower", "--name", "move", "--seed", "5"],
        ["dark", "card", "hero", "Rogue", "--health", "8", "--bonus", "1,1,2"],
        ["dark", "card", "item", "Sword", "--class", "weapon", "--bonus", "2"],
        ["dark", "card", "item", "Mail", "--class", "armor", "--bonus", "1", "--single"],
        ["dark", "card", "obstacle", "Pit", "--check", "5", "--damage", "2", "--penalty", "1"],
    ]
    before = ["en", "table", "Ana", "=clan-champion", "=add", "Bo", "=rogue", "=done", "=sword", "=mail", "=+none",
              "=ready", "1"]  # fmt: skip

    def stop(status: dict, request: dict) -> bool:
        return status["state"]["game"]["turns"] >= 2

    def pick(request: dict) -> int:
        values = [o["value"] for o in request["options"]]
        for wanted in ("obstacle", "pit", "end"):
            if wanted in values:
                return values.index(wanted)
        return 0

    return {"name": "Dark Tower turn", "setup": setup, "before": before, "stop": stop, "pick": pick}


def tower() -> dict:
    setup = [["new", "inverted-tower", "--name", "move", "--seed", "4", "--physical", "--hero", "Aria"]]
    before = ["=STR"]

    def stop(status: dict, request: dict) -> bool:
        return request["key"] == "turn"

    def pick(request: dict) -> int:
        return 0

    return {"name": "Inverted Tower room", "setup": setup, "before": before, "stop": stop, "pick": pick}


def commands() -> set[str]:
    from companion.cli.app import root_command

    root = root_command()
    return set(root.list_commands(root.make_context("companion", ["--help"], resilient_parsing=True)))


def measure(move: dict, base: Path, rng: random.Random, names: set[str]) -> tuple[str, int, int, int, int]:
    envs = {}
    for way in ("reference", "bare", "full", "guided"):
        home = base / way
        env = dict(os.environ, COMPANION_HOME=str(home / "home"), COMPANION_LOGS=str(home / "logs"),
                   COMPANION_STATE=str(home / "state"))  # fmt: skip
        for args in move["setup"]:
            companion(env, *args)
        for answer in move["before"]:
            companion(env, "next", answer)
        envs[way] = (env, home)
    steps = reference(envs["reference"][0], move["pick"], move["stop"], rng, names)
    keys = {
        "bare": piped(envs["bare"][0], [s.bare for s in steps]),
        "full": piped(envs["full"][0], [f"next {s.answer}" for s in steps]),
        "guided": guided(envs["guided"][0], steps),
    }
    want = state(*envs["reference"])
    for way in keys:
        if state(*envs[way]) != want:
            raise SystemExit(f"{move['name']}: {way} did not end where companion next did")
    return move["name"], len(steps), keys["bare"], keys["full"], keys["guided"]


def main() -> int:
    names = commands()
    rng = random.Random(21)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, move in enumerate((haunted(), dark(), tower())):
            rows.append(measure(move, Path(tmp) / str(i), rng, names))
    load = os.getloadavg()
    print(f"keys for the same moves with typed dice (load average {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f})")
    print(f"{'move':<22}{'steps':>6}{'shell bare':>12}{'shell full':>12}{'guided':>8}{'bare/guided':>13}")
    worst = 0.0
    for name, n, bare, full, play in rows:
        ratio = bare / play
        worst = max(worst, ratio)
        print(f"{name:<22}{n:>6}{bare:>12}{full:>12}{play:>8}{ratio:>12.2f}x")
    print(f"bare answers cost at most {worst:.2f}x guided play's keys (target: 1.5x)")
    return 0 if worst <= 1.5 else 1


if __name__ == "__main__":
    raise SystemExit(main())
