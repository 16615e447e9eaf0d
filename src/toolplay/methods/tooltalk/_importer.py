"""Import ToolTalk's data folder as a suite (`--suite tooltalk:DIR`).

DIR holds `databases/` (the mock databases) and one subfolder per split (`easy/`, `tooltalk/`,
...), each with one JSON conversation per file. Every conversation becomes a scenario:

- the world: all seven plugins, tables loaded from `databases/` (shared by every scenario of the
  suite, never copied per scenario; only the small account table is per scenario because the
  logged-in user's session token and a pending verification code are set in it), the clock
  frozen at `metadata.timestamp`, the session of `user.session_token` when the conversation
  starts logged in;
- `reference`: one turn per user utterance with the following assistant turn's ground-truth
  calls (`check: true`, with the recorded result or exception) and text. The session token is
  dropped from the calls' arguments: the environment supplies it, as ToolTalk's executor does;
  the parameters as recorded (with it, in their order) are kept as `recorded_arguments`, which
  the reference presentation's executor replays and shows as the reference did;
- `metadata`: location, timestamp, username, conversation id and name, plugins and tools used,
  the user's credentials, toolplay's wording of ToolTalk's system prompt (location, time,
  username; `system_prompt`) and the file's own `metadata` object (`conversation_metadata`,
  from which the reference presentation writes the reference's);
- `split`: the subfolder's name; `categories`: the plugins the conversation uses;
- for dynamic play (`_tooltalk_user`): the model-driven user's goal and knowledge boundary
  derived from the conversation, and `max_turns` sized to its length.

Every problem names the file, the field and the reason.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from toolplay.domains.tooltalk import (
    ACCOUNT_DATABASE,
    ACCOUNT_FIELDS,
    ACCOUNTS,
    DATABASES,
    DATE_TIME,
    DOMAIN_NAMES,
    OWNERS,
)
from toolplay.methods.tooltalk._dynamic_user import dynamic_turn_limit, tooltalk_user_side
from toolplay.methods.tooltalk._paper import paper_departures
from toolplay.methods.tooltalk._presentation import CONVERSATION_METADATA
from toolplay.scenarios._context import LoadContext
from toolplay.scenarios._errors import ScenarioError
from toolplay.scenarios._load import check_against_catalog
from toolplay.scenarios._model import (
    ReferenceCall,
    ReferenceTurn,
    Scenario,
    WorldSpec,
)
from toolplay.scenarios._suites import Suite
from toolplay.tools import Registry

DATABASE_DIR = "databases"
TIMESTAMP = DATE_TIME
SESSION_ARGUMENT = "session_token"
"""Recorded argument the environment supplies itself; dropped from reference calls."""

Tables = dict[str, list[dict[str, Any]]]


def import_tooltalk(argument: str, context: LoadContext) -> Suite:
    """Load a ToolTalk data folder (see the module docstring) as a suite run in static mode."""
    root = Path(argument).expanduser()
    if not root.is_dir():
        raise ScenarioError(argument, None, "not a folder (expected a ToolTalk data folder)")
    tables = load_databases(root / DATABASE_DIR)
    splits = sorted(
        p for p in root.iterdir() if p.is_dir() and p.name != DATABASE_DIR and any(p.glob("*.json"))
    )
    if not splits:
        raise ScenarioError(str(root), None, "no split folder with conversation files (*.json)")
    scenarios = [
        conversation_scenario(load_json(path), tables, split.name, str(path), context)
        for split in splits
        for path in sorted(split.glob("*.json"))
    ]
    return Suite(
        "tooltalk",
        scenarios,
        f"ToolTalk conversations ({', '.join(s.name for s in splits)})",
        str(root),
        default_mode="static",
        extra={"splits": [s.name for s in splits]},
        presentation="tooltalk",
        paper_setup=paper_departures,
    )


def load_json(path: Path) -> Any:
    """Parse a JSON file, naming it on failure."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioError(str(path), None, f"cannot read file ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise ScenarioError(str(path), None, "file is not UTF-8 text") from exc
    except json.JSONDecodeError as exc:
        raise ScenarioError(
            str(path), None, f"invalid JSON at line {exc.lineno}: {exc.msg}"
        ) from exc


