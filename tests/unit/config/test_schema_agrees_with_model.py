"""The JSON Schema served to the editor and the pydantic model accept and reject the same documents.

Known, documented difference: the schema cannot say that agent names are unique (ignoring case),
so the generated documents only hold unique names and one test shows the difference.

Once-found disagreements, now fixed and generated on purpose: whole floats for integers
(`maxRunningAgents: 4.0`), durations with surrounding spaces (`" 15m"`) and texts ending with a
newline (`"demo\\n"`, as `name: |` gives).
"""

from __future__ import annotations

import copy
import string
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from app.config.model import AGENT_NAME_MAX, Config, json_schema

SCHEMA = json_schema()
VALIDATOR = Draft202012Validator(SCHEMA)


def schema_ok(document: Any) -> bool:
    return VALIDATOR.is_valid(document)


def model_ok(document: Any) -> bool:
    try:
        Config.model_validate(document)
    except ValidationError:
        return False
    return True


def test_the_generated_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_a_duplicate_name_is_rejected_by_the_model_but_not_by_the_schema() -> None:
    # The documented difference: JSON Schema cannot express "unique by this property".
    document = {
        "agents": [
            {"name": "demo", "builtin": "demo"},
            {"name": "demo", "command": ["demo-agent"]},
        ]
    }

    assert schema_ok(document)
    with pytest.raises(ValidationError) as caught:
        Config.model_validate(document)
    assert [e["type"] for e in caught.value.errors()] == ["duplicate_name"]


# --- fixed examples at the edges ---------------------------------------------------------------

AGENT = {"name": "demo", "builtin": "demo"}

EXAMPLES = [
    pytest.param({}, True, id="empty-mapping"),
    pytest.param([], False, id="a-list"),
    pytest.param("theme: dark", False, id="a-string"),
    pytest.param(None, False, id="null"),
    pytest.param({"theme": "dark", "language": "fr"}, True, id="theme-and-language"),
    pytest.param({"theme": "Dark"}, False, id="theme-wrong-case"),
    pytest.param({"theme": None}, False, id="theme-empty"),
    pytest.param({"limits": {"maxRunningAgents": 1}}, True, id="max-running-one"),
    pytest.param({"limits": {"maxRunningAgents": 0}}, False, id="max-running-zero"),
    pytest.param({"limits": {"maxRunningAgents": True}}, False, id="max-running-boolean"),
    pytest.param({"limits": {"maxRunningAgents": "4"}}, False, id="max-running-text"),
    pytest.param({"limits": {"maxRunningAgents": 10**30}}, True, id="max-running-huge"),
    pytest.param({"limits": {"stopIdleAgentsAfter": 0}}, True, id="duration-zero"),
    pytest.param({"limits": {"stopIdleAgentsAfter": "0"}}, True, id="duration-zero-text"),
    pytest.param({"limits": {"stopIdleAgentsAfter": "1h30m15s"}}, True, id="duration-all-units"),
    pytest.param({"limits": {"stopIdleAgentsAfter": "30m1h"}}, False, id="duration-wrong-order"),
    pytest.param({"limits": {"stopIdleAgentsAfter": "90"}}, False, id="duration-bare-digits-text"),
    pytest.param({"limits": {"stopIdleAgentsAfter": -1}}, False, id="duration-negative"),
    pytest.param({"limits": {"stopIdleAgentsAfter": False}}, False, id="duration-boolean"),
    pytest.param({"limits": {"stopIdleAgentsAfter": 1.5}}, False, id="duration-fraction"),
    pytest.param({"limits": []}, False, id="limits-a-list"),
    pytest.param({"agents": [AGENT]}, True, id="builtin-agent"),
    pytest.param({"agents": [{"name": "a", "command": ["x", "-y"]}]}, True, id="command-agent"),
    pytest.param({"agents": [{"name": "a"}]}, False, id="neither-command-nor-builtin"),
    pytest.param(
        {"agents": [{"name": "a", "builtin": "demo", "command": ["x"]}]},
        False,
        id="command-and-builtin",
    ),
    pytest.param({"agents": [{"name": "a", "command": []}]}, False, id="command-empty-list"),
    pytest.param({"agents": [{"name": "a", "command": [""]}]}, False, id="command-empty-item"),
    pytest.param({"agents": [{"name": "a", "command": "x"}]}, False, id="command-a-string"),
    pytest.param({"agents": [{"builtin": "demo"}]}, False, id="agent-without-name"),
    pytest.param(
        {"agents": [{"name": "a" * AGENT_NAME_MAX, "builtin": "demo"}]}, True, id="name-40"
    ),
    pytest.param(
        {"agents": [{"name": "a" * (AGENT_NAME_MAX + 1), "builtin": "demo"}]}, False, id="name-41"
    ),
    pytest.param({"agents": [{"name": "0_a-b", "builtin": "demo"}]}, True, id="name-digit-first"),
    pytest.param(
        {"agents": [{"name": "_a", "builtin": "demo"}]}, False, id="name-underscore-first"
    ),
    pytest.param({"agents": [{"name": "", "builtin": "demo"}]}, False, id="name-empty"),
    pytest.param({"agents": [{**AGENT, "title": ""}]}, True, id="title-empty-text"),
    pytest.param({"agents": [{**AGENT, "title": None}]}, False, id="title-null"),
    pytest.param(
        {"agents": [{**AGENT, "env": {"A": "x", "B": 1, "C": 1.5, "D": True}}]},
        True,
        id="env-scalars",
    ),
    pytest.param({"agents": [{**AGENT, "env": {"A": None}}]}, False, id="env-null"),
    pytest.param({"agents": [{**AGENT, "env": {"A": ["x"]}}]}, False, id="env-list"),
    pytest.param({"agents": [{**AGENT, "colour": "red"}]}, False, id="agent-unknown-key"),
    pytest.param({"colour": "red"}, False, id="root-unknown-key"),
    pytest.param(
        {"agents": [{**AGENT, "mcpServers": [{"name": "m", "command": "x"}]}]},
        True,
        id="mcp-command",
    ),
    pytest.param(
        {"agents": [{**AGENT, "mcpServers": [{"name": "m", "url": "http://h", "type": "sse"}]}]},
        True,
        id="mcp-url",
    ),
    pytest.param({"agents": [{**AGENT, "mcpServers": [{"name": "m"}]}]}, False, id="mcp-neither"),
    pytest.param(
        {"agents": [{**AGENT, "mcpServers": [{"name": "m", "command": "x", "url": "http://h"}]}]},
        False,
        id="mcp-both",
    ),
    pytest.param(
        {"agents": [{**AGENT, "mcpServers": [{"name": "m", "url": "http://h", "type": "ws"}]}]},
        False,
        id="mcp-unknown-type",
    ),
]


