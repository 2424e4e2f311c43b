"""What the `/jdr` replies share (`jdr.discord.replies`, `jdr.discord.replies_fight`): the
caller's language, the options as Discord sends them and the `key=value` words typed in them,
the campaign and seat a reply needs, and replies cut into messages Discord takes."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from jdr.access import AccessError, Viewer
from jdr.discord.types import MESSAGE_LIMIT, Caller, Options, Reply
from jdr.errors import InputError
from jdr.i18n import _, language
from jdr.markup import escape
from jdr.split import plain
from jdr.store import Campaign, Store

__all__ = [
    "bound",
    "fight_of",
    "flag_option",
    "int_option",
    "journal_notes",
    "keyed",
    "language_of",
    "marked",
    "messages",
    "pairs",
    "reply",
    "seated",
    "speaking",
    "spelled",
    "text_option",
]


def language_of(caller: Caller) -> str:
    """The language a reply is written in: French for a French Discord client, else English."""
    return "fr" if caller.locale.lower().startswith("fr") else "en"


@contextmanager
def speaking(caller: Caller) -> Iterator[None]:
    """Speak the caller's language inside the block: the dispatcher renders a refusal's message
    inside it too (a `JdrError` words itself when its `message()` is read)."""
    with language(language_of(caller)):
        yield


def bound(campaign: Campaign | None) -> Campaign:
    if campaign is None:
        raise InputError(
            _("channel"),
            None,
            _("a channel the GM bound to a campaign"),
            _("this channel is bound to no campaign"),
        )
    return campaign


def seated(viewer: Viewer | None, campaign: Campaign) -> Viewer:
    if viewer is None:
        raise AccessError(
            _("seat"),
            None,
            _("a seat: type /jdr join CODE with the invite code the GM gave you"),
            _("you have no seat in this campaign"),
        )
    viewer.require_campaign(campaign.id)
    return viewer


# --- options ---------------------------------------------------------------------------------


def text_option(options: Options, name: str) -> str | None:
    """Option `name` as text, None when absent or blank."""
    value = options.get(name)
    if value is None or isinstance(value, bool):
        return None
    shown = str(value).strip()
    return shown or None


def int_option(options: Options, name: str) -> int | None:
    """Option `name` as a whole number (Discord sends integers; typed text is read too)."""
    value = options.get(name)
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if not re.fullmatch(r"-?\d{1,12}", text):
        raise InputError(name, text, _("a whole number"))
    return int(text)


def flag_option(options: Options, name: str) -> bool:
    value = options.get(name)
    if isinstance(value, str):
        return value.strip().lower() in ("true", "yes", "oui", "1", "on")
    return bool(value)


def pairs(text: str | None) -> list[str]:
    """`key=value key2=value2` (the free `options` of `roll`, `odds` and `fight act`) → its
    `key=value` words. Quotes keep spaces (`move="Quick Attack"`); a word without `=` belongs
    to the value before it (`move=Quick Attack` reads as one value), so a name with spaces
    needs no quotes; a key with spaces is quoted, or typed with `_` (`énergie_cible=6`).

    >>> pairs('target=Corbeau move=Vive Attaque note="a b"')
    ['target=Corbeau', 'move=Vive Attaque', 'note=a b']
    """
    if text is None or not text.strip():
        return []
    try:
        words = shlex.split(text)
    except ValueError:  # an unclosed quote: the words as typed
        words = text.split()
    found: list[str] = []
    for word in words:
        if "=" in word or not found:
            found.append(word)
        else:
            found[-1] = f"{found[-1]} {word}"
    for pair in found:
        if "=" not in pair:
            raise InputError(_("options"), pair, "key=value key2=value2", _("not a key=value pair"))
    return found


def spelled(key: str, spellings: dict[str, str]) -> str | None:
    """The field `key` stands for among `spellings` (`jdr.labels.field_spellings`): as typed,
    else with its `_` or `-` read as spaces (`énergie_cible` for `énergie cible`: a key with a
    space is typed so, or quoted), else with its spaces read as `_`."""
    from jdr.names import find

    for each in dict.fromkeys(
        [key, key.replace("_", " "), key.replace("-", " "), key.replace(" ", "_")]
    ):
        found = find(each, spellings, _("option"))
        if found is not None:
            return found
    return None


def keyed(pairs_: list[str]) -> dict[str, str]:
    """`key=value` words → {key: value}, as typed (the services read the keys' spellings)."""
    found: dict[str, str] = {}
    for pair in pairs_:
        key, _equals, value = pair.partition("=")
        found[key.strip()] = value.strip()
    return found


# --- messages --------------------------------------------------------------------------------


def messages(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """`text` cut into messages of at most `limit` characters, between lines (a line longer
    than a message is cut after a sentence or at a space: `jdr.split.plain`)."""
    return plain(text, limit)


def reply(lines: list[str], ephemeral: bool = False) -> Reply:
    """A reply of `lines`, cut into messages as Discord takes them."""
    cut = messages("\n".join(lines))
    return Reply(cut[0], tuple(cut[1:]), ephemeral)


def marked(text: str) -> str:
    """A roll's explanation in Markdown: its own marks kept (a dropped die struck `~~1~~`, bold
    `**…**`, `jdr.markup.in_format`), everything else escaped (a label is a player's text)."""
    import re

    found = []
    at = 0
    for mark in re.finditer(r"(~~|\*\*)(.+?)\1", text):
        found.append(escape(text[at : mark.start()], "markdown"))
        found.append(f"{mark[1]}{escape(mark[2], 'markdown')}{mark[1]}")
        at = mark.end()
    found.append(escape(text[at:], "markdown"))
    return "".join(found)


def journal_notes(entry: Any, replayed: bool = False) -> list[str]:
    """The journal's lines under an answer that wrote to it, in italics."""
    from jdr.journal.words import journal_lines

    return [f"*{escape(line, 'markdown')}*" for line in journal_lines(entry, replayed)]


def fight_of(store: Store, viewer: Viewer, campaign: Campaign, given: int | None) -> int:
    """The fight asked for, else the campaign's latest one that goes on (else its latest)."""
    from jdr import table

    viewer.require_campaign(campaign.id)
    if given is not None:
        return int(table.fight_in(store, viewer, campaign, given).id)
    fights = store.fights(campaign.id)
    going = [f for f in fights if f.status != "ended"]
    if not fights:
        raise InputError(
            _("fight"), None, _("a fight of this campaign"), _("this campaign has no fight yet")
        )
    return int((going or fights)[-1].id)
