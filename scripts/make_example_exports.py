#!/usr/bin/env python3
"""Regenerate the example html export in ``logs/`` and give every seeded example session as an export source.

    python scripts/make_example_exports.py            # rewrite logs/inverted-tower-example.html
    python scripts/make_example_exports.py --check    # exit 1 if the committed page differs

The example sessions are the ones behind the markdown examples (scripts/make_example_logs.py), played
the same way with the same pinned clock: the Inverted Tower games folded in memory event by event,
the table-top and Adventure in the Dungeon sessions driven by real ``companion`` commands in a
throwaway data folder. ``sources()`` hands each one to the exports as a
:class:`companion.export.source.Source`; the tests make every format from them
(tests/test_export_formats.py). The page comes out the same byte for byte on every machine (CI
checks it: tests/test_example_logs.py style, in tests/test_export_html.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Callable, Iterator
from datetime import UTC
from pathlib import Path

from companion.export.source import Source
from companion.games import load
from companion.log.markdown import render
from companion.session.clock import now
from companion.session.fold import answer_event
from companion.session.state import Meta

ROOT = Path(__file__).resolve().parent.parent


def _logs_script():
    name = "make_example_logs"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "make_example_logs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


LOGS = _logs_script()


def tower_source(example) -> Source:
    """An Inverted Tower example, played to its end in memory, as an export source."""
    spec = load("inverted-tower")
    with LOGS.pinned_clock():
        meta = Meta(
            name=example.name,
            slug=example.name,
            game="inverted-tower",
            seed=example.seed,
            dice="virtual",
            variants=list(example.variants),
            created=now(),
            hero=example.hero,
        )
        events = []
        state = None
        for i, step in enumerate(LOGS.answers(example), 1):
            state, request, answer = step  # the same state object all along, played on to the end
            event = answer_event(request, answer)
            event["at"] = now()
            event["id"] = i
            events.append(event)
        assert state is not None
        title = spec.log_title or spec.title
        hero = spec.hero(state) if spec.hero else None
        return Source(meta, events, state, title, hero, render(state, title, hero))


def cli_source(play: Callable[[], None], session: str) -> Source:
    """A command-driven example, played in a throwaway data folder, read back as an export source."""
    from companion.session.service import Session
    from companion.store.sessions import Store

    folder = LOGS.played(play, session)  # played once per process, shared with the example log
    with LOGS.example_env(folder):
        files = Store(folder / "home").open(session)
        with files.locked():
            return Source.of(Session.open(files))


#: Every seeded example session (the name of its markdown log in logs/ → how to make its source).
SOURCES: dict[str, Callable[[], Source]] = {
    "freeform-example.md": lambda: cli_source(LOGS.freeform, "freeform-example"),
    "talisman-example.md": lambda: cli_source(LOGS.talisman, "talisman-example"),
    **{example.file: (lambda example=example: tower_source(example)) for example in LOGS.TOWER_EXAMPLES},
}

#: The example pages committed in logs/, and the session each is made from.
PAGES = {"inverted-tower-example.html": "inverted-tower-example.md"}


def sources() -> Iterator[tuple[str, Source]]:
    for name, make in SOURCES.items():
        yield name, make()


def page_text(source: Source) -> str:
    from companion.export.html import page
    from companion.export.moments import probe_for
    from companion.export.replay import replay

    with LOGS.pinned_clock():
        # In UTC, not the machine's zone: the committed page comes out the same everywhere.
        return page(source, replay(source.meta, source.events, probe_for(source.meta.game)), zone=UTC)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "logs", help="where to write (default: logs/)")
    parser.add_argument("--check", action="store_true", help="compare with the files instead of writing them")
    args = parser.parse_args(argv)
    status = 0
    for file, session in PAGES.items():
        text = page_text(SOURCES[session]())
        path = args.out / file
        if args.check:
            same = path.exists() and path.read_text(encoding="utf-8") == text
            print(f"{path}: {'up to date' if same else 'DIFFERS'}")
            status |= 0 if same else 1
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return status


if __name__ == "__main__":
    sys.exit(main())
