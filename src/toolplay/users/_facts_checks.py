"""The checks on what a simulated user states: invented, leaked, and off-script values.

- `invented_information`: a message states a concrete value (phone number, email, id, date,
  time, weekday, amount, number of two or more digits, or a name) that appears nowhere in what
  the user was given (its briefing) or shown before it (the assistant's messages, and its own
  earlier ones, so each invention is flagged where it is first said).
- `leaked_information`: a message states a fact its briefing says to withhold (`UserFacts.
  withheld`), before the assistant has stated it itself.
- `script_deviation`: a message states, about a slot its script fixes (`UserFacts.slots`), a
  value of that slot's kind (or a name, for a name slot) that is not the script's and that it
  was never given: the script fixed it, the user said another. Such a value is also an
  invention, and is counted under both kinds.

Each errs on the side of not flagging (see `_values`): a value written in a form the extractor
does not read is not seen at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from toolplay.messages import Message, Trajectory
from toolplay.users._briefing import UserBriefing, model_messages
from toolplay.users._findings import UserError
from toolplay.users._values import (
    SHORT_ANSWER,
    Value,
    digit_runs,
    name_tokens,
    same_value,
    stated,
    values_in,
    word_set,
)


@dataclass(frozen=True)
class Known:
    """What the user knew when it wrote a message: values, digit runs and words."""

    values: tuple[Value, ...]
    digits: frozenset[str]
    words: frozenset[str]

    @classmethod
    def of(cls, texts: Iterable[str]) -> Known:
        """Everything `texts` state."""
        texts = list(texts)
        return cls(
            values=tuple(v for t in texts for v in values_in(t)),
            digits=frozenset(d for t in texts for d in digit_runs(t)),
            words=frozenset(w for t in texts for w in word_set(t)),
        )

    def states(self, value: Value) -> bool:
        """Whether `value` is among what was known."""
        return stated(value, self.values, self.digits)


def seen_before(trajectory: Trajectory, message: Message) -> list[str]:
    """The texts the user saw before `message`: the assistant's and its own earlier messages."""
    return [
        m.content
        for m in trajectory.messages[: message.index]
        if m.content and m.sender in ("user", "assistant") and "user" in m.visible_to
    ]


def _asked(trajectory: Trajectory, message: Message) -> str:
    """The assistant's last text before `message` (what the user answers)."""
    for m in reversed(trajectory.messages[: message.index]):
        if m.sender == "assistant" and m.content:
            return m.content
    return ""


def _known(trajectory: Trajectory, briefing: UserBriefing, message: Message) -> Known:
    return Known.of([*briefing.texts, *seen_before(trajectory, message)])


class Deviation(NamedTuple):
    """A value or name a message states where the script fixes another."""

    start: int
    text: str
    script: str


_GENERIC = frozenset({"target", "original", "new", "old", "value", "values", "the", "type", "id"})
"""Words of a slot's name too common to tie a message to it (`targetValue`)."""


_NUMERIC = ("number", "amount")


class Slot(NamedTuple):
    """A slot the script fixes to one concrete value, and the words that name it."""

    words: frozenset[str]
    value: Value


