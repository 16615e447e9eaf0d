"""Write the index of every built-in variant suite (`data/<suite>.index.json`).

Run after changing the sandbox scenario files or how variants are generated:
`.venv/bin/python scripts/index_suites.py`. `tests/scenarios/test_lazy_suites.py` fails while
a shipped index differs from a fresh one.
"""

from __future__ import annotations

import json

from toolplay.catalog import build_catalog
from toolplay.scenarios import DATA, index_path, variant_index
from toolplay.scenarios._lazy import folder_index
from toolplay.scenarios._load import SCENARIO_SUFFIXES

VARIANT_SUITES = ("sandbox",)
FOLDER_SUITES = ("quick", "autode")


def main() -> None:
    """Rebuild and write each index."""
    catalog = build_catalog(installed=False)
    context = catalog.load_context()
    for name in FOLDER_SUITES:
        folder = DATA / name
        index_path(folder).unlink(missing_ok=True)  # load in full, not from the old index
        scenarios = list(catalog.load_suite(name).scenarios)
        index = folder_index(folder, scenarios, SCENARIO_SUFFIXES)
        index_path(folder).write_text(json.dumps(index, indent=0) + "\n", encoding="utf-8")
        print(f"{index_path(folder)}: {len(scenarios)} scenarios")
    for name in VARIANT_SUITES:
        folder = DATA / name
        index = variant_index(folder, context)
        index_path(folder).write_text(json.dumps(index, indent=0) + "\n", encoding="utf-8")
        print(
            f"{index_path(folder)}: {len(index['plain'])} plain scenarios, {index['bases']} bases"
        )


if __name__ == "__main__":
    main()
