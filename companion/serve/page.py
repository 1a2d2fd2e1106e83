"""The page as HTML: Jinja2 templates (autoescaped: every word a player, a pack or a save wrote is
text, never markup) and the package's own static files, served by name from a fixed list.

The page works with JavaScript off: every answer and every button is a ``<form method="post">``,
and a roll of several dice is answered a die at a time (a face of an earlier die is a link that only
marks it chosen; the last die's faces post the whole answer). ``serve.js`` only adds the live
updates and answers without reloading the page.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import TYPE_CHECKING, Any

from companion.i18n import _

if TYPE_CHECKING:
    from companion.serve.view import View

#: Every file ``/static/NAME`` can give, with its type; any other name is 404 (no path is ever read).
STATIC = {
    "serve.css": "text/css; charset=utf-8",
    "serve.js": "text/javascript; charset=utf-8",
    "icon.svg": "image/svg+xml",
}


@functools.cache
def static_file(name: str) -> bytes | None:
    if name not in STATIC:
        return None
    return (resources.files("companion.serve") / "static" / name).read_bytes()


@functools.cache
def _templates() -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("companion.serve", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    return env


def words() -> dict[str, str]:
    """The page's own words, in the language shown now (the session's)."""
    return {
        "roll_for_me": _("Roll for me"),
        "die_of": _("Die {n} of {of}"),
        "chosen": _("chosen so far"),
        "again": _("choose again"),
        "type_faces": _("Or type what the dice show"),
        "answer": _("Answer"),
        "number": _("A number"),
        "text": _("Your answer"),
        "table": _("The table"),
        "fight": _("Fight"),
        "turn": _("to act"),
        "out": _("out"),
        "minus": _("one less"),
        "plus": _("one more"),
        "add_item": _("Add an item"),
        "item_name": _("Item"),
        "add": _("Add"),
        "log": _("The log"),
        "log_empty": _("Nothing in the log yet."),
        "note": _("A note for the log"),
        "note_add": _("Add the note"),
        "undo": _("Undo: {what}"),
        "redo": _("Redo: {what}"),
        "redo_more": _("{n} taken back in all: redo brings them back one at a time"),
        "timeline": _("The timeline"),
        "timeline_earlier": _("{n} earlier actions: companion history shows them all"),
        "timeline_last": _("The last action: undo takes it back"),
        "nothing_to_undo": _("Nothing to undo"),
        "over": _("The game is over: {result}."),
        "waiting": _("Nothing to answer: use the buttons below, or a command at the terminal."),
        "offline": _("The server is not answering: it reconnects by itself when it is back."),
        "new_address": _("The server came back with a new address: open the address it printed (or scan its QR code)."),
        "best": _("the best odds"),
        "secret": _("(kept secret: not shown in the log)"),
        "seat": _("This page: {seat}"),
        "held": _("For your eyes only"),
    }


def fragment(view: View, token: str, *, chosen: tuple[str, ...] = (), error: str = "") -> str:
    """The table's part of the page (what a live update replaces); ``chosen`` are the faces of a roll's
    first dice, marked so far (``?f=4,heart``)."""
    chosen = valid_chosen(view, chosen)
    shown = [next(f.shown for f in die if f.value == c) for die, c in zip(view.dice, chosen, strict=False)]
    from companion.controls import html_safe

    return html_safe(  # a control character as its picture, a bidirectional or zero-width one left out
        _templates()
        .get_template("table.html.j2")
        .render(v=view, w=words(), token=token, chosen=chosen, chosen_shown=shown, error=error)
    )


def valid_chosen(view: View, chosen: tuple[str, ...]) -> tuple[str, ...]:
    """``chosen`` if it is faces of the roll's first dice (fewer than all of them), else none."""
    if not chosen or len(chosen) >= len(view.dice):
        return ()
    for die, c in zip(view.dice, chosen, strict=False):
        if c not in {f.value for f in die}:
            return ()
    return chosen


def page(view: View, body: str) -> str:
    """The whole page around ``body`` (a :func:`fragment`)."""
    from companion.controls import html_safe

    return html_safe(_templates().get_template("page.html.j2").render(v=view, w=words(), body=body))


def event_message(version: int, html: str) -> str:
    """One server-sent event's data: the version and the table's part of the page, on one line."""
    import json

    return json.dumps({"version": version, "html": html}, ensure_ascii=False)
