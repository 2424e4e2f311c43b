"""What each page shows, for the page itself (`jdr.web.pages`) and for the live parts that
refresh it (`jdr.web.live_pages`): one context per page, so a part is rendered from the very
values its full page holds.
"""

from __future__ import annotations

import hashlib
import json
import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from jdr import seat_sheets, table
from jdr.fights.cards import fighter_choice
from jdr.live.seat import fights_paced
from jdr.store import Store
from jdr.store.live import Change
from jdr.web.deps import Signed
from jdr.web.forms import fields_of

__all__ = [
    "FIGHT_LOG_SHOWN",
    "JOURNAL_SHOWN",
    "campaign_live",
    "command_names",
    "fight_context",
    "forms_print",
    "reread",
    "sheet_context",
    "signed_context",
    "stable",
]


T = TypeVar("T")
REREAD_KEPT = 32
"""Answers `reread` keeps per store."""
_REREAD: weakref.WeakKeyDictionary[Store, dict[tuple[Any, ...], Any]] = weakref.WeakKeyDictionary()
_REREAD_LOCK = threading.Lock()


def reread(store: Store, who: Signed, name: str, compute: Callable[[], T]) -> T:
    """What `compute` answers for the signed-in request's campaign, computed once per change of
    the campaign: every write numbers a change (`jdr.store.changes`), and the request's campaign
    was read with its last one, so a kept answer is never older than the campaign it is for.
    For an answer every seat reads alike (the luck audit of the public journal)."""
    key = (name, who.campaign.id, who.campaign.changes, who.viewer.is_gm)
    with _REREAD_LOCK:
        kept = _REREAD.setdefault(store, {})
        if key in kept:
            found: T = kept[key]
            return found
    found = compute()
    with _REREAD_LOCK:
        kept[key] = found
        while len(kept) > REREAD_KEPT:
            kept.pop(next(iter(kept)))
    return found


STABLE_LOOKED_AT = 500
"""More changes than this since a kept `stable` answer: it is computed again."""
_STABLE: weakref.WeakKeyDictionary[Store, dict[tuple[Any, ...], tuple[int, Any]]] = (
    weakref.WeakKeyDictionary()
)


def stable(
    store: Store,
    who: Signed,
    name: str,
    compute: Callable[[], T],
    alters: Callable[[Change], bool],
) -> T:
    """What `compute` answers for the signed-in request's campaign, kept across the campaign's
    changes until one that `alters` it comes: for an answer most changes leave as it was (an
    old journal entry's permalink changes only when the hidden rolls are disclosed or the seed
    revealed, not with each new action). A kept answer is checked against the changes since
    it was computed (one small read); a campaign that counts no change, or whose counter went
    back (a restored backup), computes it again."""
    key = (name, who.campaign.id, who.viewer.is_gm)
    now = who.campaign.changes
    with _REREAD_LOCK:
        kept = _STABLE.setdefault(store, {}).get(key)
    if kept is not None and 0 < kept[0] <= now:
        since = [] if kept[0] == now else store.changes_after(who.campaign.id, kept[0], 501)
        if len(since) <= STABLE_LOOKED_AT and not any(alters(c) for c in since):
            with _REREAD_LOCK:
                _STABLE.setdefault(store, {})[key] = (now, kept[1])
            found: T = kept[1]
            return found
    found = compute()
    with _REREAD_LOCK:
        answers = _STABLE.setdefault(store, {})
        answers.pop(key, None)
        answers[key] = (now, found)
        while len(answers) > REREAD_KEPT:
            answers.pop(next(iter(answers)))
    return found


def signed_context(who: Signed) -> dict[str, Any]:
    """Who is signed in, to which campaign, with the form token every page's forms carry."""
    return {"viewer": who.viewer, "campaign": who.campaign, "csrf": who.csrf}


JOURNAL_SHOWN = 50
"""Entries a journal page shows, the last ones (older ones a link away): a long campaign's
journal stays a light page; the export and the API give it whole."""


FIGHT_LOG_SHOWN = 40
"""Actions a fight's page tells, the last ones; a fight longer than that has its recaps a
button away (`/c/ID/fights/F/parts/recaps`): a long fight's page stays light and quick."""


