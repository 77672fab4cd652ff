"""recallwords.asking: the sentences of a cue message that ask, and its cost on a pasted log."""

from __future__ import annotations

from typing import Any

import pytest

from recollect.integrations import recallwords
from recollect.integrations.recallwords import asking

LOG = "".join(f"WARN worker {i} was never scheduled on node-{i % 7}\n" for i in range(2000))  # 92 KB, 2,000 lines


def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    asked: list[str] = []
    real = recallwords.detect_cue

    def counted(text: str) -> Any:
        asked.append(text)
        return real(text)

    monkeypatch.setattr(recallwords, "detect_cue", counted)
    return asked


def test_without_a_question_mark_the_sentence_holding_a_cue_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = counting(monkeypatch)
    message = "The nightly job hit a MemoryError in test_merge. How did we fix it last time"
    assert asking(message).strip() == "How did we fix it last time"
    assert len(asked) == 2  # a short message: every sentence is read for a cue


def test_a_pasted_log_is_read_for_cues_only_where_cue_detection_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = counting(monkeypatch)
    # Positive control: the cue after the paste is still the sentence that asks.
    assert asking(LOG + "How did we fix this last time") == "How did we fix this last time"
    # Its head (2,000 characters) and tail (500) only, as detect_cue: not one call per line of the log.
    assert 0 < len(asked) <= 80, len(asked)
