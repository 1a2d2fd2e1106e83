"""``companion serve``: the table prompt on a phone or a tablet beside the board.

The page is the shell's table made for a thumb: the pending step with its odds and its answers as big
buttons, the whole table with +/- buttons, undo, the last lines of the log and a note. Every button
runs a command of the one command tree in this process, through the shell's own way of running a
line under the held lock (:mod:`companion.serve.table`), so a tap is the command typed.

- :mod:`~companion.serve.tokens`: the random token, kept in a file with ``--token-file``;
- :mod:`~companion.serve.guard`: the Host header, the token, the security headers;
- :mod:`~companion.serve.table`: the session held, the commands run, the state pushed;
- :mod:`~companion.serve.view` and :mod:`~companion.serve.controls`: what the page shows and offers;
- :mod:`~companion.serve.page`: the HTML (Jinja2) and the package's own static files;
- :mod:`~companion.serve.app`: the routes (Starlette); :mod:`~companion.serve.server`: uvicorn, the
  address, the QR code and the signals.

Starlette, uvicorn and segno are imported only here, when ``companion serve`` runs.
"""
