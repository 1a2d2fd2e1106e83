"""How a roll is shown: plain text, rich text, markdown and JSON. Nothing here rolls or decides.

Everything is built from one list of (text, style) segments, so the terminal, the log and the tests
read the same words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.dice.roll import Roll
from companion.dice.targets import target_text
from companion.i18n import N_, _

if TYPE_CHECKING:
    from fractions import Fraction

    from rich.text import Text

Segment = tuple[str, str]


def fraction(p: Fraction) -> str:
    """``2/3 (66.7%)``: a chance as the fraction and the percentage."""
    from companion.dice.odds import percent

    return f"{p.numerator}/{p.denominator} ({percent(p)})"


def modifier_text(roll: Roll) -> str:
    """The modifier added on top of the expression: ``+1 STR −1 floor`` when labelled, else ``+1``."""
    if roll.parts:
        return " ".join(f"{v:+d} {label}" for label, v in roll.parts if v).replace("-", "−")
    extra = roll.modifier - roll.expr.const
    return "" if extra == 0 else f"{extra:+d}".replace("-", "−")


def dice_text(roll: Roll) -> str:
    """Each die in brackets, ``[3] [5]``, or ``(total only)`` when the player typed only the total."""
    if roll.faces is None:
        return _("(total only)")
    shown = []
    i = 0
    for term in roll.expr.terms:
        for face in roll.faces[i : i + term.count]:
            shown.append(f"[{term.die.symbol(face)}]")
        i += term.count
    return " ".join(shown)


#: How a roll was made, as the log and the screen say it (the data keeps the English word).
SOURCES = {"virtual": N_("virtual"), "physical": N_("physical"), "amended": N_("amended"), "chosen": N_("chosen")}


def source_text(source: str) -> str:
    return _(SOURCES.get(source, source))


def outcome_text(roll: Roll, row: str | None = None) -> str:
    """The result in words: ``pass``, ``fail``, ``option 2: DEX``, ``Bonfire``, ``7``."""
    expr = roll.expr
    if expr.kind == "SR":
        name = roll.option_name
        return _("option {n}").format(n=roll.option) + (f": {name}" if expr.options else "")
    if expr.kind == "DR":
        return f"{roll.total}" + (f": {row}" if row else "")
    if expr.kind == "talisman":
        return _("the Talisman is found!") if roll.success else _("not found")
    if roll.hearts is not None:
        # a check by a dt pool reads its numbers against what they must show; a fight adds its bonus
        shown = roll.total - roll.modifier if roll.success is not None else roll.total
        text = f"{shown}, ♥{roll.hearts} ★{roll.stars}"
        if roll.success is not None:
            text += " → " + (_("pass") if roll.success else _("fail"))
        return text
    if roll.success is None:
        return str(roll.total)
    return _("pass") if roll.success else _("fail")


def natural_text(roll: Roll) -> str | None:
    """``natural 6: always passes`` on a Dice Check, where it overrides the modifiers; ``natural 20``
    on a lone die. Nothing for EC (its target already is a natural 6), SR or DR (their die is read
    against options or a table, where a 1 or a 6 is just a row)."""
    if roll.natural is None or roll.expr.kind in ("SR", "DR", "EC"):
        return None
    if roll.expr.kind == "DC" and roll.natural in (1, 6):
        return _("natural 6: always passes") if roll.natural == 6 else _("natural 1: always fails")
    return _("natural {n}").format(n=roll.natural)


def segments(roll: Roll, *, row: str | None = None, show_odds: bool = False) -> list[Segment]:
    """The pieces of a one-line rendering of ``roll``, each with a rich style name."""
    expr = roll.expr
    segs: list[Segment] = [(str(expr), "bold")]
    mod = modifier_text(roll)
    if mod:
        segs.append((" " + mod, "cyan"))
    segs.append(("  " + dice_text(roll), "bold magenta"))
    several = roll.faces is None or len(roll.faces) > 1
    target = target_text(expr, roll.modifier - expr.const)
    if expr.kind in ("DC", "sum", "talisman") and not expr.has_dt:
        if target is not None:  # a check: what the dice show, against what they must show
            if several:
                segs.append((f" = {roll.total - roll.modifier}", "bold"))
        elif roll.modifier or several:
            segs.append((f" = {roll.total}", "bold"))
    if expr.kind != "sum" or roll.success is not None or roll.hearts is not None:
        style = "bold green" if roll.success else ("bold red" if roll.success is False else "bold")
        segs.append(("  → " + outcome_text(roll, row), style))
    if target and expr.kind != "talisman":
        segs.append((_(" (needs {target})").format(target=target), "dim"))
    nat = natural_text(roll)
    if nat:
        segs.append((f"  {nat}", "bold yellow"))
    if show_odds:
        from companion.dice.odds import odds

        o = odds(expr, roll.modifier - expr.const)
        if o.success is not None:
            segs.append(("  " + _("odds {p}").format(p=fraction(o.success)), "dim"))
    segs.append((f"  · {source_text(roll.source)}", "italic dim"))
    return segs


def plain(roll: Roll, **kwargs: Any) -> str:
    """The one-line rendering as plain text."""
    return "".join(text for text, _ in segments(roll, **kwargs))


def rich_text(roll: Roll, **kwargs: Any) -> Text:
    """The one-line rendering as rich Text (imported lazily: rich costs start-up time)."""
    from rich.text import Text

    text = Text()
    for part, style in segments(roll, **kwargs):
        text.append(part, style=style)
    return text


def to_json(roll: Roll, **extra: Any) -> dict[str, Any]:
    """The stable JSON object of a roll (documented in docs/dice.md)."""
    expr = roll.expr
    faces = list(roll.faces) if roll.faces is not None else None
    symbols = None
    if expr.has_dt and roll.faces is not None:
        symbols = []
        i = 0
        for term in expr.terms:
            for face in roll.faces[i : i + term.count]:
                symbols.append(term.die.symbol(face))
            i += term.count
    data: dict[str, Any] = {
        "expr": str(expr),
        "kind": expr.kind,
        "dice": faces,
        "symbols": symbols,
        "modifier": roll.modifier,
        "total": roll.total,
        "success": roll.success,
        "option": roll.option,
        "option_name": roll.option_name if expr.options else None,
        "natural": roll.natural,
        "hearts": roll.hearts,
        "stars": roll.stars,
        "source": roll.source,
        "target": target_text(expr, roll.modifier - expr.const),
    }
    data.update(extra)
    return data
