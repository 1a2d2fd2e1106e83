"""What a die is: its sides and how each face reads.

Faces are always stored as the number the die shows, 1..sides (a d10 "0" is stored as 10, a d100
"00" as 100). The Dark Tower die is a d6 whose faces 4 and 5 read as a heart and 6 as a star; it is
stored the same way, so a plain d6 can stand in for it at the table.
"""

from __future__ import annotations

from dataclasses import dataclass

HEART = "♥"
STAR = "★"


@dataclass(frozen=True, slots=True)
class Die:
    """A die: ``name`` is what the player writes (``d6``, ``d10``, ``dt``)."""

    name: str
    sides: int
    custom: bool = False  # True for the Dark Tower die

    def value(self, face: int) -> int:
        """The number a face adds to a total (0 for the Dark Tower's ♥ and ★)."""
        if self.custom:
            return face if face <= 3 else 0
        return face

    def symbol(self, face: int) -> str:
        """How a face is shown: its number, or ♥/★ on the Dark Tower die."""
        if self.custom:
            if face in (4, 5):
                return HEART
            if face == 6:
                return STAR
        return str(face)

    def accepts(self) -> str:
        """What a player may type for this die, for error messages."""
        from companion.i18n import _

        if self.custom:
            return _("1, 2, 3, ♥ (or 4, 5, h, heart) or ★ (or 6, *, s, star)")
        if self.sides == 10:
            return _("a whole number from 1 to 10 (0 reads as 10)")
        if self.sides == 100:
            return _("a whole number from 1 to 100 (0 or 00 reads as 100)")
        return _("a whole number from 1 to {n}").format(n=self.sides)


DT = Die("dt", 6, custom=True)
_PLAIN: dict[int, Die] = {}


def plain(sides: int) -> Die:
    """The plain die with ``sides`` faces (cached, so dice compare and hash cheaply)."""
    die = _PLAIN.get(sides)
    if die is None:
        die = _PLAIN[sides] = Die(f"d{sides}", sides)
    return die


D6 = plain(6)
D10 = plain(10)

#: A face by its symbol, its word or the word's first letter, in English and in Russian (сердце, звезда,
#: энергия), and the key h or s typed on a Russian keyboard (р, ы).
_HEART_WORDS = {HEART, "♡", "❤", "h", "heart", "hearts", "сердце", "с", "р", "4", "5"}
_STAR_WORDS = {STAR, "☆", "*", "s", "star", "stars", "звезда", "энергия", "з", "э", "ы", "6"}


def read_face(die: Die, text: str) -> int | None:
    """Read what a player typed for one die as a stored face, or None if the die cannot show it."""
    t = text.strip().lower()
    if die.custom:
        if t in ("1", "2", "3", "4", "5", "6"):
            return int(t)  # a plain d6 standing in: 4 and 5 are hearts, 6 a star
        if t in _HEART_WORDS:
            return 4
        if t in _STAR_WORDS:
            return 6
        return None
    if not t.isdigit() or not t.isascii():
        return None
    n = int(t)
    if n == 0 and die.sides in (10, 100):
        return die.sides
    if 1 <= n <= die.sides:
        return n
    return None
