"""Many requests at once against ``companion serve`` (loopback only, bounded in count and time).

Each of ``connections`` keep-alive connections is opened at once and then, until ``seconds`` have
passed, asks for the page; the first ``writers`` of them post, every other request (the first
too), a note with a name of its own (``load CONNECTION N``): what the server acknowledged (303)
must be in the log exactly once, and nothing that was not sent may be there.

Why only some write: each note is a durable write (an append and its fsync, the log brought up to
date), run one at a time in the server's process, so a thousand writers would spend the test
waiting in the server's queue after the ten seconds are up. A hundred writers among a thousand
readers keep writes in flight all the time, and the test affordable on a loaded 2-core machine.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode


@dataclass
class Report:
    pages: int = 0
    notes: int = 0
    errors: int = 0
    #: How many of the connections were open at once when the requests began.
    connected: int = 0
    sent: list[str] = field(default_factory=list)
    acknowledged: list[str] = field(default_factory=list)


async def _response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        if line.lower().startswith("content-length:"):
            length = int(line.split(":", 1)[1])
    body = await reader.readexactly(length) if length else b""
    return status, body


async def _client(
    served: Any, n: int, clock: dict[str, float], report: Report, start: asyncio.Event, writes: bool
) -> None:
    host = f"{served.host}:{served.port}"
    cookie = f"companion_token_{served.port}={served.token}"
    try:
        reader, writer = await asyncio.open_connection(served.host, served.port)
    except OSError:
        report.errors += 1
        clock["open"] += 1
        return
    clock["open"] += 1
    report.connected += 1
    await start.wait()
    i = 0
    try:
        while time.monotonic() < clock["until"]:
            i += 1
            if writes and i % 2 == 1:
                note = f"load {n} {i}"
                body = urlencode({"note": note}).encode()
                report.sent.append(note)
                writer.write(
                    (
                        f"POST /note HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\n"
                        "Content-Type: application/x-www-form-urlencoded\r\n"
                        f"Content-Length: {len(body)}\r\n\r\n"
                    ).encode()
                    + body
                )
                await writer.drain()
                status, _ = await _response(reader)
                if status == 303:
                    report.notes += 1
                    report.acknowledged.append(note)
                else:
                    report.errors += 1
            else:
                writer.write(f"GET / HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\n\r\n".encode())
                await writer.drain()
                status, body = await _response(reader)
                if status == 200 and b"</html>" in body:
                    report.pages += 1
                else:
                    report.errors += 1
    except (OSError, asyncio.IncompleteReadError, ValueError):
        report.errors += 1
    finally:
        writer.close()


def hammer(served: Any, *, connections: int = 1000, seconds: float = 10.0, writers: int = 100) -> Report:
    """``connections`` opened at once, then all asking for ``seconds`` (each finishes the request it
    is in when the time is up); the first ``writers`` post notes too."""
    report = Report()

    async def main() -> None:
        start = asyncio.Event()
        clock = {"until": 0.0, "open": 0}
        tasks = [asyncio.create_task(_client(served, n, clock, report, start, n < writers)) for n in range(connections)]
        deadline = time.monotonic() + 120
        while clock["open"] < connections and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        clock["until"] = time.monotonic() + seconds
        start.set()
        await asyncio.wait(tasks, timeout=seconds + 300)

    asyncio.run(main())
    return report


@dataclass
class Streams:
    """What ``count`` open streams saw: how many connected and got their first event, how many got
    the update after the change, and each stream's last page (by door) for what it must not hold."""

    connected: int = 0
    first: int = 0
    updated: int = 0
    errors: int = 0
    pages: dict[str, list[str]] = field(default_factory=dict)


async def _event(reader: asyncio.StreamReader) -> tuple[str, dict[str, Any]]:
    """The next server-sent event on a stream (HTTP/1.0: the body as it comes, no chunks)."""
    import json

    ident = ""
    while True:
        line = (await reader.readline()).decode()
        if not line:
            raise asyncio.IncompleteReadError(b"", None)
        if line.startswith("id: "):
            ident = line[4:].strip()
        elif line.startswith("data: "):
            return ident, json.loads(line[6:])


def streams(served: Any, doors: list[Any], change: Any, *, count: int = 1000) -> Streams:
    """``count`` streams opened at once across ``doors`` (each a tests.serve_support.Door, visited),
    each reading its first event; then ``change()`` (run in a thread: a tap), and every stream must
    get the update it made."""
    report = Streams()

    async def one(n: int, opened: asyncio.Event, ready: dict[str, int], go: asyncio.Event) -> None:
        door = doors[n % len(doors)]
        try:
            reader, writer = await asyncio.open_connection(served.host, served.port)
        except OSError:
            report.errors += 1
            ready["n"] += 1
            return
        try:
            report.connected += 1
            writer.write(
                (
                    f"GET {door.path}events HTTP/1.0\r\nHost: {served.host}:{served.port}\r\n"
                    f"Cookie: {door.cookie}={door.token}\r\n\r\n"
                ).encode()
            )
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            if b" 200 " not in head.split(b"\r\n", 1)[0]:
                raise ValueError(head[:40])
            _, first = await _event(reader)
            report.first += 1
            ready["n"] += 1
            await go.wait()
            while True:
                _, data = await _event(reader)
                if data["version"] > first["version"]:
                    break
            report.updated += 1
            report.pages.setdefault(door.label, []).append(data["html"])
        except (OSError, asyncio.IncompleteReadError, ValueError, asyncio.LimitOverrunError):
            report.errors += 1
            ready["n"] += 1
        finally:
            writer.close()

    async def main() -> None:
        ready = {"n": 0}
        go = asyncio.Event()
        tasks = [asyncio.create_task(one(n, asyncio.Event(), ready, go)) for n in range(count)]
        deadline = time.monotonic() + 300
        while ready["n"] < count and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        await asyncio.get_running_loop().run_in_executor(None, change)
        go.set()
        await asyncio.wait(tasks, timeout=300)

    asyncio.run(main())
    return report
