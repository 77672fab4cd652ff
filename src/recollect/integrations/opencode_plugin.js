// recollect for OpenCode: memory injection, auto-recall on history cues, compaction recall, idle sync.
// The standing memory block (hard rules, goals, outline) goes into the system prompt and stays
// byte-identical from turn to turn, so the provider's prompt cache keeps the conversation; what is
// for one message (the memory bodies that bear on it, a recall block) is appended to that message in
// the request only, never stored, and replaced by the next message's.
// This file is managed by recollect (`recollect install opencode`); `recollect uninstall opencode` removes it.
//
// This file holds no logic of its own. It forwards hook inputs to one long-lived Python helper
// (`python -m recollect.integrations.hookd`, newline-delimited JSON over stdin/stdout), started on
// first need and shared by every project in this OpenCode process, and puts the answers back.
// A failure or a timeout is written to the log and the turn goes on without us.
// The extraction (Python) reaches OpenCode's own server through a loopback bridge this file serves
// (see "the bridge" below): OpenCode listens on no port unless started with --port.
// Log: $RECOLLECT_HOME/log or $XDG_DATA_HOME/recollect/log, file opencode-plugin.log.
// Off switch: RECOLLECT_OPENCODE_PLUGIN=0 in OpenCode's environment; per piece: [opencode] in
// recollect's config.toml (see docs/opencode.md).
import { spawn } from "node:child_process"
import { randomBytes, timingSafeEqual } from "node:crypto"
import { appendFileSync, mkdirSync } from "node:fs"
import { homedir } from "node:os"
import { dirname, join } from "node:path"

const INSTALLED = { python: "python3", env: {} } // @recollect-install (rewritten by the installer)

const ENV = { ...process.env, ...INSTALLED.env }
const PYTHON = process.env.RECOLLECT_PYTHON || INSTALLED.python
const DISABLED = ["0", "off", "false", "no"].includes(String(process.env.RECOLLECT_OPENCODE_PLUGIN || "").toLowerCase())
const STARTUP_MS = 5000 // first answer: Python start + imports
const RESPAWN_MS = 30000 // after the helper died, wait this long before starting another
const COMPACT_MS = 5000
const DRAIN_MS = 60000 // at exit, the longest OpenCode is kept for an extraction that needs the bridge
const CACHE_SESSIONS = 64
const STDERR_FLUSH_MS = 1000
const STDERR_MAX = 16000 // characters per flush; the rest is counted, not kept

let logPath = join(
  ENV.RECOLLECT_HOME ? ENV.RECOLLECT_HOME : join(ENV.XDG_DATA_HOME || join(homedir(), ".local", "share"), "recollect"),
  "log",
  "opencode-plugin.log",
)

function log(message) {
  try {
    // Owner-only whatever OpenCode's umask: the log names sessions and problems.
    mkdirSync(dirname(logPath), { recursive: true, mode: 0o700 })
    appendFileSync(logPath, `${new Date().toISOString()} [plugin ${process.pid}] ${message}\n`, { mode: 0o600 })
  } catch {
    // Nowhere to log to: stay silent rather than break the turn.
  }
}

// --- the helper ---------------------------------------------------------------------------------

const helper = { proc: null, hello: null, ready: null, pending: new Map(), nextId: 1, buf: "", spawnedAt: 0 }

// What the helper writes to stderr may quote anything it read (a traceback quotes the line it failed
// on), so it is never logged here as it is: it goes through the helper's own redactor
// (`hookd --log-stderr LOG`, which writes it redacted to the log), one short run per burst. The helper
// itself sends its Python-level stderr to the log redacted once it runs; what reaches us is mostly
// what happened before that (a broken install). When the redactor cannot run either, only the size
// is logged.
const stderr = { text: "", dropped: 0, timer: null }

function onStderr(chunk) {
  const text = String(chunk)
  const room = Math.max(STDERR_MAX - stderr.text.length, 0)
  stderr.text += text.slice(0, room)
  stderr.dropped += Math.max(text.length - room, 0)
  if (!stderr.timer) {
    stderr.timer = setTimeout(flushStderr, STDERR_FLUSH_MS)
    stderr.timer.unref?.()
  }
}

