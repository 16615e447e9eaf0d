"""What dynamic play of an imported ToolTalk conversation needs: the user side and a turn limit.

ToolTalk records only what its user said, so everything here is derived from the conversation
itself, deterministically (no model is asked):

- `goal`: the user's utterances in order, as what the user wants over the whole conversation.
  The conversation's `scenario` field is not used: it was written for the dataset's authors and
  names the tools the assistant should call.
- `knowledge`: the facts the utterances contain (account details the user gives, emails, phone
  numbers, dates, times, durations, amounts, quoted texts, names and usernames, and every
  ground-truth argument value the user says), where and when the user is, whether they are
  logged in, and what they do NOT know: ids and tokens they never say, and whatever only a tool
  reveals (weather, inbox, calendar, other users' details, ...). Account details the user never
  gives in the conversation (e.g. the password of a user who starts logged in) are left out.
  No value the user never says is written down, so the simulator cannot leak it.

The scripted user is untouched: it says the recorded utterances in order (`Scenario.script`).
`dynamic_turn_limit` sizes `Scenario.max_turns` to the conversation: twice the messages the
reference solution needs when played on-policy, never below the usual limit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from toolplay.scenarios._model import ReferenceTurn, Scenario, UserSide

DEFAULT_MAX_TURNS: int = Scenario.model_fields["max_turns"].default
"""The limit every other suite keeps; a ToolTalk conversation never gets less."""

CREDENTIALS = ("username", "password", "email", "phone", "name", "verification_code")
"""Account fields of ToolTalk's `user` record, listed when the user says them."""

SESSION_ARGUMENT = "session_token"

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec"
)
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*")
_COUNT = r"\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|thirty"
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, 0 if kind == "name" else re.IGNORECASE))
    for kind, pattern in (
        ("quoted text", r"\"([^\"]+)\"|“([^”]+)”|(?<!\w)'([^']{2,})'(?!\w)"),
        ("email", EMAIL.pattern),
        ("phone", r"\(?\b\d{3}\)?[-. ]?\d{3}[-. ]\d{4}\b"),
        ("date", r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?(?:-\d{1,2}/\d{1,2})?\b"),
        ("date", rf"\b(?:{_MONTHS})\.? \d{{1,2}}(?:st|nd|rd|th)?(?:,? \d{{4}})?\b"),
        ("date", rf"\b(?:(?:this|next|last) )?(?:{_WEEKDAYS})\b"),
        (
            "date",
            r"\b(?:today|tonight|tomorrow|yesterday|(?:this|next|last) "
            r"(?:morning|afternoon|evening|night|week|weekend|month|year))\b",
        ),
        ("time", r"\b\d{1,2}(?::\d{2})?(?:-\d{1,2}(?::\d{2})?)? ?(?:am|pm|a\.m\.|p\.m\.)(?!\w)"),
        ("time", r"\b\d{1,2}:\d{2}(?::\d{2})?\b|\b(?:noon|midnight)\b"),
        ("time", r"\b(?:at|from|to) \d{1,2}(?:-\d{1,2})?\b(?![:/\d])"),
        (
            "duration",
            rf"\b(?:half an?|(?:{_COUNT})(?: and a half)?) "
            r"(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?)\b",
        ),
        ("amount", r"\$ ?\d[\d,]*(?:\.\d+)?|\b\d[\d,]*(?:\.\d+)? ?(?:dollars|usd|euros?|%)"),
        ("username", r"\(([A-Za-z0-9_.\-]+)\)"),
        ("name", r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)*\b"),
    )
)
"""Fact kinds found in utterances by pattern, in priority order (a span is taken once); only
names are case-sensitive (a capitalised word group)."""

_COMMON_WORDS = (
    "Hey Hi Hello Ok Okay Thanks Thank Yes No Nope Please Sure Great Also Can Could Would Will "
    "What When Where How Actually Oh Ah Agh Ugh Hmm Just Then And But So The My It That This "
    "Perfect Cool Awesome Fantastic Wow Yeah Assume Copy Set Check Delete Add Need Is Are"
)
NOT_NAMES = frozenset(_COMMON_WORDS.split())
"""Capitalised words that are not names (sentence openers seen mid-text after a comma)."""

