#!/usr/bin/env python3
"""Regenerate ``docs/balance.md``: balance tables from seeded ``companion simulate`` runs of The
Inverted Tower and The Adventure in the Dungeon.

    python scripts/make_balance.py               # rewrite docs/balance.md (several minutes on 2 cores)
    python scripts/make_balance.py --runs 2000 --talisman-runs 1000   # a quick draft (wider intervals)
    python scripts/make_balance.py --out FILE    # write somewhere else

Every row is one ``companion simulate GAME ... --json`` command, run as a subprocess with the venv's
``companion`` (``--jobs 0``: every core; the report does not depend on it), and the command stands
under its table. Every row of a game uses the same ``--seed``, so the rows play the same dice streams
(common random numbers): a difference between two rows is the rules or the policy, not luck.

The Adventure in the Dungeon needs the heroes' numbers the rule text leaves out: its rows run in a
throwaway ``COMPANION_HOME`` holding the house numbers of the example log (``TALISMAN_HOUSE`` in
``scripts/make_example_logs.py``), entered with ``companion gamedata``; the tables say so.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from make_example_logs import TALISMAN_HOUSE  # noqa: E402  (the example log's house numbers)

from companion.games.adventure_in_the_dungeon.odds import talisman_found_on  # noqa: E402
from companion.games.adventure_in_the_dungeon.rules import areas  # noqa: E402
from companion.sim.stats import wilson  # noqa: E402  (the same Wilson interval as the report's)

GAME = "inverted-tower"
SEED = 1
RUNS = 20_000

#: The draft's two open questions that give a rule (docs/rules/inverted-tower.md, "Variants").
OPEN_QUESTIONS: list[tuple[str, tuple[str, ...]]] = [
    ("base rules", ()),
    ("elites-deal-2", ("elites-deal-2",)),
    ("no-xp-farming", ("no-xp-farming",)),
    ("both", ("elites-deal-2", "no-xp-farming")),
]
#: Our readings of what the draft leaves open, each a variant.
READINGS: list[tuple[str, tuple[str, ...]]] = [
    ("base rules", ()),
    ("boss-guards-stairs", ("boss-guards-stairs",)),
    ("reroll-duplicate-events", ("reroll-duplicate-events",)),
    ("merchant-buys", ("merchant-buys",)),
    ("bonfire-every-visit", ("bonfire-every-visit",)),
]
POLICIES = ("steady", "thrifty", "eager")


def companion() -> str:
    script = Path(sys.executable).with_name("companion")
    if not script.exists():
        sys.exit(f"no companion script next to {sys.executable}; run this with the venv's python")
    return str(script)


def command(policy: str, variants: tuple[str, ...], runs: int) -> list[str]:
    args = ["simulate", GAME, "--runs", str(runs), "--seed", str(SEED), "--policy", policy]
    for v in variants:
        args += ["--variant", v]
    return args


def shown(args: list[str]) -> str:
    return "companion " + " ".join(args)


def simulate(args: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    proc = subprocess.run(
        [companion(), *args, "--jobs", "0", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=3600,
        env=env,
    )
    if proc.returncode != 0:
        sys.exit(f"{shown(args)} failed: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def pct(f: dict[str, Any]) -> str:
    lo, hi = f["ci95"]
    return f"{f['rate'] * 100:.2f}% ({lo * 100:.2f}–{hi * 100:.2f})"


def mean(f: dict[str, Any], digits: int = 2) -> str:
    lo, hi = (round(x, digits) + 0.0 for x in f["ci95"])  # + 0.0: a bound that rounds to -0 reads 0
    return f"{f['mean']:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f})"


def share(f: dict[str, Any], value: int) -> str:
    e = f["values"].get(str(value))
    if e is None:
        return "0%"
    lo, hi = e["ci95"]
    return f"{e['share'] * 100:.1f}% ({lo * 100:.1f}–{hi * 100:.1f})"


HEAD = "| {} | win rate | floor reached | deaths on floor 1 | rooms | kills | XP earned | level at the end |"
RULE = "|---|---|---|---|---|---|---|---|"


def row(label: str, doc: dict[str, Any]) -> str:
    f = doc["figures"]
    deaths_1 = f["death_floor"]["values"].get("1", {"count": 0})["count"]
    runs = doc["runs"]
    lo, hi = wilson(deaths_1, runs)
    first = f"{deaths_1 / runs * 100:.1f}% ({lo * 100:.1f}–{hi * 100:.1f})"
    return (
        f"| {label} | {pct(f['won'])} | {mean(f['floor'])} | {first} | "
        f"{mean(f['rooms'], 1)} | {mean(f['kills'], 1)} | {mean(f['xp'], 1)} | {mean(f['level'])} |"
    )


def table(title: str, first: str, rows: list[tuple[str, list[str]]], results: dict[str, dict[str, Any]]) -> list[str]:
    out = [title, "", HEAD.format(first), RULE]
    for label, args in rows:
        out.append(row(label, results[shown(args)]))
    out += ["", "Made by:", "", "```sh"]
    out += [shown(args) + " --json" for _, args in rows]
    out += ["```", ""]
    return out


def cross(runs: int, results: dict[str, dict[str, Any]]) -> list[str]:
    out = [
        "| policy | " + " | ".join(label for label, _ in OPEN_QUESTIONS) + " |",
        "|---|" + "---|" * len(OPEN_QUESTIONS),
    ]
    for policy in POLICIES:
        cells = [pct(results[shown(command(policy, v, runs))]["figures"]["won"]) for _, v in OPEN_QUESTIONS]
        out.append(f"| {policy} | " + " | ".join(cells) + " |")
    return out


def tower(runs: int) -> list[str]:
    """The Inverted Tower's section."""
    configs: list[list[str]] = []
    for policy in POLICIES:
        for _, v in OPEN_QUESTIONS:
            configs.append(command(policy, v, runs))
    for _, v in READINGS[1:]:
        configs.append(command("steady", v, runs))
    results: dict[str, dict[str, Any]] = {}
    started = time.perf_counter()
    for i, args in enumerate(configs, 1):
        print(f"[{i}/{len(configs)}] {shown(args)}", file=sys.stderr)
        results[shown(args)] = simulate(args)
    print(f"{len(configs)} rows in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    base = results[shown(command("steady", (), runs))]
    summaries = {p: results[shown(command(p, (), runs))]["policy_summary"] for p in POLICIES}

    lines = [
        "## The Inverted Tower",
        "",
        "Every table comes from seeded runs of `companion simulate` (The Inverted Tower, Draft 4.5 as",
        "companion reads it: `docs/rules/inverted-tower.md`). Each row plays",
        f"{runs:,} whole games through the same rules engine as `companion play`, with `--seed {SEED}`.",
        "Every row uses the same seed, so the rows play the same dice streams: a difference between",
        "two rows comes from the rules or the policy, not from luck.",
        "",
        "Each figure is followed by its 95% confidence interval in brackets: the Wilson score interval",
        "for a rate, the Student t interval for a mean. Rooms, kills, XP and level are counted at the",
        'end of the run (won or lost). "Deaths on floor 1" is the share of all runs that die there',
        "(its interval is the Wilson interval of that count).",
        "",
        "The policies (who answers the choices; the dice are the session's virtual dice):",
        "",
    ]
    for p in POLICIES:
        lines.append(f"- `{p}`: {summaries[p]}.")
    lines += [
        "",
        "All three put every point in STR and fight with it, explore new rooms while HP is above half",
        "of Max HP, and then take the stairs (`companion/games/inverted_tower/sim.py`).",
        "",
    ]

    def won(policy: str, variants: tuple[str, ...]) -> str:
        return pct(results[shown(command(policy, variants, runs))]["figures"]["won"])

    lines += [
        "### Headlines",
        "",
        f"- Under the base rules the `steady` player wins {won('steady', ())} of its games;",
        f"  `thrifty` wins {won('thrifty', ())} and `eager` {won('eager', ())}.",
        f"- `elites-deal-2` takes `steady` to {won('steady', ('elites-deal-2',))}, `no-xp-farming` to",
        f"  {won('steady', ('no-xp-farming',))}, and both together to {won('steady', OPEN_QUESTIONS[3][1])}.",
        f"- Most runs end early: {share(base['figures']['death_floor'], 1)} of the deaths of `steady` are on",
        "  floor 1.",
        "",
    ]
    lines += table(
        "### The draft's open questions",
        "rules (policy `steady`)",
        [(label, command("steady", v, runs)) for label, v in OPEN_QUESTIONS],
        results,
    )
    lines += [
        '`elites-deal-2` is the draft\'s "Should elites cause 2 points of damage?"; `no-xp-farming` is',
        '"No XP if the current level is +2 the floor level". Both are variants of companion',
        "(`companion new inverted-tower --variant NAME`).",
        "",
    ]
    lines += table(
        "### Policies: when to spend daggers, when to drink a potion",
        "policy (base rules)",
        [(p, command(p, (), runs)) for p in POLICIES],
        results,
    )
    lines += ["### Win rate of every policy under every open question", ""]
    lines += cross(runs, results)
    lines += ["", "Made by the commands of the two tables above, with each policy and each variant:", "", "```sh"]
    lines += [shown(command(p, v, runs)) + " --json" for p in POLICIES for _, v in OPEN_QUESTIONS]
    lines += ["```", ""]
    lines += table(
        "### companion's own readings, as variants",
        "reading (policy `steady`)",
        [(label, command("steady", v, runs)) for label, v in READINGS],
        results,
    )
    lines += [
        "These are not the author's questions: they are the points where the draft is silent and",
        'companion had to choose (`docs/rules/inverted-tower.md`, "Readings"). A row equal to the base',
        "rules is exact, not a coincidence: the rows share their dice, and the `steady` player never",
        "sells to the merchant nor goes back to a bonfire on purpose, so `merchant-buys` and",
        "`bonfire-every-visit` change nothing it does.",
        "",
        "### Where runs end",
        "",
        "The floor of death under the base rules, policy `steady`, as a share of the lost runs:",
        "",
        "| floor | share of the deaths |",
        "|---|---|",
    ]
    deaths = base["figures"]["death_floor"]
    for floor in range(1, 11):
        lines.append(f"| {floor} | {share(deaths, floor)} |")
    lines += [
        "",
        f"From `{shown(command('steady', (), runs))} --json` (figure `death_floor`).",
        "",
        "### Reproduce",
        "",
        "```sh",
        "python scripts/make_balance.py            # every table, with the venv's python",
        "```",
        "",
        "A run of any row can be replayed at the table: the JSON report",
        "names the session seed of a won and of a lost game (`companion new inverted-tower --seed N`,",
        "then `companion play` answering as the policy would).",
        "",
    ]
    return lines


# ---- The Adventure in the Dungeon --------------------------------------------------------------------

TALISMAN = "talisman"
TALISMAN_RUNS = 10_000
TALISMAN_POLICIES = ("steady", "cautious", "waiting")
#: companion's readings of the 1979 text, each a variant (docs/rules/adventure-in-the-dungeon.md).
TALISMAN_READINGS: list[tuple[str, tuple[str, ...]]] = [
    ("base rules", ()),
    ("gorgon-one-hit-each", ("gorgon-one-hit-each",)),
    ("magic-two-skeletons", ("magic-two-skeletons",)),
    ("flee-with-all", ("flee-with-all",)),
]


def house_command() -> str:
    return "companion gamedata talisman " + " ".join(f"{k}={v}" for k, v in TALISMAN_HOUSE.items())


def talisman_command(policy: str, variants: tuple[str, ...], runs: int) -> list[str]:
    args = ["simulate", TALISMAN, "--runs", str(runs), "--seed", str(SEED), "--policy", policy]
    for v in variants:
        args += ["--variant", v]
    return args


@contextmanager
def house_home() -> Iterator[dict[str, str]]:
    """A throwaway COMPANION_HOME whose catalogue holds the house numbers (the player's own stays untouched)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, COMPANION_HOME=str(Path(tmp) / "home"), COMPANION_LOGS=str(Path(tmp) / "logs"))
        env.pop("COMPANION_SESSION", None)
        args = ["gamedata", TALISMAN, *(f"{k}={v}" for k, v in TALISMAN_HOUSE.items())]
        proc = subprocess.run([companion(), *args], capture_output=True, text=True, check=False, env=env)
        if proc.returncode != 0:
            sys.exit(f"companion {' '.join(args)} failed: {proc.stderr.strip()}")
        yield env


TALISMAN_HEAD = (
    "| {} | won | heroes alive at the end | all four alive | the party falls | kills until the Talisman "
    "| heroes' points (won) | areas entered | areas fled |"
)
TALISMAN_RULE = "|---|---|---|---|---|---|---|---|---|"


def talisman_row(label: str, doc: dict[str, Any]) -> str:
    f = doc["figures"]
    runs = doc["runs"]
    fell = f["death_area"]["n"]
    lo, hi = wilson(fell, runs)
    falls = f"{fell / runs * 100:.1f}% ({lo * 100:.1f}–{hi * 100:.1f})"
    return (
        f"| {label} | {pct(f['won'])} | {mean(f['survivors'])} | {share(f['survivors'], 4)} | {falls} | "
        f"{mean(f['kills_before_talisman'])} | {mean(f['points'], 1)} | {mean(f['areas'])} | {mean(f['flights'])} |"
    )


def talisman_table(
    title: str, first: str, rows: list[tuple[str, list[str]]], results: dict[str, dict[str, Any]]
) -> list[str]:
    out = [title, "", TALISMAN_HEAD.format(first), TALISMAN_RULE]
    for label, args in rows:
        out.append(talisman_row(label, results[shown(args)]))
    out += ["", "Made by (in a throwaway home: `export COMPANION_HOME=$(mktemp -d)`):", "", "```sh", house_command()]
    out += [shown(args) + " --json" for _, args in rows]
    out += ["```", ""]
    return out


def talisman(runs: int) -> list[str]:
    """The Adventure in the Dungeon's section, with the house numbers."""
    configs = [talisman_command(p, v, runs) for p in TALISMAN_POLICIES for _, v in TALISMAN_READINGS]
    results: dict[str, dict[str, Any]] = {}
    started = time.perf_counter()
    with house_home() as env:
        for i, args in enumerate(configs, 1):
            print(f"[{i}/{len(configs)}] {shown(args)}", file=sys.stderr)
            results[shown(args)] = simulate(args, env)
    print(f"{len(configs)} rows in {time.perf_counter() - started:.0f} s", file=sys.stderr)

    def doc(policy: str, variants: tuple[str, ...] = ()) -> dict[str, Any]:
        return results[shown(talisman_command(policy, variants, runs))]

    def won(policy: str, variants: tuple[str, ...] = ()) -> str:
        return pct(doc(policy, variants)["figures"]["won"])

    base = {p: doc(p) for p in TALISMAN_POLICIES}
    monsters = len(areas(TALISMAN_HOUSE))  # 12: the house numbers leave Area 12 empty
    lines = [
        "## The Adventure in the Dungeon",
        "",
        "**These tables use house numbers, not the book's.** The 1979 rule text prints only the Paladin's",
        "numbers (and the Wizard's spell); the other heroes' numbers and Area 12 are in the book, which",
        "companion never invents. Every row here plays the house numbers of the example log",
        "(`TALISMAN_HOUSE` in `scripts/make_example_logs.py`), entered by the `companion gamedata` line",
        "under the first table. With your book's numbers in your catalogue (`companion dungeon data`),",
        "the same `companion simulate` commands give your party's tables.",
        "",
        f"Each row plays {runs:,} whole games through the same engine as `companion play`, with",
        f"`--seed {SEED}` (the same dice streams in every row), and gives each figure with its 95%",
        'interval. "Won" is out with the Talisman and two heroes or more standing: one survivor is',
        "not a victory (reading 17 in docs/rules/adventure-in-the-dungeon.md; `simulate` counts those",
        "runs as `pyrrhic`). The heroes' points are 25 a hero alive when the party leaves with the",
        "Talisman (the book's chart: 25 Pyrrhic, 50 Costly, 75 Resounding, 100 Triumphant). Kills until",
        "the Talisman are among the runs that found it; areas fled count the flights from a fight.",
        "",
        "The policies (`companion/games/adventure_in_the_dungeon/sim.py`):",
        "",
    ]
    for p in TALISMAN_POLICIES:
        lines.append(f"- `{p}`: {base[p]['policy_summary']}.")
    lines += [
        "",
        "All three leave as soon as the Talisman is found, give the Paladin's cure to a paralysed hero at",
        "once (else to a hero down to the last hit), and give up when no monster left can be hurt.",
        "",
        "### Headlines",
        "",
        f"- With these numbers the `steady` party wins (out with the Talisman, two or more standing) in "
        f"{won('steady')} of its games;",
        f"  `cautious` in {won('cautious')} and `waiting` in {won('waiting')}.",
        f"- Krylla's first strike: without it (`waiting`) the party falls in "
        f"{base['waiting']['figures']['death_area']['n'] / runs * 100:.1f}% of the games,",
        f"  against {base['steady']['figures']['death_area']['n'] / runs * 100:.1f}% with it (`steady`).",
        f"- {share(base['steady']['figures']['kills_before_talisman'], monsters)} of the `steady` parties that find",
        "  the Talisman find it on the last monster, which always holds it (each earlier kill finds it",
        "  one time in 36).",
        "",
    ]
    lines += talisman_table(
        "### Policies: which area next, when to flee, Krylla's first strike",
        "policy (base rules)",
        [(p, talisman_command(p, (), runs)) for p in TALISMAN_POLICIES],
        results,
    )
    lines += ["### Win rate of every policy under each reading", ""]
    lines += [
        "| policy | " + " | ".join(label for label, _ in TALISMAN_READINGS) + " |",
        "|---|" + "---|" * len(TALISMAN_READINGS),
    ]
    for p in TALISMAN_POLICIES:
        lines.append(f"| {p} | " + " | ".join(won(p, v) for _, v in TALISMAN_READINGS) + " |")
    lines += ["", "Made by (with the house numbers entered as above):", "", "```sh"]
    lines += [shown(talisman_command(p, v, runs)) + " --json" for p in TALISMAN_POLICIES for _, v in TALISMAN_READINGS]
    lines += [
        "```",
        "",
        "The readings are companion's where the 1979 text is unclear (`docs/rules/adventure-in-the-dungeon.md`).",
        "A reading a policy never meets changes nothing it does: the rows share their dice, so such a row",
        "equals the base rules exactly (`flee-with-all` matters only to a party that flees from the",
        "octopus or the webs).",
        "",
        "### Where the party falls",
        "",
        "The area of the fight where the last hero falls, as a share of the lost runs:",
        "",
        "| area | " + " | ".join(f"`{p}`" for p in TALISMAN_POLICIES) + " |",
        "|---|" + "---|" * len(TALISMAN_POLICIES),
    ]
    for area in range(1, 14):
        cells = [share(base[p]["figures"]["death_area"], area) for p in TALISMAN_POLICIES]
        if any(c != "0%" for c in cells):
            lines.append(f"| {area} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "From the three policy rows above (figure `death_area`). The `steady` and `waiting` parties enter",
        "the areas in the board's order, so they meet the Remorhaz (10) and the Iron Skeletons (13) last,",
        "already hurt; `cautious` takes the weakest monster first.",
        "",
        "### Kills until the Talisman: the simulator against the exact odds",
        "",
        "After every kill 2d6 are rolled and a 12 finds the Talisman; the last monster always holds it.",
        f"The exact chance that it is found on kill *k* of {monsters} (`talisman_found_on(0, {monsters})` in",
        f"`companion/games/adventure_in_the_dungeon/odds/`) is (35/36)^(k−1)/36 for *k* < {monsters}, and",
        f"(35/36)^{monsters - 1} on the last. The simulated shares are among the `steady` runs that found it; a",
        "party that falls early never reaches the late kills, so the simulated column leans to early",
        "kills (the exact odds and the simulator are checked against each other kill by kill in",
        "`tests/test_sim_talisman.py`, where this bias is taken out).",
        "",
        "| kill | exact | simulated (`steady`) |",
        "|---|---|---|",
    ]
    simulated = base["steady"]["figures"]["kills_before_talisman"]
    for k, p in talisman_found_on(0, monsters).items():
        lines.append(f"| {k} | {float(p) * 100:.2f}% | {share(simulated, k)} |")
    lines += [""]
    return lines


def build(runs: int, talisman_runs: int) -> str:
    lines = [
        "# Balance tables from the simulator",
        "",
        "<!-- Generated by scripts/make_balance.py; edit the script, not this file. -->",
        "",
        "Seeded runs of `companion simulate` for the games the simulator plays: The Inverted Tower and",
        "The Adventure in the Dungeon. How the simulator works, and its intervals:",
        "`docs/odds-and-simulation.md`.",
        "",
    ]
    lines += tower(runs)
    lines += talisman(talisman_runs)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=RUNS, help=f"Inverted Tower runs per row (default {RUNS:,})")
    parser.add_argument(
        "--talisman-runs",
        type=int,
        default=TALISMAN_RUNS,
        help=f"Adventure in the Dungeon runs per row (default {TALISMAN_RUNS:,})",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "balance.md")
    args = parser.parse_args(argv)
    text = build(args.runs, args.talisman_runs)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
