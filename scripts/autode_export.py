"""Export the texts AutoDE's code puts into requests and records, as data for toolplay.

    python scripts/autode_export.py --ref ../shared/autode-ref --utils CHECKOUT \
        --prompts ../shared/autode/prompts

writes `src/toolplay/methods/autode/data/`: `reference.json` (every text with the file and line
it was read from), `LICENSE` (the reference's MIT licence) and `PROVENANCE.json` (the commit and
SHA-256 of every file read).

Where the texts live. The reference (hlmu/AutoDE) builds its requests in two places:
`evaluators/eval.py` (the chats: the user agent's opener and briefing, the `{{question}}`
placeholder, the prompt files' family tags, the recorded failure reasons, the API sheet's name)
and `utils/` (the model clients and the API-list reader: the `SUBMIT API` cue, the `<func>` call
pattern and what a reply without its closing tag becomes, the `[DONE]` stop marker, the
`{{api_doc}}` placeholder; the boolean parameters, the enums, the slot marks and the sentence
about optional slots of the function schemas; the gpt deployment's model snapshot). The code
snapshot toolplay's tests read (`--ref`, commit 952086b) holds `evaluators/` only; `utils/` is
read from a checkout of the public repository that has it (`--utils`, commit 565bcaa, whose
`evaluators/eval.py` is byte-identical to the snapshot's). Each value is found by its place in
the code's syntax tree (e.g. the only `+=` of a literal in the client module; the pattern
assigned in `extract_func_content`), and the shape around it is checked, so a changed reference
fails here instead of exporting the wrong text. Nothing is typed in this script.

The prompt files are not exported: they are data of the user's AutoDE checkout, which toolplay
reads from `autode-data:DIR`'s `prompts/`. Only their SHA-256 is recorded (`--prompts`), so a
run can tell whether the prompt it was given is one of the reference's (`paper_setup`).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "toolplay" / "methods" / "autode" / "data"
SNAPSHOT_COMMIT = "952086b"
UTILS_COMMIT = "565bcaa"


class ExportError(SystemExit):
    """The reference's code no longer has the shape this exporter reads."""


class Source:
    """One file of the reference, parsed."""

    def __init__(self, root: Path, relative: str, commit: str) -> None:
        self.relative = relative
        self.commit = commit
        path = root / relative
        if not path.is_file():
            raise ExportError(f"export: {path} not found (expected the reference's {relative})")
        self.bytes = path.read_bytes()
        self.tree = ast.parse(self.bytes.decode("utf-8"))

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.bytes).hexdigest()

    def nodes(self, kind: type) -> list[Any]:
        return [node for node in ast.walk(self.tree) if isinstance(node, kind)]

    def entry(self, node: ast.AST, value: Any) -> dict[str, Any]:
        """`value` with where it was read."""
        return {"value": value, "file": self.relative, "line": getattr(node, "lineno", None)}


