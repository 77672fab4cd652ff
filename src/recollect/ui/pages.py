"""The page's routes: each reads the request, calls the core API (history, memory), and renders.

No route holds logic of its own; what a route shows is what the CLI and MCP would answer.
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, QueryParams
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from recollect import history
from recollect import memory as mem
from recollect.app import Recollect
from recollect.config import Config, load_config
from recollect.errors import RecollectError
from recollect.history import AUTHORS, CLASSES, FILTER_SPEC, ROLES, SCOPES, Filters, filter_values
from recollect.ui.chart import activity_svg
from recollect.ui.guard import Guard, csrf_token
from recollect.ui.render import diff_lines, markdown

log = logging.getLogger("recollect.ui")

# The page's own refusals (a wrong CSRF token, a project the history does not know) are
# PermissionError; everything the core refuses is a RecollectError. Both become a page that says why.


class Site:
    """One running page: its app (the config, built once), its token, its templates, and the project it
    was started in. Each request reads through its own `app.for_call()`: requests run side by side."""

    def __init__(self, config: Config, token: str, port: int, cwd: Path) -> None:
        self.app = Recollect(config)
        self.config = config
        self.token = token
        self.port = port
        self.cwd = cwd
        self.csrf = csrf_token(token)
        self.env = Environment(loader=PackageLoader("recollect.ui", "templates"), autoescape=select_autoescape())
        self.env.filters["markdown"] = markdown
        self.env.globals.update(diff_lines=diff_lines, csrf=self.csrf, iso=history.iso, counted=history.counted)

    # --- helpers -------------------------------------------------------------------------------

    def render(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        started = time.perf_counter()
        html = self.env.get_template(name).render(page=name.removesuffix(".html"), **context)
        response = HTMLResponse(html, status_code=status)
        response.headers["server-timing"] = f"render;dur={(time.perf_counter() - started) * 1000:.1f}"
        return response

    def error(self, message: str, status: int = 400) -> HTMLResponse:
        return self.render("error.html", status=status, message=message)

    async def form(self, request: Request) -> FormData:
        """The POSTed form, after the CSRF check (the Guard has already checked Origin and token)."""
        form = await request.form()
        if not hmac.compare_digest(str(form.get("csrf", "")).encode("utf-8", "surrogateescape"), self.csrf.encode()):
            raise PermissionError("the form's CSRF token is missing or wrong: reload the page and try again")
        return form

    def space(self, project: str = "") -> mem.MemorySpace:
        """The memory roots of the project given (one history knows, or the one `ui` started in)."""
        if project:
            with self.app.for_call() as app:
                known = {p.project for p in history.activity(app=app, limit=10_000)}
            if project not in known and project != str(self.cwd):
                raise PermissionError(f"{project} is not a project in the history; pick one from the Projects page")
            return mem.open_memory(project=Path(project))
        return mem.open_memory(self.cwd)

    def in_call(self, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """`call(*args, app=..., **kwargs)` with this request's own app (closed when it returns)."""
        with self.app.for_call() as app:
            return call(*args, app=app, **kwargs)

    # --- pages ---------------------------------------------------------------------------------

    def filters_from(self, q: QueryParams) -> Filters:
        """The form's filters, through the same table (FILTER_SPEC) as the CLI options and MCP parameters."""
        values: dict[str, Any] = {}
        for spec in FILTER_SPEC:
            if spec.kind == "string_list":
                listed = [v for v in q.getlist(spec.name) if v]
                if listed:
                    values[spec.name] = listed
            elif q.get(spec.name):
                values[spec.name] = q[spec.name] if spec.kind == "string" else q[spec.name] in ("1", "on", "true")
        return Filters(**filter_values(values))

    def search(self, request: Request) -> Response:
        q = request.query_params
        query = q.get("q", "").strip()
        kind = q.get("kind", "history")
        context: dict[str, Any] = {
            "q": q,
            "query": query,
            "kind": kind,
            "scopes": SCOPES,
            "roles": ROLES,
            "classes": CLASSES,
            "authors": AUTHORS,
            "result": None,
            "memories": None,
            "page_options": history.PAGE_OPTIONS,  # how the page's filters are named in what limited a search
        }
        if query:
            if kind == "memory":
                context["memories"] = mem.recall(self.space(q.get("project", "")), query, record_hits=False)
            else:
                with self.app.for_call() as app:
                    context["result"] = history.search(
                        query, self.filters_from(q), limit=20, app=app, exact=bool(q.get("exact"))
                    )
        return self.render("search.html", **context)

    def session(self, request: Request) -> Response:
        q = request.query_params
        cursor = q.get("cursor", "")
        if not cursor:
            return self.error("no cursor: open a session from a search hit or the Projects page")
        with self.app.for_call() as app:
            window = history.read(cursor, app=app)
            card = history.session_card(f"{window.source}::{window.session_id}", app=app)
        return self.render("session.html", window=window, card=card, cursor=cursor)

    async def session_hide(self, request: Request) -> Response:
        form = await self.form(request)
        session = str(form.get("session", ""))
        await run_in_threadpool(self.in_call, history.hide_session, session, why=str(form.get("why", "")))
        return RedirectResponse("/hidden?" + urlencode({"done": f"hid {session}"}), status_code=303)

    async def session_unhide(self, request: Request) -> Response:
        form = await self.form(request)
        session = str(form.get("session", ""))
        await run_in_threadpool(self.in_call, history.unhide_session, session)
        return RedirectResponse("/hidden?" + urlencode({"done": f"brought back {session}"}), status_code=303)

    def hidden(self, request: Request) -> Response:
        with self.app.for_call() as app:
            hidden = history.hidden_sessions(app=app)
        return self.render("hidden.html", hidden=hidden, done=request.query_params.get("done", ""))

    def projects(self, request: Request) -> Response:
        chosen = request.query_params.get("project", "")
        recent: list[history.SessionInfo] = []
        with self.app.for_call() as app:
            projects = history.activity(app=app)
            if chosen:
                recent = history.sessions(Filters(scope="project", directory=chosen), limit=50, app=app)
        charts = {p.project: activity_svg(p.per_day, label=f"sessions per day in {p.project}") for p in projects}
        return self.render("projects.html", projects=projects, charts=charts, chosen=chosen, recent=recent)

    def memories(self, request: Request) -> Response:
        q = request.query_params
        space = self.space(q.get("project", ""))
        entries = mem.list_memories(space, include_inactive=bool(q.get("all")))
        roots: dict[str, dict[str, list[Any]]] = {}
        for entry in entries:
            roots.setdefault(entry.memory.scope, {}).setdefault(entry.memory.category, []).append(entry)
        return self.render(
            "memories.html",
            space=space,
            roots=roots,
            project=q.get("project", ""),
            show_all=bool(q.get("all")),
        )

    def memory(self, request: Request) -> Response:
        q = request.query_params
        space = self.space(q.get("project", ""))
        entry = mem.get_memory(space, q.get("id", ""))
        return self.render("memory.html", entry=entry, project=q.get("project", ""), saved=bool(q.get("saved")))

    async def memory_save(self, request: Request) -> Response:
        form = await self.form(request)
        project = str(form.get("project", ""))
        ref = str(form.get("id", ""))

        def save() -> None:
            mem.edit(
                self.space(project),
                ref,
                summary=str(form.get("summary", "")),
                body=str(form.get("body", "")).replace("\r\n", "\n"),
                highlight=str(form.get("highlight", "")),
            )

        await run_in_threadpool(save)
        return RedirectResponse("/memory?" + urlencode({"id": ref, "project": project, "saved": 1}), status_code=303)

    def review(self, request: Request) -> Response:
        q = request.query_params
        space = self.space(q.get("project", ""))
        pending = mem.proposals(space)
        similar = {e.memory.qualified_id: mem.most_similar(space, e.memory.qualified_id) for e in pending}
        return self.render(
            "review.html", pending=pending, similar=similar, project=q.get("project", ""), done=q.get("done", "")
        )

    async def review_action(self, request: Request) -> Response:
        form = await self.form(request)
        project = str(form.get("project", ""))
        ref = str(form.get("id", ""))
        action = request.path_params["action"]

        def act() -> str:
            space = self.space(project)
            if action == "accept":
                return f"accepted {mem.accept(space, ref, note=str(form.get('note', ''))).qualified_id}"
            if action == "reject":
                return f"rejected {mem.reject(space, ref, reason=str(form.get('reason', ''))).qualified_id}"
            raise PermissionError(f"unknown review action {action!r}")

        done = await run_in_threadpool(act)
        return RedirectResponse("/review?" + urlencode({"project": project, "done": done}), status_code=303)

    def health(self, request: Request) -> Response:
        from recollect.integrations.opencode import checkup, problems_of

        diagnosis = history.doctor(self.config)
        connected = checkup(self.config.paths)
        diagnosis.problems.extend(problems_of(connected))  # what `recollect doctor` lists too
        opencode_source = any(s["kind"] == "opencode" for s in diagnosis.sources)
        return self.render(
            "health.html", d=diagnosis, meaning=diagnosis.semantic, connected=connected, opencode=opencode_source
        )


