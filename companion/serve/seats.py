"""Every seat its own door: an address, a token and a cookie of its own (``companion serve``).

The game names its seats (``Game.seats_of``: a solo game's ``table``; the Dragon's Den's ``dragon`` and
``heroes``, or one a hero with ``--seat-per-player``; one a player in the Haunted and the Dark Tower).
Each seat is served at ``/s/SLUG/`` with its own token (:func:`companion.serve.tokens.derived`) and
its own cookie, bound to that path and checked against that seat's token alone: a page, its stream
and its JSON hold what that seat may see, and nothing else opens them.

The host's door is ``/``, with the token printed first (the one ``--token-file`` keeps): the laptop's
page, which may answer every step and shows the public table. A game whose only seat is ``table`` (a
solo game, or a game before its players are known) is played at the host's door: it is the ``table``
seat (today's page). ``/state.json`` with the read-only token is the public table as data.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote

from companion.contract.secrets import PUBLIC
from companion.serve.tokens import derived

if TYPE_CHECKING:
    from companion.contract.secrets import Seat

#: The seat a solo game plays at: the host's own page.
TABLE = "table"


@dataclass(frozen=True)
class Door:
    """One page's way in: the seat it is for ("" for the host), its words, its path and its token."""

    seat: str
    title: str
    #: The path's last part, ``/s/SLUG/`` ("" for the host's ``/``).
    slug: str
    token: str
    plural: bool = False
    #: What the seat plays (Seat.figures); the host plays everything.
    plays: tuple[str, ...] = ()

    @property
    def host(self) -> bool:
        return not self.slug

    @property
    def viewer(self) -> str:
        """Who the one filter shows this page to: the seat, or the public for the host's page."""
        return self.seat if not self.host else PUBLIC

    @property
    def prefix(self) -> str:
        return "/" if self.host else f"/s/{quote(self.slug, safe='')}/"

    def cookie(self, port: int) -> str:
        """The cookie's name: one per port (a browser shares a host's cookies across its ports) and seat."""
        if self.host:
            return f"companion_token_{port}"
        return f"companion_seat_{port}_{hashlib.sha256(self.seat.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}"

    def url(self, host: str, port: int) -> str:
        return f"http://{host}:{port}{self.prefix}?token={self.token}"

    def answers(self, actor: str) -> bool:
        from companion.contract.secrets import ANYONE

        return self.host or actor == ANYONE or actor in self.plays


def slug_of(name: str) -> str:
    """A seat's name as a path's part: lower case, words joined by ``-`` (``Sir Bram`` → ``sir-bram``)."""
    return re.sub(r"[^\w]+", "-", name.lower()).strip("-_") or "seat"


class Doors:
    """The host's door, the read-only token, and a door for every seat the game has named while served
    (a seat that leaves the table keeps its door: its page says what it may still see)."""

    def __init__(self, master: str, *, per_player: bool = False) -> None:
        self.master = master
        self.per_player = per_player
        self.host = Door("", "", "", master)
        #: The read-only feed's token (``/state.json``: the public table only).
        self.feed = derived(master, "read-only")
        self.by_slug: dict[str, Door] = {}
        self.by_seat: dict[str, Door] = {}
        #: The seats at the table now, as the game names them.
        self.seats: tuple[Seat, ...] = ()

    @property
    def solo(self) -> bool:
        """Whether the table is one seat, ``table``, played at the host's door."""
        return all(s.name == TABLE for s in self.seats)

    def seat_doors(self) -> list[Door]:
        """The doors of the seats at the table now, in the game's order."""
        return [self.by_seat[s.name] for s in self.seats if s.name in self.by_seat]

    def update(self, seats: tuple[Seat, ...]) -> list[Door]:
        """The game's seats now; the doors made for seats not seen before (to print)."""
        self.seats = seats
        made = []
        for seat in seats:
            if seat.name == TABLE:
                continue  # the host's own page
            door = self.by_seat.get(seat.name)
            fresh = Door(
                seat.name,
                seat.title,
                door.slug if door is not None else self._slug(seat.name),
                derived(self.master, f"seat:{seat.name}"),
                seat.plural,
                seat.figures,
            )
            if door == fresh:
                continue
            self.by_seat[seat.name] = self.by_slug[fresh.slug] = fresh
            if door is None:
                made.append(fresh)
        return made

    def _slug(self, name: str) -> str:
        base = slug_of(name)
        slug, n = base, 2
        while slug in self.by_slug:
            slug, n = f"{base}-{n}", n + 1
        return slug

    def all(self) -> list[Door]:
        """The host's door and every seat's."""
        return [self.host, *self.by_seat.values()]
