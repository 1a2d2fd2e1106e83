"""Every game through every front end (issue 32): the contract kept, as a player sees it.

Each of the six games (five games and freeform with a table pack) is driven once, seeded, to a fight
and past it through ``companion next`` (freeform: the pack fight's own step), by
tests/every_game_support.py; the driven table is shared by this module's tests (and by the test
workers, through a lock), and a test that changes it works on its own copy. The same position is then
checked through each front end: ``status`` and ``status --json``, the markdown log, the html, Lonelog
and json exports, ``dice audit``, the page (the serve app's table in this process: its step, its
buttons, the live update it pushes), the shell in a real terminal (its bar and a bare answer), and
undo's words. Each check asserts what a player would see:

- a secret is absent (the Dragon's Den's dragon, face down, is named nowhere);
- the ★ is the option with the highest chance shown, running away included (the contract's rule: a
  win within a point of an escape is starred over it), and each chance compared is the one shown;
- the step is fresh after a hand command;
- the bar shows every figure with its health;
- no internal key (a request's key such as ``fight.hero-attack``, an option's value such as
  ``attack:giant-rat``) is in any text a player reads.

A new game or a new front end fails this file until it keeps the contract. A check that belongs to a
later issue is marked ``xfail(strict=True)`` with that issue: it fails the day it passes.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.every_game_support import GAMES, SCRIPTS, copy_of, drive, environment, ok, run, session

# ---- the driven tables -------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=GAMES)
def game(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="module")
def driven(game: str, tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> tuple[Path, dict[str, Any]]:
    """The game driven to a fight and past it, once for the whole run (the workers share it)."""
    from filelock import FileLock

    base = tmp_path_factory.getbasetemp()
    base = base if worker_id == "master" else base.parent
    folder = base / "every-game"
    folder.mkdir(exist_ok=True)
    root, record = folder / game, folder / f"{game}.json"
    with FileLock(str(folder / f"{game}.lock")):
        if not record.exists():
            shutil.rmtree(root, ignore_errors=True)
            root.mkdir()
            record.write_text(json.dumps(drive(game, root)), encoding="utf-8")
    return root, json.loads(record.read_text(encoding="utf-8"))


@pytest.fixture
def table(driven: tuple[Path, dict[str, Any]], tmp_path: Path) -> Path:
    """This test's own copy of the driven table (to change, and to hold its lock)."""
    return copy_of(driven[0], tmp_path / "table")


@pytest.fixture
def mid_fight(driven: tuple[Path, dict[str, Any]], tmp_path: Path) -> Path:
    """This test's own copy of the table as the drive kept it in the fight (the hand-command step)."""
    kept = driven[0].with_name(f"{driven[0].name}.mid")
    assert kept.exists(), f"the drive kept the table at {SCRIPTS[driven[1]['game']].hand_at}"
    return copy_of(kept, tmp_path / "mid")


