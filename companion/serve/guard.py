"""Nobody else gets in: the Host header, the token, and the headers every response carries.

- A request whose ``Host`` is not the served address is refused with 400 before anything else (a
  page on another site cannot reach this server through a DNS name of its own: DNS rebinding).
- Every route needs its door's token (:mod:`companion.serve.seats`: the host's at ``/``, each seat's at
  ``/s/SLUG/``): ``?token=`` in the address (the QR code), then the cookie set from it (HttpOnly,
  SameSite=Strict, bound to the door's path and named for its seat), or a form's hidden ``token``
  field. Only that door's token is compared, in constant time (:func:`companion.serve.tokens.same`):
  another seat's token, the host's at a seat's door, missing or wrong is 403.
- Every change is a POST (a GET changes nothing); a POST whose ``Origin`` is another site is 403.
- Every response has a strict Content-Security-Policy (only this server's own script, style and
  images; no inline script, no frames) and is never cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.serve.tokens import same

if TYPE_CHECKING:
    from companion.serve.seats import Door

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


@dataclass
class Address:
    """Where the page is served: the host and port it binds, and the Host headers it answers (with
    ``--lan`` the host follows the machine's address when it changes)."""

    host: str
    port: int

    @property
    def hosts(self) -> frozenset[str]:
        names = {self.host}
        if self.host == "127.0.0.1":
            names.add("localhost")
        return frozenset(f"{n}:{self.port}".lower() for n in names)

    @property
    def origins(self) -> frozenset[str]:
        return frozenset(f"http://{h}" for h in self.hosts)


class Guard:
    """ASGI middleware: the Host check (400) and the security headers on every response."""

    def __init__(self, app: Any, address: Address) -> None:
        self.app = app
        self.address = address

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((v for k, v in scope.get("headers", ()) if k == b"host"), b"").decode("latin-1").lower()
        if host not in self.address.hosts:
            await _plain(send, 400, b"Bad Request: this server answers only to its own address\n")
            return

        async def with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


async def _plain(send: Any, status: int, body: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                *HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def allowed(
    request: Any, door: Door, address: Address, form: dict[str, list[str]] | None = None, *, also: str = ""
) -> bool:
    """Whether ``request`` carries ``door``'s token (address, the door's cookie or a form field; or
    ``also``, the read-only token where it opens the door) and, for a POST, comes from this server's
    own page (no ``Origin`` of another site)."""
    if request.method == "POST":
        origin = request.headers.get("origin")
        if origin is not None and origin.lower() not in address.origins:
            return False
    given = [request.query_params.get("token"), request.cookies.get(door.cookie(address.port))]
    if form is not None:
        given.extend(form.get("token", [])[:1])
    # Every candidate is compared (no early return), so the time does not say which one was there.
    results = [same(g, token) for g in given if g is not None for token in (door.token, also) if token]
    return any(results)
