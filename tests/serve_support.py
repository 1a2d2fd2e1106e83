"""Running ``companion serve`` as a player does (its own process, on the loopback address), and
talking to it over HTTP as a browser would, with every header in the test's hands (http.client)."""

from __future__ import annotations

import atexit
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

#: Starting Python and the server takes about a second on an idle machine.
START_WAIT = 120
#: The first line: the host's door, ``seat table  URL`` (a game played at one page) or ``host  URL``.
ADDRESS = re.compile(
    r"^(?P<label>seat table|host)  http://(?P<host>[0-9.]+):(?P<port>\d+)/\?token=(?P<token>[A-Za-z0-9_-]+)$"
)
#: Every door's line: ``seat NAME  URL`` (``host  URL``, ``read-only  URL``).
DOOR = re.compile(r"^(?P<label>seat .+?|host|read-only)  (?P<url>http://\S+)$")


def companion_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COMPANION_SESSION", "COLUMNS", "LINES")}
    env.update(COMPANION_HOME=str(home), COMPANION_LOGS=str(home / "logs"), PYTHONUNBUFFERED="1")
    env.update(extra)
    return env


def companion(home: Path, *args: str, timeout: float = 120, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=companion_env(home, **extra),
        stdin=subprocess.DEVNULL,
    )


@dataclass
class Served:
    proc: subprocess.Popen
    first: str
    host: str
    port: int
    token: str
    lines: list[str] = field(default_factory=list)
    _reader: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/?token={self.token}"

    def request(
        self,
        method: str,
        path: str,
        *,
        form: dict[str, Any] | list[tuple[str, str]] | None = None,
        headers: dict[str, str] | None = None,
        host: str | None = None,
        token: bool | str = True,
        timeout: float = 60,
    ) -> tuple[int, dict[str, str], bytes]:
        """One request; ``token`` True sends the token in the cookie, a string sends that as the cookie,
        False sends none."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        sent = {"Host": host if host is not None else f"{self.host}:{self.port}"}
        if token:
            value = self.token if token is True else token
            sent["Cookie"] = f"companion_token_{self.port}={value}"
        body = None
        if form is not None:
            body = urlencode(form, doseq=True)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["Content-Length"] = str(len(body.encode()))
        sent.update(headers or {})
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for k, v in sent.items():
            conn.putheader(k, v)
        conn.endheaders(body.encode() if body is not None else None)
        response = conn.getresponse()
        data = response.read()
        got = {k.lower(): v for k, v in response.getheaders()}
        conn.close()
        return response.status, got, data

    def post(self, path: str, **form: Any) -> dict[str, Any]:
        """A POST as the page's script makes it: the JSON answer."""
        status, _, data = self.request("POST", path, form=form, headers={"X-Companion": "fetch"})
        out = json.loads(data)
        out["status"] = status
        return out

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 120) -> tuple[int, str]:
        """Send ``sig`` and wait: the exit code and everything it printed (stdout and stderr)."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        code = self.proc.wait(timeout=timeout)
        if self._reader is not None:
            self._reader.join(timeout)
        return code, "".join(self.lines)


#: Every server a test started: one a failed assertion left running is killed when the test process
#: ends (a test stops its own with Served.stop; this only keeps a failure from leaving servers behind).
_STARTED: list[subprocess.Popen] = []


@atexit.register
def _kill_left_running() -> None:
    for proc in _STARTED:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def serve(home: Path, *args: str, cwd: str | None = None, port: str | None = "0", **extra: str) -> Served:
    """Start ``companion serve --port 0 ARGS`` (``port`` None: ARGS alone) and wait for its first line
    (the address)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", *(["--port", port] if port is not None else []), *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
        env=companion_env(home, **extra),
    )
    _STARTED.append(proc)
    lines: list[str] = []
    got_first = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            got_first.set()
        got_first.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline and not got_first.is_set():
        got_first.wait(0.2)
    first = lines[0].rstrip("\n") if lines else ""
    m = ADDRESS.match(first)
    if m is None:
        proc.kill()
        proc.wait()
        reader.join(10)
        raise AssertionError(f"companion serve did not print its address: {''.join(lines)!r}")
    # The first line is printed before the server listens: wait until it answers.
    served = Served(proc, first, m["host"], int(m["port"]), m["token"], lines, reader)
    while time.monotonic() < deadline:
        try:
            served.request("GET", "/ping", timeout=5)
            break
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(f"companion serve ended: {''.join(lines)!r}") from None
            time.sleep(0.05)
    return served


