"""A phone in a real browser: Debian's chromium driven through its own chromedriver (selenium), at a
phone's viewport, tapping the page's buttons as a thumb would.

Only what a player can do is done: open the address, tap a button or a die's face, type a note.
Each tap waits for the page to show its answer (the table's version changes), never for a time.
"""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "") if p and Path(p).exists()), "")
DRIVER = next((p for p in ("/usr/bin/chromedriver", shutil.which("chromedriver") or "") if p and Path(p).exists()), "")
#: How long a tap's answer may take on a loaded machine (a tap takes a tenth of a second idle).
WAIT = 60


def missing() -> str:
    """Why the browser tests cannot run here ("" when they can)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if not CHROMIUM:
        return "Chromium is not installed (Debian: apt-get install chromium; .ci/run installs it as root)"
    if not DRIVER:
        return "chromedriver is not installed (Debian: apt-get install chromium-driver; .ci/run installs it)"
    return ""


def browser(width: int = 390, height: int = 844) -> Any:
    """A headless chromium showing pages at ``width`` x ``height`` CSS px, as a phone does."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-renderer-backgrounding",
        "--disable-background-timer-throttling",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(WAIT)
    size(driver, width, height)
    return driver


def size(driver: Any, width: int, height: int) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )


@dataclass
class Phone:
    """One page in one browser, with the taps a player makes on it."""

    driver: Any
    shots: Path
    name: str = "phone"
    taps: list[str] = field(default_factory=list)
    _shot: int = 0

    def open(self, url: str) -> None:
        self.driver.get(url)
        self.wait(lambda d: d.execute_script("return !!document.getElementById('state')"))

    def wait(self, condition: Any) -> Any:
        from selenium.webdriver.support.ui import WebDriverWait

        return WebDriverWait(self.driver, WAIT, poll_frequency=0.05).until(condition)

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    @property
    def version(self) -> int:
        return int(self.js("return document.getElementById('state').getAttribute('data-version')"))

    def step(self) -> dict[str, str]:
        """The pending step as the page shows it: kind, key, actor and the question (empty when none)."""
        return self.js(
            "var s = document.querySelector('section.step'); var q = s.querySelector('.question');"
            "return {kind: s.getAttribute('data-kind') || '', key: s.getAttribute('data-key') || '',"
            " actor: s.getAttribute('data-actor') || '', text: q ? q.textContent : '',"
            " error: (s.querySelector('.error') || {}).textContent || ''};"
        )

    def text(self, selector: str) -> str:
        return self.js("var e = document.querySelector(arguments[0]); return e ? e.innerText : '';", selector)

    def shot(self, what: str) -> Path:
        self._shot += 1
        path = self.shots / f"{self.name}-{self._shot:03d}-{what}.png"
        self.driver.save_screenshot(str(path))
        return path

    def _click(self, element: Any) -> None:
        self.js("arguments[0].scrollIntoView({block: 'center'});", element)
        element.click()

    def press(self, selector: str) -> None:
        """Tap the button ``selector`` and wait for the page to show the table the tap left."""
        from selenium.webdriver.common.by import By

        before = self.version
        button = self.driver.find_element(By.CSS_SELECTOR, selector)
        assert button.is_displayed() and button.is_enabled(), selector
        self._click(button)
        self.wait(lambda d: self.version != before)

    # ---- the pending step ------------------------------------------------------------------------

    def options(self) -> list[dict[str, str]]:
        return self.js(
            "return Array.prototype.map.call(document.querySelectorAll('form.options button.option'),"
            " function (b) { return {number: b.value, value: b.getAttribute('data-value'),"
            " label: b.querySelector('.label').textContent}; });"
        )

    def choose(self, number: str) -> str:
        self.press(f'form.options button.option[value="{number}"]')
        self.taps.append(number)
        return number

    def roll_for_me(self) -> str:
        self.press('form.answer button[value="roll"]')
        self.taps.append("roll")
        return "roll"

    def can_roll_for_me(self) -> bool:
        return bool(self.js("return !!document.querySelector('form.answer button[value=\"roll\"]')"))

    def faces(self, rng: random.Random, high: bool | None = None) -> str:
        """Tap a face of every die in turn (an earlier die's face only marks it); the answer sent.
        ``high`` taps each die's highest face (True) or lowest (False), else one at random."""
        from selenium.webdriver.common.by import By

        def one(choices: list[Any]) -> Any:
            return rng.choice(choices) if high is None else choices[-1] if high else choices[0]

        while True:
            links = self.driver.find_elements(By.CSS_SELECTOR, "nav.faces a.face")
            if links:
                marked = len(self.driver.find_elements(By.CSS_SELECTOR, "p.chosen .die"))
                self._click(one(links))
                self.wait(lambda d, marked=marked: len(d.find_elements(By.CSS_SELECTOR, "p.chosen .die")) > marked)
                continue
            buttons = self.driver.find_elements(By.CSS_SELECTOR, "form.faces button.face")
            assert buttons, "a roll without face buttons"
            button = one(buttons)
            answer = button.get_attribute("value")
            before = self.version
            self._click(button)
            self.wait(lambda d, before=before: self.version != before)
            self.taps.append(answer)
            return answer

    def number(self, value: int) -> str:
        self.press(f'form.faces button.face[value="{value}"]')
        self.taps.append(str(value))
        return str(value)

    # ---- the table -------------------------------------------------------------------------------

    def plus(self, key: str) -> None:
        self.press(f'form.control:has(input[name="key"][value="{key}"]) button[value="plus"]')

    def minus(self, key: str) -> None:
        self.press(f'form.control:has(input[name="key"][value="{key}"]) button[value="minus"]')

    def note(self, text: str) -> None:
        from selenium.webdriver.common.by import By

        box = self.driver.find_element(By.ID, "note")
        self._click(box)
        box.send_keys(text)
        self.press("form.note button")

    def undo(self) -> str:
        label = self.text("form.undo button")
        self.press("form.undo button")
        return label
