"""A table printed into a pipe keeps every value whole (no "2026-12-01T10:4…")."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.helpers import cli


def test_sessions_piped_keeps_names_and_dates(isolated_home):
    name = "a very long session name that would not fit eighty columns"
    assert cli("new", "inverted-tower", "--name", name).exit_code == 0
    env = dict(os.environ, COLUMNS="60")
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "sessions"], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert "…" not in proc.stdout
    row = next(line for line in proc.stdout.splitlines() if line.startswith("*"))
    assert "a-very-long-session-name-that-would-not-fit-eighty-columns" in row
    assert "inverted-tower" in row
    # the whole timestamp, seconds and zone included
    assert any(len(word) == 20 and word.endswith("Z") and word[10] == "T" for word in row.split())
