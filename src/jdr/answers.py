"""The JSON answers both front ends give: the CLI's `--json` and the web API return the same
objects, built here from what the services return.

>>> from fractions import Fraction
>>> jsonable({"p": Fraction(1, 4), "xs": (1, 2)}, exact=True)
{'p': '1/4', 'xs': [1, 2]}
>>> from jdr.errors import InputError
>>> error_json(InputError("difficulty", 0, "1..10"))["field"]
'difficulty'
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from jdr.errors import InputError, JdrError
from jdr.i18n import elide

if TYPE_CHECKING:
    from jdr.journal.entries import Entry
    from jdr.store import Campaign, Character, Epoch, Store
    from jdr.systems.protocol import Action, RuleSystem

Json = dict[str, Any]


def fraction_text(value: Fraction) -> str:
    """`"a/b"`, however many digits: exact odds of long chains have denominators past Python's
    4,300-digit default for printing an integer (a guard against parsing, not printing).

    >>> fraction_text(Fraction(1, 10**5000))[:8], len(fraction_text(Fraction(1, 10**5000)))
    ('1/100000', 5003)
    """
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return f"{value.numerator}/{value.denominator}"
    finally:
        sys.set_int_max_str_digits(limit)


def probability_json(value: Any, exact: bool) -> Any:
    """A probability for JSON: a float, or `"a/b"` in exact mode."""
    if isinstance(value, Fraction):
        return fraction_text(value) if exact else float(value)
    if isinstance(value, float) and exact:
        return str(Fraction(value).limit_denominator())
    return value


def jsonable(value: Any, exact: bool = False) -> Any:
    """Make core values JSON-ready: tuples to lists, Fractions to floats or `"a/b"`."""
    if isinstance(value, Fraction | float):
        return probability_json(value, exact)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v, exact) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v, exact) for v in value]
    return value


def error_json(error: JdrError) -> Json:
    """The `error` object of a refused request: code, message, and for bad input its field,
    value and what is allowed (one entry per problem when there are several)."""
    message = elide(error.message())
    payload: Json = {"code": error.code, "message": message}
    if isinstance(error, InputError):
        payload.update(field=error.field, value=jsonable(error.value), allowed=error.allowed)
    payload.update(error.extra or {})
    problems = getattr(error, "problems", None)  # a sheet's or a model's, one per problem
    if problems:
        payload["problems"] = [
            {"field": p.field, "value": jsonable(p.value), "allowed": p.allowed}
            | {"reason": p.reason, "message": p.message()}
            for p in problems
        ]
    if getattr(error, "suggestion", None) is not None:
        payload["suggestion"] = error.suggestion  # type: ignore[attr-defined]
    return payload


def action_json(system: RuleSystem, action: Action[Any], params: Any) -> Json:
    """The keys every JSON answer about an action starts with."""
    return {"system": system.id, "action": action.name, "params": params.model_dump(mode="json")}


def add_own(payload: Json, extra: Mapping[str, Any], exact: bool = False) -> None:
    """A system's own keys, never overwriting the contract's."""
    for key, value in extra.items():
        payload.setdefault(key, jsonable(value, exact))


ROLL_KEYS = ("system", "action", "params", "faces", "outcome", "details", "explanation", "journal")
"""The keys of every roll's answer: a system's totals, top-level keys beside them, take others."""


def record_json(
    system: RuleSystem, action: Action[Any], params: Any, record: Any, explanation: str
) -> Json:
    """A roll's answer: its parameters, faces, outcome, the system's totals as top-level keys,
    its `details` under `details`, and the explanation. A total named like one of `ROLL_KEYS`
    is the plug-in's mistake, refused by name (never dropped in silence)."""
    from jdr.systems.registry import PluginError

    taken = sorted(set(record.totals) & set(ROLL_KEYS))
    if taken:
        raise PluginError(
            system.id,
            f"action {action.name!r} has totals named {', '.join(taken)}, "
            f"keys every roll answers with ({', '.join(ROLL_KEYS)}): rename them, "
            "or give them in `details`",
        )
    payload = action_json(system, action, params)
    payload.update(faces=list(record.faces), outcome=record.outcome)
    payload.update({str(key): jsonable(value) for key, value in record.totals.items()})
    payload["details"] = jsonable(dict(record.details))
    payload["explanation"] = explanation
    return payload


