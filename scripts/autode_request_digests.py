"""Digests of the AutoDE reference's own requests, for toolplay's parity tests.

    python scripts/autode_request_digests.py CAPTURES

CAPTURES is a folder of captures of the reference's `evaluators/eval.py` run unchanged, its
model clients patched to record each request and answer it with canned text
(`<setting>/<variant>.jsonl`, one line per dialogue with its `requests`: `role`, `transport`,
`body`; `<variant>.meta.json` with the eval.py arguments `argv_run`). For a few dialogues per
setting it writes `tests/autode/data/reference_requests.json`: per request its role, its index
among that role's requests, and the SHA-256 of what it carries (the request bodies embed the
dataset's texts, which the repository must not hold). What a request carries, so that the model
name is the only thing left out: an OpenAI SDK body without its `model`; the `/generate`
server's `{"dialogs": [messages]}` as `{"messages": messages}`, and the Claude proxy's body as
`{"messages": messages}` (both as an OpenAI-compatible endpoint gets them); the keys left out of
these two (`do_function_call`, `max_tokens_to_sample`) are listed with the request. The digest
is of `json.dumps(content)` (json's defaults: the bytes both sides put on the wire).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "autode" / "data" / "reference_requests.json"
PICK = 4
"""Dialogues per setting and variant: the first two, the first whose static history has
several turns, and the first with a boolean slot."""


def content(request: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """What a captured request carries (module docstring) and the wire-only keys left out."""
    body, transport = request["body"], request["transport"]
    if transport == "generate":
        return {"messages": body["dialogs"][0]}, [k for k in body if k != "dialogs"]
    if transport == "claude-proxy":
        return {"messages": body["messages"]}, [k for k in body if k not in ("messages", "model")]
    return {k: v for k, v in body.items() if k != "model"}, []


def digest(value: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(value).encode("utf-8")).hexdigest()


def picked(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    chosen = lines[:2]
    several = [line for line in lines if len(line["result"]["content"]) >= 3]
    boolean = [line for line in lines if "boolean" in json.dumps(line["requests"][0]["body"])]
    for extra in (several[:1], boolean[:1]):
        chosen += [line for line in extra if line not in chosen]
    return chosen[:PICK]


def setting_of(meta: dict[str, Any]) -> dict[str, Any]:
    argv = meta["argv_run"]

    def value(key: str) -> str | None:
        return argv[argv.index(key) + 1] if key in argv else None

    prompt = str(value("--assistant_prompt_path"))
    return {
        "assistant_prompt": prompt.replace("static_workaround/", ""),
        "user_prompt": value("--user_prompt_path"),
        "static": "--static_test" in argv,
        "assistant_agent": value("--assistant_agent"),
        "user_agent": value("--user_agent"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("captures", type=Path)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    settings: dict[str, Any] = {}
    for folder in sorted(p for p in args.captures.iterdir() if p.is_dir()):
        for capture in sorted(folder.glob("*.jsonl")):
            meta_file = capture.with_suffix(".meta.json")
            lines = [json.loads(x) for x in capture.read_text().splitlines() if x.strip()]
            if not lines or not meta_file.is_file():
                continue  # a setting the reference cannot run, or not a capture
            meta = json.loads(meta_file.read_text())
            entry = settings.setdefault(folder.name, {**setting_of(meta), "variants": {}})
            dialogues = []
            for line in picked(lines):
                counted = {"assistant": 0, "user": 0}
                requests = []
                for request in line["requests"]:
                    carried, left_out = content(request)
                    role = request["role"]
                    requests.append(
                        {
                            "role": role,
                            "k": counted[role],
                            "sha256": digest(carried),
                            **({"wire_only": left_out} if left_out else {}),
                        }
                    )
                    counted[role] += 1
                dialogues.append({"uuid": line["uuid"], "requests": requests})
            entry["variants"][capture.stem] = dialogues
    data = {
        "about": (
            "SHA-256 of what the AutoDE reference's eval.py sends (the model name left out), "
            "per request, for a few dialogues per setting; written by "
            "scripts/autode_request_digests.py from captures of the reference's own code. The "
            "canned answers: tests/autode/test_reference_requests.py."
        ),
        "settings": settings,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    total = sum(
        len(d["requests"]) for s in settings.values() for v in s["variants"].values() for d in v
    )
    print(f"wrote {args.out}: {len(settings)} settings, {total} requests")


if __name__ == "__main__":
    main()
