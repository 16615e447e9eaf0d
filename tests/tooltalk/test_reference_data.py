"""The reference's exported texts (`methods/tooltalk/data/`): whole, licensed, current."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolplay.methods.tooltalk._texts import FOLDER, reference_texts

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO / ".." / "shared" / "tooltalk-ref"


def test_the_data_is_whole() -> None:
    texts = reference_texts()
    assert len(texts.functions) == len(texts.functions_without_documentation) == 28
    assert sorted(texts.order) == sorted(texts.functions) == sorted(texts.apis)
    assert sorted(n for apis in texts.suites.values() for n in apis) == sorted(texts.order)
    assert set(texts.executor) == {"unknown_api", "not_logged_in", "second_login", "parse_failure"}
    assert texts.opens_session == {"UserLogin", "RegisterUser"}
    assert texts.closes_session == {"LogoutUser", "DeleteAccount"}
    filled = texts.system_template.format(location="L", timestamp="T", username=None)
    assert filled.endswith("None") and "L" in filled and "T" in filled
    for name, doc in texts.functions.items():
        assert doc["name"] == name
        blank = texts.functions_without_documentation[name]
        assert blank["description"] == ""
        assert all(p["description"] == "" for p in blank["parameters"]["properties"].values())
        assert list(blank["parameters"]["properties"]) == list(doc["parameters"]["properties"])


def test_the_docs_serialise_to_the_bytes_the_reference_sent() -> None:
    texts = reference_texts()
    body = json.dumps([texts.functions[name] for name in texts.order])
    assert len(body) == 10_796  # the `functions` array of every captured request
    assert '"required": ["name", "event_type", "start_time", "end_time"]}' in body


def test_the_licence_and_provenance_come_with_it() -> None:
    provenance = json.loads((FOLDER / "PROVENANCE.json").read_text())
    assert provenance["commit"].startswith("e05f4ce")
    assert "Copyright (c) Microsoft Corporation." in (FOLDER / "LICENSE").read_text()
    assert (FOLDER / "NOTICE").is_file()
    for name, digest in provenance["files_sha256"].items():
        assert hashlib.sha256((FOLDER / name).read_bytes()).hexdigest() == digest, name


def test_the_export_is_current_with_the_reference_checkout() -> None:
    if not (REFERENCE / "src" / "tooltalk").is_dir():
        pytest.skip(f"no ToolTalk reference checkout at {REFERENCE.resolve()}")
    exporter = REPO / "scripts" / "tooltalk_export"
    result = subprocess.run(
        [sys.executable, str(exporter), str(REFERENCE), "--verify"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
