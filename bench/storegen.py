"""Generate large, realistic OpenCode 1.18.33 stores in the real SQLite schema.

What this module owns: a deterministic (per seed) synthetic ``opencode.db`` that looks like months of
tool-heavy coding sessions — projects, sessions (subagent children, archived ones, subdirectories, a
non-git "global" project, compactions, provider errors, aborts, /shell), ``message``/``part`` rows in
the real JSON shapes, ``todo`` rows, and the ``event`` log + ``event_sequence`` written the way
OpenCode writes them (three ``message.updated`` per LLM step, text/reasoning parts written at start
and end, tool parts pending/running/completed, bash output streamed through ``metadata.output``).
Shapes are copied from the real sample store (``shared/opencode/REPORT.md``); the event log replays
to exactly the message/part rows.

It never touches a real user's store: it only writes the path it is given.

API::

    store = generate_store(path, sessions=1000, seed=7, projects=6, months=6)   # -> GeneratedStore
    store.sessions[sid]          # SessionFacts: project, directory, rare_identifier, error_message, cjk_phrase…
    store.by_project(); store.by_directory(); GeneratedStore.load(path + ".manifest.json")

    with StoreMutator(path) as m:                    # OpenCode-like changes, events included
        m.append_turn(sid, "text", steps=2); m.add_session(project_id)
        m.delete_message(mid); m.delete_part(pid); m.edit_part(pid, "text")
        m.rename_session(sid, "title"); m.archive_session(sid); m.delete_session(sid)

CLI::

    python bench/storegen.py OUT.db --sessions 1000 --seed 7 [--projects 6] [--months 6]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import string
import sys
import tempfile
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

VERSION = "1.18.33"
SCHEMA_PATH = Path(__file__).with_name("opencode_schema.sql")
# Where bench_index, bench_stages and bench_ui keep their generated stores and homes by default: one folder, so
# a store-N.db one of them generated is reused by the others.
WORKDIR = Path(tempfile.gettempdir()) / "recollect-bench"
# 2026-06-30T00:00:00Z. Chosen inside one 48-bit id window (2024-06-10 .. 2026-08-14, REPORT §4.4)
# so that by default msg_/prt_/evt_ ids ascend with time; pass end_time_ms to cross a wrap.
DEFAULT_END_MS = 1_782_777_600_000
DAY_MS = 86_400_000

MIGRATIONS = (
    "20260127222353_familiar_lady_ursula",
    "20260211171708_add_project_commands",
    "20260213144116_wakeful_the_professor",
    "20260225215848_workspace",
    "20260227213759_add_session_workspace_id",
    "20260228203230_blue_harpoon",
    "20260303231226_add_workspace_fields",
    "20260309230000_move_org_to_state",
    "20260312043431_session_message_cursor",
    "20260323234822_events",
    "20260410174513_workspace-name",
    "20260413175956_chief_energizer",
    "20260423070820_add_icon_url_override",
    "20260427172553_slow_nightmare",
    "20260428004200_add_session_path",
    "20260501142318_next_venus",
    "20260504145000_add_sync_owner",
    "20260507164347_add_workspace_time",
    "20260510033149_session_usage",
    "20260511000411_data_migration_state",
    "20260511173437_session-metadata",
    "20260601010001_normalize_storage_paths",
    "20260601202201_amazing_prowler",
    "20260602002951_lowly_union_jack",
    "20260602182828_add_project_directories",
    "20260603001617_session_message_projection_indexes",
    "20260603040000_session_message_projection_order",
    "20260603141458_session_input_inbox",
    "20260603160727_jittery_ezekiel_stane",
    "20260604172448_event_sourced_session_input",
    "20260605003541_add_session_context_snapshot",
    "20260605042240_add_context_epoch_agent",
    "20260611035744_credential",
    "20260611192811_lush_chimera",
    "20260612174303_project_dir_strategy",
    "20260622142730_simplify_session_context_epoch",
    "20260622170816_reset_v2_session_state",
    "20260622202450_simplify_session_input",
)

# Size knobs (bytes unless noted). Tuned so that part payloads are a few KB typical for tool output,
# ~1% of tool outputs are 50-200 KB, and the event table ends up several times the part data
# (the real sample: ~9x, mostly from repeated message/session snapshots and streamed bash output).
BASH_CHUNK = 120  # one streamed metadata.output update per ~this many bytes of stdout
BASH_MAX_UPDATES = 160
METADATA_OUTPUT_CAP = 30_000  # bash keeps at most this much output in metadata (OpenCode's cap)
BIG_OUTPUT_RATE = 0.008  # share of tool outputs that are 50-200 KB
HUGE_PART_RATE = 0.005  # share of top-level sessions with one 1-2 MB tool output (at least 1 from 50)
CHILD_SHARE = 0.10  # share of all sessions that are subagent children
CJK_RATE = 0.10  # share of top-level sessions whose user writes Chinese
ARCHIVED_RATE = 0.06
SUBDIR_RATE = 0.6  # sessions about a module in a subdir that run from that subdir
GLOBAL_RATE = 0.03  # sessions in a non-git directory (project "global")

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False).encode
BASE62 = string.digits + string.ascii_uppercase + string.ascii_lowercase
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_BYTE_TO_BASE62 = bytes(ord(BASE62[b % 62]) for b in range(256))


def dumps(obj: Any) -> str:
    """JSON the way OpenCode (JSON.stringify) writes it: compact, non-ASCII kept as is."""
    return _dumps(obj)


def derive_seed(*parts: object) -> int:
    """A stable seed from parts (``hash()`` is salted per process, crc32 is not)."""
    return zlib.crc32("\x1f".join(map(str, parts)).encode())


# --------------------------------------------------------------------------------------------------
# ids (REPORT §4.4)
# --------------------------------------------------------------------------------------------------


class IdFactory:
    """OpenCode's Identifier.create: prefix + 12 hex of (ms*4096+counter) mod 2^48 + 14 base62.

    ``ses_`` ids take the bitwise NOT (newest sorts first); the counter restarts at 1 for every new
    millisecond, exactly like the JS implementation.
    """

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._last_ms = -1
        self._counter = 0

    def _make(self, prefix: str, ms: int, descending: bool) -> str:
        if ms != self._last_ms:
            self._last_ms = ms
            self._counter = 0
        self._counter += 1
        value = ms * 4096 + self._counter
        if descending:
            value = ~value
        value &= (1 << 48) - 1
        return f"{prefix}_{value:012x}{self._rng.randbytes(14).translate(_BYTE_TO_BASE62).decode()}"

    def session(self, ms: int) -> str:
        return self._make("ses", ms, True)

    def message(self, ms: int) -> str:
        return self._make("msg", ms, False)

    def part(self, ms: int) -> str:
        return self._make("prt", ms, False)

    def event(self, ms: int) -> str:
        return self._make("evt", ms, False)

    def ulid(self, ms: int) -> str:
        """ULID, used as callID for tool parts OpenCode creates itself (/shell)."""
        t = "".join(CROCKFORD[(ms >> (45 - 5 * i)) & 31] for i in range(10))
        return t + "".join(self._rng.choices(CROCKFORD, k=16))


def decode_id_time(ident: str) -> int:
    """The 48-bit time field of an id (``ms*4096+counter`` mod 2^48), NOT undone for ``ses_``."""
    value = int(ident.split("_", 1)[1][:12], 16)
    if ident.startswith("ses_"):
        value = ~value & ((1 << 48) - 1)
    return value


# --------------------------------------------------------------------------------------------------
# vocabulary: projects, modules, identifiers, errors
# --------------------------------------------------------------------------------------------------

PROJECT_TEMPLATES: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    # name, language, subdirectories (monorepo parts), domain nouns
    (
        "payments-api",
        "python",
        ("services/worker", "libs/common"),
        (
            "ledger",
            "invoice",
            "refund",
            "webhook",
            "settlement",
            "payout",
            "dispute",
            "currency",
            "customer",
            "subscription",
            "tax",
            "audit",
            "statement",
            "fraud",
        ),
    ),
    (
        "storefront-web",
        "typescript",
        ("packages/ui", "packages/api"),
        (
            "cart",
            "checkout",
            "product",
            "catalog",
            "search",
            "session",
            "pricing",
            "inventory",
            "review",
            "wishlist",
            "shipping",
            "promo",
            "account",
            "locale",
        ),
    ),
    (
        "telemetry-agent",
        "go",
        ("cmd/agentctl",),
        (
            "collector",
            "exporter",
            "sampler",
            "buffer",
            "scraper",
            "pipeline",
            "config",
            "registry",
            "span",
            "metric",
            "batcher",
            "shipper",
            "discovery",
            "relabel",
        ),
    ),
    (
        "vecdb-core",
        "rust",
        ("crates/server", "crates/client"),
        (
            "segment",
            "index",
            "wal",
            "compaction",
            "tokenizer",
            "planner",
            "cache",
            "snapshot",
            "shard",
            "codec",
            "bloom",
            "manifest",
            "quantizer",
            "merger",
        ),
    ),
    (
        "ml-pipeline",
        "python",
        ("training", "serving"),
        (
            "dataset",
            "tokenizer",
            "trainer",
            "checkpoint",
            "scheduler",
            "evaluator",
            "augment",
            "loader",
            "metrics",
            "sampler",
            "optimizer",
            "exporter",
            "embedding",
            "registry",
        ),
    ),
    (
        "ops-console",
        "typescript",
        ("apps/web", "apps/worker"),
        (
            "deployment",
            "cluster",
            "alert",
            "tenant",
            "quota",
            "billing",
            "rollout",
            "secret",
            "incident",
            "runbook",
            "node",
            "webhook",
            "permission",
            "audit",
        ),
    ),
    (
        "chat-gateway",
        "go",
        ("cmd/gateway", "pkg/proto"),
        (
            "router",
            "ratelimit",
            "session",
            "presence",
            "fanout",
            "auth",
            "queue",
            "webhook",
            "codec",
            "retry",
            "health",
            "shard",
            "history",
            "typing",
        ),
    ),
    (
        "sync-engine",
        "rust",
        ("crates/cli",),
        (
            "replica",
            "journal",
            "conflict",
            "vector",
            "transport",
            "chunker",
            "manifest",
            "delta",
            "scheduler",
            "watcher",
            "hasher",
            "tombstone",
            "lease",
            "peer",
        ),
    ),
    (
        "crm-backend",
        "python",
        ("apps/api", "apps/jobs"),
        (
            "contact",
            "lead",
            "pipeline",
            "activity",
            "email",
            "import",
            "dedupe",
            "segment",
            "campaign",
            "report",
            "territory",
            "quota",
            "note",
            "attachment",
        ),
    ),
    (
        "docs-site",
        "typescript",
        ("packages/theme",),
        (
            "markdown",
            "search",
            "sidebar",
            "navigation",
            "theme",
            "i18n",
            "sitemap",
            "highlight",
            "anchor",
            "version",
            "redirect",
            "feed",
            "snippet",
            "toc",
        ),
    ),
)

VERBS = (
    "load",
    "save",
    "validate",
    "compute",
    "reconcile",
    "apply",
    "fetch",
    "flush",
    "retry",
    "parse",
    "encode",
    "decode",
    "merge",
    "split",
    "resolve",
    "register",
    "dispatch",
    "normalize",
    "expire",
    "rebuild",
    "schedule",
    "refresh",
    "serialize",
    "prune",
)
CLASS_SUFFIXES = (
    "Service",
    "Repository",
    "Client",
    "Validator",
    "Handler",
    "Store",
    "Manager",
    "Builder",
    "Parser",
    "Scheduler",
    "Cache",
    "Worker",
)
FIELDS = (
    "id",
    "amount",
    "status",
    "created_at",
    "updated_at",
    "owner_id",
    "retries",
    "ttl",
    "version",
    "checksum",
    "payload",
    "region",
    "batch_size",
    "deadline",
    "priority",
)
CASES = (
    "empty",
    "duplicate",
    "concurrent",
    "timeout",
    "unicode",
    "large_batch",
    "expired",
    "missing_owner",
    "negative",
    "rollback",
    "partial",
    "retry_exhausted",
)
# words the mutator uses for identifiers it adds later: never produced by the generator
MUTATION_WORDS = (
    "amber",
    "basalt",
    "cobalt",
    "dune",
    "ember",
    "fjord",
    "garnet",
    "heron",
    "indigo",
    "juniper",
    "kestrel",
    "lichen",
    "marlin",
    "nectar",
    "onyx",
    "pumice",
    "quince",
    "russet",
)
RARE_WORDS = (
    "quorum",
    "tombstone",
    "watermark",
    "backfill",
    "jitter",
    "debounce",
    "lattice",
    "epoch",
    "phantom",
    "orphan",
    "straggler",
    "hysteresis",
    "sentinel",
    "fencing",
    "ballast",
    "skew",
    "drift",
    "spillover",
    "overdraft",
    "clawback",
    "carryover",
    "gossip",
    "hedged",
    "lamport",
    "vacuum",
    "sharded",
    "coalesce",
    "trickle",
    "stale",
    "splice",
    "windowed",
    "cascade",
    "sticky",
    "reentrant",
    "lopsided",
    "midnight",
    "leap",
    "dangling",
    "stutter",
    "thundering",
)
SLUG_ADJ = (
    "jolly",
    "shiny",
    "quick",
    "kind",
    "swift",
    "misty",
    "silent",
    "lucky",
    "stellar",
    "happy",
    "curious",
    "brave",
    "calm",
    "eager",
    "gentle",
    "proud",
    "witty",
    "bold",
    "clever",
    "cosmic",
    "crisp",
    "dapper",
    "fuzzy",
    "glowing",
    "humble",
    "nimble",
)
SLUG_NOUN = (
    "squid",
    "wizard",
    "star",
    "falcon",
    "pixel",
    "orchid",
    "planet",
    "river",
    "panda",
    "eagle",
    "sailor",
    "otter",
    "comet",
    "harbor",
    "maple",
    "meadow",
    "nebula",
    "pebble",
    "quartz",
    "rocket",
    "summit",
    "tiger",
    "violet",
    "walrus",
    "yak",
    "zephyr",
)
MODELS = (  # providerID, modelID, $/M input, $/M output, $/M cache read, $/M cache write, reasoning
    ("anthropic", "claude-sonnet-4-5", 3.0, 15.0, 0.3, 3.75, False),
    ("anthropic", "claude-opus-4-1", 15.0, 75.0, 1.5, 18.75, False),
    ("openai", "gpt-5", 1.25, 10.0, 0.125, 0.0, True),
    ("openrouter", "qwen/qwen3-coder", 0.4, 1.6, 0.0, 0.0, False),
)

CJK_SCENES = (
    "每天凌晨跑批的时候",
    "在高并发压测的时候",
    "用户批量导入数据时",
    "服务重启之后",
    "切换到新版本依赖以后",
    "跨时区结算的时候",
    "网络抖动的情况下",
    "处理超大文件时",
    "灰度发布期间",
    "缓存刚过期的那一刻",
    "多个实例同时启动时",
    "月底对账的时候",
    "离线同步恢复之后",
    "回滚数据库迁移时",
    "开启调试日志后",
    "接口分页请求时",
    "定时任务重试的时候",
    "容器内存受限时",
    "新用户首次登录时",
    "导出报表的时候",
)
CJK_PROBLEMS = (
    "金额对不上",
    "偶尔出现空指针异常",
    "内存占用一直上涨",
    "重试逻辑没有生效",
    "数据被重复写入",
    "响应时间突然变慢",
    "日志里全是超时错误",
    "事务没有正确回滚",
    "连接池被耗尽",
    "排序结果不稳定",
    "时间戳差了八个小时",
    "配置默认值被覆盖",
    "进程直接崩溃退出",
    "单元测试随机失败",
    "死锁导致请求卡住",
    "编码转换出现乱码",
    "缓存命中率很低",
    "锁竞争非常严重",
    "协程泄漏越来越多",
    "校验和验证失败",
)
CJK_EFFECTS = (
    "导致报表延迟",
    "影响线上用户",
    "告警一直在响",
    "客户已经投诉了",
    "需要尽快修复",
    "下游服务也受影响",
    "数据需要重新修正",
    "我们找了一整天",
    "只在生产环境复现",
    "本地没法复现",
    "回归测试也没发现",
    "怀疑是最近的改动引起的",
)
CJK_GOALS = (
    "把重复的代码抽出来",
    "拆成更小的函数",
    "去掉全局状态",
    "改成异步处理",
    "提高可读性",
    "补上类型注解",
    "加上详细的日志",
    "减少数据库查询次数",
)

LANG_EXT = {"python": "py", "typescript": "ts", "go": "go", "rust": "rs"}


def _camel(word: str) -> str:
    return word[:1].upper() + word[1:]


def _ident(lang: str, words: Iterable[str]) -> str:
    words = list(words)
    if lang in ("python", "rust"):
        return "_".join(words)
    if lang == "go":
        return "".join(_camel(w) for w in words)
    return words[0] + "".join(_camel(w) for w in words[1:])


@dataclass(frozen=True)
class Module:
    """One area of a project: files, identifiers, tests and its recurring errors."""

    noun: str
    subdir: str  # "" or a monorepo part the module lives in
    source: str  # path relative to the worktree
    test: str
    extra: tuple[str, ...]  # other files of the module
    classes: tuple[str, ...]
    functions: tuple[str, ...]
    tests: tuple[str, ...]
    errors: tuple[str, ...]  # error lines that recur in every session about this module


@dataclass(frozen=True)
class ProjectSpec:
    id: str
    name: str
    language: str
    worktree: str
    subdirs: tuple[str, ...]
    modules: tuple[Module, ...]
    package: str

    @property
    def directories(self) -> list[str]:
        return [self.worktree] + [f"{self.worktree}/{s}" for s in self.subdirs]


def _module_paths(lang: str, pkg: str, noun: str, sub: str, rng: random.Random) -> tuple[str, str, tuple]:
    pre = f"{sub}/" if sub else ""
    noun_c = _camel(noun)
    if lang == "python":
        src = f"{pre}src/{pkg}/{noun}.py"
        test = f"{pre}tests/test_{noun}.py"
        extra = (f"{pre}src/{pkg}/{noun}_models.py", f"{pre}src/{pkg}/{noun}_utils.py")
    elif lang == "typescript":
        suf = rng.choice(CLASS_SUFFIXES)
        src = f"{pre}src/{noun}/{noun_c}{suf}.ts"
        test = f"{pre}src/{noun}/{noun}.test.ts"
        extra = (f"{pre}src/{noun}/types.ts", f"{pre}src/{noun}/index.ts")
    elif lang == "go":
        base = f"{sub}/" if sub.startswith("pkg") else ""
        src = f"{base or 'internal/'}{noun}/{noun}.go"
        test = f"{base or 'internal/'}{noun}/{noun}_test.go"
        extra = (f"{base or 'internal/'}{noun}/options.go",)
    else:
        src = f"{pre}src/{noun}.rs"
        test = f"{pre}tests/{noun}_test.rs"
        extra = (f"{pre}src/{noun}/mod.rs", f"{pre}benches/{noun}_bench.rs")
    return src, test, extra


def _module_errors(lang: str, noun: str, cls: str, fn: str, src: str, rng: random.Random) -> tuple[str, ...]:
    line = rng.randint(40, 400)
    if lang == "python":
        return (
            f"KeyError: '{noun}_id'",
            f"AttributeError: 'NoneType' object has no attribute '{rng.choice(FIELDS)}'",
            f"TypeError: {fn}() got an unexpected keyword argument '{rng.choice(FIELDS)}'",
            f'sqlalchemy.exc.IntegrityError: duplicate key value violates unique constraint "{noun}s_pkey"',
        )
    if lang == "typescript":
        return (
            f"TypeError: Cannot read properties of undefined (reading '{rng.choice(FIELDS)}')",
            f"{src}({line},{rng.randint(3, 40)}): error TS2322: Type 'string | undefined' is not "
            f"assignable to type 'string'.",
            f"Error: {cls} is not initialized. Call {fn}() first.",
            f"AssertionError: expected {rng.randint(100, 9999)} to be {rng.randint(100, 9999)}",
        )
    if lang == "go":
        return (
            "panic: runtime error: invalid memory address or nil pointer dereference",
            f"{src}:{line}:{rng.randint(2, 30)}: undefined: {fn}Locked",
            f"{noun}: context deadline exceeded",
            "fatal error: concurrent map writes",
        )
    return (
        f"called `Option::unwrap()` on a `None` value at {src}:{line}:{rng.randint(5, 40)}",
        f"error[E0502]: cannot borrow `self.{noun}s` as mutable because it is also borrowed as immutable",
        f"error[E0382]: borrow of moved value: `{noun}`",
        f"thread 'tokio-runtime-worker' panicked at {src}:{line}:9: index out of bounds",
    )


def build_project(index: int, rng: random.Random) -> ProjectSpec:
    """Project ``index`` (cycling over the templates). Its vocabulary depends only on the index."""
    name, lang, subdirs, nouns = PROJECT_TEMPLATES[index % len(PROJECT_TEMPLATES)]
    if index >= len(PROJECT_TEMPLATES):
        name = f"{name}-{index // len(PROJECT_TEMPLATES) + 1}"
    vrng = random.Random(derive_seed("vocab", name))
    pkg = name.split("-")[0].replace("-", "_")
    modules = []
    for noun in nouns:
        sub = vrng.choice(("", *subdirs)) if vrng.random() < 0.4 else ""
        src, test, extra = _module_paths(lang, pkg, noun, sub, vrng)
        classes = tuple(f"{_camel(noun)}{s}" for s in vrng.sample(CLASS_SUFFIXES, 3))
        functions = tuple(_ident(lang, (v, noun)) for v in vrng.sample(VERBS, 6))
        if lang == "go":
            tests = tuple(
                f"Test{_camel(v)}{_camel(noun)}{_camel(c)}"
                for v, c in zip(vrng.sample(VERBS, 5), vrng.sample(CASES, 5), strict=True)
            )
        elif lang == "typescript":
            tests = tuple(
                f"{v}s {noun} when {c.replace('_', ' ')}"
                for v, c in zip(vrng.sample(VERBS, 5), vrng.sample(CASES, 5), strict=True)
            )
        else:
            tests = tuple(
                f"test_{v}_{noun}_{c}" for v, c in zip(vrng.sample(VERBS, 5), vrng.sample(CASES, 5), strict=True)
            )
        errors = _module_errors(lang, noun, classes[0], functions[0], src, vrng)
        modules.append(Module(noun, sub, src, test, extra, classes, functions, tests, errors))
    project_id = f"{rng.getrandbits(160):040x}"
    worktree = f"/home/dev/code/{name}"
    return ProjectSpec(project_id, name, lang, worktree, subdirs, tuple(modules), pkg)


# --------------------------------------------------------------------------------------------------
# content: source files, logs, prompts
# --------------------------------------------------------------------------------------------------

_PY_BLOCKS = (
    '''class {Cls}:
    """{Noun} operations backed by the {noun} table."""

    def __init__(self, repo: "{Cls2}", *, {field}: int = {num}) -> None:
        self._repo = repo
        self.{field} = {field}
        self._cache: dict[str, dict] = {{}}

    def {fn}(self, {noun}_id: str) -> dict | None:
        if {noun}_id in self._cache:
            return self._cache[{noun}_id]
        row = self._repo.get({noun}_id)
        if row is None:
            logger.warning("{noun} %s not found", {noun}_id)
            return None
        self._cache[{noun}_id] = row
        return row
''',
    '''def {fn}(items: list[dict], *, {field}: int = {num}) -> list[dict]:
    """{Verb} {noun} records in batches of ``{field}``."""
    out: list[dict] = []
    for start in range(0, len(items), {field}):
        batch = items[start:start + {field}]
        for item in batch:
            if item.get("{field2}") is None:
                raise ValueError(f"{noun} {{item['id']}} has no {field2}")
            out.append({{**item, "{field2}": normalize(item["{field2}"])}})
    return out
''',
    """@dataclass(frozen=True)
