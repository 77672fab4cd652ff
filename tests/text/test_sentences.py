"""The one sentence splitter of ranking and of the relays (text/sentences.py)."""

from __future__ import annotations

from recollect.text.sentences import sentences


def test_latin_sentences_end_before_a_space_and_at_a_line() -> None:
    text = "Pin v1.2 of the parser. It works!  Ship it?\n\nDone"
    assert sentences(text) == ["Pin v1.2 of the parser.", "It works!", "Ship it?", "Done"]  # "v1.2" ends none


def test_cjk_sentences_end_at_their_marks_with_or_without_a_space() -> None:
    assert sentences("先改配置。然后重启！ 好了吗？") == ["先改配置。", "然后重启！", "好了吗？"]
    # A semicolon ends one only when asked (the relays): ranking reads the clauses around it as one sentence.
    assert sentences("用 pnpm；不用 npm。") == ["用 pnpm；不用 npm。"]
    assert sentences("用 pnpm；不用 npm。", semicolons=True) == ["用 pnpm；", "不用 npm。"]


def test_no_sentence_is_blank() -> None:
    assert sentences("") == [] and sentences(" \n\n ") == []
