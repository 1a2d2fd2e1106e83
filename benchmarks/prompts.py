"""What one prompt costs in CPU time: with prompt_toolkit's default key bindings built for every
prompt (questionary's way) or once per process, and with the styles merged and looked up for every
prompt (prompt_toolkit's way) or once per process (both as ``companion.shell.prompts`` does).

Asks companion's own prompts (a menu through ``ask_choice``, a roll's faces through ``ask_faces``)
on a pipe, keys typed ahead, output thrown away: the work of drawing and answering a prompt, without
a terminal. Every way runs in the same process, alternating in rounds. Prints the median CPU time of
each and the ratios.

    .venv/bin/python benchmarks/prompts.py            # 200 prompts of each kind and way
    .venv/bin/python benchmarks/prompts.py --quick    # 30

Ratios are measured in one run on a shared machine; read them, not the absolute times.
"""

from __future__ import annotations

import argparse
import statistics
import time

from prompt_toolkit.application import application, create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.styles import style as styles

from companion.dice.expr import parse
from companion.dice.source import read_physical
from companion.engine.requests import choice
from companion.shell import prompts

MENU = choice("turn", "What now?", ("new", "Explore a new room"), ("back", "Go back"), ("rest", "Rest"))
SHARED = application.load_key_bindings
STOCK = SHARED.__wrapped__  # type: ignore[attr-defined]
SHARED_STYLE = styles._MergedStyle._merged_style
STOCK_STYLE = styles._MergedStyle._stock_merged_style  # type: ignore[attr-defined]

#: name → (key bindings, merged style)
WAYS = {
    "stock": (STOCK, STOCK_STYLE),
    "bindings once": (SHARED, STOCK_STYLE),
    "companion": (SHARED, SHARED_STYLE),
}


def menu() -> None:
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        inp.send_text("\x1b[B\r")
        assert prompts.ask_choice(MENU) == "back"


def faces() -> None:
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        inp.send_text("3 4\r")
        roll = prompts.ask_faces(parse("2d6"), 0, "", reader=read_physical)
        assert roll.total == 7, roll


def cpu(task) -> float:
    start = time.process_time()
    task()
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer prompts, for a smoke run")
    n = 30 if parser.parse_args().quick else 200
    times: dict[tuple[str, str], list[float]] = {}
    for task in (menu, faces):  # warm up: imports and first-use caches
        task()
    for _ in range(n // 10):
        for way, (loader, merging) in WAYS.items():
            application.load_key_bindings = loader
            styles._MergedStyle._merged_style = merging
            for task in (menu, faces):
                times.setdefault((task.__name__, way), []).extend(cpu(task) for _ in range(10))
    application.load_key_bindings, styles._MergedStyle._merged_style = WAYS["companion"]
    print(f"{n} prompts of each kind; median CPU ms per prompt")
    print("         stock  bindings once  +styles once (companion)   ratio stock/companion")
    for name in ("menu", "faces"):
        stock, bindings, both = (statistics.median(times[name, way]) * 1000 for way in WAYS)
        print(f"  {name:6} {stock:6.1f}  {bindings:13.1f}  {both:24.1f}   {stock / both:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