@pytest.mark.parametrize(("document", "accepted"), EXAMPLES)
def test_the_schema_and_the_model_agree_on_an_edge_case(document: Any, accepted: bool) -> None:
    assert schema_ok(document) is accepted
    assert model_ok(document) is accepted


# --- generated near-valid documents -----------------------------------------------------------
# Each value is usually right and sometimes wrong, so that many documents are valid and many are
# wrong in one place: where the schema and the model are most likely to part ways. Wrong values
# are mostly picked from a list of likely mistakes for that key, so that each is tried often.

NAME_ALPHABET = string.ascii_lowercase + string.digits + "_-"


texts = st.text(max_size=12)
non_integral_floats = st.floats(allow_nan=False, allow_infinity=False).filter(
    lambda f: not f.is_integer()
)
whole_floats = st.integers(-(10**6), 10**6).map(float)
arbitrary = st.none() | st.booleans() | st.integers() | non_integral_floats | whole_floats | texts

# Likely mistakes (and boundary values), per key; GENERIC applies to every key.
GENERIC: list[Any] = [None, True, False, 0, -1, 2.5, "", "x", [], {}, ["x"], {"A": "b"}]
CANDIDATES: dict[str, list[Any]] = {
    "theme": ["system", "light", "dark", "Dark", "blue", " dark"],
    "language": ["system", "en", "fr", "de", "EN"],
    "maxRunningAgents": [1, 2, 0, -5, 10**20, "4", 1.5, 4.0, 0.0],
    "stopIdleAgentsAfter": [
        *(0, "0", "0s", "15m", "1h30m", 10**9),
        *("90", "00", "5x", "-1", -1, "1.5h", "1m1h", "1h 30m", "15M", "h"),
        *(" 15m", "15m ", "15m\n", 60.0, -60.0),
    ],
    "name": [
        *("a", "a" * AGENT_NAME_MAX, "a" * (AGENT_NAME_MAX + 1), "0", "a_b-c"),
        *("Demo", "my agent", "-a", "_a", "dé", "a.b", "a\nb", 5, "demo\n", " demo"),
    ],
    "builtin": ["demo", "Demo", "other", " demo"],
    "command": [["x"], ["x", "-y"], [], [""], ["x", ""], ["x", 1], ["x", None], "x", [["x"]]],
    "env": [{}, {"A": 1}, {"A": 1.5}, {"A": True}, {"A": ""}, {"A": None}, {"A": [1]}, ["A"]],
    "headers": [{}, {"A": "b"}, {"A": 1}, {"A": None}, {"A": {}}],
    "cwd": ["~/code", ".", "", 1],
    "title": ["T", "", 1, ["T"]],
    "icon": ["🧪", "", 1],
    "description": ["d", "", 1],
    "url": ["http://localhost:1", "", 1],
    "type": ["http", "sse", "ws", "HTTP"],
    "args": [[], ["x"], [""], [1], "x"],
    "mcpServers": [[], [{"name": "m", "command": "x"}], [{"name": "m"}], ["m"], {}],
    "agents": [[], [{"name": "a", "builtin": "demo"}], [{"name": "a"}], ["a"], {}, "a"],
    "limits": [{}, {"maxRunningAgents": 2}, {"stopIdleAgentsAfter": None}, [], "15m"],
}
ALL_KEYS = [*CANDIDATES, "colour", "Name", "mcp_servers", "stop_idle"]


