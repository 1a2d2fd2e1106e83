"""``companion`` with the toy guided game registered, for end-to-end tests in a real terminal."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import companion.games

companion.games.GAMES["toy"] = "tests.toygame"

from companion.cli.main import main  # noqa: E402

sys.exit(main(sys.argv[1:]))
