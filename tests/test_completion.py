"""``companion completion SHELL``: the scripts work, and complete commands, options and live names.

The bash test sources the printed script in ``bash -c`` and calls its completion function the way
bash does at Tab (COMP_WORDS, COMP_CWORD, then the function with the command, the current word and
the previous one), with the venv's ``companion`` first on PATH.
"""

from __future__ import annotations

import contextlib
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


# ---- the README's step, in a clean bash at a terminal ------------------------------------------------

README = Path(__file__).resolve().parent.parent / "README.md"
PS1 = "READY$ "


def _readme_step() -> str:
    """The README's install step for bash, as typed: the first command of its completion block."""
    import re

    text = README.read_text(encoding="utf-8")
    section = text.split("**Shell completion.**", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, flags=re.S)
    assert block, "the README's completion section has no sh block"
    line = block.group(1).splitlines()[0]
    assert line.startswith("companion completion install"), line
    return line


def _bash(home: Path, *args: str, xdg: Path | None = None):
    import pexpect

    env = {
        "HOME": str(home),
        "PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin",
        "TERM": "dumb",
        "PS1": PS1,
        "COMPANION_HOME": str(home / "data"),
        "LANG": "C.UTF-8",
    }
    if xdg is not None:
        env["XDG_DATA_HOME"] = str(xdg)
    child = pexpect.spawn("bash", list(args), env=env, cwd=str(home), encoding="utf-8", timeout=60)
    child.setwinsize(24, 120)
    child.sendline(f"PS1='{PS1}'; bind 'set bell-style none' 2>/dev/null; bind 'set show-all-if-ambiguous off'")
    child.expect_exact(PS1)
    return child


def _run(child, line: str) -> str:
    """Run ``line`` in the shell; what it printed (up to a marker echoed after it)."""
    child.sendline(line)  # as typed, a comment at its end too
    child.sendline("echo END$((40+2))")
    child.expect_exact("END42")
    out = child.before
    child.expect_exact(PS1)
    return out


def _complete(child, typed: str, wait: float = 60) -> str:
    """Type ``typed``, press Tab twice (bash lists the candidates on the second), read what it shows
    (until ``rooms`` shows, or ``wait`` seconds), and clear the line."""
    import pexpect

    child.send(typed + "\t\t")
    with contextlib.suppress(pexpect.TIMEOUT):
        child.expect(r"rooms", timeout=wait)
    shown = child.before + (child.after if isinstance(child.after, str) else "")
    child.send("\x15")  # Ctrl-U: the line is cleared
    _run(child, "true")
    return shown


@pytest.mark.parametrize("xdg", [False, True], ids=["default", "XDG_DATA_HOME"])
def test_the_readmes_step_makes_tab_complete_in_a_new_clean_bash(tmp_path, xdg):
    """A stock Debian: no bash-completion package. The README's one line, then a new terminal (a bash
    that reads only ~/.bashrc): Tab after `companion ro` lists roll, room and rooms."""
    if shutil.which("bash") is None or not (BIN / "companion").exists():
        pytest.skip("needs bash and the installed companion script")
    home = tmp_path / "home"
    home.mkdir()
    data = tmp_path / "xdg data" if xdg else None
    before = _bash(home, "--norc", "--noprofile", xdg=data)
    assert "status=1" in _run(before, "complete -p companion; echo status=$?")  # nothing completes it yet
    assert "roll" not in _complete(before, "companion ro", wait=3)
    said = _run(before, _readme_step())  # as the README says, in the clean shell
    before.sendline("exit")
    before.expect(pexpect_eof())
    script = (data if xdg else home / ".local" / "share") / "bash-completion" / "completions" / "companion"
    assert script.is_file(), said
    assert "Added a line to ~/.bashrc that reads it." in said
    # "Then open a new terminal": an interactive bash that reads the user's ~/.bashrc and nothing else
    after = _bash(home, "--rcfile", str(home / ".bashrc"), "-i", xdg=data)
    shown = _complete(after, "companion ro")
    assert "roll" in shown and "room" in shown and "rooms" in shown, shown
    after.send("companion rol\t")
    after.expect_exact("companion roll ")
    after.send("\x15")
    after.sendline("exit")
    after.expect(pexpect_eof())


def pexpect_eof():
    import pexpect

    return pexpect.EOF


def test_install_writes_each_shells_file_once_and_honours_xdg(isolated_home, monkeypatch, tmp_path):
    home = Path(os.environ["HOME"])
    first = cli("completion", "install", "bash")
    assert first.exit_code == 0, first.stderr
    assert cli("completion", "install", "bash").stdout.splitlines()[1] == "~/.bashrc reads it already."
    rc = (home / ".bashrc").read_text(encoding="utf-8")
    line = '[ -r "$HOME/.local/share/bash-completion/completions/companion" ] && . '
    assert rc.count(line) == 1
    assert (home / ".local/share/bash-completion/completions/companion").read_text() == _script("bash")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    printed = cli("completion", "install", "bash", "--no-rc")
    assert printed.stdout.splitlines()[1:3] == [
        "Add this line to ~/.bashrc:",
        f"[ -r {tmp_path}/data/bash-completion/completions/companion ] && . "
        f"{tmp_path}/data/bash-completion/completions/companion",
    ]
    assert (home / ".bashrc").read_text(encoding="utf-8") == rc  # --no-rc changes no rc file
    assert cli("completion", "install", "zsh").exit_code == 0
    assert (home / ".zfunc" / "_companion").read_text() == _script("zsh")
    assert 'fpath=("$HOME/.zfunc" $fpath)' in (home / ".zshrc").read_text()
    assert cli("completion", "install", "fish").exit_code == 0
    assert (tmp_path / "config" / "fish" / "completions" / "companion.fish").read_text() == _script("fish")
    monkeypatch.setenv("SHELL", "/usr/bin/zsh")
    assert "~/.zshrc reads it already." in cli("completion", "install").stdout  # the login shell's
    for args, says in (
        (("completion", "install", "tcsh"), "no completion for 'tcsh'"),
        (("completion", "bash", "zsh"), "completion takes one shell"),
        (("completion", "bash", "--no-rc"), "--no-rc goes with install"),
    ):
        result = cli(*args)
        assert result.exit_code == 2 and says in result.stderr, (args, result.stderr)