@st.composite
def wrong(draw: st.DrawFn, key: str) -> Any:
    """A likely mistake for `key` (a boundary value, possibly right), now and then anything."""
    if draw(st.integers(0, 4)) == 4:
        return draw(arbitrary)
    return copy.deepcopy(draw(st.sampled_from(CANDIDATES.get(key, []) + GENERIC)))


@st.composite
def mostly(draw: st.DrawFn, right: st.SearchStrategy[Any], key: str) -> Any:
    """Usually a value from `right`, one time in six a likely mistake for `key`."""
    return draw(wrong(key)) if draw(st.integers(0, 5)) == 5 else draw(right)


def _right(right: st.SearchStrategy[Any], key: str) -> st.SearchStrategy[Any]:
    return right


# Right values.
right_names = st.builds(
    lambda first, rest: (first + rest)[:AGENT_NAME_MAX],
    st.sampled_from(string.ascii_lowercase + string.digits),
    st.text(NAME_ALPHABET, max_size=AGENT_NAME_MAX + 5),
)
right_durations = st.integers(0, 10**7) | st.builds(
    lambda h, m, s: (
        "".join(f"{n}{unit}" for n, unit in ((h, "h"), (m, "m"), (s, "s")) if n is not None) or "0"
    ),
    st.none() | st.integers(0, 99),
    st.none() | st.integers(0, 999),
    st.none() | st.integers(0, 9999),
)
right_counts = st.integers(1, 64) | st.integers(min_value=1)
right_env_values = (
    texts | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.booleans()
)
right_commands = st.lists(
    st.sampled_from(["npx", "-y", "agent", "--acp", "x y", "é"]) | texts.filter(bool),
    min_size=1,
    max_size=4,
)


@st.composite
def sections(
    draw: st.DrawFn,
    always: dict[str, st.SearchStrategy[Any]],
    sometimes: dict[str, st.SearchStrategy[Any]],
    odd: bool = True,
) -> dict[str, Any]:
    """A mapping with the `always` keys and some of the `sometimes` keys; when `odd`, an always
    key is left out one time in ten and an unknown key is added one time in ten."""
    out: dict[str, Any] = {}
    for key, values in always.items():
        if not odd or draw(st.integers(0, 9)) != 9:
            out[key] = draw(values)
    for key, values in sometimes.items():
        if draw(st.booleans()):
            out[key] = draw(values)
    if odd and draw(st.integers(0, 9)) == 9:
        out[draw(st.sampled_from(ALL_KEYS))] = draw(wrong(""))
    return out


