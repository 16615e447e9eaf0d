"""The user-error checks on the labelled set: enough of it, precision >= 0.9, docs current."""

from __future__ import annotations

import re
from pathlib import Path

from user_cases import CATALOG, labelled_set, markdown, measure

COMPARING_DOC = Path(__file__).resolve().parents[2] / "docs" / "comparing.md"
CASES = labelled_set()


def test_the_set_is_large_real_and_covers_every_check() -> None:
    assert len(CASES) >= 60
    real = [c for c in CASES if c.kind == "real"]
    assert len(real) >= 40 and all("--user local" in c.source for c in real)
    assert len({c.scenario.id for c in real}) >= 40
    constructed = [c for c in CASES if c.kind == "constructed"]
    for check in CATALOG.user_checks:
        mine = [c for c in constructed if c.check == check]
        positives = [c for c in mine if any(kind == check for _, kind in c.labels)]
        negatives = [c for c in mine if not any(kind == check for _, kind in c.labels)]
        assert len(positives) >= 3 and len(negatives) >= 2, check


def test_every_check_is_precise_on_the_labelled_set() -> None:
    for score in measure(CASES):
        assert score.labelled > 0, score.kind
        assert score.precision is not None and score.precision >= 0.9, score


def test_the_docs_report_the_measurement() -> None:
    text = COMPARING_DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- user-checks:start[^>]*-->\n(.*?)<!-- user-checks:end -->", text, re.S)
    assert found is not None, "docs/comparing.md lost its user-checks markers"
    assert found.group(1) == markdown(CASES), (
        "docs/comparing.md's user-check table is stale: "
        ".venv/bin/python scripts/measure_user_checks.py"
    )
