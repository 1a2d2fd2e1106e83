"""The screens quoted in docs/ (and the README), read and run again: what tests/test_docs_quotes.py checks.

Every fenced block of a page that could quote a screen (```console, ```text, or no language) says
what it is, by the HTML comment on the line before it (a reader of the rendered page does not see it):

- ``<!-- screen: commands -->``, or nothing when the block starts with ``$ companion``: a transcript.
  Each ``$ companion ...`` line is run (in-process, the pipe's output, COLUMNS=80 unless the comment
  says ``columns=N``), in order, as a player whose home is /home/you and who types them in it (the
  default data folder, ``logs/`` there), one home for the whole page, and what it prints (stdout,
  then stderr) must be the lines under it. A line ``...`` stands for lines left out. A command with
  nothing under it is run but its output not compared. ``$ companion play`` and
  ``$ companion shell`` with nothing under them start the screens the page quotes next: not run here.
  ``fresh`` starts a new home for the block. A page that has the player make a folder of their own
  (``mkdir -p ~/... && cd ~/...``, from the clone) is run there.
- ``<!-- screen: play KEYS -->``: ``companion play`` at a terminal (pseudo-terminal, pyte; 80x40
  unless ``columns=N``): the keys are pressed one prompt at a time (shell words; ``⏎`` is Enter, ``⌫``
  Backspace, ``↓`` and ``↑`` the arrows), and
  the block's lines must be on the screen, in order, as a run of lines (``...`` between runs); its
  ``$ companion ...`` lines show what was typed to start it (the comment's setup, then play).
- ``<!-- screen: shell -->``: ``companion shell`` at a terminal; a line ``NAME> TEXT`` is typed, and
  the lines after it are what the shell printed.
- ``<!-- screen: file PATH -->``: lines of a file of the repository (an example log), in order.
- ``<!-- figures: WHERE -->``: a benchmark's or a measurement's output, quoted with its machine; not
  a screen to compare (timings differ run by run).
- ``<!-- not a screen: WHAT -->``: a folder layout, a list of commands.

The comment's body may hold setup lines, ``$ companion ...`` (run first; not shown on the page).
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PAGES = [*sorted((REPO / "docs").rglob("*.md")), REPO / "README.md"]
FENCE = re.compile(r"^```(\w*)\s*$")
DIRECTIVE = re.compile(r"<!--\s*(screen|figures|not a screen):?\s*(.*?)-->", re.S)
SCREEN_LANGS = ("console", "text", "")
LOGS, DATA = "/home/you/logs", "~/.local/share/companion"


@dataclass
class Block:
    page: Path
    line: int  # the fence's line, from 1
    lang: str
    lines: list[str]
    kind: str  # commands, play, shell, file, figures, none
    args: list[str] = field(default_factory=list)  # the directive's words after the kind
    setup: list[str] = field(default_factory=list)  # `$ companion ...` lines of the directive's body

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"

    def option(self, name: str, default: str | None = None) -> str | None:
        for word in self.args:
            if word.startswith(name + "="):
                return word.split("=", 1)[1]
        return default


def blocks(page: Path) -> list[Block]:
    """The page's fenced blocks that could quote a screen, each with what its comment says it is."""
    text = page.read_text(encoding="utf-8")
    lines = text.split("\n")
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        end = i + 1
        while not lines[end].startswith("```"):
            end += 1
        lang, body = m.group(1), lines[i + 1 : end]
        if lang in SCREEN_LANGS:
            found.append(_classify(page, i + 1, lang, body, _comment_before(lines, i)))
        i = end + 1
    return found


def _comment_before(lines: list[str], fence: int) -> str:
    """The HTML comment that ends on the line before the fence (a blank line between is allowed)."""
    j = fence - 1
    if j >= 0 and not lines[j].strip():
        j -= 1
    if j < 0 or not lines[j].rstrip().endswith("-->"):
        return ""
    start = j
    while start >= 0 and "<!--" not in lines[start]:
        start -= 1
    return "\n".join(lines[start : j + 1]) if start >= 0 else ""


def _classify(page: Path, line: int, lang: str, body: list[str], comment: str) -> Block:
    m = DIRECTIVE.search(comment)
    if not m:
        kind = "commands" if body and body[0].startswith("$ companion ") else "unknown"
        return Block(page, line, lang, body, kind)
    what, rest = m.group(1), m.group(2)
    first, *more = rest.split("\n")
    setup = [s.strip()[2:] for s in more if s.strip().startswith("$ companion ")]
    if what == "figures":
        return Block(page, line, lang, body, "figures", [first.strip()])
    if what == "not a screen":
        return Block(page, line, lang, body, "none", [first.strip()])
    words = shlex.split(first)
    return Block(page, line, lang, body, words[0] if words else "unknown", words[1:], setup)


# ---- comparing -----------------------------------------------------------------------------------


