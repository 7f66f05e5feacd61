"""The built-in agents' names are written once, and `builtin:` accepts exactly those."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.config.builtin_names import BUILTIN_NAMES
from app.config.model import AgentDef


@pytest.mark.parametrize("name", BUILTIN_NAMES)
def test_every_built_in_name_is_accepted_as_builtin(name: str) -> None:
    agent = AgentDef.model_validate({"name": "a", "builtin": name})

    assert agent.builtin == name


def test_a_name_that_is_not_built_in_is_refused_as_builtin() -> None:
    with pytest.raises(ValidationError) as raised:
        AgentDef.model_validate({"name": "a", "builtin": "not-a-builtin"})

    assert [e["type"] for e in raised.value.errors()] == ["literal_error"]
