"""Shared by the export tests: the seeded example sessions as export sources, and page checks."""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session", autouse=True)
def examples_played_once(tmp_path_factory):
    """Under pytest-xdist, one worker plays each command-driven example (the Talisman's is 213
    commands) in the run's shared temporary folder and every other worker reads it there; a single
    process plays each once anyway. Import it into a test module that uses the examples."""
    shared = script().LOGS.SHARED_ENV
    if not os.environ.get("PYTEST_XDIST_WORKER") or shared in os.environ:
        yield
        return
    os.environ[shared] = str(tmp_path_factory.getbasetemp().parent / "examples")
    yield
    os.environ.pop(shared, None)


@functools.cache
def script():
    name = "make_example_exports"
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "make_example_exports.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@functools.cache
def source(name: str):
    """The example session behind logs/<name> (made once per test process; treat it as read-only)."""
    return script().SOURCES[name]()


@functools.cache
def replayed(name: str, odds: bool = False):
    """The example's events folded again step by step (``odds``: with the chance to win each fight,
    which The Adventure in the Dungeon computes exactly at every round: the slow part)."""
    from companion.export.moments import probe_for
    from companion.export.replay import replay

    src = source(name)
    return replay(src.meta, src.events, probe_for(src.meta.game) if odds else None)


def examples() -> list[str]:
    return sorted(script().SOURCES)


#: Attributes through which a page could make the browser fetch something.
FETCHING = ("src", "href", "srcset", "poster", "data", "action", "background", "{http://www.w3.org/1999/xlink}href")
_URL = re.compile(r"https?://|^//", re.I)


def fetched_resources(document) -> list[str]:
    """Every place in a parsed page (html5lib, etree) that would fetch from the network."""
    out = []
    for el in document.iter():
        for attr, value in el.attrib.items():
            if attr in FETCHING and _URL.search(value.strip()):
                out.append(f"{el.tag} {attr}={value}")
            if attr == "style" and re.search(r"url\(|@import", value, re.I):
                out.append(f"{el.tag} style={value}")
        if isinstance(el.tag, str) and el.tag.endswith("}style") and el.text:
            for m in re.finditer(r"url\(\s*['\"]?([^)'\"]*)|@import\s+['\"]?([^;'\"]*)", el.text, re.I):
                out.append(f"style {m.group(0)}")
    return out
