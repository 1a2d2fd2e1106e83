"""Starting and stopping ``companion serve``: the lock, the address, the QR code, uvicorn, the signals.

1. The session's lock first (the shell's way): a second ``serve``, ``shell`` or ``play`` on it, on
   any port, is refused with the lock's line and exit 1.
2. The socket is bound (127.0.0.1, or the machine's network address with ``--lan``; port 0 picks a
   free one), then one line a door (:mod:`companion.serve.seats`): ``seat table  URL`` for a game
   played at one page; else ``host  URL`` (the laptop's page) and ``seat NAME  URL`` a seat, each with
   its own token (and its QR code with ``--qr``); then ``read-only  URL``, the public table as data.
   A seat that joins later (a hero added) is printed when it does; with ``--lan``, when the machine's
   address changes, the server listens on the new one and prints every address again.
3. uvicorn serves until Ctrl-C, SIGTERM or SIGHUP: a signal only asks it to stop (a command being
   run for a tap finishes first, and its answer is sent), every page's stream is ended, the lock is
   released, and the command ends as any other does on that signal: one line, 130, 143 or 129.

Every tap's action is recorded (appended durably) before its answer is sent, so kill -9 keeps every
acknowledged action.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import signal
import socket
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError
from companion.i18n import _

if TYPE_CHECKING:
    from collections.abc import Iterator

    from companion.cli.env import Env

DEFAULT_PORT = 8765
LOOPBACK = "127.0.0.1"
#: ``--lan`` serves this address when it is set (a machine with several networks).
LAN_VARIABLE = "COMPANION_LAN_ADDRESS"


def lan_address() -> str:
    """The machine's own address on its network (what a phone beside it reaches)."""
    given = os.environ.get(LAN_VARIABLE, "").strip()
    if given:
        try:
            return str(ipaddress.IPv4Address(given))
        except ValueError:
            raise CompanionError(
                _("{var}={value!r} is no IPv4 address").format(var=LAN_VARIABLE, value=given)
            ) from None
    found = None
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            ip = str(info[4][0])
            if not ip.startswith("127."):
                found = ip
                break
    except OSError:
        pass
    if found is None:
        # Which address the machine would send from: a UDP socket's connect only picks the route,
        # it sends nothing.
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): never a real host
            ip = probe.getsockname()[0]
            found = ip if not ip.startswith(("127.", "0.")) else None
        except OSError:
            found = None
        finally:
            probe.close()
    if found is None:
        raise CompanionError(
            _("--lan found no network address on this machine"),
            hint=_("join the phone's network first, or set {var} to the address to serve").format(var=LAN_VARIABLE),
        )
    return found


