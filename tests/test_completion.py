"""``companion completion SHELL``: the scripts work, and complete commands, options and live names.

The bash test sources the printed script in ``bash -c`` and calls its completion function the way
bash does at Tab (COMP_WORDS, COMP_CWORD, then the function with the command, the current word and
the previous one), with the venv's ``companion`` first on PATH.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import cli

BIN = Path(sys.executable).parent
CALL = r"""
source "$SCRIPT"
read -ra W <<< "$LINE"
[[ "$LINE" == *" " ]] && W+=("")
COMP_WORDS=("${W[@]}")
COMP_CWORD=$(( ${#W[@]} - 1 ))
fn=$(complete -p companion | sed -E 's/.*-F ([^ ]+) .*/\1/')
"$fn" companion "${W[-1]}" "${W[-2]}"
printf '%s\n' "${COMPREPLY[@]}"
"""


def _script(shell: str) -> str:
    result = cli("completion", shell)
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.fixture
def bash_complete(tmp_path, isolated_home):
    if shutil.which("bash") is None or not (BIN / "companion").exists():
        pytest.skip("needs bash and the installed companion script")
    script = tmp_path / "companion.bash"
    script.write_text(_script("bash"), encoding="utf-8")
    env = dict(os.environ, SCRIPT=str(script), PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}")

    def complete(line: str) -> list[str]:
        proc = subprocess.run(
            ["bash", "--norc", "--noprofile", "-c", CALL],
            env=env | {"LINE": line},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        return [w for w in proc.stdout.splitlines() if w]

    return complete


def test_bash_completes_commands_sessions_games_and_variants(bash_complete):
    assert cli("new", "inverted-tower", "--name", "Tower run").exit_code == 0
    assert cli("new", "talisman").exit_code == 0
    assert bash_complete("companion ro") == ["roll", "room", "rooms"]
    assert bash_complete("companion use ") == ["talisman-1", "tower-run"]
    assert bash_complete("companion new inv") == ["inverted-tower"]
    assert bash_complete("companion --session t") == ["talisman-1", "tower-run"]
    assert "elites-deal-2" in bash_complete("companion new inverted-tower --variant ")
    assert bash_complete("companion new dd --variant o") == ["one-each"]
    # a game's own group: the active session (talisman-1) decides whose variants
    assert bash_complete("companion -s tower-run tower odds --variant el") == ["elites-deal-2"]
    assert "--help" in bash_complete("companion tower --")
    assert "--install-completion" not in bash_complete("companion tower --")
    assert "add" in bash_complete("companion tally ")


def test_the_scripts_for_zsh_and_fish_call_back_companion():
    zsh, fish = _script("zsh"), _script("fish")
    assert "compdef _companion_completion companion" in zsh and "_COMPANION_COMPLETE=complete_zsh" in zsh
    assert "complete --command companion" in fish and "_COMPANION_COMPLETE=complete_fish" in fish
    assert "$'\\n'" in _script("bash")


def test_zsh_and_fish_answers(isolated_home):
    assert cli("new", "inverted-tower").exit_code == 0
    env = dict(os.environ, _COMPANION_COMPLETE="complete_zsh", _TYPER_COMPLETE_ARGS="companion use ")
    proc = subprocess.run([sys.executable, "-m", "companion"], env=env, capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == '_arguments \'*: :(("inverted-tower-1":"inverted-tower"))\''
    env = dict(
        os.environ,
        _COMPANION_COMPLETE="complete_fish",
        _TYPER_COMPLETE_FISH_ACTION="get-args",
        _TYPER_COMPLETE_ARGS="companion new ta",
    )
    proc = subprocess.run([sys.executable, "-m", "companion"], env=env, capture_output=True, text=True, timeout=120)
    assert proc.stdout.split() == ["talisman"]


def test_an_unknown_shell_is_bad_input():
    result = cli("completion", "tcsh")
    assert result.exit_code == 2
    assert "use bash, zsh or fish" in result.stderr


def test_completers_are_plain_functions_the_shell_can_call(isolated_home):
    from companion.cli import complete

    assert complete.session_names(None, "") == []
    assert cli("new", "dragons-den").exit_code == 0
    assert complete.session_names(None, "dr") == [("dragons-den-1", "dragons-den")]
    assert complete.game_names(None, "d") == [("dark-tower", ""), ("dragons-den", "")]
    # no game on the line: the active session's game
    assert [v for v, _ in complete.variant_names(None, "")] == ["long", "shield-attacks-only", "one-each"]
