"""`recollect ui`: a local web page over the same core API as the CLI and the MCP server.

The page shows everything a person ever told an agent, so it binds 127.0.0.1 only, asks for a random
token on every request, checks the Host header (DNS rebinding), needs a same-origin POST carrying a
CSRF token for every change, and sends a strict Content-Security-Policy. Transcript text is untrusted:
it is escaped on the server and never turned into markup or links. The page holds no logic of its own.
"""
