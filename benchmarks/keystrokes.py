"""Keys a player presses for the same moves, three ways: shell bare answers, shell full commands, guided play.

Scripted moves with typed (physical) dice, each from the same start, in every game (issue #33):

- a Haunted Tower fight (a hero meets a monster, the initiative, the attacks to the end);
- a Dark Tower turn (an obstacle drawn, its check, the end of the turn);
- an Inverted Tower room (the room's roll, the encounter, the fight, the treasure);
- a Dragon's Den round with a fight (a room entered, the Carrion Crawler struck twice and striking back),
  a breath on two heroes with their saves, and taking a treasure (the chits drawn by companion);
- the Adventure in the Dungeon at the table (the Ogre Mage's area, the fight with every roll's faces
  typed, the Talisman roll after the kill);
- a table pack's fight (the Ashen Keep's Iron warden, three rounds). A pack has no guided play: its bare
  lines are compared with the fewest keys any front end could take, the faces and Enter.

First the moves are played one step at a time through ``companion next ANSWER`` (the reference). Then
the same answers are given three ways, each on a session of its own made the same way, and each
session must end exactly as the reference did (``status --json``):

- **shell, bare answers**: ``companion shell`` with bare lines, each line and its Enter counted: a
  menu's number (1-9) or key, a room's number, the faces (``53`` for two dice where that is no total);
  a line holds one answer after another (``ro 4``, ``61``) and ends after a roll's faces (the player
  looks at the dice before deciding again);
- **shell, full commands**: ``companion shell`` with ``next ANSWER`` lines, counted the same way;
- **guided play**: ``companion play`` in a pseudo-terminal, the keys sent counted as they are sent:
  a number key for a menu (no Enter), the faces and Enter at a roll, ``y`` and Enter where it asks
  "Go on anyway?".

A draw companion makes from a cup it keeps (the Dragon's Den's chits) costs no key anywhere: the shell
and guided play make it at once.

    .venv/bin/python benchmarks/keystrokes.py [--json] [--only NAME]

``--json`` prints a list of ``{"move", "game", "shell_bare", "guided", ...}``. The target (issues #21,
#33): bare answers cost at most 1.5x guided play's keys, in every move.
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
    """What a player types for the option: its number (1-9, one key), else its key (the letters that stay
    the same while the table changes, ``next --json`` gives them), else the start of its label (two letters
    or more) where that picks it alone."""
    if index < 9:
        return str(index + 1)
    key = options[index].get("key")
    if key:
        return key
    label = options[index]["label"]
    for k in range(2, min(len(label), 12) + 1):
        word = label[:k].lower()
        if not word.isalpha() or word in commands or word in SHELL:
            continue
        hits = [o for o in options if o["label"].lower().startswith(word) or o["value"].lower().startswith(word)]
        if len(hits) == 1 and hits[0] is options[index] and not re.fullmatch(r"\d*d\d+|dc|dr|ec|sr", word):
            return word
    return str(index + 1)


def bare_lines(steps: list[Step]) -> list[str]:
    """The bare lines a player types at the shell: one step's answer after another on a line (``ro 4``: the
    room, then its number; ``61``: option 6, then 1, as the shell reads a line against each step in
    turn), the line ending after the faces of a physical roll (the player looks at the dice before the
    next decision). A draw companion makes is no answer at all."""
    lines: list[str] = []
    line, joins = "", False
    for step in steps:
        if step.virtual:
            continue
        token = step.bare
        if line and joins and token.isdigit():
            line += token  # 6, then 1: 61
        else:
            line += (" " if line else "") + token
        joins = step.request["type"] == "choice" and token.isdigit()
        if step.request["type"] == "roll":
            lines.append(line)
            line, joins = "", False
    if line:
        lines.append(line)
    return lines


def bare_faces(faces: list[int], total_ok: bool) -> str:
    spread = " ".join(map(str, faces))
    if len(faces) < 2 or any(f > 9 for f in faces) or total_ok:
        return spread
    return "".join(map(str, faces))


class Step:
    def __init__(self, request: dict, answer: str, bare: str, options: int = 0, index: int = 0) -> None:
        self.request, self.answer, self.bare, self.options, self.index = request, answer, bare, options, index
        #: A draw companion makes from a cup it keeps: every front end makes it at once, no key pressed.
        self.virtual = bool(request.get("virtual"))


def reference(env: dict[str, str], pick: Callable[[dict], int], stop: Callable[[dict, dict], bool], rng: random.Random,
              commands: set[str], number: Callable[[dict], int] | None = None,
              limit: int = 200) -> list[Step]:  # fmt: skip
    steps: list[Step] = []
    for _ in range(limit):
        data = json.loads(companion(env, "next", "--json"))
        status = json.loads(companion(env, "status", "--json"))
        request = data["request"]
        if request is None or stop(status, request):
            return steps
        if request["type"] == "roll" and request.get("virtual"):
            step = Step(request, "roll", "")
        elif request["type"] == "roll":
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
            options = (data.get("pending") or {}).get("options") or request["options"]
            step = Step(request, str(i + 1), bare_choice(options, i, commands), len(request["options"]), i)
        elif request["type"] == "number":
            n = number(request) if number is not None else request["lo"]
            step = Step(request, str(n), str(n))
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
    """A number key (1-9) picks at once; past nine, the label's first letter until the option is reached
    (a letter moves to the next option starting with it), then Enter; the faces (as short as the shell
    takes them) or a number, and Enter."""
    if step.request["type"] == "choice":
        if step.index < 9:
            return str(step.index + 1)
        labels = [o["label"].lower() for o in step.request["options"]]
        first = labels[step.index][:1]
        return first * (1 + sum(1 for label in labels[: step.index] if label.startswith(first))) + "\r"
    if step.request["type"] == "roll":
        return step.bare + "\r"  # the faces as the shell takes them (53 for two dice where it is no total)
    return step.answer + "\r"


def guided(env: dict[str, str], steps: list[Step]) -> int:
    play = Play(env)
    for step in steps:
        if step.virtual:
            continue  # guided play makes the draw at once
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

    return {
        "name": "Haunted Tower fight",
        "game": "haunted-tower",
        "setup": setup,
        "before": before,
        "stop": stop,
        "pick": pick,
    }


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

    return {
        "name": "Dark Tower turn",
        "game": "dark-tower",
        "setup": setup,
        "before": before,
        "stop": stop,
        "pick": pick,
    }


def tower() -> dict:
    setup = [["new", "inverted-tower", "--name", "move", "--seed", "4", "--physical", "--hero", "Aria"]]
    before = ["=STR"]

    def stop(status: dict, request: dict) -> bool:
        return request["key"] == "turn"

    def pick(request: dict) -> int:
        return 0

    return {
        "name": "Inverted Tower room",
        "game": "inverted-tower",
        "setup": setup,
        "before": before,
        "stop": stop,
        "pick": pick,
    }


def planned(plan: list[str]) -> Callable[[dict], int]:
    """Pick the options of ``plan`` (the start of a value each) in turn, the next one when it is offered;
    at any other menu the turn's end where it has one, else the first option."""
    queue = list(plan)

    def pick(request: dict) -> int:
        values = [o["value"] for o in request["options"]]
        if queue:
            hit = next((i for i, v in enumerate(values) if v.startswith(queue[0])), None)
            if hit is not None:
                queue.pop(0)
                return hit
        return values.index("end") if "end" in values else 0

    return pick


