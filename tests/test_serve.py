"""``companion serve`` as a player and an attacker meet it: run as its own process on the loopback
address, spoken to over HTTP with every header in the test's hands.

- the first line is the table seat's address with the token (a QR code with ``--qr``), the lock is held;
- a tap is the command typed: the same answers through the page and through ``companion next``
  leave the same ``status --json`` and the same log;
- nobody else gets in: no token or a wrong one is 403, a wrong Host 400, a change by GET refused,
  a path outside the static files 404, a strict CSP on every answer;
- it ends cleanly on SIGINT, SIGTERM and SIGHUP, and kill -9 keeps every acknowledged tap.
"""

from __future__ import annotations

import json
import os
import re
import signal
import stat
import threading
import time

import pytest

from tests.serve_support import companion, read_events, serve

pytestmark = pytest.mark.slow


def _new(home, *args):
    done = companion(home, "new", *args)
    assert done.returncode == 0, done.stderr


@pytest.fixture
def tower(tmp_path):
    home = tmp_path / "home"
    _new(home, "inverted-tower", "--hero", "Aria", "--seed", "3", "--name", "run")
    return home


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    """One server for the checks that change nothing."""
    home = tmp_path_factory.mktemp("guarded") / "home"
    _new(home, "freeform", "--name", "quiet", "--seed", "1")
    served = serve(home)
    yield served, home
    served.stop()


