"""Write the index of every built-in variant suite (`data/<suite>.index.json`).

Run after changing the sandbox scenario files or how variants are generated:
`.venv/bin/python scripts/index_suites.py`. `tests/scenarios/test_lazy_suites.py` fails while
a shipped index differs from a fresh one.
"""

from __future__ import annotations

import json

from toolplay.catalog import build_catalog
from toolplay.scenarios import DATA, index_path, variant_index

VARIANT_SUITES = ("sandbox",)


def main() -> None:
    """Rebuild and write each index."""
    context = build_catalog(installed=False).load_context()
    for name in VARIANT_SUITES:
        folder = DATA / name
        index = variant_index(folder, context)
        index_path(folder).write_text(json.dumps(index, indent=0) + "\n", encoding="utf-8")
        print(
            f"{index_path(folder)}: {len(index['plain'])} plain scenarios, {index['bases']} bases"
        )


if __name__ == "__main__":
    main()