def load_databases(folder: Path) -> Tables:
    """ToolTalk's database files flattened into table rows (a missing file is an empty table)."""
    if not folder.is_dir():
        raise ScenarioError(str(folder), None, "missing databases folder")
    accounts = _mapping(load_json(folder / f"{ACCOUNT_DATABASE}.json"), folder / "Account.json", "")
    tables: Tables = {ACCOUNTS.name: [], OWNERS.name: []}
    for username, entry in accounts.items():
        where = str(folder / f"{ACCOUNT_DATABASE}.json")
        data = _mapping(entry, Path(where), username)
        missing = [f for f in ACCOUNT_FIELDS if f not in data]
        if missing:
            raise ScenarioError(where, username, f"account lacks field(s) {missing}")
        if data["username"] != username:
            raise ScenarioError(where, f"{username}.username", "differs from the account's key")
        tables[ACCOUNTS.name].append({c: data.get(c) for c in ACCOUNTS.columns})
    for database, nested in DATABASES.items():
        path = folder / f"{database}.json"
        rows = tables.setdefault(nested.table.name, [])
        if not path.exists():
            continue
        for owner, records in _mapping(load_json(path), path, "").items():
            if nested.owner == "username":
                tables[OWNERS.name].append({"database": database, "username": owner})
            for inner, value in _mapping(records, path, owner).items():
                data = _mapping(value, path, f"{owner}.{inner}")
                expected = set(nested.fields)
                if set(data) != expected:
                    raise ScenarioError(
                        str(path),
                        f"{owner}.{inner}",
                        f"record fields are {sorted(data)}; expected {sorted(expected)}",
                    )
                row = {nested.owner: owner, **data}
                if nested.inner is not None:
                    row[nested.inner] = inner
                rows.append(row)
    return tables


