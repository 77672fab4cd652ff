"""The page's gatekeeper: token, Host, Origin and CSRF checks, and the security headers.

A pure ASGI middleware, so it stands in front of every route, the static files included.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),  # keeps Origin on same-origin POSTs ("no-referrer" nulls it)
    (b"cache-control", b"no-store"),
]


def csrf_token(token: str) -> str:
    """The form token, derived from the session token: nothing to store, nothing a page can guess."""
    return hmac.new(token.encode(), b"recollect-ui-csrf", hashlib.sha256).hexdigest()[:40]


class Guard:
    """Refuses, with 403, any request that is not from this machine's page holding the token."""

    def __init__(self, app: ASGIApp, *, token: str, port: int) -> None:
        self.app = app
        self.token = token
        self.port = port
        self.cookie = f"recollect_ui_{port}"
        self.hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        self.origins = {f"http://{host}" for host in self.hosts}

    def _matches(self, value: str) -> bool:
        # compare_digest refuses non-ASCII str: compare bytes, so any header or query value is just "no".
        return hmac.compare_digest(value.encode("utf-8", "surrogateescape"), self.token.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        problem = self._refusal(scope, headers)
        if problem:
            await _plain(send, 403, problem)
            return
        from_url = self._token_in_query(scope)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = list(SECURITY_HEADERS)
                if from_url:
                    cookie = f"{self.cookie}={self.token}; HttpOnly; SameSite=Strict; Path=/"
                    extra.append((b"set-cookie", cookie.encode()))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> str:
        if headers.get("host", "") not in self.hosts:
            return "wrong Host header: open the page at the 127.0.0.1 address that 'recollect ui' printed"
        if not (self._token_in_query(scope) or self._token_in_cookie(headers)):
            return "no valid token: open the full URL that 'recollect ui' printed (it carries the token)"
        if scope.get("method", "GET") not in ("GET", "HEAD") and headers.get("origin", "") not in self.origins:
            return "cross-origin request refused: changes can only be made from the page itself"
        return ""

    def _token_in_query(self, scope: Scope) -> bool:
        values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [])
        return any(self._matches(v) for v in values)

    def _token_in_cookie(self, headers: dict[str, str]) -> bool:
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(headers.get("cookie", ""))
        except Exception:  # a malformed Cookie header is simply no token
            return False
        morsel = jar.get(self.cookie)
        return morsel is not None and self._matches(morsel.value)


async def _plain(send: Send, status: int, text: str) -> None:
    body = (text + "\n").encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), *SECURITY_HEADERS],
        }
    )
    await send({"type": "http.response.body", "body": body})
