"""Source paths are canonical: a symlinked alias is one store, and an index is never a store."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect import history
from recollect.cli import main
from recollect.config import ConfigError, load_config
from recollect.sources import configured_specs
from tests.conftest import SAMPLE_DB


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "stores" / "opencode.db"
    path.parent.mkdir()
    shutil.copyfile(SAMPLE_DB, path)
    (tmp_path / "stores" / "alias.db").symlink_to(path)
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    return path


def write_config(home: Path, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(text, encoding="utf-8")


def source(source_id: str, path: Path) -> str:
    return f'[[source]]\nid = "{source_id}"\nkind = "opencode"\npath = "{path}"\n\n'


def test_a_symlinked_path_is_resolved(store: Path, isolated_home: Path) -> None:
    write_config(isolated_home, source("main", store.parent / "alias.db"))
    (spec,) = configured_specs(load_config())
    assert spec.path == store.resolve()
    assert history.index().sources[0].sessions == 12


def test_two_sources_naming_one_file_are_refused(store: Path, isolated_home: Path) -> None:
    write_config(isolated_home, source("main", store))
    assert CliRunner().invoke(main, ["index"]).exit_code == 0  # positive control: one source, indexed
    write_config(isolated_home, source("main", store) + source("again", store.parent / "alias.db"))
    with pytest.raises(ConfigError, match="name the same store"):
        configured_specs(load_config())
    out = CliRunner().invoke(main, ["index"])
    assert out.exit_code == 1 and "'main' and 'again' name the same store" in out.output
    assert "Traceback" not in out.output


def test_an_index_path_equal_to_a_source_is_refused(store: Path, isolated_home: Path) -> None:
    before = store.read_bytes()
    write_config(isolated_home, source("main", store) + f'[index]\npath = "{isolated_home / "index.db"}"\n')
    assert CliRunner().invoke(main, ["index"]).exit_code == 0  # positive control: an index of its own
    for index in (store, store.parent / "alias.db"):
        write_config(isolated_home, source("main", store) + f'[index]\npath = "{index}"\n')
        out = CliRunner().invoke(main, ["search", "readme"])
        assert out.exit_code == 1 and "is the store of source 'main'" in out.output, out.output
    assert store.read_bytes() == before


def test_doctor_names_the_conflict(store: Path, isolated_home: Path) -> None:
    write_config(isolated_home, source("main", store) + source("again", store.parent / "alias.db"))
    out = CliRunner().invoke(main, ["doctor"])
    assert out.exit_code == 1 and "name the same store" in out.output and "Traceback" not in out.output