class {Cls2}:
    id: str
    {field}: int
    {field2}: str | None = None
    created_at: datetime = field(default_factory=utcnow)

    def is_expired(self, now: datetime) -> bool:
        return self.created_at + timedelta(seconds={num}) < now
""",
    """async def {fn2}(session: AsyncSession, {noun}_id: str) -> None:
    async with session.begin():
        row = await session.get({Cls2}, {noun}_id, with_for_update=True)
        if row is None:
            raise NotFound({noun}_id)
        row.{field} = await {fn}(row)
        row.updated_at = utcnow()
        await session.flush()
""",
    """def {fn2}(self, {field}: int) -> None:
        # keep the retry budget bounded; callers rely on this to shed load
        for attempt in range(self.max_retries):
            try:
                return self._client.post("/{noun}s", json={{"{field}": {field}}})
            except TimeoutError:
                time.sleep(min(2 ** attempt * 0.1, {num}))
        raise RetryExhausted("{noun}", self.max_retries)
""",
)
_TS_BLOCKS = (
    """export class {Cls} {{
  private readonly cache = new Map<string, {Cls2}>();

  constructor(private readonly repo: {Cls2}Repo, private readonly {field} = {num}) {{}}

  async {fn}(id: string): Promise<{Cls2} | undefined> {{
    const hit = this.cache.get(id);
    if (hit) return hit;
    const row = await this.repo.find(id);
    if (!row) {{
      logger.warn(`{noun} ${{id}} not found`);
      return undefined;
    }}
    this.cache.set(id, row);
    return row;
  }}
}}
""",
    """export function {fn2}(items: {Cls2}[], opts: {{ {field}?: number }} = {{}}): {Cls2}[] {{
  const size = opts.{field} ?? {num};
  const out: {Cls2}[] = [];
  for (let i = 0; i < items.length; i += size) {{
    for (const item of items.slice(i, i + size)) {{
      if (item.{field2} == null) throw new Error(`{noun} ${{item.id}} has no {field2}`);
      out.push({{ ...item, {field2}: normalize(item.{field2}) }});
    }}
  }}
  return out;
}}
""",
    """export interface {Cls2} {{
  id: string;
  {field}: number;
  {field2}?: string;
  createdAt: Date;
}}

export type {Noun}Event =
  | {{ kind: "created"; {noun}: {Cls2} }}
  | {{ kind: "updated"; {noun}: {Cls2}; previous: {Cls2} }}
  | {{ kind: "deleted"; id: string }};
""",
    """export const use{Noun} = (id: string) => {{
  const [state, setState] = useState<{Cls2} | null>(null);
  useEffect(() => {{
    let cancelled = false;
    {fn}(id).then((value) => {{
      if (!cancelled) setState(value ?? null);
    }});
    return () => {{
      cancelled = true;
    }};
  }}, [id]);
  return state;
}};
""",
)
_GO_BLOCKS = (
    """// {Cls} keeps {noun}s in memory and flushes them every {num}ms.
type {Cls} struct {{
	mu      sync.Mutex
	items   map[string]*{Cls2}
	{field} int
	log     *slog.Logger
}}

func (s *{Cls}) {Fn}(ctx context.Context, id string) (*{Cls2}, error) {{
	s.mu.Lock()
	defer s.mu.Unlock()
	item, ok := s.items[id]
	if !ok {{
		return nil, fmt.Errorf("{noun} %q: %w", id, ErrNotFound)
	}}
	return item, nil
}}
""",
    """func {Fn2}(ctx context.Context, in []*{Cls2}, {field} int) ([]*{Cls2}, error) {{
	out := make([]*{Cls2}, 0, len(in))
	for i := 0; i < len(in); i += {field} {{
		select {{
		case <-ctx.Done():
			return nil, ctx.Err()
		default:
		}}
		end := min(i+{field}, len(in))
		out = append(out, in[i:end]...)
	}}
	return out, nil
}}
""",
    """type {Cls2} struct {{
	ID        string    `json:"id"`
	{Field}   int       `json:"{field}"`
	{Field2}  string    `json:"{field2},omitempty"`
	CreatedAt time.Time `json:"created_at"`
}}
""",
)
_RS_BLOCKS = (
    """pub struct {Cls} {{
    items: HashMap<String, {Cls2}>,
    {field}: usize,
}}

impl {Cls} {{
    pub fn new({field}: usize) -> Self {{
        Self {{ items: HashMap::with_capacity({num}), {field} }}
    }}

    pub fn {fn}(&mut self, id: &str) -> Result<&{Cls2}, {Noun}Error> {{
        self.items.get(id).ok_or_else(|| {Noun}Error::NotFound(id.to_owned()))
    }}
}}
""",
    """pub fn {fn2}(input: &[{Cls2}], {field}: usize) -> Vec<{Cls2}> {{
    let mut out = Vec::with_capacity(input.len());
    for chunk in input.chunks({field}.max(1)) {{
        for item in chunk {{
            if item.{field2}.is_none() {{
                tracing::warn!(id = %item.id, "{noun} without {field2}");
                continue;
            }}
            out.push(item.clone());
        }}
    }}
    out
}}
""",
    """#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct {Cls2} {{
    pub id: String,
    pub {field}: u64,
    pub {field2}: Option<String>,
}}

#[derive(Debug, thiserror::Error)]
pub enum {Noun}Error {{
    #[error("{noun} {{0}} not found")]
    NotFound(String),
    #[error("io: {{0}}")]
    Io(#[from] std::io::Error),
}}
""",
)
_HEADERS = {
    "python": "from __future__ import annotations\n\nimport logging\nimport time\nfrom dataclasses import "
    "dataclass, field\nfrom datetime import datetime, timedelta\n\nfrom .db import AsyncSession, "
    "utcnow\nfrom .errors import NotFound, RetryExhausted\n\nlogger = logging.getLogger(__name__)\n",
    "typescript": 'import { useEffect, useState } from "react";\nimport { logger } from "../lib/logger";\n'
    'import { normalize } from "../lib/normalize";\n',
    "go": 'import (\n\t"context"\n\t"fmt"\n\t"log/slog"\n\t"sync"\n\t"time"\n)\n',
    "rust": "use std::collections::HashMap;\n\nuse serde::{Deserialize, Serialize};\n",
}
_BLOCKS = {"python": _PY_BLOCKS, "typescript": _TS_BLOCKS, "go": _GO_BLOCKS, "rust": _RS_BLOCKS}

_LIB_NAMES = (
    "serde",
    "tokio",
    "tracing",
    "hyper",
    "rustls",
    "bytes",
    "futures",
    "clap",
    "anyhow",
    "regex",
    "rand",
    "prost",
    "tonic",
    "axum",
    "parking_lot",
    "crossbeam",
    "rayon",
    "memmap2",
)
_PY_LINT = (
    "E501 Line too long (118 > 100)",
    "F401 `os` imported but unused",
    "B008 Do not perform function call in argument defaults",
    "UP007 Use `X | Y` for type annotations",
    "error: Missing return statement  [return]",
    'note: Revealed type is "builtins.int"',
)
_GO_LINT = (
    "ineffectual assignment to err (ineffassign)",
    "Error return value is not checked (errcheck)",
    "exported function should have comment or be unexported (golint)",
    "S1000: should use a simple channel send/receive instead of select (gosimple)",
)
_GO_MODS = ("prometheus/client_golang", "stretchr/testify", "spf13/cobra", "grpc/grpc-go")
_NPM_NAMES = (
    "react",
    "react-dom",
    "zod",
    "vite",
    "vitest",
    "typescript",
    "eslint",
    "prettier",
    "@tanstack/react-query",
    "date-fns",
    "lodash-es",
    "undici",
    "pino",
    "fastify",
)


class ProjectContent:
    """Deterministic text for one project: the same file reads the same in every session."""

    def __init__(self, spec: ProjectSpec) -> None:
        self.spec = spec
        self.lang = spec.language
        self._files: dict[str, tuple[tuple[int, int], list[str]]] = {}
        self.revision = 0  # which version of the worktree a session sees: files drift between sessions
        self._edits: dict[str, int] = {}  # files edited in this revision, and how often
        self._seen: set[tuple[str, int, int, int, int | None]] = set()  # reads shown in this revision

    def seen(self, rel: str, offset: int, limit: int | None) -> bool:
        """Whether this window of this version of ``rel`` was read before; marks it read."""
        key = (rel, self.revision, self._edits.get(rel, 0), offset, limit)
        if key in self._seen:
            return True
        self._seen.add(key)
        return False

    def set_revision(self, revision: int) -> None:
        """Files as a later session sees them: some blocks rewritten, some added or dropped."""
        if revision != self.revision:
            self.revision = revision
            self._files.clear()
            self._edits.clear()
            self._seen.clear()

    def edited(self, rel: str) -> None:
        """An edit changed ``rel``: the next read shows a newer version of it."""
        self._edits[rel] = self._edits.get(rel, 0) + 1

    # files ------------------------------------------------------------------------------------------

    def abspath(self, rel: str) -> str:
        return f"{self.spec.worktree}/{rel}"

    def module_files(self, mod: Module) -> list[str]:
        return [mod.source, mod.test, *mod.extra]

    def file_lines(self, rel: str, mod: Module) -> list[str]:
        key = (self.revision, self._edits.get(rel, 0))
        cached = self._files.get(rel)
        if cached is None or cached[0] != key:
            cached = (key, self._render_file(rel, mod, key).split("\n"))
            self._files[rel] = cached
        return cached[1]

    def _render_file(self, rel: str, mod: Module, key: tuple[int, int]) -> str:
        """The file at a version: a base layout per path, then drift per revision and per edit.