def odds_json(system: RuleSystem, action: Action[Any], params: Any, odds: Any, exact: bool) -> Json:
    """An action's exact odds: outcomes, mean, distribution and the system's own keys."""
    payload = action_json(system, action, params)
    payload["outcomes"] = jsonable(dict(odds.outcomes), exact)
    if odds.mean is not None:
        payload["mean"] = jsonable(odds.mean, exact)
    payload["distribution"] = jsonable([list(row) for row in odds.distribution], exact)
    if odds.label:
        payload["distribution_of"] = odds.label
    add_own(payload, odds.extra, exact)
    return payload


def advice_json(
    system: RuleSystem, action: Action[Any], params: Any, advice: Any, exact: bool
) -> Json:
    """An advisor's ranked choices, with its one-sentence summary."""
    payload = action_json(system, action, params)
    sentence = advice.summary() if advice.summary is not None else ""
    if sentence:
        payload["summary"] = sentence
    payload["choices"] = jsonable(list(advice.choices), exact)
    add_own(payload, advice.extra, exact)
    return payload


def journal_json(campaign: str, entry: Entry, replayed: bool = False) -> Json:
    """The `journal` key of a roll's or a fight action's JSON answer."""
    from jdr.journal.entries import short

    context = entry.context or {}
    return {
        "campaign": campaign,
        "seq": entry.seq,
        "hash": entry.hash,
        "short": short(entry.hash),
        "commitment": entry.commitment,
        "action_id": context.get("action_id"),
        "source": (entry.dice or {}).get("source"),
        "hidden": entry.hidden,
        "replayed": replayed,
    }


def campaign_json(campaign: Campaign) -> Json:
    return {
        "id": campaign.id,
        "name": campaign.name,
        "system": campaign.system,
        "settings": campaign.settings,
        "created": campaign.created.isoformat(),
    }


def character_json(character: Character, sheet: bool = False) -> Json:
    shown: Json = {"id": character.id, "name": character.name, "version": character.version}
    if sheet:
        shown["sheet"] = character.sheet
    return shown


def fights_json(store: Store, campaign_id: int) -> list[Json]:
    return [
        {"id": f.id, "participants": list(f.participants), "status": f.status, "version": f.version}
        for f in store.fights(campaign_id)
    ]


def seed_json(epochs: list[Epoch]) -> Json:
    """The open epoch's commitment and the seeds already revealed."""
    return {
        "epoch": epochs[-1].number,
        "commitment": epochs[-1].commitment,
        "revealed": [
            {"number": e.number, "seed": e.seed.hex(), "commitment": e.commitment}
            for e in epochs
            if e.revealed is not None
        ],
    }


def journal_show_json(
    campaign: str,
    commitment: str | None,
    entries: list[Entry],
    said: Any,
    total: int | None = None,
) -> Json:
    """`jdr journal show NAME --json`: a page of entries as the journal file holds them (`total`
    entries in all, the page from `first` to `last`), and what each fight action did in words."""
    return {
        "campaign": campaign,
        "commitment": commitment,
        "total": len(entries) if total is None else total,
        "first": entries[0].seq if entries else None,
        "last": entries[-1].seq if entries else None,
        "entries": [e.to_json() for e in entries],
        "summaries": {str(e.seq): said[e.seq] for e in entries if e.seq in said},
    }


def pace_json(pace: Any) -> Json:
    """A fight's pace (`jdr.live.pace.Pace`): who is awaited, by when, what then."""
    return {
        "awaited": dict(pace.awaited),
        "line": pace.line(),
        "deadline": pace.deadline,
        "on_late": pace.on_late,
        "due": pace.due.isoformat() if pace.due else None,
        "late": pace.late,
    }
