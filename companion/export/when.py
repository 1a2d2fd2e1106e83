"""Times for people: an event's stamp (ISO 8601, UTC, as the save keeps it) in the player's own time
zone, written as a person writes it, with the zone named: ``1 December 2026, 20:50 to 21:47 CET``.

The zone is the machine's local one (``TZ``, else the system's), or the one given (the example pages
are made in UTC, so they come out the same everywhere). The JSON export keeps the stamps as they are.
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo

from companion.i18n import N_, _

#: A date, one message per month (a language puts the month in the case a date needs: 1 декабря).
DAYS = (
    N_("{day} January {year}"),
    N_("{day} February {year}"),
    N_("{day} March {year}"),
    N_("{day} April {year}"),
    N_("{day} May {year}"),
    N_("{day} June {year}"),
    N_("{day} July {year}"),
    N_("{day} August {year}"),
    N_("{day} September {year}"),
    N_("{day} October {year}"),
    N_("{day} November {year}"),
    N_("{day} December {year}"),
)


def parse(stamp: str | None) -> datetime | None:
    """A saved stamp (``2026-12-01T20:50:30Z``) as an aware datetime in UTC, or None."""
    if not stamp:
        return None
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def local(stamp: str | None, zone: tzinfo | None = None) -> datetime | None:
    """The stamp in ``zone`` (default: the machine's local zone, with its summer time on that date)."""
    moment = parse(stamp)
    return None if moment is None else moment.astimezone(zone)


def zone_name(moment: datetime) -> str:
    """``CET``, ``MSK``, ``UTC``; an offset where the zone has no name (``UTC+3``, ``UTC−5:30``)."""
    name = moment.tzname() or ""
    if name and name[0] not in "+-" and not name[0].isdigit():
        return name
    offset = moment.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    if not minutes:
        return "UTC"
    sign = "+" if minutes > 0 else "−"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def day(moment: datetime) -> str:
    """``1 December 2026``."""
    return _(DAYS[moment.month - 1]).format(day=moment.day, year=moment.year)


def clock(moment: datetime) -> str:
    """``20:50``."""
    return f"{moment.hour:02d}:{moment.minute:02d}"


def when(stamp: str | None, zone: tzinfo | None = None) -> str:
    """``1 December 2026, 20:50 CET`` (empty for no stamp)."""
    moment = local(stamp, zone)
    if moment is None:
        return ""
    return _("{day}, {time} {zone}").format(day=day(moment), time=clock(moment), zone=zone_name(moment))


def span(start: str | None, end: str | None, zone: tzinfo | None = None) -> str:
    """``1 December 2026, 20:50 to 21:47 CET``; across midnight, both days; across a change of summer
    time, both zones."""
    a, b = local(start, zone), local(end, zone)
    if a is None or b is None:
        return when(start or end, zone)
    if (a.date(), zone_name(a)) == (b.date(), zone_name(b)):
        if clock(a) == clock(b):
            return when(start, zone)
        return _("{day}, {start} to {end} {zone}").format(day=day(a), start=clock(a), end=clock(b), zone=zone_name(a))
    if zone_name(a) == zone_name(b):
        return _("{day}, {start} to {end_day}, {end} {zone}").format(
            day=day(a), start=clock(a), end_day=day(b), end=clock(b), zone=zone_name(a)
        )
    return _("{start} to {end}").format(start=when(start, zone), end=when(end, zone))


def date(stamp: str | None, zone: tzinfo | None = None) -> str:
    """``1 December 2026`` (empty for no stamp)."""
    moment = local(stamp, zone)
    return "" if moment is None else day(moment)
