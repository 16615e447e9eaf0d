"""`toolplay validate`, `suites` and `tools`: look at suites and tools without running."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from difflib import get_close_matches
from typing import Annotated, Any, cast

import typer
from rich.text import Text

from toolplay.cli._app import _guard, app, catalog, console, err_console
from toolplay.cli._listing import detail, heading, paragraph, signature, type_of
from toolplay.errors import InputError
from toolplay.scenarios import ScenarioEntry


@app.command()
def validate(
    suite: Annotated[str, typer.Option(help="Suite name, NAME:ARG importer, or path.")] = "quick",
    mode: Annotated[str | None, typer.Option(help="static or dynamic (default: suite's).")] = None,
) -> None:
    """Check a suite: every file loads and the oracle scores perfectly on every scenario."""
    from toolplay.validate import validate_suite  # noqa: PLC0415 (start-up of `suites`)

    found = catalog()
    report = _guard(lambda: validate_suite(suite, mode, catalog=found))
    for known in report.known:
        err_console.print(f"[yellow]KNOWN[/yellow] {known}", highlight=False, soft_wrap=True)
    if report.failures:
        for failure in report.failures:
            err_console.print(f"[red]FAIL[/red] {failure}", highlight=False, soft_wrap=True)
        err_console.print(f"{len(report.failures)} problem(s) in {report.checked} scenario(s)")
        raise typer.Exit(1)
    kept = ""
    if report.known:
        kept = f" ({len(report.known)} reference defect(s) kept; played as toolplay shows them)"
    console.print(f"ok: {report.checked} scenario(s) in suite {suite!r} passed validation{kept}")


@app.command()
def suites() -> None:
    """List the built-in suites and importers with scenario counts by category.

    Suites with generated variants (sandbox) also count scenarios by augmentation setting and
    world-state variant, and list the variants skipped as unsound; an exported suite
    (toolsandbox) counts the reference scenarios it left out, by reason.
    """
    notes: list[str] = []
    found = catalog()
    for source in found.suites.values():
        name = source.name
        loaded = _guard(lambda name=name: found.load_suite(name))  # type: ignore[misc]
        entries = loaded.entries()  # no scenario is built (a lazy suite reads its index)
        counts = Counter(c for entry in entries for c in entry.categories)
        heading(console, name, f"{len(loaded)} scenarios", source.description)
        detail(console, "categories", [f"{k} {v}" for k, v in sorted(counts.items())])
        detail(console, "variants", _variant_counts(entries))
        skipped = cast(list[tuple[str, str]], loaded.extra.get("skipped_variants", []))
        notes += [f"{name}: skipped unsound variant {vid}: {why}" for vid, why in skipped]
        left_out = cast(list[tuple[str, str]], loaded.extra.get("left_out", []))
        if left_out:
            reasons = Counter(why.split(":")[0] for _, why in left_out)
            listed = "; ".join(f"{n} {why}" for why, n in reasons.most_common())
            notes.append(
                f"{name}: {len(left_out)} reference scenarios left out ({listed}); "
                f"each with its reason in {loaded.source}/left_out.json"
            )
    console.print()
    console.print(Text("Importers (give the file or folder after the colon):", style="bold"))
    for source in found.importers.values():
        heading(console, source.usage, source.description, indent=2)
    if notes:
        console.print()
    for note in notes:
        heading(console, note)


def _variant_counts(entries: Sequence[ScenarioEntry]) -> list[str]:
    """Base and world-state counts and scenarios per augmentation setting (none: empty)."""
    if not any(e.augmentation or e.state_variant for e in entries):
        return []
    by_augmentation = Counter(e.setting for e in entries)
    plain = [e for e in entries if not e.augmentation]
    states = Counter(e.state_variant for e in plain if e.state_variant)
    parts = [f"base {len(plain) - sum(states.values())}"]
    parts += [f"~{k} {v}" for k, v in sorted(states.items())]
    parts += [f"@{k} {v}" for k, v in by_augmentation.items()]
    return parts


@app.command()
def tools(
    name: Annotated[
        str | None, typer.Argument(help="One tool to show in full (default: list all).")
    ] = None,
    suite: Annotated[str | None, typer.Option(help="Only tools used by this suite.")] = None,
) -> None:
    """List the tools with their parameters (`?` marks optional ones), or one tool in full."""
    found = catalog()
    names = list(found.tools.domains)
    if suite:
        loaded = _guard(lambda: found.load_suite(suite))
        names = sorted({d for s in loaded.scenarios for d in s.world.domains})
    registry = _guard(lambda: found.tools.registry(names))
    if name is not None:
        spec = registry.tools.get(name)
        if spec is None:
            close = get_close_matches(name, list(registry.tools), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else "; see 'toolplay tools'"
            _guard(lambda: _refuse(f"tool {name!r}: no such tool{hint}"))
            return
        _tool_in_full(spec.schema, spec.domain, spec.kind, spec.meta.reads, spec.meta.writes)
        return
    for spec in registry.tools.values():
        heading(console, signature(spec.schema))
        tables = [f"reads {','.join(sorted(spec.meta.reads))}" if spec.meta.reads else ""]
        tables.append(f"writes {','.join(sorted(spec.meta.writes))}" if spec.meta.writes else "")
        detail(console, "", [spec.domain, spec.kind, *tables])
        paragraph(console, spec.description.splitlines()[0], 2)


def _refuse(message: str) -> None:
    raise InputError(message)


def _tool_in_full(schema: dict[str, Any], domain: str, kind: str, reads: Any, writes: Any) -> None:
    """Everything the assistant is shown about one tool, plus what it touches."""
    function = schema["function"]
    heading(console, signature(schema))
    detail(console, "domain", [domain, kind])
    detail(console, "reads", sorted(reads))
    detail(console, "writes", sorted(writes))
    paragraph(console, str(function.get("description", "")), 2)
    parameters = function.get("parameters") or {}
    required = set(parameters.get("required") or [])
    for pname, pspec in (parameters.get("properties") or {}).items():
        need = "required" if pname in required else "optional"
        default = f"default {pspec['default']!r}" if "default" in pspec else ""
        detail(console, pname, [type_of(pspec), need, default])
        if pspec.get("description"):
            paragraph(console, str(pspec["description"]), 6)
