"""Search by meaning: hybrid retrieval over the shipped model, with the same scope predicate."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from recollect import history
from recollect.config import load_config
from recollect.embed import factory
from recollect.index import store, vectors

ALPHA = "/srv/oc/projects/alpha"
BETA = "/srv/oc/projects/beta"


@pytest.fixture
def indexed(sample_db: Path, semantic: None) -> Path:
    report = history.index(load_config())
    assert report.semantic is not None and report.semantic.embedded > 0
    return sample_db


def test_cross_lingual_paraphrase_is_rescued_and_says_why(indexed: Path) -> None:
    query = "列出项目里的文件"  # "list the files in the project": no word in common with the sessions
    result = history.search(query, limit=5)
    assert result.hits, result.coverage
    assert result.hits[0].why == "semantic"
    assert any("list files" in h.title.lower() or "alpha main" in h.title.lower() for h in result.hits[:3])


def test_semantic_off_cleanly_without_the_model(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECOLLECT_EMBEDDINGS", "off")
    history.index(load_config())
    result = history.search("列出项目里的文件")
    assert result.hits == [] and result.coverage.skipped_by_reason.get("semantic_off") == 1
    assert history.search("readme").hits  # lexical search works as before


def test_semantic_hits_honour_the_scope(indexed: Path) -> None:
    from recollect.search.scope import Filters

    everywhere = history.search("列出项目里的文件", limit=10)
    assert {h.directory for h in everywhere.hits} & {ALPHA, BETA}  # positive control
    beta_only = history.search("列出项目里的文件", Filters(scope="directory", directory=BETA), limit=10)
    assert beta_only.hits and {h.directory for h in beta_only.hits} == {BETA}


def test_a_sync_that_changed_nothing_does_not_scan_for_vectors(indexed: Path) -> None:
    from recollect.index import vectors as v

    config = load_config()
    conn = store.connect(config.index_path)
    model = factory.embedder_for(config).model_id
    assert not v.backfill_needed(conn, model, changed=False)
    assert v.backfill_needed(conn, model, changed=True)  # positive control
    assert v.backfill_needed(conn, "another-model:1", changed=False)


def test_unchanged_text_is_never_embedded_again(indexed: Path) -> None:
    config = load_config()
    again = history.index(config)
    assert again.semantic is not None and again.semantic.embedded == 0
    raw = sqlite3.connect(indexed)
    sid = "ses_dd4b4cefbffeyxl9UhQgJ4OAnb"
    raw.execute("UPDATE session SET title = 'Renamed once more' WHERE id = ?", (sid,))
    raw.execute("UPDATE event_sequence SET seq = seq + 1 WHERE aggregate_id = ?", (sid,))
    raw.commit()
    changed = history.index(config)
    assert changed.sources[0].updated == 1
    assert changed.semantic is not None and changed.semantic.embedded == 1  # only the card's new text
    assert changed.cards is not None and changed.cards.embedded == 1  # and its card-encoder vector


def test_vectors_of_another_model_are_dropped_never_mixed(indexed: Path) -> None:
    config = load_config()
    conn = store.connect(config.index_path)
    embedder = factory.embedder_for(config)
    conn.execute(
        "INSERT INTO vector(hash, model, dim, slot) "
        "SELECT hash, 'other-model:1', dim, slot FROM vector WHERE model = ?",
        (embedder.model_id,),
    )
    before = conn.execute("SELECT count(*) FROM vector WHERE model = 'other-model:1'").fetchone()[0]
    assert before > 0
    matrix = vectors.load_matrix(conn, embedder.model_id)
    expected = conn.execute(
        "SELECT (SELECT count(*) FROM chunk c JOIN vector v ON v.hash = c.hash AND v.model = ?)"
        " + (SELECT count(*) FROM session s JOIN vector v ON v.hash = s.card_hash AND v.model = ?)",
        (embedder.model_id, embedder.model_id),
    ).fetchone()[0]
    assert len(matrix.ids) == expected and matrix.matrix.shape[1] == embedder.dim  # the other model's are not in it
    # As if another model's pass ran last: the next index with ours re-embeds what it lacks and drops theirs.
    conn.execute("DELETE FROM meta WHERE key = ?", (f"vectors_complete:{embedder.model_id}",))
    history.index(config)
    assert conn.execute("SELECT count(*) FROM vector WHERE model = 'other-model:1'").fetchone()[0] == 0


def test_deleted_session_takes_its_vectors(indexed: Path) -> None:
    config = load_config()
    conn = store.connect(config.index_path)
    total = conn.execute("SELECT count(*) FROM vector").fetchone()[0]
    raw = sqlite3.connect(indexed)
    raw.execute("PRAGMA foreign_keys=ON")
    raw.execute("DELETE FROM event_sequence WHERE aggregate_id = 'ses_dd4b43d5cffe1Zr8O8DpTMm9Yl'")
    raw.execute("DELETE FROM session WHERE id = 'ses_dd4b43d5cffe1Zr8O8DpTMm9Yl'")
    raw.commit()
    report = history.index(config)
    assert report.sources[0].removed == 1 and report.semantic is not None and report.vectors_dropped > 0
    assert conn.execute("SELECT count(*) FROM vector").fetchone()[0] < total


def _card_vectors(conn: sqlite3.Connection, model: str) -> int:
    return conn.execute(
        "SELECT count(*) FROM session s JOIN vector v ON v.hash = s.card_hash AND v.model = ?", (model,)
    ).fetchone()[0]


def test_every_session_card_gets_a_full_encoder_vector(indexed: Path) -> None:
    config = load_config()
    cards = factory.card_encoder_for(config)
    assert cards is not None
    conn = store.connect(config.index_path)
    sessions = conn.execute("SELECT count(*) FROM session").fetchone()[0]
    assert sessions > 0 and _card_vectors(conn, cards.model_id) == sessions
    dims = {r[0] for r in conn.execute("SELECT DISTINCT dim FROM vector WHERE model = ?", (cards.model_id,))}
    assert dims == {cards.dim}
    assert history.index(config).cards.embedded == 0  # nothing changed: nothing re-embedded


def test_card_encoder_off_by_config_drops_its_vectors(indexed: Path) -> None:
    config = load_config()
    model = factory.card_encoder_for(config).model_id
    conn = store.connect(config.index_path)
    assert _card_vectors(conn, model) > 0  # positive control
    config.paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    config.paths.config_file.write_text("[embeddings]\ncards = false\n", encoding="utf-8")
    config = load_config()
    assert factory.card_encoder_for(config) is None
    report = history.index(config)
    assert report.cards is None and report.semantic is not None
    assert _card_vectors(conn, model) == 0 and report.vectors_dropped > 0
    assert history.search("readme").hits  # search goes on without that arm


def test_a_search_embeds_a_bounded_batch_and_leaves_the_rest_pending(sample_db: Path, semantic: None) -> None:
    from recollect.index.sync import sync

    config = load_config()
    cards = factory.card_encoder_for(config)
    conn = store.connect(config.index_path)
    specs = history.configured_specs(config)
    sync(conn, specs)  # sessions only, as an index made before the card encoder existed
    sessions = conn.execute("SELECT count(*) FROM session").fetchone()[0]
    cards.batch = 2  # so the sample's few sessions exceed one batch
    try:
        report = sync(conn, specs, card_encoder=cards, embed_batches=1, prune_vectors=False)
        assert report.cards.embedded == 2 and report.cards.pending == sessions - 2
        assert vectors.backfill_needed(conn, cards.model_id, changed=False)  # not marked complete
        report = sync(conn, specs, card_encoder=cards)  # `recollect index`: no cap
    finally:
        del cards.batch
    assert report.cards.embedded == sessions - 2 and report.cards.pending == 0
    assert not vectors.backfill_needed(conn, cards.model_id, changed=False)
    assert _card_vectors(conn, cards.model_id) == sessions


def test_coverage_counts_sessions_whose_vectors_are_pending(sample_db: Path, semantic: None) -> None:
    from recollect.index.sync import sync
    from recollect.search.rank import search

    config = load_config()
    cards = factory.card_encoder_for(config)
    conn = store.connect(config.index_path)
    specs = history.configured_specs(config)
    sync(conn, specs, card_encoder=cards)
    done = search(conn, "readme", card_encoder=cards)
    assert "sessions_not_yet_embedded" not in done.coverage.skipped_by_reason  # positive control
    card_hash = conn.execute("SELECT card_hash FROM session WHERE card_hash IS NOT NULL LIMIT 1").fetchone()[0]
    conn.execute("DELETE FROM vector WHERE hash = ? AND model = ?", (card_hash, cards.model_id))
    vectors.bump_generation(conn)
    pending = search(conn, "readme", card_encoder=cards)
    assert pending.coverage.skipped_by_reason["sessions_not_yet_embedded"] >= 1


def _fresh_process_load(conn: sqlite3.Connection, model: str) -> vectors.VectorMatrix:
    vectors._MATRICES.clear()  # as a new process would start
    return vectors.load_matrix(conn, model)


def test_vector_matrices_are_kept_on_disk_and_never_served_stale(indexed: Path) -> None:
    import numpy as np

    config = load_config()
    model = factory.embedder_for(config).model_id
    conn = store.connect(config.index_path)
    gathered = vectors._gather_matrix(conn, model)
    first = _fresh_process_load(conn, model)  # gathers from SQLite and writes the files
    directory = vectors.matrix_dir(config.index_path)
    written = sorted(p.name for p in directory.glob("*.npy"))
    assert len(written) == 1, written  # which row is which slot; the vectors are in the slot file, once
    assert len(list(directory.glob("*.slots"))) == 2  # one per model: the static model's, the card encoder's
    again = _fresh_process_load(conn, model)  # this one is read from the files
    assert isinstance(again.matrix, np.memmap)  # positive control: the file was used
    for name in ("ids", "sids", "kinds", "slots", "matrix", "scales"):
        np.testing.assert_array_equal(getattr(again, name), getattr(gathered, name))
        np.testing.assert_array_equal(getattr(first, name), getattr(gathered, name))

    # A change to the index (a session deleted) moves the generation: the old files are not used.
    raw = sqlite3.connect(indexed)
    raw.execute("PRAGMA foreign_keys=ON")
    raw.execute("DELETE FROM event_sequence WHERE aggregate_id = 'ses_dd4b43d5cffe1Zr8O8DpTMm9Yl'")
    raw.execute("DELETE FROM session WHERE id = 'ses_dd4b43d5cffe1Zr8O8DpTMm9Yl'")
    raw.commit()
    history.index(config)
    after = _fresh_process_load(conn, model)
    np.testing.assert_array_equal(after.sids, vectors._gather_matrix(conn, model).sids)
    assert len(after.sids) < len(gathered.sids)
    assert not set(written) & {p.name for p in directory.glob("*.npy")}  # the old generation is gone

    # A row map cut short is refused and rebuilt, not read as a smaller matrix.
    stem = vectors.slots.stem(vectors.index_id(conn) or "", model)
    rows = next(directory.glob(f"{stem}-*.rows.npy"))
    rows.write_bytes(rows.read_bytes()[:100])
    repaired = _fresh_process_load(conn, model)
    np.testing.assert_array_equal(repaired.slots, vectors._gather_matrix(conn, model).slots)
    assert len(repaired.ids) == len(after.ids)

    # A vector file cut short is never read as vectors: none until the next index makes them again.
    slot_file = next(directory.glob(f"{stem}-*.slots"))
    slot_file.write_bytes(slot_file.read_bytes()[:4096])
    assert len(_fresh_process_load(conn, model).ids) == 0
    report = history.index(config)
    assert report.semantic is not None and report.semantic.embedded > 0
    healed = _fresh_process_load(conn, model)
    assert len(healed.ids) == len(after.ids)
    np.testing.assert_array_equal(np.sort(healed.sids), np.sort(after.sids))


def test_a_rebuilt_index_never_reads_the_old_ones_matrices(indexed: Path) -> None:
    config = load_config()
    model = factory.embedder_for(config).model_id
    conn = store.connect(config.index_path)
    _fresh_process_load(conn, model)
    directory = vectors.matrix_dir(config.index_path)
    old_files = {p.name for p in directory.iterdir()}
    assert old_files  # positive control
    conn.close()
    for path in config.index_path.parent.glob(config.index_path.name + "*"):
        if path.is_file():
            path.unlink()  # the user deletes the index; its matrix directory is left behind
    history.index(config)
    conn = store.connect(config.index_path)
    fresh = _fresh_process_load(conn, model)
    assert len(fresh.ids) == len(vectors._gather_matrix(conn, model).ids)
    assert not old_files & {p.name for p in directory.iterdir()}


class _FailsOnce:
    """The card encoder, except that its first call (the prefetch thread's) raises."""

    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self.inner, self.model_id, self.dim, self.batch, self.calls = inner, inner.model_id, inner.dim, 64, 0

    def embed(self, texts):  # type: ignore[no-untyped-def]
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("encoder hiccup")
        return self.inner.embed(texts)


def test_cards_embedded_ahead_during_the_sync_match_the_encoder(sample_db: Path, semantic: None) -> None:
    import numpy as np

    from recollect.index.sync import sync

    config = load_config()
    cards = factory.card_encoder_for(config)
    conn = store.connect(config.index_path)
    report = sync(conn, history.configured_specs(config), card_encoder=cards)  # a whole index: prefetched
    rows = conn.execute(
        "SELECT s.card_text, v.slot FROM session s JOIN vector v ON v.hash = s.card_hash AND v.model = ?",
        (cards.model_id,),
    ).fetchall()
    sessions = conn.execute("SELECT count(*) FROM session WHERE card_hash IS NOT NULL").fetchone()[0]
    assert report.cards.embedded == len(rows) == sessions > 0
    matrix, all_scales = vectors.slots.read(conn, cards.model_id)
    picked = np.array([r[1] for r in rows])
    q, scales = np.asarray(matrix[picked]), all_scales[picked]
    stored = q.astype(np.float32) * scales[:, None]
    direct = np.stack([cards.embed([r[0]])[0] for r in rows])  # one by one, on this thread
    # stored as int8 with a scale each: within half a quantization step of the encoder's own vector
    assert np.all(np.abs(stored - direct) <= scales[:, None] / 2 + 1e-5)


def test_a_failed_prefetch_is_redone_by_the_pass(sample_db: Path, semantic: None) -> None:
    from recollect.index.sync import sync

    config = load_config()
    flaky = _FailsOnce(factory.card_encoder_for(config))
    conn = store.connect(config.index_path)
    report = sync(conn, history.configured_specs(config), card_encoder=flaky)
    sessions = conn.execute("SELECT count(*) FROM session WHERE card_hash IS NOT NULL").fetchone()[0]
    assert flaky.calls >= 2  # the prefetch's call failed; the pass made the vectors itself
    assert report.cards.embedded == _card_vectors(conn, flaky.model_id) == sessions > 0
