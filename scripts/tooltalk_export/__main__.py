"""Export, as data, every text the ToolTalk reference puts into a chat request.

    python scripts/tooltalk_export [REF_DIR] [--out DIR] [--domain-out DIR] [--verify]

REF_DIR is a checkout of microsoft/ToolTalk (default `$TOOLTALK_REF`, else `../shared/tooltalk-ref`
beside the repository). The reference's own modules are imported and asked what they send (its
model client, `openai<1`, and the unused text-embedding packages are replaced by stub modules,
so any Python >= 3.9 with nothing installed runs it); nothing of toolplay is imported:

- `functions`, `functions_without_documentation`: each API's `to_openai_doc(disable_doc)`, the
  exact objects the reference sends (its `--disable_documentation` ablation for the second);
- `orders`: the order of `--api_mode all` (ALL_APIS) and of each suite's APIs (`--api_mode suite`);
- `system_prompt`: `OpenAIPredictor.system_prompt` (a `str.format` template);
- `executor_messages`: the four result texts `ToolExecutor` writes itself, read from its source
  with `ast` (named by their order in the file: unknown API, not logged in, second login, failed
  parse); `session_check`: `API.check_session_token`'s text;
- `tool_exceptions`: every `raise APIException(...)` in each API's `call`, literal or f-string
  (as a `str.format` template with the f-string's own expressions), with its source line;
- `api_facts`: per API `requires_auth`, `is_action`, `database_name`, the documented parameters
  and the `call` signature (names, order, required or default); which APIs open or close the
  executor's session.

Writes into DIR (default `src/toolplay/methods/tooltalk/data/`): `presentation.json`, `LICENSE` and
`NOTICE` (verbatim from the checkout), and `PROVENANCE.json` (reference, commit, the sha256 of
every source file read and of every file written, how each part was obtained).

Writes into the domain's DIR (default `src/toolplay/domains/tooltalk/data/`) the texts
toolplay's ToolTalk tools refuse with (`_domain_texts.py`): `texts.json` (key -> the reference's
text, its placeholders and the sites raising it), the same `LICENSE` and `NOTICE`, and its own
`PROVENANCE.json`. The domain may not import `toolplay.methods`, hence a folder of its own.

`--verify` exports to a temporary folder and fails if anything differs from either DIR.
"""

from __future__ import annotations

import argparse
import ast
import filecmp
import hashlib
import inspect
import json
import os
import platform
import shutil
import sys
import tempfile
import textwrap
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _domain_texts import domain_texts, source_files  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
DEFAULT_REF = Path(os.environ.get("TOOLTALK_REF", str(REPO.parent / "shared" / "tooltalk-ref")))
DEFAULT_OUT = REPO / "src" / "toolplay" / "methods" / "tooltalk" / "data"
DEFAULT_DOMAIN_OUT = REPO / "src" / "toolplay" / "domains" / "tooltalk" / "data"
COMMIT = "e05f4ce6132c80ed33392b81535b077d56ab28fd"
"""The reference commit the snapshot holds (its SNAPSHOT.md)."""
FORMAT_VERSION = 1
EXECUTOR_TEXTS = ("unknown_api", "not_logged_in", "second_login", "parse_failure")
"""The executor's own result texts, in the order they appear in `tool_executor.py`."""
COPIED = ("LICENSE", "NOTICE")


def _stub_modules() -> None:
    """Stand-ins for what importing the reference pulls in but exporting never uses."""
    sent2vec = types.ModuleType("sent2vec")
    vectorizer = types.ModuleType("sent2vec.vectorizer")

    class Vectorizer:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise RuntimeError("sent2vec is a stub in the ToolTalk exporter")

    vectorizer.Vectorizer = Vectorizer  # type: ignore[attr-defined]
    sent2vec.vectorizer = vectorizer  # type: ignore[attr-defined]
    openai = types.ModuleType("openai")  # the reference needs openai<1; never called here
    openai.ChatCompletion = types.SimpleNamespace(create=None)  # type: ignore[attr-defined]
    openai.Completion = types.SimpleNamespace(create=None)  # type: ignore[attr-defined]
    openai.error = types.SimpleNamespace(RateLimitError=Exception)  # type: ignore[attr-defined]
    stubs = {"sent2vec": sent2vec, "sent2vec.vectorizer": vectorizer, "openai": openai}
    for optional in ("numpy", "tqdm"):
        try:
            __import__(optional)
        except ImportError:
            stub = types.ModuleType(optional)
            stub.ndarray = object  # type: ignore[attr-defined]  (an annotation only)
            stub.tqdm = lambda items, *a, **k: items  # type: ignore[attr-defined]
            stubs[optional] = stub
    sys.modules.update(stubs)


