"""The shell's bottom toolbar: the whole table in view, made once after every command.

For a game that gives its :class:`companion.engine.board.Board`, the bar is, in this order:

1. the pending step's line (who acts, what to roll or choose, the odds or the menu; a menu too long
   for it goes on under the question, up to two lines broken between options);
2. the fight in progress, every figure in it with its health;
3. every hero or player, with its health as a number and the figure that matters most in its game,
   whose turn marked ``▶``;
4. the rest: the session, floor, room, the Talisman search, the deck.

It fits the terminal's width. Heroes are never dropped: when they do not fit their lines, each name
is shortened to the shortest prefix no other hero shares (its health always stays). The fight's
figures and the rest are shortened first, and figures that do not fit are said as "+2 more".

A game without a board (freeform) shows the session's figures from the same rows as
``companion status``, packed into at most three lines: whole figures only, joined with `` · ``; a
figure too long for a line is cut at a word with "…", and figures that do not fit are left out with
"…" at the end.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from companion.i18n import _

if TYPE_CHECKING:
    from companion.engine.board import Board, Figure
    from companion.engine.pending import Pending
    from companion.session.service import Session

SEP = " · "
_BAR = re.compile(r"^[█░]+\s+(\S+)$")


def figures(session: Session) -> list[str]:
    """The session's figures as short strings: ``HP 7/10``, ``XP 12 (level 2)``, each tally, the game's own."""
    from companion.shell.panels import status_rows

    out: list[str] = []
    level = session.state.trackers.level
    for label, value in status_rows(session):
        text = " ".join(str(getattr(value, "plain", value)).split())
        bar = _BAR.match(text)
        if bar:
            text = bar.group(1)
        if text in ("—", "-", "–"):  # nothing there yet: not worth a place on the bar
            continue
        if label == "Tally":
            out.append(text)
            continue
        if label.upper() == "XP" and "level" not in text.lower() and session.spec.levels:
            text += " " + _("(level {n})").format(n=level)
        out.append(f"{_(label)} {text}" if text else _(label))
    if session.state.finished:
        out.append(_("game over: {result}").format(result=_(session.state.finished)))
    return out


def _cut(text: str, width: int) -> str:
    if len(text) <= width:
        return text
    cut = text[: max(1, width - 1)].rsplit(" ", 1)[0] if " " in text[: width - 1] else text[: width - 1]
    return cut.rstrip(" ,;:·") + "…"


def fit(head: str, segments: list[str], width: int, lines: int = 3) -> list[str]:
    """Pack ``head`` and the segments into at most ``lines`` lines no wider than ``width``."""
    width = max(20, width)
    out: list[str] = []
    line = _cut(head, width)
    for i, seg in enumerate(segments):
        seg = _cut(seg, width)
        if len(line) + len(SEP) + len(seg) <= width:
            line = f"{line}{SEP}{seg}" if line else seg
            continue
        if len(out) + 1 >= lines:
            # No room for another line: say that there is more.
            rest = segments[i:]
            if rest:
                line = line if len(line) + 2 <= width else _cut(line, width - 2)
                line += " …"
            out.append(line)
            return out
        out.append(line)
        line = seg
    out.append(line)
    return out


def toolbar_lines(session: Session | None, width: int, name: str | None = None) -> list[str]:
    """The toolbar for ``session`` (or for no session) at ``width`` columns."""
    if session is None:
        return fit(
            _("no session"), [_("start one: new GAME"), _("or: use NAME"), _("help: short forms and keys")], width
        )
    head = f"{session.name} ({game_words(session)})"
    return fit(head, figures(session) or [_("nothing tracked yet")], width)


def game_words(session: Session) -> str:
    """The game as the bar names it: its id (as typed) in English, its title in the session's own
    language (Тёмная Башня), where the game speaks it."""
    from companion import i18n

    return session.meta.game if i18n.language() == i18n.SOURCE else _(session.spec.title)


#: The most lines the heroes take before their names are shortened, and the fight's figures.
HERO_LINES = 3
FIGHT_LINES = 2
REST_LINES = 2


def _width(text: str) -> int:
    from rich.cells import cell_len

    return cell_len(text)


def _cut_cells(text: str, width: int) -> str:
    """:func:`_cut` by the terminal's cells (a ♥ or ▶ may take two)."""
    if _width(text) <= width:
        return text
    while text and _width(text) > width - 1:
        text = text[:-1]
    cut = text.rsplit(" ", 1)[0] if " " in text else text
    return cut.rstrip(" ,;:·") + "…"


