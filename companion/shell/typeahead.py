"""Keys typed ahead of a prompt: an Enter typed after a menu's one-key answer is no answer.

At a roll prompt ``u`` needs Enter; at a menu it (and ``q``, ``v``/``p``, a number) acts at once. A
player who types ``u`` and Enter at a menu out of habit must not have that Enter answer the prompt
that comes next: roll the dice for them, take a menu's first option, or be told that physical dice
need faces. :func:`keyed` notes a one-key answer; the next prompt calls :func:`stray_enter`.
"""

from __future__ import annotations

from typing import Any

#: Set by a menu answered with one key (u, q, v or p, a number; no Enter).
_keyed = False


def keyed(on: bool) -> None:
    """Note whether the menu that just closed was answered with one key."""
    global _keyed
    _keyed = on


def stray_enter() -> bool | None:
    """For the prompt about to open: after a menu answered with one key, drop an Enter typed after
    that key (True when one was dropped, False when none has come yet); None after anything else.

    An Enter typed before this prompt opens is still unread: prompt_toolkit kept it (the keys a
    finished prompt did not use), or the terminal holds it. Both are looked at, and only a lone Enter
    is dropped; any other keys are left for the prompt, as typed.
    """
    global _keyed
    was, _keyed = _keyed, False
    if not was:
        return None
    from prompt_toolkit.application.current import get_app_session
    from prompt_toolkit.input.typeahead import get_typeahead, store_typeahead
    from prompt_toolkit.keys import Keys

    inp = get_app_session().input
    kept = get_typeahead(inp)
    enters = (Keys.ControlM, Keys.ControlJ, Keys.Enter)
    if kept and kept[0].key in enters:
        store_typeahead(inp, kept[1:])
        return True
    store_typeahead(inp, kept)
    return False if kept else _drop_pending_enter(inp)


def _drop_pending_enter(inp: Any) -> bool:
    """Read what the terminal holds for us (nothing waits if nothing is there): an Enter first is
    dropped (True), anything else goes back to prompt_toolkit as typed ahead."""
    import os
    import select

    try:
        fd = inp.fileno()
        ready, _w, _x = select.select([fd], [], [], 0)
        if not ready:
            return False
        data = os.read(fd, 4096)
    except (OSError, ValueError, NotImplementedError):
        return False
    text = data.decode("utf-8", "replace")
    dropped = text[:1] in ("\r", "\n")
    text = text[1:] if dropped else text
    if text:
        from prompt_toolkit.input.typeahead import store_typeahead
        from prompt_toolkit.input.vt100_parser import Vt100Parser
        from prompt_toolkit.key_binding import KeyPress

        keys: list[KeyPress] = []
        parser = Vt100Parser(keys.append)
        parser.feed(text)
        parser.flush()
        store_typeahead(inp, keys)
    return dropped


def ignore_one_bare_enter(question: Any) -> None:
    """The first Enter on an empty line of ``question`` does nothing (the prompt stays open as it was):
    where a bare Enter is no answer at all (physical dice), the one typed after a one-key answer."""
    from prompt_toolkit.filters import Condition
    from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings

    app = question.application
    armed = {"on": True}

    @Condition
    def blank() -> bool:
        return armed["on"] and not app.current_buffer.text.strip()

    bindings = KeyBindings()

    @bindings.add("enter", filter=blank, eager=True)
    def _(event: Any) -> None:
        armed["on"] = False

    app.key_bindings = merge_key_bindings([app.key_bindings, bindings]) if app.key_bindings else bindings
