"""The page's routes (Starlette). Every route needs its door's token; every change is a POST.

Every door (:mod:`companion.serve.seats`) has the same routes under its own path: the host's under
``/``, each seat's under ``/s/SLUG/`` (``/s/SLUG`` is sent on to it).

=================  ============================================================================
``GET  ./``        the page (``?token=`` the first time: the cookie is set from it; ``?f=4`` marks
                   the first die of a roll of several)
``GET  part``      the table's part of the page alone (what a live update replaces)
``GET  events``    server-sent events: the table's part again after every change, each numbered
                   (``id:``, the version); a page that comes back with ``Last-Event-ID`` gets the
                   whole table of its seat at once unless it already shows the newest
``GET  state.json`` the door's table as data; at the host's door also with the read-only token
``GET  ping``      204 while the server is up (a page that lost its stream asks before reconnecting)
``GET  static/N``  the package's own static files, by name from a fixed list
``POST answer``    ``answer``: the pending step's answer, run as ``companion next ANSWER``
``POST act``       ``key`` and ``way`` (minus or plus): a +/- button, run as its command
``POST item``      ``item``: ``companion item NAME +1``
``POST note``      ``note``: ``companion note TEXT``
``POST undo``      ``companion undo``
``POST back``      ``to``: a timeline entry's "back to here", run as ``companion undo --to N --yes``
``POST redo``      ``companion redo``
=================  ============================================================================

A POST carries ``v``, the version of the table the page showed: an answer or an undo made on a page
that was behind (the step moved on meanwhile, on another page) is refused with 409 and the table as it
is now, so one tap never answers a step it did not see. An answer to another seat's step (or an option
of it that is another seat's) is refused with 403 and one line. Without JavaScript a change is answered
with 303 to the page (a reload never sends it again); ``serve.js`` asks for JSON instead.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from companion.i18n import _
from companion.serve import page
from companion.serve.guard import Address, Guard, allowed
from companion.serve.table import Result

if TYPE_CHECKING:
    from starlette.requests import Request

    from companion.serve.seats import Door
    from companion.serve.table import Table

#: The most a form may send (a note is short; nothing else is long).
MOST_BODY = 64 * 1024
#: A comment line on every open stream this often, so a dead connection is found and dropped.
HEARTBEAT = 15.0
#: How soon a page's stream reconnects after it is cut (ms): a page back from sleep, or a restarted
#: server, shows its seat's table within a second.
RETRY_MS = 500


def make_app(table: Table, address: Address) -> Any:
    """The ASGI app: every door's routes behind the Host check and the security headers."""
    site = _Site(table, address)
    pages = [
        ("", site.index, "GET"),
        ("part", site.part, "GET"),
        ("events", site.events, "GET"),
        ("state.json", site.state, "GET"),
        ("ping", site.ping, "GET"),
        ("static/{name}", site.static, "GET"),
        ("answer", site.answer, "POST"),
        ("act", site.act, "POST"),
        ("item", site.item, "POST"),
        ("note", site.note, "POST"),
        ("undo", site.undo, "POST"),
        ("back", site.back, "POST"),
        ("redo", site.redo, "POST"),
    ]
    routes = [Route(f"/{path}", handler, methods=[method]) for path, handler, method in pages]
    routes += [Route(f"/s/{{slug}}/{path}", handler, methods=[method]) for path, handler, method in pages]
    routes.append(Route("/s/{slug}", site.slash, methods=["GET"]))
    return Guard(Starlette(routes=routes), address)


def _forbidden() -> Response:
    return PlainTextResponse(
        "Forbidden: open the address companion serve printed for this seat (with its token), or scan its QR code\n",
        403,
    )