def import_reference(ref: Path) -> dict[str, Any]:
    """The reference modules the export reads."""
    _stub_modules()
    sys.path.insert(0, str(ref / "src"))
    from tooltalk.apis import account
    from tooltalk.apis import api as api_module
    from tooltalk.evaluation import evaluate_openai, tool_executor

    from tooltalk import apis

    return {
        "apis": apis,
        "api_module": api_module,
        "account": account,
        "evaluate_openai": evaluate_openai,
        "tool_executor": tool_executor,
    }


class Exporter:
    """Reads one reference checkout."""

    def __init__(self, ref: Path) -> None:
        self.ref = ref.resolve()
        self.modules = import_reference(self.ref)
        self.read: set[str] = set()

    def rel(self, path: str | Path) -> str:
        relative = str(Path(path).resolve().relative_to(self.ref))
        self.read.add(relative)
        return relative

    # -- texts read from the source ----------------------------------------------------------

    def tool_exceptions(self) -> dict[str, list[dict[str, Any]]]:
        """Per API: every `raise APIException(...)` in its `call`, in source order."""
        out: dict[str, list[dict[str, Any]]] = {}
        for api in self.modules["apis"].ALL_APIS:
            where = self.rel(inspect.getsourcefile(api) or "")
            lines, start = inspect.getsourcelines(api.call)
            tree = ast.parse(textwrap.dedent("".join(lines)))
            out[api.__name__] = [
                {"text": text, "kind": kind, "source": f"{where}:{start + line - 1}"}
                for line, text, kind in _raises(tree, "APIException")
            ]
        return out

    def session_check(self) -> dict[str, Any]:
        """The text of `API.check_session_token` (unreachable through the executor)."""
        function = self.modules["api_module"].API.check_session_token
        lines, start = inspect.getsourcelines(function)
        found = _raises(ast.parse(textwrap.dedent("".join(lines))), "APIException")
        if len(found) != 1:
            raise SystemExit(f"check_session_token: expected one APIException, found {found}")
        line, text, kind = found[0]
        where = self.rel(inspect.getsourcefile(function) or "")
        return {"text": text, "kind": kind, "source": f"{where}:{start + line - 1}"}

    def executor_messages(self) -> dict[str, Any]:
        """The results `ToolExecutor` writes itself: `"exception": <text>` in its dict literals."""
        path = Path(inspect.getsourcefile(self.modules["tool_executor"]) or "")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = []
        for node in ast.walk(tree):
            if not isinstance(node, ast.Dict):
                continue
            for key, value in zip(node.keys, node.values):
                text = (
                    _template(value) if isinstance(value, (ast.Constant, ast.JoinedStr)) else None
                )
                is_exception = isinstance(key, ast.Constant) and key.value == "exception"
                if is_exception and text is not None and text[0] is not None:
                    found.append((value.lineno, *text))
        found.sort()
        if len(found) != len(EXECUTOR_TEXTS):
            raise SystemExit(
                f"{path}: expected {len(EXECUTOR_TEXTS)} executor texts, found {found}"
            )
        where = self.rel(path)
        return {
            name: {"text": text, "kind": kind, "source": f"{where}:{line}"}
            for name, (line, text, kind) in zip(EXECUTOR_TEXTS, found)
        }

    # -- what the reference's objects say ----------------------------------------------------

    def functions(self, disable_doc: bool) -> dict[str, Any]:
        """Every API's function doc as `to_openai_doc` builds it."""
        for api in self.modules["apis"].ALL_APIS:
            self.rel(inspect.getsourcefile(api) or "")
        return {
            api.__name__: api.to_openai_doc(disable_doc) for api in self.modules["apis"].ALL_APIS
        }

    def orders(self) -> dict[str, Any]:
        """ALL_APIS' order and each suite's."""
        apis = self.modules["apis"]
        self.rel(inspect.getsourcefile(apis) or "")
        return {
            "all": [api.__name__ for api in apis.ALL_APIS],
            "suites": {
                suite.name: [api.__name__ for api in suite.apis] for suite in apis.ALL_SUITES
            },
        }

    def system_prompt(self) -> dict[str, Any]:
        """The predictor's system prompt template and what fills it."""
        predictor = self.modules["evaluate_openai"].OpenAIPredictor
        path = inspect.getsourcefile(predictor) or ""
        lines, start = inspect.getsourcelines(predictor)
        line = start + next(i for i, text in enumerate(lines) if "system_prompt =" in text)
        return {
            "template": predictor.system_prompt,
            "placeholders": {
                "location": "metadata['location']",
                "timestamp": "metadata['timestamp']",
                "username": "metadata.get('username')",
            },
            "formatting": "str.format: each value as str(), an absent username as None",
            "source": f"{self.rel(path)}:{line}",
        }

    def api_facts(self) -> dict[str, Any]:
        """What decides how a call runs and is shown, per API."""
        account = self.modules["account"]
        facts = {}
        for api in self.modules["apis"].ALL_APIS:
            signature = inspect.signature(api.call)
            facts[api.__name__] = {
                "requires_auth": bool(api.requires_auth),
                "is_action": bool(api.is_action),
                "database_name": api.database_name,
                "documented_parameters": list(api.parameters),
                "call_signature": [
                    {
                        "name": p.name,
                        "required": p.default is inspect.Parameter.empty,
                        **({} if p.default is inspect.Parameter.empty else {"default": p.default}),
                    }
                    for p in signature.parameters.values()
                    if p.name != "self"
                ],
                "source": f"{self.rel(inspect.getsourcefile(api) or '')}:"
                f"{inspect.getsourcelines(api)[1]}",
            }
        return {
            "apis": facts,
            "opens_session": [account.UserLogin.__name__, account.RegisterUser.__name__],
            "closes_session": [account.LogoutUser.__name__, account.DeleteAccount.__name__],
        }

    def presentation(self) -> dict[str, Any]:
        """Everything `presentation.json` holds."""
        return {
            "format_version": FORMAT_VERSION,
            "system_prompt": self.system_prompt(),
            "functions": self.functions(disable_doc=False),
            "functions_without_documentation": self.functions(disable_doc=True),
            "orders": self.orders(),
            "executor_messages": self.executor_messages(),
            "session_check": self.session_check(),
            "tool_exceptions": self.tool_exceptions(),
            "api_facts": self.api_facts(),
        }