def literal(node: ast.AST | None) -> str | None:
    """The text of a string literal (or an f-string without fields), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and len(node.values) == 1:
        return literal(node.values[0])
    return None


def only(items: list[Any], what: str) -> Any:
    if len(items) != 1:
        raise ExportError(f"export: expected one {what}, found {len(items)}")
    return items[0]


def same(nodes: list[ast.AST], values: list[Any], what: str) -> tuple[ast.AST, Any]:
    """The first of `nodes` and the value they all share (several uses of one text)."""
    if not nodes or len(set(map(json.dumps, values))) != 1:
        raise ExportError(f"export: {what}: expected one shared value, found {values}")
    return nodes[0], values[0]


def method_calls(src: Source, name: str) -> list[ast.Call]:
    return [
        n for n in src.nodes(ast.Call) if isinstance(n.func, ast.Attribute) and n.func.attr == name
    ]


def contains_tests(src: Source) -> list[ast.Compare]:
    """`"literal" in something` tests."""
    return [
        n
        for n in src.nodes(ast.Compare)
        if len(n.ops) == 1 and isinstance(n.ops[0], ast.In) and literal(n.left) is not None
    ]


def module_literal(src: Source, name: str) -> tuple[ast.Assign, Any]:
    node = only(
        [
            n
            for n in src.tree.body
            if isinstance(n, ast.Assign)
            and len(n.targets) == 1
            and isinstance(n.targets[0], ast.Name)
            and n.targets[0].id == name
        ],
        f"module-level {name} = ...",
    )
    return node, ast.literal_eval(node.value)


def export_eval(src: Source) -> dict[str, Any]:
    """The chats' texts, from `evaluators/eval.py`."""
    out: dict[str, Any] = {}
    # The user agent's first chat turn: the only {"role": "user", "content": <literal>}.
    turns = [
        d
        for d in src.nodes(ast.Dict)
        if [literal(k) for k in d.keys] == ["role", "content"]
        and literal(d.values[0]) == "user"
        and literal(d.values[1]) is not None
    ]
    node, value = same(turns, [literal(d.values[1]) for d in turns], "user agent opener")
    out["user_agent_opener"] = src.entry(node, value)
    # The user agent's briefing: f"{background.strip()}<A>{api}<B>{json.dumps(slots, ...)}".
    brief = only(
        [
            n
            for n in src.nodes(ast.Assign)
            if any(isinstance(t, ast.Name) and t.id == "user_content" for t in n.targets)
            and isinstance(n.value, ast.JoinedStr)
        ],
        "user_content f-string",
    )
    parts = brief.value.values
    fields = [ast.unparse(p.value) for p in parts if isinstance(p, ast.FormattedValue)]
    texts = [p.value for p in parts if isinstance(p, ast.Constant)]
    if (
        fields
        != [
            "record['background'].strip()",
            "record['api']",
            "json.dumps(record['slots'], ensure_ascii=False)",
        ]
        or len(texts) != 2
        or not isinstance(parts[0], ast.FormattedValue)
    ):
        raise ExportError("export: the user agent's briefing changed shape")
    out["user_briefing_before_api"] = src.entry(brief, texts[0])
    out["user_briefing_before_slots"] = src.entry(brief, texts[1])
    # Placeholders the chats fill.
    questions = [
        n
        for n in method_calls(src, "replace")
        if n.args and "question" in (literal(n.args[0]) or "")
    ]
    node, value = same(questions, [literal(n.args[0]) for n in questions], "question placeholder")
    out["question_placeholder"] = src.entry(node, value)
    # The prompt files' family tags: `if "<family>" in args.assistant_agent:` then a check that
    # the prompt holds the tag and `prompt.strip(tag)`.
    tags: dict[str, Any] = {}
    for node in src.nodes(ast.If):
        test = node.test
        if not (
            isinstance(test, ast.Compare)
            and literal(test.left) is not None
            and ast.unparse(test.comparators[0]) == "args.assistant_agent"
        ):
            continue
        checks = [
            n for n in ast.walk(node.body[0]) if isinstance(n, ast.Compare) and literal(n.left)
        ]
        strips = [
            n
            for n in ast.walk(node.body[-1])
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr == "strip"
        ]
        if checks and strips and literal(checks[0].left) == literal(strips[0].args[0]):
            tags[str(literal(test.left))] = src.entry(checks[0], literal(checks[0].left))
    if set(tags) != {"gpt", "llama", "zephyr", "mistral", "claude"}:
        raise ExportError(f"export: the family tags changed: {sorted(tags)}")
    out["family_tags"] = tags
    # The reasons a failed dialogue records.
    reasons: dict[str, tuple[ast.AST, str]] = {}
    for node in src.nodes(ast.Assign):
        target = node.targets[0]
        if ast.unparse(target) != "current_dialogue['reason']":
            continue
        value = node.value
        text = literal(value)
        if text is None and isinstance(value, ast.JoinedStr):
            first = value.values[0]
            text = first.value if isinstance(first, ast.Constant) else None
        if text is not None:
            reasons.setdefault(text, (node, text))
    wanted = {
        "round_limit_reason": lambda t: t.startswith("Round"),
        "parse_failure_prefix": lambda t: t.endswith(": "),
        "annotator_failure_reason": lambda t: t.startswith("Annotator"),
    }
    for key, test in wanted.items():
        node, text = only([r for r in reasons.values() if test(r[1])], key)
        out[key] = src.entry(node, text)
    # The sheet of API_list.xlsx the functions are read from.
    sheet = only(
        [
            n
            for n in src.nodes(ast.Call)
            if isinstance(n.func, ast.Name) and n.func.id == "read_api_excel"
        ],
        "read_api_excel call",
    )
    out["api_sheet"] = src.entry(sheet, literal(sheet.args[1]))
    return out


