"""The `inspect` extra costs nothing to those who do not use it: the CLI never imports it."""

from __future__ import annotations

import subprocess
import sys

from typer.testing import CliRunner

from toolplay.cli import app


def test_the_cli_does_not_import_inspect_ai() -> None:
    code = (
        "import sys; import toolplay.cli; from toolplay.catalog import build_catalog; "
        "build_catalog(); print(sorted(m for m in sys.modules if m.startswith('inspect_ai')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_import_inspect_is_listed_and_explains_itself() -> None:
    result = CliRunner().invoke(app, ["import-inspect", "--help"])
    assert result.exit_code == 0
    assert "Inspect log" in result.output


def test_import_inspect_refuses_a_file_that_is_no_log(tmp_path: object) -> None:
    from pathlib import Path

    bogus = Path(str(tmp_path)) / "not-a-log.eval"
    bogus.write_text("hello", encoding="utf-8")
    result = CliRunner().invoke(app, ["import-inspect", str(bogus), "--out", str(bogus) + ".run"])
    assert result.exit_code == 2
    assert "not-a-log.eval" in result.output or "inspect extra" in result.output
