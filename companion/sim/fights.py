"""Exact fight odds across games: one result shape, and the registry behind ``companion odds fight GAME``.

Each game computes its own odds in its own ``odds.py`` (exact fractions, never sampled) and turns them
into a :class:`FightOutcome`, which the shells show the same way for every game: the chance to win,
to lose, to flee where fleeing exists, the expected HP left, and a bar chart of the outcome
distribution. ``--json`` prints :func:`to_json`.

``FIGHT_ODDS`` lists the games that give fight odds. An entry names the game's typer command for
``companion odds fight GAME`` and its pure function returning a FightOutcome; both are imported only
when that game's odds are asked for. This module imports nothing heavy: the CLI reads the registry
to list the games.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class Chart:
    """One bar chart: a title and (label, chance) rows in the order they are shown."""

    title: str
    rows: tuple[tuple[str, Fraction], ...]


@dataclass(frozen=True)
class FightOutcome:
    """The exact odds of one fight, as every shell shows them.

    ``win`` + ``lose`` + (``flee`` or 0) + (``draw`` or 0) is 1. ``death`` is the chance to die (in a
    game where losing is dying it equals ``lose``); ``hp_left`` the expected HP at the end, a death
    counting 0. A field a game cannot give is None, and is not shown.
    """

    game: str
    #: The fight in words, as computed: "2 Skeleton Warriors + a Lich on floor 3, HP 5, STR +2".
    fight: str
    win: Fraction
    lose: Fraction
    flee: Fraction | None = None
    draw: Fraction | None = None
    death: Fraction | None = None
    hp_left: Fraction | None = None
    hp_if_win: Fraction | None = None
    #: What the game calls HP ("HP", "health", "wounds left").
    hp_name: str = "HP"
    #: How each outcome is named: keys win, lose, flee, draw, death; and hp_if_win, the words after
    #: ``hp_if_win`` (default: "on a <win>").
    words: dict[str, str] = field(default_factory=dict)
    #: Further named chances, shown after the others (e.g. "the helper falls").
    more: tuple[tuple[str, Fraction], ...] = ()
    charts: tuple[Chart, ...] = ()
    notes: tuple[str, ...] = ()
    #: The numbers the odds were computed from (JSON-ready), e.g. {"hp": 5, "floor": 3}.
    inputs: dict[str, Any] = field(default_factory=dict)
    #: Fractions with a denominator up to this are shown whole; None: every one (a game whose own odds
    #: command shows longer fractions gives the same here, so the two never disagree).
    shown_denominator: int | None = 10**6

    def word(self, key: str) -> str:
        return self.words.get(key, _WORDS[key])


_WORDS = {"win": "win", "lose": "lose", "flee": "flee", "draw": "draw", "death": "die"}


@dataclass(frozen=True)
class Position:
    """A fight as it stood at one moment: in words, and as the arguments of ``companion odds fight``
    that give its chance to win (the same fraction the moment shows); a check's, of ``companion odds``
    (``odds=""``)."""

    words: str
    #: What follows ``companion odds fight``: the game, then its options.
    args: tuple[str, ...]
    #: The ``companion odds`` subcommand the arguments follow ("": none, a roll's own odds).
    odds: str = "fight"

    def command(self) -> str:
        import shlex

        return " ".join(["companion", "odds", *([self.odds] if self.odds else []), shlex.join(self.args)])


#: What a :class:`Reading`'s chance is of: the player's side winning a fight, a hero coming through it
#: standing (the page shows the chance to fall), a check passing.
WIN, STAND, PASS = "win", "stand", "pass"


@dataclass(frozen=True)
class Reading:
    """The player's chance at one moment of a session (the exports' big moments read these): to win
    a fight, for a hero to come through it standing, for a check to pass (``of``). Low is bad.

    ``fight`` tells timelines apart (the same key from its first moment to its last: a fight, or one
    hero in it); ``title`` names it; ``chance`` is exact, or a float where exact counting is slow, and
    then ``exact`` counts the fraction (only for the moments a page shows).
    """

    fight: Any
    title: str
    chance: Fraction | float
    position: Position
    exact: Callable[[], Fraction] | None = field(default=None, compare=False)
    of: str = WIN

    def fraction(self) -> Fraction:
        if isinstance(self.chance, Fraction):
            return self.chance
        return self.exact() if self.exact is not None else Fraction(self.chance)


@dataclass(frozen=True)
class FightOddsEntry:
    """A game's plug into ``companion odds fight``."""

    #: One line for ``companion odds fight --help``.
    summary: str
    #: "module:function" of the typer command run as ``companion odds fight GAME [OPTIONS]``.
    command: str
    #: "module:function" returning a :class:`FightOutcome` from plain numbers (tests, benchmarks).
    outcome: str
    #: One example command line, for the help.
    example: str = ""


