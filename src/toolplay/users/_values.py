"""Concrete values in free text: phone numbers, emails, ids, dates, times, amounts, numbers.

The user-error checks ask one question of a user message again and again: does it state a
concrete value that the user was never given? Answering it needs the values a text states, each
in a canonical form (a `key`) so that `+1 (987) 654-3210` and `+19876543210`, or `5PM` and
`17:00`, or `3/22/2024` and `March 22nd, 2024`, compare equal. Extraction errs on the side of
*not* finding a value: a bare one-digit number, a capitalised word at the start of a sentence
or an acronym is not a value. Names are found apart (`name_tokens`): a capitalised word inside a
sentence that is not a common English word.

Everything here is pure text processing: deterministic, no model, no locale.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

ValueKind = Literal["phone", "email", "id", "date", "time", "weekday", "amount", "number"]
"""What a value is (names are found apart: `name_tokens`)."""

MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
RELATIVE_DAYS = ("tomorrow", "yesterday")

_MONTH = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_ORD = r"(?:st|nd|rd|th)?"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("email", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
    (
        "id",
        re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I),
    ),
    ("date", re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")),
    ("date", re.compile(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2}|\d{4}))?\b")),
    (
        "date",
        re.compile(rf"\b({_MONTH})\s+(\d{{1,2}}){_ORD}\b(?:,?\s+(\d{{4}})\b)?", re.I),
    ),
    (
        "date",
        re.compile(rf"\b(\d{{1,2}}){_ORD}\s+(?:of\s+)?({_MONTH})\b(?:,?\s+(\d{{4}})\b)?", re.I),
    ),
    ("time", re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s*m\b\.?", re.I)),
    ("time", re.compile(r"\b(\d{1,2}):(\d{2})\b")),
    ("time", re.compile(r"\b(noon|midnight)\b", re.I)),
    ("phone", re.compile(r"(?<![\w.])\+?\(?\d[\d\s().-]{5,}\d\b")),
    (
        "amount",
        re.compile(r"[$€£¥]\s?(\d[\d,]*(?:\.\d+)?)|\b(\d[\d,]*(?:\.\d+)?)\s?(?:%|percent\b)"),
    ),
    ("id", re.compile(r"\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)+\b")),
    ("weekday", re.compile(r"\b(" + "|".join(WEEKDAYS + RELATIVE_DAYS) + r")\b", re.I)),
    ("number", re.compile(r"(?<![\w.])-?\d+(?:[.,]\d+)?(?![\w])")),
)
"""Tried in order; a span taken by an earlier pattern is not read again by a later one."""


@dataclass(frozen=True)
class Value:
    """A concrete value found in a text.

    Attributes:
        kind: What it is.
        text: The value as written.
        key: Its canonical form (values of one kind compare by key; see `same_value`).
        start: Where it starts in the text.
    """

    kind: ValueKind
    text: str
    key: str
    start: int


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _date_key(month: int, day: int, year: str | None) -> str | None:
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    if year is not None and len(year) == 2:
        year = "20" + year
    return f"{year or '*'}-{month:02d}-{day:02d}"


def _key(kind: str, match: re.Match[str], pattern: int) -> str | None:
    """The canonical key of a match (None: not a value after all)."""
    text = match.group(0)
    groups = match.groups()
    if kind == "email":
        return text.lower()
    if kind == "id":
        return text.lower()
    if kind == "phone":
        digits = _digits(text)
        return digits if len(digits) >= 7 else None
    if kind == "date":
        if pattern == 2:  # 2024-03-22
            return _date_key(int(groups[1]), int(groups[2]), groups[0])
        if pattern == 3:  # 3/22/2024
            return _date_key(int(groups[0]), int(groups[1]), groups[2])
        if pattern == 4:  # March 22, 2024
            month = MONTHS[groups[0].lower().rstrip(".")]
            return _date_key(month, int(groups[1]), groups[2])
        month = MONTHS[groups[1].lower().rstrip(".")]  # 22 March 2024
        return _date_key(month, int(groups[0]), groups[2])
    if kind == "time":
        if groups[0] and groups[0].lower() in ("noon", "midnight"):
            return "12:00" if groups[0].lower() == "noon" else "00:00"
        hour, minute = int(groups[0]), int(groups[1] or 0)
        if len(groups) > 2 and groups[2]:  # am / pm
            if not 1 <= hour <= 12 or minute > 59:
                return None
            hour = hour % 12 + (12 if groups[2].lower() == "p" else 0)
            return f"{hour:02d}:{minute:02d}"
        if hour > 23 or minute > 59:
            return None
        return f"{hour:02d}:{minute:02d}?"  # no am/pm: the hour may mean either half-day
    if kind == "amount":
        return _number_key(groups[0] or groups[1] or "")
    if kind == "weekday":
        return text.lower()
    return _number_key(text)


def _number_key(text: str) -> str | None:
    """`1,000` and `1000.0` -> `1000`; a comma before anything but groups of three digits is a
    decimal comma (`3,5` -> `3.5`).
    """
    if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", text):
        text = text.replace(",", "")
    text = text.replace(",", ".")
    try:
        value = float(text)
    except ValueError:
        return None
    return f"{value:g}"


def values_in(text: str) -> list[Value]:
    """Every concrete value `text` states, in order (see the module docstring)."""
    return list(_values(text))


@lru_cache(maxsize=4096)
def _values(text: str) -> tuple[Value, ...]:
    """`values_in`, memoised: a conversation's earlier texts are read again for each message."""
    taken: list[tuple[int, int]] = []
    found: list[Value] = []
    for number, (kind, pattern) in enumerate(_PATTERNS):
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < e and s < end for s, e in taken):
                continue
            if kind == "phone" and not _looks_like_phone(match.group(0)):
                continue
            if kind == "id" and re.fullmatch(r"\d+-[a-z]+", match.group(0)):
                continue  # a measure ("30-minute", "5-star"), not an id
            if kind == "number" and len(match.group(0).lstrip("-")) < 2:
                continue  # a bare digit ("1.", "2 things") is too common to be a fact
            key = _key(kind, match, number)
            if key is None:
                continue
            taken.append((start, end))
            found.append(Value(kind, match.group(0).strip(), key, start))  # type: ignore[arg-type]
    return tuple(sorted(found, key=lambda v: v.start))


