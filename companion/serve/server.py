"""Starting and stopping ``companion serve``: the lock, the address, the QR code, uvicorn, the signals.

1. The session's lock first (the shell's way): a second ``serve``, ``shell`` or ``play`` on it, on
   any port, is refused with the lock's line and exit 1.
2. The socket is bound (127.0.0.1, or the machine's network address with ``--lan``; port 0 picks a
   free one), then the first line printed is the address with the token, then its QR code.
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
) -> int:
    """Serve session ``name`` (or the active one) until a signal; the exit code is the signal's."""
    from companion.cli.kit import active_name
    from companion.serve.table import Table
    from companion.serve.tokens import load_or_make

    warnings: list[str] = []
    token = load_or_make(token_file, warnings)
    host = lan_address() if lan else LOOPBACK
    table = Table(env, root_args)
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
        url = address.url(token)
        env.stdout.write(url + "\n")
        env.stdout.write(qr_lines(url))
        view = table.view
        from companion.cli.env import fold_for

        said = [
            _("Serving {session} ({game}) on {where}: open the address above, or scan the code.").format(
                session=table.name, game=view.title if view else "", where=f"{host}:{address.port}"
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
        for line in said:  # at a terminal, folded at its width between words
            env.stdout.write(fold_for(env.stdout, line) + "\n")
        env.stdout.flush()
        for line in warnings:  # after the address: the first line printed is always the address
            env.warn(line)
        server = _server(make_app(table, token, address), table.hub)
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


def _server(app: Any, hub: Any) -> Any:
    import uvicorn

    _quiet_logs()

    class Server(uvicorn.Server):
        """uvicorn's server, with companion's signals: each only asks it to stop."""

        stopped_by: int | None = None

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