def _slot_words(key: str) -> frozenset[str]:
    """`phone_number` -> {phone, number}; `targetTime` -> {time}."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", key).replace("_", " ").replace("-", " ")
    return frozenset(w for w in spaced.lower().split() if w not in _GENERIC and len(w) > 1)


def _slots(briefing: UserBriefing) -> list[Slot]:
    """The slots whose whole value is one concrete value (`+14085550163`, `10%`, `7:00`)."""
    out = []
    for key, raw in briefing.facts.slots.items():
        if isinstance(raw, bool) or raw is None or isinstance(raw, dict | list):
            continue
        text = str(raw).strip()
        found = values_in(text)
        if len(found) == 1 and found[0].text == text:
            out.append(Slot(_slot_words(key), found[0]))
    return out


class NameSlot(NamedTuple):
    """A slot the script fixes to a name (`Luis Ortega`), and the words that name the slot."""

    words: frozenset[str]
    value: str


def _name_slots(briefing: UserBriefing) -> list[NameSlot]:
    """Slots whose value is a name: two or more capitalised words."""
    return [
        NameSlot(_slot_words(key), value)
        for key, value in briefing.facts.slots.items()
        if isinstance(value, str) and re.fullmatch(r"[A-Z][\w'’.-]*( [A-Z][\w'’.-]*)+", value)
    ]


def _name_runs(text: str, *, answer: bool = False) -> list[list[tuple[str, int]]]:
    """Runs of name tokens written next to each other (`Adaeze Okonkwo`)."""
    runs: list[list[tuple[str, int]]] = []
    for name, start in name_tokens(text, answer=answer):
        last = runs[-1][-1] if runs else None
        if last is not None and text[last[1] + len(last[0]) : start] == " ":
            runs[-1].append((name, start))
        else:
            runs.append([(name, start)])
    return runs


def _deviations(
    message: Message, known: Known, briefing: UserBriefing, asked: str
) -> list[Deviation]:
    """Each value (or name) the message states off-script, with the script's own.

    A value counts when a slot holds one value of its kind, the message does not state that
    value, and the slot is the subject: a word of the slot's name is in the message or in the
    assistant's message before it (`asked`): "What is his phone number?" -> "+14085550136"
    for `phone_number: +14085550163`. A value of the same kind said about something else (a
    current brightness beside the target one, another date in a new question) is not the
    slot's. A name counts when a slot holds a name and the message writes a name never given
    either as part of a name that shares a word with the slot's ("Adaeze Okonkwo" for "Adaeze
    Okafor") or as a short answer (`SHORT_ANSWER` words) while the slot is the subject
    ("What's her name?" -> "Lena"); another name said about something else ("I use a Samsung
    Galaxy", "Thanks, Bob") is an invention, not a deviation.
    """
    text = message.content or ""
    said = values_in(text)
    subject = word_set(text) | word_set(asked)
    out = []
    for slot in _slots(briefing):
        if not slot.words & subject or any(same_value(v, slot.value) for v in said):
            continue
        kinds = {slot.value.kind} | ({"number", "amount"} if slot.value.kind in _NUMERIC else set())
        for value in said:
            if value.kind in kinds and not known.states(value):
                out.append(Deviation(value.start, value.text, slot.value.text))
    lowered = text.lower()
    short = len(word_set(text)) <= SHORT_ANSWER
    for name_slot in _name_slots(briefing):
        words = {w.lower() for w in name_slot.value.split()}
        about = short and bool(name_slot.words & subject) and name_slot.value.lower() not in lowered
        for run in _name_runs(text, answer=about):
            written = {name.lower() for name, _ in run}
            if not about and (len(run) < 2 or not written & words):
                continue
            for name, start in run:
                if name.lower() not in known.words:
                    out.append(Deviation(start, name, name_slot.value))
    return out


def invented_information(trajectory: Trajectory, briefing: UserBriefing) -> list[UserError]:
    """Values and names the user states that it was never given (module docstring)."""
    errors: list[UserError] = []
    for message in model_messages(trajectory, briefing):
        known = _known(trajectory, briefing, message)
        text = message.content or ""
        new = [v.text for v in values_in(text) if not known.states(v)]
        new += [name for name, _ in name_tokens(text) if name.lower() not in known.words]
        if new:
            shown = ", ".join(repr(v) for v in dict.fromkeys(new))
            errors.append(
                UserError(
                    kind="invented_information",
                    message_index=message.index,
                    evidence=f"states {shown}, which appear(s) nowhere in the user's briefing "
                    "or in what it was told before",
                    values=list(dict.fromkeys(new)),
                )
            )
    return errors


_NORMAL = re.compile(r"[^a-z0-9]+")


def _normal(text: str) -> str:
    return " " + _NORMAL.sub(" ", text.lower()).strip() + " "


def fact_stated(fact: str, text: str) -> bool:
    """Whether `text` states `fact`: one of the fact's concrete values, or, for a fact without
    any, its words in order (case and punctuation aside).
    """
    values = values_in(fact)
    if values:
        said = values_in(text)
        return any(same_value(v, s) for v in values for s in said)
    wanted = _normal(fact)
    return len(wanted.strip()) >= 3 and wanted in _normal(text)


def withheld_fact(sentence: str) -> str:
    """The fact a withheld sentence states: `It should be X` -> `X`, `A is B` -> `B` when B
    holds a value, otherwise the sentence itself.
    """
    text = sentence.strip().rstrip(".")
    found = re.match(r"(?i)it should (?:be|say|read)\s+(.*)", text)
    if found:
        return found.group(1).strip()
    return text


def leaked_information(trajectory: Trajectory, briefing: UserBriefing) -> list[UserError]:
    """Facts the briefing says to withhold, stated before the assistant stated them."""
    errors: list[UserError] = []
    facts = [withheld_fact(f) for f in briefing.facts.withheld]
    if not facts:
        return errors
    for message in model_messages(trajectory, briefing):
        said_before = [
            m.content
            for m in trajectory.messages[: message.index]
            if m.content and m.sender == "assistant"
        ]
        leaked = [
            f
            for f in facts
            if fact_stated(f, message.content or "")
            and not any(fact_stated(f, t) for t in said_before)
        ]
        if leaked:
            errors.append(
                UserError(
                    kind="leaked_information",
                    message_index=message.index,
                    evidence="states what its briefing says to withhold (the answer the "
                    "assistant must find): " + "; ".join(repr(f) for f in leaked),
                    values=leaked,
                )
            )
    return errors


def script_deviation(trajectory: Trajectory, briefing: UserBriefing) -> list[UserError]:
    """Slot values stated otherwise than the script fixes them (module docstring)."""
    errors: list[UserError] = []
    if not briefing.facts.slots:
        return errors
    for message in model_messages(trajectory, briefing):
        known = _known(trajectory, briefing, message)
        found = _deviations(message, known, briefing, _asked(trajectory, message))
        if found:
            pairs = "; ".join(f"{d.text!r} where the script says {d.script!r}" for d in found)
            errors.append(
                UserError(
                    kind="script_deviation",
                    message_index=message.index,
                    evidence=f"states {pairs}",
                    values=[d.text for d in found],
                )
            )
    return errors