        Each block is filled from its own seed, so a block the drift leaves alone reads the same in every
        version (near-duplicates across sessions, as in a real worktree) while the file as a whole differs.
        """
        blocks = _BLOCKS[self.lang]
        rng = random.Random(derive_seed("file", self.spec.name, rel))
        layout = [(rng.choice(blocks), rng.getrandbits(32)) for _ in range(rng.randint(3, 10))]
        for step, drift in enumerate(key):
            if not drift:
                continue
            dr = random.Random(derive_seed("drift", self.spec.name, rel, step, *key[: step + 1]))
            layout = [(t, dr.getrandbits(32)) if dr.random() < 0.35 else (t, b) for t, b in layout]
            if dr.random() < 0.5 or step == 1:
                layout.insert(dr.randint(0, len(layout)), (dr.choice(blocks), dr.getrandbits(32)))
            if len(layout) > 4 and dr.random() < 0.25:
                del layout[dr.randrange(len(layout))]
        pkg = "package " + mod.noun + "\n\n" if self.lang == "go" else ""
        parts = [pkg + _HEADERS[self.lang]]
        parts += [self._fill(t, mod, random.Random(b)) for t, b in layout]
        return "\n".join(parts)

    def _fill(self, template: str, mod: Module, rng: random.Random) -> str:
        fn, fn2 = rng.sample(mod.functions, 2)
        f1, f2 = rng.sample(FIELDS, 2)
        if self.lang in ("go", "typescript"):
            f1, f2 = _ident("typescript", f1.split("_")), _ident("typescript", f2.split("_"))
        cls, cls2 = rng.sample(mod.classes, 2)
        return template.format(
            Cls=cls,
            Cls2=cls2,
            fn=fn,
            fn2=fn2,
            Fn=_camel(fn),
            Fn2=_camel(fn2),
            field=f1,
            field2=f2,
            Field=_camel(f1),
            Field2=_camel(f2),
            noun=mod.noun,
            Noun=_camel(mod.noun),
            Verb=_camel(rng.choice(VERBS)),
            num=rng.choice((8, 16, 30, 64, 100, 250, 500, 1000, 5000)),
        )

    def read_output(self, rel: str, lines: list[str], offset: int = 0, limit: int | None = None) -> str:
        end = len(lines) if limit is None else min(len(lines), offset + limit)
        body = "\n".join(f"{i + 1}: {lines[i]}" for i in range(offset, end))
        tail = (
            f"(End of file - total {len(lines)} lines)"
            if end >= len(lines)
            else f"(File has more lines. Use 'offset' parameter to read beyond line {end})"
        )
        return f"<path>{self.abspath(rel)}</path>\n<type>file</type>\n<content>\n{body}\n\n{tail}\n</content>"

    # logs -------------------------------------------------------------------------------------------

    def test_command(self, mod: Module, rng: random.Random) -> str:
        if self.lang == "python":
            return rng.choice(
                (
                    f"pytest -q {mod.test}",
                    f"uv run pytest {mod.test} -x",
                    f"python -m pytest {mod.test} -k {mod.noun}",
                    "pytest -q",
                )
            )
        if self.lang == "typescript":
            return rng.choice(
                (f"npx vitest run src/{mod.noun}", f"npm test -- {mod.noun}", "pnpm test", f"npx vitest run {mod.test}")
            )
        if self.lang == "go":
            d = mod.source.rsplit("/", 1)[0]
            return rng.choice(
                (
                    f"go test ./{d}/...",
                    f"go test -race ./{d}/...",
                    "go test ./...",
                    f"go test -run {mod.tests[0]} ./{d}/",
                )
            )
        return rng.choice(
            (
                f"cargo test {mod.noun}",
                "cargo test --workspace",
                f"cargo test --test {mod.noun}_test",
                "cargo nextest run",
            )
        )

    def test_log(
        self, mod: Module, others: list[Module], rng: random.Random, *, failure: str | None, target_bytes: int
    ) -> str:
        """A test run of roughly ``target_bytes``; ``failure`` is the error line of a failing test."""
        out: list[str] = []
        size = 0
        mods = [mod, *others]
        n_pass = 0
        lang = self.lang
        if lang == "python":
            out += [
                "=" * 29 + " test session starts " + "=" * 30,
                "platform linux -- Python 3.11.7, pytest-8.3.2, pluggy-1.5.0",
                f"rootdir: {self.spec.worktree}",
                "configfile: pyproject.toml",
                "plugins: asyncio-0.23.8, cov-5.0.0, xdist-3.6.1",
                f"collected {rng.randint(20, 900)} items",
                "",
            ]
        elif lang == "typescript":
            out += ["", f" RUN  v2.1.1 {self.spec.worktree}", ""]
        elif lang == "rust":
            for lib in rng.sample(_LIB_NAMES, rng.randint(2, 8)):
                out.append(f"   Compiling {lib} v{rng.randint(0, 2)}.{rng.randint(0, 40)}.{rng.randint(0, 20)}")
            out += [
                f"    Finished `test` profile [unoptimized + debuginfo] target(s) in {rng.uniform(1, 90):.2f}s",
                f"     Running unittests src/lib.rs (target/debug/deps/{self.spec.package}-{rng.getrandbits(64):016x})",
                "",
            ]
        while size < target_bytes:
            m = rng.choice(mods)
            t = rng.choice(m.tests)
            if lang == "python":
                line = (
                    f"{m.test}::{t}[{rng.choice(CASES)}-{rng.randint(0, 999)}] "
                    f"{rng.choice(('PASSED', 'PASSED', 'PASSED', 'SKIPPED', 'XFAIL'))}  [{rng.randint(1, 99):3d}%]"
                )
            elif lang == "typescript":
                line = f" ✓ {m.test} > {rng.choice(m.classes)} > {t} #{rng.randint(1, 999)} {rng.randint(1, 900)}ms"
            elif lang == "go":
                line = (
                    f"=== RUN   {t}/{rng.choice(CASES)}_{rng.randint(0, 99)}\n--- PASS: {t}/"
                    f"{rng.choice(CASES)} ({rng.uniform(0, 2):.2f}s)"
                )
            else:
                line = f"test {m.noun}::tests::{t}_{rng.randint(0, 999)} ... ok <{rng.uniform(0, 3):.3f}s>"
            out.append(line)
            size += len(line) + 1
            n_pass += 1
        if failure is not None:
            out += self._failure_block(mod, rng, failure)
        if lang == "python" and rng.random() < 0.5:
            out += ["", "=" * 20 + f" slowest {min(n_pass, 10)} durations " + "=" * 20]
            slow = [rng.choice(mods) for _ in range(min(n_pass, 10))]
            out += [f"{rng.lognormvariate(-1, 1.3):.2f}s call     {m.test}::{rng.choice(m.tests)}" for m in slow]
        elapsed = rng.uniform(0.3, 240)
        n_fail = 1 if failure else 0
        if lang == "python":
            tail = f"{n_fail} failed, {n_pass} passed" if failure else f"{n_pass} passed"
            out.append(f"{'=' * 20} {tail} in {elapsed:.2f}s {'=' * 20}")
        elif lang == "typescript":
            out += [
                "",
                f" Test Files  {n_fail} failed | {len(mods)} passed ({len(mods) + n_fail})",
                f"      Tests  {n_fail} failed | {n_pass} passed ({n_pass + n_fail})",
                f"   Duration  {elapsed:.2f}s",
            ]
        elif lang == "go":
            d = mod.source.rsplit("/", 1)[0]
            out.append(("FAIL" if failure else "ok  ") + f"\tgithub.com/acme/{self.spec.name}/{d}\t{elapsed:.3f}s")
        else:
            res = "FAILED" if failure else "ok"
            out.append(
                f"\ntest result: {res}. {n_pass} passed; {n_fail} failed; 0 ignored; 0 measured; "
                f"0 filtered out; finished in {elapsed:.2f}s"
            )
        return "\n".join(out) + "\n"

    def _failure_block(self, mod: Module, rng: random.Random, failure: str) -> list[str]:
        t = rng.choice(mod.tests)
        fn = rng.choice(mod.functions)
        line = rng.randint(20, 400)
        if self.lang == "python":
            return [
                "",
                "=" * 30 + " FAILURES " + "=" * 30,
                f"{'_' * 20} {t} {'_' * 20}",
                "",
                f"    def {t}():",
                f">       result = {fn}(fixture_{mod.noun}())",
                "",
                f"{mod.test}:{rng.randint(10, 300)}: ",
                "_ " * 30,
                "",
                *self.stack_trace(mod, rng, f"E   {failure}")[1:],
                f"{self.abspath(mod.source)}:{line}: {failure.split(':', 1)[0]}",
                "",
                "-" * 20 + " Captured log call " + "-" * 20,
                f"WARNING  {self.spec.package}.{mod.noun}:{mod.noun}.py:{line - 3} retrying {mod.noun}",
                "=" * 20 + " short test summary info " + "=" * 20,
                f"FAILED {mod.test}::{t} - {failure}",
            ]
        if self.lang == "typescript":
            return [
                "",
                f" ❯ {mod.test} ({rng.randint(3, 30)} tests | 1 failed)",
                f"   × {t}",
                "",
                "⎯" * 20 + " Failed Tests 1 " + "⎯" * 20,
                "",
                f" FAIL  {mod.test} > {t}",
                *self.stack_trace(mod, rng, failure),
                f" ❯ {mod.source}:{line}:{rng.randint(3, 40)}",
                f" ❯ {mod.test}:{rng.randint(5, 200)}:{rng.randint(3, 40)}",
                "",
                "⎯" * 50,
            ]
        if self.lang == "go":
            return [
                f"--- FAIL: {mod.tests[0]} ({rng.uniform(0, 3):.2f}s)",
                f"    {mod.test.rsplit('/', 1)[1]}:{rng.randint(10, 300)}: {failure}",
                f"    {mod.test.rsplit('/', 1)[1]}:{rng.randint(10, 300)}: "
                f"expected {rng.randint(1, 9)} items, got {rng.randint(1, 9)}",
                *(self.stack_trace(mod, rng, failure) if failure.startswith(("panic", "fatal")) else []),
                "FAIL",
            ]
        return [
            f"test {mod.noun}::tests::{t} ... FAILED",
            "",
            "failures:",
            "",
            f"---- {mod.noun}::tests::{t} stdout ----",
            *(
                self.stack_trace(mod, rng, failure)
                if rng.random() < 0.5
                else [failure, "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"]
            ),
            "",
            "failures:",
            f"    {mod.noun}::tests::{t}",
        ]

    def build_log(self, mod: Module, rng: random.Random, target_bytes: int, error: str | None) -> tuple[str, str]:
        """(command, output) of a build/lint/type-check run; every line is made afresh."""
        lang = self.lang
        mods = self.spec.modules

        def ver() -> str:
            return f"v{rng.randint(0, 2)}.{rng.randint(0, 40)}.{rng.randint(0, 20)}"

        def file_of() -> str:
            m = rng.choice(mods)
            return rng.choice(self.module_files(m))

        def pos() -> str:
            return f"{rng.randint(1, 900)}:{rng.randint(1, 100)}"

        def line() -> str:
            if lang == "python":
                if cmd.startswith(("uv", "pip")):
                    pkg = rng.choice(_LIB_NAMES + _NPM_NAMES).replace("@", "").replace("/", "-")
                    return rng.choice(
                        (
                            f"Downloading {pkg}-{ver()[1:]}-py3-none-any.whl ({rng.randint(4, 9000)} kB)",
                            f"Resolved {rng.randint(20, 300)} packages in {rng.randint(3, 2000)}ms",
                            f" + {pkg}=={ver()[1:]}",
                        )
                    )
                return f"{self.abspath(file_of())}:{pos()}: {rng.choice(_PY_LINT)} ({rng.choice(FIELDS)})"
            if lang == "typescript":
                if cmd == "npm install":
                    return rng.choice(
                        (
                            f"added {rng.randint(1, 900)} packages, and audited {rng.randint(900, 1500)} packages "
                            f"in {rng.randint(2, 60)}s",
                            f"npm warn deprecated {rng.choice(_NPM_NAMES)}@{ver()[1:]}: this version is no longer "
                            "supported",
                        )
                    )
                m = rng.choice(mods)
                return (
                    f"{rng.choice(self.module_files(m))}({rng.randint(1, 900)},{rng.randint(1, 80)}): error "
                    f"TS{rng.randint(2300, 2800)}: Property '{rng.choice(FIELDS)}' does not exist on type "
                    f"'{rng.choice(m.classes)}'."
                )
            if lang == "go":
                if rng.random() < 0.2:
                    return f"go: downloading github.com/{rng.choice(_GO_MODS)} {ver()}"
                return f"{file_of()}:{pos()}: {rng.choice(_GO_LINT)}"
            if rng.random() < 0.3:
                return f"   Compiling {rng.choice(_LIB_NAMES)} {ver()}"
            m = rng.choice(mods)
            return (
                f"warning: unused variable: `{rng.choice(FIELDS)}`\n  --> {rng.choice(self.module_files(m))}:{pos()}"
                f"\n   |\n{rng.randint(1, 900):>3} |     let {rng.choice(FIELDS)} = {rng.choice(m.functions)}"
                f"(&{m.noun});\n   |         ^ help: if this is intentional, prefix it with an underscore"
            )

        cmd = rng.choice(
            {
                "python": ("ruff check .", "mypy src", "uv sync", "pip install -e '.[dev]'"),
                "typescript": ("npx tsc --noEmit", "pnpm build", "npm run lint", "npm install"),
                "go": ("go build ./...", "go vet ./...", "golangci-lint run", "go mod tidy"),
                "rust": ("cargo build --release", "cargo clippy --all-targets", "cargo check"),
            }[lang]
        )
        lines: list[str] = []
        size = 0
        while size < target_bytes:
            x = line()
            lines.append(x)
            size += len(x) + 1
        lines.append(f"Found {len(lines)} problems in {rng.uniform(0.1, 60):.2f}s")
        if error:
            lines.append(error)
        return cmd, "\n".join(lines) + "\n"

    def git_output(self, mod: Module, rng: random.Random, target_bytes: int) -> tuple[str, str]:
        kind = rng.random()
        if kind < 0.3:
            files = rng.sample(self.module_files(mod), rng.randint(1, len(self.module_files(mod))))
            body = "\n".join(f"\t{rng.choice(('modified:  ', 'modified:  ', 'deleted:   '))} {f}" for f in files)
            ahead = rng.randint(0, 12)
            branch = rng.choice(
                ("main", f"fix/{mod.noun}-{rng.randint(1, 9999)}", f"feat/{mod.noun}-v{rng.randint(2, 9)}")
            )
            untracked = [
                f"\t{mod.noun}_{rng.choice(CASES)}_{rng.randint(1, 999)}.{rng.choice(('log', 'json', 'patch', 'txt'))}"
                for _ in range(rng.randint(0, 4))
            ]
            return "git status", (
                f"On branch {branch}\n"
                + (f"Your branch is ahead of 'origin/{branch}' by {ahead} commits.\n\n" if ahead else "")
                + 'Changes not staged for commit:\n  (use "git add <file>..." to update what will '
                f"be committed)\n{body}\n"
                + ("\nUntracked files:\n" + "\n".join(untracked) + "\n" if untracked else "")
                + '\nno changes added to commit (use "git add")\n'
            )
        if kind < 0.55:
            lines = []
            size = 0
            while size < target_bytes:
                line = (
                    f"{rng.getrandbits(28):07x} {rng.choice(('fix', 'feat', 'refactor', 'test', 'chore'))}"
                    f"({rng.choice(self.spec.modules).noun}): {rng.choice(VERBS)} "
                    f"{rng.choice(self.spec.modules).noun} {rng.choice(CASES).replace('_', ' ')} handling"
                    + (f" (#{rng.randint(100, 9999)})" if rng.random() < 0.5 else "")
                )
                lines.append(line)
                size += len(line) + 1
            return f"git log --oneline -n {len(lines)}", "\n".join(lines) + "\n"
        return self.long_diff(mod, rng, max(target_bytes * 3, 1500))

    def long_diff(self, mod: Module, rng: random.Random, target_bytes: int) -> tuple[str, str]:
        """``git diff`` over several files of a module, several hunks each, until about ``target_bytes``."""
        files = self.module_files(mod) + [f for m in rng.sample(self.spec.modules, 2) for f in self.module_files(m)]
        out: list[str] = []
        size = 0
        shown: list[str] = []
        for rel in dict.fromkeys([mod.source, *rng.sample(files, min(len(files), rng.randint(1, 6)))]):
            owner = next((m for m in self.spec.modules if rel in self.module_files(m)), mod)
            lines = self.file_lines(rel, owner)
            out += [
                f"diff --git a/{rel} b/{rel}",
                f"index {rng.getrandbits(28):07x}..{rng.getrandbits(28):07x} 100644",
                f"--- a/{rel}",
                f"+++ b/{rel}",
            ]
            shown.append(rel)
            at = 0
            shift = 0
            while at < len(lines) - 4 and size < target_bytes:
                at += rng.randint(0, 25)
                ctx = rng.randint(2, 3)
                n_old = rng.randint(1, 12)
                old = lines[at + ctx : at + ctx + n_old]
                if not old:
                    break
                new = [
                    x.replace(rng.choice(FIELDS), rng.choice(FIELDS)).replace(
                        str(rng.randint(0, 9)), str(rng.randint(0, 9))
                    )
                    for x in old
                    if rng.random() < 0.85
                ]
                new += [self._fill(rng.choice(_BLOCKS[self.lang]), owner, rng)] if rng.random() < 0.3 else []
                new = "\n".join(new).split("\n") if new else []
                before = lines[at : at + ctx]
                after = lines[at + ctx + n_old : at + 2 * ctx + n_old]
                head = f"@@ -{at + 1},{len(before) + len(old) + len(after)} +{at + 1 + shift}," + (
                    f"{len(before) + len(new) + len(after)} @@ {rng.choice(owner.functions)}"
                )
                hunk = [head, *(" " + x for x in before), *("-" + x for x in old), *("+" + x for x in new)]
                hunk += [" " + x for x in after]
                out += hunk
                size += sum(len(x) + 1 for x in hunk)
                shift += len(new) - len(old)
                at += 2 * ctx + n_old
            if size >= target_bytes:
                break
        return "git diff " + " ".join(shown), "\n".join(out) + "\n"

    def stack_trace(self, mod: Module, rng: random.Random, error: str) -> list[str]:
        """A traceback ending in ``error``: frames through the project's modules, then library frames."""
        mods = [mod, *rng.sample(self.spec.modules, rng.randint(1, 4))]
        frames = [(m, rng.choice(self.module_files(m)), rng.choice(m.functions), rng.randint(3, 900)) for m in mods]
        rng.shuffle(frames)
        lib = rng.sample(_LIB_NAMES, rng.randint(0, 3))
        lang = self.lang
        if lang == "python":
            out = ["Traceback (most recent call last):"]
            for lname in lib:
                out += [
                    f'  File "/home/dev/.venv/lib/python3.11/site-packages/{lname}/core.py", '
                    f"line {rng.randint(10, 3000)}, in {rng.choice(VERBS)}",
                    f"    return self.{rng.choice(VERBS)}(*args, **kwargs)",
                ]
            for _m, rel, fn, ln in frames:
                out += [
                    f'  File "{self.abspath(rel)}", line {ln}, in {fn}',
                    f"    {rng.choice(FIELDS)} = {fn}({_m.noun})",
                ]
            return [*out, error]
        if lang == "typescript":
            out = [error]
            for m, rel, fn, ln in frames:
                out.append(f"    at {rng.choice(m.classes)}.{fn} ({self.abspath(rel)}:{ln}:{rng.randint(3, 80)})")
            out += [
                f"    at {rng.choice(('processTicksAndRejections', 'Module._compile', 'runTest'))} "
                f"(node:internal/process/task_queues:{rng.randint(20, 140)}:{rng.randint(3, 30)})"
                for _ in lib
            ]
            return out
        if lang == "go":
            out = [error, "", f"goroutine {rng.randint(1, 4000)} [running]:"]
            for m, rel, fn, ln in frames:
                out += [
                    f"github.com/acme/{self.spec.name}/{rel.rsplit('/', 1)[0]}.(*{rng.choice(m.classes)}).{fn}"
                    f"(0xc{rng.getrandbits(36):09x}, {{0x{rng.getrandbits(24):x}, 0x{rng.randint(1, 99):x}}})",
                    f"\t{self.abspath(rel)}:{ln} +0x{rng.randint(16, 900):x}",
                ]
            out += [
                f"created by {rng.choice(('net/http.(*Server).Serve', 'main.main', 'sync.(*Once).Do'))} in "
                f"goroutine {rng.randint(1, 40)}",
                f"exit status {rng.choice((1, 2))}",
            ]
            return out
        out = [error, "stack backtrace:"]
        for k, (m, rel, fn, ln) in enumerate(frames):
            out += [
                f"  {k:>2}: {self.spec.package}::{m.noun}::{fn}",
                f"             at ./{rel}:{ln}:{rng.randint(5, 60)}",
            ]
        out.append("note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.")
        return out

