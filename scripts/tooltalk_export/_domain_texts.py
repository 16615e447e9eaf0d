"""The texts toolplay's ToolTalk tools refuse with, keyed for the domain (`texts.json`).

toolplay's 28 tools (`toolplay.domains.tooltalk`) give the reference's refusal texts, byte for
byte: the dataset records them and the reference presentation shows them. They are the
reference's prose, so the domain reads them from its own data folder instead of holding them
as literals; this module builds that file from what the exporter read from the reference's code:

- every `raise APIException(...)` of each API's `call` (`tool_exceptions`), each raise site
  named by a key below, in the order of the sites in the reference's source;
- the two texts the reference's executor writes about sessions (nobody logged in, a second
  login) and `API.check_session_token`'s text: toolplay's tools give these themselves, since
  its sessions live in the world.

A key is toolplay's own name for one text; sites raising the same text share it (three APIs
refuse an unknown username). A template keeps the reference's f-string expressions as its
placeholders (`Alarm {alarm_id} not found.`), which the domain fills by name.
"""

from __future__ import annotations

import string
from typing import Any

KEYS: dict[str, tuple[str, ...]] = {
    "ChangePassword": ("wrong_old_password",),
    "DeleteAccount": ("wrong_password",),
    "QueryUser": ("user_query_without_filter",),
    "RegisterUser": ("username_taken", "bad_email_format", "bad_phone_format"),
    "ResetPassword": ("unknown_username", "wrong_verification_code", "wrong_verification_code"),
    "SendVerificationCode": ("unknown_username", "wrong_email"),
    "UpdateAccountInformation": (
        "wrong_password",
        "account_update_without_change",
        "bad_email",
        "bad_phone",
    ),
    "UserLogin": ("unknown_username", "wrong_password", "already_logged_in"),
    "DeleteAlarm": ("unknown_alarm", "unknown_alarm"),
    "FindAlarms": ("alarm_range_reversed",),
    "CreateEvent": (
        "unknown_event_type",
        "meeting_without_attendees",
        "event_times_reversed",
        "event_in_past",
    ),
    "DeleteEvent": ("unknown_event", "unknown_event"),
    "ModifyEvent": (
        "unknown_event",
        "unknown_event",
        "new_end_time_missing",
        "event_times_reversed",
        "event_in_past",
        "new_start_time_missing",
    ),
    "QueryCalendar": ("no_calendar", "event_times_reversed"),
    "SearchInbox": ("search_without_filter", "bad_match_type", "search_dates_reversed"),
    "SendEmail": ("bad_recipient",),
    "SearchMessages": ("search_without_filter", "bad_match_type", "search_dates_reversed"),
    "SendMessage": ("empty_message",),
    "AddReminder": ("bad_due_date",),
    "CompleteReminder": ("unknown_reminder", "reminder_completed"),
    "DeleteReminder": ("unknown_reminder",),
    "CurrentWeather": ("unknown_location",),
    "ForecastWeather": ("unknown_location",),
    "HistoricWeather": ("unknown_location", "no_month_data"),
}
"""Per API, the key of each `raise APIException(...)` of its `call`, in source order (an API
not listed raises none)."""

SESSION_KEYS = {"not_logged_in": "not_logged_in", "second_login": "second_login"}
"""Domain key -> the executor text (`executor_messages`) it holds."""
SESSION_CHECK_KEY = "invalid_session_token"
"""The key of `API.check_session_token`'s text."""


def _placeholders(template: str, where: str) -> list[str]:
    """The names a `str.format` template fills; only plain names (the domain fills by name)."""
    names = []
    for _, name, spec, conversion in string.Formatter().parse(template):
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise SystemExit(f"{where}: placeholder {{{name}}} is not a plain name: {template!r}")
        if name not in names:
            names.append(name)
    return names


def _add(texts: dict[str, Any], key: str, entry: dict[str, Any], where: str) -> None:
    """Record one site of `key`; a key names one text wherever it is raised."""
    site = {"where": where, "source": entry["source"]}
    known = texts.get(key)
    if known is None:
        template = entry["kind"] == "template"
        texts[key] = {
            "text": entry["text"],
            "kind": entry["kind"],
            "placeholders": _placeholders(entry["text"], where) if template else [],
            "sites": [site],
        }
        return
    if (known["text"], known["kind"]) != (entry["text"], entry["kind"]):
        raise SystemExit(
            f"key {key!r}: {where} raises {entry['text']!r}, elsewhere {known['text']!r}"
        )
    known["sites"].append(site)


def domain_texts(presentation: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Key -> {text, kind, placeholders, sites} from the exporter's `presentation` data.

    Refuses (SystemExit) an API whose raise sites the keys do not name one for one, an API the
    keys know that the reference lacks, and a key given to two different texts.
    """
    exceptions = presentation["tool_exceptions"]
    if set(KEYS) - set(exceptions):
        raise SystemExit(f"APIs the reference lacks: {sorted(set(KEYS) - set(exceptions))}")
    texts: dict[str, dict[str, Any]] = {}
    executor = presentation["executor_messages"]
    for key, name in SESSION_KEYS.items():
        _add(texts, key, executor[name], "ToolExecutor")
    _add(texts, SESSION_CHECK_KEY, presentation["session_check"], "API.check_session_token")
    for api, sites in exceptions.items():
        keys = KEYS.get(api, ())
        if len(keys) != len(sites):
            found = [site["text"] for site in sites]
            raise SystemExit(f"{api}: {len(sites)} raise sites, {len(keys)} keys: {found}")
        for key, site in zip(keys, sites):
            _add(texts, key, site, f"{api}.call")
    return dict(sorted(texts.items()))


def source_files(texts: dict[str, dict[str, Any]]) -> list[str]:
    """The reference files the texts were read from (sorted)."""
    return sorted(
        {site["source"].rsplit(":", 1)[0] for entry in texts.values() for site in entry["sites"]}
    )