def after(key: str, then: str) -> Callable[[dict, dict], bool]:
    """Stop at the step ``then`` once a step ``key`` was met (the move is over when its menu is back)."""
    seen = {"key": False}

    def stop(status: dict, request: dict) -> bool:
        if request["key"].startswith(key):
            seen["key"] = True
            return False
        return seen["key"] and request["key"] == then

    return stop


#: The Dragon's Den, two heroes (Jared and Sam), physical dice, the chits drawn by companion.
DEN = [["new", "dragons-den", "--name", "move", "--seed", "1", "--physical"]]
DEN_BEFORE = ["2", "7", "done", "virtual", "=hide"]


def den_round() -> dict:
    """A round with a fight: Sam enters room 4 (a Carrion Crawler) and strikes it, Jared strikes it, the
    Crawler strikes back at Sam (the dragon player's turn), to the next round."""
    plan = ["reveal", "attack:carrion-crawler", "end", "attack:carrion-crawler", "end", "monster-attack",
            "carrion-crawler", "sam", "end"]  # fmt: skip

    def stop(status: dict, request: dict) -> bool:
        return request.get("prompt", "").startswith("Round 2")

    return {"name": "Dragon's Den round", "game": "dragons-den", "setup": DEN, "before": DEN_BEFORE, "stop": stop,
            "pick": planned(plan), "number": lambda request: 4}  # fmt: skip


