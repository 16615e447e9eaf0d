"""The keyword, sender and date search that SearchInbox and SearchMessages share."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from toolplay.domains.tooltalk._common import DATE_TIME, parse_time, record
from toolplay.domains.tooltalk._texts import refusal
from toolplay.tools._errors import InvalidArgumentError
from toolplay.world import Row

MAX_RESULTS = 5
"""Both searches return the five most recent matches."""


def search_records(
    rows: Iterable[Row],
    *,
    now: datetime,
    date_column: str,
    text: Callable[[Row], list[str]],
    query: str | None,
    match_type: str,
    sender: str | None,
    start_date: str | None,
    end_date: str | None,
) -> list[dict[str, Any]]:
    """The newest matches among `rows` (records dated after `now` are not delivered yet).

    Raises:
        InvalidArgumentError: no filter given, an unknown match type, a bad or reversed date.
    """
    if query is None and sender is None and start_date is None and end_date is None:
        raise InvalidArgumentError(refusal("search_without_filter"))
    if match_type not in ("any", "all"):
        raise InvalidArgumentError(refusal("bad_match_type"))
    start = parse_time(start_date, DATE_TIME) if start_date is not None else None
    end = parse_time(end_date, DATE_TIME) if end_date is not None else None
    if start is not None and end is not None and start > end:
        raise InvalidArgumentError(refusal("search_dates_reversed"))
    keywords = query.lower().split() if query else None
    matched: list[tuple[datetime, Row]] = []
    for row in rows:
        at = parse_time(row[date_column], DATE_TIME)
        if at > now:
            continue
        if sender is not None and sender != row["sender"]:
            continue
        if (start is not None and at < start) or (end is not None and at > end):
            continue
        if keywords is not None:
            haystacks = [t.lower() for t in text(row)]
            hits = [any(k in h for h in haystacks) for k in keywords]
            if not (any(hits) if match_type == "any" else all(hits)):
                continue
        matched.append((at, row))
    matched.sort(key=lambda pair: pair[0], reverse=True)
    return [record(row, "username") for _, row in matched[:MAX_RESULTS]]
