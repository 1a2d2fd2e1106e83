"""The command-line shell: a thin layer of typer commands over the companion library.

Nothing here decides a rule. Commands parse arguments, call the library, and render its results
through :class:`companion.cli.env.Env`. Heavy imports (questionary, the games) happen inside the
commands that need them, so one-shot commands start fast.
"""
