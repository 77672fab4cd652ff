"""How every bench ends: its figures as JSON on stdout (and in `--json FILE`), with the load average
they were taken at, since on a shared machine wall times mean little without it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def emit(results: dict[str, Any], path: Path | None) -> int:
    results["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    text = json.dumps(results, indent=2, ensure_ascii=False)
    print(text)
    if path:
        path.write_text(text + "\n", encoding="utf-8")
    return 0
