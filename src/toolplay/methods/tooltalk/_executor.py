"""ToolTalk's reference executor: calls run, answer and are shown as the reference's did.

The reference presentation shows a model every result its reference's executor
(`ToolExecutor.execute_tool`, microsoft/ToolTalk e05f4ce) would have produced, so the calls run
its way, on toolplay's ToolTalk tools (`toolplay.domains.tooltalk`, which make the reference's
checks in its order):

1. the argument text is read with Python's `json.loads` (`NaN`, duplicate keys and all); a text
   that is not JSON, or is JSON `null`, is not run: "Failed to parse API call", and the call is
   shown with the arguments `null`. (JSON that is not an object crashed the reference's whole
   run; here it is treated as unreadable too.)
2. a name that is none of the 28 APIs: "API {api_name} not found" (checked first, whatever the
   arguments; the APIs a conversation was not offered still run, as in the reference);
3. an API needing a login when nobody is logged in: "User is not logged in", before any
   argument is looked at;
4. for such an API the session token in force is written into the arguments (replacing a
   `session_token` the model sent, in its place, or added last); the call is shown so;
5. `UserLogin` or `RegisterUser` while logged in: "Only one user can be logged in at a time.
   Current user is {username}.";
6. the arguments are bound to the API's `call` signature as Python binds keywords: the first
   unknown argument, in the order given, fails first, then the missing required ones, in
   Python's words (pinned to CPython 3.10+: `AddAlarm.call() got an unexpected keyword
   argument 'x'`, `... missing 2 required positional arguments: 'a' and 'b'`; a
   `session_token` sent to a tool without a login is such an unknown argument);
7. the tool runs on the values as given, no type checked: its refusals are the reference's
   texts, and an error of Python's own on an odd value (`'int' object has no attribute
   'lower'`, `unhashable type: 'list'`, ...) is shown as its text, as the reference did;
   a refused call keeps any write it made before refusing (the reference's tools are not
   transactional); a `KeyError` of the reference shows its text (`'larajean'`,
   `datetime.date(2023, 9, 11)`) where toolplay's tools say what is missing.

Records keep the reference's key order (the database files', and `CreateEvent`'s own for the
events it made). Ids and session tokens come from toolplay's seeded generators, which draw what
the reference's did. Only a misuse of the world API (a harness bug) escapes, as `ToolCrash`.
"""

from __future__ import annotations

import copy
import json
import traceback
from dataclasses import dataclass
from typing import Any

from toolplay.domains.tooltalk._calendar import CREATED_EVENT_FIELDS, EVENTS
from toolplay.domains.tooltalk._common import MissingEntryError, account_for_token
from toolplay.messages import ErrorType, ToolCall
from toolplay.methods.tooltalk._texts import SESSION_ARGUMENT, ApiFacts, ReferenceTexts
from toolplay.scenarios import ReferenceCall
from toolplay.tools import Registry, ToolCrash, ToolError, ToolOutcome, to_json_value
from toolplay.world import World, WorldError

UNPARSED = "null"
"""How the reference shows the arguments of a call it could not read (`json.dumps(None)`)."""


