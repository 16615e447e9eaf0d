"""The documentation names only what exists (issue 21), and docs/cli.md is the CLI's own.

The check itself is `docs_check.py`; the last tests feed it made-up commands, options and
links to show that it fails on each.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
import typer

from docs_check import ROOT, Checker, anchors_of, cli_model, documents, slug
from toolplay.cli import app

CLI = cli_model()
TOPICS = ("getting-started", "cli", "scenarios", "results", "comparing", "executors", "inspect")
TOPICS += ("extending", "architecture", "audit")


def generator() -> ModuleType:
    """scripts/gen_cli_docs.py, imported as a module."""
    path = ROOT / "scripts" / "gen_cli_docs.py"
    spec = importlib.util.spec_from_file_location("gen_cli_docs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_every_command_option_and_link_the_docs_name_exists() -> None:
    checker = Checker(CLI)
    problems = [str(problem) for path in documents() for problem in checker.check(path)]
    assert problems == []


def test_the_docs_are_where_the_readme_says() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in documents()}
    assert {f"docs/{topic}.md" for topic in TOPICS} <= names
    methods = {f"src/toolplay/methods/{m}/README.md" for m in ("autode", "toolsandbox", "tooltalk")}
    assert methods | {"README.md", "bench/README.md"} <= names
    assert all(path.is_file() for path in documents())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    for topic in TOPICS:
        assert f"(docs/{topic}.md)" in readme, topic


def test_the_quick_start_is_the_two_make_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start\n", 1)[1].split("\n## ", 1)[0]
    block = section.split("```bash\n", 1)[1].split("```", 1)[0]
    assert [line.split("#")[0].strip() for line in block.splitlines()] == ["make run", "make test"]


def test_docs_cli_md_is_what_the_generator_writes() -> None:
    path = ROOT / "docs" / "cli.md"
    text = path.read_text(encoding="utf-8")
    assert generator().updated(text) == text, (
        "docs/cli.md is out of date: .venv/bin/python scripts/gen_cli_docs.py"
    )


def test_the_generated_reference_has_every_command_and_option() -> None:
    text = generator().render()
    group = typer.main.get_command(app)
    assert sorted(CLI.commands) == sorted(
        group.list_commands(group.make_context("t", [], resilient_parsing=True))
    )
    for name, options in CLI.commands.items():
        section = text.split(f"### `toolplay {name}`\n", 1)[1].split("\n### ", 1)[0]
        for option in options:
            if option != "--help":
                assert f"`{option}" in section or f"/ {option}" in section, (name, option)


def test_the_generated_reference_keeps_the_hand_written_text() -> None:
    gen = generator()
    text = "# Title\n\nBy hand.\n\n" + gen.START + "\nold\n" + gen.END + "\n\nAfter.\n"
    new = gen.updated(text)
    assert new.startswith("# Title\n\nBy hand.\n\n" + gen.START)
    assert new.endswith(gen.END + "\n\nAfter.\n") and "\nold\n" not in new


def check(text: str) -> list[str]:
    """The problems the checker finds in `text`, a document at the repository's root."""
    return [problem.what for problem in Checker(CLI).check_text(text, "made-up.md", ROOT)]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("```bash\ntoolplay run --suite quick --made-up 3\n```\n", "--made-up: not an option of"),
        ("Run `toolplay run --made-up-option N`.", "--made-up-option: not an option of"),
        ("Run `toolplay frobnicate RUN`.", "`toolplay frobnicate`: no such command"),
        ("`toolplay report RUN --trials 3`", "--trials: not an option of `toolplay report`"),
        ("`toolplay --made-up run`", "--made-up: no such global option of toolplay"),
        ("Pass `--made-up-option` to run.", "--made-up-option: no toolplay command has this"),
        ("Pass --made-up-option to run.", "--made-up-option: no toolplay command has this"),
        ("`--option no_such_setting=1`", "--option no_such_setting=: no such setting"),
        ("`toolplay run --option no_such=1`", "--option no_such=: no such setting"),
        ("```bash\nrun  # or pass --made-up\n```\n", "--made-up: no toolplay command"),
        ("`python -m toolplay.testing --made-up 1`", "--made-up: not an option of `python -m"),
        ("`.venv/bin/python scripts/gen_cli_docs.py --made-up`", "--made-up: not an option"),
        ("```bash\ninspect eval toolplay/suite --made-up 1\n```\n", "--made-up: not an option of"),
        ("See [the CLI](docs/no-such-file.md).", "link to docs/no-such-file.md: no such file"),
        (
            "See [the CLI](docs/cli.md#no-such-heading).",
            "link to docs/cli.md#no-such-heading: no heading",
        ),
        ("# Title\n\nSee [below](#no-such-heading).", "link to #no-such-heading: no heading"),
    ],
)
def test_the_checker_fails_on_what_does_not_exist(text: str, problem: str) -> None:
    found = check(text)
    assert len(found) == 1 and found[0].startswith(problem), found


def test_the_checker_passes_what_exists() -> None:
    text = (
        "# Title\n\n## Next part\n\n"
        "`toolplay run --suite quick --option prompt_context=true --ci-level 0.9`, "
        "`toolplay --plugin coin.py run --assistant coin:steady`, `toolplay COMMAND --help`, "
        "`toolplay run [--mode static\\|dynamic]`, `--concurrency`, a `--ci-*` flag, "
        "`--option user_<name>=...`, `python -m toolplay.testing --latency 0.05 --rate-limit 1`, "
        "`mypy --strict`, Inspect's `--epochs`; [up](#next-part), [cli](docs/cli.md#toolplay-run), "
        "[web](https://example.org/x#y).\n\n"
        "```bash\ntoolplay compare runs/a runs/b --out compare.html  # or --human FILE\n"
        "inspect eval toolplay/sandbox --model mockllm/model\n```\n\n"
        "```python\n# toolplay --not-checked in Python\n```\n"
    )
    assert check(text) == []


def test_anchors_are_githubs() -> None:
    assert slug("Milestone scenario format (`evaluation: milestones`)") == (
        "milestone-scenario-format-evaluation-milestones"
    )
    assert slug("The paper's setup") == "the-papers-setup"
    assert slug("Harness CPU per model call (issue 16)") == "harness-cpu-per-model-call-issue-16"
    text = "# A\n\n## Notes\n\n```\n# not a heading\n```\n\n## Notes\n"
    assert anchors_of(text) == {"a", "notes", "notes-1"}


def test_a_real_document_with_a_made_up_option_fails(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    broken = readme.replace("--assistant no-call", "--assistant no-call --made-up-flag", 1)
    assert broken != readme
    assert check(readme) == []
    assert check(broken) == ["--made-up-flag: not an option of `toolplay run`"]
