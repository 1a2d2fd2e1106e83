"""The page's routes (Starlette). Every route needs the token; every change is a POST.

=================  ============================================================================
``GET /``          the page (``?token=`` the first time: the cookie is set from it; ``?f=4`` marks
                   the first die of a roll of several)
``GET /part``      the table's part of the page alone (what a live update replaces)
``GET /events``    server-sent events: the table's part again after every change, on every page
``GET /ping``      204 while the server is up (a page that lost its stream asks before reconnecting)
``GET /static/N``  the package's own static files, by name from a fixed list
``POST /answer``   ``answer``: the pending step's answer, run as ``companion next ANSWER``
``POST /act``      ``key`` and ``way`` (minus or plus): a +/- button, run as its command
``POST /item``     ``item``: ``companion item NAME +1``
``POST /note``     ``note``: ``companion note TEXT``
``POST /undo``     ``companion undo``
``POST /back``     ``to``: a timeline entry's "back to here", run as ``companion undo --to N --yes``
``POST /redo``     ``companion redo``
=================  ============================================================================

A POST carries ``v``, the version of the table the page showed: an answer or an undo made on a page
that was behind (the step was answered on another page meanwhile) is refused with 409 and the table
as it is now, so one tap never answers a step it did not see. Without JavaScript a change is
answered with 303 to ``/`` (a reload never sends it again); ``serve.js`` asks for JSON instead.
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

    from companion.serve.table import Table

#: The most a form may send (a note is short; nothing else is long).
MOST_BODY = 64 * 1024
#: A comment line on every open stream this often, so a dead connection is found and dropped.
HEARTBEAT = 15.0


def make_app(table: Table, token: str, address: Address) -> Any:
    """The ASGI app: the routes behind the Host check and the security headers."""
    site = _Site(table, token, address)
    routes = [
        Route("/", site.index, methods=["GET"]),
        Route("/part", site.part, methods=["GET"]),
        Route("/events", site.events, methods=["GET"]),
        Route("/ping", site.ping, methods=["GET"]),
        Route("/static/{name}", site.static, methods=["GET"]),
        Route("/answer", site.answer, methods=["POST"]),
        Route("/act", site.act, methods=["POST"]),
        Route("/item", site.item, methods=["POST"]),
        Route("/note", site.note, methods=["POST"]),
        Route("/undo", site.undo, methods=["POST"]),
        Route("/back", site.back, methods=["POST"]),
        Route("/redo", site.redo, methods=["POST"]),
    ]
    return Guard(Starlette(routes=routes), address)


def _forbidden() -> Response:
    return PlainTextResponse(
        "Forbidden: open the address companion serve printed (with its token), or scan its QR code\n", 403
    )


class _Site:
    def __init__(self, table: Table, token: str, address: Address) -> None:
        self.table = table
        self.token = token
        self.address = address

    # ---- reading --------------------------------------------------------------------------------

    def _cookie(self, request: Request, response: Response) -> Response:
        if request.cookies.get(self.address.cookie) != self.token:
            response.set_cookie(self.address.cookie, self.token, httponly=True, samesite="strict", path="/")
        return response

    def _chosen(self, request: Request) -> tuple[str, ...]:
        raw = request.query_params.get("f", "")
        return tuple(x for x in raw.split(",") if x)[:8] if raw else ()

    async def index(self, request: Request) -> Response:
        if not allowed(request, self.token, self.address):
            return _forbidden()
        return self._cookie(request, HTMLResponse(self._page(self._chosen(request))))

    def _page(self, chosen: tuple[str, ...] = (), error: str = "") -> str:
        t = self.table
        assert t.view is not None
        body = page.fragment(t.view, self.token, chosen=chosen, error=error) if chosen or error else t.html
        return t.view.shown(page.page(t.view, body))

    async def part(self, request: Request) -> Response:
        if not allowed(request, self.token, self.address):
            return _forbidden()
        chosen = self._chosen(request)
        t = self.table
        assert t.view is not None
        html = t.view.shown(page.fragment(t.view, self.token, chosen=chosen)) if chosen else t.html
        return JSONResponse({"version": t.version, "html": html})

    async def ping(self, request: Request) -> Response:
        if not allowed(request, self.token, self.address):
            return _forbidden()
        return Response(status_code=204)

    async def static(self, request: Request) -> Response:
        if not allowed(request, self.token, self.address):
            return _forbidden()
        name = request.path_params["name"]
        body = page.static_file(name)
        if body is None:
            return PlainTextResponse("Not Found\n", 404)
        return Response(body, media_type=page.STATIC[name])

    async def events(self, request: Request) -> Response:
        if not allowed(request, self.token, self.address):
            return _forbidden()
        hub = self.table.hub
        if hub.closed:
            return PlainTextResponse("Service Unavailable: the server is stopping\n", 503)
        queue = hub.join()
        first = self.table.message

        async def stream() -> Any:
            try:
                yield "retry: 1000\n\n"
                yield f"data: {first}\n\n"
                while True:
                    try:
                        message = await asyncio.wait_for(queue.get(), HEARTBEAT)
                    except TimeoutError:
                        yield ": still here\n\n"
                        continue
                    if message is None:  # the server is stopping: the page reconnects when it is back
                        return
                    yield f"data: {message}\n\n"
            finally:
                hub.leave(queue)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"x-accel-buffering": "no"})

    # ---- changing -------------------------------------------------------------------------------

    async def _form(self, request: Request) -> dict[str, list[str]] | Response:
        if not allowed(request, self.token, self.address, await self._peek(request)):
            return _forbidden()
        return request.state.form

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
        given = form.get("v", [""])[0]
        return bool(given) and given != str(self.table.version)

    def _done(self, request: Request, result: Result | None, error: str = "", status: int = 400) -> Response:
        """The answer to a POST: JSON for the page's script, else 303 to the page (or the page with
        the refusal on it)."""
        t = self.table
        if result is not None and result.code != 0:
            error = result.error or _("that did not work (exit code {code})").format(code=result.code)
        fetch = request.headers.get("x-companion") == "fetch"
        if fetch:
            assert t.view is not None
            html = page.fragment(t.view, self.token, error=error) if error else t.html
            body = {"ok": not error, "error": error, "version": t.version, "html": html}
            return self._cookie(request, JSONResponse(body, status_code=200 if not error else status))
        if not error:
            return self._cookie(request, RedirectResponse("/", status_code=303))
        return self._cookie(request, HTMLResponse(self._page(error=error), status_code=status))

    def _run(self, words: list[str]) -> Result:
        try:
            return self.table.command(words)
        except KeyboardInterrupt:
            raise
        except Exception as exc:  # never a traceback on the page or the terminal
            if os.environ.get("COMPANION_DEBUG"):
                raise
            sys.stderr.write(f"companion serve: unexpected error ({type(exc).__name__}: {exc})\n")
            return Result(1, "", f"unexpected error ({type(exc).__name__})")

    def _stale_reply(self, request: Request) -> Response:
        return self._done(
            request,
            None,
            _("the table changed on another page before this tap: here it is as it is now"),
            status=409,
        )

    async def answer(self, request: Request) -> Response:
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        answers = [a.strip() for a in form.get("answer", []) if a.strip()]
        if not answers:
            return self._done(request, None, _("an answer is needed"))
        if self._stale(form):
            return self._stale_reply(request)
        return self._done(request, self._run(["next", "--", *answers]))

    async def act(self, request: Request) -> Response:
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        key, way = form.get("key", [""])[0], form.get("way", [""])[0]
        words = self.table.control_words(key, way)
        if words is None:
            return self._done(request, None, _("that button is no longer on the table"), status=409)
        return self._done(request, self._run(list(words)))

    async def item(self, request: Request) -> Response:
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        name = " ".join(form.get("item", [""])[0].split())
        if not name:
            return self._done(request, None, _("an item needs a name"))
        return self._done(request, self._run(["item", "--", name, "+1"]))

    async def note(self, request: Request) -> Response:
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        text = " ".join(form.get("note", [""])[0].split())
        if not text:
            return self._done(request, None, _("a note needs some text"))
        return self._done(request, self._run(["note", "--", text]))

    async def undo(self, request: Request) -> Response:
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        if self._stale(form):
            return self._stale_reply(request)
        return self._done(request, self._run(["undo"]))

    async def back(self, request: Request) -> Response:
        """A timeline entry's "back to here": every action after it taken back at once. The page that
        was behind (its version is not the table's) is refused, as an undo is."""
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        to = form.get("to", [""])[0].strip()
        shown = self.table.view.timeline if self.table.view is not None else ()
        if not to.isdigit() or not any(s.n == int(to) and s.back for s in shown):
            return self._done(request, None, _("that action is no longer on the timeline"), status=409)
        if self._stale(form):
            return self._stale_reply(request)
        return self._done(request, self._run(["undo", "--to", to, "--yes"]))

    async def redo(self, request: Request) -> Response:
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        if self._stale(form):
            return self._stale_reply(request)
        return self._done(request, self._run(["redo"]))
