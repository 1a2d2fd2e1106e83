"""What the rules audit's regression tests share: a command as the player types it, and a refusal checked
the way the guide asks for it (one line, exit 2, no traceback, the session's actions unchanged)."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from companion.cli.app import app

runner = CliRunner()


def run(*args: str, code: int = 0) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
    return result


def js(*args: str) -> dict[str, Any]:
    return json.loads(run(*args, "--json").stdout)


def actions() -> int:
    """The active session's action count (its events), as ``companion status`` counts them."""
    return int(js("status")["events"])


def refused(*args: str, says: str) -> str:
    """Run a command that must be refused: one line on stderr saying ``says``, exit 2, nothing recorded."""
    before = actions()
    result = run(*args, code=2)
    err = result.stderr
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert says in err, (says, err)
    assert "Traceback" not in err and result.stdout == ""
    assert actions() == before
    return err
