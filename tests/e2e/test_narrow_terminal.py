"""Issue 14 item 12: help, `suites`, `tools` and `glossary` read whole at 80 columns.

The commands run in a fresh interpreter whose `COLUMNS` is 80 before `toolplay.cli` is
imported (the consoles read the width once), each through Click's runner."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

COMMANDS = [
    ["--help"],
    *[[name, "--help"] for name in ("run", "validate", "suites", "tools", "score", "report")],
    ["compare", "--help"],
    ["suites"],
    ["tools"],
    ["tools", "send_message_with_phone_number"],
    ["tools", "search_reminder"],
    ["tools", "send_mesage"],
    ["run", "--suite", "tooltalk", "--out", "never"],
    ["glossary"],
]
SCRIPT = textwrap.dedent(
    """
    import json, sys
    from typer.testing import CliRunner
    from toolplay.cli import app
    found = []
    for args in json.loads(sys.argv[1]):
        result = CliRunner().invoke(app, args)
        found.append({"code": result.exit_code, "out": result.stdout, "err": result.stderr})
    print(json.dumps(found))
    """
)


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    env = {**os.environ, "COLUMNS": "80", "LINES": "50"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(COMMANDS)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
        cwd=tmp_path_factory.mktemp("narrow"),
    )
    results = json.loads(done.stdout.splitlines()[-1])
    return {" ".join(args): result for args, result in zip(COMMANDS, results, strict=True)}


def test_nothing_is_wider_than_80_columns_or_cut(outputs: dict[str, dict[str, Any]]) -> None:
    for command, result in outputs.items():
        for line in (result["out"] + result["err"]).splitlines():
            if line.startswith("error: "):
                continue  # an error is one line by contract (docs/cli.md)
            assert len(line) <= 80, f"{command}: {line!r}"
            assert "…" not in line, f"{command}: {line!r}"


def test_help_shows_long_option_names_whole(outputs: dict[str, dict[str, Any]]) -> None:
    text = outputs["run --help"]["out"]
    for option in ("--max-calls-per-turn", "--user-api-key-env", "--ci-resamples", "--option"):
        assert option in text


def test_suites_lists_counts_and_importers_with_their_argument(
    outputs: dict[str, dict[str, Any]],
) -> None:
    text = outputs["suites"]["out"]
    assert outputs["suites"]["code"] == 0
    assert "sandbox  2848 scenarios" in text
    assert "state_dependency 1744" in text and "single_tool_call 304" in text
    for usage in ("tooltalk:DIR", "autode:PATH", "autode-data:DIR"):
        assert f"  {usage}  " in text


def test_tools_show_parameters_and_one_tool_in_full(outputs: dict[str, dict[str, Any]]) -> None:
    listing = outputs["tools"]["out"]
    assert "send_message_with_phone_number(phone_number: string, content: string)" in listing
    assert re.search(r"^set_wifi_status\(\w+: boolean\)$", listing, re.M)
    one = outputs["tools send_message_with_phone_number"]["out"]
    assert "  phone_number: string · required" in one
    assert 'The recipient\'s phone number, e.g. "+15551234567".' in one
    assert "writes: messages" in one and "domain: messaging · action" in one
    optional = outputs["tools search_reminder"]["out"]
    assert "?" in optional.splitlines()[0] and "optional" in optional
    typo = outputs["tools send_mesage"]
    assert typo["code"] == 2 and typo["out"] == ""
    assert typo["err"].startswith("error: tool 'send_mesage': no such tool; did you mean")


def test_a_bare_importer_name_says_to_give_its_folder(outputs: dict[str, dict[str, Any]]) -> None:
    result = outputs["run --suite tooltalk --out never"]
    assert result["code"] == 2
    assert "tooltalk reads a folder: give it after the colon, --suite tooltalk:DIR" in result["err"]
    assert not Path("never").exists()


def test_the_glossary_shows_every_metric_name_and_meaning_whole(
    outputs: dict[str, dict[str, Any]],
) -> None:
    """Issue 24 item 4: six columns cut names ("milestone…") and left the meaning a few
    letters wide; at 80 columns each metric is a block, its words whole."""
    from support import CATALOG  # noqa: PLC0415
    from toolplay.report import glossary  # noqa: PLC0415

    text = outputs["glossary"]["out"]
    lines = text.splitlines()
    printed = set(" ".join(text.split()).split())
    for metric, scorer, meaning, *_ in glossary(CATALOG.scorers):
        name = metric.strip("`")
        assert any(line.startswith(f"{name}  ({scorer.strip('`')} ") for line in lines), name
        assert set(meaning.replace("`", "").split()) <= printed, meaning
