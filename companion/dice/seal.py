"""Sealed dice: a seed drawn by companion and kept hidden behind a commitment until it is revealed.

``companion new --sealed`` draws the seed (53 random bits, more than any search of seeds could try
from the rolls) and a salt (128 random bits), and shows only the **commitment**: the SHA-256 of
``SEED:SALT`` (the seed in decimal, a colon, the salt in hex), which anyone can recompute once the
seed and the salt are revealed::

    printf '%s' '4817309125361147:9b1f...' | sha256sum

The salt keeps the seed from being found by trying seeds against the commitment. Nothing here rolls:
the seed feeds the same seeded stream as any session (companion.dice.source), one ``random()`` per die.
"""

from __future__ import annotations

import hashlib
import os

#: The seed's size in bits: an exact integer in any JSON reader (JavaScript's included).
SEED_BITS = 53
#: The salt's size in bytes.
SALT_BYTES = 16


def draw() -> tuple[int, str]:
    """A fresh seed and salt."""
    seed = int.from_bytes(os.urandom(8), "big") >> (64 - SEED_BITS)
    return seed, os.urandom(SALT_BYTES).hex()


def commitment(seed: int, salt: str) -> str:
    """The SHA-256 (hex) of ``SEED:SALT``: what a sealed session shows instead of its seed."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def short(commit: str) -> str:
    """The commitment as a line shows it: its first 16 hex digits (the exports keep all 64)."""
    return commit[:16] + "…"
