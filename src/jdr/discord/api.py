"""jdr's calls to Discord's HTTP API: follow-up messages of an interaction, and registering the
slash command.

Every call goes to `api_base` (Discord's API by default; a test's fake on 127.0.0.1), follows no
redirect, waits `TIMEOUT_S` at most and reads at most `MAX_ANSWER` bytes of the answer. The bot
token is sent in the `Authorization` header only: never stored, never logged, never in an
error message.
"""

from __future__ import annotations

import json
import logging
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from typing import Any

from jdr.errors import InputError, JdrError
from jdr.i18n import _

__all__ = [
    "API_BASE",
    "DiscordRefusedError",
    "DiscordUnreachableError",
    "check_api_base",
    "followups",
    "register",
    "send",
]

API_BASE = "https://discord.com/api/v10"
TIMEOUT_S = 5.0
MAX_ANSWER = 64 * 1024
FOLLOWUPS_S = 30.0
"""The longest all the follow-ups of one interaction may take."""
USER_AGENT = "DiscordBot (jdr, 1)"
_SNOWFLAKE = re.compile(r"^[0-9]{1,32}$")
_TOKEN = re.compile(r"^[A-Za-z0-9_.\-]{1,500}$")
log = logging.getLogger("jdr.discord")

Sender = Callable[[str, str, bytes | None, dict[str, str]], tuple[int, bytes]]
"""`(method, url, body, headers) -> (status, answer)`; `OSError` when no answer came."""


class DiscordRefusedError(JdrError):
    """Discord's API refused a call: its status and what it said."""

    code = "discord_refused"

    def __init__(self, status: int, said: str) -> None:
        self.status = status
        self.said = said
        super().__init__(f"Discord answered {status}: {said}")

    def message(self) -> str:
        return _("Discord refused: HTTP {status}: {said}").format(
            status=self.status, said=self.said
        )


class DiscordUnreachableError(JdrError):
    """Discord's API did not answer (a network failure, a timeout)."""

    code = "discord_unreachable"

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"Discord's API did not answer: {reason}")

    def message(self) -> str:
        return _("Discord's API did not answer: {reason}").format(reason=self.reason)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def send(method: str, url: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
    """One HTTP call (see the module): the status and the answer's first bytes."""
    opener = urllib.request.build_opener(_NoRedirect)
    request = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with opener.open(request, timeout=TIMEOUT_S) as answer:
            return int(answer.status), answer.read(MAX_ANSWER)
    except urllib.error.HTTPError as refused:
        return int(refused.code), refused.read(MAX_ANSWER)
    except (urllib.error.URLError, TimeoutError, ValueError) as failed:
        raise OSError(str(getattr(failed, "reason", failed))[:200]) from None


def check_api_base(url: str) -> str:
    """An API base URL: http(s), no user or password, no trailing slash.

    >>> check_api_base("http://127.0.0.1:9000/api/")
    'http://127.0.0.1:9000/api'
    """
    text = url.strip().rstrip("/")
    if not re.match(r"^https?://[^/@\s]+(/[^\s]*)?$", text):
        raise InputError(
            "--api-base", url[:60], _("an http(s) URL, like {url}").format(url=API_BASE)
        )
    return text


def _said(answer: bytes) -> str:
    """What Discord said in a refusal: its JSON `message` (and the fields it names), else text."""
    try:
        found = json.loads(answer.decode("utf-8", "replace"))
    except ValueError:
        return answer.decode("utf-8", "replace")[:300] or "-"
    if not isinstance(found, dict):
        return str(found)[:300]
    said = str(found.get("message") or found)[:300]
    errors = found.get("errors")
    if errors:
        said += " " + json.dumps(errors, ensure_ascii=False)[:500]
    return said


def register(
    application_id: str,
    token: str,
    commands: Sequence[dict[str, Any]],
    guild_id: str | None = None,
    api_base: str = API_BASE,
    sender: Sender = send,
) -> list[dict[str, Any]]:
    """Overwrite the application's commands (a guild's, with `guild_id`: they show at once;
    global ones may take a while) with `commands`; the commands Discord now holds.
    `DiscordRefusedError` with what Discord said, `DiscordUnreachableError` when it did not
    answer."""
    for name, value in (("--application-id", application_id), ("--guild", guild_id)):
        if value is not None and not _SNOWFLAKE.match(value):
            raise InputError(name, value[:40], _("a Discord id (digits)"))
    if not token.strip() or any(ord(c) < 33 for c in token.strip()):
        raise InputError("--token", None, _("the bot's token (Developer Portal, Bot)"))
    base = check_api_base(api_base)
    where = f"/guilds/{guild_id}" if guild_id else ""
    url = f"{base}/applications/{application_id}{where}/commands"
    headers = {
        "Authorization": f"Bot {token.strip()}",
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
    }
    body = json.dumps(list(commands), ensure_ascii=False).encode()
    try:
        status, answer = sender("PUT", url, body, headers)
    except OSError as failed:
        raise DiscordUnreachableError(str(failed).replace(token.strip(), "…")) from None
    if not 200 <= status < 300:
        raise DiscordRefusedError(status, _said(answer))
    try:
        found = json.loads(answer or b"[]")
    except ValueError:
        found = []
    return found if isinstance(found, list) else []


def followups(
    application_id: str,
    token: str,
    messages: Sequence[dict[str, Any]],
    api_base: str = API_BASE,
    sender: Sender = send,
    budget_s: float = FOLLOWUPS_S,
) -> int:
    """Post `messages` as the interaction's follow-ups, in order; how many were posted. It stops
    at the first failure (said in the log, without the interaction's token) and when `budget_s`
    has passed."""
    if not _SNOWFLAKE.match(application_id) or not _TOKEN.match(token):
        log.warning("a Discord follow-up was not sent: malformed application id or token")
        return 0
    url = f"{api_base.rstrip('/')}/webhooks/{application_id}/{token}"
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT}
    until = time.monotonic() + budget_s
    posted = 0
    for message in messages:
        if time.monotonic() > until:
            log.warning("Discord follow-ups stopped after %d: out of time", posted)
            break
        body = json.dumps(message, ensure_ascii=False).encode()
        try:
            status, answer = sender("POST", url, body, headers)
        except OSError as failed:
            log.warning("a Discord follow-up failed: %s", failed)
            break
        if not 200 <= status < 300:
            log.warning("Discord refused a follow-up: HTTP %d: %s", status, _said(answer))
            break
        posted += 1
    return posted
