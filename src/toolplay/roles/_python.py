"""`python:module:function`: the assistant is your own Python code (your agent stack).

The function receives the conversation and the tools in the OpenAI format and returns the next
turn; it may be sync (run in a worker thread, so concurrent scenarios still overlap) or async:

    def my_agent(messages: list[dict], tools: list[dict]) -> str | dict: ...

Return a string to answer in text, or an OpenAI assistant message
`{"content": ..., "tool_calls": [{"id", "function": {"name", "arguments"}}]}` (arguments as a
JSON string or an object), optionally with `"usage": {"prompt_tokens", "completion_tokens"}`.
Declare a `context` parameter to also get the `AssistantContext` (scenario id, trial, raw
messages); like every assistant under test, it holds nothing of the reference solution.
`module` may be a dotted module name (found on Python's path or in the current folder) or a
path to a `.py` file. An exception from the function
is the assistant's failure (`assistant_error`), except `toolplay.roles.InfrastructureError`,
which marks the scenario as an infrastructure error to retry on resume. The first exception
of a run is logged as a warning with its traceback (the CLI prints the message, and the
traceback with `--debug`), so a bug in your code is not hidden behind a termination count.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import importlib.util
import inspect
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolplay.clients import RoleOptionError, TransientError, parse_completion
from toolplay.faults import AssistantError, InfrastructureError
from toolplay.roles._base import Assistant, AssistantContext, AssistantTurn, RoleRequest
from toolplay.roles._chat import calls_so_far, openai_messages

logger = logging.getLogger(__name__)


def load_callable(target: str) -> Callable[..., Any]:
    """The callable named `module:attribute` (module may be a `.py` path).

    Raises:
        RoleOptionError: The module or attribute cannot be found, or is not callable.
    """
    module_name, sep, attribute = target.rpartition(":")
    if not sep or not module_name or not attribute:
        raise RoleOptionError(f"python:{target}: expected python:module:function")
    try:
        if module_name.endswith(".py"):
            path = Path(module_name).expanduser().resolve()
            spec = importlib.util.spec_from_file_location(f"toolplay_agent_{path.stem}", path)
            if spec is None or spec.loader is None or not path.is_file():
                raise RoleOptionError(f"python:{target}: no such file {path}")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        else:
            module = _import_here(module_name)
        found: Any = functools.reduce(getattr, attribute.split("."), module)
    except (ImportError, AttributeError) as exc:
        raise RoleOptionError(f"python:{target}: {exc}") from exc
    if not callable(found):
        raise RoleOptionError(f"python:{target}: {attribute} is not callable")
    return found  # type: ignore[no-any-return]


def _import_here(name: str) -> Any:
    """Module `name`, also from the current folder (as `python -m` would find it there).

    The `toolplay` script's own folder, not the working one, starts Python's search path, so
    `python:my_agent:respond` beside the user's shell would not be found otherwise.
    """
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        top = name.split(".")[0]
        here = Path.cwd()
        beside = (here / f"{top}.py").is_file() or (here / top / "__init__.py").is_file()
        if exc.name != top or not beside or str(here) in sys.path:
            raise
        sys.path.append(str(here))
        return importlib.import_module(name)


def to_turn(result: Any, first_call_number: int = 0) -> AssistantTurn:
    """Read what a Python agent returned (see the module docstring).

    Raises:
        AssistantError: The value is not a string, a message dict or an `AssistantTurn`.
    """
    if isinstance(result, AssistantTurn):
        return result
    if isinstance(result, str):
        return AssistantTurn(content=result)
    if isinstance(result, dict):
        body = {"choices": [{"message": result}], "usage": result.get("usage")}
        try:
            reply = parse_completion(body, first_call_number)
        except TransientError as exc:
            raise AssistantError(f"agent returned an unusable message: {exc}") from exc
        return AssistantTurn(content=reply.content, tool_calls=reply.tool_calls, usage=reply.usage)
    raise AssistantError(f"agent returned {type(result).__name__}; expected str or dict")


class PythonAssistant:
    """Calls a user-supplied function for every assistant turn."""

    def __init__(self, target: str, function: Callable[..., Any]) -> None:
        self.name = f"python:{target}"
        self.function = function
        self.settings: dict[str, Any] = {"kind": "python", "target": target}
        try:
            parameters = inspect.signature(function).parameters
        except (TypeError, ValueError):
            parameters = {}  # type: ignore[assignment]
        self._wants_context = "context" in parameters
        self._reported = False

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """Hand the conversation to the function and read its answer."""
        messages = openai_messages(context.messages)
        if context.system_prompt and not any(m["role"] == "system" for m in messages):
            messages.insert(0, {"role": "system", "content": context.system_prompt})
        kwargs: dict[str, Any] = {"context": context} if self._wants_context else {}
        try:
            if inspect.iscoroutinefunction(self.function):
                result = await self.function(messages, list(context.tools), **kwargs)
            else:
                result = await asyncio.to_thread(
                    self.function, messages, list(context.tools), **kwargs
                )
                if inspect.isawaitable(result):
                    result = await result
        except (InfrastructureError, AssistantError):
            raise
        except Exception as exc:
            if not self._reported:  # the user's own bug: say it once, where it happened
                self._reported = True
                logger.warning(
                    "%s raised %r in %s trial %d (its first failure; such scenarios end as "
                    "assistant_error; toolplay --debug shows the traceback)",
                    self.name,
                    exc,
                    context.scenario_id,
                    context.trial,
                    exc_info=exc,
                )
            raise AssistantError(f"{self.name} raised {exc!r}") from exc
        return to_turn(result, calls_so_far(context.messages))


def build_python_assistant(request: RoleRequest) -> Assistant:
    """`python:module:function` (or `python:path/to/file.py:function`)."""
    return PythonAssistant(request.argument, load_callable(request.argument))
