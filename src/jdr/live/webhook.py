"""A campaign's outgoing webhook (issue 20): each change's announcement posted to a Discord or
Slack channel, in their message formats.

`deliver(store, now)` posts what every webhook has not announced yet, oldest first, and notes
how far each got (`Store.webhook_delivered`): a server that stops mid-way resumes where it was,
so nothing is skipped (a message whose answer was lost may be posted twice: at least once,
never skipped). A refusal or a silent host is retried later, waiting longer each time (up to an
hour), and its error is kept for the GM to read.

Where a webhook may post: Discord's and Slack's hosts over HTTPS, and the hosts the server's
operator names (`jdr serve --webhook-host HOST`, for a self-hosted chat or a test receiver; over
HTTP too). A GM cannot make the server call anything else (an internal address, a cloud's
metadata service). No redirect is followed; answers are read up to 64 KiB; 5 s per request.
What players typed cannot ping anyone: Discord's mentions are disabled, Slack's `<` `>` `&`
escaped.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from jdr.errors import InputError
from jdr.i18n import _, language
from jdr.live.announce import Announcement, announcements
from jdr.store import Store
from jdr.store.rows import aware

FORMATS = ("discord", "slack")
KNOWN_HOSTS = ("discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com",
               "hooks.slack.com")  # fmt: skip
TIMEOUT_S = 5.0
MAX_ANSWER = 64 * 1024
BATCH = 20
"""Changes read per webhook and delivery round (Discord allows about 30 messages a minute)."""
DISCORD_LIMIT = 2000
SLACK_LIMIT = 3000
LONGEST_WAIT = timedelta(hours=1)

Sender = Callable[[str, bytes], None]


def check_url(url: str, extra_hosts: Sequence[str] = ()) -> str:
    """A webhook URL the server may post to (see the module), else `InputError` saying which.

    >>> check_url("https://discord.com/api/webhooks/1/abc")
    'https://discord.com/api/webhooks/1/abc'
    >>> check_url("http://127.0.0.1:9000/hook", ["127.0.0.1"])
    'http://127.0.0.1:9000/hook'
    >>> try:
    ...     check_url("http://169.254.169.254/latest")
    ... except InputError as refused:
    ...     print(refused.allowed)
    https://discord.com/…, https://hooks.slack.com/… (or a host the server allows)
    """
    allowed = _("https://discord.com/…, https://hooks.slack.com/… (or a host the server allows)")
    text = url.strip()
    if len(text) > 2000 or any(ord(c) < 33 for c in text):
        raise InputError("webhook", text[:60], allowed)
    parts = urlsplit(text)
    host = (parts.hostname or "").lower()
    extra = {h.lower() for h in extra_hosts}
    known = host in KNOWN_HOSTS and parts.scheme == "https"
    operator = host in extra and parts.scheme in ("https", "http")
    if parts.username or parts.password or not (known or operator):
        raise InputError("webhook", text[:60], allowed)
    return text


def check_format(fmt: str) -> str:
    found = fmt.strip().lower()
    if found not in FORMATS:
        raise InputError("format", fmt, ", ".join(FORMATS))
    return found


def message(fmt: str, announcement: Announcement, link: str | None = None) -> bytes:
    """The JSON body of one announcement in the chat's format (the first of `messages`: an
    announcement too long for one message is cut in several).

    >>> from datetime import UTC, datetime
    >>> told = Announcement(1, "Fight 1 · @everyone", ("Kaito attacks.",), datetime.now(UTC))
    >>> json.loads(message("discord", told))["allowed_mentions"]
    {'parse': []}
    >>> json.loads(message("slack", told))["text"].splitlines()[0]
    '*Fight 1 · @everyone*'
    """
    return messages(fmt, announcement, link)[0]


def messages(fmt: str, announcement: Announcement, link: str | None = None) -> list[bytes]:
    """The JSON bodies of one announcement in the chat's format, each message within the chat's
    limit (`Announcement.messages`: Discord's 2,000 characters, Slack's 3,000), cut between
    lines, never inside one."""
    from jdr.live.announce import MARKDOWN, SLACK

    bodies: list[dict[str, object]]
    if fmt == "slack":
        texts = announcement.messages(SLACK, SLACK_LIMIT, link)
        bodies = [{"text": text[:SLACK_LIMIT], "mrkdwn": True} for text in texts]
    else:
        quiet: dict[str, list[str]] = {"parse": []}  # no @everyone, no pinged player
        texts = announcement.messages(MARKDOWN, DISCORD_LIMIT, link)
        bodies = [
            {"content": text[:DISCORD_LIMIT], "username": "jdr", "allowed_mentions": quiet}
            for text in texts
        ]
    return [json.dumps(body, ensure_ascii=False).encode() for body in bodies]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def post(url: str, body: bytes) -> None:
    """POST `body` as JSON; `OSError` (with what went wrong) unless the answer is a 2xx."""
    opener = urllib.request.build_opener(_NoRedirect)
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={"Content-Type": "application/json", "User-Agent": "jdr-webhook"},
    )
    try:
        with opener.open(request, timeout=TIMEOUT_S) as answer:
            answer.read(MAX_ANSWER)
            status = answer.status
    except urllib.error.HTTPError as refused:
        raise OSError(f"HTTP {refused.code}") from None
    except (urllib.error.URLError, TimeoutError, ValueError) as failed:
        raise OSError(str(getattr(failed, "reason", failed))[:200]) from None
    if not 200 <= status < 300:
        raise OSError(f"HTTP {status}")


@dataclass(frozen=True)
class Delivery:
    """What one round did for one campaign's webhook."""

    campaign_id: int
    posted: int
    error: str | None = None


def deliver(
    store: Store,
    now: datetime,
    base_url: str | None = None,
    sender: Sender = post,
    extra_hosts: Sequence[str] = (),
) -> list[Delivery]:
    """Post every webhook's next changes (at most `BATCH` each); what was done."""
    done = []
    for hook in store.webhooks():
        if hook.retry_at is not None and aware(hook.retry_at) > now:
            continue
        changes = store.changes_after(hook.campaign_id, hook.delivered, BATCH)
        if not changes:
            continue
        campaign = store.campaign_by_id(hook.campaign_id)
        posted = 0
        try:
            check_url(hook.url, extra_hosts)  # the operator may have narrowed the hosts since
            with language(hook.lang):
                told = announcements(store, campaign, changes)
                for announcement in told:
                    link = _link(base_url, hook.campaign_id, announcement)
                    for body in messages(hook.format, announcement, link):
                        sender(hook.url, body)
                    posted += 1
                    store.webhook_delivered(hook.campaign_id, announcement.seq)
        except (OSError, InputError) as failed:
            wait = min(LONGEST_WAIT, timedelta(seconds=5 * 2 ** min(hook.failures, 10)))
            store.webhook_failed(hook.campaign_id, str(failed), now + wait)
            done.append(Delivery(hook.campaign_id, posted, str(failed)))
            continue
        store.webhook_delivered(hook.campaign_id, changes[-1].seq)
        done.append(Delivery(hook.campaign_id, posted))
    return done


def _link(base_url: str | None, campaign_id: int, announcement: Announcement) -> str | None:
    if base_url is None or announcement.entry is None:
        return None
    return f"{base_url.rstrip('/')}/c/{campaign_id}/journal/{announcement.entry}"