def pack(items: list[str], width: int, lines: int, more: bool) -> list[str] | None:
    """``items`` joined with `` · `` into at most ``lines`` lines of ``width`` cells; with ``more``,
    what does not fit is said as "+N more" at the end; else None when they do not all fit."""
    out: list[str] = []
    line: list[str] = []
    for i, item in enumerate(items):
        item = _cut_cells(item, width)
        if _width(SEP.join([*line, item])) <= width:
            line.append(item)
            continue
        if len(out) + 1 >= lines:
            if not more:
                return None
            left = len(items) - i
            while line:
                tail = " " + _("+{n} more").format(n=left)
                room = width - _width(SEP.join(line[:-1]) + (SEP if len(line) > 1 else "")) - _width(tail)
                if _width(line[-1]) <= room:
                    break
                if room >= 12:  # a long last figure is cut, not dropped
                    line[-1] = _cut_cells(line[-1], room)
                    break
                line.pop()
                left += 1
            out.append((SEP.join(line) + " " if line else "") + _("+{n} more").format(n=left))
            return out
        out.append(SEP.join(line))
        line = [item]
    if line:
        out.append(SEP.join(line))
    return out


def unique_prefixes(names: list[str]) -> list[str]:
    """Each name's shortest prefix that no other name starts with (the whole name when it must)."""
    out = []
    for i, name in enumerate(names):
        others = [n.casefold() for j, n in enumerate(names) if j != i]
        for k in range(1, len(name) + 1):
            p = name[:k].casefold()
            if not any(o.startswith(p) for o in others):
                out.append(name[:k])
                break
        else:
            out.append(name)
    return out


def _figure(f: Figure, name: str, extra: bool = True) -> str:
    text = ("▶" if f.turn else "") + name
    if f.out:
        return text + " ✝"
    if f.health:
        text += f" {f.health}"
    if extra and f.extra:
        text += f" {f.extra}"
    return text


def hero_lines(heroes: tuple[Figure, ...], width: int) -> list[str]:
    """Every hero on as few lines as it takes: whole names, then (past :data:`HERO_LINES`) the
    shortest unique prefixes, then without their extra figure; never one left out."""
    names = [h.name for h in heroes]
    short = unique_prefixes(names)
    tries = (
        (names, True),
        (short, True),
        (names, False),
        (short, False),
    )
    for chosen, extra in tries:
        items = [_figure(h, n, extra) for h, n in zip(heroes, chosen, strict=True)]
        packed = pack(items, width, HERO_LINES, more=False)
        if packed is not None:
            return packed
    # Still too many for the lines: as many lines as the shortest form takes (never a hero dropped).
    items = [_figure(h, n, False) for h, n in zip(heroes, short, strict=True)]
    return pack(items, width, len(items), more=False) or items


def step_lines(step: Pending, width: int) -> list[str]:
    """The step on the bar: one line when it fits; else the question on one line (a closing remark in
    brackets left out when it does not fit) and the odds or the menu on the next, so the menu is never
    the part cut off with «…»."""
    line = step.line()
    if _width(line) <= width:
        return [line]
    head, tail = step.line_parts()
    if _width(head) > width:
        head = re.sub(r" \([^()]*\)$", "", head)
    return [_cut_cells(head, width)] + (menu_lines(tail, width) if tail else [])


#: The most lines the step's menu (or odds) takes on the bar under its question.
MENU_LINES = 2


def menu_lines(tail: str, width: int) -> list[str]:
    """The menu under the question, indented: options kept whole where they fit (a line breaks between
    them), a long one wrapped between its words; only past :data:`MENU_LINES` lines is it cut with «…»."""
    room = width - 2
    pieces: list[tuple[str, str]] = []  # (what comes before it on a line, a word or a whole option)
    for option in tail.split("  "):
        if _width(option) <= room:
            pieces.append(("  ", option))
        else:
            pieces.extend(("  " if i == 0 else " ", word) for i, word in enumerate(option.split(" ")))
    out: list[str] = []
    line = ""
    for sep, piece in pieces:
        if not line:
            line = piece
        elif _width(line + sep + piece) <= room or len(out) == MENU_LINES - 1:  # the last line: cut below
            line += sep + piece
        else:
            out.append(line)
            line = piece
    out.append(line)
    return [_cut_cells("  " + line, width) for line in out]


def bar(
    head: str,
    figures_: list[str],
    width: int,
    *,
    board: Board | None = None,
    step: Pending | None = None,
) -> list[str]:
    """The bottom bar at ``width`` columns: the step, the fight, the heroes, the rest."""
    width = max(20, width)
    if board is None:
        out = fit(head, figures_, width)
        return (step_lines(step, width) if step is not None else []) + out
    out: list[str] = []
    if step is not None:
        out.extend(step_lines(step, width))
    if board.fight:
        items = [_figure(f, f.name) for f in board.fight]
        title = f"⚔ {board.fight_title}:" if board.fight_title else "⚔"
        packed = pack(items, width - _width(title) - 1, FIGHT_LINES, more=True) or []
        out.extend((f"{title} {line}" if i == 0 else " " * (_width(title) + 1) + line) for i, line in enumerate(packed))
    heroes = board.heroes
    if step is not None and step.actor and not any(f.turn for f in (*board.fight, *heroes)):
        heroes = tuple(replace(h, turn=True) if h.name == step.actor else h for h in heroes)
    if heroes:
        out.extend(hero_lines(heroes, width))
    rest = pack([head, *board.rest], width, REST_LINES, more=True) or [_cut_cells(head, width)]
    out.extend(rest)
    return out