def export_clients(src: Source) -> dict[str, Any]:
    """The model clients' texts, from `utils/crawl_utils.py`."""
    out: dict[str, Any] = {}
    # The forced-call cue: `messages[-1]["content"] += <literal>` (the /generate and Claude
    # clients; the gpt client forces with function_call instead).
    cues = [n for n in src.nodes(ast.AugAssign) if literal(n.value) is not None]
    node, value = same(cues, [literal(n.value) for n in cues], "forced-call cue")
    if ast.unparse(cues[0].target) != "messages[-1]['content']" or len(cues) != 2:
        raise ExportError("export: the forced-call cue changed shape")
    out["submit_suffix"] = src.entry(node, value)
    docs = [
        n
        for n in method_calls(src, "replace")
        if n.args and "api_doc" in (literal(n.args[0]) or "")
    ]
    node, value = same(docs, [literal(n.args[0]) for n in docs], "api_doc placeholder")
    out["api_doc_placeholder"] = src.entry(node, value)
    # The text call: extract_func_content's pattern and re.findall flags.
    extract = only(
        [n for n in src.nodes(ast.FunctionDef) if n.name == "extract_func_content"],
        "extract_func_content",
    )
    pattern = only(
        [
            n
            for n in ast.walk(extract)
            if isinstance(n, ast.Assign) and literal(n.value) is not None
        ],
        "call pattern",
    )
    findall = only(
        [
            n
            for n in ast.walk(extract)
            if isinstance(n, ast.Call) and ast.unparse(n.func) == "re.findall"
        ],
        "re.findall",
    )
    flags = [ast.unparse(a).removeprefix("re.") for a in findall.args[2:]]
    out["call_pattern"] = {**src.entry(pattern, literal(pattern.value)), "flags": flags}
    # Which reply holds a call, which ends the dialogue: `"<marker>" in content` tests.
    tests = contains_tests(src)
    calls = [n for n in tests if (literal(n.left) or "").startswith("<")]
    stops = [n for n in tests if (literal(n.left) or "").startswith("[")]
    node, value = same(calls, [literal(n.left) for n in calls], "call marker")
    out["call_marker"] = src.entry(node, value)
    node, value = same(stops, [literal(n.left) for n in stops], "stop marker")
    out["stop_marker"] = src.entry(node, value)
    # A reply with the marker but no closed pattern: the IndexError handler's arguments.
    handler = only(
        [
            n
            for n in src.nodes(ast.ExceptHandler)
            if n.type is not None and ast.unparse(n.type) == "IndexError"
        ],
        "IndexError handler",
    )
    value = only(
        [
            literal(v)
            for d in ast.walk(handler)
            if isinstance(d, ast.Dict)
            for k, v in zip(d.keys, d.values, strict=True)
            if literal(k) == "arguments" and literal(v) is not None
        ],
        "arguments of an unclosed call",
    )
    out["unclosed_call_arguments"] = src.entry(handler, value)
    return out


