"""The example logs in logs/ are what the seeded example sessions write, byte for byte."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("make_example_logs", ROOT / "scripts" / "make_example_logs.py")
assert spec is not None and spec.loader is not None
make_example_logs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_example_logs)


@pytest.mark.parametrize("filename", sorted(make_example_logs.EXAMPLES))
def test_committed_example_log_is_regenerated_exactly(filename: str, tmp_path: Path) -> None:
    committed = ROOT / "logs" / filename
    assert committed.exists(), f"logs/{filename} is missing: run python scripts/make_example_logs.py"
    (made,) = make_example_logs.make(tmp_path, [filename])
    assert made.read_text(encoding="utf-8") == committed.read_text(encoding="utf-8"), (
        f"logs/{filename} differs from what the seeded example writes: run python scripts/make_example_logs.py"
    )