@pytest.fixture
def at_table(table: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's copy, made the process's own folders (the page's taps run commands in this process)."""
    for key, value in environment(table).items():
        if key.startswith("COMPANION_"):
            monkeypatch.setenv(key, value)
    return table


@pytest.fixture
def record(driven: tuple[Path, dict[str, Any]]) -> dict[str, Any]:
    return driven[1]


# ---- what a player reads -------------------------------------------------------------------------------


class _Words(HTMLParser):
    """The text of an html page as a reader sees it (no markup, no scripts or styles, no attributes)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("script", "style") and self._skip > 0

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def visible(page: str) -> str:
    words = _Words()
    words.feed(page)
    return html.unescape(" ".join(words.parts))


def page_of(home: Path) -> dict[str, str]:
    """The page the serve app gives for the table, made in this process as ``companion serve`` makes it:
    the whole page, the live update pushed to every open page, and the View it was made from."""
    from companion.cli.env import Env
    from companion.serve.page import page
    from companion.serve.table import Table

    table = Table(Env.from_process(data_dir=home / "home", logs_dir=home / "logs"), [])
    table.token = "token"
    table.hold("g")
    try:
        assert table.view is not None
        return {"page": table.view.shown(page(table.view, table.html)), "update": table.message, "view": table.view}
    finally:
        table.release()


def outputs(home: Path) -> dict[str, str]:
    """Every text the front ends give of the table, by front end (html as the words a reader sees)."""
    shown = page_of(home)
    out = {
        "status": ok(home, "status"),
        "status --json": ok(home, "status", "--json"),
        "the markdown log": (home / "logs" / "g.md").read_text(encoding="utf-8"),
        "export md": ok(home, "export", "-", "-f", "md"),
        "export html": ok(home, "export", "-", "-f", "html"),
        "export lonelog": ok(home, "export", "-", "-f", "lonelog"),
        "export json": ok(home, "export", "-", "-f", "json"),
        "dice audit": ok(home, "dice", "audit"),
        "dice audit --json": ok(home, "dice", "audit", "--json"),
        "the page": shown["page"],
        "the page's live update": shown["update"],
        #: The page's undo button: undo's words (issue 39).
        "the page's undo": shown["view"].undo,
        #: The session as a timeline in words, what undo took back apart (issue 39).
        "history": ok(home, "history"),
    }
    return out


#: The outputs that are data for tools, where a request's key is a field's value by design.
DATA = ("status --json", "export json", "dice audit --json", "the page's live update")


def internal_keys(record: dict[str, Any]) -> set[str]:
    """The request keys (``fight.turn``) and option values (``attack:giant-rat``) the drive met."""
    keys: set[str] = set()
    for step in record["steps"]:
        pending = step["pending"]
        if "." in pending.get("key", ""):
            keys.add(pending["key"])
        keys.update(o["value"] for o in pending.get("options", ()) if ":" in o["value"] and o["value"][-1] != ":")
    return keys


def named(keys: set[str], text: str) -> list[str]:
    return sorted(k for k in keys if re.search(rf"(?<![\w.:-]){re.escape(k)}(?![\w:-])", text))


def secret_words(home: Path) -> list[str]:
    """The words that would name a secret the game keeps now (read from the raw state: only the test may)."""
    s = session(home, engine=False)
    seen = s.spec.view(s.state)
    return list(seen.words)


# ---- the contract ------------------------------------------------------------------------------------


def test_every_member_is_provided_or_declared_not_applicable_with_a_reason(game):
    from dataclasses import fields

    from companion.contract.game import Game, NotApplicable
    from companion.contract.registry import load

    spec = load(game)
    assert isinstance(spec, Game) and spec.name == game
    for f in fields(Game):
        value = getattr(spec, f.name)
        if isinstance(value, NotApplicable):
            assert len(value.reason.split()) >= 3, f"{game}.{f.name}: a reason in words, not {value.reason!r}"
    assert spec.seats_of(session_state(game)), "every game names at least one seat"


def session_state(game: str) -> Any:
    from companion.contract.registry import load
    from companion.session.state import Meta, new_state

    return new_state(load(game), Meta(name="t", slug="t", game=game, seed=1, dice="virtual"))


def test_a_game_that_leaves_a_member_out_does_not_build():
    from dataclasses import fields, replace

    from companion.contract.game import Game, NotApplicable
    from companion.contract.registry import load

    spec = load("inverted-tower")
    members = {f.name: getattr(spec, f.name) for f in fields(Game)}
    del members["secrets"]
    with pytest.raises(TypeError, match="secrets"):
        Game(**members)
    with pytest.raises(TypeError, match="refresh"):
        replace(spec, refresh=False)  # a stale step is no answer: NotApplicable says why
    with pytest.raises(TypeError):
        NotApplicable("")


def test_the_game_was_driven_to_a_fight_and_past_it_through_next(game, record):
    assert record["fought"]
    assert any(step["fight"] for step in record["steps"]), [s["pending"].get("key") for s in record["steps"]]


# ---- the best option -----------------------------------------------------------------------------------

PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*%")
FRACTION = re.compile(r"\b(\d+)/(\d+)\b")


def shows(chance: float, text: str) -> bool:
    """Whether ``text`` shows ``chance`` as a player reads it: a percentage to its shown precision, a
    fraction, or ``>99.9%`` / ``<0.1%``."""
    if chance > 0.999 and (">99.9%" in text or ">99.99%" in text):
        return True
    if chance < 0.001 and ("<0.1%" in text or "<0.01%" in text):
        return True
    if chance == 0 and re.search(r"fall 100(?:\.0)?%", text):  # a fight that cannot be won: its fall, sure
        return True
    for m in PERCENT.finditer(text):
        digits = len(m.group(1).partition(".")[2])
        if abs(float(m.group(1)) - chance * 100) <= 0.5 * 10**-digits + 1e-9:
            return True
    return any(int(d) and abs(int(n) / int(d) - chance) < 1e-9 for n, d in FRACTION.findall(text))


def expected_best(chances: dict[str, list[Any]]) -> str | None:
    """The contract's rule, written out again: the highest chance of a good end; a win within a point
    of an escape is starred over it; the first of equals; none where nothing can end well."""
    if not chances:
        return None
    items = list(chances.items())
    top_value, (top, top_of) = max(items, key=lambda kv: kv[1][0])
    if top <= 0:
        return None
    wins = [(v, c) for v, (c, of) in items if of == "win"]
    if top_of != "win" and wins:
        win_value, win = max(wins, key=lambda vc: vc[1])
        if win > 0 and top - win <= 0.01:
            return win_value
    return top_value


def test_the_star_is_the_option_with_the_highest_chance_shown(game, record):
    from companion.contract.registry import load

    spec = load(game)
    compared = [s for s in record["steps"] if s["chances"]]
    if not spec.provides("chances"):
        assert not compared and not any(s["pending"].get("best") for s in record["steps"])
        assert spec.why_not("chances")
        return
    assert compared, f"{game} compares odds, but the drive met no step that shows them"
    for step in compared:
        pending = step["pending"]
        assert pending["best"] == expected_best(step["chances"]), (pending["key"], step["chances"], pending["best"])
        seen = " ".join([pending["line"], *pending["info"], *(o["hint"] for o in pending["options"])])
        for value, (chance, _of) in step["chances"].items():
            assert shows(chance, seen), f"{game} {pending['key']}: {value}'s chance {chance} is not what is shown"
        starred = [o["value"] for o in pending["options"] if o["best"]]
        assert starred == ([pending["best"]] if pending["best"] else [])


def test_the_haunted_tower_stars_running_away_over_a_hopeless_attack(record, game):
    if game != "haunted-tower":
        pytest.skip("the Haunted Tower's gargoyle: an attack that cannot win")
    hopeless = [s for s in record["steps"] if s["chances"].get("attack:", [1])[0] == 0]
    assert hopeless, "the drive meets the gargoyle, whom no attack without magic can hurt"
    assert all(s["pending"]["best"] == "run" for s in hopeless)


# ---- secrets and internal keys, in every output ------------------------------------------------------------


def test_no_output_names_a_secret_the_game_keeps(game, table):
    from companion.contract.registry import load

    spec = load(game)
    words = secret_words(table)
    if not spec.provides("secrets"):
        assert not words and spec.why_not("secrets")
        return
    assert words, f"{game}: the drive ends with its secret kept (the dragon face down)"
    withheld = json.loads(ok(table, "status", "--json"))["withheld"]
    assert withheld == [s.what for s in spec.secrets]  # type: ignore[union-attr]
    for front, text in outputs(table).items():
        for word in words:
            assert word.lower() not in text.lower(), f"{game}: {front} names the secret {word!r}"


def test_no_draw_that_gives_a_secret_away_is_counted_as_a_die(game, table):
    """The Dragon's Den's dragon is drawn with a d12 and the chits set aside with a d11: while they are
    secret, the dice audit counts neither (a histogram of one d12 roll would name the dragon)."""
    from companion.contract.registry import load

    audit = json.loads(ok(table, "dice", "audit", "--json"))
    counted = {d["die"] for d in audit["dice"] if d["rolls"]}
    if load(game).provides("secrets"):
        assert not counted & {"d12", "d11"}, counted
        events = json.loads(ok(table, "export", "-", "-f", "json"))["events"]
        withheld = [e for e in events if "withheld" in e.get("v", {})]
        assert len(withheld) == 3  # the dragon and the two chits set aside
        assert all("faces" not in e["v"] and "expr" not in e for e in withheld)
    else:
        assert counted, f"{game}: the drive rolled dice, and the audit counts them"


def test_no_text_a_player_reads_shows_an_internal_key(game, table, record):
    keys = internal_keys(record)
    assert keys, "the drive met requests with keys"
    shown = outputs(table)
    for front, text in shown.items():
        if front in DATA:
            continue
        words = visible(text) if front in ("the page", "export html") else text
        assert not named(keys, words), f"{game}: {front} shows {named(keys, words)}"


def test_the_markdown_log_file_is_the_log_regenerated(game, table):
    written = (table / "logs" / "g.md").read_text(encoding="utf-8")
    assert written == ok(table, "export", "-", "-f", "md")


# ---- the page -------------------------------------------------------------------------------------------------


def test_the_page_shows_the_step_its_buttons_and_the_star(game, table):
    from companion.contract.registry import load

    shown = page_of(table)
    view, words = shown["view"], visible(shown["page"])
    pending = view.pending
    assert view.title and load(game).title in (view.title, load(game).title)
    if pending is None:
        assert game == "freeform" or SCRIPTS[game].hand_at, "a guided game shows its step"
        return
    assert pending.text.split("(")[0].strip()[:30] in words
    for option in pending.options:
        assert option.label in words, f"{game}: the page has no button {option.label!r}"
    starred = [o.label for o in pending.options if o.best]
    if starred:
        assert "★" in words
    assert shown["update"].startswith("{") or "version" in shown["update"]


def test_a_tap_on_the_page_answers_the_step(game, at_table):
    table = at_table
    from companion.cli.env import Env
    from companion.serve.table import Table

    before = session(table, engine=False).count
    t = Table(Env.from_process(data_dir=table / "home", logs_dir=table / "logs"), [])
    t.token = "token"
    t.hold("g")
    try:
        pending = t.view.pending if t.view is not None else None
        if pending is None:
            pytest.skip(f"{game}: no step waits at the end of the drive")
        words = list(pending.run) + ([f"={pending.options[0].value}"] if pending.kind == "choice" else [])
        if pending.kind == "roll":
            words = list(pending.run) + (["roll"] if pending.run == ("next",) else [])
        result = t.command(words)
        assert result.code == 0, result.error
    finally:
        t.release()
    assert session(table, engine=False).count > before


# ---- the shell ------------------------------------------------------------------------------------------------


def test_the_shell_bar_shows_every_figure_with_its_health_and_takes_a_bare_answer(game, mid_fight):
    """In the fight: the bar has every figure of the game's board (its heroes and the fight's), each
    with its health; a bare answer at the prompt answers the step."""
    from tests.shell_term import ENTER, Term

    table = mid_fight
    s = session(table, engine=False)
    board = s.spec.board_of(s.state)
    assert board is not None and board.fight, f"{game}: the board shows the fight"
    before = s.count
    step = session(table).waiting().pending if s.spec.guided else None
    folders = {k: v for k, v in environment(table).items() if k.startswith("COMPANION_")}
    t = Term("shell", cols=120, rows=30, cpr=True, env=folders)
    try:
        t.wait_for("g>")
        t.wait_for("▶", bottom=10)  # the bar, once drawn, with the step
        bar = "\n".join(t.display().split("\n")[-10:])
        for figure in (*board.heroes, *board.fight) if board is not None else ():
            assert figure.name in bar, f"{game}: {figure.name} is not on the bar:\n{bar}"
            if figure.health:
                assert figure.health in bar, f"{game}: {figure.name}'s health {figure.health} is not on the bar:\n{bar}"
        bare = "1" + ENTER if type(step).__name__ == "Choice" else ENTER  # a virtual roll: Enter rolls it
        t.send(bare)
        t.ready()
        t.send("quit" + ENTER)
        assert t.close() == 0
    finally:
        if t.child.isalive():
            t.child.terminate(force=True)
    if session(table, engine=False).count == before:
        pytest.fail(f"{game}: the bare answer was not taken:\n{t.plain()[-1500:]}")


# ---- the step after a hand command -----------------------------------------------------------------------


def test_the_step_is_built_again_from_the_table_after_a_hand_command(game, mid_fight):
    """At a step in the fight, a hand command that changes the table (HP lost, a room revealed, an item
    discarded): the step shown next is the one the table as it now stands gives, not the one before."""
    home = mid_fight
    script = SCRIPTS[game]
    before = step_of(home)
    assert before is not None and before["key"] == script.hand_at
    done = run(home, *script.hand)
    after = step_of(home)
    assert done.exit_code == 0, done.stderr
    assert after is not None and after != before
    assert FRESH[game](before, after), (before, after)


def step_of(home: Path) -> dict[str, Any] | None:
    if (home / "home").exists() and session(home, engine=False).state.trackers.fight is not None:
        from companion.cli.env import Env
        from companion.cli.pack_fight import pending_step

        step = pending_step(Env.from_process(data_dir=home / "home", logs_dir=home / "logs"), session(home))
        return None if step is None else step.as_json()
    return json.loads(ok(home, "next", "--json")).get("pending")


def _values(step: dict[str, Any]) -> list[str]:
    return [o["value"] for o in step.get("options", ())]


def _hint(step: dict[str, Any], value: str) -> str:
    return next(o["hint"] for o in step["options"] if o["value"] == value)


def _face_down(step: dict[str, Any]) -> int:
    return int(re.search(r"\d+", _hint(step, "reveal")).group())  # type: ignore[union-attr]


def _hp_line(step: dict[str, Any]) -> list[str]:
    return [line for line in step["info"] if "HP at the end" in line]


FRESH = {
    # HP lost: a potion may now be drunk at the fight's first choice.
    "inverted-tower": lambda b, a: "potion" not in _values(b) and "potion" in _values(a),
    # Another room revealed by hand: one room fewer face down on the menu.
    "dragons-den": lambda b, a: _face_down(a) == _face_down(b) - 1,
    # Aria's HP down by one: the odds line of her HP at the end of the fight follows.
    "haunted-tower": lambda b, a: bool(_hp_line(a)) and _hp_line(b) != _hp_line(a),
    # Ann's sword discarded: fighting alone has a smaller bonus.
    "dark-tower": lambda b, a: _hint(b, "alone") != _hint(a, "alone"),
    # A hit on Krylla marked by hand beside guided play (issue 33): the odds of fighting on follow.
    "talisman": lambda b, a: b["info"] != a["info"],
    # STAMINA down by two: the fight's odds now.
    "freeform": lambda b, a: b["info"] != a["info"] or b.get("odds") != a.get("odds") or b["text"] != a["text"],
}


# ---- undo's words ----------------------------------------------------------------------------------------------


def test_undo_says_what_it_takes_back_in_words(game, table, record):
    said = ok(table, "undo") + "\n" + page_of(table)["view"].undo
    assert said.strip()
    keys = internal_keys(record)
    raw = re.findall(r"\b[a-z]+(?:\.[a-z0-9-]+)+\b", said)
    assert not named(keys, said) and not raw, said


# ---- the shared trackers ask the game first (#35) ----------------------------------------------------

#: What each game's rules refuse of the shared tracker commands at the driven table, and words of the
#: one line that says the rule and the game's own command (freeform has no rules: none is refused).
REFUSED: dict[str, tuple[tuple[tuple[str, ...], str], ...]] = {
    "inverted-tower": (
        (("floor", "5"), "floor 5 is not the next"),
        (("floor", "11", "--correct"), "the tower has 10 floors"),
        (("hp", "--max", "9"), "Max HP rises only by a level"),
        (("room", "3", "hall"), "companion tower room KIND"),
        (("tally", "add", "Bob", "3"), "companion tower kill"),
        (("talisman",), "has no Talisman"),
        (("item", "rope"), "the hero carries daggers and potions"),
    ),
    "talisman": (
        (("floor", "2"), "companion dungeon areas"),
        (("room", "3", "hall"), "companion dungeon areas"),
        (("hp", "-1"), "heroes take hits on their tallies"),
        (("tally", "remove", "Adelhardt"), "the four heroes keep their tallies for the whole adventure"),
        (("talisman", "--left", "0"), "the Talisman is held by the last monster only"),
    ),
    "haunted-tower": (
        (("floor", "2"), "companion haunted climb HERO"),
        (("room", "3", "hall"), "companion haunted fight HERO MONSTER"),
        (("item", "rope"), "companion haunted item HERO NAME"),
        (("tally", "add", "Bob", "3"), "companion haunted hp HERO -1"),
        (("talisman",), "has no Talisman"),
        (("hp", "-1"), "companion haunted hp HERO -1"),
        (("xp", "+1"), "companion haunted score"),
        (("gold", "+1"), "companion haunted score"),
    ),
    "dragons-den": (
        (("floor", "2"), "companion dragon reveal ROOM"),
        (("room", "3", "hall"), "companion dragon reveal ROOM"),
        (("item", "rope"), "companion dragon take CHIT"),
        (("tally", "add", "Bob", "3"), "companion dragon health"),
        (("talisman",), "has no Talisman"),
        (("hp", "-1"), "companion dragon attack"),
        (("xp", "+1"), "companion dragon score"),
        (("gold", "+1"), "companion dragon take CHIT"),
    ),
    "dark-tower": (
        (("floor", "2"), "companion dark floor"),
        (("room", "3", "hall"), "companion dark draw KIND NAME"),
        (("item", "rope"), "companion dark item PLAYER NAME"),
        (("tally", "add", "Bob", "3"), "companion dark hp PLAYER -1"),
        (("talisman",), "has no Talisman"),
        (("hp", "-1"), "companion dark hp PLAYER -1"),
        (("xp", "+1"), "companion dark floor"),
        (("gold", "+1"), "companion dark item PLAYER NAME"),
    ),
    "freeform": (),
}
#: What a game without rules records as the player says (freeform: every tracker is the player's).
ACCEPTED = {
    "freeform": (
        ("floor", "2"),
        ("room", "3", "hall"),
        ("item", "rope"),
        ("tally", "add", "Bob", "3"),
        ("hp", "-1"),
        ("xp", "+1"),
        ("gold", "+1"),
    )
}


def test_the_shared_trackers_ask_the_game_first(game, table):
    """``floor``, ``hp``, ``xp``, ``gold``, ``item``, ``tally``, ``talisman`` and ``room`` go to the game's
    rules before anything is recorded: what they forbid is one line (the rule, and the game's own
    command), exit 2, nothing recorded."""

    def events() -> int:
        return int(json.loads(ok(table, "status", "--json"))["events"])

    for args, says in REFUSED[game]:
        before = events()
        result = run(table, *args)
        assert result.exit_code == 2, (args, result.stdout, result.stderr)
        assert says in result.stderr and result.stderr.count("\n") == 1, (args, result.stderr)
        assert "Traceback" not in result.stderr and events() == before, args
    for args in ACCEPTED.get(game, ()):
        before = events()
        assert run(table, *args).exit_code == 0, args
        assert events() == before + 1, args


#: What a second terminal reads while a shell or a page holds the session (issue 33, situation 7).
READERS = (
    ("status",),
    ("status", "--json"),
    ("log",),
    ("export", "-", "-f", "md"),
    ("export", "-", "-f", "json"),
    ("sessions", "--json"),
)


def test_a_session_held_elsewhere_is_read_at_once_and_changed_by_nothing(game, table, monkeypatch):
    """While another process holds the session (a shell, a page, guided play), status, log, export and
    sessions read a consistent copy at once, the same words as when nobody holds it; a command that
    changes the session is refused with the holder's line, and nothing is changed."""
    from companion.store.sessions import Store

    monkeypatch.setenv("COMPANION_LOCK_WAIT", "0.2")  # a reader that waited for the lock would be refused
    free = {args: ok(table, *args) for args in READERS}
    files = Store(table / "home").open("g")
    with files.locked():
        held = {args: run(table, *args) for args in READERS}
        kept = run(table, "export")
        refused = run(table, "note", "from the other terminal")
    for args, result in held.items():
        assert result.exit_code == 0, f"{game}: companion {' '.join(args)} while held: {result.stderr}"
        assert result.stdout == free[args], f"{game}: companion {' '.join(args)} reads another table while held"
    assert kept.exit_code == 0 and "kept up to date" in kept.stdout, kept.stderr
    assert refused.exit_code == 1 and "in use by another companion process" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert json.loads(ok(table, "status", "--json"))["events"] == json.loads(free[("status", "--json")])["events"]
