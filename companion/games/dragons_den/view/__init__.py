"""How the den looks on screen: the status rows, the health table with bars, plain data for ``--json``.

The dragon's chit stays secret here until it is revealed: its name, health and speed are not shown.
rich is imported inside the functions (only commands that print load it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.dragons_den import data, rules
from companion.games.dragons_den.model import DRAGON, HEROES, HIDDEN, IN, OVER, SETUP, Den, Figure
from companion.i18n import _, ngettext

if TYPE_CHECKING:
    from rich.table import Table
    from rich.text import Text

    from companion.session.state import State


def short(f: Figure) -> str:
    """A hero's short name (Sam, Cara); a monster's or the dragon's full name."""
    return f.key.capitalize() if f.kind == "hero" else f.name


def phase_text(den: Den) -> str:
    if den.phase == SETUP:
        return "setting up"
    if den.phase == OVER:
        return ngettext("over after {n} round", "over after {n} rounds", den.round).format(n=den.round)
    if den.phase == HEROES:
        hero = den.figure(den.turn)
        return f"round {den.round} · {hero.name if hero else 'the heroes'}'s turn"
    return f"round {den.round} · the dragon player's turn"


def alarm_text(den: Den) -> str:
    if not den.alarm:
        return f"silent · {len(den.cup)} countdown chits wait in the cup"
    return f"sounded · {len(den.cup)} of {den.countdown} countdown chits left"


def carried_gp(f: Figure, values: dict[str, Any]) -> int:
    return sum(rules.chit_value(values, c) for c in f.treasure)


def notes(den: Den, f: Figure) -> str:
    """Status words for a figure: paralysed, sneaking, used abilities, what it carries."""
    bits: list[str] = []
    if f.status not in (IN, HIDDEN):
        bits.append(f.status)
    if f.kind == "hero":
        if rules.paralysed(den, f):
            bits.append("paralysed this turn")
        elif f.paralysed > den.round:
            bits.append("paralysed next turn")
        if f.key in den.sneaking:
            bits.append("hidden under the dragon")
        card = data.HERO_BY_KEY[f.key]
        for key in card.abilities:
            left = rules.uses_left(f, key)
            if left is not None:
                bits.append(f"{data.ABILITIES[key].name.removesuffix(' Spell')} {left}/{data.ABILITIES[key].max_uses}")
    elif f.kind == "monster":
        special = data.MONSTER_BY_CHIT[f.number].special
        if special:
            bits.append(data.SPECIALS[special][0])
        bits.append(f"room {f.room}")
    return ", ".join(bits)


def bar(value: int, maximum: int) -> Text:
    from companion.shell.panels import bar as panel_bar

    return panel_bar(value, maximum)


def status_rows(state: State) -> list[tuple[str, object]]:
    """Rows of the status panel: the turn, the alarm, then every figure's health bar."""
    from rich.text import Text

    den: Den = state.game
    rows: list[tuple[str, object]] = [("Turn", phase_text(den))]
    if den.phase == SETUP:
        return rows
    rows.append(("Alarm", alarm_text(den)))
    for h in den.heroes:
        label = f"#{h.number} {short(h)}"
        if h.status == IN:
            value = bar(h.health, h.max_health).append(f"  speed {h.speed}", style="dim")
        else:
            value = Text(h.status, style="dim")
        gp = carried_gp(h, state.data)
        extra = notes(den, h)
        if h.treasure:
            chits = ngettext("{n} chit", "{n} chits", len(h.treasure)).format(n=len(h.treasure))
            extra = (extra + ", " if extra else "") + f"{chits} {gp:,} gp"
        if extra:
            value.append(f"  {extra}", style="dim")
        rows.append((label, value))
    dragon = den.dragon
    if dragon is not None:
        if dragon.status == HIDDEN:
            rows.append(("Dragon", Text("face down in the lair (secret)", style="dim")))
        elif dragon.status == IN:
            breath = rules.dragon_note(den).breath_title
            rows.append(
                (dragon.name, bar(dragon.health, dragon.max_health).append(f"  speed {dragon.speed}, {breath}"))
            )
        else:
            rows.append((dragon.name, Text(dragon.status, style="dim")))
    for m in den.monsters_alive():
        rows.append((m.name, bar(m.health, m.max_health).append(f"  {notes(den, m)}", style="dim")))
    rows.append(("Hoard", f"{len(den.hoard)} of {data.HOARD_CHITS} chits in the lair"))
    if den.loose:
        rows.append(("Lying", ", ".join(f"{c} room {r}" for c, r in den.loose.items())))
    if den.score is not None:
        rows.append(("Heroes", f"{den.score.heroes_result} ({den.score.haul:,} gp)"))
        rows.append(("Dragon", f"{den.score.dragon_result} ({den.score.happiness} points)"))
    return rows