def den_breath() -> dict:
    """The dragon breathes on both heroes, each saving with the die (the dragon player's turn)."""
    return {"name": "Dragon's Den breath", "game": "dragons-den", "setup": DEN,
            "before": [*DEN_BEFORE, "=end", "=end"], "stop": after("dd.breath", "dd.menu"),
            "pick": planned(["breath", "sam", "jared", "done"])}  # fmt: skip


def den_treasure() -> dict:
    """Sam takes the treasure in the room he entered."""
    return {"name": "Dragon's Den treasure", "game": "dragons-den", "setup": DEN,
            "before": [*DEN_BEFORE, "=reveal", "4"], "stop": after("dd.take", "dd.menu"),
            "pick": planned(["take", "T"])}  # fmt: skip


def adventure() -> dict:
    """The Adventure in the Dungeon at the table, physical dice: the party enters the Ogre Mage's area and
    fights it to the end, each roll's faces typed, the Talisman roll after the kill included."""
    return {"name": "Adventure Ogre Mage", "game": "talisman",
            "setup": [["new", "talisman", "--name", "move", "--seed", "2", "--physical"]], "before": ["suggested"],
            "stop": after("round.", "area.enter"), "pick": planned(["4", "wait"])}  # fmt: skip


KEEP = str(Path(__file__).resolve().parent.parent / "examples" / "tables" / "ashen-keep.toml")


def pack_fight() -> dict:
    """A table pack's fight (the Ashen Keep's Iron warden), physical dice: three rounds, each its four
    faces. A pack has no guided play: the shell's bare line is compared with the fewest keys any front end
    could take for it, the faces and Enter."""
    setup = [["new", "freeform", "--name", "move", "--seed", "7", "--physical", "--tables", KEEP, "--got", "3/3,3/4"],
             ["fight", "start", "sword", "--foe", "warden"]]  # fmt: skip
    return {"name": "Pack fight, 3 rounds", "game": "freeform (table pack)", "setup": setup, "rounds": 3,
            "measure": measure_pack}  # fmt: skip


def measure_pack(move: dict, base: Path, rng: random.Random, names: set[str]) -> dict:
    envs = {}
    for way in ("reference", "bare", "full"):
        home = base / way
        env = dict(os.environ, COMPANION_HOME=str(home / "home"), COMPANION_LOGS=str(home / "logs"),
                   COMPANION_STATE=str(home / "state"))  # fmt: skip
        for args in move["setup"]:
            companion(env, *args)
        envs[way] = (env, home)
    rounds = [[rng.randint(1, 6) for _ in range(4)] for _ in range(move["rounds"])]
    for faces in rounds:
        companion(envs["reference"][0], "fight", "round", "--got", f"{faces[0]},{faces[1]}/{faces[2]},{faces[3]}")
    bare = piped(envs["bare"][0], ["".join(map(str, faces)) for faces in rounds])
    full = piped(envs["full"][0], [f"fight round --got {f[0]},{f[1]}/{f[2]},{f[3]}" for f in rounds])
    want = state(*envs["reference"])
    for way in ("bare", "full"):
        if state(*envs[way]) != want:
            raise SystemExit(f"{move['name']}: {way} did not end where companion fight round did")
    least = sum(len(f) + 1 for f in rounds)
    return {"move": move["name"], "game": move["game"], "steps": len(rounds), "shell_bare": bare, "shell_full": full,
            "guided": least, "compared_with": "the faces and Enter (no guided play)"}  # fmt: skip