def _template(node: ast.AST) -> tuple[str | None, str]:
    """(text, kind) of a string literal, or of an f-string as a `str.format` template."""
    if isinstance(node, ast.Constant):
        return (node.value, "literal") if isinstance(node.value, str) else (None, "none")
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value).replace("{", "{{").replace("}", "}}"))
            elif isinstance(value, ast.FormattedValue):
                if value.format_spec is not None or value.conversion != -1:
                    raise SystemExit(f"line {node.lineno}: f-string with a conversion or spec")
                parts.append("{" + ast.unparse(value.value) + "}")
        return "".join(parts), "template"
    return None, "none"


def _raises(tree: ast.AST, exception: str) -> list[tuple[int, str, str]]:
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Raise)
            and isinstance(node.exc, ast.Call)
            and isinstance(node.exc.func, ast.Name)
            and node.exc.func.id == exception
            and node.exc.args
        ):
            text, kind = _template(node.exc.args[0])
            if text is None:
                raise SystemExit(f"line {node.lineno}: {exception} with a non-text message")
            found.append((node.lineno, text, kind))
    return sorted(found)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _provenance(
    ref: Path, out: Path, how: dict[str, str], sources: list[str], files: list[str]
) -> dict[str, Any]:
    """The PROVENANCE.json of one output folder."""
    return {
        "reference": "microsoft/ToolTalk",
        "commit": COMMIT,
        "licence": "MIT",
        "licence_file": "LICENSE",
        "notice_file": "NOTICE",
        "copyright": "Copyright (c) Microsoft Corporation.",
        "exporter": "scripts/tooltalk_export",
        "exporter_python": platform.python_version(),
        "how": how,
        "source_sha256": {name: _sha256(ref / name) for name in sorted(sources)},
        "files_sha256": {name: _sha256(out / name) for name in files},
        "format_version": FORMAT_VERSION,
    }