def _mapping(value: Any, path: Path, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        reason = "missing (expected a JSON object)" if value is None else "expected a JSON object"
        raise ScenarioError(str(path), field or None, reason)
    return value


def tooltalk_turns(
    conversation: list[dict[str, Any]],
) -> list[tuple[dict[str, Any] | None, dict[str, Any] | None]]:
    """Pair each user turn with the assistant turn answering it.

    A user turn followed by another user turn stands alone (no assistant part); an assistant
    turn without a user turn before it stands alone too. Reference turn `i` of an imported
    scenario is pair `i`, which is how saved predictions are matched to turns.
    """
    pairs: list[tuple[dict[str, Any] | None, dict[str, Any] | None]] = []
    for turn in conversation:
        if turn.get("role") == "assistant" and pairs and pairs[-1][1] is None and pairs[-1][0]:
            pairs[-1] = (pairs[-1][0], turn)
        elif turn.get("role") == "assistant":
            pairs.append((None, turn))
        else:
            pairs.append((turn, None))
    return pairs


def conversation_scenario(
    data: Any, tables: Tables, split: str, source: str, context: LoadContext
) -> Scenario:
    """One ToolTalk conversation as a scenario over the shared `tables`."""
    conv = _mapping(data, Path(source), "")
    turns = conv.get("conversation")
    if not isinstance(turns, list) or not turns:
        raise ScenarioError(source, "conversation", "expected a non-empty list of turns")
    metadata = _mapping(conv.get("metadata"), Path(source), "metadata")
    user = _mapping(conv.get("user", {}), Path(source), "user")
    clock = _timestamp(metadata, source)
    registry = context.tools.registry(DOMAIN_NAMES)
    reference = [
        _reference_turn(pair, i, source, registry) for i, pair in enumerate(tooltalk_turns(turns))
    ]
    token = user.get("session_token")
    username = user.get("username")
    accounts = _accounts(tables, user, source)
    stem = Path(source).stem
    meta: dict[str, Any] = {
        "location": metadata.get("location"),
        "timestamp": metadata.get("timestamp"),
        "conversation_id": conv.get("conversation_id"),
        "name": conv.get("name", stem),
        "file": f"{split}/{Path(source).name}",
        "suites_used": list(conv.get("suites_used", [])),
        "apis_used": list(conv.get("apis_used", [])),
        "user": dict(user),
        "system_prompt": tooltalk_prompt(metadata),
        CONVERSATION_METADATA: dict(metadata),
    }
    if metadata.get("username"):
        meta["username"] = metadata["username"]
    world = WorldSpec.model_construct(
        domains=list(DOMAIN_NAMES),
        tables={**tables, ACCOUNTS.name: accounts},
        clock=clock,
        session={"session_token": token, "username": username if token else None},
        seed=0,
    )
    try:
        scenario = Scenario(
            id=f"{split}.{stem}",
            description=str(conv.get("scenario") or conv.get("name") or stem),
            categories=[str(s) for s in conv.get("suites_used", [])],
            world=world,
            user=tooltalk_user_side(reference, user, metadata.get("location"), clock),
            reference=reference,
            evaluation="tooltalk",
            metadata=meta,
            split=split,
            max_turns=dynamic_turn_limit(reference),
        )
    except ValueError as exc:
        raise ScenarioError(source, None, str(exc).splitlines()[0]) from exc
    check_against_catalog(scenario, source, context)
    return scenario


def tooltalk_prompt(metadata: dict[str, Any]) -> str:
    """ToolTalk's system prompt facts: the user's location, the time and who is logged in."""
    username = metadata.get("username") or "(not logged in)"
    return (
        "You are a helpful assistant. What you know about the user:\n"
        f"location: {metadata.get('location')}\n"
        f"timestamp: {metadata.get('timestamp')}\n"
        f"username (if logged in): {username}"
    )


def _timestamp(metadata: dict[str, Any], source: str) -> datetime:
    value = metadata.get("timestamp")
    if not isinstance(value, str):
        raise ScenarioError(source, "metadata.timestamp", "missing (expected %Y-%m-%d %H:%M:%S)")
    try:
        return datetime.strptime(value, TIMESTAMP).replace(tzinfo=UTC)
    except ValueError as exc:
        raise ScenarioError(source, "metadata.timestamp", str(exc)) from exc


def _accounts(tables: Tables, user: dict[str, Any], source: str) -> list[dict[str, Any]]:
    """The account rows with this conversation's login and verification code applied."""
    patch: dict[str, Any] = {}
    if user.get("session_token"):
        patch["session_token"] = user["session_token"]
    if user.get("verification_code"):
        patch["verification_code"] = user["verification_code"]
    if not patch:
        return tables[ACCOUNTS.name]
    rows = []
    found = False
    for row in tables[ACCOUNTS.name]:
        if row["username"] == user.get("username"):
            row, found = {**row, **patch}, True
        rows.append(row)
    if not found:
        raise ScenarioError(
            source, "user.username", "logged-in user has no account in Account.json"
        )
    return rows


def _reference_turn(
    pair: tuple[dict[str, Any] | None, dict[str, Any] | None],
    index: int,
    source: str,
    registry: Registry,
) -> ReferenceTurn:
    user, assistant = pair
    field = f"conversation[turn {index}]"
    if user is not None and (user.get("role") != "user" or not isinstance(user.get("text"), str)):
        raise ScenarioError(source, field, "a user turn needs role 'user' and a text")
    if assistant is None:
        return ReferenceTurn(user=user["text"] if user else None)
    if not isinstance(assistant.get("text"), str):
        raise ScenarioError(source, field, "an assistant turn needs a text")
    calls = []
    for c, api in enumerate(assistant.get("apis") or []):
        where = f"{field}.apis[{c}]"
        request = api.get("request") if isinstance(api, dict) else None
        if not isinstance(request, dict) or not isinstance(request.get("api_name"), str):
            raise ScenarioError(source, where, "expected request.api_name")
        if request["api_name"] not in registry:  # name the file's own field
            raise ScenarioError(
                source, f"{where}.request.api_name", f"unknown API {request['api_name']!r}"
            )
        parameters = request.get("parameters") or {}
        if not isinstance(parameters, dict):
            raise ScenarioError(source, f"{where}.request.parameters", "expected an object")
        arguments = {k: v for k, v in parameters.items() if k != SESSION_ARGUMENT}
        calls.append(
            ReferenceCall(
                name=request["api_name"],
                arguments=arguments,
                result=api.get("response"),
                exception=api.get("exception"),
                check=True,
                recorded_arguments=dict(parameters) if arguments != parameters else None,
            )
        )
    return ReferenceTurn(user=user["text"] if user else None, calls=calls, reply=assistant["text"])