def campaign_live(store: Any, who: Signed) -> dict[str, Any]:
    """What the campaign page's live part shows."""
    entries = table.journal_page(store, who.viewer, who.campaign, 10)[0]
    return {
        "characters": store.roster(who.campaign.id),
        "paced": fights_paced(store, who.campaign),
        "entries": list(reversed(entries)),
    }


def forms_print(forms: dict[str, Any]) -> str:
    """What a fight's command forms hold (who plays which commands): the forms part is sent
    again only when it changes, so a form being filled in is not wiped by another's action."""
    shape = {actor: [name for name, _fields in commands] for actor, commands in forms.items()}
    return hashlib.sha256(json.dumps(shape, sort_keys=True).encode()).hexdigest()[:16]


def fight_context(store: Store, who: Signed, fight_id: int) -> dict[str, Any]:
    """What a fight's page shows (and its live parts: `jdr.web.live_pages`): a form for each
    command the viewer may give, with the fields that are theirs to decide (`Command.theirs`:
    the GM sees every field; a player not a field another fighter's player or the GM decides),
    and for each key naming a fighter the fighters it may name (`fighter_choice`: enemies
    first, the first enemy chosen for a target, those out of the fight left out)."""
    page = table.fight_page(store, who.viewer, who.campaign, fight_id, last=FIGHT_LOG_SHOWN)
    system = table.system_of(who.campaign)
    commands = getattr(system, "fight_commands", None)
    seat = table.seat_of(who.viewer)
    forms: dict[str, list[tuple[str, list[Any]]]] = {}
    for actor, names in page.mine.items():
        for name in names:
            if commands is None:
                forms.setdefault(actor, []).append((name, []))
                continue
            command = commands.get(name)
            theirs = command.theirs(seat, actor)
            fields = command.keys.model_fields
            if not command.owner.allows(seat, actor, {}) or any(
                info.is_required() and key not in theirs for key, info in fields.items()
            ):
                continue  # someone else's command, or one with a key another must give
            skip = frozenset(fields) - set(theirs)
            forms.setdefault(actor, []).append((name, fields_of(command.keys, skip)))
    cards = page.cards()
    picks = {
        (actor, name, f.name): fighter_choice(
            cards, actor, f.name.startswith("target"), f.fighter == "standing"
        )
        for actor, offered in forms.items()
        for name, fields in offered
        for f in fields
        if f.fighter
    }
    return {
        **signed_context(who),
        "fight": page,
        "forms": forms,
        "picks": picks,
        "fingerprint": forms_print(forms) + _picks_print(picks),
        "values": {},
        "refused": None,
        "error": None,
        "undo_error": None,
        "rolling": {c.name for c in commands if c.odds is not None} if commands else set(),
        "command_names": command_names(system),
    }


def _picks_print(picks: dict[tuple[str, str, str], Any]) -> str:
    """What the fighter keys offer, in the forms' fingerprint: a fighter knocked out changes
    the targets a form offers, so the forms part is sent again."""
    shape = sorted((list(key), list(c.names), c.chosen or "") for key, c in picks.items())
    return hashlib.sha256(repr(shape).encode()).hexdigest()[:8]


def command_names(system: Any) -> dict[str, str]:
    """Each fight command's display name in the reader's language (its buttons, the awaited
    commands), by its name (a system without command models: none, the page shows its names
    as words)."""
    commands = getattr(system, "fight_commands", None)
    return {c.name: c.shown() for c in commands} if commands is not None else {}


def sheet_context(
    store: Store, who: Signed, character_id: int, text: str | None = None
) -> dict[str, Any]:
    """What a character's sheet page shows (and its history part): its layout, its TOML (`text`
    as typed, when an edit was refused), its last revisions, whether the viewer may edit it."""
    from jdr.characters.views import history
    from jdr.sheet_view import layout
    from jdr.sheet_words import words_of
    from jdr.systems import default_registry
    from jdr.toml_write import to_toml

    character = table.character_in(store, who.viewer, who.campaign, character_id)
    _character, lines = history(store, who.campaign, character.name, last=20)
    words = words_of(default_registry().get(who.campaign.system))
    return {
        **signed_context(who),
        "character": character,
        "layout": layout({**character.sheet, "name": character.name}, words),
        "toml": text if text is not None else to_toml(character.sheet),
        "history": list(reversed(lines)),
        "editable": who.viewer.may_act_for(character.name),
        "undoable": who.viewer.is_gm and seat_sheets.undoable(store, character.id),
        "error": None,
    }
