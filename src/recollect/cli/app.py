"""The one `Recollect` of a CLI process: built on first use (after any first-use config is written),
shared by every library call of the command, and closed when the command ends."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from recollect.app import Recollect

_KEY = "recollect.app"


def current_app() -> Recollect:
    root = click.get_current_context().find_root()
    app = root.meta.get(_KEY)
    if app is None:
        from recollect.app import Recollect  # loads the library: only commands that use it pay for it

        app = root.with_resource(Recollect())
        root.meta[_KEY] = app
    return app
