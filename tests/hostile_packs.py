"""Hostile table packs (issue #22, item 11): tiny files that made companion hang, huge ones, and
ones that reach into the terminal. Each is made as text, so a test writes only the ones it needs.

Every pack here must be refused, with its file and line, by a few steps of work.
"""

from __future__ import annotations


def _head(name: str) -> str:
    return f'[pack]\nname = "{name}"\n'


def fan(refs: int, tables: int = 6) -> str:
    """``fan10.toml`` (548 bytes): six 1d2 tables whose rows each refer to the next table ``refs``
    times. One roll on the first would be 1 + 10 + ... + 10^5 = 111,111 rolls."""
    out = [_head(f"fan{refs}")]
    for i in range(tables):
        ref = f" [t{i + 1}]" * refs if i + 1 < tables else ""
        out.append(
            f'[tables.t{i}]\ndice = "1d2"\nrows = [\n  {{ roll = "1", result = "a{ref}" }},\n'
            f'  {{ roll = "2", result = "b{ref}" }},\n]\n'
        )
    return "\n".join(out)


def dfs(tables: int = 6, rows: int = 4, repeat: int = 1) -> str:
    """``dfs6x4.toml`` (1.5 KB): every row of each table refers to every later table (``repeat`` times), so a walk of
    every path from the first table takes (rows x later tables)^depth steps without a memory."""
    out = [_head(f"dfs{tables}x{rows}")]
    for i in range(tables):
        later = "".join(f" [t{j}]" * repeat for j in range(i + 1, tables))
        body = "".join(f'  {{ roll = "{r + 1}", result = "r{r}{later}" }},\n' for r in range(rows))
        out.append(f'[tables.t{i}]\ndice = "1d{rows}"\nrows = [\n{body}]\n')
    return "\n".join(out)


def chain(length: int = 1_000) -> str:
    """A chain of ``length`` tables, each referring to the next (a RecursionError once)."""
    out = [_head("chain")]
    for i in range(length):
        ref = f" [t{i + 1}]" if i + 1 < length else ""
        out.append(f'[tables.t{i}]\ndice = "1d2"\nrows = [{{ roll = "1-2", result = "go{ref}" }}]\n')
    return "\n".join(out)


def long_loop(length: int = 50) -> str:
    """A loop of ``length`` tables (t0 → t1 → ... → t0)."""
    out = [_head("loop")]
    for i in range(length):
        out.append(f'[tables.t{i}]\ndice = "1d2"\nrows = [{{ roll = "1-2", result = "go [t{(i + 1) % length}]" }}]\n')
    return "\n".join(out)


def nested(depth: int = 100_000) -> str:
    """A value nested ``depth`` lists deep (a RecursionError in Python's TOML reader)."""
    return _head("nested") + "x = " + "[" * depth + "]" * depth + "\n"


def nested_tables(depth: int = 5_000) -> str:
    """Inline tables nested ``depth`` deep."""
    return _head("nested") + "x = " + "{a = " * depth + "1" + "}" * depth + "\n"


def many_rows(rows: int = 1_000_000) -> str:
    """``rows`` rows (10^6 rows: 35 s and 700 MB before they were refused)."""
    six = "".join(f'{{roll="{i + 1}",result="r"}},\n' for i in range(6))
    body = six * (rows // 6) + six[: six.index("\n") + 1] * (rows % 6)
    return _head("rows") + '[tables.t]\ndice = "1d6"\nrows = [\n' + body + "]\n"


def rows_over_the_bound(tables: int = 11, rows: int = 1_000) -> str:
    """Under the file's size, over the rows one pack may have: ``tables`` d1000 tables of ``rows``."""
    out = [_head("rows")]
    for t in range(tables):
        body = "".join(f'{{roll="{i + 1}",result="r"}},' for i in range(rows))
        out.append(f'[tables.t{t}]\ndice = "1d{rows}"\nrows = [{body}]\n')
    return "\n".join(out)


def long_title(size: int = 900_000) -> str:
    """A title of ``size`` characters (under the file's size)."""
    return _head("title") + f'title = "{"x" * size}"\n[tables.t]\nrows = [{{ roll = "1-6", result = "r" }}]\n'


def long_number(digits: int = 5_000) -> str:
    """A number of ``digits`` digits (Python's int() refuses over 4,300)."""
    return (
        _head("number") + f'[trackers]\nSKILL = {"9" * digits}\n[tables.t]\nrows = [{{ roll = "1-6", result = "r" }}]\n'
    )


def big_dice() -> str:
    """Dice whose exact odds are too much work: many tables of 100d10 (each about 50,000 steps)."""
    out = [_head("dice")]
    for t in range(10):
        out.append(f'[tables.t{t}]\ndice = "100d10"\nrows = [{{ roll = "100-1000", result = "r" }}]\n')
    return "\n".join(out)


def wide_dice() -> str:
    """Dice with more totals than a table may have."""
    return _head("wide") + '[tables.t]\ndice = "100d1000"\nrows = [{ roll = "100-100000", result = "r" }]\n'


#: Rows that reach into the terminal: ESC c (reset), OSC 0 (the window's title), CSI 2J (clear),
#: OSC 52 (write the clipboard), a C1 CSI.
ESCAPES = {
    "reset": "\\u001bc",
    "title": "\\u001b]0;pwned\\u0007",
    "clear": "\\u001b[2J\\u001b[H",
    "clipboard": "\\u001b]52;c;cm0gLXJmIH4=\\u0007",
    "c1": "\\u009b2J",
}


def escape(kind: str) -> str:
    """A pack whose row writes the escape ``kind`` (as TOML's \\u escapes)."""
    return _head("escape") + f'[tables.t]\nrows = [{{ roll = "1-6", result = "a quiet room {ESCAPES[kind]}" }}]\n'


def escape_in_title() -> str:
    return _head("escape") + 'title = "Book \\u001b[31mred"\n[tables.t]\nrows = [{ roll = "1-6", result = "r" }]\n'


#: Name → (the pack's text, a part of the refusal that names what is wrong).
HOSTILE = {
    "fan10": (lambda: fan(10), "rolls; companion makes at most 100 for one roll"),
    "fan20": (lambda: fan(20), "rolls; companion makes at most 100 for one roll"),
    "dfs6x4-twice": (lambda: dfs(6, 4, 2), "rolls; companion makes at most 100 for one roll"),
    "dfs12x6": (lambda: dfs(12, 6), "tables deep"),
    "chain": (lambda: chain(400), "tables deep; companion follows at most 6"),
    "chain-1000": (chain, "the pack has 1,000 tables; a pack has at most 500"),
    "long-loop": (long_loop, "tables deep"),
    "nested": (nested, "nested more than 16 deep"),
    "nested-tables": (nested_tables, "nested more than 16 deep"),
    "rows": (lambda: rows_over_the_bound(13), "more than 12,000 rows, tables and trackers"),
    "title": (long_title, "a text of 900,002 characters"),
    "short-title": (lambda: long_title(5_000), "pack.title is 5,000 characters long; at most 200"),
    "number": (long_number, "a number of 5,000 digits"),
    "dice": (big_dice, "too many for exact odds"),
    "wide-dice": (wide_dice, "give 99,901 totals"),
    **{f"escape-{k}": (lambda k=k: escape(k), "holds a control character") for k in ESCAPES},
    "escape-book-title": (escape_in_title, "pack.title holds a control character (U+001B)"),
}