def export_api_list(src: Source) -> dict[str, Any]:
    """The function schemas' texts and the gpt deployment, from `utils/utils.py`."""
    out: dict[str, Any] = {}
    node, types = module_literal(src, "SPECIAL_TYPES")
    out["parameter_types"] = src.entry(node, types)
    node, enums = module_literal(src, "ENUM_MAP_ENG")
    out["enums"] = src.entry(node, enums)
    node, info = module_literal(src, "OPENAI_INFO")
    out["openai_models"] = src.entry(
        node, {name: entry["model"] for name, entry in info.items() if "model" in entry}
    )
    reader = only(
        [n for n in src.nodes(ast.FunctionDef) if n.name == "read_api_excel"], "read_api_excel"
    )
    marks = {
        literal(n.args[0]): n
        for n in ast.walk(reader)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "replace"
        and n.args
        and "slot)" in (literal(n.args[0]) or "")
    }
    for key, word in (("required_mark", "(required"), ("optional_mark", "(optional")):
        text = only([m for m in marks if m is not None and m.startswith(word)], key)
        out[key] = src.entry(marks[text], text)
    # description.rstrip(".") + f"<sentence>{', '.join(optional slots)}"
    sentence = only(
        [n for n in ast.walk(reader) if isinstance(n, ast.JoinedStr)], "optional-slot sentence"
    )
    head, joined = sentence.values if len(sentence.values) == 2 else (None, None)
    if not (
        isinstance(head, ast.Constant)
        and isinstance(joined, ast.FormattedValue)
        and isinstance(joined.value, ast.Call)
        and isinstance(joined.value.func, ast.Attribute)
        and joined.value.func.attr == "join"
    ):
        raise ExportError("export: the optional-slot sentence changed shape")
    out["optional_slots_sentence"] = src.entry(sentence, head.value)
    out["optional_slots_separator"] = src.entry(joined, literal(joined.value.func.value))
    return out


def prompt_hashes(folder: Path) -> dict[str, str]:
    files = sorted(folder.glob("*.txt"))
    if not files:
        raise ExportError(f"export: no prompt files in {folder}")
    return {f"prompts/{f.name}": hashlib.sha256(f.read_bytes()).hexdigest() for f in files}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ref", type=Path, required=True, help="the code snapshot (952086b)")
    parser.add_argument(
        "--utils", type=Path, required=True, help="a checkout of the public repository with utils/"
    )
    parser.add_argument("--prompts", type=Path, required=True, help="the reference's prompts/")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    evaluator = Source(args.ref, "evaluators/eval.py", SNAPSHOT_COMMIT)
    public = Source(args.utils, "evaluators/eval.py", UTILS_COMMIT)
    if public.bytes != evaluator.bytes:
        raise ExportError("export: --utils is not the commit whose eval.py the snapshot holds")
    clients = Source(args.utils, "utils/crawl_utils.py", UTILS_COMMIT)
    api_list = Source(args.utils, "utils/utils.py", UTILS_COMMIT)
    data = {
        "reference": "hlmu/AutoDE",
        "licence": "MIT, LICENSE beside this file",
        "eval": export_eval(evaluator),
        "clients": export_clients(clients),
        "api_list": export_api_list(api_list),
        "prompt_files": prompt_hashes(args.prompts),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    (args.out / "reference.json").write_text(text, encoding="utf-8")
    shutil.copyfile(args.ref / "LICENSE", args.out / "LICENSE")
    provenance = {
        "reference": "hlmu/AutoDE",
        "exporter": "scripts/autode_export.py",
        "files": {
            s.relative: {"commit": s.commit, "sha256": s.sha256}
            for s in (evaluator, clients, api_list)
        },
        "reference.json": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "notes": (
            "evaluators/eval.py is read from the code snapshot (commit 952086b); utils/ is not "
            "part of that snapshot and is read from the public repository at 565bcaa, whose "
            "eval.py is byte-identical (checked). The prompt files are not exported: only their "
            "SHA-256 (prompt_files), read from the reference's prompts/."
        ),
    }
    (args.out / "PROVENANCE.json").write_text(json.dumps(provenance, indent=1) + "\n")
    print(f"wrote {args.out}/reference.json, LICENSE, PROVENANCE.json")


if __name__ == "__main__":
    main()