    def service_log(self, mod: Module, rng: random.Random, target_bytes: int, now_ms: int) -> tuple[str, str]:
        """(command, output) of a service's log: timestamps, request ids, values and sometimes a crash."""
        cmd = rng.choice(
            (
                f"tail -n {rng.randint(50, 400)} logs/{mod.noun}.log",
                f"kubectl logs deploy/{self.spec.name}-{mod.noun} --since={rng.randint(5, 120)}m",
                f"docker compose logs --tail={rng.randint(50, 400)} {mod.noun}",
                f"journalctl -u {self.spec.name} -n {rng.randint(50, 400)} --no-pager",
            )
        )
        ts = now_ms / 1000 - rng.randint(60, 86_400)
        rows: list[str] = []
        size = 0
        while size < target_bytes:
            ts += rng.expovariate(2.0)
            m = rng.choice(self.spec.modules) if rng.random() < 0.4 else mod
            level = rng.choice(("INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"))
            stamp = datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
            kv = " ".join(
                f"{f}={rng.choice((str(rng.randint(0, 99999)), f'{rng.getrandbits(32):08x}', rng.choice(CASES)))}"
                for f in rng.sample(FIELDS, rng.randint(1, 4))
            )
            row = (
                f"{stamp} {level:<5} [{m.noun}] {rng.choice(m.functions)} {rng.choice(CASES).replace('_', ' ')} "
                f"req={rng.getrandbits(48):012x} {kv} took={rng.lognormvariate(3, 1.2):.1f}ms"
            )
            rows.append(row)
            size += len(row) + 1
            if level == "ERROR" and rng.random() < 0.15:
                trace = self.stack_trace(m, rng, rng.choice(m.errors))
                rows += trace
                size += sum(len(x) + 1 for x in trace)
        return cmd, "\n".join(rows) + "\n"

    def big_blob(self, rng: random.Random, target_bytes: int) -> tuple[str, str, str]:
        """(tool, command-or-path, output) for a 50 KB - 2 MB output: a fixture, log or bundle."""
        mod = rng.choice(self.spec.modules)
        kind = rng.randrange(3)
        if kind == 0:
            rows = []
            size = 0
            i = 0
            while size < target_bytes:
                row = (
                    f'  {{"id": "{mod.noun}_{i:06d}", "{rng.choice(FIELDS)}": {rng.randint(0, 99999)}, '
                    f'"status": "{rng.choice(("active", "pending", "failed", "settled"))}", '
                    f'"note": "{rng.choice(CASES)} {rng.choice(VERBS)}"}},'
                )
                rows.append(row)
                size += len(row) + 1
                i += 1
            return "bash", f"cat fixtures/{mod.noun}_snapshot.json", "[\n" + "\n".join(rows) + "\n]\n"
        if kind == 1:
            rows = []
            size = 0
            ts = 1_700_000_000
            while size < target_bytes:
                ts += rng.randint(0, 3)
                m = rng.choice(self.spec.modules)
                level = rng.choice(("INFO", "INFO", "DEBUG", "WARN", "ERROR"))
                row = (
                    f"{datetime.fromtimestamp(ts, UTC).isoformat()} {level} "
                    f"[{m.noun}] {rng.choice(m.functions)} {rng.choice(CASES)} "
                    f"id={rng.getrandbits(32):08x} took={rng.randint(1, 5000)}ms"
                )
                rows.append(row)
                size += len(row) + 1
            return "bash", f"tail -n {len(rows)} logs/{mod.noun}.log", "\n".join(rows) + "\n"
        generated = mod.source.rsplit(".", 1)[0] + "_generated." + mod.source.rsplit(".", 1)[1]
        blocks = [_HEADERS[self.lang]]
        size = 0
        while size < target_bytes * 0.85:  # read_output adds line numbers
            m = rng.choice(self.spec.modules)
            mark = "#" if self.lang == "python" else "//"
            b = f"{mark} generated from {m.noun} schema {rng.getrandbits(40):010x}\n" + self._fill(
                rng.choice(_BLOCKS[self.lang]), m, rng
            )
            blocks.append(b)
            size += len(b) + 1
        return "read", generated, "\n".join(blocks)

    def grep_output(self, pattern: str, mods: list[Module], rng: random.Random) -> tuple[str, int]:
        lines: list[str] = []
        n = 0
        for m in mods:
            flines = self.file_lines(m.source, m)
            hits = [i for i, x in enumerate(flines) if pattern in x][:8]
            if not hits:
                hits = rng.sample(range(len(flines)), min(3, len(flines)))
            lines.append(f"{self.abspath(m.source)}:")
            for i in hits:
                lines.append(f"  Line {i + 1}: {flines[i].strip()}")
                n += 1
            lines.append("")
        return f"Found {n} matches\n" + "\n".join(lines), n


# --------------------------------------------------------------------------------------------------
# session writer: rows + events, the way OpenCode projects them (REPORT §5, §6)
# --------------------------------------------------------------------------------------------------


def _zero_tokens() -> dict:
    return {"input": 0, "output": 0, "reasoning": 0, "cache": {"read": 0, "write": 0}}


@dataclass
class ModelChoice:
    provider: str
    model: str
    price_in: float
    price_out: float
    price_cache_read: float
    price_cache_write: float
    reasoning: bool

    def cost(self, t: dict) -> float:
        return round(
            (
                t["input"] * self.price_in
                + (t["output"] + t["reasoning"]) * self.price_out
                + t["cache"]["read"] * self.price_cache_read
                + t["cache"]["write"] * self.price_cache_write
            )
            / 1e6,
            6,
        )


@dataclass
class SessionRow:
    id: str
    project_id: str
    parent_id: str | None
    slug: str
    directory: str
    path: str
    title: str
    time_created: int
    time_updated: int
    agent: str | None = None
    model: dict | None = None
    permission: list | None = None
    cost: float = 0.0
    tokens: dict = field(default_factory=_zero_tokens)
    summary: dict | None = None
    time_archived: int | None = None

    def info(self) -> dict:
        """The session object as carried by session.created/updated events."""
        d: dict[str, Any] = {
            "id": self.id,
            "slug": self.slug,
            "projectID": self.project_id,
            "directory": self.directory,
            "path": self.path,
        }
        if self.parent_id:
            d["parentID"] = self.parent_id
        if self.summary is not None:
            d["summary"] = self.summary
        d["cost"] = self.cost
        d["tokens"] = self.tokens
        d["title"] = self.title
        if self.agent:
            d["agent"] = self.agent
        if self.model:
            d["model"] = self.model
        d["version"] = VERSION
        t = {"created": self.time_created, "updated": self.time_updated}
        if self.time_archived:
            t["archived"] = self.time_archived
        d["time"] = t
        if self.permission:
            d["permission"] = self.permission
        return d

    def row(self) -> tuple:
        s = self.summary or {}
        tk = self.tokens
        return (
            self.id,
            self.project_id,
            None,
            self.parent_id,
            self.slug,
            self.directory,
            self.path,
            self.title,
            VERSION,
            None,
            s.get("additions"),
            s.get("deletions"),
            s.get("files"),
            None,
            None,
            self.cost,
            tk["input"],
            tk["output"],
            tk["reasoning"],
            tk["cache"]["read"],
            tk["cache"]["write"],
            None,
            dumps(self.permission) if self.permission else None,
            self.agent,
            dumps(self.model) if self.model else None,
            self.time_created,
            self.time_updated,
            None,
            self.time_archived,
        )


SESSION_COLUMNS = (
    "id",
    "project_id",
    "workspace_id",
    "parent_id",
    "slug",
    "directory",
    "path",
    "title",
    "version",
    "share_url",
    "summary_additions",
    "summary_deletions",
    "summary_files",
    "summary_diffs",
    "metadata",
    "cost",
    "tokens_input",
    "tokens_output",
    "tokens_reasoning",
    "tokens_cache_read",
    "tokens_cache_write",
    "revert",
    "permission",
    "agent",
    "model",
    "time_created",
    "time_updated",
    "time_compacting",
    "time_archived",
)


class SessionWriter:
    """Plays one session forward in time, keeping final rows and appending events.

    Everything is in memory: ``messages``/``parts`` hold the latest row state by id (what the
    projection tables end with), ``events`` the append-only log with per-session ``seq``.
    """

    def __init__(
        self, session: SessionRow, ids: IdFactory, rng: random.Random, model: ModelChoice, root: str, *, seq: int = -1
    ) -> None:
        self.s = session
        self.ids = ids
        self.rng = rng
        self.model = model
        self.root = root
        self.seq = seq
        self.now = session.time_updated
        self.events: list[tuple[str, str, int, str, str]] = []
        self.messages: dict[str, list] = {}  # id -> [time_created, time_updated, data]
        self.parts: dict[str, list] = {}  # id -> [message_id, time_created, time_updated, data]
        self.todos: list[dict] | None = None
        self.todo_time = 0
        self.snapshot = f"{rng.getrandbits(160):040x}"
        self.context = 11_000 + rng.randint(0, 4000)  # prompt tokens: system prompt + tool schemas
        self.diffs: dict[str, dict] = {}  # file -> diff of the current turn
        self.session_diffs: dict[str, tuple[int, int]] = {}

    # clock and log -------------------------------------------------------------------------------

    def tick(self, lo: int, hi: int) -> int:
        self.now += self.rng.randint(lo, hi)
        return self.now

    def emit(self, type_: str, data: dict) -> None:
        self.seq += 1
        self.events.append((self.ids.event(self.now), self.s.id, self.seq, type_, dumps(data)))
        self.now += 1

    def session_updated(self, *, bump: bool = True) -> None:
        if bump:
            self.s.time_updated = self.now
        self.emit("session.updated.1", {"sessionID": self.s.id, "info": self.s.info()})

    def create(self) -> None:
        self.emit("session.created.1", {"sessionID": self.s.id, "info": self.s.info()})

    # messages ------------------------------------------------------------------------------------

    def _message_event(self, mid: str) -> None:
        data = self.messages[mid][2]
        self.emit("message.updated.1", {"sessionID": self.s.id, "info": {"id": mid, "sessionID": self.s.id, **data}})

    def _touch_message(self, mid: str) -> None:
        self.messages[mid][1] = self.now
        self._message_event(mid)

    def user_message(self, agent: str) -> str:
        mid = self.ids.message(self.now)
        data: dict[str, Any] = {
            "role": "user",
            "time": {"created": self.now},
            "agent": agent,
            "model": {"providerID": self.model.provider, "modelID": self.model.model},
        }
        self.messages[mid] = [self.now, self.now, data]
        self._message_event(mid)
        self.tick(3, 20)
        return mid

    def finish_user(self, mid: str) -> None:
        """After the turn: OpenCode writes the per-file diffs of the turn onto the user message."""
        data = self.messages[mid][2]
        diffs = []
        for rel, d in self.diffs.items():
            patch = f"Index: {rel}\n{'=' * 67}\n--- {rel}\t\n+++ {rel}\t\n{d['hunk']}"
            diffs.append(
                {
                    "file": rel,
                    "patch": patch,
                    "additions": d["additions"],
                    "deletions": d["deletions"],
                    "status": d["status"],
                }
            )
        data["summary"] = {"diffs": diffs}
        self._touch_message(mid)
        if diffs:
            self._touch_message(mid)
        self.diffs = {}

    def assistant_message(self, parent: str, mode: str = "build", *, summary: bool = False, bump: bool = True) -> str:
        mid = self.ids.message(self.now)
        data: dict[str, Any] = {"parentID": parent, "role": "assistant", "mode": mode, "agent": mode}
        if summary:
            data["summary"] = True
        data.update(
            {
                "path": {"cwd": self.s.directory, "root": self.root},
                "cost": 0,
                "tokens": _zero_tokens(),
                "modelID": self.model.model,
                "providerID": self.model.provider,
                "time": {"created": self.now},
            }
        )
        self.messages[mid] = [self.now, self.now, data]
        self._message_event(mid)
        self.session_updated(bump=bump)
        return mid

    def step_tokens(self, new_tokens: int, output: int) -> dict:
        reasoning = self.rng.randint(30, 900) if self.model.reasoning and self.rng.random() < 0.6 else 0
        if self.model.price_cache_read > 0:
            cache_read = self.context
            inp = self.rng.randint(2, 40) if self.model.provider == "anthropic" else new_tokens
            cache_write = new_tokens if self.model.price_cache_write > 0 else 0
        else:
            cache_read, inp, cache_write = 0, self.context + new_tokens, 0
        self.context += new_tokens + output
        total = inp + output + reasoning + cache_read + cache_write
        return {
            "total": total,
            "input": inp,
            "output": output,
            "reasoning": reasoning,
            "cache": {"write": cache_write, "read": cache_read},
        }

    def finish_assistant(
        self,
        mid: str,
        tokens: dict,
        finish: str | None,
        *,
        patch_files: list[str] | None = None,
        error: dict | None = None,
    ) -> None:
        data = self.messages[mid][2]
        cost = self.model.cost(tokens) if tokens["total"] else 0
        if tokens["total"]:
            data["tokens"] = tokens
            data["cost"] = cost
        if finish:
            data["finish"] = finish
            self.add_part(
                mid,
                {"reason": finish, "snapshot": self.snapshot, "type": "step-finish", "tokens": tokens, "cost": cost},
            )
            self._touch_message(mid)
        if patch_files:
            old = self.snapshot
            self.snapshot = f"{self.rng.getrandbits(160):040x}"
            self.add_part(mid, {"type": "patch", "hash": old, "files": patch_files})
        self.tick(2, 40)
        data["time"]["completed"] = self.now
        if error:
            data["error"] = error
        self._touch_message(mid)
        st = self.s.tokens
        st["input"] += tokens["input"]
        st["output"] += tokens["output"]
        st["reasoning"] += tokens["reasoning"]
        st["cache"]["read"] += tokens["cache"]["read"]
        st["cache"]["write"] += tokens["cache"]["write"]
        self.s.cost = round(self.s.cost + cost, 6)

    # parts ---------------------------------------------------------------------------------------

    def _part_event(self, pid: str, data: dict) -> None:
        mid = self.parts[pid][0]
        self.emit(
            "message.part.updated.1",
            {
                "sessionID": self.s.id,
                "part": {"id": pid, "sessionID": self.s.id, "messageID": mid, **data},
                "time": self.now,
            },
        )