def _with_program(
    section: dict[str, Any], which: str, first: tuple[str, Any], second: tuple[str, Any]
) -> dict[str, Any]:
    """`section` with the `first` (key, value), the `second`, both or neither."""
    if which in ("first", "both"):
        section = {**section, first[0]: first[1]}
    if which in ("second", "both"):
        section = {**section, second[0]: second[1]}
    return section


def _which(odd: bool) -> st.SearchStrategy[str]:
    one = st.sampled_from(["first", "second"])
    if not odd:
        return one
    return st.integers(0, 5).flatmap(
        lambda n: st.sampled_from(["both", "neither"]) if n == 5 else one
    )


def env_maps(odd: bool, key: str) -> st.SearchStrategy[Any]:
    value = mostly if odd else _right
    return value(
        st.dictionaries(st.text(max_size=8), value(right_env_values, key), max_size=3), key
    )


def mcp_servers(odd: bool) -> st.SearchStrategy[dict[str, Any]]:
    value = mostly if odd else _right
    return st.builds(
        _with_program,
        sections(
            {"name": value(st.sampled_from(["fs", "web"]) | texts.filter(bool), "url")},
            {
                "args": value(st.lists(texts, max_size=2), "args"),
                "env": env_maps(odd, "env"),
                "type": value(st.sampled_from(["http", "sse"]), "type"),
                "headers": env_maps(odd, "headers"),
            },
            odd=odd,
        ),
        _which(odd),
        st.tuples(st.just("command"), value(st.sampled_from(["mcp-fs", "x"]), "url")),
        st.tuples(st.just("url"), value(st.just("http://localhost:1"), "url")),
    )


def agents(odd: bool) -> st.SearchStrategy[dict[str, Any]]:
    value = mostly if odd else _right
    return st.builds(
        _with_program,
        sections(
            {"name": value(right_names, "name")},
            {
                "title": value(texts, "title"),
                "icon": value(st.sampled_from(["🧪", ""]) | texts, "icon"),
                "description": value(texts, "description"),
                "env": env_maps(odd, "env"),
                "cwd": value(st.sampled_from(["~/code", "", "."]), "cwd"),
                "mcpServers": value(st.lists(mcp_servers(odd), max_size=2), "mcpServers"),
            },
            odd=odd,
        ),
        _which(odd),
        st.tuples(st.just("command"), value(right_commands, "command")),
        st.tuples(st.just("builtin"), value(st.just("demo"), "builtin")),
    )


def _name_key(agent: Any) -> Any:
    name = agent.get("name") if isinstance(agent, dict) else None
    return name.lower() if isinstance(name, str) else repr(name)


def configs(odd: bool) -> st.SearchStrategy[dict[str, Any]]:
    value = mostly if odd else _right
    limits = sections(
        {},
        {
            "maxRunningAgents": value(right_counts, "maxRunningAgents"),
            "stopIdleAgentsAfter": value(right_durations, "stopIdleAgentsAfter"),
        },
        odd=odd,
    )
    agent_lists = st.lists(agents(odd), max_size=3, unique_by=_name_key)
    return sections(
        {"agents": value(agent_lists, "agents")},
        {
            "theme": value(st.sampled_from(["system", "light", "dark"]), "theme"),
            "language": value(st.sampled_from(["system", "en", "fr"]), "language"),
            "limits": value(limits, "limits"),
        },
        odd=odd,
    )


documents = mostly(configs(odd=True), "")
valid_documents = configs(odd=False)


def _spots(node: Any, key: str = "") -> list[tuple[Any, Any, str]]:
    """(container, key or index, the key it is under) of every value under `node`."""
    out: list[tuple[Any, Any, str]] = []
    if isinstance(node, dict):
        for child_key, child in node.items():
            out.append((node, child_key, child_key))
            out += _spots(child, child_key)
    elif isinstance(node, list):
        for index, child in enumerate(node):
            out.append((node, index, key))
            out += _spots(child, key)
    return out


