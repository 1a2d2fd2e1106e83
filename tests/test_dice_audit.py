"""The dice audit: chi-square p-values against references, verdicts on biased, fair and too few rolls."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.dice.expr import parse
from companion.dice.source import VirtualDice
from companion.export.audit import audit, judge, needed
from companion.export.chisq import chi2_sf, gamma_q, p_value, statistic
from companion.export.rolls import collect

runner = CliRunner()

# Upper-tail critical values of the chi-square distribution (any statistics table, e.g. NIST/SEMATECH
# e-Handbook 1.3.6.7.4): (degrees of freedom, x, P(X >= x)).
TABLE = [
    (1, 3.841, 0.05),
    (1, 6.635, 0.01),
    (1, 10.828, 0.001),
    (2, 5.991, 0.05),
    (3, 7.815, 0.05),
    (4, 9.488, 0.05),
    (4, 13.277, 0.01),
    (5, 1.145, 0.95),
    (5, 4.351, 0.50),
    (5, 9.236, 0.10),
    (5, 11.070, 0.05),
    (5, 15.086, 0.01),
    (5, 20.515, 0.001),
    (9, 16.919, 0.05),
    (9, 21.666, 0.01),
    (9, 27.877, 0.001),
    (19, 30.144, 0.05),
    (30, 43.773, 0.05),
    (100, 124.342, 0.05),
]


@pytest.mark.parametrize(("dof", "x", "p"), TABLE)
def test_the_survival_function_matches_the_statistics_table(dof, x, p):
    # The table prints x to 3 decimals: the p-value at the printed x agrees to about 0.1% of p.
    assert chi2_sf(x, dof) == pytest.approx(p, rel=2e-3)


def _closed_form(x: float, dof: int) -> float:
    """P(X >= x) in closed form: Q(1/2, y) = erfc(sqrt y), Q(1, y) = e^-y, Q(a+1, y) = Q(a, y) + y^a e^-y / Γ(a+1)."""
    y = x / 2
    a = 0.5 if dof % 2 else 1.0
    q = math.erfc(math.sqrt(y)) if dof % 2 else math.exp(-y)
    while a < dof / 2:
        q += math.exp(a * math.log(y) - y - math.lgamma(a + 1))
        a += 1
    return q


@pytest.mark.parametrize("dof", [1, 2, 3, 4, 5, 6, 9, 10, 25])
@pytest.mark.parametrize("x", [0.01, 0.5, 2.0, 4.9, 7.5, 11.0, 18.3, 33.0, 60.0])
def test_the_survival_function_matches_the_closed_forms(dof, x):
    assert chi2_sf(x, dof) == pytest.approx(_closed_form(x, dof), rel=1e-9, abs=1e-300)


def test_gamma_q_edges_and_bad_input():
    assert gamma_q(3, 0) == 1.0
    assert 0 < chi2_sf(1000, 5) < 1e-200
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0)
    with pytest.raises(ValueError):
        gamma_q(-1, 1)


def _physical(faces, expr="d6"):
    n = len(parse(expr).dice)
    return [
        {"t": "roll", "id": i + 1, "expr": expr, "faces": list(faces[i * n : (i + 1) * n]), "src": "physical"}
        for i in range(len(faces) // n)
    ]


def test_600_sixes_are_flagged():
    [result] = [a for a in audit(collect(_physical([6] * 600)).faces) if a.source == "physical"]
    assert result.rolls == 600 and result.counts["6"] == 600
    assert result.flagged and result.p_value is not None and result.p_value < 1e-100
    assert result.verdict == "6 came up 100% of 600 rolls (a fair die: 17%), p < 0.001: check this die"


def test_a_fair_seeded_stream_is_not_flagged_and_its_p_value_agrees_with_the_reference():
    dice = VirtualDice(20261201)
    faces = [f for _ in range(300) for f in dice.roll(parse("2d6")).faces]  # 2d6 counts as two d6
    events = _physical(faces, "2d6")
    [result] = [a for a in audit(collect(events).faces) if a.source == "physical"]
    assert result.rolls == 600
    counts = [result.counts[str(f)] for f in range(1, 7)]
    x = sum((c - 100) ** 2 / 100 for c in counts)
    assert result.p_value == pytest.approx(_closed_form(x, 5), rel=1e-9)
    assert result.p_value >= 0.05 and not result.flagged
    assert result.verdict == "no sign of bias in 600 rolls"


def test_five_rolls_are_too_few_to_say():
    [result] = [a for a in audit(collect(_physical([6, 6, 6, 6, 6])).faces) if a.source == "physical"]
    assert result.p_value is None and not result.flagged
    assert result.verdict == "too few to say: 5 rolls, a verdict needs 30"


def test_how_many_rolls_a_verdict_needs():
    assert (needed("d6"), needed("d10"), needed("dt"), needed("d20")) == (30, 50, 30, 100)
    # At exactly the minimum a verdict is given; one fewer is too few.
    assert judge("d6", "physical", {str(f): 5 for f in range(1, 7)}).p_value == pytest.approx(1.0)
    assert judge("d6", "physical", {"1": 4, **{str(f): 5 for f in range(2, 7)}}).p_value is None


def test_a_slightly_uneven_die_is_not_called_unfair():
    counts = {"1": 16, "2": 30, "3": 30, "4": 30, "5": 30, "6": 44}  # chi-square 13.07, p = 0.023
    result = judge("d6", "physical", counts)
    assert 0.01 <= result.p_value < 0.05
    assert not result.flagged and result.verdict.endswith("a little uneven, not enough to call")
    assert result.verdict.startswith("6 came up 24% of 180 rolls (a fair die: 17%), p = 0.023")


def test_the_issue_example_verdict():
    counts = {"1": 17, "2": 23, "3": 28, "4": 33, "5": 31, "6": 48}  # chi-square 18.53
    result = judge("d6", "physical", counts)
    assert result.flagged
    assert result.verdict == "6 came up 27% of 180 rolls (a fair die: 17%), p = 0.002: check this die"
    assert result.p_value == pytest.approx(chi2_sf(statistic([17, 23, 28, 33, 31, 48], [1 / 6] * 6), 5))


def test_dark_tower_faces_count_hearts_together():
    faces = [1, 2, 3, 4, 5, 6] * 10  # a fair Dark Tower die: ♥ on two faces of six
    events = [{"t": "roll", "id": i + 1, "expr": "1dt", "faces": [f], "src": "physical"} for i, f in enumerate(faces)]
    [result] = [a for a in audit(collect(events).faces) if a.source == "physical"]
    assert result.die == "dt"
    assert result.counts == {"1": 10, "2": 10, "3": 10, "♥": 20, "★": 10}
    assert result.p_value == pytest.approx(1.0) and result.verdict == "no sign of bias in 60 rolls"
    assert p_value([10, 10, 10, 20, 10], [1 / 6, 1 / 6, 1 / 6, 2 / 6, 1 / 6]) == pytest.approx(1.0)


def test_rolls_are_found_in_every_kind_of_event_and_amended_faces_count():
    events = [
        {"t": "roll", "id": 1, "expr": "DC", "faces": [2], "src": "physical"},
        {"t": "amend", "id": 2, "target": 1, "roll": {"faces": [6]}, "reason": "misread"},
        {"t": "answer", "id": 3, "key": "room.dc", "expr": "DC", "v": {"faces": [4], "src": "virtual"}},
        {"t": "talisman", "id": 4, "faces": [3, 5], "src": "physical"},
        {"t": "dark", "id": 5, "roll": {"expr": "2dt", "faces": [6, 4], "src": "physical"}},
        {"t": "haunted", "id": 6, "rolls": [{"faces": [1], "src": "physical"}]},
        {"t": "roll", "id": 7, "expr": "2d6", "total": 7, "src": "physical"},
        {"t": "roll", "id": 8, "expr": "d10", "faces": [10], "src": "physical"},
    ]
    rolls = collect(events)
    got = [(f.die, f.face, f.source) for f in rolls.faces]
    assert got == [
        ("d6", 6, "physical"),
        ("d6", 4, "virtual"),
        ("d6", 3, "physical"),
        ("d6", 5, "physical"),
        ("dt", 6, "physical"),
        ("dt", 4, "physical"),
        ("d10", 10, "physical"),
    ]
    assert rolls.amended == 1 and rolls.unknown == 1


def _session_with_rolls(faces):
    assert runner.invoke(app, ["new", "freeform", "--name", "dice", "--seed", "5"]).exit_code == 0
    for f in faces:
        assert runner.invoke(app, ["roll", "d6", "--got", str(f)]).exit_code == 0
    for _ in range(3):
        assert runner.invoke(app, ["roll", "d6"]).exit_code == 0  # virtual: the control


def test_dice_audit_command_text_and_json():
    _session_with_rolls([6] * 40)
    result = runner.invoke(app, ["dice", "audit"])
    assert result.exit_code == 0, result.stderr
    assert "d6, physical\n  6 came up 100% of 40 rolls (a fair die: 17%), p < 0.001: check this die\n" in result.stdout
    assert "d6, virtual (control)\n  too few to say: 3 rolls, a verdict needs 30\n  1: " in result.stdout
    assert "A verdict needs 30 rolls of a d6." in result.stdout
    data = json.loads(runner.invoke(app, ["dice", "audit", "--session", "dice", "--json"]).stdout)
    by_source = {d["source"]: d for d in data["dice"]}
    assert by_source["physical"]["rolls"] == 40 and by_source["physical"]["counts"]["6"] == 40
    assert by_source["physical"]["p_value"] < 0.001 and by_source["physical"]["flagged"] is True
    assert by_source["virtual"]["p_value"] is None and by_source["virtual"]["rolls"] == 3
    everything = json.loads(runner.invoke(app, ["dice", "audit", "--all", "--json"]).stdout)
    assert everything["sessions"] == ["dice"] and everything["dice"] == data["dice"]


def test_dice_audit_needs_a_session_and_refuses_both_scopes():
    result = runner.invoke(app, ["dice", "audit"])
    assert result.exit_code == 1 and "no session is active" in result.stderr
    result = runner.invoke(app, ["dice", "audit", "--all", "--session", "x"])
    assert result.exit_code == 2 and "not both" in result.stderr


def test_the_audit_and_the_light_exports_do_not_import_the_page_libraries(isolated_home):
    from tests.test_startup import imported_modules

    _session_with_rolls([3, 4])
    for args in (["dice", "audit"], ["export", "-", "--format", "lonelog"], ["export", "-", "--format", "json"]):
        modules, proc = imported_modules(args, isolated_home)
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert "companion.export" in modules  # the report was read: the export ran
        heavy = sorted({m.split(".")[0] for m in modules} & {"jinja2", "markupsafe", "pygal", "markdown_it"})
        assert heavy == [], f"companion {' '.join(args)} imported {heavy}"
