"""config.toml written on first use with every option; `config init` / `config show`; env overrides."""

from __future__ import annotations

import json
import stat
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect import configfile, history
from recollect.cli import main
from recollect.config import load_config


def shown(*args: str) -> dict[str, dict[str, object]]:
    out = CliRunner().invoke(main, ["config", "show", "--json", *args])
    assert out.exit_code == 0, out.output
    return {s["name"]: s for s in json.loads(out.output)["settings"]}


def test_the_first_index_writes_every_option_commented_at_its_default(
    sample_db: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    path = load_config().paths.config_file
    assert not path.exists()
    out = CliRunner().invoke(main, ["index"])
    assert out.exit_code == 0, out.output
    text = path.read_text(encoding="utf-8")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    options = configfile.options()
    assert len(options) > 40
    for option in options:
        assert f"# {option.key} = " in text, option.name
    parsed = tomllib.loads(text)  # valid TOML, and every value commented: nothing set
    assert all(value == {} for value in parsed.values())
    assert all(s["source"] in ("default", "env RECOLLECT_EMBEDDINGS") for s in shown().values())

    # A person's file is never rewritten: their edit survives the next index and install.
    path.write_text("[memory]\nrecall_limit = 9\n", encoding="utf-8")
    assert CliRunner().invoke(main, ["index"]).exit_code == 0
    assert path.read_text(encoding="utf-8") == "[memory]\nrecall_limit = 9\n"
    assert shown()["memory.recall_limit"] == {"name": "memory.recall_limit", "value": 9, "source": "file"}


def test_install_writes_the_config_on_first_use(tmp_path: Path) -> None:
    path = load_config().paths.config_file
    out = CliRunner().invoke(main, ["install", "opencode", "--config-dir", str(tmp_path / "oc"), "--no-npm"])
    assert out.exit_code == 0, out.output
    assert path.is_file() and "# auto_extract = true" in path.read_text(encoding="utf-8")


def test_config_init_writes_once_and_then_refuses(isolated_home: Path) -> None:
    runner = CliRunner()
    first = runner.invoke(main, ["config", "init"])
    assert first.exit_code == 0 and "wrote" in first.output
    path = load_config().paths.config_file
    path.write_text("# mine\n", encoding="utf-8")
    again = runner.invoke(main, ["config", "init"])
    assert again.exit_code == 1 and "never overwritten" in again.output and "Traceback" not in again.output
    assert path.read_text(encoding="utf-8") == "# mine\n"


def test_env_overrides_and_where_each_value_came_from(
    sample_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    monkeypatch.delenv("RECOLLECT_EMBEDDINGS")
    assert shown()["index.path"]["source"] == "default"  # positive control: nothing overridden yet
    index = tmp_path / "elsewhere" / "index.db"
    monkeypatch.setenv("RECOLLECT_INDEX", str(index))
    monkeypatch.setenv("RECOLLECT_EMBEDDINGS_PROVIDER", "ollama")
    monkeypatch.setenv("RECOLLECT_EMBEDDINGS_MODEL", "nomic-embed-text")
    monkeypatch.setenv("RECOLLECT_EMBEDDINGS_URL", "http://127.0.0.1:9")
    settings = shown()
    assert settings["index.path"] == {"name": "index.path", "value": str(index), "source": "env RECOLLECT_INDEX"}
    for key, value in (("provider", "ollama"), ("model", "nomic-embed-text"), ("url", "http://127.0.0.1:9")):
        assert settings[f"embeddings.{key}"]["value"] == value
        assert settings[f"embeddings.{key}"]["source"] == f"env RECOLLECT_EMBEDDINGS_{key.upper()}"
    config = load_config()
    assert config.section("embeddings")["provider"] == "ollama"  # what the embedding layer reads
    monkeypatch.setenv("RECOLLECT_EMBEDDINGS", "off")  # (no model server in tests)
    assert shown()["embeddings.enabled"]["source"] == "env RECOLLECT_EMBEDDINGS"
    history.index()
    assert index.is_file()  # the index went where the environment said

    text = CliRunner().invoke(main, ["config", "show"]).output
    assert "index.path" in text and "(env RECOLLECT_INDEX)" in text and "(default)" in text
