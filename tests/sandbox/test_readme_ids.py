"""Issue 14 item 14: the scenario ids the docs show as examples exist (docs/scenarios.md)."""

from __future__ import annotations

import re
from pathlib import Path

from support import load_suite

SCENARIOS_DOC = Path(__file__).parents[2] / "docs" / "scenarios.md"


def test_the_documented_variant_examples_are_real_scenarios() -> None:
    section = SCENARIOS_DOC.read_text(encoding="utf-8").split("## Variants and augmentations")[1]
    table = section.split("Every variant keeps")[0]
    examples = re.findall(r"^\| `([^`]+)` \|", table, flags=re.MULTILINE)
    assert len(examples) == 3 and any("~" in e for e in examples)
    ids = {s.id for s in load_suite("sandbox").scenarios}
    assert [e for e in examples if e not in ids] == []