def read_arguments(text: str) -> dict[str, Any] | None:
    """The arguments as the reference reads them (`json.loads`), or None when it cannot."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def binding_error(facts: ApiFacts, arguments: dict[str, Any]) -> str | None:
    """Python's error for calling `facts.name`'s `call` with `arguments` as keywords, if any.

    CPython checks the keywords in the order given before the missing parameters; the texts
    are CPython 3.10+'s (3.9 and earlier leave out the `Api.` prefix).
    """
    names = [name for name, _ in facts.signature]
    where = f"{facts.name}.call()"
    for key in arguments:
        if key not in names:
            return f"{where} got an unexpected keyword argument '{key}'"
    missing = [
        repr(name) for name, required in facts.signature if required and name not in arguments
    ]
    if not missing:
        return None
    if len(missing) == 1:
        listed = missing[0]
    elif len(missing) == 2:
        listed = f"{missing[0]} and {missing[1]}"
    else:
        listed = ", ".join(missing[:-1]) + f", and {missing[-1]}"
    plural = "argument" if len(missing) == 1 else "arguments"
    return f"{where} missing {len(missing)} required positional {plural}: {listed}"


@dataclass
class ReferenceExecutor:
    """Runs ToolTalk calls as the reference's executor did (module docstring).

    Args:
        registry: toolplay's ToolTalk tools (every one can run, offered or not).
        texts: The reference's exported texts and facts.
    """

    registry: Registry
    texts: ReferenceTexts

    def execute(self, world: World, call: ToolCall) -> ToolOutcome:
        """Run one of the assistant's calls."""
        return self.run(world, call.name, read_arguments(call.arguments))

    def replay(self, world: World, call: ReferenceCall) -> ToolOutcome:
        """Run a ground-truth call with the arguments the dataset recorded."""
        recorded = (
            call.recorded_arguments if call.recorded_arguments is not None else call.arguments
        )
        return self.run(world, call.name, copy.deepcopy(dict(recorded)))

    def run(self, world: World, name: str, arguments: dict[str, Any] | None) -> ToolOutcome:
        """Run API `name` with parsed `arguments` (None: unreadable); see the module docstring."""
        texts = self.texts.executor
        if arguments is None:
            return _failed(texts["parse_failure"], "malformed_arguments", None)
        facts = self.texts.apis.get(name)
        if facts is None or name not in self.registry:
            return _failed(texts["unknown_api"].format(api_name=name), "unknown_tool", arguments)
        token = world.session.get("session_token")
        if facts.requires_auth:
            if token is None:
                return _failed(texts["not_logged_in"], "not_logged_in", arguments)
            arguments[SESSION_ARGUMENT] = token
        if name in self.texts.opens_session and token is not None:
            try:
                username = account_for_token(world, str(token))["username"]
            except ToolError as exc:
                return _failed(str(exc), "tool_error", arguments)
            return _failed(texts["second_login"].format(username=username), "tool_error", arguments)
        problem = binding_error(facts, arguments)
        if problem is not None:
            return _failed(problem, "invalid_arguments", arguments)
        values = {key: value for key, value in arguments.items() if key != SESSION_ARGUMENT}
        spec = self.registry[name]
        try:
            result = to_json_value(spec.function(world, **values))
        except MissingEntryError as exc:
            return _failed(exc.reference_text, "tool_error", arguments)
        except ToolError as exc:
            return _failed(str(exc), "tool_error", arguments)
        except WorldError as exc:
            detail = "".join(traceback.format_exception(exc))
            raise ToolCrash(f"tool {name} crashed: {exc!r}\n{detail}") from exc
        except Exception as exc:  # the reference shows any exception's text as the result
            return _failed(str(exc), "invalid_arguments", arguments)
        return ToolOutcome(
            result=self._ordered(world, name, result),
            executed_arguments=json.dumps(arguments),
        )

    def _ordered(self, world: World, name: str, result: Any) -> Any:
        """`result` with each event `CreateEvent` made in this world in that tool's key order.

        The world's change log tells them apart from the database file's events (only
        `CreateEvent` inserts events; one made over a file event's id, which the official data
        never has, would keep the file's order).
        """
        if name == "QueryCalendar" and isinstance(result, dict):
            created = {
                change.after.get("event_id")
                for change in world.changes
                if change.table == EVENTS and change.op == "insert" and change.after
            }
            events = result.get("events")
            if created and isinstance(events, list):
                result["events"] = [
                    {key: event[key] for key in CREATED_EVENT_FIELDS}
                    if isinstance(event, dict) and event.get("event_id") in created
                    else event
                    for event in events
                ]
        return result


def _failed(text: str, kind: ErrorType, arguments: dict[str, Any] | None) -> ToolOutcome:
    shown = UNPARSED if arguments is None else json.dumps(arguments)
    return ToolOutcome(error=text, error_type=kind, executed_arguments=shown)
