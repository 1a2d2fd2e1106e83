"""The page's timeline in a real browser (issue 39): headless chromium at 390 and 1280 px, a gamebook's
session with a way left by ``section back``: the branch on the page's log, a tap on an action opens it
and offers "back to here", which takes back what came after (then Redo brings one back). No sideways
scroll, every target 44 px or more. The screenshots are kept in docs/serve/ when ``KEEP_SHOTS`` names
that folder (they were made so); the test writes its own to its folder."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.serve_browser import Phone, browser, missing, size
from tests.serve_support import companion, serve

pytestmark = [pytest.mark.slow, pytest.mark.skipif(bool(missing()), reason=missing() or "-")]


def _run(home: Path, *args: str) -> str:
    done = companion(home, *args)
    assert done.returncode == 0, f"companion {' '.join(args)}: {done.stderr}"
    return done.stdout


def _fits(phone: Phone, width: int) -> None:
    wide = phone.js("return document.documentElement.scrollWidth")
    assert wide <= width, (width, wide)
    small = phone.js(
        "return Array.prototype.filter.call(document.querySelectorAll('button, a.face, summary, input,"
        " textarea'), function (e) { var r = e.getBoundingClientRect();"
        " return r.width > 0 && (r.height < 44 || r.width < 44); }).map(function (e) {"
        " return e.outerHTML.slice(0, 80); });"
    )
    assert small == [], (width, small)


def test_back_to_here_on_a_phone_and_a_wide_screen(tmp_path):
    home = tmp_path / "home"
    _run(home, "new", "freeform", "--name", "book", "--seed", "5", "--physical")
    for args in (
        ("section", "1", "--note", "into the keep"),
        ("roll", "2d6", "--got", "3,4", "--why", "the gate's lock"),
        ("section", "52", "--note", "the cold stair"),
        ("section", "7", "--note", "a pit"),
        ("roll", "1d6", "--got", "1", "--why", "the fall"),
        ("section", "back", "2", "--note", "the other door"),
        ("note", "a draught from below"),
    ):
        _run(home, *args)
    served = serve(home)
    driver = browser()
    phone = Phone(driver, tmp_path, "timeline")
    keep = os.environ.get("KEEP_SHOTS")
    try:
        phone.open(served.url)
        log = phone.text("section.log")
        assert "tried: §52 → §7, went back" in log, log
        entries = phone.js(
            "return Array.prototype.map.call(document.querySelectorAll('section.timeline summary'),"
            " function (s) { return s.innerText; });"
        )
        assert entries[0].startswith("#1") and "§1" in entries[0] and entries[-1].startswith("#7"), entries
        assert not any("section " in e and "." in e.split(" ")[1] for e in entries)  # no internal key
        phone.js(
            "arguments[0].scrollIntoView({block: 'center'});",
            phone.driver.find_element("css selector", "section.timeline"),
        )
        phone.js("document.querySelectorAll('section.timeline summary')[1].click();")  # #2: the gate's lock
        phone.wait(
            lambda d: d.execute_script(
                "return document.querySelectorAll('section.timeline details[open]').length === 1"
            )
        )
        button = phone.text("section.timeline details[open] form.back button")
        assert button == "Back to here: take back the 5 actions after it", button
        _fits(phone, 390)
        shot = phone.shot("390-open")
        if keep:
            shutil.copy(shot, Path(keep) / "timeline-390.png")
        phone.press("section.timeline details[open] form.back button")
        entries = phone.js(
            "return Array.prototype.map.call(document.querySelectorAll('section.timeline summary'),"
            " function (s) { return s.innerText; });"
        )
        assert [e.split()[0] for e in entries] == ["#1", "#2"], entries
        assert phone.text("form.redo button").startswith("Redo: section §52: 'the cold stair'")
        _fits(phone, 390)
        size(driver, 1280, 900)
        phone.driver.refresh()
        phone.wait(lambda d: d.execute_script("return !!document.getElementById('state')"))
        _fits(phone, 1280)
        shot = phone.shot("1280")
        if keep:
            shutil.copy(shot, Path(keep) / "timeline-1280.png")
        phone.press("form.redo button")
        assert "#3" in phone.text("section.timeline")
    except Exception as exc:
        phone.shot("failed")
        raise AssertionError(f"{exc} (screenshots: {tmp_path})") from exc
    finally:
        driver.quit()
        served.stop()
    history = _run(home, "history")
    assert "#3  section §52: 'the cold stair'" in history and "Taken back after #2" in history
