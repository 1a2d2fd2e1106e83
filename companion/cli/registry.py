"""Where each root command is defined: read by the root group (to build a command only when it
runs), by ``companion --help``, and by the shell and completion (to walk the command tree).

Holds data only, so :mod:`companion.cli.app` and :mod:`companion.cli.group` both read it without
importing each other.
"""

from __future__ import annotations

from companion.i18n import N_

#: The root's help lists its commands under these headings, in this order (the games' own groups
#: under "Games"; a command in none of them under "Other commands").
SECTIONS: dict[str, tuple[str, ...]] = {
    N_("Dice"): ("roll", "odds", "tables", "fight"),
    N_("Sessions"): (
        "new", "play", "next", "sessions", "use", "status", "history", "undo", "redo", "amend", "note", "mode", "log",
        "export", "gamedata",
    ),
    N_("Trackers"): (
        "tally", "hp", "xp", "gold", "item", "room", "rooms", "floor", "talisman", "tracker", "section", "sections",
    ),
    N_("Games"): ("tower", "dark", "haunted", "dragon", "dungeon"),
    N_("Analysis"): ("simulate", "dice"),
    N_("Shell"): ("shell", "serve", "completion"),
}  # fmt: skip

#: Command name → the module whose typer ``app`` defines it. Only the module of the command being
#: run is imported and turned into a click command; typer would otherwise build every command's
#: parameters on every run (see docs/startup.md). The order is the order of ``companion --help``.
COMMAND_MODULES: dict[str, str] = {
    "roll": "companion.cli.roll_cmds",
    "odds": "companion.cli.roll_cmds",
    "simulate": "companion.cli.sim_cmds",
    "new": "companion.cli.session_cmds",
    "play": "companion.cli.play_cmds",
    "shell": "companion.cli.shell_cmds",
    "serve": "companion.cli.serve_cmds",
    "next": "companion.cli.play_cmds",
    "sessions": "companion.cli.session_cmds",
    "use": "companion.cli.session_cmds",
    "status": "companion.cli.session_cmds",
    "history": "companion.cli.history_cmds",
    "undo": "companion.cli.history_cmds",
    "redo": "companion.cli.history_cmds",
    "amend": "companion.cli.amend_cmds",
    "note": "companion.cli.session_cmds",
    "mode": "companion.cli.session_cmds",
    "log": "companion.cli.session_cmds",
    "export": "companion.cli.export_cmds",
    "dice": "companion.cli.export_cmds",
    "gamedata": "companion.cli.gamedata_cmds",
    "tally": "companion.cli.tracker_cmds",
    "hp": "companion.cli.tracker_cmds",
    "xp": "companion.cli.tracker_cmds",
    "gold": "companion.cli.tracker_cmds",
    "item": "companion.cli.tracker_cmds",
    "room": "companion.cli.tracker_cmds",
    "rooms": "companion.cli.tracker_cmds",
    "floor": "companion.cli.tracker_cmds",
    "talisman": "companion.cli.tracker_cmds",
    "tables": "companion.cli.table_cmds",
    "tracker": "companion.cli.table_cmds",
    "fight": "companion.cli.pack_fight_cmds",
    "section": "companion.cli.section_cmds",
    "sections": "companion.cli.section_cmds",
    "completion": "companion.cli.completion_cmds",
}