def _mappings(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        return [node, *(m for child in node.values() for m in _mappings(child))]
    if isinstance(node, list):
        return [m for child in node for m in _mappings(child)]
    return []


@st.composite
def one_change_away(draw: st.DrawFn) -> Any:
    """A valid document with one value replaced, one key or item removed, or one key added."""
    document = copy.deepcopy(draw(valid_documents))
    spots = _spots(document)
    action = draw(st.sampled_from(["replace", "replace", "remove", "add"]))
    if action == "add" or not spots:
        mapping = draw(st.sampled_from(_mappings(document)))
        key = draw(st.sampled_from(ALL_KEYS))
        mapping[key] = draw(wrong(key))
        return document
    container, key, under = draw(st.sampled_from(spots))
    if action == "replace":
        container[key] = draw(wrong(under))
    else:
        del container[key]
    return document


def _names_unique(document: Any) -> bool:
    agent_list = document.get("agents") if isinstance(document, dict) else None
    if not isinstance(agent_list, list):
        return True
    found = [
        a["name"].lower()
        for a in agent_list
        if isinstance(a, dict) and isinstance(a.get("name"), str)
    ]
    return len(set(found)) == len(found)


def _agree(document: Any) -> bool:
    if _names_unique(document):
        return schema_ok(document) == model_ok(document)
    return not model_ok(document)  # the documented difference: only the model sees duplicates


@settings(max_examples=300, deadline=None)
@given(documents)
def test_the_schema_and_the_model_accept_and_reject_the_same_documents(document: Any) -> None:
    assert _agree(document), (document, schema_ok(document), model_ok(document))


@settings(max_examples=300, deadline=None)
@given(valid_documents)
def test_a_generated_valid_document_is_accepted_by_both(document: Any) -> None:
    assert schema_ok(document), document
    assert model_ok(document), document


@settings(max_examples=300, deadline=None)
@given(one_change_away())
def test_the_schema_and_the_model_agree_one_change_away_from_a_valid_document(
    document: Any,
) -> None:
    assert _agree(document), (document, schema_ok(document), model_ok(document))


RICH = {
    "theme": "dark",
    "language": "fr",
    "limits": {"maxRunningAgents": 2, "stopIdleAgentsAfter": "1h30m"},
    "agents": [
        {"name": "demo", "title": "Demo", "icon": "🧪", "description": "d", "builtin": "demo"},
        {
            "name": "tool_1",
            "command": ["npx", "-y", "agent"],
            "env": {"A": "b", "PORT": 8080},
            "cwd": "~/code",
            "mcpServers": [
                {"name": "fs", "command": "mcp-fs", "args": ["-v"], "env": {"A": "b"}},
                {"name": "web", "url": "http://localhost:1", "type": "sse", "headers": {"A": "b"}},
            ],
        },
    ],
}


def _every_single_change(document: Any) -> list[tuple[str, Any]]:
    """(what changed, the changed document) for every replacement by a likely mistake, every
    removal and every added key."""
    out: list[tuple[str, Any]] = []
    for i, (_container, key, under) in enumerate(_spots(document)):
        for candidate in [*CANDIDATES.get(under, []), *GENERIC]:
            changed = copy.deepcopy(document)
            container, key, _under = _spots(changed)[i]
            container[key] = copy.deepcopy(candidate)
            out.append((f"{under}[{key!r}] = {candidate!r}", changed))
        changed = copy.deepcopy(document)
        container, key, _under = _spots(changed)[i]
        del container[key]
        out.append((f"without {under}[{key!r}]", changed))
    for i in range(len(_mappings(document))):
        for key in ALL_KEYS:
            changed = copy.deepcopy(document)
            _mappings(changed)[i][key] = "x"
            out.append((f"mapping {i} + {key}: x", changed))
    return out


def test_the_schema_and_the_model_agree_on_every_single_change_to_a_rich_document() -> None:
    assert schema_ok(RICH)
    assert model_ok(RICH)
    changes = _every_single_change(RICH)

    disagreements = [
        (what, schema_ok(document), model_ok(document))
        for what, document in changes
        if not _agree(document)
    ]

    assert len(changes) > 500
    assert disagreements == []


@pytest.mark.parametrize("name", ["here", "all"])
def test_here_and_all_are_refused_as_names_by_the_model_and_the_schema(name: str) -> None:
    # Issue 29: @here and @all mention every member of a channel.
    document = {"agents": [{"name": name, "builtin": "demo"}]}
    assert not schema_ok(document)
    assert not model_ok(document)
    assert model_ok({"agents": [{"name": f"{name}x", "builtin": "demo"}]})
