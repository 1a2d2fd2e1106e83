"""The reference tables and odds reports behind ``companion dragon notes``, ``treasure`` and ``odds``.

Each report is plain data with a ``lines`` list (for ``--json`` and for text); the rich tables are
built inside :func:`render` (rich is imported only when something is printed).
"""

from __future__ import annotations

from typing import Any

from companion.games.dragons_den import data, odds, rules
from companion.games.dragons_den.model import DRAGON, HEROES, HIDDEN, Den, Figure


def frac(p: Any) -> str:
    return f"{p.numerator}/{p.denominator}"


def row_text(row: data.TreasureRow) -> str:
    mark = " (a reading: the text is garbled here)" if row.reading else ""
    return f"{row.name}, {row.gp:,} gp{mark}"


def row_json(row: data.TreasureRow) -> dict[str, Any]:
    return {"row": row.number, "name": row.name, "gp": row.gp, "reading": row.reading}


def as_json(name: str, values: dict[str, Any]) -> Any:
    if name == "heroes":
        return [
            {
                "number": h.number,
                "key": h.key,
                "name": h.name,
                "kind": h.kind,
                "health": h.health,
                "speed": h.speed,
                "abilities": [
                    {
                        "key": a,
                        "name": data.ABILITIES[a].name,
                        "cost": data.ABILITIES[a].cost,
                        "max_uses": data.ABILITIES[a].max_uses,
                        "instead_of_attack": data.ABILITIES[a].instead,
                        "counts_as_attack": data.ABILITIES[a].counts_as_attack,
                        "summary": data.ABILITIES[a].summary,
                    }
                    for a in h.abilities
                ],
            }
            for h in data.HEROES
        ]
    if name == "monsters":
        return [
            {"chit": m.chit, "name": m.name, "health": m.health, "speed": m.speed, "special": m.special or None}
            for m in data.MONSTERS
        ]
    if name == "dragons":
        return [
            {"chit": d.chit, "name": d.name, "health": d.health, "speed": d.speed, "breath": d.breath_title}
            for d in data.DRAGONS
        ]
    if name == "treasure":
        return {
            table: [row_json(rules.treasure_row(values, table, r.number)) for r in rows]
            for table, rows in data.TREASURE_TABLES.items()
        }
    return {
        "heroes": [{"result": r.result, "outcome": r.outcome, "lo": r.lo, "hi": r.hi} for r in data.HEROES_CHART],
        "dragon": [{"result": r.result, "outcome": r.outcome, "lo": r.lo, "hi": r.hi} for r in data.DRAGON_CHART],
    }


def render(name: str, values: dict[str, Any]) -> list[Any]:
    """Rich tables for one of the notes."""
    from rich.table import Table
    from rich.text import Text

    if name == "heroes":
        t = Table(title="Heroes (they move from #7 down to #1)", title_justify="left")
        for col in ("#", "hero", "health", "speed", "special abilities (each costs 1 health)"):
            t.add_column(col)
        for h in data.HEROES:
            abilities = "\n".join(
                f"{data.ABILITIES[a].name}"
                + (f" (at most {data.ABILITIES[a].max_uses} times)" if data.ABILITIES[a].max_uses else "")
                + f": {data.ABILITIES[a].summary}"
                for a in h.abilities
            )
            t.add_row(str(h.number), h.title, str(h.health), str(h.speed), abilities)
        return [t]
    if name == "monsters":
        t = Table(title="Monsters (room chits M1-M20)", title_justify="left")
        for col in ("chit", "monster", "health", "speed", "special (instead of an attack; costs 1 health)"):
            t.add_column(col)
        for m in data.MONSTERS:
            special = f"{data.SPECIALS[m.special][0]}: {data.SPECIALS[m.special][1]}" if m.special else ""
            t.add_row(str(m.chit), m.name, str(m.health), str(m.speed), special)
        return [t]
    if name == "dragons":
        t = Table(title="Dragons (dragon chits 1-12; every breath costs the dragon 1 health)", title_justify="left")
        for col in ("chit", "dragon", "health", "speed", "breath"):
            t.add_column(col)
        for d in data.DRAGONS:
            harm = "2 health, 1 on a save" if d.breath == "greater" else "1 health"
            t.add_row(str(d.chit), d.name, str(d.health), str(d.speed), f"{d.breath_title}: {harm}")
        return [t]
    if name == "treasure":
        out = []
        for table, rows in data.TREASURE_TABLES.items():
            t = Table(title=f"{table.capitalize()} treasure", title_justify="left")
            for col in ("chit", "treasure", "value"):
                t.add_column(col)
            for r in rows:
                row = rules.treasure_row(values, table, r.number)
                fixed = (row.name, row.gp) != (r.name, r.gp)
                mark = " (a reading: garbled in the text)" if row.reading else ""
                mark = " (your correction)" if fixed else mark
                t.add_row(str(r.number), Text(row.name).append(mark, style="dim"), f"{row.gp:,} gp")
            out.append(t)
        return out
    out = []
    for title, chart, unit in (
        ("Heroes' Victory Chart (the haul)", data.HEROES_CHART, ""),
        ("Dragon's Victory Chart (happiness points)", data.DRAGON_CHART, ""),
    ):
        t = Table(title=title + unit, title_justify="left")
        t.add_column("result")
        t.add_column("outcome")
        for r in chart:
            t.add_row(r.result, r.outcome)
        out.append(t)
    return out