ARGUMENT_LABELS = {
    "username": "username",
    "receiver": "username",
    "sender": "username",
    "attendees": "username",
    "to": "email",
    "location": "place",
    "new_location": "place",
    "query": "search words",
    "new_password": "new password",
    "old_password": "your password",
    "password": "password",
}
"""How a ground-truth argument the user says is labelled (else its name, spaced; an email
address is always an `email`)."""

REVEALED_BY = {
    "CurrentWeather": "the weather",
    "ForecastWeather": "the weather forecast",
    "HistoricWeather": "past weather",
    "QueryCalendar": "what is on your calendar",
    "GetReminders": "which reminders you have",
    "FindAlarms": "which alarms you have set",
    "SearchInbox": "what is in your inbox",
    "SearchMessages": "what your messages say",
    "QueryUser": "other users' account details",
    "GetAccountInformation": "what your account currently stores",
}
"""What a read tool tells that the user does not know beforehand (in the user's words)."""


@dataclass(frozen=True)
class Fact:
    """A fact a user utterance contains: its kind and the text as said."""

    kind: str
    value: str


def tooltalk_user_side(
    reference: Sequence[ReferenceTurn],
    user: Mapping[str, Any],
    location: str | None,
    clock: datetime,
) -> UserSide:
    """The model-driven user's goal and knowledge boundary for one conversation.

    Args:
        reference: The imported conversation's reference turns (utterances and calls).
        user: ToolTalk's `user` record (account fields, session token, verification code).
        location: The user's location (`metadata.location`).
        clock: The conversation's frozen time.

    Returns:
        A user side with `goal` and `knowledge`; no script (the scripted user reads the
        reference's utterances).
    """
    utterances = [turn.user for turn in reference if turn.user is not None]
    return UserSide(
        goal=user_goal(utterances),
        knowledge=user_knowledge(reference, user, location, clock),
    )


def user_goal(utterances: Sequence[str]) -> str:
    """What the user wants over the conversation: their utterances, in order."""
    steps = "\n".join(f"{n}. {text}" for n, text in enumerate(utterances, start=1))
    return (
        "Over this conversation you want the assistant to help you with what these messages "
        "of yours say, in this order. Message 1 is sent for you word for word; write each "
        "later one in your own words when the conversation gets there. A message that answers "
        "a question (a time, a name, a password) is what you reply when the assistant asks "
        "for it.\n"
        f"{steps}\n"
        "When all of it is done, or clearly cannot be done, end the conversation."
    )


def user_knowledge(
    reference: Sequence[ReferenceTurn],
    user: Mapping[str, Any],
    location: str | None,
    clock: datetime,
) -> str:
    """The knowledge boundary: the situation, the facts said, and what the user does not know."""
    utterances = [turn.user for turn in reference if turn.user is not None]
    facts = utterance_facts(utterances, user, reference)
    situation = f"It is {clock.strftime('%A %Y-%m-%d %H:%M')}"
    situation += f" and you are in {location}." if location else "."
    if user.get(SESSION_ARGUMENT) and user.get("username"):
        situation += f" You are logged in to your account (username {user['username']})."
    else:
        situation += " You are not logged in."
    lines = [situation, "", "Facts you know (give them when they are needed or asked for):"]
    lines += [f"- {fact.kind}: {fact.value}" for fact in facts] or ["- none beyond your messages"]
    lines += ["", "You do NOT know (never make these up; if asked, say you do not know):"]
    lines += [f"- {item}" for item in unknowns(reference, utterances)]
    return "\n".join(lines)