def bind(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno in (98, 48, 10048):  # EADDRINUSE on Linux, macOS, Windows
            raise CompanionError(
                _("port {port} is in use on {host}").format(port=port, host=host),
                hint=_("pick another with --port N (--port 0 picks a free one)"),
            ) from None
        raise CompanionError(
            _("cannot serve on {host}:{port}: {why}").format(host=host, port=port, why=exc.strerror or exc)
        ) from None
    sock.listen(2048)
    sock.setblocking(False)
    return sock


def qr_lines(url: str) -> str:
    """The address as a QR code of text blocks (segno, pure Python), to scan from the terminal."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def run(
    env: Env,
    root_args: list[str],
    name: str | None,
    *,
    port: int = DEFAULT_PORT,
    lan: bool = False,
    token_file: Path | None = None,
    qr: bool = False,
    per_player: bool = False,
) -> int:
    """Serve session ``name`` (or the active one) until a signal; the exit code is the signal's."""
    from companion.cli.kit import active_name
    from companion.serve.table import Table
    from companion.serve.tokens import load_or_make

    warnings: list[str] = []
    token = load_or_make(token_file, warnings)
    host = lan_address() if lan else LOOPBACK
    table = Table(env, root_args, per_player=per_player)
    table.token = token
    chosen = name or active_name(env)
    if chosen is None:
        raise CompanionError(
            _("no session is active"), hint=_("start one with: companion new GAME (or pick one: companion use NAME)")
        )
    table.hold(chosen)  # refused with the lock's line when the session is in use elsewhere
    try:
        sock = bind(host, port)
        from companion.serve.app import make_app
        from companion.serve.guard import Address

        address = Address(host, sock.getsockname()[1])
        assert table.doors is not None
        printer = Printer(env, address, table.doors, qr)
        printer.addresses()
        view = table.view
        from companion.cli.env import fold_for

        where = f"{host}:{address.port}"
        said = [
            _("Serving {session} ({game}) on {where}: each seat opens its own address above.").format(
                session=table.name, game=view.title if view else "", where=where
            )
            if not table.doors.solo
            else _("Serving {session} ({game}) on {where}: open the address above, or scan its code (--qr).").format(
                session=table.name, game=view.title if view else "", where=where
            ),
            _("Only this machine can reach it; add --lan for a phone on the same network.")
            if not lan
            else _(
                "With --lan anyone on this network who has the address (its token) can see this session and "
                "play it: its table, its log, every button. It is plain HTTP: keep the address to yourself, "
                "and on a network you do not trust leave --lan off."
            ),
            _("Ctrl-C stops it; every tap is saved as it is made."),
        ]
        if not table.doors.solo:
            said.insert(
                1,
                _(
                    "Each seat's address shows only what that seat may see and answers only its steps: "
                    "give each player their own, and keep the host's and the others to yourself."
                ),
            )
        for line in said:  # at a terminal, folded at its width between words
            env.stdout.write(fold_for(env.stdout, line) + "\n")
        env.stdout.flush()
        for line in warnings:  # after the addresses: the first line printed is always an address
            env.warn(line)
        table.on_seats = printer.joined
        server = _server(make_app(table, address), table.hub, (address, printer) if lan else None)
        asyncio.run(server.serve(sockets=[sock]))
        sock.close()
    finally:
        table.release()
    return _ending(server.stopped_by)


def _ending(signum: int | None) -> int:
    """After a signal: end as every command does on it (its one line, its code, from the group)."""
    if signum is None:
        return 0
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    from companion.cli.signals import Terminated

    raise Terminated(signum, signal.Signals(signum).name)


class Printer:
    """The doors' addresses on the server's terminal: one line a door, ``seat NAME  URL`` (its QR code
    under it with ``--qr``), again for a seat that joins and after the machine's address changed."""

    def __init__(self, env: Env, address: Any, doors: Any, qr: bool) -> None:
        self.env, self.address, self.doors, self.qr = env, address, doors, qr

    def _door(self, label: str, door: Any) -> None:
        url = door.url(self.address.host, self.address.port)
        self.env.stdout.write(visible(f"{label}  {url}") + "\n")
        if self.qr:
            self.env.stdout.write(qr_lines(url))

    def addresses(self) -> None:
        """Every door: the host's (the ``table`` seat's, for a game played at one page), every seat's,
        the read-only feed's."""
        doors = self.doors
        self._door("seat table" if doors.solo else "host", doors.host)
        for door in doors.seat_doors():
            self._door(f"seat {door.seat}", door)
        feed = f"http://{self.address.host}:{self.address.port}/state.json?token={doors.feed}"
        self.env.stdout.write(f"read-only  {feed}\n")
        self.env.stdout.flush()

    def joined(self, doors: list[Any]) -> None:
        """Seats that joined the table (the players are known now): their addresses."""
        for door in doors:
            self._door(f"seat {door.seat}", door)
        self.env.stdout.flush()

    def moved(self) -> None:
        self.env.stdout.write(
            _("This machine's address is now {host}: every address is new.").format(host=self.address.host) + "\n"
        )
        self.addresses()


#: How often ``--lan`` looks at the machine's address (a laptop that joined another network).
FOLLOW_EVERY = 3.0


def visible(text: str) -> str:
    from companion.controls import visible as shown

    return shown(text)


def _server(app: Any, hub: Any, follow: tuple[Any, Printer] | None = None) -> Any:
    import uvicorn

    _quiet_logs()

    class Server(uvicorn.Server):
        """uvicorn's server, with companion's signals: each only asks it to stop; with ``--lan`` it
        follows the machine's address."""

        stopped_by: int | None = None
        _following: Any = None

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if follow is not None:
                self._following = asyncio.create_task(self.follow(*follow))

        def protocol(self) -> Any:
            """A connection's protocol, as uvicorn makes one for the sockets it was started with."""
            config = self.config
            return config.http_protocol_class(  # type: ignore[call-arg]
                config=config, server_state=self.server_state, app_state=self.lifespan.state
            )

        async def follow(self, address: Any, printer: Printer) -> None:
            """Every few seconds, the machine's address: when it changed, listen there instead (the
            same port) and print every address again."""
            loop = asyncio.get_running_loop()
            while not self.should_exit:
                await asyncio.sleep(float(os.environ.get("COMPANION_SERVE_FOLLOW_EVERY", FOLLOW_EVERY)))
                try:
                    now = await loop.run_in_executor(None, lan_address)
                    if now == address.host:
                        continue
                    sock = bind(now, address.port)
                except CompanionError:
                    continue  # no network for now, or the port is taken there: look again later
                server = await loop.create_server(self.protocol, sock=sock, backlog=self.config.backlog)
                for old in self.servers:
                    old.close()  # the old address is gone: nothing more is accepted there
                self.servers.append(server)
                address.host = now
                printer.moved()

        @contextmanager
        def capture_signals(self) -> Iterator[None]:
            wanted = [signal.SIGINT, signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
            saved = {s: signal.signal(s, self.on_signal) for s in wanted}
            try:
                yield
            finally:
                for s, handler in saved.items():
                    signal.signal(s, handler)

        def on_signal(self, signum: int, frame: Any) -> None:
            if self.should_exit:  # a second signal while stopping: stop at once
                self.force_exit = True
            if self.stopped_by is None:
                self.stopped_by = signum
            self.should_exit = True

        async def shutdown(self, sockets: Any = None) -> None:
            if self._following is not None:
                self._following.cancel()
            hub.close()  # every page's stream ends, so no connection keeps the server waiting
            await super().shutdown(sockets)

    config = uvicorn.Config(
        app,
        lifespan="off",
        ws="none",
        http=_protocol(),
        loop="none",
        log_config=None,
        log_level="error",
        access_log=False,
        proxy_headers=False,
        server_header=False,
        timeout_graceful_shutdown=3,
        timeout_keep_alive=30,
    )
    return Server(config)


#: How long a request may take to arrive whole (its head and its body), in seconds: a page's taps are a
#: few hundred bytes; a connection that sends half a request and waits is closed after this.
REQUEST_TIMEOUT = 5.0


def _protocol() -> type:
    """uvicorn's h11 protocol with a deadline for the request to arrive whole (uvicorn has none: 300
    half-sent requests were held open as long as their senders liked, which matters with --lan). The
    clock starts when the connection opens (or a kept-alive one starts its next request) and stops once
    the request's last byte is in; a stream the page keeps open (its live updates) is a whole request."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Protocol(H11Protocol):
        _deadline: Any = None

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._start()

        def _start(self) -> None:
            self._stop()
            timeout = float(os.environ.get("COMPANION_SERVE_REQUEST_TIMEOUT", REQUEST_TIMEOUT))
            self._deadline = self.loop.call_later(timeout, self._too_slow)

        def _stop(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def data_received(self, data: bytes) -> None:
            if self._deadline is None and self.conn.their_state is h11.IDLE:
                self._start()  # a kept-alive connection begins its next request
            super().data_received(data)
            if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR):
                self._stop()  # the request is in whole

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop()
            super().connection_lost(exc)

        def _too_slow(self) -> None:
            self._deadline = None
            if self.conn.their_state not in (h11.DONE, h11.MUST_CLOSE) and not self.transport.is_closing():
                self.transport.close()

    return Protocol


def _quiet_logs() -> None:
    """uvicorn's own lines (a bad request from a scanner, a dropped connection) are not the player's:
    errors only, one line each, never a traceback unless COMPANION_DEBUG is set."""

    class OneLine(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            if os.environ.get("COMPANION_DEBUG"):
                return super().format(record)
            return "companion serve: " + record.getMessage().splitlines()[0]

        def formatException(self, ei: Any) -> str:
            return ""

    handler = logging.StreamHandler()
    handler.setFormatter(OneLine())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi"):
        log = logging.getLogger(name)
        log.handlers = [handler] if name == "uvicorn" else []
        log.propagate = name != "uvicorn"
        log.setLevel(logging.ERROR)
