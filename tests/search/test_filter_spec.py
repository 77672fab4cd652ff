"""One filter table: the CLI's filter options and the MCP tools' filter parameters are both generated from
FILTER_SPEC, so a filter added there reaches both surfaces, with the same allowed values."""

from __future__ import annotations

import click

from recollect.cli.history import search_cmd
from recollect.mcp.history_tools import SEARCH
from recollect.search.filters import FILTER_SPEC


def test_every_filter_is_a_cli_option_and_an_mcp_parameter() -> None:
    options = {o: p for p in search_cmd.params if isinstance(p, click.Option) for o in p.opts}
    params = {p.name: p for p in SEARCH.params}
    assert "--scope" in options and "scope" in params  # positive control: the lookups work
    for spec in FILTER_SPEC:
        assert spec.option in options, f"{spec.option} is not a CLI option"
        assert spec.name in params, f"{spec.name} is not an MCP parameter"
        assert params[spec.name].choices == spec.choices
        cli_type = options[spec.option].type
        if spec.choices and spec.cli_choices:
            assert isinstance(cli_type, click.Choice) and tuple(cli_type.choices) == spec.choices
        assert options[spec.option].name == spec.dest


def test_no_filter_is_declared_outside_the_table() -> None:
    names = {s.name for s in FILTER_SPEC}
    cli_filters = {o.name for o in search_cmd.params if isinstance(o, click.Option)} - {s.dest for s in FILTER_SPEC}
    mcp_filters = {p.name for p in SEARCH.params} - names
    # what remains is each surface's own, not a filter: the query's limit, output format, ...
    assert not cli_filters & {"scope", "sessions", "since", "until", "roles", "classes", "tools", "authors"}
    assert mcp_filters <= {"query", "limit", "deep", "exact"}, mcp_filters  # exact: how words are read, not a filter