#: Canonical game name (or "pack": the fights a table pack defines) → its entry (how a game plugs in:
#: docs/odds-and-simulation.md).
FIGHT_ODDS: dict[str, FightOddsEntry] = {
    "inverted-tower": FightOddsEntry(
        summary="Skeleton Warriors, a Lich or a boss: HP, attribute, floor, daggers",
        command="companion.games.inverted_tower.cli:odds",
        outcome="companion.games.inverted_tower.odds:fight_outcome",
        example="companion odds fight inverted-tower --mobs 2 --elite --attr 2 --hp 5 --floor 3 --daggers 1",
    ),
    "dark-tower": FightOddsEntry(
        summary="a monster or a group: the heroes' bonus, the dice and ★ spells against the strength",
        command="companion.games.dark_tower.cli.view:odds_fight",
        outcome="companion.games.dark_tower.odds:fight_outcome",
        example="companion odds fight dark-tower --bonus 3 --strength 5 --strength 4 --health 4/6",
    ),
    "haunted-tower": FightOddsEntry(
        summary="a duel with initiative: a monster of the listing against a hero (or the fight in progress)",
        command="companion.games.haunted_tower.cli.view:odds_fight",
        outcome="companion.games.haunted_tower.odds:fight_outcome",
        example="companion odds fight haunted-tower ghoul --hp 6 --attack 3 --ac 5 --run-at 1",
    ),
    "dragons-den": FightOddsEntry(
        summary="an exchange of attacks at the current health: a hero against a monster",
        command="companion.games.dragons_den.cli.tables:odds_fight",
        outcome="companion.games.dragons_den.odds:fight_outcome",
        example="companion odds fight dragons-den --health 8 --against 4",
    ),
    "talisman": FightOddsEntry(
        summary="a round, or a whole fight against an area's monster with the party as it stands",
        command="companion.games.adventure_in_the_dungeon.cli.fight:odds_fight",
        outcome="companion.games.adventure_in_the_dungeon.odds:fight_outcome",
        example="companion odds fight talisman 9 --round",
    ),
    "pack": FightOddsEntry(
        summary="a fight your table pack defines ([fights.NAME]) against a foe: win, lose, STAMINA left, rounds",
        command="companion.cli.pack_fight_cmds:odds_fight",
        outcome="companion.packs.fight_outcome:fight_outcome",
        example="companion odds fight pack blade --tables examples/tables/salt-road.toml --foe raider",
    ),
}


def load(target: str) -> Callable[..., Any]:
    """The object at ``module:attribute``."""
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)  # type: ignore[no-any-return]


def outcome_function(game: str) -> Callable[..., FightOutcome]:
    return load(FIGHT_ODDS[game].outcome)


# ---- showing an outcome --------------------------------------------------------------------------
def frac(p: Fraction | None) -> str | None:
    return None if p is None else f"{p.numerator}/{p.denominator}"


def _percent(p: Fraction) -> float:
    return round(float(p) * 100, 4)