def normal(text: str, logs: Path | None, data: Path | None) -> list[str]:
    """Lines as the page writes them: right-trimmed, the folders of this run as the page names them."""
    if logs is not None:
        text = text.replace(str(logs), LOGS)
    if data is not None:
        text = text.replace(str(data), DATA)
    return [line.rstrip() for line in text.split("\n")]


def matches(quoted: list[str], shown: list[str], *, anchored: bool) -> str | None:
    """None when ``quoted`` is what was ``shown``: runs of lines separated by ``...`` lines, found in
    order (``anchored``: the first run starts the output and the last one ends it). Else what differs."""
    runs: list[list[str]] = [[]]
    for q in quoted:
        if q.strip() in ("...", "…"):
            runs.append([])
        else:
            runs[-1].append(q.rstrip())
    gap_first, gap_last = not runs[0], not runs[-1]
    runs = [r for r in runs if r]
    pos = 0
    for n, run in enumerate(runs):
        at = _find(shown, run, pos)
        if at is None or (anchored and n == 0 and not gap_first and at != 0):
            best = _closest(shown, run, pos)
            return "not shown:\n" + "\n".join(run) + "\n--- the nearest the program printed:\n" + best
        pos = at + len(run)
    if anchored and not gap_last and shown[pos:] and any(s.strip() for s in shown[pos:]):
        return "printed after the quote:\n" + "\n".join(shown[pos:])
    if anchored and not runs and any(s.strip() for s in shown):
        return "printed, quoted as nothing:\n" + "\n".join(shown)
    return None


def _find(shown: list[str], run: list[str], start: int) -> int | None:
    for i in range(start, len(shown) - len(run) + 1):
        if shown[i : i + len(run)] == run:
            return i
    return None


def _closest(shown: list[str], run: list[str], start: int) -> str:
    """The lines printed from where the quote's first line was (or, failing that, from ``start``)."""
    at = next((i for i in range(start, len(shown)) if shown[i] == run[0]), None)
    if at is None:
        import difflib

        near = difflib.get_close_matches(run[0], shown[start:], n=1, cutoff=0.3)
        at = shown.index(near[0], start) if near else start
    return "\n".join(shown[at : at + len(run) + 3])


# ---- running ----------------------------------------------------------------------------------------


def transcript(block: Block) -> list[tuple[str, list[str]]]:
    """A commands block as (the command line, the lines quoted under it)."""
    steps: list[tuple[str, list[str]]] = []
    for line in block.lines:
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"{block.where}: a transcript starts with its command: {line!r}")
    return steps


def words(command: str) -> list[str]:
    argv = shlex.split(command, comments=True)
    assert argv and argv[0] == "companion", command
    return argv[1:]


INTERACTIVE = {"play", "shell", "serve"}


def run_commands(block: Block, you: Path, columns: int = 80) -> list[str]:
    """Run a commands block as a player whose home is ``you`` (read as /home/you); the problems found
    (none when every quoted output is what is printed). A command with nothing quoted under it is
    run, and must succeed (or exit as its ``# exit N`` says)."""
    from companion import i18n
    from tests.helpers import cli

    env = {"COLUMNS": str(columns), "LINES": "40"}
    problems: list[str] = []
    for command in block.setup:
        done = cli(*words(command), env=env)
        i18n.activate(None)
        if done.exit_code != 0:
            problems.append(f"{block.where}: setup {command!r} exited {done.exit_code}: {done.stderr}")
    for command, quoted in transcript(block):
        argv = words(command)
        if argv and argv[0] in INTERACTIVE and not any(q.strip() for q in quoted):
            continue  # starts the screens the page quotes next
        result = cli(*argv, env=env)
        i18n.activate(None)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            problems.append(f"{block.where}: {command!r} raised {result.exception!r}")
            continue
        stated = re.search(r"#\s*exit (\d+)\s*$", command)
        if not any(q.strip() for q in quoted):
            if result.exit_code != (int(stated.group(1)) if stated else 0):
                problems.append(f"{block.where}: {command!r} exited {result.exit_code}: {result.stderr}")
            continue
        shown = normal((result.stdout + result.stderr).replace(str(you), "/home/you"), None, None)
        while shown and not shown[-1]:
            shown.pop()
        want = list(quoted)
        while want and not want[-1].strip():
            want.pop()
        differs = matches(want, shown, anchored=True)
        if differs:
            problems.append(f"{block.where}: {command!r} (exit {result.exit_code}) {differs}")
    return problems