def read_events(served: Served, count: int, timeout: float = 60) -> list[dict[str, Any]]:
    """The first ``count`` server-sent events of a new stream, as a page's EventSource gets them."""
    conn = http.client.HTTPConnection(served.host, served.port, timeout=timeout)
    conn.putrequest("GET", "/events", skip_host=True, skip_accept_encoding=True)
    conn.putheader("Host", f"{served.host}:{served.port}")
    conn.putheader("Cookie", f"companion_token_{served.port}={served.token}")
    conn.endheaders()
    response = conn.getresponse()
    assert response.status == 200
    out = []
    while len(out) < count:
        line = response.fp.readline().decode()
        if not line:
            break
        if line.startswith("data: "):
            out.append(json.loads(line[6:]))
    conn.close()
    return out


@dataclass
class Door:
    """One door of a running server, as its page's browser reaches it: its address (``/s/SLUG/`` or
    ``/``), its token, and the cookie its first visit set (bound to its path)."""

    served: Served
    label: str
    url: str
    cookie: str = ""

    @property
    def path(self) -> str:
        return self.url.split(f":{self.served.port}", 1)[1].split("?", 1)[0]

    @property
    def token(self) -> str:
        return self.url.split("token=", 1)[1]

    def visit(self) -> dict[str, str]:
        """The first visit, with ``?token=``: the page sets the door's cookie (its headers are returned)."""
        status, headers, _body = self.served.request("GET", f"{self.path}?token={self.token}", token=False)
        assert status == 200, (self.label, status)
        self.cookie = headers["set-cookie"].split("=", 1)[0]
        return headers

    def request(self, method: str, sub: str = "", *, cookie: str | None = None, **kwargs: Any) -> Any:
        """A request to ``sub`` under this door with its cookie (``cookie``: another value in it)."""
        if not self.cookie:
            self.visit()
        value = self.token if cookie is None else cookie
        headers = {**kwargs.pop("headers", {}), "Cookie": f"{self.cookie}={value}"}
        return self.served.request(method, self.path + sub, token=False, headers=headers, **kwargs)

    def get(self, sub: str = "", **kwargs: Any) -> tuple[int, str]:
        status, _, body = self.request("GET", sub, **kwargs)
        return status, body.decode("utf-8", "replace")

    def post(self, sub: str, **form: Any) -> dict[str, Any]:
        """A POST as the page's script makes it: the JSON answer (and its status)."""
        status, _, data = self.request("POST", sub, form=form, headers={"X-Companion": "fetch"})
        out = json.loads(data)
        out["status"] = status
        return out

    def events(self, count: int = 1, *, last: str | None = None, timeout: float = 60) -> list[dict[str, Any]]:
        """The first ``count`` server-sent events of a new stream (``last``: its Last-Event-ID), each
        with its ``id``."""
        if not self.cookie:
            self.visit()
        conn = http.client.HTTPConnection(self.served.host, self.served.port, timeout=timeout)
        conn.putrequest("GET", self.path + "events", skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", f"{self.served.host}:{self.served.port}")
        conn.putheader("Cookie", f"{self.cookie}={self.token}")
        if last is not None:
            conn.putheader("Last-Event-ID", last)
        conn.endheaders()
        response = conn.getresponse()
        assert response.status == 200, response.status
        out: list[dict[str, Any]] = []
        ident = ""
        while len(out) < count:
            line = response.fp.readline().decode()
            if not line:
                break
            if line.startswith("id: "):
                ident = line[4:].strip()
            elif line.startswith("data: "):
                out.append({"id": ident, **json.loads(line[6:])})
        conn.close()
        return out


def doors(served: Served) -> dict[str, Door]:
    """Every door the server printed, by its label (``host``, ``seat table``, ``seat dragon``, ...,
    ``read-only``), waiting for lines printed after the first."""
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline and not any(line.startswith("read-only  ") for line in served.lines):
        time.sleep(0.05)
    found = {}
    for line in served.lines:
        m = DOOR.match(line.rstrip("\n"))
        if m:
            found[m["label"]] = Door(served, m["label"], m["url"])
    return found
