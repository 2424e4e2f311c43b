"""Play-by-post pace (issue 20): a turn deadline per fight, and what happens when it passes.

A fight may have a `deadline` (seconds a turn may last, from when it began: the fight's last
action, or when the deadline was set) and `on_late`:

- `default`: each fighter the fight waits for plays the system's safe default
  (`System.late`: defend, wait, pass …), journaled as that fighter's action with `"late": true`
  in its entry; where the system has none for what is awaited (a Passion dodge, an Ilvermorny
  spell), the GM decides, as with `gm`;
- `gm`: nothing is played; the lateness is noted once (`Store.mark_late`), which every page, the
  feed and the webhook announce, and the GM plays for the late fighter or waits longer.

"Awaited" are the fighters who may play something now that is not optional (`Command.optional`:
a deus ex machina, joining): the fight cannot go on without them.

`resolve_late(store, now)` deals with every late fight once; the web table's clock calls it
every few seconds (one server process at a time), and `jdr fight late` does it from a terminal
(a cron job for a table without a server). Each fight is re-read under the campaign's writer
lock, so two processes never play the same late turn twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from jdr.errors import InputError, JdrError
from jdr.i18n import _
from jdr.store import FightRecord, Store
from jdr.store.rows import aware
from jdr.systems.protocol import Json, RuleSystem

DEFAULT = "default"
GM = "gm"
ON_LATE = (DEFAULT, GM)
SHORTEST = timedelta(minutes=1)
LONGEST = timedelta(days=90)


def parse_deadline(text: str) -> int | None:
    """`--deadline`: a turn's length (`48h`, `2d`, `2j`, `90m`), or `none`/`off` for no
    deadline: its seconds.

    >>> parse_deadline("48h"), parse_deadline("off")
    (172800, None)
    >>> try:
    ...     parse_deadline("2 weeks")
    ... except InputError as refused:
    ...     print(refused.allowed)
    1m..90d, e.g. 48h, 2d, 30m; or none
    """
    from jdr.numbers import duration

    if text.strip().lower() in ("none", "off", "aucun", "aucune", "non", "0"):
        return None
    found = duration(text)
    if found is None or not SHORTEST <= found <= LONGEST:
        raise InputError("--deadline", text, _("1m..90d, e.g. 48h, 2d, 30m; or none"))
    return int(found.total_seconds())


def parse_on_late(text: str) -> str:
    """`--on-late`: `default` (the system's safe default) or `gm` (the GM decides); French
    `défaut`, `mj` too."""
    from jdr.names import find

    spellings = {"default": DEFAULT, "défaut": DEFAULT, "gm": GM, "mj": GM}
    found = find(text, spellings)
    if found is None:
        raise InputError("--on-late", text, "default, gm")
    return spellings[found]


def deadline_words(seconds: int) -> str:
    """A deadline as a reader reads it: `48 h`, `2 d` (`2 j` in French), `90 min`.

    >>> deadline_words(172800), deadline_words(5400), deadline_words(7200)
    ('2 d', '90 min', '2 h')
    """
    if seconds % 86400 == 0:
        return _("{n} d").format(n=seconds // 86400)
    if seconds % 3600 == 0:
        return _("{n} h").format(n=seconds // 3600)
    return _("{n} min").format(n=seconds // 60)


def due(record: FightRecord) -> datetime | None:
    """When the fight's current turn must be played (None: no deadline, or a fight from before
    deadlines with no turn start)."""
    if record.deadline is None or record.turn_since is None:
        return None
    return aware(record.turn_since) + timedelta(seconds=record.deadline)


def is_late(record: FightRecord, now: datetime) -> bool:
    """Whether the fight's turn is late and not yet dealt with."""
    when = due(record)
    if when is None or record.status != "open":
        return False
    return aware(now) >= when and record.late_version != record.version


def awaited(system: RuleSystem, state: Json, participants: Sequence[str]) -> dict[str, list[str]]:
    """The fighters the fight waits for, each with what it may play now (optional commands
    left out, `Command.optional`)."""
    from jdr.fights.service import legal_now

    commands = getattr(system, "fight_commands", None)
    optional = {c.name for c in commands if c.optional} if commands is not None else set()
    found = {}
    for name in participants:
        legal = [c for c in legal_now(system, state, name) if c not in optional]
        if legal:
            found[name] = legal
    return found


@dataclass
class LateTurn:
    """What `resolve_late` did with one late fight: the defaults played (fighter, command) and
    the fighters left for the GM to decide."""

    fight_id: int
    campaign_id: int
    played: list[tuple[str, str]] = field(default_factory=list)
    for_gm: list[str] = field(default_factory=list)


