"""The AutoDE reference's texts shipped as data: where they were read, licence, provenance."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from toolplay.methods.autode import reference_texts
from toolplay.methods.autode._reference import DATA, REFERENCE_FILE

SNAPSHOT = Path(__file__).resolve().parents[2] / ".." / "shared" / "autode-ref"
PROVENANCE = json.loads((DATA / "PROVENANCE.json").read_text())
EXPORT = json.loads(REFERENCE_FILE.read_text())


def snapshot() -> Path:
    if not (SNAPSHOT / "evaluators" / "eval.py").is_file():
        pytest.skip(f"the AutoDE code snapshot is not at {SNAPSHOT.resolve()} (../shared)")
    return SNAPSHOT.resolve()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_export_is_the_file_its_provenance_names() -> None:
    assert PROVENANCE["reference.json"] == sha256(REFERENCE_FILE)
    assert set(PROVENANCE["files"]) == {
        "evaluators/eval.py",
        "utils/crawl_utils.py",
        "utils/utils.py",
    }


def test_the_licence_and_eval_py_are_the_snapshot_s() -> None:
    root = snapshot()
    assert (DATA / "LICENSE").read_bytes() == (root / "LICENSE").read_bytes()
    assert PROVENANCE["files"]["evaluators/eval.py"]["sha256"] == sha256(
        root / "evaluators" / "eval.py"
    )


def test_every_text_of_eval_py_is_on_the_line_it_was_read_from() -> None:
    lines = (snapshot() / "evaluators" / "eval.py").read_text().splitlines()
    entries = [v for v in EXPORT["eval"].values() if "value" in v]
    entries += list(EXPORT["eval"]["family_tags"].values())
    assert len(entries) == 13
    for entry in entries:
        source = entry["value"].encode("unicode_escape").decode()
        assert source in lines[entry["line"] - 1], entry


def test_the_prompt_files_are_recognised_by_their_digest(autode_dir: Path) -> None:
    texts = reference_texts()
    for path in sorted((autode_dir / "prompts").glob("*.txt")):
        assert texts.prompt_file(path.read_text()) == f"prompts/{path.name}"
    assert texts.prompt_file("You are a helpful assistant.") is None


def test_the_client_texts_agree_with_what_the_prompts_ask_for(autode_dir: Path) -> None:
    # utils/ is not in the snapshot: its texts are checked against the prompts that rely on
    # them (and, request by request, by test_reference_requests).
    texts = reference_texts()
    prompts = autode_dir / "prompts"
    llama = (prompts / "prompt_eng_system_llama_v2.txt").read_text()
    substitute = (prompts / "prompt_eng_system_llama_v2_static_substitute.txt").read_text()
    gpt = (prompts / "prompt_eng_system_v1.txt").read_text()
    assert texts.api_doc_placeholder in llama and texts.call_marker in llama
    assert texts.call_pattern.search(llama) is not None  # the prompt's own example call
    assert texts.submit_suffix.strip() in substitute
    assert texts.stop_marker in gpt and texts.family_tags["gpt"] in gpt
    assert texts.unclosed_call_arguments == json.dumps({})