def _write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def export(ref: Path, out: Path, domain_out: Path) -> None:
    """Write the export of checkout `ref` into `out` and the domain's texts into `domain_out`."""
    exporter = Exporter(ref)
    data = exporter.presentation()
    out.mkdir(parents=True, exist_ok=True)
    _write_json(out / "presentation.json", data)
    for name in COPIED:
        shutil.copyfile(ref / name, out / name)
    how = {
        "functions": "API.to_openai_doc(False) of every API in ALL_APIS, as returned",
        "functions_without_documentation": "API.to_openai_doc(True) (--disable_documentation)",
        "orders": "ALL_APIS; each suite's apis (ALL_SUITES)",
        "system_prompt": "OpenAIPredictor.system_prompt (the attribute's value)",
        "executor_messages": "the exception texts of ToolExecutor's result dict literals "
        "(ast), named by their order in the file",
        "session_check": "API.check_session_token's APIException text (ast)",
        "tool_exceptions": "every raise APIException(...) in each API's call (ast); "
        "f-strings as str.format templates over their own expressions",
        "api_facts": "class attributes; inspect.signature of each API's call",
    }
    files = ["presentation.json", *COPIED]
    _write_json(out / "PROVENANCE.json", _provenance(ref, out, how, sorted(exporter.read), files))

    texts = domain_texts(data)
    domain_out.mkdir(parents=True, exist_ok=True)
    _write_json(
        domain_out / "texts.json",
        {
            "format_version": FORMAT_VERSION,
            "reference": "microsoft/ToolTalk",
            "commit": COMMIT,
            "texts": texts,
        },
    )
    for name in COPIED:
        shutil.copyfile(ref / name, domain_out / name)
    how = {
        "texts": "the tool_exceptions, executor_messages (not_logged_in, second_login) and "
        "session_check of presentation.json (see its provenance), each raise site named by "
        "the key scripts/tooltalk_export/_domain_texts.py gives it; a template's placeholders "
        "are the reference's f-string expressions",
    }
    files = ["texts.json", *COPIED]
    provenance = _provenance(ref, domain_out, how, source_files(texts), files)
    _write_json(domain_out / "PROVENANCE.json", provenance)


OUTPUTS = {
    "out": ("presentation.json", *COPIED, "PROVENANCE.json"),
    "domain_out": ("texts.json", *COPIED, "PROVENANCE.json"),
}
"""The files written into each output folder."""


def _same(fresh: Path, target: Path) -> bool:
    if not target.exists():
        return False
    if fresh.name == "PROVENANCE.json":  # the exporter's own Python version may differ
        old, new = json.loads(target.read_text()), json.loads(fresh.read_text())
        old.pop("exporter_python", None)
        new.pop("exporter_python", None)
        return bool(old == new)
    return filecmp.cmp(fresh, target, shallow=False)


def verify(ref: Path, out: Path, domain_out: Path) -> list[str]:
    """The files of `out` and `domain_out` that a fresh export of `ref` would change."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = {"out": Path(tmp) / "out", "domain_out": Path(tmp) / "domain_out"}
        export(ref, fresh["out"], fresh["domain_out"])
        targets = {"out": out, "domain_out": domain_out}
        return [
            str(targets[folder] / name)
            for folder, names in OUTPUTS.items()
            for name in names
            if not _same(fresh[folder] / name, targets[folder] / name)
        ]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("ref", nargs="?", type=Path, default=DEFAULT_REF)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--domain-out", type=Path, default=DEFAULT_DOMAIN_OUT)
    parser.add_argument("--verify", action="store_true", help="compare with DIR; write nothing")
    args = parser.parse_args()
    if not (args.ref / "src" / "tooltalk").is_dir():
        raise SystemExit(f"{args.ref}: not a checkout of microsoft/ToolTalk")
    if args.verify:
        stale = verify(args.ref, args.out, args.domain_out)
        if stale:
            raise SystemExit(f"stale: {', '.join(stale)} (run the exporter)")
        print(f"{args.out}, {args.domain_out}: up to date with {args.ref}")
        return
    export(args.ref, args.out, args.domain_out)
    print(f"wrote {args.out}, {args.domain_out}")


if __name__ == "__main__":
    main()
