"""Integrations with agent hosts. `opencode` installs recollect into OpenCode (MCP server, recall
subagent, plugin); `hooks` and `hookd` are the Python side of that plugin.

Kept import-free: the plugin's helper process imports `recollect.integrations.hookd` and must
start fast.
"""
