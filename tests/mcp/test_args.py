"""Argument declarations: the schema a model reads, and the checks applied to what it sent."""

from __future__ import annotations

import pytest

from recollect.mcp.args import ArgumentError, Param, Signature
from recollect.mcp.registry import TOOLS
from recollect.text.markers import OUR_TOOL_NAMES

SIG = Signature(
    "t",
    (
        Param("query", "string", "Words.", required=True),
        Param("limit", "integer", "Hits.", default=10, minimum=1, maximum=50),
        Param("mode", "string", "Mode.", default="around", choices=("around", "head")),
        Param("flag", "boolean", "Flag.", default=False),
        Param("role", "string_list", "Roles.", choices=("user", "assistant")),
    ),
)


def test_defaults_are_applied_by_the_server() -> None:
    assert SIG.bind({"query": "deploy"}) == {
        "query": "deploy",
        "limit": 10,
        "mode": "around",
        "flag": False,
        "role": None,
    }


def test_null_and_empty_mean_default() -> None:
    assert SIG.bind({"query": "x", "limit": None, "mode": ""})["limit"] == 10


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"query": "x", "limit": "many"}, 'limit must be an integer between 1 and 50; got "many"'),
        ({"query": "x", "limit": 0}, "limit must be an integer between 1 and 50; got 0"),
        ({"query": "x", "limit": 2.5}, "limit must be an integer between 1 and 50; got 2.5"),
        ({"query": "x", "limit": True}, "limit must be an integer between 1 and 50; got true"),
        ({"limit": 3}, "query is required: Words."),
        ({"query": "  "}, "query is required"),
        ({"query": 5}, "query must be a string; got 5"),
        ({"query": "x", "mode": "sideways"}, 'mode must be one of around, head; got "sideways"'),
        ({"query": "x", "flag": "yes"}, 'flag must be true or false; got "yes"'),
        ({"query": "x", "role": ["robot"]}, 'each role value must be one of user, assistant; got "robot"'),
        ({"query": "x", "role": {"a": 1}}, "role must be a list of strings"),
        ({"query": "x", "qurey": "y"}, 't has no argument "qurey"; it takes: query, limit, mode, flag, role'),
    ],
)
def test_bad_arguments_say_how_to_fix_the_call(arguments: dict, message: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        SIG.bind(arguments)
    assert message in str(caught.value)


def test_unambiguous_spellings_are_accepted() -> None:
    bound = SIG.bind({"query": " x ", "limit": "7", "flag": "true", "role": "user"})
    assert bound["query"] == "x" and bound["limit"] == 7 and bound["flag"] is True and bound["role"] == ["user"]
    assert SIG.bind({"query": "x", "limit": 7.0})["limit"] == 7


def test_every_tool_has_a_description_and_a_closed_object_schema() -> None:
    names = [t.name for t in TOOLS]
    assert names == [
        "history_search",
        "history_read",
        "history_sessions",
        "history_save",
        "memory_recall",
        "memory_remember",
        "memory_forget",
        "memory_inspect",
    ]
    # The indexer recognises our own tool calls by this list: a tool missing from it would be read back.
    assert tuple(names) == OUR_TOOL_NAMES
    for tool in TOOLS:
        schema = tool.signature.schema()
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert len(tool.description) > 200, tool.name  # the model reads it verbatim: say when, what, how to page
        for name, prop in schema["properties"].items():
            assert prop.get("description") and prop.get("type"), (tool.name, name)
            assert set(schema["required"]) <= set(schema["properties"])


def test_the_tools_that_open_a_session_describe_their_scope_as_opening() -> None:
    schemas = {t.name: t.signature.schema()["properties"] for t in TOOLS}
    scope = {name: props["scope"]["description"] for name, props in schemas.items() if "scope" in props}
    assert "ranks first" in scope["history_search"]  # control: search's scope speaks of ranking
    for name in ("history_read", "history_save"):
        assert scope[name].startswith("Which sessions it may open"), (name, scope[name])
        assert "rank" not in scope[name], (name, scope[name])
