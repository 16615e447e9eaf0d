"""toolplay's ToolTalk tools under the reference executor answer every call as the reference's.

`data/reference_tool_outcomes.json` holds, for 1,500 seeded cases (`scripts/tooltalk_export/
_calls.py`: a conversation's logged-in state, then a few calls: its ground-truth calls, some
with an argument replaced by an odd value, dropped, or a copied `session_token`; calls to any
API with values of every JSON type; unknown APIs), the digest of what the reference's own
`ToolExecutor` answered (`tool_outcomes.py`): per call the response, the exception and the
arguments as it left them. Here toolplay's executor runs the same calls on the imported
scenario's world; the conversations are read from ../shared (the tests skip without them).
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

from support import CATALOG
from toolplay.methods.tooltalk import ReferenceExecutor
from toolplay.methods.tooltalk._texts import FOLDER, reference_texts
from toolplay.scenarios import Suite

EXPORTER = Path(__file__).resolve().parents[2] / "scripts" / "tooltalk_export"
sys.path.insert(0, str(EXPORTER))
import _calls  # noqa: E402

sys.path.remove(str(EXPORTER))

CAPTURED = json.loads((Path(__file__).parent / "data" / "reference_tool_outcomes.json").read_text())


def outcomes(suite: Suite, case: dict[str, Any]) -> list[list[Any]]:
    """toolplay's outcome of each call of `case`, in the reference's form."""
    scenario = next(s for s in suite.scenarios if s.metadata["file"] == case["file"])
    setup = CATALOG.setup(scenario)
    world = setup.new_world()
    executor = ReferenceExecutor(setup.registry, reference_texts())
    found = []
    for name, parameters in case["calls"]:
        world.index += 1
        outcome = executor.run(world, name, copy.deepcopy(parameters))
        found.append([outcome.result, outcome.error, outcome.executed_arguments])
    return found


def test_every_call_answers_as_the_references(tooltalk_dir: Path, tooltalk_suite: Suite) -> None:
    facts = json.loads((FOLDER / "presentation.json").read_text())["api_facts"]["apis"]
    cases = _calls.cases(tooltalk_dir, facts, CAPTURED["seed"], CAPTURED["count"])
    compared = 0
    for number, case in enumerate(cases):
        expected = CAPTURED["digests"].get(str(number))
        if expected is None:  # the reference crashed on it
            continue
        found = outcomes(tooltalk_suite, case)
        assert _calls.digest(found) == expected, f"case {number}: {case}\ntoolplay: {found}"
        compared += 1
    assert compared == len(CAPTURED["digests"]) >= 1_000
