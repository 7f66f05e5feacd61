"""`WireJson`: a result already encoded for the page, readable from Python as a mapping."""

from __future__ import annotations

import pytest

from app.models.wire import WireJson


def test_it_reads_as_the_mapping_its_text_encodes() -> None:
    value = WireJson('{"messages": [{"id": "a"}], "more": false}')
    assert value["messages"][0]["id"] == "a"
    assert dict(value) == {"messages": [{"id": "a"}], "more": False}
    assert value == {"messages": [{"id": "a"}], "more": False}
    assert len(value) == 2 and "more" in value and "nope" not in value


def test_a_text_that_is_not_an_object_is_refused_when_read() -> None:
    with pytest.raises(TypeError):
        WireJson("[1, 2]")["x"]
