"""Run seeded calls through the ToolTalk reference's executor; write their outcomes' digests.

    REF_VENV/bin/python scripts/tooltalk_export/tool_outcomes.py [REF_DIR] [--data DIR] [--out FILE]

For each case of `_calls.cases` (a conversation and a few calls; seed and count below), the
reference's own `ToolExecutor` (microsoft/ToolTalk e05f4ce; sent2vec replaced by a stub, it is not
used) starts from the conversation's state (`init_conversation_state`) and executes the calls; per
call the outcome is [response, exception, the arguments as the executor left them
(`json.dumps`)]. The outcomes hold the databases' records, so FILE (default
`tests/tooltalk/data/reference_tool_outcomes.json`) keeps the sha256 of each case's outcomes.
A case the reference crashes on is left out (its index is missing).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _calls import cases, digest  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SEED, COUNT = 489, 1500
FACTS = REPO / "src" / "toolplay" / "methods" / "tooltalk" / "data" / "presentation.json"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    default_ref = os.environ.get("TOOLTALK_REF", str(REPO.parent / "shared" / "tooltalk-ref"))
    parser.add_argument("ref", nargs="?", type=Path, default=Path(default_ref))
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "tooltalk")
    out = REPO / "tests" / "tooltalk" / "data" / "reference_tool_outcomes.json"
    parser.add_argument("--out", type=Path, default=out)
    args = parser.parse_args()
    sent2vec = types.ModuleType("sent2vec")
    vectorizer = types.ModuleType("sent2vec.vectorizer")
    vectorizer.Vectorizer = object  # type: ignore[attr-defined]
    sent2vec.vectorizer = vectorizer  # type: ignore[attr-defined]
    sys.modules.update({"sent2vec": sent2vec, "sent2vec.vectorizer": vectorizer})
    sys.path.insert(0, str(args.ref / "src"))
    from tooltalk.evaluation.tool_executor import ToolExecutor

    executor = ToolExecutor(init_database_dir=str(args.data / "databases"))
    facts = json.loads(FACTS.read_text())["api_facts"]["apis"]
    digests = {}
    for number, case in enumerate(cases(args.data, facts, SEED, COUNT)):
        conversation = json.loads((args.data / case["file"]).read_text(encoding="utf-8"))
        executor.init_conversation_state(conversation["metadata"], [], conversation.get("user"))
        outcomes = []
        try:
            for name, parameters in case["calls"]:
                parameters = copy.deepcopy(parameters)
                _, response = executor.execute_tool(name, parameters)
                outcomes.append(
                    [response["response"], response["exception"], json.dumps(parameters)]
                )
        except Exception as exc:  # noqa: BLE001 - the reference crashed: left out
            print(f"case {number}: the reference crashed ({exc!r})", file=sys.stderr)
            continue
        digests[str(number)] = digest(outcomes)
    result = {
        "how": "scripts/tooltalk_export/tool_outcomes.py: the reference's ToolExecutor "
        "(microsoft/ToolTalk e05f4ce) on scripts/tooltalk_export/_calls.py's cases",
        "seed": SEED,
        "count": COUNT,
        "python": sys.version.split()[0],
        "digests": digests,
    }
    args.out.write_text(json.dumps(result, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({len(digests)} cases)")


if __name__ == "__main__":
    main()