def folder_of_your_own(page: Path, you: Path) -> Path | None:
    """The folder a page has the player make and go to, from the clone (docs/tables.md's
    ``mkdir -p ~/... && cd ~/... && ln -s ...``), made by running that line in bash as typed."""
    import subprocess

    text = page.read_text(encoding="utf-8")
    m = re.search(r"```sh\n(mkdir -p ~/.*&& cd ~/.*)\n```", text)
    if not m:
        return None
    env = dict(os.environ, HOME=str(you))
    made = subprocess.run(
        ["bash", "--norc", "-c", m.group(1) + " && pwd"], cwd=REPO, env=env, capture_output=True, text=True, timeout=60
    )
    assert made.returncode == 0, made.stderr
    return Path(made.stdout.strip())


def keys_of(block: Block) -> list[str]:
    """The keys a play block presses, one prompt at a time: shell words, ``⏎`` for Enter, ``⌫`` for
    Backspace (a number asked with a default has it in the box), ``↓`` and ``↑`` to move in a menu."""
    keys = [a for a in block.args if "=" not in a or a.startswith("=")]
    named = {"⏎": "\r", "⌫": "\x7f", "↓": "\x1b[B", "↑": "\x1b[A"}
    return ["".join(named.get(c, c) for c in k) for k in keys]


def run_play(block: Block, tmp: Path) -> list[str]:
    """Play the block's keys at a terminal; the screen's lines (scroll-back and screen, no blanks)."""
    from tests.terminal import Terminal, prepare, terminal_env

    columns = int(block.option("columns", "80") or 80)
    env = terminal_env(tmp, columns, 40)
    env.pop("COLUMNS", None)
    for command in block.setup:
        prepare(env, *words(command))
    term = Terminal(env, "play", columns=columns, lines=40)
    try:
        term.ready()
        for key in keys_of(block):
            if not term.key(key):
                break
        lines = term.all_lines()
    finally:
        term.kill()
    shown = normal("\n".join(lines), tmp / "logs", tmp / "home")
    return [line for line in shown if line.strip()]


def check_play(block: Block, tmp: Path) -> list[str]:
    shown = run_play(block, tmp)
    if os.environ.get("DOCS_QUOTES_SHOW"):  # to write a quote: the screen as this run saw it
        Path(os.environ["DOCS_QUOTES_SHOW"]).write_text("\n".join(shown) + "\n", encoding="utf-8")
    quoted = [line for line in block.lines if line.strip() and not line.startswith("$ companion ")]
    differs = matches(quoted, shown, anchored=False)
    return [f"{block.where}: companion play {differs}"] if differs else []


def check_shell(block: Block, tmp: Path, env: dict[str, str] | None = None) -> list[str]:
    """Type the block's ``NAME> TEXT`` lines into ``companion shell``; what follows each is what it printed.
    ``env``: the shell's own variables (a home of the caller's), instead of data and log folders in ``tmp``."""
    from tests.shell_term import Term
    from tests.terminal import prepare, terminal_env

    columns = int(block.option("columns", "80") or 80)
    own = env
    env = terminal_env(tmp, columns, 40)
    for command in block.setup:
        prepare(env, *words(command))
    prompt = re.compile(r"^([\w-]+)> (.*)$")
    steps: list[tuple[str, list[str]]] = []
    for line in block.lines:
        m = prompt.match(line)
        if m and m.group(2):
            steps.append((m.group(2), []))
        elif steps and not m:
            steps[-1][1].append(line)
    term = Term("shell", cols=columns, rows=40, env=own or {k: env[k] for k in ("COMPANION_HOME", "COMPANION_LOGS")})
    problems = []
    try:
        banner = [line for line in block.lines[1:] if line.strip() and not prompt.match(line)][:1]
        if block.lines and block.lines[0] == "$ companion shell" and banner and not prompt.match(block.lines[1]):
            term.ready()
            if banner[0] not in term.plain():
                problems.append(f"{block.where}: the shell did not open with {banner[0]!r}:\n{term.plain()}")
        for typed, quoted in steps:
            want = [q for q in quoted if q.strip()]
            printed = term.line(typed + "\r", want[-1] if want else "")
            shown = normal(printed, tmp / "logs", tmp / "home")
            shown = [s for s in shown[1:] if s.strip() and not re.match(r"^[\w-]+>( |$)", s)]  # after the echo
            differs = matches(want, shown, anchored=True)
            if differs:
                problems.append(f"{block.where}: shell {typed!r} {differs}")
        term.send("\x04")  # Ctrl-D at the prompt: the shell ends
        term.close()
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)
    return problems


def check_file(block: Block) -> list[str]:
    path = REPO / block.args[0]
    shown = normal(path.read_text(encoding="utf-8"), None, None)
    differs = matches([q for q in block.lines], shown, anchored=False)
    return [f"{block.where}: {block.args[0]} {differs}"] if differs else []


def env_for(home: Path) -> dict[str, str]:
    return {"COMPANION_HOME": str(home / "home"), "COMPANION_LOGS": str(home / "logs")}


def set_env(values: dict[str, str]) -> dict[str, str | None]:
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    return old
