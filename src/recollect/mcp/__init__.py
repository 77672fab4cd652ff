"""The MCP surface: recollect's history and memory as tools for agents (`recollect mcp`).

Thin like the CLI: each tool checks its arguments, calls `recollect.history` or `recollect.memory`,
and renders a bounded reply. `args.py` declares parameters (schema and checks in one place),
`history_tools.py` and `memory_tools.py` hold the tools, `registry.py` dispatches a call without
ever raising, and `server.py` is the only module that imports the MCP SDK.
"""
