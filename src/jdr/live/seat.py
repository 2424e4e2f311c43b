"""What a seat may do at the live table (issue 20), over `jdr.live`'s services: the GM sets a
fight's pace, the campaign's webhook and its feed links; everyone reads a journal entry's
permalink and the pace of each fight. Refusals are `AccessError`s naming who may.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from jdr.access import Viewer, token_hash
from jdr.i18n import _
from jdr.live.announce import Announcement
from jdr.store import Campaign, Store
from jdr.systems.protocol import Json

FEED_TOKEN_BYTES = 32


def set_pace(
    store: Store,
    viewer: Viewer,
    campaign: Campaign,
    fight_id: int,
    deadline: str | None,
    on_late: str | None,
) -> Json:
    """The GM sets a fight's turn deadline (`48h`, `none`) and what happens when it passes."""
    from jdr.live import pace
    from jdr.table import fight_in

    viewer.require_gm("pace")
    fight_in(store, viewer, campaign, fight_id)
    return pace.set_pace(store, fight_id, deadline, on_late)


@dataclass(frozen=True)
class FightPace:
    """A fight's line on the campaign page: its id, fighters, status and pace."""

    id: int
    participants: list[str]
    status: str
    line: str
    late: bool
    deadline: str | None


def fights_paced(store: Store, campaign: Campaign, now: datetime | None = None) -> list[FightPace]:
    """Each fight of the campaign with who is awaited and by when (as every page shows it)."""
    from jdr.errors import JdrError
    from jdr.fights.service import state
    from jdr.live.pace import deadline_words, pace_of
    from jdr.table import system_of

    try:
        system = system_of(campaign)
    except JdrError:
        system = None
    found = []
    for record in store.fights(campaign.id):
        names = [str(n) for n in record.participants]
        limit = deadline_words(record.deadline) if record.deadline else None
        if system is None or system.fight is None or record.status != "open":
            found.append(FightPace(record.id, names, record.status, "", False, limit))
            continue
        paced = pace_of(system, record, state(store, record.id, system.fight), now)
        found.append(FightPace(record.id, names, record.status, paced.line(now), paced.late, limit))
    return found


# --- the webhook -----------------------------------------------------------------------------


def set_webhook(
    store: Store,
    viewer: Viewer,
    campaign: Campaign,
    url: str,
    fmt: str,
    lang: str,
    extra_hosts: tuple[str, ...] = (),
) -> None:
    """The GM points the campaign's announcements at a Discord or Slack webhook."""
    from jdr.i18n import normalize_language
    from jdr.live.webhook import check_format, check_url

    viewer.require_gm("webhook")
    store.set_webhook(
        campaign.id,
        check_url(url, extra_hosts),
        check_format(fmt),
        normalize_language(lang) or "en",
    )


def remove_webhook(store: Store, viewer: Viewer, campaign: Campaign) -> bool:
    viewer.require_gm("webhook")
    return store.remove_webhook(campaign.id)


def webhook_shown(store: Store, viewer: Viewer, campaign: Campaign) -> Json | None:
    """The webhook as its settings show it to the GM: its host only (the URL holds a secret),
    its format, language, and how its last posts went. None for anyone else, or none set."""
    from urllib.parse import urlsplit

    if not viewer.is_gm:
        return None
    hook = store.webhook(campaign.id)
    if hook is None:
        return None
    return {
        "host": urlsplit(hook.url).hostname,
        "format": hook.format,
        "lang": hook.lang,
        "delivered": hook.delivered,
        "failures": hook.failures,
        "error": hook.last_error,
    }


# --- feeds -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MadeFeed:
    id: int
    token: str
    lang: str


def make_feed(store: Store, viewer: Viewer, campaign: Campaign, lang: str) -> MadeFeed:
    """A new secret feed link (its token shown once; the store keeps its SHA-256): anyone with
    it reads the campaign's announcements, as a spectator would."""
    from jdr.i18n import normalize_language

    viewer.require_gm("feed")
    token = secrets.token_urlsafe(FEED_TOKEN_BYTES)
    chosen = normalize_language(lang) or "en"
    return MadeFeed(store.add_feed(campaign.id, token_hash(token), chosen), token, chosen)


def revoke_feed(store: Store, viewer: Viewer, campaign: Campaign, feed_id: int) -> None:
    from jdr.errors import NotFoundError

    viewer.require_gm("feed")
    if not store.revoke_feed(campaign.id, feed_id):
        raise NotFoundError("feed", feed_id, _("a feed link of this campaign"))


def feed_of(store: Store, token: str) -> Any:
    """The live feed a secret link names (`NotFoundError` whatever is wrong with it)."""
    from jdr.access import well_formed
    from jdr.errors import NotFoundError

    found = store.feed(token_hash(token)) if well_formed(token) else None
    if found is None:
        raise NotFoundError("feed", None, _("a feed link the GM gave"))
    return found


# --- permalinks ------------------------------------------------------------------------------


def alters_entries(change: Any) -> bool:
    """Whether a change alters how entries already written are told: the hidden rolls
    disclosed, the seed revealed. A new entry, action (an undo too: it is told as its own
    entry, and an action keeps its number) or sheet leaves them as they were."""
    from jdr.store.live import DISCLOSE, REVEAL

    return bool(change.kind in (DISCLOSE, REVEAL))


def entry_announcement(store: Store, campaign: Campaign, seq: int) -> Announcement:
    """Journal entry `seq` as everyone may read it, told as the feed tells it (a hidden roll
    shows only that it was made): its permalink page and post-ready snippets."""
    from jdr.errors import NotFoundError
    from jdr.live.announce import announcements
    from jdr.store.live import FIGHT, JOURNAL, Change

    rows = store.journal(campaign.id, seq, seq) if 0 < seq < 2**62 else []
    if not rows:
        raise NotFoundError("entry", seq, _("an entry of this campaign's journal"))
    context = rows[0].entry.get("context") or {}
    fight = context.get("fight") if not rows[0].hidden or rows[0].disclosed else None
    if fight is None and rows[0].action_id.startswith("#fight"):
        fight = int(rows[0].action_id[len("#fight") :].split(".")[0])
    kind = FIGHT if fight is not None else JOURNAL
    written = str((rows[0].entry or {}).get("time") or "")
    try:
        when = datetime.fromisoformat(written.replace("Z", "+00:00"))
    except ValueError:
        when = datetime.now(UTC)
    change = Change(0, kind, fight, seq, (), when)
    found = announcements(store, campaign, [change], awaited=False)
    if not found:
        raise NotFoundError("entry", seq, _("an entry of this campaign's journal"))
    return found[0]
