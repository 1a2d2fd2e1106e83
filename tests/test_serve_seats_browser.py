"""``companion serve``'s seats in real browsers (Debian's chromium, 390x844), each seat's page in a
browser of its own (its own cookies), as the players at a table hold their phones.

- a Dragon's Den round with two seats: the dragon player draws its dragon and hides it on its page,
  the heroes' page says whose step it is and has no button for it, never names the dragon, and ends
  its heroes' turns; then the dragon's turn is the dragon player's;
- the Haunted Tower with three seats, one a hero: only the seat whose step it is has its buttons;
- the timeline on the dragon player's and the heroes' pages: the heroes go back to an entry, the
  dragon player redoes it, every page says so, and the secret draw is named on neither;
- a page whose server stops and starts again (the same token file and port) shows its seat's table
  at once, with what changed meanwhile.

Screenshots of each page are written to the test's folder. Skipped where chromium, its driver or
selenium is missing (``.ci/run`` installs Debian's chromium and chromium-driver as root).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.serve_browser import Phone, browser, missing
from tests.serve_support import companion, doors, serve

pytestmark = [pytest.mark.slow, pytest.mark.skipif(bool(missing()), reason=missing() or "-")]

#: Sam and Jared enter the den; the chits are drawn by companion (the dragon in secret).
DEN = ["=2", "=7", "=done", "=virtual"]


@pytest.fixture(scope="module")
def drivers():
    made = [browser(390, 844) for _ in range(3)]
    yield made
    for d in made:
        d.quit()


def _run(home: Path, *args: str) -> str:
    done = companion(home, *args)
    assert done.returncode == 0, f"companion {' '.join(args)}: {done.stderr}"
    return done.stdout


def _phones(drivers, served, labels: list[str], shots: Path) -> dict[str, Phone]:
    """Each seat's page open in its own browser, at the address the server printed for it."""
    found = doors(served)
    phones = {}
    for driver, label in zip(drivers, labels, strict=False):
        driver.delete_all_cookies()
        phone = Phone(driver, shots, label.replace("seat ", "").lower())
        phone.open(found[label].url)
        phones[label] = phone
    return phones


def _buttons(phone: Phone) -> int:
    """How many answers to the step the page offers (options, "Roll for me", faces, a typed answer)."""
    return phone.js("return document.querySelectorAll('section.step form button').length")


def _waiting(phone: Phone) -> str:
    return phone.text("section.step p.waiting.other")


def _same(phones: dict[str, Phone], version: int) -> None:
    """Every page shows the table at ``version`` (pushed by its stream, without a reload)."""
    for phone in phones.values():
        phone.wait(lambda d, phone=phone: phone.version >= version)


def _shoot(phones: dict[str, Phone], what: str) -> None:
    for phone in phones.values():
        phone.js("window.scrollTo(0, 0);")
        phone.shot(what)


def test_a_dragons_den_round_with_two_seats(drivers, tmp_path):
    home = tmp_path / "home"
    _run(home, "new", "dragons-den", "--name", "den", "--seed", "1")
    for answer in DEN:
        _run(home, "next", "--", answer)
    served = serve(home)
    phones: dict[str, Phone] = {}
    try:
        phones = _phones(drivers, served, ["seat dragon", "seat heroes"], tmp_path)
        dragon, heroes = phones["seat dragon"], phones["seat heroes"]
        _shoot(phones, "draw")
        # The dragon and the two chits set aside: drawn in secret on the dragon player's page.
        for _ in range(3):
            assert "the dragon player is rolling" in _waiting(heroes)
            assert _buttons(heroes) == 0 and not heroes.can_roll_for_me()
            dragon.roll_for_me()
            _same(phones, dragon.version)
        assert "the dragon player is choosing" in _waiting(heroes) and _buttons(heroes) == 0
        hide = next(o["number"] for o in dragon.options() if o["value"] == "hide")
        dragon.choose(hide)
        _same(phones, dragon.version)
        name = _dragon(served)
        assert name in dragon.text("section.held")
        _shoot(phones, "hidden")
        # The heroes' turns: theirs to end; the dragon player's page waits, with no button for them.
        for _ in range(2):
            assert _buttons(dragon) == 0 and "the heroes are choosing" in _waiting(dragon)
            assert name.lower() not in heroes.driver.page_source.lower()
            end = next(o["number"] for o in heroes.options() if o["value"] == "end")
            heroes.choose(end)
            _same(phones, heroes.version)
        # The dragon's turn: the dragon player's, to its round's end (the heroes' step again).
        _shoot(phones, "dragon-turn")
        taps = 0
        while _buttons(heroes) == 0 and taps < 40:
            assert "the dragon player is" in _waiting(heroes)
            assert name.lower() not in heroes.driver.page_source.lower()
            if dragon.can_roll_for_me():
                dragon.roll_for_me()
            else:  # it keeps its dragon hidden and ends its turn
                dragon.choose(next(o["number"] for o in dragon.options() if o["value"] == "end"))
            _same(phones, dragon.version)
            taps += 1
        assert 0 < taps < 40 and _buttons(heroes) > 0 and _buttons(dragon) == 0
        _shoot(phones, "round")
    except Exception as exc:
        _shoot(phones, "failed")
        raise AssertionError(f"{exc} (screenshots: {tmp_path})") from exc
    finally:
        served.stop()


def _dragon(served) -> str:
    """The dragon's name, as the dragon seat's own JSON holds it."""
    import json

    status, body = doors(served)["seat dragon"].get("state.json")
    assert status == 200
    return json.loads(body)["state"]["game"]["dragon"]["name"]