# ---- odds reports ----------------------------------------------------------------------------------


def fight_odds(first: int, second: int) -> dict[str, Any]:
    ex = odds.exchange(first, second)
    lines = [
        f"One attack at health {first}: {odds.chance_text(odds.attack_chance(first))}",
        f"Trading blows until one falls, health {first} striking first against health {second}:",
        f"  the first wins {odds.chance_text(ex.win)}, the second {odds.chance_text(ex.lose)}",
    ]
    left = ", ".join(f"{h}: {odds.pct(p)}" for h, p in sorted(ex.first_left.items()))
    lines.append(f"  the first's health left when it wins: {left}")
    return {
        "first": first,
        "second": second,
        "attack": frac(odds.attack_chance(first)),
        "win": frac(ex.win),
        "lose": frac(ex.lose),
        "first_left": {str(h): frac(p) for h, p in ex.first_left.items()},
        "second_left": {str(h): frac(p) for h, p in ex.second_left.items()},
        "lines": lines,
    }


def move_odds(speed: int, need: int, *, run: bool, haste: bool, who: str | None = None) -> dict[str, Any]:
    dist = odds.movement(speed, run=run, haste=haste)
    p = odds.at_least(dist, need)
    how = ("runs" if run else "advances") + (" with Haste" if haste else "")
    name = who or f"A figure of speed {speed}"
    lines = [
        f"{name} {how} {min(dist)}-{max(dist)} squares; reaching {need} or more: {odds.chance_text(p)}",
    ]
    return {"speed": speed, "need": need, "run": run, "haste": haste, "chance": frac(p), "lines": lines}


def figure_odds(den: Den, a: Figure, b: Figure) -> dict[str, Any]:
    if a.kind == "dragon" or (a.kind == "hero") == (b.kind == "hero"):
        from companion.errors import InputError

        raise InputError("odds are for a hero against a monster or the dragon, or a monster against a hero")
    if b.kind == "dragon" and b.status == HIDDEN:
        from companion.errors import InputError

        raise InputError("the dragon is still secret")
    out = fight_odds(a.health, b.health) if b.kind != "dragon" else {"lines": []}
    p = odds.attack_chance(a.health)
    first = f"{a.name} (health {a.health}) hits {b.name} on 1-{rules.attack_target(a.health)}: {odds.chance_text(p)}"
    out["lines"] = [first] + [
        line.replace("the first", a.name).replace("the second", b.name) for line in out["lines"][1:]
    ]
    out["attack"] = frac(p)
    return out


def breath_lines(den: Den) -> list[str]:
    """Each hero's odds against the breath (both kinds while the dragon is secret)."""
    kinds: tuple[bool, ...]
    if den.dragon is None or den.dragon.status == HIDDEN:
        kinds = (True, False)
    else:
        kinds = (rules.dragon_note(den).breath == "greater",)
    lines = []
    for h in den.heroes_in():
        bits = []
        for greater in kinds:
            loss = odds.breath_loss(h.health, greater)
            text = ", ".join(f"lose {k}: {odds.pct(v)}" for k, v in loss.items())
            bits.append(("greater breath: " if greater else "lesser breath: ") + text)
        save = odds.breath_save_chance(h.health)
        lines.append(f"  {h.name} (health {h.health}, saves {odds.pct(save)}): " + "; ".join(bits))
    return lines


def turn_odds(den: Den) -> dict[str, Any]:
    lines: list[str] = []
    if den.phase == HEROES:
        hero = den.figure(den.turn)
        if hero is not None:
            adv, run = odds.movement(hero.speed), odds.movement(hero.speed, run=True)
            hit = odds.chance_text(odds.attack_chance(hero.health))
            lines.append(
                f"{hero.name}: advances {min(adv)}-{max(adv)}, runs {min(run)}-{max(run)} squares; "
                f"an attack hits on 1-{rules.attack_target(hero.health)}: {hit}"
            )
            for m in den.monsters_alive():
                ex = odds.exchange(hero.health, m.health)
                lines.append(f"  against the {m.name} ({m.health}): to the end {odds.chance_text(ex.win)}")
    elif den.phase == DRAGON:
        for m in den.monsters_alive():
            lines.append(
                f"The {m.name} (health {m.health}) hits on 1-{rules.attack_target(m.health)}: "
                f"{odds.chance_text(odds.attack_chance(m.health))}"
            )
    if den.heroes_in():
        lines.append("Against the breath:")
        lines.extend(breath_lines(den))
    return {"lines": lines or ["Nothing to roll for now."]}
