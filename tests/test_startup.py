"""One-shot commands stay light: the heavy or interactive libraries are not imported by them.

Each case runs the real entry point (``python -X importtime -m companion ...``) in a fresh process
and reads the modules it imported from the import-time report, so nothing here depends on what the
test process itself has already imported. See docs/startup.md.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: Packages that must never load on the one-shot path when no session is active.
#: jinja2, markupsafe, pygal and markdown_it belong to the html export alone (docs/log-format.md);
#: starlette, uvicorn (and its h11 and anyio) and segno to ``companion serve`` alone (docs/serve.md).
FORBIDDEN = (
    "questionary",
    "prompt_toolkit",
    "tinydb",
    "numpy",
    "pydantic",
    "jinja2",
    "markupsafe",
    "pygal",
    "markdown_it",
    "starlette",
    "uvicorn",
    "h11",
    "anyio",
    "segno",
)


def imported_modules(args: list[str], home) -> tuple[set[str], subprocess.CompletedProcess]:
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_SESSION"}
    env["COMPANION_HOME"] = str(home)
    env["COMPANION_LOGS"] = str(home / "logs")
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    modules = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "package":  # the report's header line
                modules.add(name)
    return modules, proc


@pytest.mark.parametrize("args", [["roll", "2d6"], ["roll", "DC", "--got", "5"], ["--version"], ["odds", "DC"]])
def test_one_shot_commands_do_not_import_heavy_packages(args, isolated_home):
    modules, proc = imported_modules(args, isolated_home)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "companion.cli.app" in modules  # the report was read: our own modules are in it
    loaded = sorted({m.split(".")[0] for m in modules} & set(FORBIDDEN))
    assert loaded == [], f"companion {' '.join(args)} imported {loaded}"


def test_the_import_report_would_show_a_forbidden_import(isolated_home):
    """Guard for the test above: a module imported at start-up does show up in the report."""
    env = dict(os.environ, COMPANION_HOME=str(isolated_home))
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import questionary"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert any(line.rstrip().endswith("| questionary") for line in proc.stderr.splitlines())
