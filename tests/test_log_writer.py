"""The log file written by what changed is always the log rendered whole, step by step and undone.

Random plays of the log model (headings, lines opened, reopened, updated and closed, entries under
them and on their own, the trackers on the sheet) are written to a file step by step with
:func:`companion.log.writer.plan` and :func:`~companion.log.writer.write`; after every step the file
must be exactly :func:`companion.log.markdown.render` of the state, and undoing the step
(:func:`~companion.log.writer.reverse`) must give back the file as it was.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.log import model, writer
from companion.log.markdown import render
from companion.session.state import Meta, State
from companion.session.trackers import Tally

TITLE = "Test"


def fresh() -> State:
    return State(meta=Meta(name="w", slug="w", game="freeform", seed=1, dice="virtual"), updated="2026-01-01T00:00:00Z")


def roll(n: int) -> dict:
    return {"expr": "2d6", "dice": f"[{n % 6 + 1}] [3]", "total": n % 6 + 4, "outcome": "", "source": "virtual"}


def act(state: State, rng: random.Random, n: int) -> None:
    """One random change of the log (and sometimes of the sheet, the head or the end)."""
    log = state.log
    keys = [f"room-{k}" for k in range(8)]
    what = rng.randrange(12)
    if what == 0:
        log.heading(f"Floor {n} ünïcode ⟶")
    elif what in (1, 2):
        log.line(rng.choice(keys), f"Room {n}: " + "x" * rng.randrange(30))
    elif what == 3:
        log.update(rng.choice(keys), f"updated {n} ✓ " + "y" * rng.randrange(40))
    elif what == 4:
        log.close()
    elif what in (5, 6):
        log.roll(roll(n), event=n, under=rng.random() < 0.8)
    elif what == 7:
        log.note(f"note {n} *with* `marks`")
    elif what == 8:
        log.text(f"text {n}", under=rng.random() < 0.5)
    elif what == 9 and log.current is not None:
        log.entries[log.lines[log.current]]["t"] = f"changed in place {n}"  # as the Inverted Tower does
    elif what == 10:
        name = f"Hero{rng.randrange(3)}"
        state.trackers.tallies[name] = Tally(name, 9, rng.randrange(9), "", False)
    else:
        state.updated = f"2026-01-01T00:{n % 60:02d}:00Z"
        state.dice = rng.choice(["virtual", "physical"])
        state.finished = rng.choice([None, None, "won"])


def play(seed: int, steps: int, tmp: Path, undo_every: int = 3) -> None:
    rng = random.Random(seed)
    state = fresh()
    path = tmp / f"log-{seed}.md"
    data, layout = writer.full(state, TITLE, None)
    path.write_bytes(data)
    n = 0
    for step in range(steps):
        before = copy.deepcopy(state)
        before_bytes = path.read_bytes()
        for _ in range(rng.randrange(1, 4)):
            n += 1
            act(state, rng, n)
        done = writer.plan(layout, state, TITLE, None)
        writer.write(str(path), done)
        assert path.read_text() == render(state, TITLE), f"seed {seed}, step {step}"
        assert path.stat().st_size == done.layout.size
        if step % undo_every == 0:
            back = writer.reverse(done, before, TITLE, None)
            writer.write(str(path), back)
            assert path.read_bytes() == before_bytes, f"seed {seed}, undo of step {step}"
            redone = copy.deepcopy(state)
            redone.log.touched = set(redone.log.lines.values())  # the step again: its lines may change
            writer.write(str(path), writer.plan(back.layout, redone, TITLE, None))
            assert path.read_text() == render(state, TITLE), f"seed {seed}, redo of step {step}"
        layout = done.layout
        again, full_layout = writer.full(copy.deepcopy(state), TITLE, None)
        assert again == path.read_bytes()
        assert full_layout.dump() == layout.dump(), f"seed {seed}, step {step}: the layout drifted"


@pytest.mark.parametrize("seed", range(12))
def test_random_plays_write_the_whole_log(seed: int, tmp_path: Path) -> None:
    play(seed, 50, tmp_path)


@pytest.mark.parametrize("seed", range(6))
def test_lines_closed_and_used_again_write_the_whole_log(seed: int, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(model, "OPEN_LINES", 3)
    play(1000 + seed, 80, tmp_path, undo_every=2)


@settings(max_examples=20)
@given(seed=st.integers(0, 2**32), steps=st.integers(1, 30))
def test_any_play_writes_the_whole_log(seed: int, steps: int, tmp_path_factory) -> None:
    play(seed, steps, tmp_path_factory.mktemp("w"))


def test_a_closed_line_used_again_is_a_new_line_where_play_is(monkeypatch) -> None:
    monkeypatch.setattr(model, "OPEN_LINES", 2)
    log = model.Log()
    log.line("a", "Room A")
    log.line("b", "Room B")
    log.line("c", "Room C")  # a is closed now
    assert list(log.lines) == ["b", "c"]
    log.line("a", "Room A again")
    log.roll(roll(1))
    state = fresh()
    state.log = log
    text = render(state, TITLE)
    assert "- Room A\n- Room B\n- Room C\n- Room A again\n  - d:" in text


def test_the_line_in_play_is_never_closed(monkeypatch) -> None:
    monkeypatch.setattr(model, "OPEN_LINES", 2)
    log = model.Log()
    log.line("fight", "Fight")
    for k in range(5):
        log.update(f"other-{k}", "other")
    assert "fight" in log.lines
    log.roll(roll(2))
    assert log.entries[-1]["p"] == "fight"


def test_a_window_holds_the_open_lines_and_the_count_only() -> None:
    log = model.Log()
    for k in range(1000):
        log.roll(roll(k))
    log.mark = len(log.entries)  # the last event (as the fold marks it) opened a line and rolled under it
    log.line("x", "Room X")
    log.roll(roll(1))
    window = log.window()
    assert window["count"] == 1002 and len(window["lines"]) == 1 and len(window["recent"]) == 2
    loaded = model.Log.from_window(window)
    assert loaded.partial and len(loaded.entries) == 1002 and loaded.line_text("x") == "Room X"
    assert loaded.entries[:1000] == [None] * 1000 and loaded.entries[1000:] == log.entries[1000:]