def _events(home, name):
    done = companion(home, "--session", name, "status", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# ---- starting ----------------------------------------------------------------------------------


def test_the_first_line_is_the_table_seats_address_a_qr_code_with_qr_and_the_lock_is_held(tower):
    served = serve(tower, "--qr")
    try:
        # A solo game: one seat, the table, at the host's own page (today's page).
        assert re.fullmatch(r"seat table  http://127\.0\.0\.1:\d+/\?token=[A-Za-z0-9_-]{32}", served.first)
        text = "".join(served.lines)
        assert text.count("█") > 100 and "▄" in text  # the QR code, in text blocks
        assert "Ctrl-C" in text
        assert re.search(r"^read-only  http://127\.0\.0\.1:\d+/state\.json\?token=[A-Za-z0-9_-]{32}$", text, re.M)
        assert text.count("seat ") == 1  # no other seat
        # A second serve on the same session, on another port, and a shell: refused, exit 1, the lock's line.
        for args in (["serve", "--port", "0"], ["shell"]):
            done = companion(tower, *args, timeout=120)
            assert done.returncode == 1, (args, done.stdout, done.stderr)
            assert "is in use by another companion process" in done.stderr
            assert "companion serve" in done.stderr  # who holds it
            assert "Traceback" not in done.stderr
        # A reader reads it while it is held (#33), and a change is refused with the holder's line.
        done = companion(tower, "status", timeout=120)
        assert done.returncode == 0 and "The Inverted Tower" in done.stdout, (done.stdout, done.stderr)
        done = companion(tower, "note", "x", timeout=120)
        assert done.returncode == 1 and "companion serve" in done.stderr, (done.stdout, done.stderr)
    finally:
        code, _out = served.stop()
    assert code == 143
    # The lock is released: the next command opens the session.
    assert companion(tower, "status").returncode == 0


def test_every_example_of_its_help_runs_as_typed(tower, tmp_path):
    """Each example of ``serve --help`` starts a server (on a free port where the example names none:
    8765 may be taken on a shared machine), prints its address first, and stops on Ctrl-C with 130."""
    from tests.test_help_examples import _argv, _examples, _help

    lines = _examples(["serve"], _help(["serve"]))
    assert len(lines) >= 4 and any("--token-file" in line for line in lines)
    assert companion(tower, "new", "freeform", "--name", "my-run").returncode == 0
    for line, argv in zip(lines, _argv(tmp_path, lines), strict=True):
        assert isinstance(argv, list) and argv[:2] == ["companion", "serve"], (line, argv)
        args = argv[2:] if "--port" in argv else [*argv[2:], "--port", "0"]
        if "--lan" in args and not _has_lan():
            continue
        served = serve(tower, *args, cwd=str(tmp_path), port=None)
        code, said = served.stop(signal.SIGINT)
        assert code == 130 and "Traceback" not in said, (line, said)
    assert (tmp_path / "serve.token").exists()


def _has_lan() -> bool:
    from companion.errors import CompanionError
    from companion.serve.server import lan_address

    try:
        lan_address()
    except CompanionError:
        return False
    return True


def test_no_session_is_one_line_exit_1(tmp_path):
    done = companion(tmp_path / "home", "serve", "--port", "0")
    assert done.returncode == 1
    assert done.stderr.startswith("companion: no session is active")
    assert "Traceback" not in done.stderr


def test_a_port_in_use_is_one_line_exit_1(guarded):
    served, home = guarded
    other = home.parent / "other"
    _new(other, "freeform", "--name", "other")
    done = companion(other, "serve", "--port", str(served.port))
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"port {served.port} is in use" in done.stderr
    assert done.stdout == ""  # no address printed for a server that never ran


@pytest.mark.parametrize(("sig", "code", "name"), [(signal.SIGINT, 130, None), (signal.SIGHUP, 129, "SIGHUP")])
def test_it_ends_with_one_line_and_the_signals_code(tower, sig, code, name):
    served = serve(tower)
    assert served.post("/answer", answer="1")["ok"]
    got, out = served.stop(sig)
    assert got == code
    said = [line for line in out.splitlines()[served.lines.index(served.lines[-1]) :] if line.strip()]
    expected = f"ended by {name}" if name else "interrupted"
    assert said[-1].startswith("companion: ") and expected in said[-1], out
    assert "Traceback" not in out
    assert _events(tower, "run")["meta"]["events"] >= 1  # the tap was kept, the lock released


def test_the_token_file_keeps_the_address_across_restarts(tower, tmp_path):
    path = tmp_path / "token"
    first = serve(tower, "--token-file", str(path))
    first.stop()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = serve(tower, "--token-file", str(path))
    try:
        assert again.token == first.token == path.read_text().strip()
        assert again.request("GET", "/", token=first.token)[0] == 200
    finally:
        again.stop()
    path.write_text("not a token!\n")
    done = companion(tower, "serve", "--port", "0", "--token-file", str(path))
    assert done.returncode == 1 and "holds no token" in done.stderr


def test_lan_serves_the_network_address_and_only_it(tower):
    served = serve(tower, "--lan", COMPANION_LAN_ADDRESS="127.0.0.2")
    try:
        assert served.first.startswith("seat table  http://127.0.0.2:")
        assert served.request("GET", "/")[0] == 200
        # Not on the loopback address it would bind without --lan.
        with pytest.raises(OSError):
            import socket

            socket.create_connection(("127.0.0.1", served.port), timeout=10).close()
        # And the Host it answers to is the network address's.
        assert served.request("GET", "/", host=f"127.0.0.1:{served.port}")[0] == 400
    finally:
        served.stop()
    said = "".join(served.lines)
    assert "add --lan" not in said  # the hint to add --lan is for the loopback address only
    assert "anyone on this network who has the address (its token) can see this session and play it" in said
    assert "plain HTTP" in said


def test_lan_says_in_its_help_what_it_exposes(tmp_path):
    done = companion(tmp_path / "home", "serve", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "anyone on that network who has the address (its token) can see and play the session" in text


@pytest.mark.parametrize("what", ["fifo", "device", "folder", "big"])
def test_a_token_file_that_is_no_token_file_is_one_line_at_once(tower, tmp_path, what):
    path = {"device": "/dev/zero"}.get(what, tmp_path / "token")
    if what == "fifo":
        os.mkfifo(path)
    elif what == "folder":
        path.mkdir()
    elif what == "big":
        path.write_text("x" * 100_000)
    done = companion(
        tower, "serve", "--port", "0", "--token-file", str(path), timeout=60
    )  # never waits, never reads on
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[0].startswith(f"companion: the token file {path} ") and "Traceback" not in done.stderr, lines
    assert {"fifo": "is a FIFO", "device": "is a device", "folder": "is a folder", "big": "100000 bytes"}[
        what
    ] in lines[0]


def test_a_token_file_others_can_read_is_used_with_a_warning(tower, tmp_path):
    path = tmp_path / "token"
    path.write_text("A" * 32 + "\n")
    path.chmod(0o644)
    served = serve(tower, "--token-file", str(path))
    try:
        assert served.token == "A" * 32
    finally:
        served.stop()
    said = "".join(served.lines)
    assert f"the token file {path} can be read by others on this machine (mode 644)" in said
    assert f"chmod 600 {path}" in said


def test_half_sent_requests_are_closed_within_seconds_and_leaving_mid_body_says_nothing(tower):
    """300 connections that send half a request (a head cut short, a body shorter than it said, nothing)
    and wait: the server closes each once its deadline passes (REQUEST_TIMEOUT, 5 s; 0.5 s here, set by
    COMPANION_SERVE_REQUEST_TIMEOUT) and answers others meanwhile; a client that leaves in the middle of
    a body leaves no line in the server's output."""
    import socket

    from companion.serve.server import REQUEST_TIMEOUT

    assert REQUEST_TIMEOUT == 5.0
    deadline = 0.5
    served = serve(tower, COMPANION_SERVE_REQUEST_TIMEOUT=str(deadline))
    try:
        host = f"{served.host}:{served.port}"
        cookie = f"companion_token_{served.port}={served.token}"
        heads = [
            f"GET / HTTP/1.1\r\nHost: {host}\r\n".encode(),  # the head cut short
            f"POST /note HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\nnote=half".encode(),
            b"",  # nothing at all
        ]
        start = time.monotonic()
        sockets = []
        for i in range(300):
            sock = socket.create_connection((served.host, served.port), timeout=60)
            sock.sendall(heads[i % 3])
            sockets.append(sock)
        limit = time.monotonic() - start + 10 * deadline  # ten times what it needs
        for sock in sockets:
            sock.settimeout(max(0.1, limit - (time.monotonic() - start)))
            assert sock.recv(1024) == b""  # closed by the server (not in time: socket.timeout)
            sock.close()
        assert served.request("GET", "/ping")[0] == 204  # and it answers as before
        for _ in range(20):  # clients that leave in the middle of a body
            sock = socket.create_connection((served.host, served.port), timeout=60)
            sock.sendall(heads[1])
            sock.close()
        assert served.request("GET", "/ping")[0] == 204
    finally:
        code, said = served.stop()
    assert code == 143
    assert "Exception" not in said and "Traceback" not in said, said
    assert _events(tower, "run")["events"] == 0  # no half-sent note was taken


# ---- nobody else gets in -----------------------------------------------------------------------


def test_no_token_or_a_wrong_one_is_403_and_the_right_one_sets_the_cookie(guarded):
    served, _ = guarded
    assert served.request("GET", "/", token=False)[0] == 403
    assert served.request("GET", "/?token=" + "x" * 32, token=False)[0] == 403
    assert served.request("GET", "/", token="A" * 32)[0] == 403
    assert served.request("GET", "/", token=served.token[:-1] + ("A" if served.token[-1] != "A" else "B"))[0] == 403
    status, headers, body = served.request("GET", f"/?token={served.token}", token=False)
    assert status == 200 and b'<form method="post"' in body
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"companion_token_{served.port}={served.token};")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    # Then the cookie alone is enough, and the page and the static files never need the token again.
    assert served.request("GET", "/")[0] == 200
    assert served.request("GET", "/static/serve.css")[0] == 200
    for path in ("/events", "/part", "/ping", "/static/serve.js"):
        assert served.request("GET", path, token=False)[0] == 403, path


def test_a_wrong_host_is_400_even_with_the_token(guarded):
    served, _ = guarded
    for host in ("evil.example:80", f"evil.example:{served.port}", "127.0.0.1", f"127.0.0.1:{served.port + 1}", ""):
        status, headers, _ = served.request("GET", "/", host=host)
        assert status == 400, host
        assert "content-security-policy" in headers
    assert served.request("GET", "/", host=f"localhost:{served.port}")[0] == 200


def test_every_answer_has_a_strict_csp(guarded):
    served, _ = guarded
    for path, token in (("/", True), ("/", False), ("/static/nothing", True), ("/static/serve.js", True)):
        _, headers, _ = served.request("GET", path, token=token)
        csp = headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp and "*" not in csp
        assert headers["x-content-type-options"] == "nosniff"


def test_a_change_by_get_is_refused_and_changes_nothing(guarded):
    served, _home = guarded
    before = served.request("GET", "/part")[2]
    for path in ("/answer?answer=roll", "/note?note=hi", "/undo", "/act?key=counter:hp&way=plus", "/item?item=rope"):
        assert served.request("GET", path)[0] == 405, path
    # GET / with a form's fields changes nothing either.
    assert served.request("GET", "/?answer=roll&note=hi")[0] == 200
    assert json.loads(served.request("GET", "/part")[2])["version"] == json.loads(before)["version"]


def test_a_post_from_another_site_or_without_the_token_is_refused(guarded):
    served, _ = guarded
    status, _, _ = served.request("POST", "/note", form={"note": "x"}, token=False)
    assert status == 403
    status, _, _ = served.request("POST", "/note", form={"note": "x"}, headers={"Origin": "http://evil.example"})
    assert status == 403
    # The token in a form's hidden field is enough without the cookie (no JavaScript, cookies off).
    status, headers, _ = served.request("POST", "/note", form={"note": "kept", "token": served.token}, token=False)
    assert status == 303 and headers["location"] == "/"


@pytest.mark.parametrize(
    "path",
    [
        "/static/../../etc/passwd",
        "/static/%2e%2e/%2e%2e/etc/passwd",
        "/static/..%2f..%2fetc%2fpasswd",
        "/static/%252e%252e%252fetc%252fpasswd",
        "/static/..%5c..%5cetc%5cpasswd",
        "/static/serve.css/../../../../etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/static//etc/passwd",
        "/static/.%2e/.%2e/companion/serve/app.py",
        "/static/../app.py",
        "/static/__init__.py",
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
    ],
)
def test_no_path_outside_the_static_files_is_read(guarded, path):
    served, _ = guarded
    status, _, body = served.request("GET", path)
    assert status == 404, (path, body[:200])
    assert b"root:" not in body and b"import" not in body


def test_a_wrong_token_takes_the_time_of_a_right_one(guarded):
    """The token is compared in constant time: a wrong token that shares all but its last character
    with the right one is answered as fast as one that shares nothing, and as a right one (on /ping,
    where the right answer does no more work than the refusal). Medians of interleaved requests."""
    served, _ = guarded
    token = served.token
    near = token[:-1] + ("A" if token[-1] != "A" else "B")
    far = "".join("A" if c != "A" else "B" for c in token)
    times: dict[str, list[float]] = {"right": [], "near": [], "far": []}
    for _ in range(150):
        for kind, value in (("right", token), ("near", near), ("far", far)):
            start = time.perf_counter()
            status, _, _ = served.request("GET", "/ping", token=value)
            times[kind].append(time.perf_counter() - start)
            assert status == (204 if kind == "right" else 403)
    med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
    spread = max(sorted(v)[len(v) * 3 // 4] - sorted(v)[len(v) // 4] for v in times.values())
    noise = max(0.002, 2 * spread)
    assert abs(med["near"] - med["far"]) <= noise, med
    assert abs(med["near"] - med["right"]) <= noise, med


# ---- a tap is the command typed ---------------------------------------------------------------


ANSWERS = ["1", "roll", "roll", "2", "roll", "roll", "roll", "roll", "roll", "roll"]


def _normal(text: str, home) -> str:
    text = text.replace(str(home), "HOME")
    text = re.sub(r'"(updated|created|started)": "[^"]*"', r'"\1": "…"', text)
    # the log's front matter: a time quoted (before #23's Obsidian dates) or not
    return re.sub(r"^(updated|created|started): .*$", r'\1: "…"', text, flags=re.M)


def test_the_same_answers_by_page_and_by_next_leave_the_same_session(tower, tmp_path):
    typed = tmp_path / "typed"  # the same new session in a home of its own, answered by `next`
    _new(typed, "inverted-tower", "--hero", "Aria", "--seed", "3", "--name", "run")
    served = serve(tower)
    try:
        for answer in ANSWERS:
            page = served.request("GET", "/part")
            version = json.loads(page[2])["version"]
            got = served.post("/answer", answer=answer, v=str(version))
            if not got["ok"]:
                break  # the game ended (or asks what the script did not foresee): both stop here
        served.post("/note", note="by the page")
        served.post("/act", key="counter:gold", way="plus")
    finally:
        served.stop()
    for answer in ANSWERS[: len(ANSWERS)]:
        done = companion(typed, "next", answer)
        if done.returncode != 0:
            break
    assert companion(typed, "note", "by the page").returncode == 0
    assert companion(typed, "gold", "+1").returncode == 0
    page_state, typed_state = _events(tower, "run"), _events(typed, "run")
    assert _normal(json.dumps(page_state, sort_keys=True), tower) == _normal(
        json.dumps(typed_state, sort_keys=True), typed
    )
    page_log = (tower / "logs" / "run.md") if (tower / "logs" / "run.md").exists() else None
    logs = [next((h / "logs").glob("*.md")).read_text() for h in (tower, typed)]
    assert _normal(logs[0], tower) == _normal(logs[1], typed)
    assert "by the page" in logs[0] and page_log is not None


def test_a_refusal_is_the_commands_own_line_and_changes_nothing(tower):
    served = serve(tower)
    try:
        got = served.post("/answer", answer="9")  # the menu has 3 options
        assert got["status"] == 400 and not got["ok"]
        assert "9" in got["error"] and "Traceback" not in got["error"]
        assert "companion:" not in got["error"]
        assert got["error"] in got["html"] or got["error"].splitlines()[0] in got["html"]
        # Without JavaScript: the page itself, with the line on it, and no redirect.
        status, _, body = served.request("POST", "/answer", form={"answer": "9"})
        assert status == 400 and b'class="error"' in body
        # An answer made on a page that was behind (the step moved on, on another page) is refused
        # (409) with the fresh step, and so is an undo.
        old = served.post("/answer", answer="1")["version"]
        assert served.post("/answer", answer="roll")["ok"]  # on another page
        served.post("/note", note="from another page")
        for path, form in (("/answer", {"answer": "roll"}), ("/undo", {})):
            stale = served.post(path, v=str(old), **form)
            assert stale["status"] == 409, stale
            assert "the table changed" in stale["error"] and stale["version"] > old
    finally:
        served.stop()
    state = _events(tower, "run")
    assert state["meta"]["events"] == 3  # the STR answer, the roll and the note: nothing else


def test_undo_names_what_it_takes_back(tower):
    served = serve(tower)
    try:
        served.post("/answer", answer="1")
        got = served.post("/act", key="counter:hp", way="minus")
        assert got["ok"], got
        assert "Undo: HP −1" in got["html"]
        got = served.post("/undo", v=str(got["version"]))
        assert got["ok"], got
        assert "Undo: Your hero: put 1 point in which attribute → STR: how strong your character is" in got["html"]
        assert "hero.attribute" not in got["html"]
        gone = served.post("/act", key="item:lantern", way="plus")
        assert gone["status"] == 409  # no such button on the table
    finally:
        served.stop()


def test_a_change_reaches_every_open_page_within_a_second(tower):
    served = serve(tower)
    try:
        got: list = []
        streams = [threading.Thread(target=lambda: got.append(read_events(served, 2)), daemon=True) for _ in range(2)]
        for s in streams:
            s.start()
        # Both streams have their first event (the table as it is) before the change.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(served.request("GET", "/part")[2]) == 0:
            time.sleep(0.05)
        time.sleep(0.5)
        start = time.monotonic()
        answer = served.post("/answer", answer="1")
        for s in streams:
            s.join(60)
        elapsed = time.monotonic() - start
    finally:
        served.stop()
    assert len(got) == 2
    for events in got:
        assert events[-1]["version"] == answer["version"]
        assert "Aria: +1 STR" in events[-1]["html"]
    assert elapsed < 10  # a second at most on an idle machine; ten times that here


def test_kill_9_mid_tap_keeps_every_acknowledged_action(tower):
    served = serve(tower)
    acknowledged: list[str] = []
    stop = threading.Event()

    def tap() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            try:
                status, _, _ = served.request("POST", "/note", form={"note": f"tap {n}"}, timeout=30)
            except OSError:
                return
            if status == 303:
                acknowledged.append(f"tap {n}")

    worker = threading.Thread(target=tap, daemon=True)
    worker.start()
    deadline = time.monotonic() + 120
    while len(acknowledged) < 20 and time.monotonic() < deadline:
        time.sleep(0.02)
    served.proc.send_signal(signal.SIGKILL)
    served.proc.wait(60)
    stop.set()
    worker.join(60)
    assert len(acknowledged) >= 20
    log = companion(tower, "--session", "run", "log")
    assert log.returncode == 0, log.stderr
    for note in acknowledged:
        assert f"Note: {note}\n" in log.stdout or f"Note: {note}" in log.stdout, note
    # Nothing twice.
    for note in acknowledged:
        assert log.stdout.count(f"Note: {note}\n") <= 1


def test_a_russian_session_gets_a_russian_page(tmp_path):
    home = tmp_path / "home"
    _new(home, "dark-tower", "--lang", "ru", "--name", "ru")
    served = serve(home)
    try:
        status, _, body = served.request("GET", "/")
    finally:
        served.stop()
    page = body.decode()
    assert status == 200 and '<html lang="ru">' in page
    assert "Журнал" in page and "Заметка для журнала" in page
    assert "The log" not in page and "A note for the log" not in page


def test_the_page_is_strict_html_and_loads_nothing_from_elsewhere(guarded):
    import html5lib

    served, _ = guarded
    _, _, body = served.request("GET", "/")
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    tree = parser.parse(body.decode())
    for el in tree.iter():
        for attr in ("src", "href", "action"):
            value = el.get(attr)
            if value is not None:
                # this server's own, relative to the page's door (a seat's page lives under /s/SLUG/)
                assert ":" not in value and not value.startswith("//"), (el.tag, value)
    forms = tree.findall(".//form")
    assert forms and all(f.get("method") == "post" for f in forms)
    assert not tree.findall(".//*[@style]") and not tree.findall(".//style")
    assert all(s.get("src") for s in tree.findall(".//script"))  # no inline script (the CSP forbids it)
    linked = [el.get("src") or el.get("href") or "" for el in tree.iter()]
    statics = [p for p in linked if p.startswith("static/")]
    assert len(statics) == 3
    for path in statics:
        assert served.request("GET", "/" + path)[0] == 200, path


def test_the_static_files_are_the_packages_own():
    from companion.serve import page

    for name in page.STATIC:
        data = page.static_file(name)
        assert data
        text = data.decode()
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text
    assert page.static_file("../app.py") is None and page.static_file("app.py") is None


@pytest.mark.skipif(os.environ.get("COMPANION_SKIP_LOAD") == "1", reason="COMPANION_SKIP_LOAD=1")
def test_a_thousand_requests_at_once_lose_and_duplicate_nothing(tower):
    from tests.serve_load import hammer

    served = serve(tower)
    try:
        report = hammer(served, connections=1000, seconds=float(os.environ.get("COMPANION_LOAD_SECONDS", "10")))
        assert served.proc.poll() is None  # still up
        assert served.request("GET", "/ping")[0] == 204
    finally:
        served.stop()
    assert report.connected == 1000 and report.errors == 0, (report.connected, report.errors)
    assert report.pages > 0 and report.notes > 0
    log = companion(tower, "--session", "run", "log").stdout
    for note in report.acknowledged:
        assert log.count(f"Note: {note}\n") == 1, note
    written = set(re.findall(r"Note: (load \d+ \d+)\n", log))
    assert set(report.acknowledged) <= written <= set(report.sent)
