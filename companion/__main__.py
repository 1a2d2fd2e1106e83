"""Run as ``python -m companion``."""

from companion.cli.main import run

if __name__ == "__main__":
    run()
