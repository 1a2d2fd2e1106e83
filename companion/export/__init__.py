"""Sharing a session: the exports (markdown, html, lonelog, json) and the audit of the player's dice.

Nothing here is imported on the one-shot path. The light parts (the dice audit, the lonelog and json
exports) use the standard library and companion's own modules; only :mod:`companion.export.html`
and :mod:`companion.export.charts` import Jinja2, markdown-it and pygal, and only when an html page
is made. See docs/log-format.md.
"""

FORMATS = ("md", "html", "lonelog", "json")
#: The file extension each format writes.
EXTENSIONS = {"md": ".md", "html": ".html", "lonelog": ".lonelog.md", "json": ".json"}
