"""`recollect ui`: serve the local page. Argument handling only; the page lives in recollect.ui."""

from __future__ import annotations

import sys

import click


@click.command("ui")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="0 takes any free port.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in your browser.")
def ui_cmd(port: int, open_browser: bool) -> None:
    """Browse history and review memories in a local web page.

    The first line printed is the page's URL, with the token every request needs. The page listens
    on 127.0.0.1 only; stop it with Ctrl-C.
    """
    from recollect.ui.server import serve

    def announce(url: str) -> None:
        click.echo(url)
        sys.stdout.flush()
        click.echo("Serving on 127.0.0.1 only; Ctrl-C stops it.", err=True)

    try:
        serve(port=port, open_browser=open_browser, announce=announce)
    except OSError as exc:
        from recollect.cli.output import fail

        fail(f"cannot listen on 127.0.0.1:{port} ({exc.strerror}); pick another --port, or 0 for any free one")
    except KeyboardInterrupt:
        pass
