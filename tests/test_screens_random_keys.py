"""Each of the five games, played for 200 random keypresses (seeded) at 80 columns in a pseudo-terminal.

The screen is rendered by pyte with its whole scroll-back. The test fails on a traceback, on a word
the terminal broke across two lines, or on a message cut at the screen's edge. A game that ends (or
a key that quits) is resumed with ``companion play``, or a new session is started, until the 200
keys are pressed.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.terminal import (
    BACKSPACE,
    DOWN,
    ENTER,
    TRACEBACK,
    UP,
    Terminal,
    broken_words,
    edge_problems,
    prepare,
    terminal_env,
)

pytestmark = pytest.mark.e2e

GAMES = ("inverted-tower", "talisman", "haunted-tower", "dragons-den", "dark-tower")
#: What a new player presses, weighted: mostly Enter and arrows, some dice and numbers, the keys
#: the prompts explain (undo, help, dice), and a few wrong ones. ``q`` quits and is pressed rarely.
KEYS = (
    (ENTER, 34),
    (DOWN, 16),
    (UP, 5),
    ("1", 4),
    ("3", 4),
    ("6", 4),
    ("9", 2),
    (" ", 2),
    ("u", 3),
    ("?", 2),
    ("x", 2),
    ("a", 2),
    ("v", 1),
    ("p", 1),
    ("q", 1),
    (BACKSPACE, 2),
    ("-", 1),
    ("=", 1),
)
PRESSES = 200


def new_session(env: dict[str, str], game: str, n: int) -> None:
    prepare(env, "new", game, "--seed", str(n), "--name", f"g{n}")


@pytest.mark.parametrize("game", GAMES)
def test_random_keys_at_80_columns(game, tmp_path):
    env = terminal_env(tmp_path, 80, 24)
    rng = random.Random(f"{game}-12")
    keys, weights = zip(*KEYS, strict=True)
    sessions = 1
    new_session(env, game, sessions)
    transcripts: list[tuple[list[str], str]] = []
    term = Terminal(env, "play")
    term.ready()
    pressed = 0
    starts = 0
    try:
        while pressed < PRESSES:
            key = rng.choices(keys, weights)[0]
            pressed += 1
            if term.key(key):
                continue
            # The process ended: a quit, or the game is over. Keep its screen, then go on.
            term.finish()
            transcripts.append((term.all_lines(), term.raw))
            starts += 1
            assert starts < 60, "companion play keeps ending at once"
            if "The game is over" in term.raw:
                sessions += 1
                new_session(env, game, sessions)
            term = Terminal(env, "play")
            term.ready()
        term.settle()
        transcripts.append((term.all_lines(), term.raw))
    finally:
        term.kill()
    for lines, raw in transcripts:
        assert not TRACEBACK.search(raw), raw[-3000:]
        screen = "\n".join(line.rstrip() for line in lines)
        assert not broken_words(lines, 80), screen
        assert not edge_problems(lines, 80), "\n\n".join(edge_problems(lines, 80)) + "\n\nscreen:\n" + screen
