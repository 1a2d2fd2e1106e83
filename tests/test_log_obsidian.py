"""The markdown log opens well in Obsidian (#23): its front matter as Obsidian properties (a list as a
YAML list, the times as date-times), and a body with no html, checked by rendering it with a
CommonMark renderer (markdown-it) and reading the result."""

from __future__ import annotations

import datetime

import yaml
from markdown_it import MarkdownIt

from tests.helpers import cli


def ok(*args: str) -> str:
    result = cli(*args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result.stdout


def played_log() -> str:
    ok("new", "inverted-tower", "--seed", "3", "--hero", "Aria", "--variant", "elites-deal-2")
    ok("note", "<b>bold?</b> a | pipe, an [[Obsidian link]] and a #tag")
    return ok("export", "-")


def front(log: str) -> dict:
    assert log.startswith("---\n")
    return yaml.safe_load(log.split("\n---\n", 1)[0][4:])


def test_the_front_matter_is_obsidian_properties():
    props = front(played_log())
    assert props["variants"] == ["elites-deal-2"], "a list property"
    assert isinstance(props["started"], datetime.datetime) and isinstance(props["updated"], datetime.datetime)
    assert props["started"] <= props["updated"]
    assert isinstance(props["seed"], int) and props["seed"] == 3
    assert props["game"] == "inverted-tower" and props["finished"] is None


def test_no_variants_is_an_empty_list():
    ok("new", "freeform", "--seed", "1")
    assert front(ok("export", "-"))["variants"] == []


def test_the_body_renders_as_commonmark_with_no_html():
    log = played_log()
    body = log.split("\n---\n", 1)[1]
    md = MarkdownIt("commonmark")  # html allowed: anything that parses as html would show up here
    tokens = md.parse(body)
    kinds = {t.type for t in tokens} | {c.type for t in tokens for c in (t.children or [])}
    assert not kinds & {"html_block", "html_inline"}, "nothing Obsidian's reader would drop"
    page = md.render(body)
    assert "&lt;b&gt;bold?&lt;/b&gt;" in page and "<b>" not in page, "the player's text shows as typed"
    assert "<h1>" in page and "<ul>" in page


def test_a_russian_log_names_its_properties_in_russian():
    ok("new", "dark-tower", "--lang", "ru", "--seed", "5")
    props = front(ok("export", "-"))
    assert props["игра"] == "dark-tower" and props["варианты"] == []
    assert isinstance(props["начало"], datetime.datetime)
