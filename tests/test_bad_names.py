"""A name that does not exist is bad input (exit 2) everywhere, with the closest name offered."""

from __future__ import annotations

import pytest

from tests.helpers import cli


@pytest.mark.parametrize(
    ("args", "said", "hint"),
    [
        (["new", "foo"], "unknown game 'foo'", None),
        (["new", "invrted-tower"], "unknown game 'invrted-tower'", "did you mean inverted-tower?"),
        (["new", "inv"], "unknown game 'inv'", "did you mean inverted-tower?"),
        (["new", "dungeon2"], "unknown game 'dungeon2'", "did you mean talisman?"),
        (["new", "it", "--variant", "nonsense"], "has no variant 'nonsense'", None),
        (["new", "it", "--variant", "elites"], "has no variant 'elites'", "did you mean elites-deal-2?"),
        (["use", "nope"], "no session named 'nope'", None),
        (["use", "inverted-towr-1"], "no session named 'inverted-towr-1'", "did you mean inverted-tower-1?"),
        (["simulate", "foo"], "unknown game 'foo'", None),
        (["roll", "DR", "nosuchtable"], "", None),
    ],
)
def test_bad_names_exit_2_with_a_suggestion(args, said, hint):
    if args[0] == "use" or args[:2] == ["roll", "DR"]:
        assert cli("new", "inverted-tower").exit_code == 0
    result = cli(*args)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert said in result.stderr
    if hint:
        assert f"  {hint}" in result.stderr
    else:
        assert "did you mean" not in result.stderr


def test_no_session_is_an_error_not_bad_input():
    result = cli("status")
    assert result.exit_code == 1
    assert "no session is active" in result.stderr
