"""Shared test fixtures: an isolated data folder and log folder for every test."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# One Hypothesis profile for the whole suite. These machines are shared and busy: no deadline and no
# too_slow check anywhere, and on CI (CI=true) a fixed seed (derandomize) so a run can be repeated.
settings.register_profile(
    "companion",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "ci",
    parent=settings.get_profile("companion"),
    derandomize=True,
    print_blob=True,
)
settings.load_profile("ci" if os.environ.get("CI") else "companion")


def pytest_configure(config) -> None:
    """Compile companion's modules once, before the workers start. Hundreds of tests run companion as
    a process; where the environment says PYTHONDONTWRITEBYTECODE=1 (as on CI), Python would compile
    every module it imports from source again in each of them (about a tenth of the suite's time).
    compileall writes the bytecode caches regardless; the processes then only read them."""
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the controller has done it
        return
    import compileall
    from pathlib import Path

    import companion

    compileall.compile_dir(Path(companion.__file__).parent, quiet=1)  # a read-only install: nothing written


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch):
    """No test touches the real user data folder, the repository's logs/, or an active session."""
    home = tmp_path / "home"
    logs = tmp_path / "logs"
    monkeypatch.setenv("COMPANION_HOME", str(home))
    monkeypatch.setenv("COMPANION_LOGS", str(logs))
    monkeypatch.setenv("COMPANION_STATE", str(tmp_path / "state"))  # the shell's history
    monkeypatch.delenv("COMPANION_SESSION", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    # pytest-xdist's workers run with COLUMNS=80 and LINES=24 in their environment; a pseudo-terminal
    # test that copies os.environ would then see 80 columns whatever size it gives its terminal.
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
    # English unless a test asks for a language: the machine's locale chooses nothing here.
    for var in ("COMPANION_LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    from companion import i18n

    i18n.activate(None)
    yield home
    i18n.activate(None)