class _Site:
    def __init__(self, table: Table, address: Address) -> None:
        self.table = table
        self.address = address

    # ---- the door ---------------------------------------------------------------------------------

    def _door(self, request: Request) -> Door | None:
        """The door a request comes to: the host's, or the seat's its path names (None: no such seat)."""
        doors = self.table.doors
        if doors is None:
            return None
        slug = request.path_params.get("slug")
        return doors.host if slug is None else doors.by_slug.get(slug)

    def _let_in(self, request: Request, form: dict[str, list[str]] | None = None) -> Door | None:
        door = self._door(request)
        if door is None or not allowed(request, door, self.address, form):
            return None
        return door

    def _cookie(self, request: Request, door: Door, response: Response) -> Response:
        name = door.cookie(self.address.port)
        if request.cookies.get(name) != door.token:
            response.set_cookie(name, door.token, httponly=True, samesite="strict", path=door.prefix)
        return response

    def _chosen(self, request: Request) -> tuple[str, ...]:
        raw = request.query_params.get("f", "")
        return tuple(x for x in raw.split(",") if x)[:8] if raw else ()

    # ---- reading --------------------------------------------------------------------------------

    async def slash(self, request: Request) -> Response:
        door = self._let_in(request)
        if door is None:
            return _forbidden()
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(door.prefix + query, status_code=307)

    async def index(self, request: Request) -> Response:
        door = self._let_in(request)
        if door is None:
            return _forbidden()
        return self._cookie(request, door, HTMLResponse(self._page(door, self._chosen(request))))

    def _page(self, door: Door, chosen: tuple[str, ...] = (), error: str = "") -> str:
        shown = self.table.page(door)
        body = page.fragment(shown.view, door.token, chosen=chosen, error=error) if chosen or error else shown.html
        return shown.view.shown(page.page(shown.view, body))

    async def part(self, request: Request) -> Response:
        door = self._let_in(request)
        if door is None:
            return _forbidden()
        chosen = self._chosen(request)
        shown = self.table.page(door)
        html = shown.view.shown(page.fragment(shown.view, door.token, chosen=chosen)) if chosen else shown.html
        return JSONResponse({"version": self.table.version, "html": html})

    async def state(self, request: Request) -> Response:
        door = self._door(request)
        feed = self.table.doors.feed if door is not None and door.host and self.table.doors is not None else ""
        if door is None or not allowed(request, door, self.address, also=feed):
            return _forbidden()
        from companion.serve.feed import state_of

        return Response(state_of(self.table, door), media_type="application/json")

    async def ping(self, request: Request) -> Response:
        if self._let_in(request) is None:
            return _forbidden()
        return Response(status_code=204)

    async def static(self, request: Request) -> Response:
        if self._let_in(request) is None:
            return _forbidden()
        name = request.path_params["name"]
        body = page.static_file(name)
        if body is None:
            return PlainTextResponse("Not Found\n", 404)
        return Response(body, media_type=page.STATIC[name])

    async def events(self, request: Request) -> Response:
        door = self._let_in(request)
        if door is None:
            return _forbidden()
        hub = self.table.hub
        if hub.closed:
            return PlainTextResponse("Service Unavailable: the server is stopping\n", 503)
        queue = hub.join(door.slug)
        version, first = self.table.version, self.table.page(door).message
        # A page that comes back (sleep, a new network, a restarted server) says which change it showed
        # last: it gets its seat's whole table at once, unless that is the newest.
        seen = request.headers.get("last-event-id", "").strip()

        async def stream() -> Any:
            try:
                yield f"retry: {RETRY_MS}\n\n"
                if seen != str(version):
                    yield f"id: {version}\ndata: {first}\n\n"
                while True:
                    try:
                        item = await asyncio.wait_for(queue.get(), HEARTBEAT)
                    except TimeoutError:
                        yield ": still here\n\n"
                        continue
                    if item is None:  # the server is stopping: the page reconnects when it is back
                        return
                    yield f"id: {item[0]}\ndata: {item[1]}\n\n"
            finally:
                hub.leave(queue, door.slug)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"x-accel-buffering": "no"})

    # ---- changing -------------------------------------------------------------------------------

    async def _form(self, request: Request) -> tuple[Door, dict[str, list[str]]] | Response:
        form = await self._peek(request)
        door = self._door(request)
        if door is None or not allowed(request, door, self.address, form):
            return _forbidden()
        return door, request.state.form

    async def _peek(self, request: Request) -> dict[str, list[str]] | None:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        body = b""
        try:
            async for chunk in request.stream():
                body += chunk
                if len(body) > MOST_BODY:
                    request.state.form = {}
                    return None
        except ClientDisconnect:  # the client left mid-body: nobody to answer, nothing done, nothing said
            request.state.form = {}
            return None
        if kind not in ("application/x-www-form-urlencoded", ""):
            request.state.form = {}
            return None
        try:
            form = parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=64)
        except (UnicodeDecodeError, ValueError):
            form = {}
        request.state.form = form
        return form

    def _stale(self, form: dict[str, list[str]]) -> bool:
        """Whether the page showed the table before its step last moved on (a tap it did not see)."""
        given = form.get("v", [""])[0].strip()
        if not given:
            return False
        try:
            return int(given) < self.table.step_version
        except ValueError:
            return True

    def _done(
        self, request: Request, door: Door, result: Result | None, error: str = "", status: int = 400
    ) -> Response:
        """The answer to a POST: JSON for the page's script, else 303 to the page (or the page with
        the refusal on it)."""
        t = self.table
        if result is not None and result.code != 0:
            error = result.error or _("that did not work (exit code {code})").format(code=result.code)
        shown = t.page(door)
        if request.headers.get("x-companion") == "fetch":
            html = shown.view.shown(page.fragment(shown.view, door.token, error=error)) if error else shown.html
            body = {"ok": not error, "error": error, "version": t.version, "html": html}
            return self._cookie(request, door, JSONResponse(body, status_code=200 if not error else status))
        if not error:
            return self._cookie(request, door, RedirectResponse(door.prefix, status_code=303))
        return self._cookie(request, door, HTMLResponse(self._page(door, error=error), status_code=status))

    def _run(self, words: list[str], door: Door) -> Result:
        try:
            return self.table.command(words, by=door)
        except KeyboardInterrupt:
            raise
        except Exception as exc:  # never a traceback on the page or the terminal
            if os.environ.get("COMPANION_DEBUG"):
                raise
            sys.stderr.write(f"companion serve: unexpected error ({type(exc).__name__}: {exc})\n")
            return Result(1, "", f"unexpected error ({type(exc).__name__})")

    def _stale_reply(self, request: Request, door: Door) -> Response:
        return self._done(
            request,
            door,
            None,
            _("the table changed on another page before this tap: here it is as it is now"),
            status=409,
        )

    async def answer(self, request: Request) -> Response:
        got = await self._form(request)
        if isinstance(got, Response):
            return got
        door, form = got
        answers = [a.strip() for a in form.get("answer", []) if a.strip()]
        if not answers:
            return self._done(request, door, None, _("an answer is needed"))
        if self._stale(form):
            return self._stale_reply(request, door)
        refusal = self.table.refusal(door, " ".join(answers))
        if refusal:
            return self._done(request, door, None, refusal, status=403)
        return self._done(request, door, self._run(["next", "--", *answers], door))

    async def act(self, request: Request) -> Response:
        got = await self._form(request)
        if isinstance(got, Response):
            return got
        door, form = got
        key, way = form.get("key", [""])[0], form.get("way", [""])[0]
        words = self.table.control_words(key, way)
        if words is None:
            return self._done(request, door, None, _("that button is no longer on the table"), status=409)
        return self._done(request, door, self._run(list(words), door))

    async def item(self, request: Request) -> Response:
        got = await self._form(request)
        if isinstance(got, Response):
            return got
        door, form = got
        name = " ".join(form.get("item", [""])[0].split())
        if not name:
            return self._done(request, door, None, _("an item needs a name"))
        return self._done(request, door, self._run(["item", "--", name, "+1"], door))

    async def note(self, request: Request) -> Response:
        got = await self._form(request)
        if isinstance(got, Response):
            return got
        door, form = got
        text = " ".join(form.get("note", [""])[0].split())
        if not text:
            return self._done(request, door, None, _("a note needs some text"))
        return self._done(request, door, self._run(["note", "--", text], door))

    async def undo(self, request: Request) -> Response:
        got = await self._form(request)
        if isinstance(got, Response):
            return got
        door, form = got
        if self._stale(form):
            return self._stale_reply(request, door)
        return self._done(request, door, self._run(["undo"], door))

    async def back(self, request: Request) -> Response:
        """A timeline entry's "back to here": every action after it taken back at once. Shared as undo
        is (any door may); the entry must be on this door's own timeline, and a page that was behind
        (it showed the table before its step last moved on) is refused, as an undo is."""
        got = await self._form(request)
        if isinstance(got, Response):
            return got
        door, form = got
        to = form.get("to", [""])[0].strip()
        shown = self.table.page(door).view.timeline
        if not to.isdigit() or not any(s.n == int(to) and s.back for s in shown):
            return self._done(request, door, None, _("that action is no longer on the timeline"), status=409)
        if self._stale(form):
            return self._stale_reply(request, door)
        return self._done(request, door, self._run(["undo", "--to", to, "--yes"], door))

    async def redo(self, request: Request) -> Response:
        """Redo: shared as undo is."""
        got = await self._form(request)
        if isinstance(got, Response):
            return got
        door, form = got
        if self._stale(form):
            return self._stale_reply(request, door)
        return self._done(request, door, self._run(["redo"], door))