def _looks_like_phone(text: str) -> bool:
    """A run of digits with phone-like separators and 7 to 15 digits (not a decimal)."""
    digits = _digits(text)
    return 7 <= len(digits) <= 15 and not re.fullmatch(r"\d+[.,]\d+", text.strip())


def same_value(a: Value, b: Value) -> bool:
    """Whether two values state the same thing (same kind; a number and an amount compare by
    their numeric value).

    Phone numbers match when one's digits end the other's (a country code may be left out),
    dates when day and month agree and the years do not contradict, a time written without
    am/pm matches either half of the day, amounts and numbers by their numeric value.
    """
    if {a.kind, b.kind} == {"number", "amount"}:
        return a.key == b.key  # "$500" and a slot of 500
    if a.kind != b.kind:
        return False
    if a.kind == "phone":
        short, long = sorted((a.key, b.key), key=len)
        return long.endswith(short) and len(short) >= 7
    if a.kind == "date":
        (ya, ma), (yb, mb) = (a.key.split("-", 1), b.key.split("-", 1))
        return ma == mb and (ya == yb or "*" in (ya, yb))
    if a.kind == "time":
        return _time_options(a.key) & _time_options(b.key) != set()
    return a.key == b.key


def _time_options(key: str) -> set[str]:
    if not key.endswith("?"):
        return {key}
    hour, minute = key[:-1].split(":")
    options = {f"{int(hour):02d}:{minute}"}
    if int(hour) < 12:
        options.add(f"{int(hour) + 12:02d}:{minute}")
    if int(hour) == 12:
        options.add(f"00:{minute}")
    return options


