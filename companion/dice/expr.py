"""Parse what a player types into a dice expression (no rolling here).

The forms, case-insensitive:

- ``DR`` / ``DR events``: 1d6 read against a table (the table is looked up by the caller);
- ``DC`` / ``DC+1``: 1d6 plus modifiers, passes at 5 or more; a natural 6 always passes and a
  natural 1 always fails;
- ``EC``: 1d6, passes on a natural 6 only;
- ``SR`` / ``SR STR,DEX,INT`` / ``SR(1,2,3)``: 1-2 option 1, 3-4 option 2, 5-6 option 3;
- ``talisman``: 2d6, found on 12;
- sums of dice and numbers with an optional comparison: ``2d6``, ``d20``, ``1d6+3>=7``, ``d6+d10+2``,
  ``1d10>=5``, ``d%``; ``dt`` is the Dark Tower die, so ``3dt`` and ``4dt+2`` are pools of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.dice.faces import D6, DT, Die, plain
from companion.errors import InputError
from companion.i18n import N_

MAX_DICE = 100
MAX_SIDES = 1000

#: The rolls with a name of their own, as the Inverted Tower names them.
KEYWORDS = ("DR", "DC", "EC", "SR", "talisman")
#: A Dice Check passes at this total or more.
DC_TARGET = 5
#: The Talisman is found on this 2d6 total.
TALISMAN_TARGET = 12

ACCEPTED = N_("DR, DC, EC, SR, talisman, NdX with +/- and a comparison (2d6, 1d6+3>=7, d20, 1d10>=5) or Ndt")

COMPARISONS = (">=", "<=", "==", "=", ">", "<")


@dataclass(frozen=True, slots=True)
class Term:
    """``count`` dice of one kind, added (sign +1) or subtracted (sign -1)."""

    count: int
    die: Die
    sign: int = 1


@dataclass(frozen=True, slots=True)
class Expr:
    """A parsed roll: what dice, what is added, and how the result is read.

    ``kind`` is one of ``DR``, ``DC``, ``EC``, ``SR``, ``talisman`` or ``sum``. ``const`` is the
    modifier written inside the expression; callers add further modifiers when they evaluate it.
    """

    kind: str
    terms: tuple[Term, ...]
    const: int = 0
    op: str | None = None
    target: int | None = None
    options: tuple[str, ...] = ()
    table: str | None = None

    @property
    def dice(self) -> tuple[Die, ...]:
        """One entry per physical die, in the order the player gives their faces."""
        out: list[Die] = []
        for term in self.terms:
            out.extend([term.die] * term.count)
        return tuple(out)

    @property
    def is_check(self) -> bool:
        """True when the roll passes or fails (rather than giving a number or an option)."""
        return self.kind in ("DC", "EC", "talisman") or self.op is not None

    @property
    def has_dt(self) -> bool:
        return any(t.die.custom for t in self.terms)

    def __str__(self) -> str:
        if self.kind == "DR":
            return f"DR {self.table}" if self.table else "DR"
        if self.kind == "DC":
            return "DC" + _signed(self.const)
        if self.kind == "EC":
            return "EC"
        if self.kind == "SR":
            if not self.options:
                return "SR"
            names = ",".join(self.options)
            # parse() drops one pair of brackets around the names, so keep names like "(a" and "c)"
            if names.startswith("(") and names.endswith(")"):
                return f"SR ({names})"
            return f"SR {names}"
        if self.kind == "talisman":
            return "talisman"
        parts: list[str] = []
        for i, term in enumerate(self.terms):
            text = f"{term.count}{term.die.name}"
            if i == 0:
                parts.append(text if term.sign > 0 else "-" + text)
            else:
                parts.append(("+" if term.sign > 0 else "-") + text)
        body = "".join(parts) + _signed(self.const)
        if self.op is not None:
            body += f"{self.op}{self.target}"
        return body


def _signed(n: int) -> str:
    return "" if n == 0 else f"{n:+d}"


def dc(modifier: int = 0) -> Expr:
    """A Dice Check, built without parsing (the engines build thousands of these)."""
    return Expr("DC", (Term(1, D6),), const=modifier)


DR = Expr("DR", (Term(1, D6),))
EC = Expr("EC", (Term(1, D6),))
TALISMAN = Expr("talisman", (Term(2, D6),), op="==", target=TALISMAN_TARGET)


def sr(*options: str) -> Expr:
    """A Split Roll with optional names for its three options."""
    return Expr("SR", (Term(1, D6),), options=tuple(options))


def dr(table: str | None = None) -> Expr:
    return Expr("DR", (Term(1, D6),), table=table)


#: The longest dice expression read (``SR`` with three long names), and the longest number in one.
MAX_LENGTH = 200
_LONG_NUMBER = re.compile(r"\d{10}")
_KEYWORD_RE = re.compile(r"^(DR|DC|EC|SR|TALISMAN)(?=$|[\s(:+\-])(.*)$", re.IGNORECASE)
_TERM_RE = re.compile(r"([+-]?)\s*(?:(\d*)\s*d\s*(t|%|\d+)|(\d+))", re.IGNORECASE)
_CMP_RE = re.compile(r"(>=|<=|==|=|>|<)\s*(-?\d+)\s*$")


def _bad(text: str, why: str = "") -> InputError:
    detail = f" ({why})" if why else ""
    from companion.i18n import _, quote

    return InputError(
        _("unknown dice expression {text}{detail}; accepted: {accepted}").format(
            text=quote(text), detail=detail, accepted=_(ACCEPTED)
        )
    )


def parse(text: str) -> Expr:
    """Parse a dice expression, or raise :class:`InputError` with one line saying what is accepted."""
    raw = text.strip()
    if not raw:
        from companion.i18n import _

        raise InputError(_("the dice expression is empty; accepted: {accepted}").format(accepted=_(ACCEPTED)))
    if len(raw) > MAX_LENGTH:
        from companion.i18n import _, number

        raise _bad(
            raw[:30] + "…",
            _("{n} characters; dice are at most {max}").format(n=number(len(raw), group=True), max=MAX_LENGTH),
        )
    if _LONG_NUMBER.search(raw):
        from companion.i18n import _

        raise _bad(raw, _("a number of more than 9 digits"))
    m = _KEYWORD_RE.match(raw)
    if m:
        return _parse_keyword(raw, m.group(1).upper(), m.group(2).strip())
    return _parse_sum(raw)


def _parse_keyword(raw: str, word: str, rest: str) -> Expr:
    if word == "TALISMAN":
        if rest:
            raise _bad(raw, "talisman takes nothing after it")
        return TALISMAN
    if word == "EC":
        if rest:
            raise _bad(raw, "EC passes on a natural 6 only, so it takes no modifier")
        return EC
    if word == "DC":
        compact = rest.replace(" ", "")
        if not compact:
            return dc()
        if re.fullmatch(r"[+-]\d{1,4}", compact):
            return dc(int(compact))
        raise _bad(raw, "DC takes an optional modifier such as DC+1 or DC-2")
    if word == "DR":
        name = rest.strip("():").strip().lower()  # checked after lowering: 'İ' lowers to 2 chars
        if not name:
            return DR
        if not re.fullmatch(r"[\w\- ]{1,40}", name):
            raise _bad(raw, "DR takes an optional table name, e.g. DR events")
        return dr(name)
    # SR
    inner = rest.strip()
    if inner.startswith("(") and inner.endswith(")"):
        inner = inner[1:-1]
    if not inner:
        return sr()
    names = tuple(part.strip() for part in inner.split(","))
    if len(names) != 3 or not all(names):
        raise _bad(raw, "SR takes three options, e.g. SR STR,DEX,INT")
    return sr(*names)


def _parse_sum(raw: str) -> Expr:
    body = raw.replace(" ", "")
    op = target = None
    m = _CMP_RE.search(body)
    if m:
        op = "==" if m.group(1) == "=" else m.group(1)
        target = int(m.group(2))
        body = body[: m.start()]
    if not body:
        raise _bad(raw)
    terms: list[Term] = []
    const = 0
    pos = 0
    while pos < len(body):
        tm = _TERM_RE.match(body, pos)
        if not tm or tm.end() == pos:
            raise _bad(raw)
        sign_text, count_text, sides_text, number = tm.groups()
        sign = -1 if sign_text == "-" else 1
        if pos > 0 and not sign_text:
            raise _bad(raw)
        if number is not None:
            const += sign * int(number)
        else:
            count = int(count_text) if count_text else 1
            if count < 1 or count > MAX_DICE:
                raise _bad(raw, f"between 1 and {MAX_DICE} dice")
            if sides_text.lower() == "t":
                die = DT
            elif sides_text == "%":
                die = plain(100)
            else:
                sides = int(sides_text)
                if sides < 2 or sides > MAX_SIDES:
                    raise _bad(raw, f"a die has 2 to {MAX_SIDES} sides")
                die = plain(sides)
            terms.append(Term(count, die, sign))
        pos = tm.end()
    if not terms:
        raise _bad(raw, "no dice in it")
    if sum(t.count for t in terms) > MAX_DICE:
        raise _bad(raw, f"at most {MAX_DICE} dice")
    return Expr("sum", tuple(terms), const=const, op=op, target=target)
