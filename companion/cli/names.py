"""A name as a player types it at the table: the whole name, or any unique start of it or of one of its
words (``cad`` for the Cadaver Creeper, ``creep`` too), in any case.

The candidates are the names on the table as the game gives them (``Game.names_of``: heroes,
monsters, items) and the session's tallies. A start that fits several names is refused in one line
that lists them, in the players' words; one that fits none is left as typed (the command then says
what it knows).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.i18n import _

if TYPE_CHECKING:
    from companion.session.service import Session


def _norm(text: str) -> str:
    return " ".join(str(text).replace("-", " ").split()).casefold()


def matches(typed: str, candidates: Iterable[str]) -> list[str]:
    """The candidates ``typed`` names: an exact name (any case) alone, else every name that starts with
    it or has a word that starts with it (each name once, in the order given)."""
    t = _norm(typed)
    names = list(dict.fromkeys(c for c in candidates if c))
    if not t:
        return []
    exact = [c for c in names if _norm(c) == t]
    if exact:
        return exact[:1]
    starts = [c for c in names if _norm(c).startswith(t)]
    if starts:
        return starts
    return [c for c in names if any(w.startswith(t) for w in _norm(c).split())]


def resolve(typed: str, candidates: Iterable[str]) -> str:
    """The one name ``typed`` stands for; ``typed`` itself when it fits none; refused when it fits several."""
    found = matches(typed, candidates)
    if len(found) == 1:
        return found[0]
    if found:
        raise InputError(
            _("ambiguous: {typed} could be {names}").format(typed=typed, names=", ".join(found)),
            hint=_("type more of the name"),
        )
    return typed


def table_names(session: Session) -> list[str]:
    """The session's tallies, then the names its game knows on the table."""
    return [*session.state.trackers.tallies, *session.spec.names_of(session.state).all()]
