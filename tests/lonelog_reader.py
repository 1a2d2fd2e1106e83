"""A small Lonelog v1.6 reader, written from the spec's grammar (zeruhur/lonelog, docs/en/lonelog.md and
its dungeon-crawling, resource-tracking and combat add-ons), not from companion's exporter.

What it reads, as the spec defines it:

- a digital log: YAML front matter, ``# Title``, ``## Session N``, ``### S<n> *context*`` scenes, and
  notation "always wrapped in code blocks" (§2.1): a notation line outside a fence is an error;
- the core: ``@`` / ``@(Name)`` actions, ``?`` questions, ``d: ... -> outcome`` rolls (§3.2.1: always
  with the outcome), ``tbl: ... -> result`` table lookups (§4.3), ``->`` results, ``=>`` consequences,
  ``(note: ...)`` meta notes, and prose (a player's own words);
- tags ``[Kind:Name|field|...]`` anywhere on a line; the add-ons' ``[R:ID|status|desc|exits ...]``,
  ``[Inv:Item|n]`` / ``[Inv:Item|a→b]`` / ``[Inv:Item|depleted]`` / ``[Inv:Item+n]``,
  ``[Wealth:Gold+15]`` / ``[Wealth:Gold 45]``, ``[PC:Name|HP 6|HP-2]``, ``[F:Name|HP 6]`` /
  ``[F:Name|HP-3]`` / ``[F:Name|dead]``;
- blocks: ``[COMBAT]`` ... ``[/COMBAT]`` (or ended by the next scene, combat add-on §1.1) with
  ``Rd1``, ``Rd2`` ... rounds starting at 1 in each combat; ``[DUNGEON STATUS]`` ... holding only room
  tags; ``[RESOURCES]`` ... holding PC, Wealth and Inv tags.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

TAG = re.compile(r"\[(/?[A-Z][A-Za-z ]*?)(?::([^\[\]]*))?\]")
ROUND = re.compile(r"^Rd(\d+)\b")
BLOCKS = {"COMBAT", "DUNGEON STATUS", "RESOURCES"}
CORE = ("@ ", "@(", "? ", "d: ", "tbl: ", "gen: ", "-> ", "=> ", "(note: ")


class NotLonelog(ValueError):
    pass


@dataclass
class Combat:
    #: Foes named when the combat opened: name → HP (None: no HP given).
    foes: dict[str, int | None] = field(default_factory=dict)
    rounds: int = 0
    dead: list[str] = field(default_factory=list)
    rolls: int = 0


@dataclass
class Log:
    header: dict[str, str] = field(default_factory=dict)
    title: str = ""
    sessions: list[str] = field(default_factory=list)
    scenes: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    rolls: list[str] = field(default_factory=list)
    tables: list[tuple[str, str]] = field(default_factory=list)  # (the roll, the row)
    consequences: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    prose: list[str] = field(default_factory=list)
    #: Room ID → (status, description), as the last room tag left it.
    rooms: dict[str, tuple[str, str]] = field(default_factory=dict)
    inventory: dict[str, int] = field(default_factory=dict)
    wealth: dict[str, int] = field(default_factory=dict)
    #: PC name → stat → its value as last stated (``HP 6/10`` → "6/10").
    pcs: dict[str, dict[str, str]] = field(default_factory=dict)
    foes: dict[str, str] = field(default_factory=dict)
    combats: list[Combat] = field(default_factory=list)
    dungeon_status: dict[str, tuple[str, str]] = field(default_factory=dict)
    resources: list[str] = field(default_factory=list)


def _count(field_text: str, was: int) -> int:
    """An inventory field: ``3``, ``3→2``, ``depleted``."""
    if field_text == "depleted":
        return 0
    if "→" in field_text:
        return int(field_text.split("→")[1])
    return int(field_text)


class _Reader:
    def __init__(self) -> None:
        self.log = Log()
        self.block: str | None = None
        self.combat: Combat | None = None

    def tag(self, kind: str, body: str | None, line: str) -> None:
        log = self.log
        if kind in BLOCKS:
            if self.block is not None:
                raise NotLonelog(f"[{kind}] opened inside [{self.block}]: {line}")
            self.block = kind
            if kind == "COMBAT":
                self.combat = Combat()
                log.combats.append(self.combat)
            return
        if kind.startswith("/"):
            if self.block != kind[1:]:
                raise NotLonelog(f"[{kind}] closes no open [{kind[1:]}]: {line}")
            self.block, self.combat = None, None
            return
        if body is None:
            raise NotLonelog(f"a tag without its name: {line}")
        fields = body.split("|")
        name = fields[0]
        if self.block == "DUNGEON STATUS" and kind != "R":
            raise NotLonelog(f"only room tags in [DUNGEON STATUS]: {line}")
        if self.block == "RESOURCES":
            if kind not in ("PC", "Wealth", "Inv"):
                raise NotLonelog(f"only PC, Wealth and Inv tags in [RESOURCES]: {line}")
            log.resources.append(f"[{kind}:{body}]")  # a snapshot: its totals stand as the last word
        if kind == "R":
            status = fields[1] if len(fields) > 1 else ""
            desc = fields[2] if len(fields) > 2 and not fields[2].startswith("exits ") else ""
            target = log.dungeon_status if self.block == "DUNGEON STATUS" else log.rooms
            target[name] = (status, desc)
        elif kind == "Inv":
            delta = re.fullmatch(r"(.+?)([+-]\d+)", name) if len(fields) == 1 else None
            if delta:
                item = delta.group(1)
                log.inventory[item] = log.inventory.get(item, 0) + int(delta.group(2))
            else:
                log.inventory[name] = _count(fields[1], log.inventory.get(name, 0)) if len(fields) > 1 else 1
        elif kind == "Wealth":
            for part in fields:
                m = re.fullmatch(r"(\D+?) ?([+-]?\d+)", part.strip())
                if not m:
                    raise NotLonelog(f"a wealth tag reads Currency N or Currency+N: {line}")
                cur, n = m.group(1).strip(), m.group(2)
                log.wealth[cur] = log.wealth.get(cur, 0) + int(n) if n[0] in "+-" else int(n)
        elif kind == "PC":
            stats = log.pcs.setdefault(name, {})
            for part in fields[1:]:
                m = re.fullmatch(r"(.+?) (\S+)", part)  # "HP 6/10"; "HP-2" is a change, the next field the value
                if m and not re.fullmatch(r".+?[+-]\d+", part):
                    stats[m.group(1)] = m.group(2)
        elif kind == "F":
            if "dead" in fields[1:]:
                log.foes[name] = "dead"
                if self.combat is not None:
                    self.combat.dead.append(name)
            else:
                hp = next((f.split()[1] for f in fields[1:] if re.fullmatch(r"HP \d+", f)), None)
                if self.combat is not None and name not in self.combat.foes and not self.combat.rounds:
                    self.combat.foes[name] = int(hp) if hp is not None else None
                if hp is not None:
                    log.foes[name] = f"HP {hp}"

    def notation(self, line: str) -> None:
        log = self.log
        m = ROUND.match(line)
        if m:
            if self.combat is None:
                raise NotLonelog(f"a round outside a combat: {line}")
            if int(m.group(1)) != self.combat.rounds + 1:
                raise NotLonelog(f"rounds count from Rd1 in each combat: {line} after Rd{self.combat.rounds}")
            self.combat.rounds += 1
            return
        if line.startswith(("@ ", "@(")):
            log.actions.append(line)
        elif line.startswith(("d: ", "tbl: ", "gen: ")):
            if " -> " not in line:
                raise NotLonelog(f"a roll states its outcome with ->: {line}")
            roll, _, outcome = line.partition(" -> ")
            (log.tables.append((roll, outcome)) if line.startswith("tbl: ") else log.rolls.append(line))
            if self.combat is not None:
                self.combat.rolls += 1
        elif line.startswith("=> "):
            log.consequences.append(line[3:])
        elif line.startswith("(note: "):
            if not line.endswith(")"):
                raise NotLonelog(f"a note closes its parenthesis: {line}")
            log.notes.append(line[7:-1])
        elif line.startswith(("? ", "-> ")):
            pass
        elif not TAG.match(line):
            log.prose.append(line)
        for tm in TAG.finditer(line):
            self.tag(tm.group(1), tm.group(2), line)

    def scene(self, line: str) -> None:
        m = re.fullmatch(r"### S(\d+) \*(.+)\*", line)
        if not m or int(m.group(1)) != len(self.log.scenes) + 1:
            raise NotLonelog(f"scenes are ### S<n> *context*, numbered from S1: {line}")
        if self.block == "COMBAT":  # the next scene marker ends an encounter (combat add-on §1.1)
            self.block, self.combat = None, None
        elif self.block is not None:
            raise NotLonelog(f"[{self.block}] still open at {line}")
        self.log.scenes.append(m.group(2))


def read(text: str) -> Log:
    r = _Reader()
    lines = text.split("\n")
    if lines[0] != "---":
        raise NotLonelog("a digital log opens with its YAML front matter")
    end = lines.index("---", 1)
    for item in lines[1:end]:
        key, _, value = item.partition(": ")
        r.log.header[key] = value.strip('"')
    fenced = False
    for line in lines[end + 1 :]:
        if line == "```":
            fenced = not fenced
            continue
        if fenced:
            if line.strip():
                r.notation(line.strip())
            continue
        if not line.strip():
            continue
        if line.startswith("# "):
            r.log.title = line[2:]
        elif line.startswith("## "):
            r.log.sessions.append(line[3:])
        elif line.startswith("### "):
            r.scene(line)
        elif line.startswith(CORE) or ROUND.match(line) or TAG.match(line):
            raise NotLonelog(f"notation outside a code block (§2.1): {line}")
        elif not (line.startswith("*") and line.endswith("*")):
            r.log.prose.append(line)
    if fenced:
        raise NotLonelog("a code block is never closed")
    if r.block not in (None, "COMBAT"):
        raise NotLonelog(f"[{r.block}] is never closed")
    return r.log