function flushStderr() {
  clearTimeout(stderr.timer)
  stderr.timer = null
  const { text, dropped } = stderr
  const size = text.length + dropped
  stderr.text = ""
  stderr.dropped = 0
  if (!text.trim()) return
  const notShown = (why) =>
    log(
      `helper wrote ${size} characters to stderr, not shown: they could not be redacted (${why}); ` +
        `run ${PYTHON} -m recollect.integrations.hookd by hand to see them`,
    )
  let sink
  try {
    const args = ["-m", "recollect.integrations.hookd", "--log-stderr", logPath]
    sink = spawn(PYTHON, args, { stdio: ["pipe", "ignore", "ignore"], env: ENV })
  } catch (e) {
    notShown(e?.message ?? e)
    return
  }
  sink.on("error", (e) => notShown(e?.message ?? e))
  sink.on("exit", (code, signal) => {
    if (code !== 0) notShown(`the redactor exited ${code ?? signal}`)
    else if (dropped) log(`helper stderr: ${dropped} more characters not kept`)
  })
  sink.stdin.on("error", () => {})
  sink.stdin.end(text)
  for (const handle of [sink, sink.stdin]) handle?.unref?.()
}

function settle(proc, why) {
  if (helper.proc !== proc) return
  log(`helper ${why}`)
  helper.proc = null
  helper.hello = null
  if (stderr.timer) flushStderr()
  helper.resolveReady?.(false)
  for (const waiter of helper.pending.values()) waiter(null)
  helper.pending.clear()
}

function onLine(line) {
  let msg
  try {
    msg = JSON.parse(line)
  } catch {
    // Never the line itself: it may carry anything the helper read.
    log(`helper wrote a line that is not JSON (${line.length} characters)`)
    return
  }
  if (msg.hello) {
    helper.hello = msg.hello
    if (msg.hello.log) logPath = msg.hello.log
    helper.resolveReady?.(true)
    return
  }
  const waiter = helper.pending.get(msg.id)
  if (!waiter) return // answered after its timeout
  helper.pending.delete(msg.id)
  if (!msg.ok) log(`helper error: ${msg.error}`)
  waiter(msg.ok ? msg : null)
}

function startHelper() {
  if (DISABLED || helper.proc) return
  const now = Date.now()
  if (now - helper.spawnedAt < RESPAWN_MS) return
  helper.spawnedAt = now
  helper.buf = ""
  helper.ready = new Promise((resolve) => (helper.resolveReady = resolve))
  let proc
  try {
    // INSTALLED.scope: the ceiling of `recollect install opencode --scope` (none: the config's alone).
    const args = ["-m", "recollect.integrations.hookd", ...(INSTALLED.scope ? ["--scope", INSTALLED.scope] : [])]
    proc = spawn(PYTHON, args, { stdio: ["pipe", "pipe", "pipe"], env: ENV })
  } catch (e) {
    log(`cannot start ${PYTHON}: ${e?.message ?? e}`)
    helper.resolveReady(false)
    return
  }
  helper.proc = proc
  proc.stdout.setEncoding("utf8")
  proc.stdout.on("data", (chunk) => {
    helper.buf += chunk
    let i
    while ((i = helper.buf.indexOf("\n")) >= 0) {
      const line = helper.buf.slice(0, i)
      helper.buf = helper.buf.slice(i + 1)
      if (line.trim()) onLine(line)
    }
  })
  proc.stderr.setEncoding("utf8")
  proc.stderr.on("data", onStderr)
  proc.stdin.on("error", () => {}) // EPIPE after the helper died: reported by "exit"
  proc.on("error", (e) => settle(proc, `failed: ${e?.message ?? e}`))
  proc.on("exit", (code, signal) => settle(proc, `exited (${code ?? signal})`))
  // Never keep OpenCode alive for our sake (`opencode run` must exit when it is done).
  for (const handle of [proc, proc.stdin, proc.stdout, proc.stderr]) handle?.unref?.()
}

function withTimeout(promise, ms) {
  let timer
  return Promise.race([promise, new Promise((resolve) => (timer = setTimeout(() => resolve(null), ms)))]).finally(() =>
    clearTimeout(timer),
  )
}

// One request; resolves to the answer, or null on any failure or timeout (already logged).
// Without `timeoutMs`, the helper's own setting applies (known once it said hello).
async function call(op, payload, timeoutMs) {
  startHelper()
  if (!helper.proc) return null
  if (!helper.hello) {
    const ok = await withTimeout(helper.ready, STARTUP_MS)
    if (!ok) {
      log(`${op}: helper not ready (it exited, or took over ${STARTUP_MS} ms to start); going on without it`)
      return null
    }
  }
  const proc = helper.proc
  if (!proc) return null
  timeoutMs ??= helper.hello?.timeout_ms ?? 1000
  const id = helper.nextId++
  const started = performance.now()
  const answer = await withTimeout(
    new Promise((resolve) => {
      helper.pending.set(id, resolve)
      try {
        proc.stdin.write(JSON.stringify({ id, op, ...payload }) + "\n")
      } catch (e) {
        helper.pending.delete(id)
        log(`${op}: cannot write to the helper: ${e?.message ?? e}`)
        resolve(null)
      }
    }),
    timeoutMs,
  )
  if (answer === null && helper.pending.has(id)) {
    helper.pending.delete(id)
    log(`${op} timed out after ${timeoutMs} ms (${(performance.now() - started).toFixed(0)} ms waited)`)
  }
  return answer
}

