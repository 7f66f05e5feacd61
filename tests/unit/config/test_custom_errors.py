"""The model's own errors are told apart by their code and shown in the user's language."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from app.config.custom_errors import Custom, custom_kind
from app.config.model import Config
from app.config.validate import check_text
from app.i18n import set_language

BOTH = {"name": "a", "builtin": "demo", "command": ["x"]}
NEITHER = {"name": "a"}
MCP_NEITHER = {"name": "a", "builtin": "demo", "mcpServers": [{"name": "m"}]}
RESERVED = {"name": "all", "builtin": "demo"}  # @all mentions every member (issue 29)
TWICE = [{"name": "a", "builtin": "demo"}, {"name": "a", "builtin": "demo"}]


@pytest.mark.parametrize(
    ("document", "kind"),
    [
        pytest.param({"theme": None}, Custom.EMPTY_VALUE, id="empty-value"),
        pytest.param({"agents": [BOTH]}, Custom.COMMAND_AND_BUILTIN, id="command-and-builtin"),
        pytest.param({"agents": [NEITHER]}, Custom.NO_COMMAND_NOR_BUILTIN, id="neither"),
        pytest.param({"agents": [MCP_NEITHER]}, Custom.MCP_COMMAND_OR_URL, id="mcp-neither"),
        pytest.param({"agents": TWICE}, Custom.DUPLICATE_NAME, id="duplicate-name"),
        pytest.param({"agents": [RESERVED]}, Custom.RESERVED_NAME, id="reserved-name"),
    ],
)
def test_each_error_the_model_raises_is_recognised_by_its_code(
    document: dict[str, Any], kind: Custom
) -> None:
    with pytest.raises(ValidationError) as raised:
        Config.model_validate(document)

    assert [custom_kind(e["type"]) for e in raised.value.errors()] == [kind]


def test_an_error_raised_by_pydantic_itself_is_not_one_of_the_models() -> None:
    assert custom_kind("missing") is None


# French puts a no-break space (\u00a0) before a colon.
@pytest.mark.parametrize(
    ("text", "french"),
    [
        pytest.param(
            "theme:\n",
            "`theme` n’a pas de valeur\u00a0: donnez-lui une valeur ou supprimez la ligne",
            id="empty-value",
        ),
        pytest.param(
            "agents:\n  - name: a\n    builtin: demo\n    command: [x]\n",
            "un agent a soit `command`, soit `builtin`, pas les deux",
            id="command-and-builtin",
        ),
        pytest.param(
            "agents:\n  - name: a\n",
            "un agent a besoin de `command` (le programme à lancer) ou de `builtin` (par ex. demo)",
            id="neither",
        ),
        pytest.param(
            "agents:\n  - name: a\n    builtin: demo\n    mcpServers:\n      - name: m\n",
            "un serveur MCP a besoin de `command` (stdio) ou de `url` (http, sse)\u00a0: "
            "l’un des deux",
            id="mcp-neither",
        ),
        pytest.param(
            "agents:\n  - name: a\n    builtin: demo\n  - name: a\n    builtin: demo\n",
            "un agent nommé `a` existe déjà (la casse des noms n’est pas prise en compte)",
            id="duplicate-name",
        ),
    ],
)
def test_each_error_of_the_model_is_shown_in_french_when_the_app_speaks_french(
    text: str, french: str
) -> None:
    set_language("fr")

    result = check_text(text)

    assert [p.message for p in result.problems] == [french]


def test_here_and_all_as_names_are_a_problem_at_the_name_saying_why() -> None:
    text = "agents:\n  - name: demo\n    builtin: demo\n  - name: here\n    builtin: demo\n"
    problems = check_text(text).entries
    assert [(p.line, p.column, p.message) for p in problems] == [
        (
            4,
            11,
            "`here` cannot be an agent's name: @here mentions every member of a channel; "
            "choose another name",
        )
    ]
