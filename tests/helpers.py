"""Helpers shared by the session tests: run the CLI in-process, open sessions directly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from companion.cli.app import app


def cli(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Any:
    """Run ``companion ARGS`` through typer's CliRunner; stdout and stderr are kept apart."""
    return CliRunner().invoke(app, list(args), input=input, env=env)


def cli_json(*args: str) -> Any:
    result = cli(*args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def store(home: Path):  # noqa: ANN201
    from companion.store.sessions import Store

    return Store(home)


def open_session(home: Path, name: str, *, engine: bool = False):  # noqa: ANN201
    """Load a session from disk as a fresh process would (holding its lock only while loading)."""
    from companion.session.service import Session

    files = store(home).open(name)
    with files.locked():
        return Session.open(files, engine=engine)


def regenerated_log(home: Path, name: str) -> str:
    """The log rebuilt from the events alone, ignoring the snapshot."""
    from companion.session.service import Session

    files = store(home).open(name)
    with files.locked():
        session = Session.open(files)
        session.rebuild()
        return session.log_text()
