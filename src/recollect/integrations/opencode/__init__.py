"""`recollect install opencode` / `recollect uninstall opencode`, as a library.

What install puts into OpenCode's global config dir (`$XDG_CONFIG_HOME/opencode`):

* `mcp.recollect` in `opencode.json` or `opencode.jsonc`: this interpreter running
  `-m recollect.cli mcp` (absolute paths: OpenCode expands no `~`), with `--scope` when installed
  with a scope ceiling (the plugin gets the same ceiling for its helper). The file is edited as text,
  so a person's comments and layout survive (`jsonc.py`), and created when absent;
* `agent/recall.md`: the recall subagent (seed 001), limited to recollect's read tools;
* `plugin/recollect.js`: the plugin (`opencode_plugin.js`), told which Python to run;
* `@opencode-ai/plugin` pre-installed with npm: with any plugin present OpenCode waits for its own
  install of that package at start-up, and offline that stalled 71 s (INTEGRATION.md §3.2).

Everything done is recorded in a manifest under recollect's data dir, so uninstall takes back
exactly that and nothing else: the config file's original bytes are restored when nobody touched
it since; otherwise only our key is removed, comments and other servers staying as they are.
A `recollect` MCP entry, agent file or plugin file that is not ours is never replaced silently:
that needs `force`, and uninstall then puts the person's version back.
"""

from recollect.integrations.opencode.base import (
    AGENT_FILE,
    DEFAULT_OPENCODE_VERSION,
    MARK,
    MCP_TIMEOUT_MS,
    PLUGIN_FILE,
    PLUGIN_PACKAGE,
    SCHEMA_URL,
    SERVER_KEY,
    Change,
    InstallError,
    Report,
    choose_config_file,
    load_manifest,
    manifest_path,
    opencode_config_dir,
    save_manifest,
)
from recollect.integrations.opencode.checkup import Checkup, checkup, problems_of
from recollect.integrations.opencode.installer import detect_opencode_version, install
from recollect.integrations.opencode.npm import NpmProgress, NpmStatus
from recollect.integrations.opencode.removal import uninstall
from recollect.integrations.opencode.texts import agent_text, mcp_entry, plugin_text

__all__ = [
    "AGENT_FILE",
    "DEFAULT_OPENCODE_VERSION",
    "MARK",
    "MCP_TIMEOUT_MS",
    "PLUGIN_FILE",
    "PLUGIN_PACKAGE",
    "SCHEMA_URL",
    "SERVER_KEY",
    "Change",
    "Checkup",
    "InstallError",
    "NpmProgress",
    "NpmStatus",
    "Report",
    "agent_text",
    "checkup",
    "choose_config_file",
    "detect_opencode_version",
    "install",
    "load_manifest",
    "manifest_path",
    "mcp_entry",
    "opencode_config_dir",
    "plugin_text",
    "problems_of",
    "save_manifest",
    "uninstall",
]
