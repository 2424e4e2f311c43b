"""A journal entry in words, for every front end: the line a forum post quotes under a roll,
one plain line per entry (`jdr journal show`, the web journal, the feed), what a fight action did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jdr.i18n import _

if TYPE_CHECKING:
    from jdr.journal.entries import Entry
    from jdr.store import Store
    from jdr.systems.protocol import Action, RuleSystem

Json = dict[str, Any]


def journal_lines(entry: Entry, replayed: bool = False) -> list[str]:
    """The line a forum post quotes under a roll: entry number, short hash, commitment."""
    from jdr.journal.entries import short

    lines = [
        _("journal #{seq} · {hash} · seed commitment {commitment}…").format(
            seq=entry.seq, hash=short(entry.hash), commitment=entry.commitment[:16]
        )
    ]
    source = (entry.dice or {}).get("source")
    if source == "given":
        lines.append(_("faces typed in by the player: recorded, not derived from the seed"))
    elif source not in (None, "derived"):
        lines.append(_("faces from a test seed: recorded, not derived from the campaign's seed"))
    if replayed:
        lines.append(_("this action id was already rolled: the same roll again"))
    if entry.hidden and "fight" in (entry.context or {}):
        lines.append(_("sealed choice: only its hash is public until every fighter has chosen"))
    elif entry.hidden:
        lines.append(_("hidden roll: only its hash is public until `jdr journal disclose`"))
    return lines


def journal_line(entry: Entry) -> str:
    """`journal #12 · 3fa9c2d1e0 · 5e1b…`: the line a post-ready roll ends with."""
    from jdr.journal.entries import short

    return f"journal #{entry.seq} · {short(entry.hash)} · {entry.commitment[:16]}…"


def recap_texts(
    system: RuleSystem, action: Action[Any], explanation: str, entry: Entry
) -> dict[str, str]:
    """A roll ready to paste on a forum or a chat (the web's result page, Discord): BBCode
    and Markdown, every line escaped for its medium (a name a player typed stays text)."""
    from jdr.i18n import current_language
    from jdr.labels import action_label
    from jdr.markup import escape
    from jdr.systems.protocol import display_name

    title = f"{display_name(system, current_language())} · {action_label(action)}"
    line = journal_line(entry)
    lines = explanation.splitlines()
    bbcode = "\n".join(
        [f"[b]{escape(title, 'bbcode')}[/b]"]
        + [escape(text, "bbcode") for text in lines]
        + [f"[size=85]{escape(line, 'bbcode')}[/size]"]
    )
    markdown = "\n".join(
        [f"**{escape(title, 'markdown')}**", ""]
        + [escape(text, "markdown") + "  " for text in lines]
        + ["", f"*{escape(line, 'markdown')}*"]
    )
    return {"bbcode": bbcode, "markdown": markdown}


def recap_footer(entries: list[Entry]) -> str | None:
    """The journal line under a recap, or None: one line however many entries it tells, the
    first and the last (`journal #12 3fa9c2d1e0 … #41 77ab01c2d3 · seed commitment …`; two
    entries `#12 …, #13 …`; one, itself). The chain binds every entry between them to the
    last one's hash: `jdr verify --witness` checks both heads (`jdr.journal.verify.
    witnesses_in`), and a journal rewritten anywhere up to the last fails."""
    from jdr.journal.entries import short

    if not entries:
        return None
    ends = [entries[0], entries[-1]] if len(entries) > 1 else entries
    joiner = ", " if len(entries) == 2 else " … "
    pins = joiner.join(_("#{seq} {hash}").format(seq=e.seq, hash=short(e.hash)) for e in ends)
    return _("journal {pins} · seed commitment {commitment}…").format(
        pins=pins, commitment=entries[-1].commitment[:16]
    )


def entry_line(entry: Entry, fight: bool, said: str | None) -> str:
    """`#12 3fa9c2d1e0 · Kaito · fight 1 · d20:15 · Kaito attacks Corbeau. …`: one entry as
    everyone may read it (a hidden one: its number, hash and what it is)."""
    from jdr.journal.entries import short

    parts = entry_parts(entry, fight, said)
    if not entry.disclosed:
        return f"#{entry.seq} {short(entry.hash)} · {parts[0]}"
    actor = str((entry.context or {}).get("actor") or "-")
    return f"#{entry.seq} {short(entry.hash)} · " + " · ".join([actor, *parts])


def entry_parts(entry: Entry, fight: bool, said: str | None) -> list[str]:
    """What an entry did, without its number, hash and actor: the action, its dice, what came
    of it (or its sentences); a hidden one says only what it is."""
    if not entry.disclosed:
        return [_("sealed choice") if fight else _("hidden roll")]
    context = entry.context or {}
    rolls = (entry.dice or {}).get("rolls", [])
    dice = " ".join(f"d{size}:{face}" for size, face in rolls)
    if (entry.dice or {}).get("source") not in ("derived", None):
        dice = f"{dice} ({(entry.dice or {}).get('source')})".strip()
    return [
        action_text(context, said is not None),
        dice or "-",
        said or result_text(entry.result or {}),
    ]


def fight_sentences(
    system_id: str, entries: list[Entry], only: set[int] | None = None
) -> dict[int, str]:
    """What each fight action did, in words, when the campaign's system is installed."""
    from jdr.errors import JdrError
    from jdr.fights.story import entry_summaries
    from jdr.systems import default_registry

    try:
        system = default_registry().get(system_id)
    except JdrError:
        return {}
    return entry_summaries(system, entries, only) if system.fight is not None else {}


def action_text(context: Json, told: bool = False) -> str:
    """The roll's action; a fight's number (and the command, when no sentence tells it)."""
    action = action_name(context)
    if "fight" in context and told:
        return _("fight {fight}").format(fight=context["fight"])
    if "fight" in context:
        return _("fight {fight}: {action}").format(fight=context["fight"], action=action)
    if "sheet" in context:  # a sheet's own revision, or a roll made through it
        return _("sheet {name}: {action}").format(name=context["sheet"], action=action)
    return action


def action_name(context: Json) -> str:
    """An entry's action (its context's `action`, an identifier kept stable in the journal) in
    the reader's words: a sheet's revision by its kind (`jdr.characters.revisions.KIND_NAMES`),
    a fight's opening, undo, redo and end (`jdr.fights.timeline.ACTION_NAMES`), a fight command
    by the system's `fight_commands`, generic dice (`jdr.journal.service.DICE_NAME`), a roll by
    its system's action.

    >>> action_name({"action": "sheet.created", "sheet": "Kai"}), action_name({"action": "dice"})
    ('creation', 'dice roll')
    >>> action_name({"action": "start", "fight": 1, "system": "plus-ultra"})
    'fight started'
    """
    from jdr.characters.revisions import SHEET_ACTION, kind_name
    from jdr.journal.service import DICE, DICE_NAME

    action = str(context.get("action", "?"))
    if action.startswith(SHEET_ACTION):
        return kind_name(action.removeprefix(SHEET_ACTION))
    if "fight" in context:
        from jdr.fights.timeline import ACTION_NAMES

        if action in ACTION_NAMES:
            return _(ACTION_NAMES[action])
        return command_name(context.get("system"), action)
    if action == DICE:
        return _(DICE_NAME)
    return roll_action_name(context.get("system"), action)


def command_name(system_id: Any, name: str) -> str:
    """A fight command's name in the reader's words: the command's own display name
    (`Command.shown`, else its French name `Command.fr` for a French reader), else its name,
    underscores as spaces."""
    from jdr.i18n import current_language

    command = _system_part(system_id, "fight_commands", name)
    shown = getattr(command, "shown", None)
    if callable(shown):
        return str(shown())
    french = getattr(command, "fr", None)
    if french and current_language() == "fr":
        return str(french)
    return name.replace("_", " ")


def roll_action_name(system_id: Any, name: str) -> str:
    """A system's roll action (`Action.name`) in the reader's words (`action_named`: its
    declared display names, else its name, underscores as spaces)."""
    shown = action_named(system_id, name)
    return shown.replace("_", " ") if shown == name else shown


def action_named(system_id: Any, name: str, lang: str | None = None) -> str:
    """The display name of the action `name` of the installed system `system_id` (a journal
    entry's context names both by their ids); `name` itself when either is unknown."""
    from jdr.errors import JdrError
    from jdr.labels import action_label
    from jdr.systems import default_registry

    try:
        action = default_registry().get(str(system_id)).actions.get(name)
    except JdrError:
        return name
    return action_label(action, lang) if action is not None else name


def _system_part(system_id: Any, part: str, name: str) -> Any:
    """A system's command or action named `name` (None when the system or the name is not
    installed: an old journal names what a plug-in no longer has)."""
    from jdr.errors import JdrError
    from jdr.systems import default_registry

    if not isinstance(system_id, str):
        return None
    try:
        found = getattr(default_registry().get(system_id), part, None)
        if found is None:
            return None
        return found.get(name)  # `Commands.get` as people type it; a mapping's `get`
    except (JdrError, KeyError):
        return None


def result_text(result: Json) -> str:
    if "revision" in result and "changes" in result:  # a sheet's revision
        return _("revision {revision}").format(revision=result["revision"])
    if "outcome" in result:  # an identifier, shown in the reader's words (as the odds tables do)
        return _(str(result["outcome"]))
    if "total" in result:
        return str(result["total"])
    return "-"


def fight_entries(store: Store, campaign_id: int, fight: int) -> dict[int, Entry]:
    """A fight's journal entries by action number (the seq of the action's first event)."""
    from jdr.fights.timeline import fight_action_id
    from jdr.journal.service import entry_of

    prefix = fight_action_id(fight, 0)[:-1]
    found = {}
    for row in store.journal(campaign_id):
        if row.action_id.startswith(prefix):
            number = row.action_id[len(prefix) :]
            if number.isdigit():
                found[int(number)] = entry_of(row)
    return found
