"""[memory] keys that other layers own (the plugin's auto_extract) must not break memory commands."""

from __future__ import annotations

import pytest

from recollect.config import ConfigError
from recollect.memory.settings import MemorySettings


def test_keys_of_other_layers_are_accepted_and_typos_still_refused() -> None:
    settings = MemorySettings.from_section({"auto_extract": True, "min_turns": 4, "half_life_days": 7})
    assert settings.half_life_days == 7
    with pytest.raises(ConfigError, match="not a setting"):
        MemorySettings.from_section({"half_lif_days": 7})
