"""What every part of the pack reader shares: the refusal (:class:`~companion.packs.errors.PackError`:
file, line, what to change) and the checks of a value's shape (a table of known keys, a text)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.errors import InputError
from companion.i18n import _
from companion.packs.errors import PackError

if TYPE_CHECKING:
    from companion.dice.expr import Expr

Path = tuple[str | int, ...]


class Reader:
    """Reads one pack's TOML data, refusing the first thing wrong with the line it is written on."""

    def __init__(self, source: str, where: str) -> None:
        self.source = source
        self.where = where
        #: The steps every table's and check's exact odds take, so far (``bounds.check_dice``).
        self.odds_work = 0

    def fail(self, path: Path, message: str) -> PackError:
        from companion.packs.lines import find_line

        return PackError(self.where, find_line(self.source, path), message)

    def keys(self, value: Any, path: Path, allowed: tuple[str, ...], what: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(
                path,
                _("{dotted} must be a table of keys ({what}: {allowed})").format(
                    dotted=dotted(path), what=what, allowed=", ".join(allowed)
                ),
            )
        for key in value:
            if key not in allowed:
                raise self.fail(
                    (*path, key),
                    _("{dotted} has an unknown key {key!r}; {what} keys: {allowed}").format(
                        dotted=dotted(path), key=key, what=what, allowed=", ".join(allowed)
                    ),
                )
        return value

    def text(self, value: Any, path: Path, *, required: bool = False) -> str:
        if value is None and not required:
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            raise self.fail(
                path,
                _('{dotted} must be a text in quotes, e.g. {path} = "..."').format(dotted=dotted(path), path=path[-1]),
            )
        return value.strip()

    def dice(self, value: Any, path: Path, default: str) -> tuple[str, Expr]:
        """A sum of dice a table or a check rolls (``2d6``, ``d%``, ``1d6+1``), as written and parsed."""
        from companion.dice.expr import parse

        text = default if value is None else value
        if not isinstance(text, str) and isinstance(text, int) and not isinstance(text, bool):
            text = str(text)
        if not isinstance(text, str):
            raise self.fail(path, _('{dotted} must be dice in quotes, e.g. dice = "2d6"').format(dotted=dotted(path)))
        try:
            expr = parse(text)
        except InputError:
            expr = None
        if expr is None or expr.kind != "sum" or expr.op is not None or expr.has_dt:
            raise self.fail(
                path,
                _("dice {text!r} cannot be rolled on a table; write dice such as 1d6, 2d6, 1d6+1, d20 or d%").format(
                    text=text
                ),
            )
        self.spend(path, text, expr)
        return text.strip(), expr

    def spend(self, path: Path, text: str, expr: Expr, *, totals: bool = True) -> None:
        """Count the work of ``expr``'s exact odds towards the pack's bound; refuse dice with more
        totals than a table may have (``totals``; a weighted table has a bound of its own)."""
        from companion.packs.bounds import check_dice

        self.odds_work = check_dice(self.fail, path, text, expr, self.odds_work, totals=totals)

    def choice(self, value: Any, path: Path, allowed: tuple[str, ...]) -> str:
        """One of ``allowed`` (the first when the key is left out)."""
        if value is None:
            return allowed[0]
        if not isinstance(value, str) or value.strip().lower() not in allowed:
            shown = " or ".join(f'"{a}"' for a in allowed)
            raise self.fail(
                path, _("{dotted} = {value!r}: write {shown}").format(dotted=dotted(path), value=value, shown=shown)
            )
        return value.strip().lower()


def dotted(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "the pack"


def spans_text(totals: list[int]) -> str:
    """``[1, 2, 3, 5]`` → ``1-3, 5``."""
    runs: list[list[int]] = []
    for t in totals:
        if runs and runs[-1][1] == t - 1:
            runs[-1][1] = t
        else:
            runs.append([t, t])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
