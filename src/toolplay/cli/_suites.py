"""`toolplay validate`, `suites` and `tools`: look at suites and tools without running."""

from __future__ import annotations

from collections import Counter
from typing import Annotated, cast

import typer
from rich.table import Table

from toolplay.cli._app import _guard, app, catalog, console, err_console
from toolplay.scenarios import Suite, augmentation_of
from toolplay.validate import validate_suite


@app.command()
def validate(
    suite: Annotated[str, typer.Option(help="Suite name, NAME:ARG importer, or path.")] = "quick",
    mode: Annotated[str | None, typer.Option(help="static or dynamic (default: suite's).")] = None,
) -> None:
    """Check a suite: every file loads and the oracle scores perfectly on every scenario."""
    found = catalog()
    report = _guard(lambda: validate_suite(suite, mode, catalog=found))
    if report.failures:
        for failure in report.failures:
            err_console.print(f"[red]FAIL[/red] {failure}", highlight=False, soft_wrap=True)
        err_console.print(f"{len(report.failures)} problem(s) in {report.checked} scenario(s)")
        raise typer.Exit(1)
    console.print(f"ok: {report.checked} scenario(s) in suite {suite!r} passed validation")


@app.command()
def suites() -> None:
    """List the built-in suites and importers with scenario counts by category.

    Suites with generated variants (sandbox) also count scenarios by augmentation setting and
    world-state variant, and list the variants skipped as unsound; an exported suite
    (toolsandbox) lists the reference scenarios it left out and why.
    """
    table = Table("suite", "scenarios", "categories", "variants", "description")
    notes: list[str] = []
    found = catalog()
    for source in found.suites.values():
        name, description = source.name, source.description
        loaded = _guard(lambda name=name: found.load_suite(name))  # type: ignore[misc]
        counts: dict[str, int] = {}
        for scenario in loaded.scenarios:
            for category in scenario.categories:
                counts[category] = counts.get(category, 0) + 1
        cats = "\n".join(f"{k} {v}" for k, v in sorted(counts.items()))
        table.add_row(name, str(len(loaded)), cats, _variant_counts(loaded), description)
        skipped = cast(list[tuple[str, str]], loaded.extra.get("skipped_variants", []))
        notes += [f"{name}: skipped unsound variant {vid}: {why}" for vid, why in skipped]
        left_out = cast(list[tuple[str, str]], loaded.extra.get("left_out", []))
        notes += [f"{name}: left out {base}: {why}" for base, why in left_out]
    for source in found.importers.values():
        table.add_row(source.usage, "-", "-", "-", source.description)
    console.print(table)
    for note in notes:
        console.print(note, highlight=False, soft_wrap=True)


def _variant_counts(suite: Suite) -> str:
    """Base and world-state counts and scenarios per augmentation setting ('-' if none)."""
    if not any(s.augmentation or s.metadata.get("state_variant") for s in suite.scenarios):
        return "-"
    by_augmentation = Counter(augmentation_of(s) for s in suite.scenarios)
    plain = [s for s in suite.scenarios if not s.augmentation]
    states = Counter(str(s.metadata.get("state_variant")) for s in plain)
    states.pop("None", None)
    parts = [f"base {len(plain) - sum(states.values())}"]
    parts += [f"~{k} {v}" for k, v in sorted(states.items())]
    parts += [f"@{k} {v}" for k, v in by_augmentation.items()]
    return "\n".join(parts)


@app.command()
def tools(
    suite: Annotated[str | None, typer.Option(help="Only tools used by this suite.")] = None,
) -> None:
    """List the available tools: name, domain, action or read, tables, description."""
    found = catalog()
    names = list(found.tools.domains)
    if suite:
        loaded = _guard(lambda: found.load_suite(suite))
        names = sorted({d for s in loaded.scenarios for d in s.world.domains})
    registry = _guard(lambda: found.tools.registry(names))
    table = Table("tool", "domain", "kind", "reads", "writes", "description")
    for spec in registry.tools.values():
        table.add_row(
            spec.name,
            spec.domain,
            spec.kind,
            ",".join(sorted(spec.meta.reads)),
            ",".join(sorted(spec.meta.writes)),
            spec.description.splitlines()[0],
        )
    console.print(table)