    def add_part(self, mid: str, data: dict, *, stream_start: dict | None = None) -> str:
        """A part written once (or twice: ``stream_start`` first, as text/reasoning do)."""
        pid = self.ids.part(self.now)
        self.parts[pid] = [mid, self.now, self.now, data]
        if stream_start is not None:
            self._part_event(pid, stream_start)
            self.now += max(1, len(data.get("text", "")) // 40 + self.rng.randint(0, 30))
            self.parts[pid][2] = self.now
            if "time" in data:
                data["time"]["end"] = self.now
        self._part_event(pid, data)
        return pid

    def stream_text(self, mid: str, kind: str, text: str, **extra: Any) -> str:
        start = self.now
        data = {"type": kind, "text": text, **extra, "time": {"start": start, "end": start}}
        return self.add_part(mid, data, stream_start={"type": kind, "text": "", **extra, "time": {"start": start}})

    def tool_part(
        self,
        mid: str,
        tool: str,
        call_id: str,
        inp: dict,
        *,
        output: str | None = None,
        metadata: dict | None = None,
        title: str = "",
        error: str | None = None,
        duration: int = 30,
        stream: str | None = None,
    ) -> str:
        """pending -> running -> (streamed bash metadata) -> completed|error, each an event."""
        pid = self.ids.part(self.now)
        base = {"type": "tool", "tool": tool, "callID": call_id}
        self.parts[pid] = [mid, self.now, self.now, None]
        self._part_event(pid, {**base, "state": {"status": "pending", "input": {}, "raw": ""}})
        self.tick(5, 400)
        start = self.now
        running = {"status": "running", "input": inp, "time": {"start": start}}
        self._part_event(pid, {**base, "state": running})
        if stream is not None:
            self._stream_bash(pid, base, inp, start, stream, duration)
        elif tool == "edit" and metadata:
            self.tick(2, 30)
            self._part_event(
                pid,
                {
                    **base,
                    "state": {**running, "metadata": {"diff": metadata["diff"], "filediff": metadata["filediff"]}},
                },
            )
        self.now = max(self.now, start + duration)
        if error is None:
            state = {
                "status": "completed",
                "input": inp,
                "output": output,
                "metadata": metadata or {},
                "title": title,
                "time": {"start": start, "end": self.now},
            }
        else:
            state = {"status": "error", "input": inp, "error": error, "time": {"start": start, "end": self.now}}
        data = {**base, "state": state}
        self.parts[pid][2] = self.now
        self.parts[pid][3] = data
        self._part_event(pid, data)
        self.tick(1, 20)
        return pid

    def _stream_bash(self, pid: str, base: dict, inp: dict, start: int, out: str, duration: int) -> None:
        # bash pushes ctx.metadata({output}) for every stdout chunk, and each one is a full part event:
        # this is what makes the real event table many times the part data. The output is escaped
        # once and cut at line ends, so the events are built by splicing instead of re-encoding.
        esc = dumps(out)[1:-1]
        cap = METADATA_OUTPUT_CAP
        updates = min(BASH_MAX_UPDATES, 1 + len(esc) // BASH_CHUNK)
        step = max(1, duration // (updates + 1))
        desc = inp.get("description", "")
        mid = self.parts[pid][0]
        head, tail = dumps(
            {
                "sessionID": self.s.id,
                "part": {
                    "id": pid,
                    "sessionID": self.s.id,
                    "messageID": mid,
                    **base,
                    "state": {
                        "status": "running",
                        "input": inp,
                        "metadata": {"output": "\x00", "description": desc},
                        "title": desc,
                        "time": {"start": start},
                    },
                },
            }
        ).split('"\\u0000"')
        tail = tail[:-1] + ',"time":'
        cuts = [0]
        for i in range(updates):
            want = len(esc) * (i + 1) // updates
            nl = esc.find("\\n", want)
            cuts.append(len(esc) if nl < 0 else nl + 2)
        for cut in dict.fromkeys(cuts):
            shown = esc[:cut]
            if cut > cap:
                nl = esc.rfind("\\n", 0, cap)
                shown = esc[: nl + 2 if nl > 0 else 0] + "\\n\\n..."
            self.now += step
            self.seq += 1
            self.events.append(
                (
                    self.ids.event(self.now),
                    self.s.id,
                    self.seq,
                    "message.part.updated.1",
                    f'{head}"{shown}"{tail}{self.now}}}',
                )
            )
            self.now += 1

    def set_todos(self, todos: list[dict]) -> None:
        self.todos = todos
        self.todo_time = self.now

    def record_diff(self, rel: str, hunk: str, additions: int, deletions: int, status: str) -> None:
        prev = self.diffs.get(rel)
        if prev:
            prev["hunk"] += hunk
            prev["additions"] += additions
            prev["deletions"] += deletions
        else:
            self.diffs[rel] = {"hunk": hunk, "additions": additions, "deletions": deletions, "status": status}
        a, d = self.session_diffs.get(rel, (0, 0))
        self.session_diffs[rel] = (a + additions, d + deletions)
        self.s.summary = {
            "additions": sum(x[0] for x in self.session_diffs.values()),
            "deletions": sum(x[1] for x in self.session_diffs.values()),
            "files": len(self.session_diffs),
        }

    # rows ----------------------------------------------------------------------------------------

    def message_rows(self) -> Iterator[tuple]:
        for mid, (tc, tu, data) in self.messages.items():
            yield (mid, self.s.id, tc, tu, dumps(data))

    def part_rows(self) -> Iterator[tuple]:
        for pid, (mid, tc, tu, data) in self.parts.items():
            yield (pid, mid, self.s.id, tc, tu, dumps(data))

    def todo_rows(self) -> list[tuple]:
        if not self.todos:
            return []
        return [
            (self.s.id, t["content"], t["status"], t["priority"], i, self.todo_time, self.todo_time)
            for i, t in enumerate(self.todos)
        ]


# --------------------------------------------------------------------------------------------------
# what a session is about, and the words people and models use for it
# --------------------------------------------------------------------------------------------------

FEATURES = (
    "pagination",
    "idempotency keys",
    "a dry-run flag",
    "soft deletes",
    "bulk export",
    "rate limiting",
    "a retry budget",
    "structured logging",
    "a health endpoint",
    "CSV import",
    "optimistic locking",
    "field-level validation",
    "a cache layer",
    "metrics",
    "webhooks",
)
KINDS = ("bugfix", "bugfix", "bugfix", "feature", "feature", "refactor", "perf", "explain")

EN_FOLLOWUPS = (
    "that fixed it, but now {test2} fails. can you look?",
    "can you also add a test for the {case} case?",
    "run the full test suite please, {noun2} too",
    "looks good. do the same for {noun2}",
    "don't change the public signature of {fn}, callers depend on it",
    "please revert the change to {file2}, that wasn't needed",
    "why did you choose {fn} instead of {fn2} there?",
    "commit this with a good message that mentions {fn}",
    "the CI log says `{error}` — same root cause?",
    "add a short note to the docs about {feature}",
    "now clean up the {noun} module a bit, there is dead code in {file2}",
    "hmm, {test2} is flaky on CI. make it deterministic",
    "is {Cls} thread-safe after this change?",
    "ok, also handle {case} in {fn2}",
)
ZH_FOLLOWUPS = (
    "好的，再跑一遍全部测试",
    "这个改动能不能也加到 {fn2} 里？",
    "不要改 {fn} 的公共接口，别的服务在调用",
    "帮我写一个提交信息",
    "{test2} 现在也失败了，帮我看看",
    "再补一个 {case} 场景的测试用例",
    "把 {file2} 里没用的代码删掉吧",
    "CI 上报了 `{error}`，是同一个原因吗？",
)
EN_PRE = {
    "read": (
        "Let me look at how `{fn}` handles this.",
        "Let me check `{test_file}` as well, especially `{test}`.",
        "I'll read `{file}` first.",
        "`{fn2}` is the next suspect; reading `{file2}`.",
    ),
    "grep": ("I'll start by finding where `{fn}` is called.", "Let me search for other uses of `{Cls}`."),
    "glob": ("Let me see which files belong to the {noun} module.",),
    "bash": (
        "Let me run `{test}` to see the failure.",
        "I'll verify the change to `{fn}` with the {noun} tests.",
        "Checking the git state of `{file2}` before going further.",
        "The logs should show whether `{fn2}` hits the {case} path; let me look.",
    ),
    "edit": ("Now I'll apply the fix in `{file}`.", "I'll make `{fn}` handle the {case} case."),
    "write": ("I'll add a dedicated test file for the {case} case.", "A new test file for `{fn2}` and {feature}."),
    "todowrite": ("Let me plan this out: `{fn}` first, then {noun2}.", "A plan for {feature} in {noun}."),
    "task": ("I'll ask a subagent to map the call sites while I keep going.",),
}
ZH_PRE = {
    "read": ("我先看一下 `{fn}` 的实现。", "再确认一下测试文件。"),
    "grep": ("搜索一下 `{Cls}` 还在哪里被用到。",),
    "glob": ("先看看 {noun} 模块有哪些文件。",),
    "bash": ("先跑一下测试，看看具体的报错。", "跑一下测试确认修改。"),
    "edit": ("现在在 `{file}` 里修改。",),
    "write": ("新建一个测试文件。",),
    "todowrite": ("先列一个计划。",),
    "task": ("让子代理去查一下调用点。",),
}
REASONING = (
    "The failure points at {fn} in {file}. The {noun} path probably skips the {case} branch, so "
    "{field} ends up unset. I should read the function and the test before changing anything.",
    "The user wants {feature} for {Cls}. The existing pattern lives in {file}; {fn2} already "
    "does something similar, so I can follow it and add a test next to {test}.",
    "Tests in {test_file} exercise {fn} with a fixture. If I change the signature, {fn2} callers "
    "break. Better to add a keyword argument with a default.",
    "Output is long; the relevant part is the traceback at the end, through {fn2}. The error mentions "
    "{field}. Let me grep for where {field} is assigned in {file2}.",
    "I need to verify that nothing else depends on the old behaviour of {fn}. A grep for {Cls} "
    "should show all call sites.",
)


@dataclass
class Topic:
    """What one session works on, plus the facts that make it findable."""

    content: ProjectContent
    module: Module
    others: list[Module]
    kind: str
    rare: str  # identifier that appears only in this session
    error: str | None  # error line that appears only in one tool output of this session
    chinese: bool
    cjk_phrase: str | None
    feature: str
    first_prompt: str = ""
    title: str = ""

    @property
    def lang(self) -> str:
        return self.content.lang

    def fmt(self, rng: random.Random, template: str) -> str:
        m = self.module
        m2 = rng.choice(self.others) if self.others else m
        return template.format(
            fn=rng.choice(m.functions),
            fn2=rng.choice(m.functions),
            Cls=rng.choice(m.classes),
            file=m.source,
            file2=rng.choice(self.content.module_files(m)),
            test=rng.choice(m.tests),
            test2=rng.choice(m.tests),
            test_file=m.test,
            noun=m.noun,
            noun2=m2.noun,
            case=rng.choice(CASES).replace("_", " "),
            field=rng.choice(FIELDS),
            feature=self.feature,
            error=rng.choice(m.errors),
        )


class Uniques:
    """Keeps rare identifiers, error lines and Chinese phrases unique across a store."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def take(self, make: Any, tries: int = 50) -> str:
        value = make()
        for _ in range(tries):
            if value.lstrip("_").lower() not in self.seen:
                break
            value = make()
        self.seen.add(value.lstrip("_").lower())
        return value


def _rare_identifier(lang: str, mod: Module, rng: random.Random, vocab: tuple[str, ...] = RARE_WORDS) -> str:
    words = [rng.choice(VERBS), rng.choice(vocab), mod.noun, rng.choice(vocab)]
    name = _ident(lang, words)
    if lang == "go":
        name = _camel(name)
    if lang == "python" and rng.random() < 0.3:
        name = "_" + name
    return name


def _unique_error(lang: str, mod: Module, rng: random.Random) -> str:
    h6 = f"{rng.getrandbits(24):06x}"
    h8 = f"{rng.getrandbits(32):08x}"
    a = rng.randint(1000, 99999) + rng.randint(0, 99) / 100
    b = round(a - rng.randint(1, 900) / 100, 2)
    f = rng.choice(FIELDS)
    k = rng.randrange(3)
    if lang == "python":
        return (
            f"ValueError: {mod.noun} batch {mod.noun[:3]}_{h6} totals diverge: expected {a:.2f}, got {b:.2f}",
            f"AssertionError: {f} of {mod.noun} {h8} is {rng.randint(-999, -1)} after {rng.choice(VERBS)}, "
            f"expected >= 0",
            f"RuntimeError: {mod.noun} worker {h6} stuck in state {rng.choice(('DRAINING', 'PENDING', 'LEASED'))} "
            f"for {rng.randint(31, 900)}s",
        )[k]
    if lang == "typescript":
        return (
            f"Error: {_camel(mod.noun)} {h6} rejected: {f} {rng.randint(101, 9999)} exceeds limit "
            f"{rng.randint(1, 100)} (code {mod.noun.upper()}_{rng.randint(100, 999)})",
            f"AssertionError: expected '{mod.noun}-{h6}' to equal '{mod.noun}-{h8[:6]}'",
            f"RangeError: {mod.noun} window {h8} overflowed at offset {rng.randint(10_000, 999_999)}",
        )[k]
    if lang == "go":
        return (
            f"{mod.noun}: shard {rng.randint(0, 255)} lease {h8} expired after {rng.randint(1001, 60000)}ms",
            f"{mod.noun}: got checksum {h8}, want {h6}ff after replay",
            f"{mod.noun}: flush {h6} dropped {rng.randint(2, 999)} of {rng.randint(1000, 9999)} items",
        )[k]
    return (
        f"checksum mismatch for {mod.noun} {h8}: left {rng.randint(1, 10**9)} right {rng.randint(1, 10**9)}",
        f"{mod.noun} {h6} exceeded budget: {rng.randint(2049, 99999)} bytes > 2048",
        f"invariant violated in {mod.noun}: generation {rng.randint(2, 9999)} < {h8}",
    )[k]


def make_topic(
    content: ProjectContent,
    rng: random.Random,
    uniques: Uniques,
    *,
    chinese: bool,
    child: bool = False,
    module: Module | None = None,
    rare_vocab: tuple[str, ...] = RARE_WORDS,
) -> Topic:
    spec = content.spec
    mod = module or rng.choice(spec.modules)
    same_sub = [m for m in spec.modules if m is not mod and m.subdir == mod.subdir]
    if len(same_sub) < 2:
        same_sub = [m for m in spec.modules if m is not mod]
    others = rng.sample(same_sub, 2)
    rare = uniques.take(lambda: _rare_identifier(spec.language, mod, rng, rare_vocab))
    error = None if child else uniques.take(lambda: _unique_error(spec.language, mod, rng))
    cjk = None
    if chinese:
        cjk = uniques.take(lambda: rng.choice(CJK_SCENES) + rng.choice(CJK_PROBLEMS) + rng.choice(CJK_EFFECTS))
    topic = Topic(content, mod, others, rng.choice(KINDS), rare, error, chinese, cjk, rng.choice(FEATURES))
    f = lambda t: topic.fmt(rng, t)  # noqa: E731
    if child:
        fn0 = mod.functions[0]
        topic.first_prompt = f(
            f"Search the codebase for every place that calls {fn0} or constructs "
            "{Cls}, read the relevant code in {file} and report which call sites "
            "would break if its signature changed. Be thorough; return file paths "
            "and line numbers."
        )
        topic.title = f"Find {fn0} call sites"
        return topic
    if chinese:
        topic.first_prompt = f(f"{cjk}。帮我看一下 {{file}} 里的 {{fn}}，找出原因并修复，{rng.choice(CJK_GOALS)}。")
        topic.title = f(rng.choice(("修复{noun}模块的问题", "排查{fn}的异常", "{noun}：" + cjk[:8])))
        return topic
    prompts = {
        "bugfix": (
            "{test} in {test_file} fails with `{error}`. It started after the last {noun} change. "
            "Find the cause and fix it.",
            "We're seeing `{error}` in production from the {noun} code path ({file}). "
            "Can you reproduce it with a test and fix it?",
        ),
        "feature": (
            "Add {feature} to {Cls} in {file}. Keep the existing behaviour as the default "
            "and add tests in {test_file}.",
            "I need {feature} for the {noun} module. Follow the pattern in {fn2} and wire it through {Cls}.",
        ),
        "refactor": (
            "Refactor {fn} in {file}: it's grown too big. Split it up, keep behaviour the "
            "same, and make sure {test_file} still passes.",
        ),
        "perf": (
            "{fn} is slow for large {noun} batches (about 200k rows take 40s). Profile it and "
            "speed it up without changing results.",
        ),
        "explain": (
            "Explain how the {noun} flow works end to end, starting from {file}, then add a "
            "small helper that makes {fn} easier to test.",
        ),
    }
    topic.first_prompt = f(rng.choice(prompts[topic.kind]))
    titles = {
        "bugfix": "Fix {noun} failure in {test}",
        "feature": "Add {feature} to {Cls}",
        "refactor": "Refactor {fn}",
        "perf": "Speed up {fn} for large batches",
        "explain": "Explain {noun} flow and add helper",
    }
    topic.title = f(titles[topic.kind])
    return topic


def _log_size(rng: random.Random) -> int:
    """Tool output size: a few KB typical, rarely 50-200 KB."""
    if rng.random() < BIG_OUTPUT_RATE:
        return rng.randint(50_000, 200_000)
    return int(min(40_000, rng.lognormvariate(7.1, 0.9)))  # median ~1.2 KB, mean ~2 KB


def _call_id(w: SessionWriter) -> str:
    r = w.rng
    if w.model.provider == "anthropic":
        return "toolu_01" + "".join(r.choices(BASE62, k=22))
    if w.model.provider == "openai":
        return "call_" + "".join(r.choices(BASE62, k=24))
    return f"call_{r.getrandbits(64):016x}"


# --------------------------------------------------------------------------------------------------
# playing a session: turns, steps, tool calls
# --------------------------------------------------------------------------------------------------


@dataclass
class ToolCall:
    """One tool call of a step: how to run it, and what it adds to the model's context."""

    tool: str
    run: Any  # callable(mid) -> tokens added to context
    changed: list[str] = field(default_factory=list)


class SessionPlayer:
    def __init__(self, w: SessionWriter, topic: Topic, *, spawn_child: Any = None) -> None:
        self.w = w
        self.t = topic
        self.c = topic.content
        self.rng = w.rng
        self.spawn_child = spawn_child  # callable(parent_player, description, prompt) -> (child_id, report)
        self.children: list[str] = []
        self.rare_used = False
        self.error_used = False
        self.agent = "general" if w.s.parent_id else "build"
        self.huge_bytes = 0
        self.pending_tokens = 0

    # tool calls ------------------------------------------------------------------------------------

    def read(self, rel: str | None = None, *, missing: bool = False) -> ToolCall:
        mod = self.t.module if rel is None or self.rng.random() < 0.7 else self.rng.choice(self.t.others)
        rel = rel or self.rng.choice([mod.source, mod.source, mod.test, *mod.extra])
        if missing:
            rel = rel.rsplit(".", 1)[0] + "_old." + rel.rsplit(".", 1)[-1]

        def run(mid: str) -> int:
            path = self.c.abspath(rel)
            if missing:
                self.w.tool_part(
                    mid,
                    "read",
                    _call_id(self.w),
                    {"filePath": path},
                    error=f"File not found: {path}",
                    duration=self.rng.randint(3, 30),
                )
                return 30
            lines = self.c.file_lines(rel, mod)
            inp: dict[str, Any] = {"filePath": path}
            offset, limit = 0, None
            if len(lines) > 120 and self.rng.random() < 0.3:
                offset = self.rng.randrange(0, len(lines) - 60)
                limit = self.rng.choice((40, 80, 120))
            for _ in range(8):  # read before, unchanged (this session or its subagent): an agent reads on
                if not self.c.seen(rel, offset, limit) or len(lines) <= 12:
                    break
                offset = self.rng.randrange(0, len(lines) - 10)
                limit = self.rng.choice((10, 20, 40, 80, 120))
            if limit is not None:
                inp.update({"offset": offset + 1, "limit": limit})
            out = self.c.read_output(rel, lines, offset, limit)
            end = len(lines) if limit is None else min(len(lines), offset + limit)
            shown = "\n".join(lines[offset:end])
            meta = {
                "preview": "\n".join(lines[offset : offset + 20]),
                "truncated": False,
                "loaded": [],
                "display": {
                    "type": "file",
                    "path": path,
                    "text": shown,
                    "lineStart": offset + 1,
                    "lineEnd": end,
                    "totalLines": len(lines),
                    "truncated": end < len(lines),
                },
            }
            self.w.tool_part(
                mid,
                "read",
                _call_id(self.w),
                inp,
                output=out,
                metadata=meta,
                title=rel,
                duration=self.rng.randint(4, 60),
            )
            return len(out) // 4

        return ToolCall("read", run)

    def grep(self, pattern: str | None = None) -> ToolCall:
        pattern = pattern or self.rng.choice((*self.t.module.functions, *self.t.module.classes))

        def run(mid: str) -> int:
            mods = [self.t.module, *self.rng.sample(self.t.others, self.rng.randint(0, len(self.t.others)))]
            out, n = self.c.grep_output(pattern, mods, self.rng)
            inp: dict[str, Any] = {"pattern": pattern, "path": self.c.spec.worktree}
            if self.rng.random() < 0.4:
                inp["include"] = f"*.{LANG_EXT[self.c.lang]}"
            self.w.tool_part(
                mid,
                "grep",
                _call_id(self.w),
                inp,
                output=out,
                metadata={"matches": n, "truncated": False},
                title=pattern,
                duration=self.rng.randint(20, 400),
            )
            return len(out) // 4

        return ToolCall("grep", run)

    def glob(self) -> ToolCall:
        def run(mid: str) -> int:
            ext = LANG_EXT[self.c.lang]
            pattern = self.rng.choice((f"**/*.{ext}", f"**/{self.t.module.noun}*", f"**/*test*.{ext}"))
            files = sorted(
                {
                    self.c.abspath(f)
                    for m in self.c.spec.modules
                    for f in self.c.module_files(m)
                    if self.rng.random() < 0.5
                }
            )
            out = "\n".join(files) if files else "No files found"
            self.w.tool_part(
                mid,
                "glob",
                _call_id(self.w),
                {"pattern": pattern, "path": self.c.spec.worktree},
                output=out,
                metadata={"count": len(files), "truncated": False},
                title="",
                duration=self.rng.randint(10, 200),
            )
            return len(out) // 4

        return ToolCall("glob", run)

    def bash(
        self, command: str, output: str, description: str, *, exit_code: int = 0, duration: int | None = None
    ) -> ToolCall:
        def run(mid: str) -> int:
            inp = {"command": command, "description": description}
            meta_out = output if len(output) <= METADATA_OUTPUT_CAP else output[:METADATA_OUTPUT_CAP] + "\n\n..."
            meta = {"output": meta_out, "exit": exit_code, "description": description, "truncated": False}
            dur = duration if duration is not None else self.rng.randint(150, 4000) + len(output) // 20
            self.w.tool_part(
                mid,
                "bash",
                _call_id(self.w),
                inp,
                output=output,
                metadata=meta,
                title=description,
                duration=dur,
                stream=output,
            )
            return len(output) // 4

        return ToolCall("bash", run)

    def run_tests(self, *, fail: str | None) -> ToolCall:
        mod = self.t.module
        cmd = self.c.test_command(mod, self.rng)
        out = self.c.test_log(mod, self.t.others, self.rng, failure=fail, target_bytes=_log_size(self.rng))
        return self.bash(cmd, out, f"Run {mod.noun} tests", exit_code=1 if fail else 0)

    def build(self) -> ToolCall:
        err = self.rng.choice(self.t.module.errors) if self.rng.random() < 0.3 else None
        cmd, out = self.c.build_log(self.t.module, self.rng, _log_size(self.rng) // 2, err)
        return self.bash(cmd, out, "Build and lint the project", exit_code=1 if err else 0)

    def git(self) -> ToolCall:
        cmd, out = self.c.git_output(self.t.module, self.rng, _log_size(self.rng) // 3)
        return self.bash(cmd, out, "Show git " + cmd.split()[1], duration=self.rng.randint(20, 300))

    def logs(self) -> ToolCall:
        cmd, out = self.c.service_log(self.t.module, self.rng, _log_size(self.rng), self.w.now)
        return self.bash(cmd, out, f"Show the {self.t.module.noun} logs", duration=self.rng.randint(50, 2000))

    def huge(self, target: int) -> ToolCall:
        tool, what, out = self.c.big_blob(self.rng, target)
        if tool == "read":
            out = self.c.read_output(what, out.split("\n"))
        self.huge_bytes = max(self.huge_bytes, len(out))
        if tool == "bash":
            return self.bash(what, out, "Inspect " + what.split()[-1], duration=self.rng.randint(200, 3000))

        def run(mid: str) -> int:
            path = self.c.abspath(what)
            self.w.tool_part(
                mid,
                "read",
                _call_id(self.w),
                {"filePath": path},
                output=out,
                metadata={"preview": out[:1000], "truncated": False, "loaded": []},
                title=what,
                duration=self.rng.randint(20, 200),
            )
            return min(len(out) // 4, 50_000)

        return ToolCall("read", run)

    def edit(self, *, inject_rare: bool = False, fail: bool = False) -> ToolCall:
        mod = self.t.module
        rel = mod.source if self.rng.random() < 0.7 else self.rng.choice((mod.test, *mod.extra))
        lines = self.c.file_lines(rel, mod)
        start = self.rng.randrange(max(1, len(lines) - 6))
        old = "\n".join(lines[start : start + self.rng.randint(1, 4)]) or lines[0]
        new_lines = [x.replace(self.rng.choice(FIELDS), self.rng.choice(FIELDS)) for x in old.split("\n")]
        if inject_rare:
            new_lines += self._rare_snippet(self.t.rare)
        elif self.rng.random() < 0.5:
            new_lines.append(self._comment(f"{self.rng.choice(CASES).replace('_', ' ')} is handled by the caller"))
        if new_lines == old.split("\n"):
            new_lines.append(self._comment(f"{self.rng.choice(VERBS)} {mod.noun} before returning"))
        new = "\n".join(new_lines)
        call = ToolCall("edit", None, [] if fail else [rel])

        def run(mid: str) -> int:
            path = self.c.abspath(rel)
            inp = {"filePath": path, "oldString": old, "newString": new}
            if fail:
                err = self.rng.choice(
                    (
                        "oldString not found in content",
                        "Found multiple matches for oldString. Provide more surrounding lines "
                        "in oldString to identify the correct match.",
                    )
                )
                self.w.tool_part(mid, "edit", _call_id(self.w), inp, error=err, duration=self.rng.randint(5, 40))
                return 40
            self.c.edited(rel)
            hunk_body = "".join(f"-{x}\n" for x in old.split("\n")) + "".join(f"+{x}\n" for x in new_lines)
            n_old, n_new = old.count("\n") + 1, len(new_lines)
            header = f"@@ -{start + 1},{n_old} +{start + 1},{n_new} @@\n"
            diff = f"Index: {path}\n{'=' * 67}\n--- {path}\n+++ {path}\n{header}{hunk_body}"
            meta = {
                "diagnostics": {},
                "diff": diff,
                "filediff": {"file": path, "patch": diff, "additions": n_new, "deletions": n_old},
                "truncated": False,
            }
            out = "Edit applied successfully."
            if self.rng.random() < 0.08:
                out += (
                    f'\n\nLSP errors detected in this file, please fix:\n<diagnostics file="{path}">\n'
                    f"ERROR [{start + 2}:{self.rng.randint(3, 30)}] {self.rng.choice(mod.errors)}\n</diagnostics>"
                )
            self.w.tool_part(
                mid,
                "edit",
                _call_id(self.w),
                inp,
                output=out,
                metadata=meta,
                title=rel,
                duration=self.rng.randint(8, 120),
            )
            self.w.record_diff(rel, header + hunk_body, n_new, n_old, "modified")
            return (len(old) + len(new)) // 4

        call.run = run
        return call

    def write(self) -> ToolCall:
        mod = self.t.module
        ext = LANG_EXT[self.c.lang]
        rel = mod.test.rsplit("/", 1)[0] + f"/{mod.noun}_{self.rng.choice(CASES)}_test.{ext}"
        body = self.c._fill(self.rng.choice(_BLOCKS[self.c.lang]), mod, self.rng)
        call = ToolCall("write", None, [rel])

        def run(mid: str) -> int:
            path = self.c.abspath(rel)
            self.w.tool_part(
                mid,
                "write",
                _call_id(self.w),
                {"filePath": path, "content": body},
                output="Wrote file successfully.",
                metadata={"diagnostics": {}, "filepath": path, "exists": False, "truncated": False},
                title=rel,
                duration=self.rng.randint(5, 60),
            )
            hunk = f"@@ -0,0 +1,{body.count(chr(10)) + 1} @@\n" + "".join(f"+{x}\n" for x in body.split("\n"))
            self.w.record_diff(rel, hunk, body.count("\n") + 1, 0, "added")
            return len(body) // 4

        call.run = run
        return call

    def todowrite(self, progress: int) -> ToolCall:
        def run(mid: str) -> int:
            items = [
                f"Reproduce the {self.t.module.noun} failure",
                f"Fix {self.t.module.functions[0]}",
                f"Add a test for {self.rng.choice(CASES).replace('_', ' ')}",
                "Run the full test suite",
            ]
            todos = [
                {
                    "content": c,
                    "status": "completed" if i < progress else ("in_progress" if i == progress else "pending"),
                    "priority": ("high", "high", "medium", "low")[i],
                }
                for i, c in enumerate(items)
            ]
            out = json.dumps(todos, indent=2, ensure_ascii=False)
            open_n = sum(1 for t in todos if t["status"] != "completed")
            self.w.tool_part(
                mid,
                "todowrite",
                _call_id(self.w),
                {"todos": todos},
                output=out,
                metadata={"todos": todos, "truncated": False},
                title=f"{open_n} todos",
                duration=self.rng.randint(3, 20),
            )
            self.w.set_todos(todos)
            return len(out) // 4

        return ToolCall("todowrite", run)

    def task(self) -> ToolCall:
        desc = f"Find {self.t.module.functions[0]} call sites"

        def run(mid: str) -> int:
            w = self.w
            pid = w.ids.part(w.now)
            call_id = _call_id(w)
            base = {"type": "tool", "tool": "task", "callID": call_id}
            w.parts[pid] = [mid, w.now, w.now, None]
            w._part_event(pid, {**base, "state": {"status": "pending", "input": {}, "raw": ""}})
            w.tick(5, 200)
            start = w.now
            child_id, prompt, report, end = self.spawn_child(self, desc, start)
            inp = {"description": desc, "prompt": prompt, "subagent_type": "general"}
            w._part_event(pid, {**base, "state": {"status": "running", "input": inp, "time": {"start": start}}})
            w.now = max(w.now, end + 5)
            out = f'<task id="{child_id}" state="completed">\n<task_result>\n{report}\n</task_result>\n</task>'
            meta = {
                "parentSessionId": w.s.id,
                "sessionId": child_id,
                "model": {"modelID": w.model.model, "providerID": w.model.provider},
                "truncated": False,
            }
            data = {
                **base,
                "state": {
                    "status": "completed",
                    "input": inp,
                    "output": out,
                    "metadata": meta,
                    "title": desc,
                    "time": {"start": start, "end": w.now},
                },
            }
            w.parts[pid][2] = w.now
            w.parts[pid][3] = data
            w._part_event(pid, data)
            self.children.append(child_id)
            return len(out) // 4

        return ToolCall("task", run)

    # texts --------------------------------------------------------------------------------------------

    def _comment(self, text: str) -> str:
        return ("# " if self.c.lang == "python" else "// ") + text

    def _rare_snippet(self, name: str) -> list[str]:
        f = self.rng.choice(FIELDS)
        if self.c.lang == "python":
            return [
                "",
                f"def {name}(items, *, limit=None):",
                f'    """Drop {self.t.module.noun} entries whose {f} is stale."""',
                f"    return [x for x in items if x.get('{f}') is not None][:limit]",
            ]
        if self.c.lang == "typescript":
            return [
                "",
                f"export function {name}(items: unknown[], limit?: number) {{",
                f"  return items.filter((x: any) => x?.{_ident('typescript', f.split('_'))} != null).slice(0, limit);",
                "}",
            ]
        if self.c.lang == "go":
            return [
                "",
                f"func {name}(items []*{self.t.module.classes[1]}) []*{self.t.module.classes[1]} {{",
                "\tout := items[:0]",
                "\tfor _, it := range items {",
                "\t\tif it != nil {",
                "\t\t\tout = append(out, it)",
                "\t\t}",
                "\t}",
                "\treturn out",
                "}",
            ]
        return [
            "",
            f"pub fn {name}(items: &mut Vec<{self.t.module.classes[1]}>) {{",
            f"    items.retain(|x| x.{f}.is_some());",
            "}",
        ]

    def pre_text(self, tool: str = "read") -> str:
        table = ZH_PRE if self.t.chinese else EN_PRE
        return self.t.fmt(self.rng, self.rng.choice(table.get(tool, table["read"])))

    def final_text(self, changed: list[str], summary_of: str) -> str:
        r = self.rng
        m = self.t.module
        files = ", ".join(f"`{x}`" for x in dict.fromkeys(changed)) or "no files"
        rare = f" I added `{self.t.rare}` for this." if self.rare_used and not self.t.chinese else ""
        if self.t.chinese:
            rare = f" 新增了 `{self.t.rare}` 来处理这个情况。" if self.rare_used else ""
            return (
                f"已经处理好了。问题出在 `{r.choice(m.functions)}`："
                f"{r.choice(CJK_SCENES)}{r.choice(CJK_PROBLEMS)}，"
                f"原因是没有处理 {r.choice(CASES)} 的情况。修改了 {files}。{rare}\n\n"
                f"- 修复了 `{r.choice(m.classes)}` 的边界条件\n- 补充了 `{r.choice(m.tests)}` 测试\n"
                f"- 全部测试已通过"
            )
        bullets = "\n".join(
            f"- {self.t.fmt(r, x)}"
            for x in r.sample(
                (
                    "`{fn}` now checks `{field}` before using it",
                    "added a regression test `{test}`",
                    "`{Cls}` no longer swallows the {case} error",
                    "kept the public signature of `{fn2}` unchanged",
                    "the {noun} cache is invalidated after a write",
                    "moved the retry loop out of `{fn}`",
                ),
                3,
            )
        )
        closing = r.choice(
            ("All tests pass now.", "The suite is green locally.", "Let me know if you want me to commit.")
        )
        return f"{summary_of}\n\nChanged {files}.{rare}\n\n{bullets}\n\n{closing}"

    # steps and turns ----------------------------------------------------------------------------------

    def step(
        self, user_mid: str, calls: list[ToolCall], *, reasoning: bool | None = None, pre_text: bool = False
    ) -> list[str]:
        w, r = self.w, self.rng
        mid = w.assistant_message(user_mid, self.agent)
        w.tick(700, 7000)
        w.add_part(mid, {"snapshot": w.snapshot, "type": "step-start"})
        if reasoning if reasoning is not None else r.random() < 0.35:
            w.stream_text(mid, "reasoning", self.t.fmt(r, r.choice(REASONING)))
        if pre_text:
            w.stream_text(mid, "text", self.pre_text(calls[0].tool if calls else "read"))
        changed: list[str] = []
        added = 0
        for call in calls:
            added += call.run(mid)
            changed += call.changed
        tokens = w.step_tokens(self.pending_tokens + r.randint(20, 200), r.randint(40, 700))
        self.pending_tokens = added
        w.finish_assistant(
            mid, tokens, "tool-calls", patch_files=[self.c.abspath(x) for x in dict.fromkeys(changed)] or None
        )
        return changed

    def answer(self, user_mid: str, text: str) -> None:
        w, r = self.w, self.rng
        mid = w.assistant_message(user_mid, self.agent)
        w.tick(700, 6000)
        w.add_part(mid, {"snapshot": w.snapshot, "type": "step-start"})
        if r.random() < 0.2:
            w.stream_text(mid, "reasoning", self.t.fmt(r, r.choice(REASONING)))
        w.stream_text(mid, "text", text)
        tokens = w.step_tokens(self.pending_tokens + 30, len(text) // 3 + r.randint(5, 60))
        self.pending_tokens = 0
        w.finish_assistant(mid, tokens, "stop")

    def user_turn(self, text: str, *, attach: bool = False) -> str:
        w = self.w
        mid = w.user_message(self.agent)
        w.add_part(mid, {"type": "text", "text": text})
        if attach:
            rel = self.t.module.source
            path = self.c.abspath(rel)
            lines = self.c.file_lines(rel, self.t.module)
            w.add_part(
                mid,
                {
                    "type": "text",
                    "synthetic": True,
                    "text": "Called the Read tool with the following input: " + dumps({"filePath": path}),
                },
            )
            w.add_part(mid, {"type": "text", "synthetic": True, "text": self.c.read_output(rel, lines)})
            w.add_part(
                mid, {"type": "file", "mime": "text/plain", "filename": rel.rsplit("/", 1)[-1], "url": f"file://{path}"}
            )
            self.pending_tokens += sum(len(x) for x in lines) // 4
        w.session_updated()
        w.tick(10, 200)
        return mid

    def end_turn(self, user_mid: str) -> None:
        self.w.finish_user(user_mid)
        self.w.session_updated()

    # session scripts ----------------------------------------------------------------------------------

    def random_call(self) -> ToolCall:
        r = self.rng.random()
        if r < 0.28:
            return self.read()
        if r < 0.38:
            return self.grep()
        if r < 0.42:
            return self.glob()
        if r < 0.60:
            return self.edit()
        if r < 0.64:
            return self.edit(fail=True)
        if r < 0.66:
            return self.read(missing=True)
        if r < 0.80:
            fail = self.rng.choice(self.t.module.errors) if self.rng.random() < 0.35 else None
            return self.run_tests(fail=fail)
        if r < 0.85:
            return self.build()
        if r < 0.90:
            return self.git()
        if r < 0.95:
            return self.logs()
        return self.write()

    def random_step_calls(self) -> list[ToolCall]:
        if self.rng.random() < 0.2:
            return [self.rng.choice((self.read, self.grep, self.glob))() for _ in range(self.rng.randint(2, 3))]
        return [self.random_call()]

    def title_after_first_step(self) -> None:
        w = self.w
        w.s.title = self.t.title
        w.session_updated(bump=False)
        w.s.summary = w.s.summary or {"additions": 0, "deletions": 0, "files": 0}
        w.session_updated()

    def first_turn(self, *, huge: int, n_children: int) -> None:
        r = self.rng
        u = self.user_turn(self.t.first_prompt, attach=r.random() < 0.06)
        todo = r.random() < 0.25
        first = [self.todowrite(0)] if todo else ([self.grep(), self.glob()] if r.random() < 0.4 else [self.read()])
        self.step(u, first, reasoning=r.random() < 0.6, pre_text=r.random() < 0.3)
        self.title_after_first_step()
        for _ in range(r.randint(0, 2)):
            self.step(u, self.random_step_calls())
        self.step(u, [self.run_tests(fail=self.t.error)], pre_text=r.random() < 0.3)
        self.error_used = True
        self.step(u, [self.read(self.t.module.source)], reasoning=r.random() < 0.5)
        changed = self.step(u, [self.edit(inject_rare=True)], pre_text=r.random() < 0.4)
        self.rare_used = True
        for _ in range(min(25, int(r.expovariate(1 / 2.5)))):
            changed += self.step(u, self.random_step_calls(), pre_text=r.random() < 0.15)
        if huge:
            self.step(u, [self.huge(huge)])
        for _ in range(n_children):
            self.step(u, [self.task()], reasoning=True)
        self.step(u, [self.run_tests(fail=None)])
        if todo:
            self.step(u, [self.todowrite(4)])
        self.answer(u, self.final_text(changed, self._summary_line()))
        self.end_turn(u)

    def _summary_line(self) -> str:
        m = self.t.module
        return self.t.fmt(
            self.rng,
            self.rng.choice(
                (
                    "Found it: `{fn}` dropped the {case} branch when `{field}` was missing.",
                    "The root cause was in `{Cls}`: the {noun} cache was read before the write committed.",
                    "Done. `{fn}` now handles the {case} case and the {noun} tests cover it.",
                    f"The {m.noun} change is in place and `{{test}}` covers it.",
                )
            ),
        ).strip()

    def follow_turn(self, text: str | None = None, steps: int | None = None) -> str:
        r = self.rng
        if text is None:
            text = self.t.fmt(r, r.choice(ZH_FOLLOWUPS if self.t.chinese else EN_FOLLOWUPS))
        u = self.user_turn(text, attach=r.random() < 0.04)
        changed: list[str] = []
        for _ in range(min(20, int(r.expovariate(1 / 2.2))) if steps is None else steps):
            changed += self.step(u, self.random_step_calls(), pre_text=r.random() < 0.2)
        self.answer(u, self.final_text(changed, self._summary_line()))
        self.end_turn(u)
        return u

    def failed_turn(self, aborted: bool) -> None:
        w, r = self.w, self.rng
        u = self.user_turn(self.t.fmt(r, r.choice(EN_FOLLOWUPS)))
        mid = w.assistant_message(u, self.agent)
        w.tick(300, 5000)
        zero = {"total": 0, "input": 0, "output": 0, "reasoning": 0, "cache": {"write": 0, "read": 0}}
        if aborted:
            w.add_part(mid, {"snapshot": w.snapshot, "type": "step-start"})
            text = self.pre_text(self.rng.choice(("read", "bash", "edit")))
            start = w.now
            partial = text[: max(5, len(text) // 2)]
            w.add_part(
                mid,
                {"type": "text", "text": partial, "time": {"start": start, "end": 0}},
                stream_start={"type": "text", "text": "", "time": {"start": start}},
            )
            w.finish_assistant(mid, zero, None, error={"name": "MessageAbortedError", "data": {"message": "Aborted"}})
        else:
            status, msg = r.choice(
                (
                    (429, "Rate limit exceeded. Please retry after 20 seconds."),
                    (529, "Overloaded"),
                    (500, "Internal server error"),
                    (400, "prompt is too long: 212419 tokens > 200000 maximum"),
                )
            )
            err = {
                "name": "APIError",
                "data": {
                    "message": msg,
                    "statusCode": status,
                    "isRetryable": status != 400,
                    "responseBody": dumps({"type": "error", "error": {"type": "api_error", "message": msg}}),
                    "metadata": {
                        "url": {
                            "anthropic": "https://api.anthropic.com/v1/messages",
                            "openai": "https://api.openai.com/v1/responses",
                        }.get(w.model.provider, "https://openrouter.ai/api/v1/chat/completions")
                    },
                },
            }
            w.finish_assistant(mid, zero, None, error=err)
        self.end_turn(u)

    def shell_turn(self) -> None:
        w, r = self.w, self.rng
        mid_u = w.user_message(self.agent)
        w.add_part(mid_u, {"type": "text", "text": "The following tool was executed by the user", "synthetic": True})
        mid = w.assistant_message(mid_u, self.agent, bump=False)  # /shell does not bump time_updated
        cmd, out = self.c.git_output(self.t.module, r, 400)
        start = w.tick(2, 10)
        w.tick(20, 800)
        w.add_part(
            mid,
            {
                "type": "tool",
                "tool": "bash",
                "callID": w.ids.ulid(start),
                "state": {
                    "status": "completed",
                    "time": {"start": start, "end": w.now},
                    "input": {"command": cmd},
                    "title": "",
                    "metadata": {"output": out},
                    "output": out,
                },
            },
        )
        zero = {"total": 0, "input": 0, "output": 0, "reasoning": 0, "cache": {"write": 0, "read": 0}}
        w.finish_assistant(mid, zero, None)

    def compaction(self, auto: bool) -> None:
        w = self.w
        u = w.user_message(self.agent)
        w.add_part(
            u,
            {"type": "compaction", "auto": True, "overflow": False} if auto else {"type": "compaction", "auto": False},
        )
        w.session_updated()
        mid = w.assistant_message(u, "compaction", summary=True)
        w.tick(2000, 20000)
        w.add_part(mid, {"snapshot": w.snapshot, "type": "step-start"})
        m = self.t.module
        summary = (
            f"## Goal\n{self.t.first_prompt}\n\n## Progress\n- Reproduced the failure in `{m.test}`\n"
            f"- Changed `{m.source}`; helper `{self.t.rare}` added\n- Tests: {', '.join(m.tests[:3])}\n\n"
            f"## Next\nContinue with the follow-ups on the {m.noun} module."
        )
        w.stream_text(mid, "text", summary)
        tokens = w.step_tokens(0, len(summary) // 3)
        w.finish_assistant(mid, tokens, "stop")
        w.finish_user(u)
        w.context = 11_000 + len(summary) // 4
        if auto:
            u2 = w.user_message(self.agent)
            t = w.now
            w.add_part(
                u2,
                {
                    "type": "text",
                    "metadata": {"compaction_continue": True},
                    "synthetic": True,
                    "text": "Continue if you have next steps, or stop and ask for clarification if "
                    "you are unsure how to proceed.",
                    "time": {"start": t, "end": t},
                },
            )
            self.answer(u2, self._summary_line())
            self.end_turn(u2)


def play_child(w: SessionWriter, topic: Topic) -> str:
    """A subagent session: explore with read/grep/glob/bash, then report back."""
    p = SessionPlayer(w, topic)
    r = w.rng
    w.create()
    w.s.agent = "general"
    w.s.model = {"id": w.model.model, "providerID": w.model.provider, "variant": "default"}
    w.session_updated()
    u = p.user_turn(topic.first_prompt)
    w.s.summary = {"additions": 0, "deletions": 0, "files": 0}
    p.step(u, [p.grep(topic.rare), p.grep()], reasoning=True)
    p.rare_used = True
    for _ in range(r.randint(1, 5)):
        p.step(u, [r.choice((p.read, p.grep, p.glob))() for _ in range(r.randint(1, 3))])
    m = topic.module
    sites = "\n".join(
        f"- `{p.c.abspath(x.source)}:{r.randint(10, 400)}` — `{r.choice(x.functions)}` calls `{m.functions[0]}`"
        for x in [m, *topic.others]
    )
    report = (
        f"Found {len(topic.others) + 1} call sites of `{m.functions[0]}`:\n{sites}\n\n"
        f"Changing the signature would break {r.randint(1, 3)} of them; `{m.classes[0]}` wraps the rest."
    )
    p.answer(u, report)
    p.end_turn(u)
    return report


# --------------------------------------------------------------------------------------------------
# the store: generation, manifest
# --------------------------------------------------------------------------------------------------


@dataclass
class SessionFacts:
    """Manifest entry of one session: where it lives and what only it contains."""

    id: str
    project_id: str
    directory: str
    path: str
    parent_id: str | None
    title: str
    module: str
    kind: str
    files: list[str]
    first_prompt: str
    rare_identifier: str  # appears in this session only (tool input + assistant/reasoning text)
    error_message: str | None  # appears in exactly one tool output (a failing test run) of this session
    cjk_phrase: str | None  # Chinese clause of the first user message, unique in the store
    archived: bool
    time_created: int
    time_updated: int
    messages: int = 0
    parts: int = 0
    events: int = 0
    children: list[str] = field(default_factory=list)
    huge_part_bytes: int = 0
    compacted: bool = False


@dataclass
class ProjectFacts:
    id: str
    name: str
    language: str
    worktree: str
    directories: list[str]
    modules: list[str]


@dataclass
class GeneratedStore:
    path: str
    seed: int
    end_time_ms: int
    projects: list[ProjectFacts]
    sessions: dict[str, SessionFacts]
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def by_project(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for f in self.sessions.values():
            out.setdefault(f.project_id, []).append(f.id)
        return out

    def by_directory(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for f in self.sessions.values():
            out.setdefault(f.directory, []).append(f.id)
        return out

    def to_json(self) -> dict:
        return {
            "path": os.path.basename(self.path),
            "seed": self.seed,
            "version": VERSION,
            "end_time_ms": self.end_time_ms,
            "counts": self.counts,
            "seconds": round(self.seconds, 2),
            "projects": [asdict(p) for p in self.projects],
            "by_project": self.by_project(),
            "by_directory": self.by_directory(),
            "sessions": {k: asdict(v) for k, v in self.sessions.items()},
        }

    @classmethod
    def load(cls, manifest: str | os.PathLike[str]) -> GeneratedStore:
        d = json.loads(Path(manifest).read_text(encoding="utf-8"))
        db = str(Path(manifest).with_name(d["path"]))
        return cls(
            db,
            d["seed"],
            d["end_time_ms"],
            [ProjectFacts(**p) for p in d["projects"]],
            {k: SessionFacts(**v) for k, v in d["sessions"].items()},
            d["counts"],
            d["seconds"],
        )


class _Sink:
    """Batches rows and writes them with executemany inside the caller's transaction."""

    def __init__(self, db: sqlite3.Connection, *, upsert: bool = False) -> None:
        self.db = db
        self.upsert = upsert
        self.sessions: list[tuple] = []
        self.messages: list[tuple] = []
        self.parts: list[tuple] = []
        self.events: list[tuple] = []
        self.seqs: list[tuple] = []
        self.todos: list[tuple] = []
        self.todo_sessions: list[str] = []
        self.counts = {
            "sessions": 0,
            "messages": 0,
            "parts": 0,
            "events": 0,
            "todos": 0,
            "part_chars": 0,
            "event_chars": 0,
            "message_chars": 0,
        }

    def add(self, w: SessionWriter) -> None:
        self.sessions.append(w.s.row())
        msgs = list(w.message_rows())
        parts = list(w.part_rows())
        self.messages += msgs
        self.parts += parts
        self.events += w.events
        self.seqs.append((w.s.id, w.seq, None))
        if w.todos is not None:
            self.todo_sessions.append(w.s.id)
            self.todos += w.todo_rows()
        c = self.counts
        c["sessions"] += 1
        c["messages"] += len(msgs)
        c["parts"] += len(parts)
        c["events"] += len(w.events)
        c["message_chars"] += sum(len(m[4]) for m in msgs)
        c["part_chars"] += sum(len(p[5]) for p in parts)
        c["event_chars"] += sum(len(e[4]) for e in w.events)
        if len(self.events) > 40_000:
            self.flush()

    def flush(self) -> None:
        db = self.db
        cols = ",".join(SESSION_COLUMNS)
        marks = ",".join("?" * len(SESSION_COLUMNS))
        if self.upsert:
            sets = ",".join(f"{c}=excluded.{c}" for c in SESSION_COLUMNS[1:])
            db.executemany(
                f"INSERT INTO session ({cols}) VALUES ({marks}) ON CONFLICT(id) DO UPDATE SET {sets}", self.sessions
            )
            db.executemany(
                "INSERT INTO message VALUES (?,?,?,?,?) ON CONFLICT(id) DO UPDATE SET "
                "time_updated=excluded.time_updated, data=excluded.data",
                self.messages,
            )
            db.executemany(
                "INSERT INTO part VALUES (?,?,?,?,?,?) ON CONFLICT(id) DO UPDATE SET "
                "time_updated=excluded.time_updated, data=excluded.data",
                self.parts,
            )
            db.executemany(
                "INSERT INTO event_sequence VALUES (?,?,?) ON CONFLICT(aggregate_id) DO UPDATE SET seq=excluded.seq",
                self.seqs,
            )
            db.executemany("DELETE FROM todo WHERE session_id=?", [(s,) for s in self.todo_sessions])
        else:
            db.executemany(f"INSERT INTO session ({cols}) VALUES ({marks})", self.sessions)
            db.executemany("INSERT INTO message VALUES (?,?,?,?,?)", self.messages)
            db.executemany("INSERT INTO part VALUES (?,?,?,?,?,?)", self.parts)
            db.executemany("INSERT INTO event_sequence VALUES (?,?,?)", self.seqs)
        db.executemany("INSERT INTO event VALUES (?,?,?,?,?)", self.events)
        db.executemany("INSERT INTO todo VALUES (?,?,?,?,?,?,?)", self.todos)
        self.counts["todos"] += len(self.todos)
        for lst in (self.sessions, self.messages, self.parts, self.events, self.seqs, self.todos, self.todo_sessions):
            lst.clear()


def _session_start_times(rng: random.Random, n: int, end_ms: int, months: int) -> list[int]:
    """Work-hours-biased start times over ``months`` months before ``end_ms``."""
    span_days = max(1, months * 30)
    out = []
    for _ in range(n):
        day = rng.randrange(span_days)
        base = end_ms - (span_days - day) * DAY_MS
        weekday = datetime.fromtimestamp(base / 1000, UTC).weekday()
        if weekday >= 5 and rng.random() < 0.6:
            base -= rng.randint(1, 2) * DAY_MS
        hour = min(23.9, max(0.0, rng.gauss(14, 3.5)))
        out.append(int(base + hour * 3_600_000 + rng.randrange(3_600_000)))
    return sorted(out)


def _slug(rng: random.Random) -> str:
    return f"{rng.choice(SLUG_ADJ)}-{rng.choice(SLUG_NOUN)}"


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def _pick_model(rng: random.Random, project_index: int) -> ModelChoice:
    preferred = MODELS[project_index % 3]
    return ModelChoice(*(preferred if rng.random() < 0.75 else rng.choice(MODELS)))


class _StoreBuilder:
    def __init__(self, seed: int, n_projects: int, months: int, end_ms: int) -> None:
        self.seed = seed
        self.months = months
        self.end_ms = end_ms
        rng = random.Random(derive_seed(seed, "projects"))
        self.specs = [build_project(i, rng) for i in range(max(1, n_projects))]
        self.contents = [ProjectContent(s) for s in self.specs]
        self.uniques = Uniques()
        self.facts: dict[str, SessionFacts] = {}
        self.project_last: dict[str, int] = {}
        self.project_first: dict[str, int] = {}
        self.global_dirs: set[str] = set()
        weights = [1 / (i + 1) ** 0.8 for i in range(len(self.specs))]
        self.weights = weights

    def build_session(self, index: int, start: int, n_children: int, sink: _Sink, *, huge: bool = False) -> None:
        rng = random.Random(derive_seed(self.seed, "session", index))
        ids = IdFactory(random.Random(derive_seed(self.seed, "ids", index)))  # content rng independent of ids
        pi = rng.choices(range(len(self.specs)), weights=self.weights)[0]
        content = self.contents[pi]
        content.set_revision(index + 1)  # the worktree moved on since the last session
        spec = content.spec
        project_id, root = spec.id, spec.worktree
        chinese = rng.random() < CJK_RATE
        if rng.random() < GLOBAL_RATE:
            scratch = f"/home/dev/scratch/{spec.name}-{rng.choice(('repro', 'spike', 'notes'))}"
            content = ProjectContent(
                ProjectSpec(spec.id, spec.name, spec.language, scratch, (), spec.modules, spec.package)
            )
            content.set_revision(index + 1)
            project_id, root, directory, path = "global", "/", scratch, scratch.lstrip("/")
            self.global_dirs.add(scratch)
        topic = make_topic(content, rng, self.uniques, chinese=chinese)
        if project_id != "global":
            directory, path = root, ""
            if topic.module.subdir and rng.random() < SUBDIR_RATE:
                directory, path = f"{root}/{topic.module.subdir}", topic.module.subdir
        model = _pick_model(rng, pi)
        row = SessionRow(
            ids.session(start),
            project_id,
            None,
            _slug(rng),
            directory,
            path,
            f"New session - {_iso(start)}",
            start,
            start,
        )
        w = SessionWriter(row, ids, rng, model, root)
        children: list[tuple[SessionWriter, Topic]] = []

        def spawn_child(parent: SessionPlayer, desc: str, at: int) -> tuple[str, str, str, int]:
            crng = random.Random(derive_seed(self.seed, "child", index, len(children)))
            cids = IdFactory(random.Random(derive_seed(self.seed, "child-ids", index, len(children))))
            ctopic = make_topic(content, crng, self.uniques, chinese=False, child=True, module=topic.module)
            t0 = at + crng.randint(5, 40)
            crow = SessionRow(
                cids.session(t0),
                project_id,
                row.id,
                _slug(crng),
                directory,
                path,
                f"{desc} (@general subagent)",
                t0,
                t0,
                permission=[{"permission": "task", "pattern": "*", "action": "deny"}],
            )
            cw = SessionWriter(crow, cids, crng, model, root)
            report = play_child(cw, ctopic)
            children.append((cw, ctopic))
            return crow.id, ctopic.first_prompt, report, cw.now

        player = SessionPlayer(w, topic, spawn_child=spawn_child)
        w.create()
        w.s.agent = "build"
        w.s.model = {"id": model.model, "providerID": model.provider, "variant": "default"}
        w.session_updated()
        player.first_turn(huge=rng.randint(1_000_000, 2_000_000) if huge else 0, n_children=n_children)
        n_turns = 1 + min(24, int(rng.expovariate(1 / 2.6)))
        compact_at = rng.randrange(2, n_turns) if n_turns >= 4 and rng.random() < 0.3 else -1
        compacted = False
        for turn in range(1, n_turns):
            gap = rng.lognormvariate(4.4, 1.3) * 1000
            if rng.random() < 0.07:
                gap += rng.randint(1, 6) * DAY_MS
            w.now += int(min(gap, 8 * DAY_MS))
            if turn == compact_at:
                player.compaction(auto=rng.random() < 0.4)
                compacted = True
            roll = rng.random()
            if roll < 0.02:
                player.failed_turn(aborted=False)
            elif roll < 0.04:
                player.failed_turn(aborted=True)
            elif roll < 0.06:
                player.shell_turn()
            else:
                player.follow_turn()
        if rng.random() < ARCHIVED_RATE:
            w.now += rng.randint(3_600_000, 20 * DAY_MS)
            w.s.time_archived = w.now
            w.session_updated(bump=False)
        sink.add(w)
        files = list(dict.fromkeys(content.module_files(topic.module)))
        self.facts[row.id] = SessionFacts(
            row.id,
            project_id,
            directory,
            path,
            None,
            row.title,
            topic.module.noun,
            topic.kind,
            files,
            topic.first_prompt,
            topic.rare,
            topic.error,
            topic.cjk_phrase,
            row.time_archived is not None,
            row.time_created,
            row.time_updated,
            len(w.messages),
            len(w.parts),
            len(w.events),
            [cw.s.id for cw, _ in children],
            player.huge_bytes,
            compacted,
        )
        for cw, ct in children:
            sink.add(cw)
            self.facts[cw.s.id] = SessionFacts(
                cw.s.id,
                project_id,
                directory,
                path,
                row.id,
                cw.s.title,
                ct.module.noun,
                "subagent",
                files,
                ct.first_prompt,
                ct.rare,
                None,
                None,
                False,
                cw.s.time_created,
                cw.s.time_updated,
                len(cw.messages),
                len(cw.parts),
                len(cw.events),
            )
        last = max([w.s.time_updated] + [cw.s.time_updated for cw, _ in children])
        self.project_last[project_id] = max(self.project_last.get(project_id, 0), last)
        self.project_first.setdefault(project_id, start)

    def project_rows(self) -> tuple[list[tuple], list[tuple]]:
        projects, dirs = [], []
        for spec in self.specs:
            first = self.project_first.get(spec.id)
            if first is None:
                continue
            created = first - 5_000
            projects.append(
                (
                    spec.id,
                    spec.worktree,
                    "git",
                    None,
                    None,
                    None,
                    None,
                    created,
                    self.project_last[spec.id],
                    None,
                    "[]",
                    None,
                )
            )
            dirs.append((spec.id, spec.worktree, None, None, created + 10))
        if "global" in self.project_first:
            projects.append(
                (
                    "global",
                    "/",
                    None,
                    None,
                    None,
                    None,
                    None,
                    self.project_first["global"] - 5_000,
                    self.project_last["global"],
                    None,
                    "[]",
                    None,
                )
            )
        return projects, dirs

    def project_facts(self) -> list[ProjectFacts]:
        out = [
            ProjectFacts(s.id, s.name, s.language, s.worktree, s.directories, [m.noun for m in s.modules])
            for s in self.specs
            if s.id in self.project_first
        ]
        if "global" in self.project_first:
            out.append(ProjectFacts("global", "global", "", "/", sorted(self.global_dirs), []))
        return out


def create_schema(db: sqlite3.Connection, first_ms: int) -> None:
    db.executescript(SCHEMA_PATH.read_text(encoding="utf-8"))
    db.executemany(
        "INSERT INTO migration VALUES (?,?)", [(m, first_ms - 60_000 + i // 4) for i, m in enumerate(MIGRATIONS)]
    )


def generate_store(
    path: str | os.PathLike[str],
    sessions: int = 1000,
    seed: int = 7,
    *,
    projects: int = 6,
    months: int = 6,
    end_time_ms: int = DEFAULT_END_MS,
    manifest: bool = True,
    progress: Any = None,
) -> GeneratedStore:
    """Write a fresh OpenCode store with ``sessions`` sessions (children included) to ``path``.

    Deterministic for (sessions, seed, projects, months, end_time_ms). Overwrites ``path`` (and its
    ``-wal``/``-shm``). Writes ``<path>.manifest.json`` unless ``manifest`` is False.
    """
    t0 = time.perf_counter()
    path = os.fspath(path)
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    rng = random.Random(derive_seed(seed, "plan"))
    n_children = round(sessions * CHILD_SHARE) if sessions >= 5 else 0
    n_top = sessions - n_children
    parents = [0] * n_top
    for _ in range(n_children):
        parents[rng.randrange(n_top)] += 1
    n_huge = max(1, round(n_top * HUGE_PART_RATE)) if n_top >= 50 else 0
    huge = set(rng.sample(range(n_top), n_huge))
    starts = _session_start_times(rng, n_top, end_time_ms, months)
    builder = _StoreBuilder(seed, projects, months, end_time_ms)

    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=OFF")  # bulk load; switched to WAL (like OpenCode) at the end
    db.execute("PRAGMA synchronous=OFF")
    db.execute("PRAGMA cache_size=-200000")
    create_schema(db, starts[0] if starts else end_time_ms)
    db.execute("BEGIN")
    sink = _Sink(db)
    for i, start in enumerate(starts):
        builder.build_session(i, start, parents[i], sink, huge=i in huge)
        if progress and (i + 1) % 200 == 0:
            progress(i + 1, n_top)
    sink.flush()
    project_rows, dir_rows = builder.project_rows()
    db.executemany("INSERT INTO project VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", project_rows)
    db.executemany("INSERT INTO project_directory VALUES (?,?,?,?,?)", dir_rows)
    db.execute("COMMIT")
    db.execute("PRAGMA journal_mode=WAL")
    db.close()
    counts = dict(sink.counts)
    counts["projects"] = len(project_rows)
    counts["db_bytes"] = os.path.getsize(path)
    store = GeneratedStore(
        path, seed, end_time_ms, builder.project_facts(), builder.facts, counts, time.perf_counter() - t0
    )
    if manifest:
        Path(path + ".manifest.json").write_text(
            json.dumps(store.to_json(), ensure_ascii=False, indent=1), encoding="utf-8"
        )
    return store


# --------------------------------------------------------------------------------------------------
# mutating a store like OpenCode would (REPORT §6), for incremental-sync tests
# --------------------------------------------------------------------------------------------------


def spec_for_worktree(project_id: str, worktree: str) -> ProjectSpec:
    """Rebuild the vocabulary of a generated project from its worktree name."""
    name = worktree.rstrip("/").rsplit("/", 1)[-1]
    for suffix in ("-repro", "-spike", "-notes"):  # scratch dirs of "global" sessions
        name = name.removesuffix(suffix)
    names = [t[0] for t in PROJECT_TEMPLATES]
    base, _, k = name.rpartition("-")
    index = 0
    if name in names:
        index = names.index(name)
    elif base in names and k.isdigit():
        index = (int(k) - 1) * len(names) + names.index(base)
    spec = build_project(index, random.Random(0))
    return ProjectSpec(project_id, spec.name, spec.language, worktree, spec.subdirs, spec.modules, spec.package)


@dataclass
class AppendedTurn:
    session_id: str
    user_message_id: str
    message_ids: list[str]
    part_ids: list[str]
    seq_before: int
    seq_after: int
    text: str


@dataclass
class AddedSession:
    session_id: str
    project_id: str
    directory: str
    rare_identifier: str
    error_message: str | None
    seq: int


class StoreMutator:
    """Applies OpenCode's own write patterns to a store: rows and events in one transaction.

    Every change bumps ``event_sequence.seq`` of the session (except deletion, which removes the
    session's rows, events and sequence row, recursively over its children). Like OpenCode, deleting
    or editing a message/part and renaming/archiving do not bump ``session.time_updated``.
    """

    def __init__(self, path: str | os.PathLike[str], *, seed: int = 0, now_ms: int | None = None) -> None:
        self.db = sqlite3.connect(os.fspath(path), isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.rng = random.Random(derive_seed("mutate", seed))
        self.ids = IdFactory(random.Random(derive_seed("mutate-ids", seed)))
        self.uniques = Uniques()
        if now_ms is None:
            row = self.db.execute("SELECT max(time_updated), max(coalesce(time_archived, 0)) FROM session").fetchone()
            now_ms = max(row[0] or DEFAULT_END_MS, row[1] or 0) + 60_000
        self.now = now_ms

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> StoreMutator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # helpers ---------------------------------------------------------------------------------------

    def _advance(self) -> int:
        self.now += self.rng.randint(1_000, 120_000)
        return self.now

    def _seq(self, session_id: str) -> int:
        row = self.db.execute("SELECT seq FROM event_sequence WHERE aggregate_id=?", (session_id,)).fetchone()
        if row is None:
            raise KeyError(f"no live session {session_id}")
        return row[0]

    def _load_session(self, session_id: str) -> SessionRow:
        r = self.db.execute(f"SELECT {','.join(SESSION_COLUMNS)} FROM session WHERE id=?", (session_id,)).fetchone()
        if r is None:
            raise KeyError(f"no session {session_id}")
        c = dict(zip(SESSION_COLUMNS, r, strict=True))
        summary = None
        if c["summary_additions"] is not None:
            summary = {
                "additions": c["summary_additions"],
                "deletions": c["summary_deletions"],
                "files": c["summary_files"],
            }
        return SessionRow(
            c["id"],
            c["project_id"],
            c["parent_id"],
            c["slug"],
            c["directory"],
            c["path"] or "",
            c["title"],
            c["time_created"],
            c["time_updated"],
            c["agent"],
            json.loads(c["model"]) if c["model"] else None,
            json.loads(c["permission"]) if c["permission"] else None,
            c["cost"],
            {
                "input": c["tokens_input"],
                "output": c["tokens_output"],
                "reasoning": c["tokens_reasoning"],
                "cache": {"read": c["tokens_cache_read"], "write": c["tokens_cache_write"]},
            },
            summary,
            c["time_archived"],
        )

    def _content(self, s: SessionRow) -> tuple[ProjectContent, str]:
        if s.project_id == "global":
            content, root = ProjectContent(spec_for_worktree("global", s.directory)), "/"
        else:
            row = self.db.execute("SELECT worktree FROM project WHERE id=?", (s.project_id,)).fetchone()
            root = row[0] if row else s.directory
            content = ProjectContent(spec_for_worktree(s.project_id, root))
        content.set_revision(self.rng.getrandbits(40) + 1)  # the worktree as it is now, not as generated
        return content, root

    def _model(self, s: SessionRow) -> ModelChoice:
        want = (s.model or {}).get("id")
        for m in MODELS:
            if m[1] == want:
                return ModelChoice(*m)
        return ModelChoice(*MODELS[0])

    def _topic_for(self, s: SessionRow, content: ProjectContent) -> Topic:
        first = self.db.execute(
            "SELECT p.data FROM part p JOIN message m ON m.id = p.message_id WHERE m.session_id=? "
            "AND json_extract(m.data, '$.role')='user' ORDER BY m.time_created, p.id LIMIT 1",
            (s.id,),
        ).fetchone()
        text = json.loads(first[0]).get("text", "") if first else ""
        module = next((m for m in content.spec.modules if m.source in text), None)
        chinese = any("\u4e00" <= ch <= "\u9fff" for ch in text)
        return make_topic(content, self.rng, self.uniques, chinese=chinese, module=module, rare_vocab=MUTATION_WORDS)

    def _write(self, writers: list[SessionWriter]) -> None:
        sink = _Sink(self.db, upsert=True)
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for w in writers:
                sink.add(w)
            sink.flush()
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _emit_only(
        self,
        session_id: str,
        type_: str,
        data: dict,
        *,
        update: tuple[str, tuple] | None = None,
        more: list[tuple[str, tuple]] | None = None,
    ) -> int:
        """One event (plus row changes) in one transaction; returns the new seq."""
        seq = self._seq(session_id) + 1
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for sql, args in ([update] if update else []) + (more or []):
                self.db.execute(sql, args)
            self.db.execute(
                "INSERT INTO event VALUES (?,?,?,?,?)", (self.ids.event(self.now), session_id, seq, type_, dumps(data))
            )
            self.db.execute("UPDATE event_sequence SET seq=? WHERE aggregate_id=?", (seq, session_id))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return seq

    # operations ----------------------------------------------------------------------------------

    def append_turn(self, session_id: str, text: str | None = None, *, steps: int | None = None) -> AppendedTurn:
        """The user sends another prompt; the agent answers with ``steps`` tool steps and a final text."""
        s = self._load_session(session_id)
        seq = self._seq(session_id)
        content, root = self._content(s)
        w = SessionWriter(s, self.ids, self.rng, self._model(s), root, seq=seq)
        w.now = max(self._advance(), s.time_updated + 1_000)
        player = SessionPlayer(w, self._topic_for(s, content))
        if s.parent_id:
            player.agent = "general"
        user_mid = player.follow_turn(text, steps)
        self._write([w])
        self.now = w.now
        user_text = next(p[3]["text"] for p in w.parts.values() if p[0] == user_mid and p[3]["type"] == "text")
        return AppendedTurn(session_id, user_mid, list(w.messages), list(w.parts), seq, w.seq, user_text)

    def add_session(
        self, project_id: str | None = None, *, directory: str | None = None, text: str | None = None
    ) -> AddedSession:
        """A new top-level session with one full first turn (explore, failing test, fix, green)."""
        if project_id is None:
            row = self.db.execute("SELECT id FROM project WHERE id != 'global' ORDER BY id LIMIT 1").fetchone()
            project_id = row[0]
        worktree = self.db.execute("SELECT worktree FROM project WHERE id=?", (project_id,)).fetchone()[0]
        content = ProjectContent(spec_for_worktree(project_id, worktree))
        content.set_revision(self.rng.getrandbits(40) + 1)
        topic = make_topic(content, self.rng, self.uniques, chinese=False, rare_vocab=MUTATION_WORDS)
        if text:
            topic.first_prompt = text
        directory = directory or worktree
        path = directory[len(worktree) :].lstrip("/") if directory.startswith(worktree) else directory.lstrip("/")
        start = self._advance()
        row = SessionRow(
            self.ids.session(start),
            project_id,
            None,
            _slug(self.rng),
            directory,
            path,
            f"New session - {_iso(start)}",
            start,
            start,
        )
        model = ModelChoice(*MODELS[0])
        w = SessionWriter(row, self.ids, self.rng, model, worktree)
        player = SessionPlayer(w, topic)
        w.create()
        w.s.agent = "build"
        w.s.model = {"id": model.model, "providerID": model.provider, "variant": "default"}
        w.session_updated()
        player.first_turn(huge=0, n_children=0)
        self._write([w])
        self.now = w.now
        return AddedSession(row.id, project_id, directory, topic.rare, topic.error, w.seq)

    def delete_session(self, session_id: str) -> list[str]:
        """DELETE /session/:id: the session and its children vanish with their events; no tombstone."""
        ids = [session_id]
        i = 0
        while i < len(ids):
            ids += [r[0] for r in self.db.execute("SELECT id FROM session WHERE parent_id=?", (ids[i],))]
            i += 1
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for sid in reversed(ids):
                for sql in (
                    "DELETE FROM event WHERE aggregate_id=?",
                    "DELETE FROM event_sequence WHERE aggregate_id=?",
                    "DELETE FROM todo WHERE session_id=?",
                    "DELETE FROM part WHERE session_id=?",
                    "DELETE FROM message WHERE session_id=?",
                    "DELETE FROM session WHERE id=?",
                ):
                    self.db.execute(sql, (sid,))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return ids

    def delete_message(self, message_id: str) -> int:
        """DELETE /session/:id/message/:mid: rows go, a ``message.removed.1`` event stays."""
        row = self.db.execute("SELECT session_id, data FROM message WHERE id=?", (message_id,)).fetchone()
        if row is None:
            raise KeyError(f"no message {message_id}")
        sid, data = row[0], json.loads(row[1])
        self._advance()
        t = data.get("tokens") or {}
        cache = t.get("cache") or {}
        recompute = (
            "UPDATE session SET tokens_input=max(0, tokens_input-?), tokens_output=max(0, tokens_output-?), "
            "tokens_reasoning=max(0, tokens_reasoning-?), tokens_cache_read=max(0, tokens_cache_read-?), "
            "tokens_cache_write=max(0, tokens_cache_write-?), cost=max(0, cost-?) WHERE id=?",
            (
                t.get("input", 0),
                t.get("output", 0),
                t.get("reasoning", 0),
                cache.get("read", 0),
                cache.get("write", 0),
                data.get("cost", 0) or 0,
                sid,
            ),
        )
        return self._emit_only(
            sid,
            "message.removed.1",
            {"sessionID": sid, "messageID": message_id},
            update=("DELETE FROM part WHERE message_id=?", (message_id,)),
            more=[("DELETE FROM message WHERE id=?", (message_id,)), recompute],
        )

    def delete_part(self, part_id: str) -> int:
        """DELETE …/part/:pid: the row goes, a ``message.part.removed.1`` event stays."""
        row = self.db.execute("SELECT session_id, message_id FROM part WHERE id=?", (part_id,)).fetchone()
        if row is None:
            raise KeyError(f"no part {part_id}")
        self._advance()
        return self._emit_only(
            row[0],
            "message.part.removed.1",
            {"sessionID": row[0], "messageID": row[1], "partID": part_id},
            update=("DELETE FROM part WHERE id=?", (part_id,)),
        )

    def edit_part(self, part_id: str, text: str) -> int:
        """PATCH …/part/:pid: replace a text/reasoning part's text, or a tool part's output."""
        row = self.db.execute("SELECT session_id, message_id, data FROM part WHERE id=?", (part_id,)).fetchone()
        if row is None:
            raise KeyError(f"no part {part_id}")
        sid, mid, data = row[0], row[1], json.loads(row[2])
        if data["type"] in ("text", "reasoning"):
            data["text"] = text
        elif data["type"] == "tool" and data["state"].get("status") == "completed":
            data["state"]["output"] = text
        elif data["type"] == "tool":
            data["state"]["error"] = text
        else:
            raise ValueError(f"part {part_id} of type {data['type']} has no text to edit")
        now = self._advance()
        event = {"sessionID": sid, "part": {"id": part_id, "sessionID": sid, "messageID": mid, **data}, "time": now}
        update = ("UPDATE part SET data=?, time_updated=? WHERE id=?", (dumps(data), now, part_id))
        return self._emit_only(sid, "message.part.updated.1", event, update=update)

    def rename_session(self, session_id: str, title: str) -> int:
        s = self._load_session(session_id)
        s.title = title
        self._advance()
        return self._emit_only(
            session_id,
            "session.updated.1",
            {"sessionID": session_id, "info": s.info()},
            update=("UPDATE session SET title=? WHERE id=?", (title, session_id)),
        )

    def archive_session(self, session_id: str) -> int:
        s = self._load_session(session_id)
        s.time_archived = self._advance()
        return self._emit_only(
            session_id,
            "session.updated.1",
            {"sessionID": session_id, "info": s.info()},
            update=("UPDATE session SET time_archived=? WHERE id=?", (s.time_archived, session_id)),
        )


# --------------------------------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------------------------------


def _human(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{int(n)} B"
        n /= 1024
    return f"{n:.1f} GB"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Generate a large, realistic OpenCode 1.18.33 store.")
    ap.add_argument("out", help="output .db path (overwritten)")
    ap.add_argument("--sessions", type=int, default=1000, help="sessions incl. subagent children")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--projects", type=int, default=6)
    ap.add_argument("--months", type=int, default=6)
    ap.add_argument("--end", type=int, default=DEFAULT_END_MS, help="latest session start, epoch ms")
    ap.add_argument("--no-manifest", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)

    def progress(done: int, total: int) -> None:
        if not args.quiet:
            print(f"  {done}/{total} top-level sessions", file=sys.stderr, flush=True)

    store = generate_store(
        args.out,
        args.sessions,
        args.seed,
        projects=args.projects,
        months=args.months,
        end_time_ms=args.end,
        manifest=not args.no_manifest,
        progress=progress,
    )
    c = store.counts
    ratio = c["event_chars"] / max(1, c["part_chars"])
    print(
        f"sessions  {c['sessions']:>10,}  (projects {c['projects']}, children "
        f"{sum(1 for f in store.sessions.values() if f.parent_id):,})"
    )
    print(f"messages  {c['messages']:>10,}")
    print(f"parts     {c['parts']:>10,}  ({_human(c['part_chars'])} of part data)")
    print(f"events    {c['events']:>10,}  ({_human(c['event_chars'])} of event data, {ratio:.1f}x part data)")
    print(f"db size   {_human(c['db_bytes']):>10}  {args.out}")
    print(f"seconds   {store.seconds:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
