"""Capture the requests the ToolTalk reference sends, as digests for toolplay's parity tests.

    REF_VENV/bin/python scripts/tooltalk_export/capture.py [REF_DIR] [--data DIR] [--out FILE]

REF_VENV is a Python environment with the reference's client library (`pip install 'openai<1'
tqdm numpy`; sent2vec is replaced by a stub: prediction never embeds text). For each setting of
`_policies.SETTINGS` and a few conversations of the official data (DIR, default
`../shared/tooltalk`), the reference's own `evaluate_openai.main()` runs in `--modes predict` with
openai 0.28's `APIRequestor.request_raw` replaced: the request body is built exactly as it would
be sent (`json.dumps(params)`), recorded, and answered with the setting's canned answer (a
`function_call` or a text, `_policies`) instead of going anywhere (any other network use raises).

The requests embed the dataset's texts, which stay out of the repository: FILE (default
`tests/tooltalk/data/reference_requests.json`) holds, per setting and conversation, each
request's position (assistant turn, answers already given) and the sha256 of its exact body.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import platform
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _policies import POLICIES, SETTINGS, position  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
COMMIT = "e05f4ce6132c80ed33392b81535b077d56ab28fd"
PER_SETTING = 6
"""Conversations captured per setting (spread over both splits, a different set each)."""


def chosen(files: list[str], setting_number: int) -> list[str]:
    """The conversations captured for the setting numbered `setting_number`."""
    step = max(len(files) // PER_SETTING, 1)
    picks = {(setting_number + j * step) % len(files) for j in range(PER_SETTING)}
    return [files[i] for i in sorted(picks)]


def load_reference(ref: Path) -> Any:
    """The reference's `evaluate_openai`, its network cut and sent2vec stubbed."""
    sent2vec = types.ModuleType("sent2vec")
    vectorizer = types.ModuleType("sent2vec.vectorizer")
    vectorizer.Vectorizer = object  # type: ignore[attr-defined]
    sent2vec.vectorizer = vectorizer  # type: ignore[attr-defined]
    sys.modules.update({"sent2vec": sent2vec, "sent2vec.vectorizer": vectorizer})
    sys.path.insert(0, str(ref / "src"))
    import requests

    def no_network(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("capture: network access attempted")

    requests.Session.request = no_network  # type: ignore[method-assign]
    os.environ.setdefault("TQDM_DISABLE", "1")
    from tooltalk.evaluation import evaluate_openai

    logging.getLogger().setLevel(logging.WARNING)  # the reference logs every file at INFO
    return evaluate_openai


class Recorder:
    """Stands in for openai 0.28's `APIRequestor.request_raw`: records, answers from a policy."""

    def __init__(self) -> None:
        self.bodies: list[str] = []
        self.answer: Any = None

    def install(self) -> None:
        import openai.api_requestor as api_requestor
        import requests
        from requests.structures import CaseInsensitiveDict

        recorder = self

        def request_raw(
            self: Any,
            method: str,
            url: str,
            *,
            params: Any = None,
            supplied_headers: Any = None,
            files: Any = None,
            stream: bool = False,
            request_id: Any = None,
            request_timeout: Any = None,
        ) -> Any:
            _, _, data = self._prepare_request_raw(
                url, supplied_headers, method, params, files, request_id
            )
            body = data.decode("utf-8")
            recorder.bodies.append(body)
            message = recorder.answer(json.loads(body))
            reason = "function_call" if "function_call" in message else "stop"
            answer = {
                "id": "capture",
                "object": "chat.completion",
                "created": 0,
                "model": "m",
                "choices": [{"index": 0, "message": message, "finish_reason": reason}],
                "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
            }
            response = requests.Response()
            response.status_code = 200
            response._content = json.dumps(answer).encode("utf-8")
            response.headers = CaseInsensitiveDict({"Content-Type": "application/json"})
            response.encoding = "utf-8"
            return response

        api_requestor.APIRequestor.request_raw = request_raw


def capture(
    reference: Any, recorder: Recorder, data: Path, path: Path, setting: dict[str, Any]
) -> list[dict[str, Any]]:
    """The requests of one conversation under one setting: position and body digest."""
    conversation = json.loads(path.read_text(encoding="utf-8"))
    recorder.bodies = []
    recorder.answer = POLICIES[setting["policy"]](conversation)
    with tempfile.TemporaryDirectory() as tmp:
        flags = [
            "--dataset",
            str(path),
            "--database",
            str(data / "databases"),
            "--model",
            "gpt-4",
            "--output_dir",
            tmp,
            "--modes",
            "predict",
            "--reset",
            "--api_mode",
            setting.get("api_mode", "all"),
        ]
        if setting.get("disable_documentation"):
            flags.append("--disable_documentation")
        reference.main(flags)
    out = []
    for body in recorder.bodies:
        turn, step = position(json.loads(body))
        out.append(
            {"turn": turn, "step": step, "sha256": hashlib.sha256(body.encode("utf-8")).hexdigest()}
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "ref",
        nargs="?",
        type=Path,
        default=Path(os.environ.get("TOOLTALK_REF", str(REPO.parent / "shared" / "tooltalk-ref"))),
    )
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "tooltalk")
    parser.add_argument(
        "--out", type=Path, default=REPO / "tests" / "tooltalk" / "data" / "reference_requests.json"
    )
    args = parser.parse_args()
    reference = load_reference(args.ref)
    recorder = Recorder()
    recorder.install()
    os.environ["OPENAI_KEY"] = "sk-capture-no-network"
    files = sorted(
        f"{split.name}/{path.name}"
        for split in args.data.iterdir()
        if split.is_dir() and split.name != "databases"
        for path in split.glob("*.json")
    )
    import openai

    result: dict[str, Any] = {
        "reference": "microsoft/ToolTalk",
        "commit": COMMIT,
        "how": "scripts/tooltalk_export/capture.py: the reference's evaluate_openai.main "
        "(--modes predict, --model gpt-4) with openai's request_raw replaced; answers from "
        "scripts/tooltalk_export/_policies.py; sha256 of each request body's UTF-8 bytes",
        "python": platform.python_version(),
        "openai": openai.version.VERSION,
        "settings": SETTINGS,
        "requests": {},
    }
    for number, (name, setting) in enumerate(SETTINGS.items()):
        result["requests"][name] = {
            file: capture(reference, recorder, args.data, args.data / file, setting)
            for file in chosen(files, number)
        }
        count = sum(len(v) for v in result["requests"][name].values())
        print(f"{name}: {count} requests", file=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
