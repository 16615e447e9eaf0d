"""The report's data is packed: compressed, conversations in chunks, read back exactly."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from toolplay.report._payload import CHUNK, DETAIL_KEYS, pack_entries, unpack_payload

TEXT = st.text(max_size=30)
RECORDS = st.lists(
    st.fixed_dictionaries(
        {
            "id": TEXT,
            "score": st.none() | st.floats(0, 1),
            "messages": st.lists(st.dictionaries(TEXT, TEXT, max_size=3), max_size=3),
            "evidence": st.dictionaries(TEXT, st.integers(), max_size=2),
        }
    ),
    max_size=2 * CHUNK + 3,
)


@given(RECORDS)
def test_packing_round_trips_and_keeps_details_out_of_the_index(records: list[dict]) -> None:
    packed = pack_entries(records)
    assert unpack_payload({"trials": 1, **packed}) == {"trials": 1, "entries": records}
    assert len(packed["chunks"]) == -(-len(records) // CHUNK)
    packed_again = pack_entries(records)
    assert packed_again == packed  # deterministic bytes (gzip without a timestamp)


def test_the_report_page_holds_no_conversation_text_in_the_clear(runs: dict[str, Path]) -> None:
    html = (runs["oracle"] / "report.html").read_text(encoding="utf-8")
    block = re.search(r'id="run-data">(.*?)</script>', html, re.S)
    assert block is not None
    data = unpack_payload(json.loads(block.group(1)))
    said = [m["content"] for e in data["entries"] for m in e["messages"] if m["content"]]
    assert said and not any(text in html for text in said if len(text) > 20)
    assert all(set(DETAIL_KEYS) <= set(e) for e in data["entries"])
    plain = len(json.dumps(data["entries"]))
    assert len(block.group(1)) < plain / 3
