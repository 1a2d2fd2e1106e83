"""``companion serve`` in a real browser at a phone's size (390x844): three games played by tapping only.

Each game is set up the same way in two homes. In one, ``companion serve`` runs and a headless
chromium taps the page's buttons (an option, "Roll for me", each die's face: the Dark Tower's ♥ and ★
too); in the other, the same answers are typed as ``next ANSWER`` lines (into one ``companion
shell``). Then ``status --json`` and the markdown log of both must be the same: a tap is the command
typed.

- an Inverted Tower room, rolled by the session's virtual dice ("Roll for me");
- a Haunted Tower fight, with physical dice (a face button per die);
- a Dark Tower turn, with physical Dark Tower dice (four dice: 1, 2, 3, ♥, ★ each);
- two pages at once stay in step (a tap on one shows on the other, pushed, without a reload).

Screenshots of every step are written to the test's folder; after a failure the message names it.
Skipped, with the reason, where chromium, its driver or selenium is missing (``.ci/run`` installs
Debian's chromium and chromium-driver as root).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.serve_browser import Phone, browser, missing, size
from tests.serve_support import companion, serve

pytestmark = [pytest.mark.slow, pytest.mark.skipif(bool(missing()), reason=missing() or "-")]


@pytest.fixture(scope="module")
def driver():
    d = browser()
    yield d
    d.quit()


def _run(home: Path, *args: str) -> str:
    done = companion(home, *args)
    assert done.returncode == 0, f"companion {' '.join(args)}: {done.stderr}"
    return done.stdout


def _normal(text: str, home: Path) -> str:
    text = text.replace(str(home), "HOME")
    text = re.sub(r'"(updated|created|started)": "[^"]*"', r'"\1": "…"', text)
    # the log's front matter: a time quoted (before #23's Obsidian dates) or not
    return re.sub(r"^(updated|created|started): .*$", r'\1: "…"', text, flags=re.M)


def _same_session(tapped: Path, typed: Path, name: str) -> None:
    for args in (("status", "--json"), ("log",)):
        a = _run(tapped, "--session", name, *args)
        b = _run(typed, "--session", name, *args)
        if args[0] == "status":
            a, b = json.dumps(json.loads(a), sort_keys=True), json.dumps(json.loads(b), sort_keys=True)
        assert _normal(a, tapped) == _normal(b, typed), args


def _homes(tmp_path: Path, setup: list[list[str]]) -> tuple[Path, Path]:
    homes = tmp_path / "tapped", tmp_path / "typed"
    for home in homes:
        for args in setup:
            _run(home, *args)
    return homes


def _play(
    phone: Phone,
    pick: Callable[[list[dict[str, str]]], str],
    stop: Callable[[Phone, int], bool],
    rng: random.Random,
    high: Callable[[str], bool | None] = lambda key: None,
    limit: int = 120,
) -> list[str]:
    """Tap through the steps until ``stop``: the answers tapped, in order."""
    for n in range(limit):
        step = phone.step()
        if not step["kind"] or stop(phone, n):
            return phone.taps
        assert not step["error"], step
        if step["kind"] == "choice":
            phone.choose(pick(phone.options()))
        elif step["kind"] == "roll":
            phone.roll_for_me() if phone.can_roll_for_me() else phone.faces(rng, high(step["key"]))
        elif step["kind"] == "number":
            phone.number(int(phone.js("return document.querySelector('form.faces button.face').value")))
        else:
            raise AssertionError(f"a step the page cannot answer by tapping: {step}")
        if n < 12:
            phone.shot(step["key"].replace(".", "-") or "step")
    raise AssertionError(f"no end after {limit} taps: {phone.taps}")


def _typed(home: Path, answers: list[str]) -> None:
    """The same answers typed as ``next ANSWER``, one line each, into one ``companion shell`` (the
    ``next`` command run as typed, without a Python start-up per answer)."""
    import subprocess
    import sys

    from tests.serve_support import companion_env

    lines = "".join(f"next -- {answer}\n" for answer in answers)
    done = subprocess.run(
        [sys.executable, "-m", "companion", "shell"],
        input=lines,
        capture_output=True,
        text=True,
        timeout=600,
        env=companion_env(home),
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "companion:" not in done.stderr, done.stderr[-2000:]  # no answer refused


def _tapping(driver, tmp_path, setup, name, pick, stop, *, seed=7, high=lambda key: None):
    tapped, typed = _homes(tmp_path, setup)
    served = serve(tapped)
    phone = Phone(driver, tmp_path)
    try:
        phone.open(served.url)
        phone.shot("start")
        answers = _play(phone, pick, stop, random.Random(seed), high)
        phone.shot("end")
    except Exception as exc:
        phone.shot("failed")
        raise AssertionError(f"{exc} (screenshots: {tmp_path})") from exc
    finally:
        served.stop()
    assert answers, "nothing was tapped"
    _typed(typed, answers)
    _same_session(tapped, typed, name)
    return phone, answers


def _by_value(*wanted: str, labels: tuple[str, ...] = ()) -> Callable[[list[dict[str, str]]], str]:
    def pick(options: list[dict[str, str]]) -> str:
        for w in wanted:
            for o in options:
                if o["value"] == w:
                    return o["number"]
        for w in labels:
            for o in options:
                if w in o["label"]:
                    return o["number"]
        return options[0]["number"]

    return pick


def test_an_inverted_tower_room_by_tapping_only(driver, tmp_path):
    setup = [["new", "inverted-tower", "--name", "room", "--seed", "4", "--hero", "Aria"]]

    def stop(phone: Phone, n: int) -> bool:
        return n > 0 and phone.step()["key"] == "turn"

    _, answers = _tapping(driver, tmp_path, setup, "room", _by_value(), stop)
    assert "roll" in answers  # the session's own dice, by "Roll for me"


def test_a_haunted_tower_fight_by_tapping_only(driver, tmp_path):
    setup = [["new", "haunted-tower", "--name", "fight", "--seed", "5", "--physical"]]
    for name, hp in (("Aria", 6), ("Bram", 7), ("Cael", 5)):
        setup.append(
            ["haunted", "hero", name, "--speed", "6", "--hp", str(hp), "--attack", "3", "--ac", "5", "--ability", "-"]
        )
    setup += [["next", "start"], ["next", "7"], ["next", "3"], ["next", "5"]]
    seen = {"fight": False}

    def stop(phone: Phone, n: int) -> bool:
        fight = bool(phone.js("return !!document.querySelector('.board .fight')"))
        seen["fight"] = seen["fight"] or fight
        return seen["fight"] and not fight

    pick = _by_value("fight", "Aria", "attack", "gargoyle", "blue", labels=("Basilisk", "Aria"))

    # The heroes hit hard and the monster misses (the faces a player would be glad of): a short fight.
    def high(key: str) -> bool | None:
        return True if "hero" in key and "attack" in key else False if "monster" in key else None

    _, answers = _tapping(driver, tmp_path, setup, "fight", pick, stop, high=high)
    assert seen["fight"] and any(" " not in a and a.isdigit() for a in answers)


def test_a_dark_tower_turn_by_tapping_only(driver, tmp_path):
    setup = [
        ["new", "dark-tower", "--name", "turn", "--seed", "5", "--physical"],
        ["dark", "card", "hero", "Rogue", "--health", "8", "--bonus", "1,1,2"],
        ["dark", "card", "item", "Sword", "--class", "weapon", "--bonus", "2"],
        ["dark", "card", "item", "Mail", "--class", "armor", "--bonus", "1", "--single"],
        ["dark", "card", "obstacle", "Pit", "--check", "5", "--damage", "2", "--penalty", "1"],
    ]
    for answer in ("en", "table", "Ana", "=clan-champion", "=add", "Bo", "=rogue", "=done", "=sword", "=mail"):
        setup.append(["next", "--", answer])
    setup += [["next", "=+none"], ["next", "=ready"], ["next", "1"]]

    def stop(phone: Phone, n: int) -> bool:
        return n > 0 and phone.step()["key"] == "turn.card"

    _, answers = _tapping(driver, tmp_path, setup, "turn", _by_value("obstacle", "pit", "end"), stop)
    rolled = [a for a in answers if len(a.split()) > 1]  # several Dark Tower dice, a face each
    assert rolled, answers
    faces = {f for a in rolled for f in a.split()}
    assert faces <= {"1", "2", "3", "heart", "star"}


def test_two_pages_stay_in_step(driver, tmp_path):
    home = tmp_path / "home"
    _run(home, "new", "inverted-tower", "--name", "two", "--seed", "4", "--hero", "Aria")
    served = serve(home)
    tablet = None
    phone = Phone(driver, tmp_path, "phone")
    try:
        tablet_driver = browser(820, 1180)
        tablet = Phone(tablet_driver, tmp_path, "tablet")
        phone.open(served.url)
        tablet.open(served.url)
        # A tap on the phone shows on the tablet: its version and the answer's line in its log.
        phone.choose("1")
        wanted = phone.version
        tablet.wait(lambda d: tablet.version == wanted)
        assert "Aria: +1 STR" in tablet.text("section.log")
        assert tablet.js("return performance.getEntriesByType('navigation').length") == 1  # no reload
        # And the other way: gold +1 on the tablet shows on the phone.
        tablet.plus("counter:gold")
        wanted = tablet.version
        phone.wait(lambda d: phone.version == wanted)
        assert "1" in phone.text('form.control:has(input[value="counter:gold"]) .value')
        phone.shot("after")
        tablet.shot("after")
    except Exception as exc:
        phone.shot("failed")
        if tablet is not None:
            tablet.shot("failed")
        raise AssertionError(f"{exc} (screenshots: {tmp_path})") from exc
    finally:
        if tablet is not None:
            tablet.driver.quit()
        served.stop()
    log = _run(home, "--session", "two", "log")
    assert "Aria: +1 STR" in log and "Gold: 1" in log


def test_the_page_at_390_and_1280_px(driver, tmp_path):
    """Screenshots to look at, and what a thumb needs: no sideways scroll, targets of 44 px or more."""
    home = tmp_path / "home"
    _run(home, "new", "haunted-tower", "--name", "look", "--seed", "5", "--physical")
    served = serve(home)
    phone = Phone(driver, tmp_path, "look")
    try:
        phone.open(served.url)
        for width, height in ((390, 844), (1280, 900), (360, 740)):
            size(driver, width, height)
            phone.driver.refresh()
            phone.wait(lambda d: d.execute_script("return !!document.getElementById('state')"))
            phone.shot(f"{width}")
            wide = phone.js("return document.documentElement.scrollWidth")
            assert wide <= width, (width, wide)
            small = phone.js(
                "return Array.prototype.filter.call(document.querySelectorAll('button, a.face, summary, input,"
                " textarea'), function (e) { var r = e.getBoundingClientRect();"
                " return r.width > 0 && (r.height < 44 || r.width < 44); }).map(function (e) {"
                " return e.outerHTML.slice(0, 80); });"
            )
            assert small == [], (width, small)
    except Exception as exc:
        phone.shot("failed")
        raise AssertionError(f"{exc} (screenshots: {tmp_path})") from exc
    finally:
        size(driver, 390, 844)
        served.stop()