def health_table(state: State) -> Table:
    """Every figure on the board at a glance: health bars, speed, status, uses left, treasure."""
    from rich.table import Table
    from rich.text import Text

    den: Den = state.game
    table = Table(title=f"The Dragon's Den · {phase_text(den)} · alarm {alarm_text(den)}", title_justify="left")
    for col in ("", "figure", "health", "speed", "notes", "treasure"):
        table.add_column(col, no_wrap=col in ("health", ""))
    for h in den.heroes:
        health = bar(h.health, h.max_health) if h.status == IN else Text(f"{h.status} ({h.health})", style="dim")
        gp = carried_gp(h, state.data)
        table.add_row(
            f"#{h.number}",
            h.name,
            health,
            str(h.speed),
            notes(den, h),
            f"{len(h.treasure)} · {gp:,} gp" if h.treasure else "",
        )
    dragon = den.dragon
    if dragon is not None:
        if dragon.status == HIDDEN:
            table.add_row("", "the dragon", Text("secret", style="dim"), "?", "face down in the lair", "")
        else:
            breath = rules.dragon_note(den).breath_title
            health = bar(dragon.health, dragon.max_health) if dragon.status == IN else Text(dragon.status, style="dim")
            table.add_row(
                f"D{dragon.number}", dragon.name, health, str(dragon.speed), breath, f"hoard {len(den.hoard)}"
            )
    for m in den.monsters:
        health = bar(m.health, m.max_health) if m.status == IN else Text(m.status, style="dim")
        table.add_row(f"M{m.number}", m.name, health, str(m.speed), notes(den, m), "")
    return table


def figure_json(den: Den, f: Figure, values: dict[str, Any]) -> dict[str, Any]:
    if f.kind == "dragon" and f.status == HIDDEN:
        return {"key": f.key, "kind": "dragon", "status": HIDDEN}
    out: dict[str, Any] = {
        "key": f.key,
        "name": f.name,
        "kind": f.kind,
        "number": f.number,
        "health": f.health,
        "max_health": f.max_health,
        "speed": f.speed,
        "status": f.status,
    }
    if f.kind == "hero":
        out["treasure"] = list(f.treasure)
        out["treasure_gp"] = carried_gp(f, values)
        out["uses"] = dict(f.uses)
        out["paralysed"] = rules.paralysed(den, f)
    if f.kind == "monster":
        out["room"] = f.room
    return out


def den_json(state: State) -> dict[str, Any]:
    """The den as JSON, with the dragon kept secret until it is revealed."""
    den: Den = state.game
    out: dict[str, Any] = {
        "phase": den.phase,
        "round": den.round,
        "turn": den.turn,
        "alarm": den.alarm,
        "countdown_left": len(den.cup),
        "countdown": den.countdown,
        "hoard": len(den.hoard),
        "lying": dict(den.loose),
        "rooms": {str(k): v for k, v in den.rooms.items()},
        "figures": [figure_json(den, f, state.data) for f in den.figures()],
        "finished": state.finished,
    }
    if den.score is not None:
        from companion.session import codec

        out["score"] = codec.dump(den.score)
    return out


def hero_line(state: State) -> str | None:
    den: Den = state.game
    if den is None or not den.heroes:
        return None
    return ", ".join(short(h) for h in den.heroes) + " against the dragon"


__all__ = ["DRAGON", "den_json", "health_table", "status_rows"]


# ---- the shell's bar ---------------------------------------------------------------------------


def board(state: State) -> Any:
    """The table for the shell's bar: every hero's health and treasure, the dragon and the monsters
    awake with their health, whose turn it is, the alarm and the hoard."""
    from companion.engine.board import Board
    from companion.engine.board import Figure as Shown

    den: Den = state.game
    heroes = []
    for h in den.heroes:
        gp = carried_gp(h, state.data)
        treasure = _("◆{n} {gp} gp").format(n=len(h.treasure), gp=f"{gp:,}") if h.treasure else ""
        gone = h.status != IN
        health = f"{h.health}/{h.max_health}" if not gone else h.status
        turn = den.phase == HEROES and den.turn == h.key
        heroes.append(Shown(short(h), health, treasure, turn=turn, out=h.status == "slain"))
    foes = []
    dragon = den.dragon
    if dragon is not None and dragon.status == IN:
        foes.append(Shown(dragon.name, f"{dragon.health}/{dragon.max_health}", turn=den.phase == DRAGON))
    for m in den.monsters_alive():
        foes.append(Shown(m.name, f"{m.health}/{m.max_health}"))
    rest = [] if den.phase == SETUP else [_("round {n}").format(n=den.round), alarm_text(den)]
    if den.phase == SETUP:
        rest.append(phase_text(den))
    elif den.phase == DRAGON:
        rest.insert(0, _("the dragon player's turn"))
    elif den.phase == OVER:
        rest.insert(0, phase_text(den))
    rest.append(_("hoard {n}/{m}").format(n=len(den.hoard), m=data.HOARD_CHITS))
    return Board(tuple(heroes), tuple(foes), _("the den") if foes else "", tuple(rest))
