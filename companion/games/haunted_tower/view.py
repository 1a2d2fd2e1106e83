"""What the players see: odds lines before a decision, the health of every figure, the score table.

Plain strings for the engine's menus and the log; rich renderables (imported when built) for the
terminal. Nothing here changes the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.dice.render import fraction
from companion.games.haunted_tower import data as D
from companion.games.haunted_tower import odds as O
from companion.games.haunted_tower.data.monsters import CRAWLER_PENALTY, MONSTERS, SPECTER, Monster
from companion.games.haunted_tower.rules import climb as rules_climb
from companion.games.haunted_tower.rules import lookup
from companion.games.haunted_tower.rules import numbers as rules_numbers
from companion.games.haunted_tower.rules import score as rules_score
from companion.i18n import _, ngettext, possessive

if TYPE_CHECKING:
    from rich.table import Table

    from companion.games.haunted_tower.model import Hero, Item
    from companion.session.state import State


# ---- odds before a decision --------------------------------------------------------------------


def attack_hint(state: State, weapon: Item | None) -> str:
    """``hits on 4+: 1/2 (50.0%), 1 damage`` for an attack option."""
    f, hero, monster = lookup.fighting(state)
    variants = state.meta.variants
    parts = rules_numbers.attack_parts(hero, monster, weapon, variants, slowed=f.slowed)
    p = O.hit_chance(rules_numbers.total(parts), monster.ac)
    need = monster.ac - rules_numbers.total(parts)
    amount, why = rules_numbers.damage_of(hero, monster, weapon, variants)
    if p == 0:
        text = f"cannot reach AC {monster.ac}"
    elif p == 1:
        text = "always hits"
    else:
        text = f"hits on a {need}+ on the die"
    text += f": {fraction(p)}"
    return text + (f", {amount} damage" if amount else f", no damage: {why}")


def run_hint(state: State) -> str:
    _, _, monster = lookup.fighting(state)
    p = O.run_chance(monster.att)
    return f"1d10 ≥ {monster.att}: {fraction(p)}"


def duel_for(state: State, weapon: Item | None, *, run_at: int = 0, turn: str | None = None) -> O.DuelOdds:
    """The exact odds of the fight in progress from now on, attacking with ``weapon``."""
    return O.duel(fight_monster(state), **fight_args(state, weapon, run_at=run_at, turn=turn))


def fight_monster(state: State) -> Monster:
    return lookup.fighting(state)[2]


def fight_args(state: State, weapon: Item | None, *, run_at: int = 0, turn: str | None = None) -> dict[str, Any]:
    """:func:`duel_args` for the fight in progress, from where it stands in its round."""
    f, hero, monster = lookup.fighting(state)
    if turn is None:
        turn = {
            "initiative": "round",
            "hero": "hero-last" if "monster" in f.acted else "hero-first",
            "monster": "monster-extra" if f.extra else ("monster-last" if "hero" in f.acted else "monster-first"),
        }.get(f.phase, "round")
    return duel_args(state, hero, monster, weapon, monster_hp=f.hp, run_at=run_at, turn=turn, fight=True)


def hero_duel(
    state: State,
    hero: Hero,
    monster: Monster,
    weapon: Item | None,
    *,
    monster_hp: int | None = None,
    run_at: int = 0,
    turn: str = "round",
    fight: bool = False,
) -> O.DuelOdds:
    args = duel_args(state, hero, monster, weapon, monster_hp=monster_hp, run_at=run_at, turn=turn, fight=fight)
    return O.duel(monster, **args)


def duel_args(
    state: State,
    hero: Hero,
    monster: Monster,
    weapon: Item | None,
    *,
    monster_hp: int | None = None,
    run_at: int = 0,
    turn: str = "round",
    fight: bool = False,
) -> dict[str, Any]:
    """The keyword arguments of :func:`.odds.duel` for ``hero`` attacking ``monster`` with ``weapon``
    (``fight``: the fight in progress, with its drain and venom)."""
    variants = state.meta.variants
    f = lookup.game(state).fight if fight else None
    amount, _ = rules_numbers.damage_of(hero, monster, weapon, variants)
    return {
        "hero_hp": hero.hp,
        "hero_attack": rules_numbers.total(rules_numbers.attack_parts(hero, monster, weapon, variants)),
        "hero_ac": rules_numbers.armor_class(hero, monster, variants),
        "hero_damage": amount,
        "monster_hp": monster_hp,
        "run_at": run_at,
        "items": len(hero.items),
        "drained": f.drained if f else False,
        "slowed": f.slowed if f else False,
        "turn": turn,
        "free_attack": lookup.RUN_FAIL_TURN not in variants,
    }


def best_weapon(state: State, hero: Hero, monster: Monster) -> Item | None:
    """The attack means with the best chance to win a duel to the end (None: no item).

    Equal chances go, in this order, to a means that can damage the monster when another cannot (a hit
    that lands and scores: the specter damaged, the wooden stake against the vampire, a non-metal staff
    against the rust monster, even when the fight is hopeless either way), then to the one less likely
    to fall, then to one that keeps a chit of limited uses for later (a silver dagger before the last
    holy water), then to the surer and harder hit. Bare hands come last among equals."""
    options: list[Item | None] = [*rules_numbers.attack_means(hero), None]
    f = lookup.game(state).fight
    here = f is not None and f.monster == monster.key

    def rank(w: Item | None) -> tuple[Any, ...]:
        args = fight_args(state, w) if here else duel_args(state, hero, monster, w)
        o = O.duel(monster, **args)
        attack = args["hero_attack"] + (CRAWLER_PENALTY if args["slowed"] else 0)
        scores = O.hit_chance(attack, monster.ac) * (1 if args["hero_damage"] > 0 else 0)
        keeps = w is None or w.left is None
        return o.win, scores > 0, -o.fall, keeps, scores, args["hero_damage"]

    return max(options, key=rank)


def fight_advice(state: State) -> list[str]:
    """The odds lines shown before the hero decides: fight on, run at 1 HP, run now."""
    f, hero, monster = lookup.fighting(state)
    weapon = best_weapon(state, hero, monster)
    with_ = f" with {weapon.name}" if weapon else ""
    note = f" ({O.uses_note(weapon)})" if O.uses_note(weapon) else ""
    lines = [f"Fight on{with_} to the end: {O.duel_text(duel_for(state, weapon))}{note}."]
    lines.append(hp_line(hero.name, hero.hp, O.duel_ends(monster, **fight_args(state, weapon))))
    if hero.hp > 1:
        lines.append(f"Fight on{with_}, run at 1 HP: {O.duel_text(duel_for(state, weapon, run_at=1))}.")
    free = "monster" in f.acted and lookup.RUN_FAIL_TURN not in state.meta.variants
    after = "it attacks again at once" if free else "it attacks as usual"
    lines.append(f"Run away now: {run_hint(state)}; if not, {after}.")
    if monster.key == SPECTER:
        lines.append("The specter stays where it is when a hero gets away; it is at full HP 8 next time.")
    return lines


def hp_line(name: str, hp: int, ends: tuple[tuple[O.End, Any], ...]) -> str:
    """``Aria's HP at the end: fallen ▁▂▅█▃ 4 · 2.6 on average``: a one-line chart of a duel's ends."""
    from fractions import Fraction

    from companion.sim.chart import spark

    shares = [Fraction(0)] * (hp + 1)
    for (_unused, h), p in ends:
        shares[h] += p
    mean = sum(h * p for h, p in enumerate(shares))
    return f"{possessive(name)} HP at the end: fallen {spark(shares)} {hp} · {float(mean):.1f} on average"


def initiative_hint(state: State) -> str:
    _, hero, monster = lookup.fighting(state)
    p = O.initiative_chance(monster)
    extra = f" (the {monster.name} adds +{monster.initiative_bonus})" if monster.initiative_bonus else ""
    return f"{hero.name} attacks first: {fraction(p)}, ties rolled again{extra}."


def monster_hint(state: State) -> str:
    """What a hit of the monster in the fight would do."""
    _, hero, monster = lookup.fighting(state)
    right = lookup.right_of(lookup.game(state), hero)
    who = (
        f"{possessive(right.name)} player (on {possessive(hero.name)} right) rolls for the {monster.name}. "
        if right
        else ""
    )
    kind = monster.on_hit
    if kind == "table":
        return f"{who}A hit rolls 1d10: {monster.table_text()}."
    return (
        who
        + {
            "normal": "A hit does 1 HP.",
            "double": "A hit does double damage: 2 HP.",
            "drain": "A hit drains: 1 HP and a −1 chit (one per encounter).",
            "double-drain": "A hit is a double energy drain: 2 HP and a −1 chit (one per encounter).",
            "steal": f"A hit takes one of {possessive(hero.name)} magic items; with none left, the fly goes away.",
            "rust": f"A hit eats one of {possessive(hero.name)} metal items; no damage.",
        }[kind]
    )


# ---- health of every figure --------------------------------------------------------------------


def hero_notes(state: State, hero: Hero) -> str:
    g = lookup.game(state)
    bits = []
    if hero.out:
        return "out of the game (died twice)"
    if hero.minus:
        bits.append(f"−1 chits ×{len(hero.minus)}")
    if hero.deaths:
        bits.append(f"died {hero.deaths}/{D.DEATHS_ALLOWED}")
    if hero.held_round is not None:
        bits.append("cannot move next turn")
    bits.append(f"Tower {hero.tower}")
    worth = rules_climb.blue_equivalents(hero)
    bits.append(f"chits worth {worth} blue" if worth else "no chits")
    if g.fight is not None and g.fight.hero == hero.name:
        bits.append("fighting")
        if g.fight.slowed:
            bits.append("−2 on next attack")
    return ", ".join(bits)


def figures(state: State) -> list[dict[str, Any]]:
    """Every figure on the board with health: the heroes, the monster in the fight, the specter."""
    g = lookup.game(state)
    rows: list[dict[str, Any]] = []
    for hero in g.heroes:
        rows.append(
            {
                "figure": hero.name,
                "kind": "hero",
                "hp": max(0, hero.hp),
                "max_hp": hero.max_hp,
                "attack": rules_numbers.attack_number(hero, None, state.meta.variants),
                "ac": rules_numbers.armor_class(hero, None, state.meta.variants),
                "minus": len(hero.minus),
                "deaths": hero.deaths,
                "out": hero.out,
                "tower": hero.tower,
                "items": [i.name for i in hero.items],
                "notes": hero_notes(state, hero),
            }
        )
    f = g.fight
    if f is not None:
        m = MONSTERS[f.monster]
        rows.append(_monster_row(m, f.hp, f"fighting {f.hero}, round {f.round}"))
    if g.specter_seen and not g.specter_dead and (f is None or f.monster != SPECTER):
        m = MONSTERS[SPECTER]
        rows.append(_monster_row(m, m.hp, "waits where it was met; full HP at every encounter"))
    return rows


def _monster_row(m: Monster, hp: int, notes: str) -> dict[str, Any]:
    return {
        "figure": m.name,
        "kind": "monster",
        "hp": max(0, hp),
        "max_hp": m.hp,
        "attack": m.att,
        "ac": m.ac,
        "undead": m.undead,
        "notes": notes,
    }


def status_rows(state: State) -> list[tuple[str, object]]:
    """The status panel in guided play: one row per figure with an HP bar."""
    from rich.text import Text

    from companion.shell.panels import bar

    g = lookup.game(state)
    rows: list[tuple[str, object]] = []
    if g.phase == "setup":
        heroes = ngettext("{n} hero", "{n} heroes", len(g.heroes)).format(n=len(g.heroes))
        rows.append(("Setup", f"{heroes}; {D.MIN_PLAYERS} to {D.MAX_PLAYERS} play"))
    elif g.round:
        rows.append(("Round", f"{g.round}: " + " → ".join(g.order)))
    for row in figures(state):
        if row["kind"] == "hero" and row["out"]:
            rows.append((row["figure"], Text("out of the game", style="dim")))
            continue
        text = bar(row["hp"], row["max_hp"]) if row["max_hp"] else Text(str(row["hp"]))
        text.append(f"  Att {row['attack']} AC {row['ac']}", style="bold")
        text.append(f"  {row['notes']}", style="dim")
        label = row["figure"] if row["kind"] == "hero" else f"⚔ {row['figure']}"
        rows.append((label, text))
    return rows


def health_table(state: State) -> Table:
    from rich.table import Table
    from rich.text import Text

    from companion.shell.panels import bar

    table = Table(title="Health of every figure", title_justify="left", show_lines=False)
    for col, just in (("Figure", "left"), ("HP", "left"), ("Att", "right"), ("AC", "right"), ("Notes", "left")):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for row in figures(state):
        name = Text(row["figure"], style="bold" if row["kind"] == "hero" else "bold red")
        if row.get("out"):
            table.add_row(name, Text("out", style="dim"), "", "", row["notes"])
            continue
        table.add_row(name, bar(row["hp"], row["max_hp"]), str(row["attack"]), str(row["ac"]), row["notes"])
    return table


# ---- score -------------------------------------------------------------------------------------


def score_json(state: State) -> dict[str, Any]:
    lines = rules_score.scores(state)
    return {
        "scores": [
            {
                "hero": line.hero,
                "counts": line.counts,
                "points": line.points,
                "total": line.total,
                "out": line.out,
                "scored": line.scored,
            }
            for line in lines
        ],
        "winners": rules_score.winners(lines),
        "finished": state.finished,
    }


def score_lines(state: State) -> list[str]:
    """The score so far in plain lines (for the menu)."""
    out = []
    for line in rules_score.scores(state):
        if not line.scored:
            out.append(f"{line.hero}: out of the game, no score")
            continue
        bits = [f"{D.SHORT[k]} {line.counts[k]}×{D.POINTS[k]}" for k in D.POINTS if line.counts[k]]
        out.append(f"{line.hero}: {line.total}" + (f" ({', '.join(bits)})" if bits else ""))
    return out


def score_table(state: State) -> Table:
    from rich.table import Table
    from rich.text import Text

    lines = rules_score.scores(state)
    table = Table(title="Score" + (" (final)" if state.finished else " so far"), title_justify="left")
    table.add_column("Scores")
    table.add_column("Each", justify="right")
    for line in lines:
        table.add_column(line.hero, justify="right")
    for key, label, points in D.SCORE:
        table.add_row(label, str(points), *[_cell(line.counts[key], line.points[key]) for line in lines])
    best = max((line.total for line in lines if line.scored), default=0)
    won = set(rules_score.winners(lines)) if best or state.finished else set()
    table.add_row(
        Text("Total", style="bold"),
        "",
        *[
            ("out" if not line.scored else Text(str(line.total), style="bold") + (" ★" if line.hero in won else ""))
            for line in lines
        ],
    )
    return table


def _cell(count: int, points: int) -> str:
    return f"{count} → {points}" if count else "–"


def monster_table(variants: list[str]) -> Table:
    from rich.table import Table

    table = Table(title="Monster listing", title_justify="left")
    for col in ("#", "Monster", "HP", "Att", "AC", "Undead", "Stand-ups", "Special"):
        table.add_column(col, justify="right" if col in ("HP", "Att", "AC", "Stand-ups") else "left")
    for m in MONSTERS.values():
        table.add_row(
            str(m.listed or "•"),
            m.name,
            str(m.hp),
            str(m.att),
            str(m.ac),
            "yes" if rules_numbers.is_undead(m, variants) else "",
            str(m.standups),
            m.special,
        )
    return table


# ---- the shell's bar ---------------------------------------------------------------------------


def board(state: State) -> Any:
    """The table for the shell's bar: the fight (hero and monster, with HP), every hero's HP and
    chits, whose turn it is (the figure to act in a fight, else who moves first this round)."""
    from companion.engine.board import Board, Figure

    g = lookup.game(state)
    f = g.fight
    acting = ""
    if f is not None:
        if f.phase == "monster":
            acting = f.monster
        elif f.phase in ("hero", "initiative", "pick"):
            acting = f.hero
        elif f.phase == "table":
            acting = f.monster
    elif g.order and not g.rolloff:
        acting = g.order[0]
    heroes = []
    for hero in g.heroes:
        chits = f"●{len(hero.chits)}"
        if hero.minus:
            chits += f" −1×{len(hero.minus)}"
        heroes.append(
            Figure(
                hero.name,
                f"{max(0, hero.hp)}/{hero.max_hp}",
                chits,
                turn=hero.name == acting,
                out=hero.out,
            )
        )
    fight: tuple[Figure, ...] = ()
    title = ""
    if f is not None:
        m = MONSTERS[f.monster]
        fighter = lookup.find_hero(g, f.hero, living=False)
        hp = f"{max(0, fighter.hp)}/{fighter.max_hp}" if fighter is not None else ""
        fight = (
            Figure(f.hero, hp, turn=acting == f.hero),
            Figure(
                m.name,
                f"{max(0, f.hp)}/{m.hp}",
                _("Att {att} AC {ac}").format(att=m.att, ac=m.ac),
                turn=acting == f.monster,
            ),
        )
        title = _("fight {n}, round {round}").format(n=f.n, round=f.round)
    rest = []
    if g.phase == "setup":
        rest.append(_("setup: {n} of {lo}-{hi} heroes").format(n=len(g.heroes), lo=D.MIN_PLAYERS, hi=D.MAX_PLAYERS))
    elif g.round:
        rest.append(_("round {n}").format(n=g.round))
    if g.specter_seen and not g.specter_dead and (f is None or f.monster != SPECTER):
        rest.append(_("{monster} waits").format(monster=MONSTERS[SPECTER].name))
    rest.append(_("fights: {n}").format(n=g.fights))
    return Board(tuple(heroes), fight, title, tuple(rest), turn_known=f is not None)


def controls(state: State) -> list[Any]:
    """The page's +/- buttons: each living hero's HP, through ``companion haunted hp HERO ±1``."""
    from companion.engine.board import Control

    out = []
    for hero in lookup.game(state).heroes:
        if hero.out:
            continue
        hp = max(0, hero.hp)
        out.append(
            Control(
                f"haunted:hp:{hero.name}",
                _("HP"),
                f"{hp}/{hero.max_hp}",
                ("haunted", "hp", hero.name, "-1") if hp > 0 else (),
                ("haunted", "hp", hero.name, "+1") if hp < hero.max_hp else (),
                who=hero.name,
            )
        )
    return out
