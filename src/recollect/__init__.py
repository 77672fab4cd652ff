"""recollect: a local memory for coding agents.

History: search and read every session an agent already stored (read-only, through a
disposable sidecar index). Memory: curated markdown notes with a trust lifecycle.
"""

__version__ = "0.1.0"
