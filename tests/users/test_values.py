"""Concrete values in text: what is read as a value, and when two are the same."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolplay.users import name_tokens, same_value, values_in

UUID = "9e137f06-916a-5310-8174-cf0b7e9f7054"


def kinds(text: str) -> list[tuple[str, str]]:
    return [(v.kind, v.key) for v in values_in(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("call +1 (245) 334-4098", [("phone", "12453344098")]),
        ("write to bob.r@example.com", [("email", "bob.r@example.com")]),
        (
            "id 9e137f06-916a-5310-8174-cf0b7e9f7054",
            [("id", "9e137f06-916a-5310-8174-cf0b7e9f7054")],
        ),
        ("see message_4", [("id", "message_4")]),
        ("on 3/22/2024 at 5PM", [("date", "2024-03-22"), ("time", "17:00")]),
        ("on March 22nd, 2024", [("date", "2024-03-22")]),
        ("the 22 March meeting", [("date", "*-03-22")]),
        ("at 5:30 pm tomorrow", [("time", "17:30"), ("weekday", "tomorrow")]),
        ("it costs $1,250.50", [("amount", "1250.5")]),
        ("I am 34 and have 2 cats", [("number", "34")]),
    ],
)
def test_values_are_read_with_a_canonical_key(text: str, expected: list[tuple[str, str]]) -> None:
    assert kinds(text) == expected


def test_what_is_not_a_value() -> None:
    assert values_in("1. Turn it on. 2. Thanks") == []  # bare digits
    assert values_in("I'm a chatbot, not an AI") == []
    assert values_in("version x-ray") == []


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("+19876543210", "987-654-3210", True),  # a country code may be left out
        ("+19876543210", "+19876543211", False),
        ("5PM", "17:00", True),
        ("5:00", "5 pm", True),  # no am/pm: either half of the day
        ("5:00", "6 pm", False),
        ("3/22", "March 22nd, 2024", True),  # no year: compatible
        ("3/22/2023", "March 22, 2024", False),
        ("$20", "20 dollars", True),  # an amount and a number: by their numeric value
        ("$20", "$25", False),
    ],
)
def test_same_value(a: str, b: str, same: bool) -> None:
    va, vb = values_in(a)[0], values_in(b)[0]
    assert same_value(va, vb) is same


def test_names_inside_sentences() -> None:
    text = "Add Stephen Sondheim. Then tell Bob, and I'm OK with AI. Thanks, Alice!"
    assert [n for n, _ in name_tokens(text)] == ["Stephen", "Sondheim", "Bob", "Alice"]


@given(st.text(max_size=200))
def test_reading_any_text_is_safe_and_ordered(text: str) -> None:
    found = values_in(text)
    assert [v.start for v in found] == sorted(v.start for v in found)
    for v in found:
        assert text[v.start :].startswith(v.text.strip()[:1])
