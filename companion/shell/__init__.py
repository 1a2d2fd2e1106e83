"""The interactive shell: questionary prompts and rich panels for guided play.

Imported only by commands that talk to a person at a terminal; questionary costs ~0.2 s to import.
"""
