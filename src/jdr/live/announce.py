"""What each change of a campaign announces (issue 20): the campaign's Atom feed and its
outgoing webhook read the same `Announcement`s.

A journal entry announces what it did, as everyone may read it (a hidden roll or a sealed choice
shows only that it was made, never its dice); a fight action is titled by its number within its
fight (`Fight 3, action 5 · Kaito`) and adds who is awaited now and by when, or how the fight
ended (who won, by KO, by rout, the GM's end, a draw) once it has.
A turn gone late, a disclosure and a revealed seed say so. Other changes (a sheet's new
character, a pace set) announce nothing. Announcements are plain text in the reader's language;
`markdown()` escapes what players typed for Discord and Slack.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from jdr.i18n import _
from jdr.markup import escape
from jdr.store import Campaign, Store
from jdr.store.live import DISCLOSE, FIGHT, JOURNAL, LATE, REVEAL, SHEET, Change

ENTRY_KINDS = (JOURNAL, FIGHT, SHEET)


@dataclass(frozen=True)
class Announcement:
    """One change told: a title (`Fight 3 · Kaito`), its lines, the journal entry behind it
    (its permalink), who is awaited after it."""

    seq: int
    title: str
    lines: tuple[str, ...]
    created: datetime
    entry: int | None = None
    fight: int | None = None
    awaited: str | None = None
    journal_line: str | None = None

    def text(self) -> str:
        body = [self.title, *self.lines]
        if self.awaited:
            body.append(self.awaited)
        if self.journal_line:
            body.append(self.journal_line)
        return "\n".join(body)

    def markdown(self, link: str | None = None) -> str:
        """For Discord and a forum that reads Markdown: the title in bold, what players typed
        escaped."""
        return self._rendered(MARKDOWN, link)

    def slack(self, link: str | None = None) -> str:
        """For Slack's mrkdwn: `&`, `<`, `>` escaped (no mention, no link a player typed),
        the title in bold."""
        return self._rendered(SLACK, link)

    def bbcode(self, link: str | None = None) -> str:
        """For a forum: the title in bold, what players typed escaped."""
        return self._rendered(BBCODE, link)

    def messages(self, medium: Medium, limit: int, link: str | None = None) -> list[str]:
        """The announcement in `medium` as messages of at most `limit` characters each
        (`jdr.split.lines`): cut between its lines, the title numbered " (1/2)" on each, who
        is awaited, the journal line and the link on the last. Most fit in one."""
        from jdr.split import lines

        title, body, tail = self._parts(medium, link)
        return lines(title, body, tail, limit)

    def _rendered(self, medium: Medium, link: str | None) -> str:
        title, body, tail = self._parts(medium, link)
        return "\n".join([title, *body, *tail])

    def _parts(self, medium: Medium, link: str | None) -> tuple[str, list[str], list[str]]:
        """The title line, the lines told, and what ends the announcement, in `medium`."""
        title = medium.bold.format(medium.escape(self.title))
        body = [medium.escape(line) for line in self.lines]
        tail = []
        if self.awaited:
            tail.append(medium.italic.format(medium.escape(self.awaited)))
        if self.journal_line:
            tail.append(medium.code.format(medium.escape(self.journal_line)))
        if link:
            tail.append(medium.link.format(medium.escape(link)))
        return title, body, tail


@dataclass(frozen=True)
class Medium:
    """How a chat or a forum writes an announcement: its escape, and its bold, italic, code
    and link forms (`{}` is the escaped text)."""

    escape: Callable[[str], str]
    bold: str
    italic: str
    code: str
    link: str


def _slack_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


MARKDOWN = Medium(lambda t: escape(t, "markdown"), "**{}**", "_{}_", "`{}`", "{}")
SLACK = Medium(_slack_escape, "*{}*", "_{}_", "`{}`", "<{}>")
BBCODE = Medium(lambda t: escape(t, "bbcode"), "[b]{}[/b]", "[i]{}[/i]", "[size=85]{}[/size]",
                "[url]{}[/url]")  # fmt: skip


def announcements(
    store: Store, campaign: Campaign, changes: Sequence[Change], awaited: bool = True
) -> list[Announcement]:
    """The announcements of `changes` (in the current language), oldest first; a fight's last
    one says who is awaited now (unless `awaited` is False: a permalink to an old entry)."""
    from jdr.journal.service import public_entries
    from jdr.journal.words import entry_parts, fight_sentences, journal_lines

    seqs = [c.entry for c in changes if c.kind in ENTRY_KINDS and c.entry is not None]
    rows = store.journal(campaign.id, min(seqs), max(seqs)) if seqs else []
    entries = {e.seq: e for e in public_entries(store, campaign, rows)}
    fights = sorted({int(c.fight) for c in changes if c.fight is not None and c.entry in entries})
    said: dict[int, str] = {}
    if fights and seqs:
        earlier = store.fight_journal(campaign.id, fights, max(seqs))
        said = fight_sentences(
            campaign.system, public_entries(store, campaign, earlier), set(entries)
        )
    numbers = {fight: _numbers(store, fight) for fight in fights}
    last_of_fight = {c.fight: c.seq for c in changes if c.fight is not None}
    found = []
    for change in changes:
        if change.kind in ENTRY_KINDS and change.entry in entries:
            entry = entries[change.entry]
            told = said.get(entry.seq)
            parts = entry_parts(entry, change.fight is not None, told)
            lines = (
                tuple(told.splitlines()) if told else (" · ".join(p for p in parts if p != "-"),)
            )
            title = _entry_title(entry, change, numbers.get(int(change.fight or 0), {}))
            waiting = None
            if (
                awaited
                and change.fight is not None
                and last_of_fight.get(change.fight) == change.seq
            ):
                waiting = _awaited(store, campaign, change.fight)
                if waiting in lines:  # the GM's end told already says how the fight ended
                    waiting = None
            found.append(
                Announcement(
                    change.seq,
                    title,
                    lines,
                    change.created,
                    entry.seq,
                    change.fight,
                    waiting,
                    journal_lines(entry)[0],
                )
            )
        elif change.kind == LATE and change.fight is not None:
            found.append(_late(store, campaign, change))
        elif change.kind == DISCLOSE:
            title = _("{campaign} · the GM disclosed the hidden rolls").format(
                campaign=campaign.name
            )
            found.append(Announcement(change.seq, title, (), change.created))
        elif change.kind == REVEAL:
            title = _("{campaign} · the GM revealed the seed: the journal can be verified").format(
                campaign=campaign.name
            )
            found.append(Announcement(change.seq, title, (), change.created))
    return found


def _numbers(store: Store, fight_id: int) -> dict[int, int]:
    """Each action of the fight by its seq → its number within the fight (1, 2, 3 …)."""
    from jdr.fights.timeline import Timeline
    from jdr.journal.growing import fight_events

    return Timeline.of(fight_events(store, fight_id)).numbers


def _entry_title(entry: object, change: Change, numbers: dict[int, int] | None = None) -> str:
    """`Fight 3, action 5 · Kaito` (an action by its number within its fight), `Sheet Ann`,
    `Roll · Ann`."""
    from jdr.journal.replay import action_number

    context = getattr(entry, "context", None) or {}
    actor = context.get("actor")
    fight = change.fight
    if fight is not None:
        number = (numbers or {}).get(action_number(context.get("action_id")) or 0)
        if not number:  # the opening (action 0), an undo or a redo
            base = _("Fight {fight}").format(fight=fight)
        else:
            base = _("Fight {fight}, action {number}").format(fight=fight, number=number)
    elif "sheet" in context and str(context.get("action", "")).startswith("sheet."):
        base = _("Sheet {name}").format(name=context["sheet"])
    else:
        base = _("Roll")
    return f"{base} · {actor}" if actor else base


def _awaited(store: Store, campaign: Campaign, fight_id: int) -> str | None:
    """`To play: …` for the fight as it is now; how it ended, once it has (`jdr.fights.ending`:
    who won, and how); that it is stuck, when it can no longer end by its rules (None when it
    cannot be read)."""
    from jdr.errors import JdrError
    from jdr.fights.ending import ending_of, stuck, stuck_sentence
    from jdr.fights.service import state
    from jdr.live.pace import pace_of
    from jdr.systems import default_registry

    try:
        system = default_registry().get(campaign.system)
        record = store.fight(fight_id)
        if system.fight is None:
            return None
        now = state(store, fight_id, system.fight)
        ending = ending_of(now, record.status)
        if ending is not None:
            return ending.sentence()
        line = pace_of(system, record, now).line()
        if stuck(system, now, record.status):
            line += " " + stuck_sentence().capitalize() + "."
        return line
    except JdrError:
        return None


def _late(store: Store, campaign: Campaign, change: Change) -> Announcement:
    from jdr.live.pace import deadline_words

    assert change.fight is not None
    record = store.fight(change.fight)
    title = _("Fight {fight} · a turn is late").format(fight=change.fight)
    limit = deadline_words(record.deadline) if record.deadline else "-"
    lines = (_("The deadline ({deadline}) has passed: the GM decides.").format(deadline=limit),)
    return Announcement(
        change.seq,
        title,
        lines,
        change.created,
        None,
        change.fight,
        _awaited(store, campaign, change.fight),
    )