def stated(value: Value, sources: Iterable[Value], source_digits: Collection[str]) -> bool:
    """Whether `value` is one of `sources` (a number also when any source shows its digits)."""
    if any(same_value(value, s) for s in sources):
        return True
    if value.kind in ("number", "amount"):
        digits = value.key.replace(".", "").lstrip("-")
        return digits in source_digits or value.key in source_digits
    return False


@lru_cache(maxsize=4096)
def digit_runs(text: str) -> frozenset[str]:
    """Every run of digits in `text` (with leading zeros dropped) and every decimal number."""
    runs = {run.lstrip("0") or "0" for run in re.findall(r"\d+", text)}
    runs |= {_number_key(n) or n for n in re.findall(r"\d+\.\d+", text)}
    return frozenset(runs)


# -- names ---------------------------------------------------------------------------------------

_COMMON = """
    a about above after again against all also am an and any anything are as at be because been
    before being below between both but by can cannot could did do does doing done down during
    each else ever every few for from further had has have having he her here hers him his how
    i if in into is it its itself just let me more most my myself no nor not now of off on once
    only or other our ours out over own please same she should so some such than thank thanks
    that the their them then there these they this those through to too under until up very
    was we were what when where which while who whom why will with would yes yet you your
    yours hi hello hey okay ok sure great good nice perfect awesome cool fine alright right
    sorry excuse well oh wow yeah yep nope no maybe absolutely definitely certainly really
    actually also still already just almost however therefore anyway also user assistant
    dear sir madam mr mrs ms dr team everyone guys folks friend friends buddy mate
"""
COMMON_WORDS = frozenset(_COMMON.split())
"""Words that are never a name, even when capitalised inside a sentence."""

_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['’])*")
"""A word in any script (`Vallée`, `Zoë`), apostrophes inside."""
_SENTENCE_START = re.compile(r"(^|[.!?:;\n\"“(]\s*|\s-\s)$")


SHORT_ANSWER = 4
"""Words of a reply short enough to be read as an answer (`name_tokens(answer=True)`)."""


def name_tokens(text: str, *, answer: bool = False) -> list[tuple[str, int]]:
    """Capitalised words inside a sentence that may be names, with their positions.

    Left out: the first word of a sentence (or after a colon, quote or bracket), `I` and its
    contractions, acronyms of up to three capitals (`AI`, `OK`), and common words
    (`COMMON_WORDS`), month and weekday names (dates are values of their own); and every word
    of a text written as a title (each word capitalised). With `answer` (the text answers a
    question about a name), a reply of up to `SHORT_ANSWER` words is read whole: "Lena",
    "Luis Ortega".
    """
    found: list[tuple[str, int]] = []
    words = _WORD.findall(text)
    whole = answer and len(words) <= SHORT_ANSWER
    if not whole and len(words) > 1 and all(w[0].isupper() for w in words):
        return found  # a title ("Temperature Conversion"), not a sentence
    for match in _WORD.finditer(text):
        word = match.group(0).rstrip("'’")
        if not word[0].isupper() or len(word) < 2:
            continue
        if not whole and _SENTENCE_START.search(text[: match.start()]):
            continue
        base = re.split(r"['’]", word)[0]
        lower = base.lower()
        if lower in COMMON_WORDS or lower in MONTHS or lower in WEEKDAYS:
            continue
        if base.isupper() and len(base) <= 3:
            continue
        if lower.startswith("i") and len(lower) <= 2:
            continue
        found.append((base, match.start()))
    return found


@lru_cache(maxsize=4096)
def word_set(text: str) -> frozenset[str]:
    """The lower-cased words of `text` (what a name is looked up in)."""
    return frozenset(re.split(r"['’]", w)[0].lower() for w in _WORD.findall(text))
