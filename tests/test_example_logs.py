"""Every example log in logs/ is what its seeded example makes, byte for byte (CI fails on drift)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tests.export_support import examples_played_once  # noqa: F401 (a fixture: the examples played once a run)

ROOT = Path(__file__).resolve().parent.parent


def load_script():
    """The script as a module; the one already loaded if the export tests' script loaded it (it then
    shares the examples played, once per process)."""
    if "make_example_logs" in sys.modules:
        return sys.modules["make_example_logs"]
    spec = importlib.util.spec_from_file_location("make_example_logs", ROOT / "scripts" / "make_example_logs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


SCRIPT = load_script()


@pytest.mark.parametrize("filename", sorted(SCRIPT.LOGS))
def test_committed_example_log_is_regenerated_exactly(filename: str) -> None:
    committed = ROOT / "logs" / filename
    assert committed.exists(), f"logs/{filename} is missing: run python scripts/make_example_logs.py"
    assert SCRIPT.LOGS[filename]() == committed.read_text(encoding="utf-8"), (
        f"logs/{filename} differs from what its seeded example writes: run python scripts/make_example_logs.py"
    )


def test_every_log_in_logs_has_an_example_that_makes_it() -> None:
    committed = {p.name for p in (ROOT / "logs").glob("*.md")}
    assert committed == set(SCRIPT.LOGS)
