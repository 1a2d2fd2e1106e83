"""Shared test fixtures: an isolated data folder and log folder for every test."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch):
    """No test touches the real user data folder, the repository's logs/, or an active session."""
    home = tmp_path / "home"
    logs = tmp_path / "logs"
    monkeypatch.setenv("COMPANION_HOME", str(home))
    monkeypatch.setenv("COMPANION_LOGS", str(logs))
    monkeypatch.delenv("COMPANION_SESSION", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return home