def settle(env: dict[str, str]) -> None:
    """Make the draws companion makes from its own cups (as the shell and guided play make them at once)."""
    for _ in range(20):
        request = json.loads(companion(env, "next", "--json"))["request"]
        if request is None or request["type"] != "roll" or not request.get("virtual"):
            return
        companion(env, "next", "roll")


def commands() -> set[str]:
    from companion.cli.app import root_command

    root = root_command()
    return set(root.list_commands(root.make_context("companion", ["--help"], resilient_parsing=True)))


def measure(move: dict, base: Path, rng: random.Random, names: set[str]) -> dict:
    envs = {}
    for way in ("reference", "bare", "full", "guided"):
        home = base / way
        env = dict(os.environ, COMPANION_HOME=str(home / "home"), COMPANION_LOGS=str(home / "logs"),
                   COMPANION_STATE=str(home / "state"))  # fmt: skip
        for args in move["setup"]:
            companion(env, *args)
        for answer in move["before"]:
            companion(env, "next", answer)
            settle(env)
        envs[way] = (env, home)
    steps = reference(envs["reference"][0], move["pick"], move["stop"], rng, names, move.get("number"))
    keys = {
        "bare": piped(envs["bare"][0], bare_lines(steps)),
        "full": piped(envs["full"][0], [f"next {s.answer}" for s in steps if not s.virtual]),
        "guided": guided(envs["guided"][0], steps),
    }
    want = state(*envs["reference"])
    for way in keys:
        if state(*envs[way]) != want:
            raise SystemExit(f"{move['name']}: {way} did not end where companion next did")
    return {"move": move["name"], "game": move["game"], "steps": len([s for s in steps if not s.virtual]),
            "shell_bare": keys["bare"], "shell_full": keys["full"], "guided": keys["guided"],
            "compared_with": "guided play"}  # fmt: skip


MOVES = (haunted, dark, tower, den_round, den_breath, den_treasure, adventure, pack_fight)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="a list of {move, game, shell_bare, guided, ...}")
    parser.add_argument("--only", default="", help="the moves whose name contains this (e.g. Den)")
    args = parser.parse_args(argv)
    names = commands()
    rng = random.Random(21)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, make in enumerate(MOVES):
            move = make()
            if args.only.lower() in move["name"].lower():
                rows.append(move.get("measure", measure)(move, Path(tmp) / str(i), rng, names))
    load = os.getloadavg()
    worst = max((r["shell_bare"] / r["guided"] for r in rows), default=0.0)
    if args.json:
        print(json.dumps([{**r, "ratio": round(r["shell_bare"] / r["guided"], 2)} for r in rows], indent=1))
        return 0 if worst <= 1.5 else 1
    print(f"keys for the same moves with typed dice (load average {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f})")
    print(f"{'move':<24}{'steps':>6}{'shell bare':>12}{'shell full':>12}{'guided':>8}{'bare/guided':>13}")
    for r in rows:
        print(f"{r['move']:<24}{r['steps']:>6}{r['shell_bare']:>12}{r['shell_full']:>12}{r['guided']:>8}"
              f"{r['shell_bare'] / r['guided']:>12.2f}x")  # fmt: skip
    print(f"bare answers cost at most {worst:.2f}x guided play's keys (target: 1.5x)")
    return 0 if worst <= 1.5 else 1


if __name__ == "__main__":
    raise SystemExit(main())
