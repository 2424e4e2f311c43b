"""`jdr serve` and `jdr demo --serve`: the web table, on the database given or on a ready
campaign in a throw-away database."""

from __future__ import annotations

import shutil
import signal
import tempfile
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from jdr.errors import InputError
from jdr.i18n import _


def server() -> Callable[..., None]:
    """`jdr.web.app.serve`, or an `InputError` saying to install the `web` extra."""
    try:
        from jdr.web.app import serve
    except ImportError as missing:
        raise InputError(
            "serve", str(missing.name), "pip install 'jdr[web]'", _("the web extra is missing")
        ) from None
    return serve


def demo_serve(host: str, port: int, open_browser: bool) -> None:
    """Make the demo campaign (`jdr.demo_table`) in a database of its own, print a link per
    seat, open the GM's in the browser (unless told not to) and serve until interrupted; the
    database is removed when the server stops."""
    serve = server()
    from jdr.demo_table import prepare
    from jdr.store import open_store

    folder = Path(tempfile.mkdtemp(prefix="jdr-demo-"))  # 0700, the user's own
    url = f"sqlite:///{folder / 'demo.db'}"
    try:
        store = open_store(url)
        try:
            table = prepare(store)
        finally:
            store.close()

        def intro(address: str) -> None:
            links = {seat.role: f"{address}/invite/{seat.token}" for seat in table.seats}
            print(
                _("Campaign {name} is ready: {fighters} fight, and a first roll is in").format(
                    name=table.campaign, fighters=_(" against ").join(table.fighters)
                ),
                flush=True,
            )
            print(_("  the GM:        {link}").format(link=links["gm"]), flush=True)
            print(
                _("  {character}'s player: {link}").format(
                    character=table.fighters[0], link=links["player"]
                ),
                flush=True,
            )
            print(_("  a spectator:   {link}").format(link=links["spectator"]), flush=True)
            print(
                _(
                    "Each link opens one seat, once (open the others in another browser or a"
                    " private window). Ctrl-C stops the server and throws the database away."
                ),
                flush=True,
            )
            if open_browser:
                import webbrowser

                webbrowser.open(links["gm"])

        # the server hands a stop signal back once it has shut down: ours ends the command
        # here, through the `finally` below, instead of killing the process before it
        signal.signal(signal.SIGTERM, _stopped)
        with suppress(KeyboardInterrupt):
            serve(host, port, url, None, intro)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _stopped(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt
