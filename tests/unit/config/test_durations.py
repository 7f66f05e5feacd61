"""Human durations: `90s`, `15m`, `2h`, `1h30m`, or a number of seconds; 0 means never."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.config.durations import DURATION_PATTERN, parse_duration


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        pytest.param("0", 0, id="zero-means-never"),
        pytest.param("90s", 90, id="seconds"),
        pytest.param("15m", 900, id="minutes"),
        pytest.param("2h", 7200, id="hours"),
        pytest.param("1h30m", 5400, id="hours-and-minutes"),
        pytest.param("1h30m15s", 5415, id="all-three-units"),
        pytest.param("1h15s", 3615, id="hours-and-seconds"),
        pytest.param("90m", 5400, id="minutes-above-an-hour"),
        pytest.param("0s", 0, id="zero-seconds"),
        pytest.param("0h0m0s", 0, id="zero-of-each-unit"),
        pytest.param("100h", 360000, id="many-hours"),
        pytest.param(60.0, 60, id="a-whole-float-like-json-schema-integers"),
        pytest.param("007m", 420, id="leading-zeros-in-a-part"),
    ],
)
def test_a_duration_text_is_read_as_seconds(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("seconds", [0, 1, 45, 900, 10**9])
def test_a_whole_number_is_read_as_seconds(seconds: int) -> None:
    assert parse_duration(seconds) == seconds


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("5x", id="unknown-unit"),
        pytest.param("-1", id="negative-text"),
        pytest.param("1.5h", id="fraction"),
        pytest.param("", id="empty-text"),
        pytest.param("h", id="unit-without-number"),
        pytest.param("m5", id="unit-before-number"),
        pytest.param("1m1h", id="units-out-of-order"),
        pytest.param("1h1h", id="unit-twice"),
        pytest.param("1h 30m", id="space-between-parts"),
        pytest.param("15M", id="uppercase-unit"),
        pytest.param("1d", id="days"),
        pytest.param("90", id="bare-digits-as-text"),
        pytest.param("00", id="zero-twice"),
        pytest.param("0x10s", id="hexadecimal"),
        pytest.param(True, id="true"),
        pytest.param(False, id="false"),
        pytest.param(None, id="none"),
        pytest.param(1.5, id="float"),
        pytest.param(["15m"], id="list"),
    ],
)
def test_a_malformed_duration_is_refused_with_an_example_of_the_right_form(value: object) -> None:
    with pytest.raises(
        ValueError, match=r"must be a duration like 90s, 15m or 2h \(0 means never\)"
    ):
        parse_duration(value)


def test_a_negative_number_of_seconds_is_refused_as_negative() -> None:
    with pytest.raises(ValueError, match="must not be negative"):
        parse_duration(-1)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.none(), st.integers(0, 999)),
    st.one_of(st.none(), st.integers(0, 999)),
    st.one_of(st.none(), st.integers(0, 999)),
)
def test_any_well_formed_text_is_read_as_the_sum_of_its_parts(
    hours: int | None, minutes: int | None, seconds: int | None
) -> None:
    parts = [(hours, "h", 3600), (minutes, "m", 60), (seconds, "s", 1)]
    text = "".join(f"{n}{unit}" for n, unit, _size in parts if n is not None) or "0"

    value = parse_duration(text)

    assert value == sum(n * size for n, _unit, size in parts if n is not None)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789hms .-+xd", max_size=10))
def test_a_text_is_accepted_exactly_when_it_matches_the_schema_pattern(text: str) -> None:
    # The JSON Schema checks durations with DURATION_PATTERN; the parser must agree with it.
    try:
        parse_duration(text)
    except ValueError:
        accepted = False
    else:
        accepted = True

    assert accepted == bool(re.search(DURATION_PATTERN, text)), text
