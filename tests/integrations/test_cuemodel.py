"""The learned history-cue detector (integrations/cuemodel.py) beside the grammar: its shipped weights, how
`detect_cue` combines the two, and that a long message costs no more than its head and tail."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from recollect.integrations import cuemodel
from recollect.integrations.cues import detect_cue, grammar_cue, strip_cues

from . import cue_costs

BENCH = Path(__file__).resolve().parents[2] / "bench"
# a cue of a tuning set the grammar misses and the model finds ("that time the probe kept failing, what did we
# change?"): trained on, so it locks what the shipped weights do
MODEL_ONLY = "k8s 的 readiness probe 老是失败那回，我们改了什么？"


def test_the_grammar_reads_the_tuning_sets_as_when_the_weights_were_trained() -> None:
    # else retrain: python bench/train_cue_model.py --claude-code DIR --write (the model's features are the grammar's)
    from bench import train_cue_model

    sets = train_cue_model.load(None)
    train_cue_model.read_grammar(sets, None)
    meta = json.loads(cuemodel.META.read_text(encoding="utf-8"))
    assert train_cue_model.grammar_digest(sets) == meta["grammar_digest"]


def test_the_training_script_reads_the_grammar_as_detect_cue_gives_it_to_the_model() -> None:
    # train_cue_model.signals_of reads the grammar through its parts (so that an older checkout's reads too);
    # detect_cue gives the model what cues._found fills. Were the two to differ, the shipped weights would score
    # features they were never trained on, and the digest above (read through signals_of) would not tell.
    from bench import train_cue_model
    from recollect.integrations import cues

    texts = [e.text for examples in train_cue_model.load(None).values() for e in examples]
    counted = 0
    for text in texts:
        given: list[str] = []
        cue = grammar_cue(text, given)
        assert train_cue_model.signals_of(cues, text) == (cue is not None, given), text
        counted += any(s.startswith("counted:") for s in given)
    assert counted > len(texts) // 4  # positive control: signals to compare, markers that counted among them


def test_the_shipped_weights_are_the_ones_the_training_script_wrote() -> None:
    meta = json.loads(cuemodel.META.read_text(encoding="utf-8"))
    weights = np.load(cuemodel.WEIGHTS)
    assert meta["recipe"] == cuemodel.RECIPE
    assert weights.dtype == np.float16 and weights.shape == (meta["dim"] + 1,)
    assert hashlib.sha256(weights.tobytes()).hexdigest() == meta["sha256"]
    assert 0 < meta["veto"] < meta["threshold"] < 1
    assert cuemodel._model() is not None  # read, and read once
    assert cuemodel.WEIGHTS.stat().st_size < 100_000


# Written for this test, in no training set: the model agrees with the grammar on a plain cue and on plain work.
@pytest.mark.parametrize(
    "cue",
    [
        "Which one did we end up going with for the queue library",
        "我记得我们聊过队列库，结论呢",
        "pull up the notes on the queue library from our earlier chat",
        "咱们那次讨论缓存失效的结论是啥",
    ],
)
def test_a_cue_written_apart_from_training_fires(cue: str) -> None:
    assert detect_cue(cue) is not None


@pytest.mark.parametrize(
    "ordinary",
    [
        "Rename the helper to parse_args and update the callers.",
        "把这个函数拆成两个，测试也补上",
        "Why does the build fail on CI?",
        "这个接口返回 500，帮我看看日志",
        "Is the rate limiter per user or per IP?",
        "Add a retry with backoff to the S3 client.",
    ],
)
def test_an_ordinary_message_written_apart_from_training_is_silent(ordinary: str) -> None:
    assert detect_cue(MODEL_ONLY) is not None  # control: the model's own find fires
    assert detect_cue(ordinary) is None


def _ordinary(name: str) -> list[str]:
    return [m["text"] for m in json.loads((BENCH / name).read_text(encoding="utf-8"))["ordinary"]]


@pytest.mark.parametrize("text", _ordinary("loop_messages_heldout9.json") + _ordinary("cue_ordinary_past.json"))
def test_the_ordinary_messages_of_a_tuning_set_stay_silent(text: str) -> None:
    assert detect_cue("What did we decide last time about the queue?") is not None  # control
    assert detect_cue(text) is None


def test_a_cue_only_the_model_finds_is_named_by_its_opening_and_nothing_is_stripped() -> None:
    assert grammar_cue(MODEL_ONLY) is None
    assert detect_cue(MODEL_ONLY) == "k8s 的 readiness probe 老是失败那回，我们改了什么？"[:40].lower()
    assert strip_cues(MODEL_ONLY) == MODEL_ONLY  # the topic words stay for the search


def test_without_the_model_files_the_grammar_decides_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    vetoed = "We talked about this last month: keep it."  # the model vetoes this one (test_cues)
    assert detect_cue(vetoed) is None and detect_cue(MODEL_ONLY) is not None  # control: the model decides
    monkeypatch.setattr(cuemodel, "_model", lambda: None)
    assert detect_cue(vetoed) == "we talked about"
    assert detect_cue(MODEL_ONLY) is None


def test_a_pasted_log_is_read_in_its_head_and_tail_only() -> None:
    log = "".join(f"WARN worker {i} was never scheduled on node-{i % 7}\n" for i in range(2000))
    assert len(cuemodel._read(log)) == cuemodel.HEAD_CHARS + 1 + cuemodel.TAIL_CHARS
    assert detect_cue(log) is None
    assert detect_cue(log + "what did we decide last time?") == "what did we decide"


@pytest.mark.parametrize("text", sorted(cue_costs.VETOED))
def test_a_unit_form_listed_as_vetoed_is_the_grammars_cue_and_the_models_veto(text: str) -> None:
    # else take it off cue_costs: its tests read it with detect_cue again
    assert grammar_cue(text) is not None
    assert detect_cue(text) is None


@pytest.mark.parametrize("text", sorted(cue_costs.FIRED))
def test_a_unit_form_listed_as_fired_is_silent_by_the_grammar_and_fired_by_the_model(text: str) -> None:
    assert grammar_cue(text) is None
    assert detect_cue(text) is not None