def utterance_facts(
    utterances: Sequence[str],
    user: Mapping[str, Any] | None = None,
    reference: Sequence[ReferenceTurn] = (),
) -> list[Fact]:
    """Every fact the utterances contain, in the order said, each listed once.

    Account fields and ground-truth argument values are recognised first, wherever the user
    says them (their value must occur in an utterance); then the kinds of `PATTERNS`. Within
    an utterance each span of text belongs to one fact, the first kind that claims it.
    """
    known = _known_values(user or {}, reference)
    facts: list[Fact] = []
    seen: set[tuple[str, str]] = set()
    for text in utterances:
        taken: list[tuple[int, int]] = []
        found: list[tuple[int, Fact]] = []
        for kind, start, end, value in _candidates(text, known):
            if any(start < b and a < end for a, b in taken):
                continue
            if kind == "name" and not _is_name(text, start, value):
                continue
            taken.append((start, end))
            found.append((start, Fact(kind, value)))
        for _, fact in sorted(found, key=lambda item: item[0]):
            key = (fact.kind, fact.value.casefold())
            if key not in seen:
                seen.add(key)
                facts.append(fact)
    return facts


def unknowns(reference: Sequence[ReferenceTurn], utterances: Sequence[str]) -> list[str]:
    """What the user does not know: unsaid ids, tokens, and what the tools used reveal."""
    said = " ".join(utterances).casefold()
    id_kinds: list[str] = []
    revealed: list[str] = []
    for turn in reference:
        for call in turn.calls:
            for key, value in call.arguments.items():
                kind = key.removesuffix("_id").replace("_", " ")
                if key.endswith("_id") and not _said(value, said) and kind not in id_kinds:
                    id_kinds.append(kind)
            what = REVEALED_BY.get(call.name)
            if what is not None and what not in revealed:
                revealed.append(what)
    items = []
    if id_kinds:
        items.append(f"the ids of your {', '.join(k + 's' for k in id_kinds)}")
    items.append("session tokens, and any verification code not listed above")
    items.append("account details not listed above (you do not have them at hand)")
    if revealed:
        items.append("what the assistant has to look up: " + "; ".join(revealed))
    items.append("anything else only the assistant's tools can find out")
    return items


def dynamic_turn_limit(reference: Sequence[ReferenceTurn]) -> int:
    """`max_turns` for on-policy play: twice the reference's message count, at least the default.

    On-policy the reference solution takes, per turn, the user's message, one message and one
    result per call, and a reply (a reply is due even where the recorded turn has none, as the
    user speaks next).
    """
    needed = sum(
        (1 if turn.user is not None else 0) + 2 * len(turn.calls) + 1 for turn in reference
    )
    return max(DEFAULT_MAX_TURNS, 2 * needed)


def _known_values(
    user: Mapping[str, Any], reference: Sequence[ReferenceTurn]
) -> list[tuple[str, str]]:
    """(label, value) of account fields and ground-truth argument strings, longest first."""
    values: dict[str, str] = {}
    for field in CREDENTIALS:
        value = user.get(field)
        if isinstance(value, str | int) and str(value).strip():
            values.setdefault(str(value), f"your {field.replace('_', ' ')}")
    for turn in reference:
        for call in turn.calls:
            for key, value in call.arguments.items():
                if key == SESSION_ARGUMENT:
                    continue
                label = ARGUMENT_LABELS.get(key, key.replace("_", " "))
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, str) and len(item.strip()) > 1:
                        values.setdefault(item, "email" if EMAIL.fullmatch(item) else label)
    return sorted(((label, v) for v, label in values.items()), key=lambda p: -len(p[1]))


def _candidates(text: str, known: Sequence[tuple[str, str]]) -> Iterator[tuple[str, int, int, str]]:
    """(kind, start, end, value) of every possible fact in `text`, in priority order."""
    for label, value in known:
        for match in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.IGNORECASE):
            yield label, match.start(), match.end(), match.group()
    for kind, pattern in PATTERNS:
        for match in pattern.finditer(text):
            group = next((i for i in range(1, (pattern.groups or 0) + 1) if match.group(i)), 0)
            value = match.group(group).strip()
            if value:
                yield kind, match.start(group), match.end(group), value


def _is_name(text: str, start: int, value: str) -> bool:
    """A capitalised word group is a name unless it opens a sentence or is a common word."""
    if value.split()[0] in NOT_NAMES or value.casefold() in _MONTHS.split("|"):
        return False
    before = text[:start].rstrip()
    return bool(before) and before[-1] not in ".!?\"'“"


def _said(value: Any, said: str) -> bool:
    return isinstance(value, str | int) and str(value).casefold() in said