def resolve_late(
    store: Store, now: datetime | None = None, campaign_id: int | None = None
) -> list[LateTurn]:
    """Deal with every late fight (of `campaign_id` only, if given) as its `on_late` says;
    what was done, fight by fight."""
    from jdr.systems import default_registry

    now = now or datetime.now(UTC)
    done = []
    for record in store.paced_fights():
        if campaign_id is not None and record.campaign_id != campaign_id:
            continue
        if not is_late(record, now):
            continue
        campaign = store.campaign_by_id(record.campaign_id)
        try:
            system = default_registry().get(campaign.system)
        except JdrError:
            continue  # a system no longer installed: its fights wait for the GM
        with store.writing(campaign.id):  # re-read under the lock: one process deals with it
            fresh = store.fight(record.id)
            if is_late(fresh, now):
                done.append(_resolve(store, system, fresh))
    return done


def _resolve(store: Store, system: RuleSystem, record: FightRecord) -> LateTurn:
    from jdr.fights.service import play, state

    rules = system.fight
    assert rules is not None
    turn = LateTurn(record.id, record.campaign_id)
    names = [str(n) for n in record.participants]
    now_state = state(store, record.id, rules)
    late_for = awaited(system, now_state, names)
    for actor in late_for:  # every fighter late at this moment, even after another played
        legal = awaited(system, now_state, names).get(actor)
        if not legal:
            continue
        chooser = getattr(system, "late", None) if record.on_late == DEFAULT else None
        move = chooser(now_state, actor, legal) if chooser is not None else None
        if move is None:
            turn.for_gm.append(actor)
            continue
        name, keys = move
        pairs = [f"{key}={_pair(value)}" for key, value in keys.items()]
        try:
            play(store, record.id, system, actor, name, pairs, late=True)
        except JdrError:  # the system's default refused after all: the GM decides
            turn.for_gm.append(actor)
            continue
        turn.played.append((actor, name))
        now_state = state(store, record.id, rules)
    if turn.for_gm and not turn.played:
        store.mark_late(record.id, record.version)
    return turn


def _pair(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class Pace:
    """A fight's pace in words: who is awaited, by when, what happens then."""

    awaited: Mapping[str, list[str]]
    due: datetime | None
    late: bool
    deadline: int | None
    on_late: str | None
    for_gm: bool = False
    """Late, and left for the GM to decide (the table's choice, or no safe default)."""

    def line(self, now: datetime | None = None) -> str:
        """`To play: Kaito — by 2026-12-04 20:00 UTC (in 47 h).` or `Nobody is awaited.`"""
        if not self.awaited:
            return _("Nobody is awaited.")
        names = ", ".join(self.awaited)
        if self.due is None:
            return _("To play: {names}.").format(names=names)
        when = self.due.strftime("%Y-%m-%d %H:%M UTC")
        if self.late:
            if self.for_gm:
                return _("To play: {names} — late since {when}: the GM decides.").format(
                    names=names, when=when
                )
            return _("To play: {names} — late since {when}.").format(names=names, when=when)
        left = self.due - aware(now or datetime.now(UTC))
        hours = max(0, int(left.total_seconds() // 3600))
        return _("To play: {names} — by {when} (in {hours} h).").format(
            names=names, when=when, hours=hours
        )


def pace_of(
    system: RuleSystem, record: FightRecord, state: Json, now: datetime | None = None
) -> Pace:
    """The fight's pace as every front end shows it."""
    now = now or datetime.now(UTC)
    waiting = awaited(system, state, [str(n) for n in record.participants])
    if record.status != "open":
        waiting = {}
    when = due(record)
    late = when is not None and aware(now) >= when
    noted = record.late_version is not None and record.late_version == record.version
    for_gm = late and (record.on_late == GM or noted)
    return Pace(waiting, when, late, record.deadline, record.on_late, for_gm)


def set_pace(store: Store, fight_id: int, deadline: str | None, on_late: str | None) -> Json:
    """`jdr fight pace FIGHT --deadline 48h --on-late gm`: the new pace (`deadline` None keeps
    it; `none` removes it), its clock started again now."""
    record = store.fight(fight_id)
    seconds = record.deadline if deadline is None else parse_deadline(deadline)
    chosen = parse_on_late(on_late) if on_late is not None else (record.on_late or DEFAULT)
    store.set_pace(fight_id, seconds, chosen if seconds is not None else None)
    return {"fight": fight_id, "deadline": seconds, "on_late": chosen if seconds else None}