def to_json(o: FightOutcome) -> dict[str, Any]:
    """The outcome as JSON: every chance exact (``"n/d"``) and as a percentage beside it."""
    data: dict[str, Any] = {"game": o.game, "fight": o.fight}
    for key in ("win", "lose", "flee", "draw", "death"):
        p = getattr(o, key)
        data[key] = frac(p)
        data[f"{key}_percent"] = None if p is None else _percent(p)
    data["more"] = {label: frac(p) for label, p in o.more}
    data["hp_left"] = frac(o.hp_left)
    data["hp_left_mean"] = None if o.hp_left is None else round(float(o.hp_left), 4)
    data["hp_if_win"] = frac(o.hp_if_win)
    data["charts"] = [
        {"title": c.title, "rows": [{"label": label, "chance": frac(p), "percent": _percent(p)} for label, p in c.rows]}
        for c in o.charts
    ]
    data["notes"] = list(o.notes)
    data["inputs"] = o.inputs
    return data


#: Fractions with a denominator above this are shown as a percentage only (the JSON keeps them exact).
SHOWN_DENOMINATOR = 10**6


def chance_text(p: Fraction, shown: int | None = SHOWN_DENOMINATOR) -> str:
    """``2/3 (66.7%)``, or ``66.67%`` when the fraction is too long to read (``shown``: the longest
    denominator shown whole).

    A long fraction that is possible but rounds to 0.00% shows as ``<0.01%`` (and a near-certainty
    as ``>99.99%``): a risk the odds count must not read as none.
    """
    from companion.i18n import percent

    if shown is None or p.denominator <= shown:
        return f"{p.numerator}/{p.denominator} ({percent(float(p) * 100)})"
    if 0 < p < Fraction(1, 10**4):
        return percent(0.01, 2, sign="<")
    if 1 - Fraction(1, 10**4) < p < 1:
        return percent(99.99, 2, sign=">")
    return percent(float(p) * 100, 2)


def share_text(p: Fraction) -> str:
    """A chart row's chance, ``32.9%``; a possible row never reads 0.0% (``<0.1%``), nor a row short of
    certain 100.0% (``>99.9%``)."""
    from companion.dice.odds import percent

    return percent(p)


def renderables(o: FightOutcome) -> list[Any]:
    """What ``companion odds fight`` prints: the fight, each chance, the HP left, the charts, the notes."""
    from rich.table import Table
    from rich.text import Text

    from .chart import bar_chart

    out: list[Any] = [Text(o.fight + ":", style="bold")]
    grid = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    grid.add_column()
    grid.add_column()
    styles = {"win": "green", "lose": "red", "flee": "yellow", "draw": "cyan", "death": "red"}
    for key in ("win", "lose", "draw", "flee"):
        p = getattr(o, key)
        if p is not None:
            grid.add_row(Text(" " + o.word(key), style=styles[key]), chance_text(p, o.shown_denominator))
    if o.death is not None and o.death != o.lose:
        grid.add_row(Text(" " + o.word("death"), style="red"), chance_text(o.death, o.shown_denominator))
    for label, p in o.more:
        grid.add_row(Text(" " + label), chance_text(p, o.shown_denominator))
    out.append(grid)
    if o.hp_left is not None:
        from companion.i18n import _, number

        text = " " + _("{hp} left on average {mean}").format(hp=o.hp_name, mean=number(float(o.hp_left), 2))
        if o.hp_if_win is not None:
            text += f", {number(float(o.hp_if_win), 2)} " + o.words.get("hp_if_win", f"on a {o.word('win')}")
        out.append(Text(text))
    for c in o.charts:
        out.append(Text(c.title, style="bold"))
        out.append(bar_chart([(label, p, share_text(p)) for label, p in c.rows]))
    for note in o.notes:
        out.append(Text(note, style="dim"))
    return out


def show(env: Any, o: FightOutcome, json_out: bool) -> None:
    """Print an outcome on ``env`` (a :class:`companion.cli.env.Env`), as JSON or for a person."""
    if json_out:
        env.print_json(to_json(o))
        return
    for r in renderables(o):
        env.print(r)
