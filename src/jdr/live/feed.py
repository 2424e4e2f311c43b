"""A campaign's Atom feed (issue 20): its latest announcements (`jdr.live.announce`), for a feed
reader or a forum's RSS block, at a secret link (`/feeds/TOKEN`: a feed reader sends no cookie).

>>> from datetime import UTC, datetime
>>> from jdr.live.announce import Announcement
>>> told = Announcement(3, "Fight 1 · Kaito", ("Kaito attacks <Corbeau>.",),
...                     datetime(2026, 12, 2, tzinfo=UTC), entry=7)
>>> xml = atom(1, "Mardi", [told], "https://t.example/feeds/x", "https://t.example", ["Ana"])
>>> "<title>Fight 1 · Kaito</title>" in xml, "&lt;Corbeau&gt;" in xml
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from xml.etree import ElementTree

from jdr.i18n import current_language
from jdr.live.announce import Announcement, announcements
from jdr.store import Campaign, Store

ATOM = "http://www.w3.org/2005/Atom"
LATEST = 50
"""Announcements a feed holds."""
READ = 300
"""Changes read to find them (most changes announce something)."""


def atom(
    campaign_id: int,
    name: str,
    told: Sequence[Announcement],
    self_url: str,
    base_url: str | None,
    awaited: Sequence[str] = (),
) -> str:
    """The Atom document, newest entry first."""
    ElementTree.register_namespace("", ATOM)
    feed = ElementTree.Element(f"{{{ATOM}}}feed", {"xml:lang": current_language()})
    _text(feed, "id", f"urn:jdr:campaign:{campaign_id}")
    _text(feed, "title", name)
    if awaited:
        _text(feed, "subtitle", " ".join(awaited))
    newest = max((a.created for a in told), default=datetime.now(UTC))
    _text(feed, "updated", _time(newest))
    ElementTree.SubElement(feed, f"{{{ATOM}}}link", {"rel": "self", "href": self_url})
    author = ElementTree.SubElement(feed, f"{{{ATOM}}}author")
    _text(author, "name", "jdr")
    for announcement in sorted(told, key=lambda a: a.seq, reverse=True):
        entry = ElementTree.SubElement(feed, f"{{{ATOM}}}entry")
        _text(entry, "id", f"urn:jdr:campaign:{campaign_id}:change:{announcement.seq}")
        _text(entry, "title", announcement.title)
        _text(entry, "updated", _time(announcement.created))
        if base_url and announcement.entry is not None:
            href = f"{base_url.rstrip('/')}/c/{campaign_id}/journal/{announcement.entry}"
            ElementTree.SubElement(entry, f"{{{ATOM}}}link", {"rel": "alternate", "href": href})
        content = ElementTree.SubElement(entry, f"{{{ATOM}}}content", {"type": "text"})
        content.text = announcement.text()
    body = ElementTree.tostring(feed, encoding="unicode")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + body


def campaign_feed(store: Store, campaign: Campaign, self_url: str, base_url: str | None) -> str:
    """The campaign's feed as it is now, in the current language."""
    from jdr.errors import JdrError
    from jdr.fights.ending import ending_of
    from jdr.fights.service import state
    from jdr.live.pace import pace_of
    from jdr.systems import default_registry

    head = store.change_heads([campaign.id]).get(campaign.id, 0)
    told = announcements(
        store, campaign, store.changes_after(campaign.id, max(0, head - READ), READ)
    )
    awaited = []
    try:
        system = default_registry().get(campaign.system)
    except JdrError:
        system = None
    for record in store.fights(campaign.id):
        if system is None or system.fight is None or record.status != "open":
            continue
        now = state(store, record.id, system.fight)
        if ending_of(now) is not None:  # over by its rules: nobody is awaited
            continue
        awaited.append(f"#{record.id}: {pace_of(system, record, now).line()}")
    return atom(campaign.id, campaign.name, told[-LATEST:], self_url, base_url, awaited)


def _text(parent: ElementTree.Element, tag: str, text: str) -> None:
    ElementTree.SubElement(parent, f"{{{ATOM}}}{tag}").text = text


def _time(moment: datetime) -> str:
    from jdr.store.rows import aware

    return aware(moment).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
