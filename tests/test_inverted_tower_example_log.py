"""The example logs in logs/ are what scripts/make_example_logs.py makes, byte for byte."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from companion.log.markdown import render
from companion.session.fold import answer_event
from companion.session.service import Session
from companion.store.sessions import Store

ROOT = Path(__file__).resolve().parent.parent


def load_script():
    spec = importlib.util.spec_from_file_location("make_example_logs", ROOT / "scripts" / "make_example_logs.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def test_the_committed_example_logs_are_regenerated_byte_for_byte(tmp_path):
    script = load_script()
    # Only the tower's examples: tests/test_example_logs.py checks every file in logs/ (the talisman example
    # alone takes a third of this test's time, and was made twice).
    only = [arg for example in script.TOWER_EXAMPLES for arg in ("--only", example.file)]
    assert script.main(["--out", str(tmp_path), *only]) == 0
    assert {p.name for p in tmp_path.glob("*.md")} == {example.file for example in script.TOWER_EXAMPLES}
    for example in script.TOWER_EXAMPLES:
        made = (tmp_path / example.file).read_bytes()
        committed = (ROOT / "logs" / example.file).read_bytes()
        assert made == committed, f"logs/{example.file} drifted: run python scripts/make_example_logs.py"
    main = (ROOT / "logs" / "inverted-tower-example.md").read_text(encoding="utf-8")
    assert 'finished: "won"' in main and "Victory!" in main
    assert "## Floor 10" in main and "Necromancer's lair" in main
    variants = (ROOT / "logs" / "inverted-tower-example-variants.md").read_text(encoding="utf-8")
    assert 'variants:\n  - "elites-deal-2"\n  - "no-xp-farming"\n' in variants  # a YAML list: an Obsidian list


def test_the_scripts_in_memory_fold_writes_the_log_the_session_store_writes(tmp_path):
    """The script folds events in memory; a real session recording the same answers writes the same log."""
    script = load_script()
    example = script.TOWER_EXAMPLES[0]
    steps = 60
    with script.pinned_clock():
        session = Session.create(
            Store(tmp_path / "home"),
            example.name,
            "inverted-tower",
            seed=example.seed,
            physical=False,
            variants=list(example.variants),
            logs_dir=tmp_path / "logs",
            hero=example.hero,
        )
        played = script.answers(example)
        for _ in range(steps):
            _state, request, answer = next(played)
            with session.files.locked():
                session.record(answer_event(request, answer))
        state, _request, _answer = next(played)  # the in-memory state after the same answers
        spec = session.spec
        expected = render(state, spec.log_title or spec.title, spec.hero(state))
    assert session.log_text() == expected
    assert Path(session.meta.log_path).read_text(encoding="utf-8") == expected
