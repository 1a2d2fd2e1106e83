"""``companion serve``'s seats as players and an attacker meet them, over HTTP, the server in its own
process: every seat its own address and token; what a seat's page, stream and JSON hold is what that
seat may see (checked by fetching them); a seat answers only its own figures' steps; every change is
numbered, a stale tap refused with the fresh step; an undo says on every page what it undid and where.

The Dragon's Den is played with its secret: the dragon player's seat draws the dragon (the session's
virtual chits) and its page names it; the heroes' seat's page, stream and JSON never do, nor the host's
page, nor the read-only feed.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.serve_support import Door, companion, doors, serve

pytestmark = pytest.mark.slow

#: Sam and Jared enter the den; the chits are drawn by companion (the dragon in secret).
DEN = ["=2", "=7", "=done", "=virtual"]


def _run(home, *args):
    done = companion(home, *args)
    assert done.returncode == 0, (args, done.stderr)
    return done.stdout


def _den(home, *variants):
    _run(home, "new", "dragons-den", "--name", "den", "--seed", "1", *variants)
    for answer in DEN:
        _run(home, "next", "--", answer)
    return home


def _events(found):
    """How many events the session holds (the host's JSON: the server holds the session)."""
    return json.loads(found["host"].get("state.json")[1])["events"]


def _words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _dragon_name(door: Door) -> str:
    """The dragon's name, as the dragon seat's own JSON holds it (it may see it)."""
    from companion.games.dragons_den import data

    status, body = door.get("state.json")
    assert status == 200
    dragon = json.loads(body)["state"]["game"]["dragon"]
    assert dragon["name"] in {d.name for d in data.DRAGON_BY_CHIT.values()}, dragon
    return dragon["name"]


def _draw_the_dragon(dragon: Door, heroes: Door) -> None:
    """The dragon player's secret draws, tapped on its own page; the heroes' page shows whose they are."""
    for _ in range(3):  # the dragon, then the two chits set aside
        _status, page = heroes.get()
        assert "the dragon player is rolling" in _words(page)
        assert 'value="roll"' not in page and "Roll for me" not in page
        got = dragon.post("answer", answer="roll")
        assert got["ok"], got
    assert "Hide it" in dragon.get()[1]
    assert "the dragon player is choosing" in _words(heroes.get()[1])
    assert dragon.post("answer", answer="1")["ok"]  # hide it


@pytest.fixture
def den(tmp_path):
    home = _den(tmp_path / "home")
    served = serve(home)
    try:
        yield home, served, doors(served)
    finally:
        served.stop()


# ---- the doors -----------------------------------------------------------------------------------


def test_every_seat_has_its_own_address_and_token_printed_one_line_a_seat(den):
    _home, served, found = den
    assert list(found) == ["host", "seat dragon", "seat heroes", "read-only"]
    assert served.first.startswith("host  http://127.0.0.1:")
    tokens = [d.token for d in found.values()]
    assert len(set(tokens)) == 4 and all(re.fullmatch(r"[A-Za-z0-9_-]{32}", t) for t in tokens)
    assert found["seat dragon"].path == "/s/dragon/" and found["seat heroes"].path == "/s/heroes/"
    said = "".join(served.lines)
    assert "give each player their own" in said and "Only this machine can reach it" in said


def test_a_seats_cookie_is_bound_to_its_seat(den):
    _home, _served, found = den
    cookies = {}
    for label in ("host", "seat dragon", "seat heroes"):
        headers = found[label].visit()
        cookie = headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
        assert f"Path={found[label].path}" in cookie
        cookies[label] = found[label].cookie
    assert len(set(cookies.values())) == 3  # a cookie of its own a seat


def test_a_hero_seat_asking_for_the_dragon_seats_page_stream_or_json_is_403(den):
    _home, served, found = den
    dragon, heroes, host, feed = found["seat dragon"], found["seat heroes"], found["host"], found["read-only"]
    dragon.visit()
    heroes.visit()
    for sub in ("", "part", "events", "state.json", "ping", "static/serve.css"):
        # the heroes' token in the address, in the dragon seat's cookie, in its own cookie sent along
        assert served.request("GET", f"/s/dragon/{sub}?token={heroes.token}", token=False)[0] == 403, sub
        assert dragon.request("GET", sub, cookie=heroes.token)[0] == 403, sub
        own = {"Cookie": f"{heroes.cookie}={heroes.token}"}
        assert served.request("GET", f"/s/dragon/{sub}", token=False, headers=own)[0] == 403, sub
        # a token replayed from another seat, the host's, the read-only one: none opens another door
        assert heroes.request("GET", sub, cookie=dragon.token)[0] == 403, sub
        assert dragon.request("GET", sub, cookie=host.token)[0] == 403, sub
        assert dragon.request("GET", sub, cookie=feed.token)[0] == 403, sub
        expected = 200 if sub == "state.json" else 403  # the feed, and nothing else there
        assert served.request("GET", f"/{sub}?token={feed.token}", token=False)[0] == expected, sub
    for path in ("answer", "note", "undo", "back", "redo"):
        status, _, _ = served.request(
            "POST",
            f"/s/dragon/{path}",
            form={"token": heroes.token, "answer": "roll", "note": "x", "to": "1"},
            token=False,
        )
        assert status == 403, path
    # The read-only token opens the feed at the host's door, and nothing else there.
    assert served.request("GET", f"/?token={feed.token}", token=False)[0] == 403
    assert served.request("GET", f"/state.json?token={feed.token}", token=False)[0] == 200
    assert served.request("GET", "/s/nobody/?token=" + heroes.token, token=False)[0] == 403


# ---- secrets per seat ----------------------------------------------------------------------------


def test_the_dragon_seat_names_its_dragon_and_nothing_the_heroes_fetch_does(den):
    _home, served, found = den
    dragon, heroes, host, feed = found["seat dragon"], found["seat heroes"], found["host"], found["read-only"]
    before = _events(found)
    # A hero seat's tap on the dragon's secret step is refused with one line, and nothing is recorded.
    refused = heroes.post("answer", answer="roll")
    assert refused["status"] == 403 and not refused["ok"]
    assert refused["error"] == "that step is not this seat's: the dragon player is rolling"
    assert _events(found) == before
    _draw_the_dragon(dragon, heroes)
    name = _dragon_name(dragon)
    # The dragon seat: its page, its part and its stream name the dragon.
    assert name in _words(dragon.get()[1]) and "For your eyes only" in dragon.get()[1]
    assert name in dragon.events(1)[0]["html"]
    assert name in json.loads(dragon.get("part")[1])["html"]
    # The heroes' seat, the host's page and the feed: fetched, none names it, not even in hidden markup.
    fetched = {
        "heroes' page": heroes.get()[1],
        "heroes' part": heroes.get("part")[1],
        "heroes' stream": json.dumps(heroes.events(1), ensure_ascii=False),
        "heroes' json": heroes.get("state.json")[1],
        "host's page": host.get()[1],
        "host's json": host.get("state.json")[1],
        "read-only feed": served.request("GET", f"/state.json?token={feed.token}", token=False)[2].decode(),
    }
    for what, text in fetched.items():
        for word in (name, name.split()[0] + " " + name.split()[1], "For your eyes only"):
            assert word.lower() not in text.lower(), f"{what} names {word!r}"
    heroes_json = json.loads(fetched["heroes' json"])
    assert heroes_json["seat"] == "heroes" and "the dragon's chit" in heroes_json["withheld"]
    assert heroes_json["state"]["game"]["dragon"]["number"] == 0 and set(heroes_json["state"]["game"]["cup"]) == {0}
    # The dragon's turn comes after the heroes': its moves are the dragon seat's alone.
    assert heroes.post("answer", answer=_option(heroes, "end"))["ok"]  # Sam ends his turn
    assert heroes.post("answer", answer=_option(heroes, "end"))["ok"]  # Jared ends his
    assert "the dragon player is choosing" in _words(heroes.get()[1])
    refused = heroes.post("answer", answer="1")
    assert refused["status"] == 403 and "the dragon player is choosing" in refused["error"]


def _option(door: Door, value: str) -> str:
    """The number of the option ``value`` on ``door``'s page (its button's)."""
    found = re.search(rf'name="answer" value="(\d+)" data-value="{re.escape(value)}"', door.get()[1])
    assert found is not None, f"no option {value!r} on {door.label}'s page"
    return found.group(1)


def test_the_dragon_players_look_is_not_on_the_heroes_menu_and_is_refused_there(den):
    _home, _served, found = den
    dragon, heroes = found["seat dragon"], found["seat heroes"]
    _draw_the_dragon(dragon, heroes)
    host_page = found["host"].get()[1]
    assert "look at the secret dragon" in host_page  # the host (the laptop) keeps it: it can do everything
    assert "look at the secret dragon" not in heroes.get()[1]
    peek = re.search(r'value="(\d+)" data-value="peek"', host_page)
    assert peek is not None
    refused = heroes.post("answer", answer=peek.group(1))
    assert refused["status"] == 403 and refused["error"] == "that option is not this seat's"
    assert heroes.post("answer", answer="=peek")["status"] == 403
    # The dragon seat may not answer the heroes' menu at all.
    assert dragon.post("answer", answer=peek.group(1))["status"] == 403


def test_a_seat_per_player_gives_each_hero_a_page_of_its_own(tmp_path):
    home = _den(tmp_path / "home")
    served = serve(home, "--seat-per-player")
    try:
        found = doors(served)
        assert list(found) == ["host", "seat dragon", "seat sam", "seat jared", "read-only"]
        dragon, sam, jared = found["seat dragon"], found["seat sam"], found["seat jared"]
        _draw_the_dragon(dragon, sam)
        assert "Sam Barleyman is choosing" in _words(jared.get()[1])
        end = _option(sam, "end")
        refused = jared.post("answer", answer=end)
        assert refused["status"] == 403 and "Sam Barleyman is choosing" in refused["error"]
        assert sam.post("answer", answer=end)["ok"]  # Sam ends his turn: Jared's now
        assert "Jared O&#39;loria is choosing" in _words(sam.get()[1])
        assert jared.post("answer", answer=_option(jared, "end"))["ok"]
        assert _dragon_name(dragon) not in sam.get()[1] + jared.get("state.json")[1]
    finally:
        served.stop()


# ---- sync ----------------------------------------------------------------------------------------


def test_every_change_is_numbered_and_a_stream_that_comes_back_gets_its_seats_table_at_once(den):
    _home, _served, found = den
    dragon, heroes = found["seat dragon"], found["seat heroes"]
    first = heroes.events(1)[0]
    assert first["id"] == str(first["version"])
    assert heroes.post("note", note="a torch gutters")["ok"]
    # A page that comes back with the change it showed last gets its seat's whole table at once.
    again = heroes.events(1, last=first["id"])[0]
    assert int(again["id"]) > int(first["id"]) and "a torch gutters" in again["html"]
    assert "the dragon player is rolling" in again["html"]
    # A page back from a restarted server (another run's numbers) too.
    assert heroes.events(1, last="12")[0]["id"] == again["id"]
    # One that already shows the newest gets nothing until the next change, then that one.
    dragon.post("note", note="the dragon stirs")
    newest = heroes.events(1)[0]["id"]
    got = []
    import threading

    reader = threading.Thread(target=lambda: got.extend(heroes.events(1, last=newest)))
    reader.start()
    reader.join(2)
    assert not got  # nothing resent
    dragon.post("note", note="and sleeps")
    reader.join(60)
    assert got and int(got[0]["id"]) > int(newest) and "and sleeps" in got[0]["html"]


def test_a_stale_tap_is_refused_with_the_fresh_step_and_a_note_makes_no_tap_stale(den):
    _home, _served, found = den
    dragon, heroes = found["seat dragon"], found["seat heroes"]
    _draw_the_dragon(dragon, heroes)
    shown = json.loads(heroes.get("part")[1])["version"]
    # A note from another seat moves no step: the heroes' tap on what they see is taken.
    assert dragon.post("note", note="the dragon waits")["ok"]
    end = _option(heroes, "end")
    moved = heroes.post("answer", answer=end, v=str(shown))  # Sam ends his turn
    assert moved["ok"], moved
    # The heroes' other page still shows Sam's turn: its tap is refused, with the table as it is.
    before = _events(found)
    stale = heroes.post("answer", answer=end, v=str(shown))
    assert stale["status"] == 409 and "the table changed" in stale["error"]
    assert "Jared" in _words(stale["html"]).split("The table")[0]  # the fresh step: Jared's turn
    assert _events(found) == before


def test_an_undo_says_on_every_page_what_it_undid_and_from_which_seat(den):
    _home, _served, found = den
    dragon, heroes, host = found["seat dragon"], found["seat heroes"], found["host"]
    _draw_the_dragon(dragon, heroes)
    heroes.post("note", note="a rat squeaks")
    undone = heroes.post("undo")
    assert undone["ok"], undone
    for door in (dragon, heroes, host):
        words = _words(door.get()[1])
        assert "the heroes undid: a note: &#39;a rat squeaks&#39;" in words, (door.label, words)
    # The next change clears it.
    dragon.post("note", note="quiet again")
    assert "undid" not in _words(heroes.get()[1])


def test_an_undo_of_the_dragons_secret_draw_names_no_chit_where_the_dragon_is_not_seen(den):
    _home, _served, found = den
    dragon, heroes, host = found["seat dragon"], found["seat heroes"], found["host"]
    assert dragon.post("answer", answer="roll")["ok"]  # the dragon, drawn in secret
    chit = json.loads(dragon.get("state.json")[1])["state"]["game"]["dragon"]["number"]
    secret = "draw a dragon chit (12 in the cup) → drawn in secret"
    for door in (dragon, heroes, host):  # the timeline's words: the draw said, its chit on no page
        page = _words(door.get()[1])
        assert f"Undo: {secret}" in page and f"#5 {secret}" in page, (door.label, page)
        assert "dd.draw" not in page and f"[{chit}]" not in page
    assert heroes.post("undo")["ok"]
    for door in (dragon, heroes, host):
        page = _words(door.get()[1])
        assert f"the heroes undid: {secret}" in page and f"Redo: {secret}" in page, (door.label, page)
        assert "dd.draw" not in page and f"[{chit}]" not in page


def test_back_to_here_and_redo_are_shared_as_undo_is_each_at_its_own_door_with_a_notice_on_every_page(den):
    _home, served, found = den
    dragon, heroes, host = found["seat dragon"], found["seat heroes"], found["host"]
    _draw_the_dragon(dragon, heroes)
    name = _dragon_name(dragon)
    for note in ("one", "two", "three"):
        assert dragon.post("note", note=note)["ok"]
    entries = {}
    for door in (dragon, heroes, host):
        page = door.get()[1]
        found_entries = re.findall(
            r'<li value="(\d+)"><details><summary><span class="n">#\d+</span> ([^<]*)</summary>', page
        )
        entries[door.label] = [n for n, _ in found_entries]
        assert 'action="back"' in page and 'name="to"' in page, door.label
        assert "drawn in secret" in _words(page)  # the dragon's draws are on every timeline, unnamed
    assert entries["seat dragon"] == entries["seat heroes"] == entries["host"]  # the same entries, each its words
    for door in (heroes, host):
        assert name not in door.get()[1]  # not on the timeline, nor anywhere else on the page
    count = _events(found)
    one = str(count - 2)  # the note "one": back to it takes back "two" and "three"
    # Each door's back and redo need that door's own token: another seat's is refused, nothing done.
    for path in ("back", "redo"):
        form = {"token": dragon.token, "to": one}
        assert served.request("POST", f"/s/heroes/{path}", form=form, token=False)[0] == 403
        assert heroes.request("POST", path, form={"to": one}, cookie=dragon.token)[0] == 403
    assert _events(found) == count
    # The heroes may go back though the notes were the dragon player's (shared, as undo is).
    shown = json.loads(heroes.get("part")[1])["version"]
    assert heroes.post("back", to=str(count), v=str(shown))["status"] == 409  # the last: nothing after it
    got = heroes.post("back", to=one, v=str(shown))
    assert got["ok"], got
    assert _events(found) == count - 2
    for door in (dragon, heroes, host):
        page = _words(door.get()[1])
        assert f"the heroes went back to #{one}: 2 actions taken back" in page, (door.label, page)
        assert "Redo: a note: &#39;two&#39;" in page
    # A tap on a page that showed the table before the back is stale.
    assert dragon.post("back", to=str(count - 3), v=str(shown))["status"] == 409
    redone = dragon.post("redo", v=str(json.loads(dragon.get("part")[1])["version"]))
    assert redone["ok"], redone
    assert _events(found) == count - 1
    for door in (dragon, heroes, host):
        assert "the dragon player redid: a note: &#39;two&#39;" in _words(door.get()[1]), door.label


def test_the_read_only_feed_is_the_public_table(den):
    _home, served, found = den
    dragon, heroes, feed = found["seat dragon"], found["seat heroes"], found["read-only"]
    _draw_the_dragon(dragon, heroes)
    status, headers, body = served.request("GET", f"/state.json?token={feed.token}", token=False)
    assert status == 200 and headers["content-type"].startswith("application/json")
    data = json.loads(body)
    assert data["seat"] is None and data["game"] == "dragons-den"
    assert data["withheld"] == ["the dragon's chit", "the dragon chits set aside"]
    assert data["pending"]["key"] == "dd.menu" and data["state"]["game"]["dragon"]["name"] == "the dragon"
    assert _dragon_name(dragon) not in body.decode()
    # Read-only: every change is refused with it.
    form = {"token": feed.token, "note": "x", "answer": "1"}
    for path in ("/answer", "/note", "/undo"):
        assert served.request("POST", path, form=form, token=False)[0] == 403


# ---- load --------------------------------------------------------------------------------------------


def test_a_thousand_open_streams_across_seats_are_held_and_each_gets_its_own_seats_table(den):
    from tests.serve_load import streams

    _home, served, found = den
    dragon, heroes, host = found["seat dragon"], found["seat heroes"], found["host"]
    _draw_the_dragon(dragon, heroes)
    name = _dragon_name(dragon)
    for door in (dragon, heroes, host):
        door.visit()
    report = streams(served, [dragon, heroes, host], lambda: heroes.post("note", note="a thousand listen"), count=1000)
    assert served.proc.poll() is None and served.request("GET", "/ping")[0] == 204
    assert (report.connected, report.first, report.updated, report.errors) == (1000, 1000, 1000, 0)
    for label, pages in report.pages.items():
        assert all("a thousand listen" in page for page in pages), label
        named = [name in page for page in pages]
        assert all(named) if label == "seat dragon" else not any(named), label


# ---- --lan: the addresses follow the machine's ---------------------------------------------------------

#: Put in front of the server's path: the machine's address (``COMPANION_LAN_ADDRESS``, which ``--lan``
#: reads each time it looks) becomes what the file ``LAN_FILE`` holds when it changes: a laptop that
#: joined another network, without one.
MOVING = """
import os, threading, time
def _watch(path=os.environ["LAN_FILE"]):
    while True:
        try:
            with open(path) as f:
                os.environ["COMPANION_LAN_ADDRESS"] = f.read().strip()
        except OSError:
            pass
        time.sleep(0.05)
threading.Thread(target=_watch, daemon=True).start()
"""


def test_with_lan_the_addresses_follow_the_machines_address(tmp_path):
    import http.client
    import time

    home = _den(tmp_path / "home")
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(MOVING)
    lan = tmp_path / "lan"
    lan.write_text("127.0.0.2")
    served = serve(
        home,
        "--lan",
        PYTHONPATH=str(hook),
        LAN_FILE=str(lan),
        COMPANION_LAN_ADDRESS="127.0.0.2",
        COMPANION_SERVE_FOLLOW_EVERY="0.2",
    )
    try:
        found = doors(served)
        assert served.host == "127.0.0.2" and found["seat heroes"].url.startswith("http://127.0.0.2:")
        said = "".join(served.lines)
        assert "With --lan anyone on this network" in said  # what it exposes
        printed = len(served.lines)
        lan.write_text("127.0.0.3")  # the laptop joins another network
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not any("read-only" in line for line in served.lines[printed + 1 :]):
            time.sleep(0.05)
        again = served.lines[printed:]
        assert again[0].startswith("This machine's address is now 127.0.0.3: every address is new."), again
        moved = {
            m["label"]: m["url"]
            for line in again
            if (m := re.match(r"^(?P<label>seat .+?|host|read-only)  (?P<url>\S+)$", line.rstrip("\n")))
        }
        assert set(moved) == {"host", "seat dragon", "seat heroes", "read-only"}
        for label, url in moved.items():
            assert url.startswith(f"http://127.0.0.3:{served.port}/"), (label, url)
            assert url.split("token=")[1] == found[label].token  # the same tokens: only the address moved
        # The heroes' page answers at the new address, and the old one takes no new connection.
        conn = http.client.HTTPConnection("127.0.0.3", served.port, timeout=60)
        conn.request(
            "GET", f"/s/heroes/?token={found['seat heroes'].token}", headers={"Host": f"127.0.0.3:{served.port}"}
        )
        page = conn.getresponse()
        assert page.status == 200 and "the dragon player is rolling" in _words(page.read().decode())
        conn.close()
        with pytest.raises(OSError):
            old = http.client.HTTPConnection("127.0.0.2", served.port, timeout=10)
            old.request("GET", "/ping")
            old.getresponse()
    finally:
        served.stop()


def test_the_dark_tower_has_a_seat_a_player_and_a_turn_is_its_players(tmp_path):
    home = tmp_path / "home"
    _run(home, "new", "dark-tower", "--name", "turn", "--seed", "5")
    _run(home, "dark", "card", "hero", "Rogue", "--health", "8", "--bonus", "1,1,2")
    _run(home, "dark", "card", "item", "Sword", "--class", "weapon", "--bonus", "2")
    _run(home, "dark", "card", "item", "Mail", "--class", "armor", "--bonus", "1", "--single")
    for answer in ("en", "table", "Ana", "=clan-champion", "=add", "Bo", "=rogue", "=done", "=sword", "=mail"):
        _run(home, "next", "--", answer)
    for answer in ("=+none", "=ready", "1"):
        _run(home, "next", "--", answer)
    served = serve(home)
    try:
        found = doors(served)
        assert list(found) == ["host", "seat Ana", "seat Bo", "read-only"]
        ana, bo = found["seat Ana"], found["seat Bo"]
        assert 'name="answer"' in ana.get()[1]
        page = bo.get()[1]
        assert "Ana is choosing" in _words(page) and 'name="answer"' not in page
        before = _events(found)
        refused = bo.post("answer", answer="1")
        assert refused["status"] == 403 and refused["error"] == "that step is not this seat's: Ana is choosing"
        assert _events(found) == before
        assert ana.post("answer", answer="1")["ok"]
        assert _events(found) > before
    finally:
        served.stop()
