"""Measure the user-error checks on the labelled set shipped in `tests/users/labelled/`.

    .venv/bin/python scripts/measure_user_checks.py            # the table
    .venv/bin/python scripts/measure_user_checks.py --details  # every disagreement

Precision and recall per check are counted over (conversation, user message) pairs: a message
flagged with a kind that a person labelled with it is a true positive. The table in
docs/comparing.md is this script's output (`tests/users/test_labelled_set.py` keeps the two equal).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "users"))

from user_cases import CATALOG, labelled_set, markdown  # noqa: E402


def main() -> None:
    """Print the table (and, with --details, each disagreement)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--details", action="store_true", help="List every disagreement.")
    args = parser.parse_args()
    cases = labelled_set()
    print(markdown(cases), end="")
    if not args.details:
        return
    checking = CATALOG.user_checking()
    for case in cases:
        found = checking.check(case.scenario, case.trajectory)
        flagged = {(e.message_index, e.kind): e.evidence for e in found.errors}
        for key in sorted(set(flagged) | case.labels):
            if key in flagged and key in case.labels:
                continue
            what = "false positive" if key in flagged else "missed"
            message = case.trajectory.messages[key[0]]
            print(f"{what}: {case.id} #{key[0]} {key[1]}: {message.content!r}")
            if key in flagged:
                print(f"    evidence: {flagged[key]}")


if __name__ == "__main__":
    main()
