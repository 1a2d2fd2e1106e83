"""Timestamps for events. ``SOURCE_DATE_EPOCH`` pins them, so seeded example logs are reproducible."""

from __future__ import annotations

import os
from datetime import UTC, datetime


def now() -> str:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = datetime.fromtimestamp(int(epoch), UTC) if epoch and epoch.isdigit() else datetime.now(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