// --- the bridge to OpenCode's own server -------------------------------------------------------

// The extraction asks OpenCode for a model over HTTP, from Python. OpenCode 1.18.33 hands plugins a
// serverUrl of http://localhost:4096, but its TUI and `opencode run` listen on no port unless started
// with --port; `input.client` reaches the server all the same, through a fetch that calls the
// server's handler in-process. The bridge puts that fetch on a loopback port for the helper's
// extraction: 127.0.0.1 only, a port of the system's choosing, a fresh secret per OpenCode process
// required on every request (basic auth, handed to the extraction in its environment, never logged),
// only the requests the extraction makes (extract/models.py: list models and config, a worker
// session's create, prompt, abort and delete), and no keeping OpenCode alive for its sake.
const BRIDGE_USER = "recollect"
const BRIDGE_ROUTES = [
  ["GET", /^\/config(\/providers)?$/],
  ["POST", /^\/session$/],
  ["POST", /^\/session\/[A-Za-z0-9_-]+\/(message|abort)$/],
  ["DELETE", /^\/session\/[A-Za-z0-9_-]+$/],
]
const bridge = { inner: null, server: null, url: "", failed: false }

// The SDK client's own settings: `fetch` (OpenCode's in-process one when it listens on no port),
// `baseUrl`, and `headers` (its server password's basic auth, if one is set).
function innerClient(client) {
  try {
    const config = client?._client?.getConfig?.()
    return typeof config?.fetch === "function" ? config : null
  } catch {
    return null
  }
}

function headerOf(headers, name) {
  if (!headers) return ""
  if (typeof headers.get === "function") return headers.get(name) || ""
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name)
  return key ? String(headers[key]) : ""
}

function sameSecret(given, expected) {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

// The bridge's address with its secret (http://recollect:SECRET@127.0.0.1:PORT), or "" when it
// cannot run (no in-process fetch, not Bun): then the extraction is given serverUrl, as before.
function bridgeUrl() {
  if (bridge.url || bridge.failed) return bridge.url
  const inner = bridge.inner
  if (!inner || typeof globalThis.Bun?.serve !== "function") {
    bridge.failed = true
    log("extraction bridge not started: no in-process OpenCode client here; the extraction gets serverUrl")
    return ""
  }
  // Without a port OpenCode's client fetches in-process (any address will do); listening, it is the
  // plain fetch of the server's own address (1.18.33 chooses when the instance starts).
  const base = String(inner.baseUrl || "http://localhost:4096")
  const secret = randomBytes(32).toString("hex")
  const expected = `Basic ${Buffer.from(`${BRIDGE_USER}:${secret}`).toString("base64")}`
  let host = ""
  const forward = async (req) => {
    if (req.headers.get("host") !== host || !sameSecret(req.headers.get("authorization") || "", expected)) {
      return new Response("unauthorized\n", { status: 401, headers: { "www-authenticate": "Basic" } })
    }
    const url = new URL(req.url)
    if (!BRIDGE_ROUTES.some(([method, path]) => method === req.method && path.test(url.pathname))) {
      return new Response("not found\n", { status: 404 })
    }
    const headers = new Headers()
    const type = req.headers.get("content-type")
    if (type) headers.set("content-type", type)
    const auth = headerOf(inner.headers, "authorization") // OpenCode's own server password, if set
    if (auth) headers.set("authorization", auth)
    const body = req.method === "GET" || req.method === "DELETE" ? undefined : await req.arrayBuffer()
    try {
      return await inner.fetch(
        new Request(new URL(`${url.pathname}${url.search}`, base), { method: req.method, headers, body }),
      )
    } catch (e) {
      log(`extraction bridge: ${req.method} ${url.pathname} failed: ${e?.message ?? e}`)
      return new Response("bridge error\n", { status: 502 })
    }
  }
  try {
    // idleTimeout 0: a model's answer may take longer than Bun's default 10 s without a byte.
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: forward })
    server.unref?.()
    host = `127.0.0.1:${server.port}`
    bridge.server = server
    bridge.url = `http://${BRIDGE_USER}:${secret}@${host}`
    log(`extraction bridge on http://${host}`)
  } catch (e) {
    bridge.failed = true
    log(`extraction bridge not started: ${e?.message ?? e}; the extraction gets serverUrl`)
  }
  return bridge.url
}

// --- per-session cache of the current message's injection --------------------------------------