def _guarded(site: Site, handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Any]:
    """Turn what a person can fix into a page that says so; a bug still surfaces as a 500."""

    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except mem.MemoryNotFound as exc:
            return site.error(str(exc), status=404)
        except PermissionError as exc:
            return site.error(str(exc), status=403)
        except RecollectError as exc:
            return site.error(str(exc))
        except Exception as exc:  # a bug: say so on the page, never a traceback in the browser
            log.exception("ui: %s %s failed", request.method, request.url.path)
            return site.error(
                f"internal error ({type(exc).__name__}); the terminal running 'recollect ui' has the details", 500
            )

    return endpoint


def make_app(token: str, port: int, *, config: Config | None = None, cwd: Path | None = None) -> Guard:
    """The whole page as an ASGI app, behind its Guard."""
    site = Site(config or load_config(), token, port, (cwd or Path.cwd()).resolve())

    def sync_page(fn: Callable[[Request], Response]) -> Callable[[Request], Any]:
        async def run(request: Request) -> Response:
            return await run_in_threadpool(fn, request)

        return _guarded(site, run)

    routes = [
        Route("/", lambda request: RedirectResponse("/search", status_code=303)),
        Route("/search", sync_page(site.search)),
        Route("/session", sync_page(site.session)),
        Route("/session/hide", _guarded(site, site.session_hide), methods=["POST"]),
        Route("/session/unhide", _guarded(site, site.session_unhide), methods=["POST"]),
        Route("/hidden", sync_page(site.hidden)),
        Route("/projects", sync_page(site.projects)),
        Route("/memories", sync_page(site.memories)),
        Route("/memory", sync_page(site.memory)),
        Route("/memory", _guarded(site, site.memory_save), methods=["POST"]),
        Route("/review", sync_page(site.review)),
        Route("/review/{action}", _guarded(site, site.review_action), methods=["POST"]),
        Route("/health", sync_page(site.health)),
        Mount("/static", StaticFiles(packages=[("recollect.ui", "static")]), name="static"),
    ]
    return Guard(Starlette(routes=routes), token=token, port=port)