def test_the_timeline_on_two_seats_pages_back_to_here_on_one_and_redo_on_the_other(drivers, tmp_path):
    home = tmp_path / "home"
    _run(home, "new", "dragons-den", "--name", "den", "--seed", "1")
    for answer in DEN:
        _run(home, "next", "--", answer)
    served = serve(home)
    phones: dict[str, Phone] = {}
    secret = "draw a dragon chit (12 in the cup) → drawn in secret"
    try:
        phones = _phones(drivers, served, ["seat dragon", "seat heroes"], tmp_path)
        dragon, heroes = phones["seat dragon"], phones["seat heroes"]
        dragon.roll_for_me()  # the dragon, drawn in secret on the dragon player's page
        _same(phones, dragon.version)
        name = _dragon(served)
        for phone in phones.values():  # the same timeline on both, the draw said and its dragon named on neither
            assert phone.text("section.timeline").splitlines()[-1].endswith(secret), phone.text("section.timeline")
        assert name.lower() not in heroes.driver.page_source.lower()
        # The heroes open the entry before the draw and go back to it (shared, as undo is).
        heroes.js(
            "arguments[0].scrollIntoView({block: 'center'});",
            heroes.driver.find_element("css selector", "section.timeline"),
        )
        heroes.js("var s = document.querySelectorAll('section.timeline summary'); s[s.length - 2].click();")
        button = heroes.text("section.timeline details[open] form.back button")
        assert button == "Back to here: take back the 1 action after it", button
        heroes.press("section.timeline details[open] form.back button")
        _same(phones, heroes.version)
        for phone in phones.values():
            assert f"the heroes undid: {secret}" in phone.text("section.step p.notice")
            assert phone.text("form.redo button") == f"Redo: {secret}"
        _shoot(phones, "back")
        dragon.press("form.redo button")
        _same(phones, dragon.version)
        for phone in phones.values():
            assert f"the dragon player redid: {secret}" in phone.text("section.step p.notice")
            assert phone.text("section.timeline").splitlines()[-1].endswith(secret)
        assert name.lower() not in heroes.driver.page_source.lower()
    except Exception as exc:
        _shoot(phones, "failed")
        raise AssertionError(f"{exc} (screenshots: {tmp_path})") from exc
    finally:
        served.stop()


def test_the_haunted_tower_with_three_seats(drivers, tmp_path):
    home = tmp_path / "home"
    _run(home, "new", "haunted-tower", "--name", "tower", "--seed", "5")
    for hero, hp in (("Aria", 6), ("Bram", 7), ("Cael", 5)):
        stats = ("--speed", "6", "--hp", str(hp), "--attack", "3", "--ac", "5", "--ability", "-")
        _run(home, "haunted", "hero", hero, *stats)
    _run(home, "next", "start")
    served = serve(home)
    phones: dict[str, Phone] = {}
    try:
        labels = ["seat Aria", "seat Bram", "seat Cael"]
        phones = _phones(drivers, served, labels, tmp_path)
        _shoot(phones, "start")
        alone: set[str] = set()  # the seats that had a step to themselves
        fought: set[str] = set()
        for _ in range(40):
            able = [label for label, phone in phones.items() if _buttons(phone) > 0]
            assert able, "no seat can answer the step"
            if len(able) == 1:
                alone.add(able[0])
                for label, phone in phones.items():
                    if label != able[0]:
                        assert _waiting(phone).endswith(("is choosing", "is rolling")), (label, _waiting(phone))
            phone = phones[able[0]]
            if phone.can_roll_for_me():
                phone.roll_for_me()
            elif phone.step()["kind"] == "choice":
                options = phone.options()
                fight = [o for o in options if o["value"] in ("fight", "attack")]
                phone.choose((fight or options)[0]["number"])
            else:
                break
            _same(phones, phone.version)
            if len(alone) == 3 and fought:
                break
            if phone.js("return !!document.querySelector('.board .fight')") and len(able) == 1:
                fought.add(able[0])  # a fight's step, its seat's alone
                _shoot(phones, "fight")
        _shoot(phones, "end")
        assert len(alone) == 3, f"only {alone} ever had a step to itself"
        assert fought, "no fight step was one seat's"
    except Exception as exc:
        _shoot(phones, "failed")
        raise AssertionError(f"{exc} (screenshots: {tmp_path})") from exc
    finally:
        served.stop()


def test_a_seats_page_shows_its_table_at_once_after_the_server_restarts(drivers, tmp_path):
    home = tmp_path / "home"
    _run(home, "new", "dragons-den", "--name", "den", "--seed", "1")
    for answer in DEN:
        _run(home, "next", "--", answer)
    keep = tmp_path / "serve.token"
    served = serve(home, "--token-file", str(keep))
    port = served.port
    phones: dict[str, Phone] = {}
    try:
        phones = _phones(drivers, served, ["seat heroes"], tmp_path)
        heroes = phones["seat heroes"]
        before = heroes.version
        served.stop()
        # While it is down, the laptop notes something (the session is free again).
        _run(home, "note", "the lantern goes out")
        served = serve(home, "--token-file", str(keep), port=str(port))
        started = time.monotonic()
        heroes.wait(lambda d: "the lantern goes out" in heroes.text("section.log"))
        took = time.monotonic() - started
        assert heroes.version != before
        assert heroes.js("return performance.getEntriesByType('navigation').length") == 1  # no reload
        print(f"back within {took:.2f} s of the server's first line")
        assert took < 10  # a second asked for, 0.1 to 0.2 s measured: ten times for a loaded machine
        heroes.shot("back")
    except Exception as exc:
        _shoot(phones, "failed")
        raise AssertionError(f"{exc} (screenshots: {tmp_path})") from exc
    finally:
        served.stop()