// The transforms run for every LLM call of a turn (steps, title, compaction): they reuse the blocks
// computed for the turn's user message instead of asking again. `inject` (the standing block) goes
// into the system prompt; `turn` and `recall` ride on the message they were computed for (`message`,
// its id), in the request only. The entry is replaced by the next user message, so a session has at
// most one live recall block, and only for the turn whose message carried the cue: nothing is added
// to the transcript, so nothing piles up across turns, and the start of the prompt does not move.
const cache = new Map()
function remember(sessionID, entry) {
  cache.delete(sessionID)
  cache.set(sessionID, entry)
  while (cache.size > CACHE_SESSIONS) cache.delete(cache.keys().next().value)
}

function userText(parts) {
  return (parts || [])
    .filter((p) => p && p.type === "text" && !p.synthetic && !p.ignored && typeof p.text === "string")
    .map((p) => p.text)
    .join("\n")
    .trim()
}

// --- hooks --------------------------------------------------------------------------------------

export const RecollectPlugin = async (input) => {
  if (DISABLED) return {}
  // Start the helper now, while OpenCode still boots (config, MCP servers, the session): its Python
  // start and imports then overlap that, instead of delaying the first message that waits for them.
  startHelper()
  const directory = input?.directory || input?.worktree || process.cwd()
  const serverUrl = input?.serverUrl ? String(input.serverUrl) : ""
  bridge.inner ??= innerClient(input?.client) // any instance's will do: the fetch is the process's server
  return {
    event: async ({ event }) => {
      const type = event?.type || ""
      if (!type.startsWith("session.")) return
      startHelper() // warm it before the first message needs it
      const sessionID = event.properties?.sessionID
      if (type === "session.idle" && sessionID) {
        // Fire and forget: the helper starts detached, debounced work.
        void call("idle", { session: sessionID, directory, server_url: bridgeUrl() || serverUrl }, COMPACT_MS)
      } else if (type === "session.deleted") {
        cache.delete(event.properties?.info?.id ?? sessionID)
      }
    },

    // At exit (`opencode run` right after its one idle, a TUI when quit): an extraction that this
    // OpenCode's bridge serves ends with it, so wait for the ones the helper started or will start
    // now, up to DRAIN_MS; the helper answers at once when none is coming (too few turns, none on).
    dispose: async () => {
      if (bridge.server && helper.proc) await call("drain", { timeout_ms: DRAIN_MS }, DRAIN_MS + 2000)
    },

    "chat.message": async (inp, out) => {
      const sessionID = inp?.sessionID || out?.message?.sessionID
      if (!sessionID) return
      const text = userText(out?.parts)
      const message = inp?.messageID || out?.message?.id || ""
      const answer = await call("message", { session: sessionID, directory, text, message })
      if (!answer) {
        cache.delete(sessionID)
        return
      }
      remember(sessionID, {
        inject: answer.inject || "",
        turn: answer.turn || "",
        recall: answer.recall || "",
        message,
        text: text.slice(0, 2000),
      })
    },

    "experimental.chat.system.transform": async (inp, out) => {
      const sessionID = inp?.sessionID
      let entry = sessionID ? cache.get(sessionID) : undefined
      if (!entry) {
        const answer = await call("system", { session: sessionID, directory })
        if (!answer) return
        entry = { inject: answer.inject || "", turn: "", recall: "", message: "", text: "" }
        if (sessionID) remember(sessionID, entry)
      }
      if (Array.isArray(out?.system) && entry.inject) out.system.push(entry.inject)
    },

    // Per request, in memory only (OpenCode builds the request from this array and stores nothing of
    // it): this turn's blocks go at the end of the newest user message, the one they were computed
    // for. Older messages go out as they were stored, so everything before the newest message is the
    // same bytes as in the previous request.
    "experimental.chat.messages.transform": async (_inp, out) => {
      const messages = Array.isArray(out?.messages) ? out.messages : []
      const newest = messages.findLast((m) => m?.info?.role === "user")
      const info = newest?.info
      const entry = info?.sessionID ? cache.get(info.sessionID) : undefined
      if (!entry || !entry.message || entry.message !== info.id || !Array.isArray(newest.parts)) return
      const text = [entry.turn, entry.recall].filter(Boolean).join("\n")
      if (!text) return
      newest.parts.push({
        id: `${info.id}_recollect`,
        sessionID: info.sessionID,
        messageID: info.id,
        type: "text",
        text,
        synthetic: true,
      })
    },

    "experimental.session.compacting": async (inp, out) => {
      const sessionID = inp?.sessionID
      const text = (sessionID && cache.get(sessionID)?.text) || ""
      const answer = await call("compact", { session: sessionID, directory, text }, COMPACT_MS)
      if (answer && Array.isArray(out?.context)) for (const block of answer.context || []) out.context.push(block)
    },
  }
}
