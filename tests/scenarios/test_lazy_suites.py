"""Issue 14 item 15: the sandbox suite builds only the scenarios a command uses.

The index shipped beside the scenario files must be current, and every lazily built scenario
must be exactly the one the full expansion gives, in the same place."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from support import CATALOG, expand_variants, load_scenario_paths
from toolplay.runs import select_scenarios
from toolplay.scenarios import DATA, LazyScenarios, index_path, variant_index
from toolplay.scenarios._variant_suite import lazy_variant_scenarios

SANDBOX = DATA / "sandbox"


@pytest.fixture(scope="module")
def eager() -> list:  # type: ignore[type-arg]
    bases = load_scenario_paths([SANDBOX])
    return list(expand_variants(bases, source=str(SANDBOX)).scenarios)


def test_the_shipped_index_is_current() -> None:
    fresh = variant_index(SANDBOX, CATALOG.load_context())
    shipped = json.loads(index_path(SANDBOX).read_text(encoding="utf-8"))
    assert shipped == fresh, "run scripts/index_suites.py after changing the sandbox files"


def test_lazy_scenarios_are_those_of_the_full_expansion(eager: list) -> None:  # type: ignore[type-arg]
    suite = CATALOG.load_suite("sandbox")
    assert isinstance(suite.scenarios, LazyScenarios)
    assert [e.id for e in suite.entries()] == [s.id for s in eager]
    assert suite.scenarios.built == 0
    picks = {0, 1, len(eager) - 1, *random.Random(14).sample(range(len(eager)), 60)}
    for i in sorted(picks):
        assert suite.scenarios[i].model_dump() == eager[i].model_dump(), eager[i].id
    entry = suite.entries()[len(eager) - 1]
    assert entry.categories == tuple(eager[-1].categories)


def test_listing_and_selecting_build_only_what_is_used() -> None:
    suite = CATALOG.load_suite("sandbox")
    assert isinstance(suite.scenarios, LazyScenarios)
    assert len(suite) == 2848 and len(suite.entries()) == 2848
    assert suite.scenarios.built == 0  # what `toolplay suites` reads
    assert [s.id for s in select_scenarios(suite, 1)] == [suite.entries()[0].id]
    assert suite.scenarios.built == 1
    chosen = select_scenarios(suite, 3, ["distractors_3+scrambled_names"])
    assert [s.augmentation for s in chosen] == ["distractors_3+scrambled_names"] * 3
    assert suite.scenarios.built == 4


def test_an_index_of_other_files_is_not_used(tmp_path: Path) -> None:
    folder = tmp_path / "sandbox"
    shutil.copytree(SANDBOX, folder)
    shutil.copy(index_path(SANDBOX), index_path(folder))
    context = CATALOG.load_context()
    assert lazy_variant_scenarios(folder, context) is not None
    with (folder / "messaging.yaml").open("a", encoding="utf-8") as handle:
        handle.write("\n# edited\n")
    assert lazy_variant_scenarios(folder, context) is None  # the suite is built in full


@pytest.mark.parametrize("name", ["quick", "autode"])
def test_folder_suites_list_from_a_current_index_without_loading(name: str) -> None:
    from toolplay.scenarios._lazy import folder_index
    from toolplay.scenarios._load import SCENARIO_SUFFIXES

    suite = CATALOG.load_suite(name)
    assert isinstance(suite.scenarios, LazyScenarios)
    entries = suite.entries()
    assert suite.scenarios.built == 0  # `toolplay suites` builds nothing
    built = list(suite.scenarios)
    assert [e.id for e in entries] == [s.id for s in built]
    shipped = json.loads(index_path(DATA / name).read_text(encoding="utf-8"))
    assert shipped == folder_index(DATA / name, built, SCENARIO_SUFFIXES), (
        "run scripts/index_suites.py after changing the suite's files"
    )


def test_a_scenario_built_elsewhere_than_its_entry_is_refused() -> None:
    from toolplay.scenarios._lazy import IndexStaleError, ScenarioEntry

    quick = list(CATALOG.load_suite("quick").scenarios)
    entries = [ScenarioEntry.of(s) for s in quick]
    swapped = LazyScenarios(entries, lambda i: quick[(i + 1) % len(quick)])
    with pytest.raises(IndexStaleError, match="the index is stale; run scripts/index_suites.py"):
        swapped[0]
