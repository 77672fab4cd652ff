"""What the plugin's hooks compute (`hooks.HookService`), over a real OpenCode store and real memory roots."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from recollect import history
from recollect.config import load_config
from recollect.integrations import autorecall, hooks, idlework
from recollect.integrations.hooks import HookService, PluginSettings, derive_query, detect_cue
from recollect.memory import open_memory, remember
from recollect.text.markers import INJECTED_BLOCK_TAGS, carries_injected_block

ALPHA, BETA = "/srv/oc/projects/alpha", "/srv/oc/projects/beta"
# Sessions of the sample store (src/recollect/data/demo/opencode.db) that mention "list files".
ALPHA_FORK = "ses_dd4b41176ffed7PjKpOBnGy0nf"
ALPHA_MAIN = "ses_dd4b4cefbffeyxl9UhQgJ4OAnb"
ALPHA_V2 = "ses_dd4b3c80bffe6SI9GNOTb70TWX"
BETA_LIST = "ses_dd4b3abb8ffeALoeRHSIk5v0pJ"


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        ("How did we fix the flaky auth test last time?", "last time"),
        ("What did we decide about the rate limiter?", "what did we decide"),
        ("Deploy it the same as before", "same as before"),
        ("set it up like before, please", "like before"),
        ("Last   Time we used pnpm", "last time"),
        ("上次部署脚本是怎么写的", "上次"),
        ("之前的配置还在吗", "之前"),
        ("我们决定用哪个数据库?", "我们决定"),
        ("跟之前一样处理", "跟之前一样"),
        ("像上次那样部署", "像上次那样"),
    ],
)
def test_cues(text: str, cue: str) -> None:
    assert detect_cue(text) == cue


@pytest.mark.parametrize(
    "text", ["the last timestamp is wrong", "fix the timeout at last", "beforehand, list files", "部署脚本", ""]
)
def test_not_cues(text: str) -> None:
    assert detect_cue(text) is None


def test_query_loses_the_cue() -> None:
    assert derive_query("What did we decide last time about the pnpm lockfile?") == "about the pnpm lockfile?"
    assert derive_query("像上次那样部署 staging") == "部署 staging"


@pytest.fixture
def indexed(sample_db: Path) -> Path:
    history.index()
    return sample_db


@pytest.fixture
def service() -> HookService:
    return HookService()


def test_auto_recall_is_scoped_to_the_project_and_skips_the_current_session(
    indexed: Path, service: HookService
) -> None:
    # Positive control first: from beta, beta's session is found.
    block, cue = service.recall_block("ses_other", BETA, "please list files like last time")
    assert cue == "like last time" and BETA_LIST in block

    block, cue = service.recall_block(ALPHA_FORK, ALPHA, "please list files like last time")
    assert cue == "like last time"
    assert block.startswith(hooks.RECALL_TAG) and block.endswith(hooks.RECALL_END)
    assert carries_injected_block(block) and block.startswith(INJECTED_BLOCK_TAGS)
    assert len(block) <= hooks.RECALL_MAX_CHARS
    assert ALPHA_MAIN in block or ALPHA_V2 in block
    assert BETA_LIST not in block  # another project: never, whatever it scores
    assert ALPHA_FORK not in block  # the session asking


def test_auto_recall_stays_silent_without_a_cue_or_a_good_match(indexed: Path, service: HookService) -> None:
    assert service.recall_block("s", ALPHA, "please list files") == ("", None)
    block, cue = service.recall_block("s", ALPHA, "last time we tuned the quantum flux capacitor")
    assert cue == "last time" and block == ""


def test_chinese_cue_finds_the_same_sessions(indexed: Path, service: HookService) -> None:
    block, cue = service.recall_block("s", ALPHA, "像上次那样 list files")
    assert cue == "像上次那样" and (ALPHA_MAIN in block or ALPHA_V2 in block)


def test_recall_block_fits_its_budget_with_long_hits() -> None:
    def hit() -> autorecall.Entry:
        return autorecall.Entry(
            session_id="ses_x",
            source="opencode",
            title="t" * 300,
            directory="/very/long/" + "d" * 300,
            time=1_790_000_000_000,
            cursor="opencode::ses_x::msg_y",
            snippet="s " * 500,
            score=1.0,
            coverage=1.0,
            files=[],
            question_terms=frozenset(),
            freshness="f " * 300,
        )

    block = autorecall.format_block("last time", [hit(), hit(), hit()])
    assert block and len(block) <= hooks.RECALL_MAX_CHARS


def test_message_injects_memory_and_caches_nothing_stale(indexed: Path, service: HookService) -> None:
    space = open_memory(no_project=True)
    remember(space, "Listing files uses eza, not ls, in every project.", category="preferences")
    out = service.on_message("s", ALPHA, "please list files")
    assert out["inject"].startswith("<recollect-memory>") and "eza" in out["inject"]
    assert out["recall"] == "" and "errors" not in out
    # Memory edited between messages: the next message sees it (nothing cached across messages).
    remember(space, "The files listing skips node_modules.", category="facts")
    assert "node_modules" in service.on_message("s", ALPHA, "list files")["inject"]
    assert "eza" in service.on_system(ALPHA)["inject"]


def test_the_system_block_is_the_same_bytes_for_every_message(indexed: Path, service: HookService) -> None:
    # A provider's prompt cache reuses the prompt up to its first changed byte: what goes into the
    # system prompt must not depend on the message; what does (bodies, recall) comes apart.
    space = open_memory(no_project=True)
    remember(space, "Listing files uses eza, not ls, in every project.", category="preferences")
    body = "Deploys go through staging first; the prod push waits for a green staging run."
    remember(space, body, category="facts", summary="How we deploy to prod")
    files = service.on_message("s", ALPHA, "please list files")
    deploy = service.on_message("s", ALPHA, "how do we deploy to prod?")
    cue = service.on_message("s", ALPHA, "list files like last time")
    # Positive control: the per-message part differs by message, and the cue found its session.
    assert "Listing files uses eza" in files["turn"] and "green staging run" in deploy["turn"]
    assert files["turn"] != deploy["turn"] and cue["recall"]
    assert files["inject"] == deploy["inject"] == cue["inject"] == service.on_system(ALPHA)["inject"]
    assert "green staging run" not in files["inject"] and "<recollect-recall" not in cue["inject"]


def test_compaction_context_holds_the_card_and_memories(indexed: Path, service: HookService) -> None:
    remember(open_memory(no_project=True), "Listing files uses eza, not ls.", category="preferences")
    context = service.on_compact(ALPHA_MAIN, ALPHA, "")["context"]
    assert len(context) == 1
    block = context[0]
    assert block.startswith(hooks.CONTEXT_TAG) and carries_injected_block(block)
    assert "Renamed: alpha main" in block and "list files" in block
    assert "global:preferences/" in block


def write_config(text: str) -> None:
    path = HookService().paths.config_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_each_piece_can_be_turned_off(indexed: Path) -> None:
    remember(open_memory(no_project=True), "Listing files uses eza, not ls.", category="preferences")
    service = HookService()
    assert service.on_message("s", ALPHA, "list files like last time")["recall"]
    write_config("[opencode]\ninject = false\nauto_recall = false\ncompaction_recall = false\n")
    time.sleep(0.01)
    out = service.on_message("s", ALPHA, "list files like last time")  # the config change is picked up
    assert out["inject"] == "" and out["recall"] == ""
    assert service.on_compact(ALPHA_MAIN, ALPHA)["context"] == []


def test_bad_settings_are_logged_not_fatal(indexed: Path) -> None:
    write_config("[opencode]\ninject = 'yes'\nbogus = 1\n[memory]\nauto_extract = true\n")
    service = HookService()
    assert service.settings == PluginSettings(auto_extract=True)
    log = service.log.path.read_text()
    assert "inject must be true or false" in log and "'bogus' is not a setting" in log


class FakeProc:
    def __init__(self, running: bool) -> None:
        self.running = running
        self.pid = 4242

    def poll(self) -> int | None:
        return None if self.running else 0


def test_idle_sync_is_debounced_with_one_trailing_run(monkeypatch: pytest.MonkeyPatch) -> None:
    write_config("[opencode]\nidle_sync_seconds = 0.3\n[memory]\nauto_extract = false\n")
    service = HookService()
    started: list[list[str]] = []

    def spawn(args: list[str], cwd: str | None = None, env: dict[str, str] | None = None) -> Any:
        started.append(args)
        return FakeProc(running=False)

    monkeypatch.setattr(service, "_spawn", spawn)
    assert service.on_idle("s1", ALPHA) == {"started": ["index"]}
    assert service.on_idle("s1", ALPHA) == {"started": []}  # within the window
    assert service.on_idle("s2", ALPHA) == {"started": []}
    time.sleep(1.5)
    assert started == [["index"], ["index"]]  # the burst's trailing run, exactly one


def test_idle_sync_waits_for_a_running_one(monkeypatch: pytest.MonkeyPatch) -> None:
    write_config("[opencode]\nidle_sync_seconds = 0\n[memory]\nauto_extract = false\n")
    service = HookService()
    procs: list[FakeProc] = []
    monkeypatch.setattr(service, "_spawn", lambda args, cwd=None, env=None: procs.append(FakeProc(True)) or procs[-1])
    assert service.on_idle("s", ALPHA)["started"] == ["index"]
    assert service.on_idle("s", ALPHA)["started"] == []
    procs[0].running = False
    assert service.on_idle("s", ALPHA)["started"] == ["index"]
    service.close()


@pytest.mark.parametrize("available", [True, False])
def test_auto_extract_only_when_on_and_available(monkeypatch: pytest.MonkeyPatch, available: bool) -> None:
    write_config("[opencode]\nsync_on_idle = false\n[memory]\nauto_extract = true\n")
    service = HookService()
    started: list[tuple[list[str], str | None, Any]] = []
    monkeypatch.setattr(
        service, "_spawn", lambda args, cwd=None, env=None: started.append((args, cwd, env)) or FakeProc(False)
    )
    monkeypatch.setattr(service, "extract_available", lambda: available)
    out = service.on_idle("ses_1", ALPHA, "http://127.0.0.1:4096")
    if available:
        assert out == {"started": ["extract"]}
        # The extractor may ask this OpenCode server for a model: it gets its address.
        assert started == [
            (["extract", "--session", "ses_1"], ALPHA, {"RECOLLECT_OPENCODE_URL": "http://127.0.0.1:4096"})
        ]
        assert service.on_idle("ses_1", ALPHA) == {"started": []}  # once per interval per session
    else:
        assert out == {"started": []} and started == []


def test_auto_extract_is_on_by_default_and_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    # Seed 002: autoExtract is on once the plugin is installed; `[memory] auto_extract = false` stops it.
    write_config("[opencode]\nsync_on_idle = false\n")
    service = HookService()
    started: list[list[str]] = []
    monkeypatch.setattr(service, "_spawn", lambda args, cwd=None, env=None: started.append(args) or FakeProc(False))
    monkeypatch.setattr(service, "extract_available", lambda: True)
    assert service.on_idle("ses_1", ALPHA) == {"started": ["extract"]}  # positive control: the default
    assert started == [["extract", "--session", "ses_1"]]

    write_config("[opencode]\nsync_on_idle = false\n[memory]\nauto_extract = false\n")
    time.sleep(0.01)
    off = HookService()
    monkeypatch.setattr(off, "_spawn", lambda args, cwd=None, env=None: pytest.fail("spawned"))
    monkeypatch.setattr(off, "extract_available", lambda: True)
    assert off.on_idle("ses_2", ALPHA) == {"started": []}


def test_extract_available_asks_the_cli(service: HookService) -> None:
    # This build may or may not have `recollect extract`; the probe must answer either way, once.
    first = service.extract_available()
    assert service.extract_available() is first


def test_extract_available_needs_no_process_for_this_install(monkeypatch: pytest.MonkeyPatch) -> None:
    def run(*args: Any, **kw: Any) -> Any:
        raise AssertionError("started a process")

    other = HookService(python="/nonexistent/python3")  # positive control: another interpreter is asked
    monkeypatch.setattr(hooks.subprocess, "run", run)
    with pytest.raises(AssertionError, match="started a process"):
        other.extract_available()
    assert HookService().extract_available() is True  # this install has `recollect extract`


def test_extract_default_min_turns_is_the_extractors() -> None:
    from recollect.extract.settings import ExtractSettings

    assert ExtractSettings().min_turns == idlework.EXTRACT_MIN_TURNS


def _extract_on_idle(monkeypatch: pytest.MonkeyPatch, min_turns: int) -> tuple[dict[str, Any], list[list[str]]]:
    write_config(f"[opencode]\nsync_on_idle = false\n[extract]\nmin_turns = {min_turns}\n")
    service = HookService()
    started: list[list[str]] = []
    monkeypatch.setattr(service, "_spawn", lambda args, cwd=None, env=None: started.append(args) or FakeProc(False))
    monkeypatch.setattr(service, "extract_available", lambda: True)
    return service.on_idle(ALPHA_MAIN, ALPHA), started


def test_idle_extract_skips_a_session_with_fewer_turns_than_min_turns(
    indexed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    turns = idlework.session_turns(load_config().index_path, ALPHA_MAIN)
    assert turns is not None and turns >= 1
    assert idlework.session_turns(load_config().index_path, "ses_not_indexed") is None  # unknown: the extractor decides
    out, started = _extract_on_idle(monkeypatch, turns)  # positive control: just enough turns
    assert out == {"started": ["extract"]} and started == [["extract", "--session", ALPHA_MAIN]]
    time.sleep(0.01)
    out, started = _extract_on_idle(monkeypatch, turns + 1)
    assert out == {"started": []} and started == []
    log = HookService().log.path.read_text()
    assert f"extract {ALPHA_MAIN}: not started, {turns} turns indexed, fewer than min_turns ({turns + 1})" in log


class FinishingProc(FakeProc):
    def __init__(self) -> None:
        super().__init__(True)
        self.done = threading.Event()

    def wait(self, timeout: float | None = None) -> int:
        self.done.wait(timeout)
        self.running = False
        return 0


def test_idle_extract_waits_for_the_sync_and_finish_waits_for_it(
    indexed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config("[opencode]\nidle_sync_seconds = 0\n[extract]\nmin_turns = 1\n")
    service = HookService()
    sync = FinishingProc()
    started: list[list[str]] = []

    def spawn(args: list[str], cwd: str | None = None, env: dict[str, str] | None = None) -> FakeProc:
        started.append(args)
        return sync if args == ["index"] else FakeProc(False)

    monkeypatch.setattr(service, "_spawn", spawn)
    monkeypatch.setattr(service, "extract_available", lambda: True)
    assert service.on_idle(ALPHA_MAIN, ALPHA) == {"started": ["index", "extract"]}
    time.sleep(0.2)
    assert started == [["index"]]  # the extraction waits for the sync that reads the turns just ended
    sync.done.set()
    service.finish(10)
    assert started == [["index"], ["extract", "--session", ALPHA_MAIN]]
    service.close()


def test_recollects_own_worker_directory_gets_nothing(indexed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The extractor's worker sessions run in a directory under our data dir, with this plugin loaded.
    remember(open_memory(no_project=True), "Listing files uses eza, not ls.", category="preferences")
    service = HookService()
    worker = service.paths.data_dir / "opencode-worker"
    worker.mkdir(parents=True)
    assert service.on_message("s", ALPHA, "list files like last time")["inject"]  # positive control
    assert service.on_message("w", str(worker), "list files like last time") == {
        "inject": "",
        "turn": "",
        "recall": "",
        "cue": None,
    }
    assert service.on_system(str(worker)) == {"inject": ""}
    assert service.on_compact("w", str(worker)) == {"context": []}
    monkeypatch.setattr(service, "_spawn", lambda args, cwd=None, env=None: pytest.fail("spawned"))
    assert service.on_idle("w", str(worker)) == {"started": []}


def test_auto_recall_never_searches_by_meaning(indexed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The message's critical path stays cheap: the index's query model is never loaded (only auto-recall's
    # rescue embeds two short texts with the shipped static model, for a session that covers too few words).
    # The card encoder is only asked for, when several sessions that answered share the message's words
    # (autorecall.agrees); without one (search by meaning off here) the words decide.
    from recollect.embed import factory

    block, _ = HookService().recall_block("ses_other", BETA, "please list files like last time")
    assert BETA_LIST in block  # positive control
    asked: list[object] = []
    monkeypatch.setattr(factory, "embedder_for", lambda *a, **k: pytest.fail("auto-recall loaded a model"))
    monkeypatch.setattr(factory, "card_encoder_for", lambda *a, **k: asked.append(a) or None)
    block, _ = HookService().recall_block("ses_other", BETA, "please list files like last time")
    assert BETA_LIST in block
    assert len(asked) == 1, asked  # asked for once; with no encoder to give, the words decided


def test_auto_extract_under_opencode_says_where_it_belongs() -> None:
    write_config("[opencode]\nauto_extract = false\nbogus = 1\n")
    settings, warnings = PluginSettings.from_config(load_config())
    assert settings.auto_extract is True  # the misplaced key changes nothing...
    assert any("write [memory] auto_extract instead" in w for w in warnings)  # ...and says where it goes
    unknown = next(w for w in warnings if "'bogus'" in w)
    assert "auto_extract" not in unknown.split("known:", 1)[1]  # not offered as an [opencode] setting
