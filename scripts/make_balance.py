#!/usr/bin/env python3
"""Regenerate ``docs/balance.md``: The Inverted Tower's balance tables, from seeded ``companion simulate`` runs.

    python scripts/make_balance.py               # rewrite docs/balance.md (a few minutes on 2 cores)
    python scripts/make_balance.py --runs 2000   # a quick draft (wider intervals)
    python scripts/make_balance.py --out FILE    # write somewhere else

Every row is one ``companion simulate inverted-tower ... --json`` command, run as a subprocess with the
venv's ``companion`` (``--jobs 0``: every core; the report does not depend on it), and the command
stands under its table. Every row uses the same ``--seed``, so the rows play the same dice streams
(common random numbers): a difference between two rows is the rules or the policy, not luck.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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


def simulate(args: list[str]) -> dict[str, Any]:
    proc = subprocess.run(
        [companion(), *args, "--jobs", "0", "--json"], capture_output=True, text=True, check=False, timeout=3600
    )
    if proc.returncode != 0:
        sys.exit(f"{shown(args)} failed: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def pct(f: dict[str, Any]) -> str:
    lo, hi = f["ci95"]
    return f"{f['rate'] * 100:.2f}% ({lo * 100:.2f}–{hi * 100:.2f})"


def mean(f: dict[str, Any], digits: int = 2) -> str:
    lo, hi = f["ci95"]
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


def build(runs: int) -> str:
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
        "# The Inverted Tower: balance tables from the simulator",
        "",
        "<!-- Generated by scripts/make_balance.py; edit the script, not this file. -->",
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
        "## Headlines",
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
        "## The draft's open questions",
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
        "## Policies: when to spend daggers, when to drink a potion",
        "policy (base rules)",
        [(p, command(p, (), runs)) for p in POLICIES],
        results,
    )
    lines += ["## Win rate of every policy under every open question", ""]
    lines += cross(runs, results)
    lines += ["", "Made by the commands of the two tables above, with each policy and each variant:", "", "```sh"]
    lines += [shown(command(p, v, runs)) + " --json" for p in POLICIES for _, v in OPEN_QUESTIONS]
    lines += ["```", ""]
    lines += table(
        "## companion's own readings, as variants",
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
        "## Where runs end",
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
        "## Reproduce",
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
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=RUNS, help=f"runs per row (default {RUNS:,})")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "balance.md")
    args = parser.parse_args(argv)
    text = build(args.runs)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
