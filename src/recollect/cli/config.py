"""`recollect config init` and `recollect config show`: the config file, and what is in force."""

from __future__ import annotations

import json

import click

from recollect.cli.group import Group
from recollect.cli.output import print_json


@click.group("config", cls=Group)
def config() -> None:
    """The config file: write it with every option at its default, or show what is in force."""


@config.command("init")
def init_cmd() -> None:
    """Write config.toml with every option commented at its default (never over an existing file)."""
    from recollect import configfile

    path = configfile.write_config(only_if_missing=False)
    click.echo(f"wrote {path}; every option is there at its default, commented out")


@config.command("show")
@click.option("--json", "as_json", is_flag=True, help="Print each setting as {name, value, source}.")
def show_cmd(as_json: bool) -> None:
    """Print every setting in force and where it came from: default, file, or env NAME."""
    from recollect import configfile
    from recollect.config import load_config

    cfg = load_config()
    settings = configfile.in_force(cfg)
    if as_json:
        print_json({"config_file": str(cfg.paths.config_file), "settings": [s.to_dict() for s in settings]})
        return
    found = "found" if cfg.paths.config_file.exists() else "none yet: 'recollect config init' writes one"
    click.echo(f"config file: {cfg.paths.config_file} ({found})")
    width = max(len(s.name) for s in settings)
    for s in settings:
        value = json.dumps(s.value, ensure_ascii=False) if not isinstance(s.value, str) else json.dumps(s.value)
        click.echo(f"{s.name.ljust(width)} = {value}  ({s.source})")
