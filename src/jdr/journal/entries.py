"""Journal entries: every roll and every fight action of a campaign, hash-chained.

An entry's **body** is what happened: the roll's `context` (the bytes its dice derive from), its
`dice` (where the faces came from and each `[size, face]` in roll order) and its `result`. The
entry's **hash** covers its header: `seq`, `prev_hash` (the previous entry's hash, 64 zeros for the
first), the epoch's `commitment`, `hidden`, the SHA-256 of the body, and (format 2) the entry's
`time` and its format `v`:

    body_hash = SHA-256(canonical JSON of {"context", "dice", "result"} (+ "salt" if hidden))
    hash      = SHA-256(canonical JSON of {"body_hash", "commitment", "hidden", "prev_hash",
                                           "seq"} (+ "time", "v": 2 in format 2))

so changing, removing or moving any entry breaks every hash after it. A hidden entry (a GM's
secret roll) is published as its header and `body_hash` only; its body, salted with 16 random
bytes so it cannot be guessed from a short list of possible results, is disclosed later and must
hash to the same `body_hash`.

**Formats.** Format 2 (what jdr writes: every new epoch) canonicalises by RFC 8785 and writes
whole numbers as integers (`jdr.dice.verifiable.portable`), so a verifier in any language hashes
the same bytes; its contexts carry `"v": 2`. Format 1 (journals written before it: Python's
JSON, no `time`) still verifies: each entry says which it is.

>>> first = make_entry(1, GENESIS, "c" * 64, {"action": "test"}, dice([[12, 7]]), {"n": 7},
...                    time="2026-12-01T10:00:00Z")
>>> len(first.hash), first.header["v"], first.context
(64, 2, {'action': 'test', 'v': 2})
>>> second = make_entry(2, first.hash, "c" * 64, {"action": "test"}, dice([]), {"n": 0})
>>> second.prev_hash == first.hash
True
>>> Entry.from_json(second.to_json()) == second
True
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from jdr.dice.verifiable import LATEST, VERSION, canonical_json, portable, sha256_hex

Json = dict[str, Any]

AUTO_PREFIX = "#"
"""The first character of the action ids jdr gives (`#12`, `#fight3.7`); one a user gives
never starts with it."""

GENESIS = "0" * 64
"""The `prev_hash` of a journal's first entry."""

SHORT = 10
"""How many hex digits of a hash a roll line or recap shows."""

SOURCES = ("derived", "given", "seeded")
"""Where a roll's faces came from: the epoch's seed (verifiable), dice the player rolled and
typed in (`--faces`), or a reproducible test seed (`--seed`)."""


def dice(
    rolls: Sequence[Sequence[int]],
    source: str = "derived",
    by: Sequence[str | None] | None = None,
) -> Json:
    """The `dice` part of a body: `{"source": …, "rolls": [[size, face], …]}`, and `by` when a
    die was rolled for someone else than the one who acts (a defender's reaction): each die's
    roller, null for the actor.

    >>> dice([[10, 7], [10, 2]], by=[None, "Chu"])
    {'source': 'derived', 'rolls': [[10, 7], [10, 2]], 'by': [None, 'Chu']}
    >>> dice([[10, 7]], by=[None])
    {'source': 'derived', 'rolls': [[10, 7]]}
    """
    body: Json = {"source": source, "rolls": [[int(size), int(face)] for size, face in rolls]}
    if by is not None and any(owner is not None for owner in by):
        body["by"] = list(by)
    return body


def others(owners: Sequence[str | None], actor: Any) -> list[str | None]:
    """Each die's roller as `dice.by` keeps it: null for the one who acts.

    >>> others(["Pika", "Chu", None], "Pika")
    [None, 'Chu', None]
    """
    return [None if owner == actor else owner for owner in owners]


def rollers(entry: Entry) -> list[tuple[Any, list[tuple[int, int]]]]:
    """Each roller of the entry's dice with theirs, in roll order: the entry's actor, and anyone
    a die was rolled for (`dice.by`).

    >>> entry = Entry(1, GENESIS, "c" * 64, {"actor": "Pika"},
    ...               dice([[10, 7], [10, 2], [10, 9]], by=[None, "Chu", "Chu"]), {})
    >>> rollers(entry)
    [('Pika', [(10, 7)]), ('Chu', [(10, 2), (10, 9)])]
    """
    found: dict[Any, list[tuple[int, int]]] = {}
    data = entry.dice or {}
    rolls = data.get("rolls", [])
    by = data.get("by") or [None] * len(rolls)
    for (size, face), owner in zip(rolls, by, strict=False):
        who = owner if owner is not None else entry.actor
        found.setdefault(who, []).append((int(size), int(face)))
    return list(found.items())


def plain(value: Any, version: int = VERSION) -> Any:
    """`value` as the JSON a database or a file gives back: tuples become lists, keys text,
    Fractions `"a/b"`, enums their value; in format 2, whole floats become integers and huge
    integers text (`portable`).

    >>> from fractions import Fraction
    >>> plain({1: (Fraction(1, 3), None), "pct": 40.0})
    {'1': ['1/3', None], 'pct': 40.0}
    >>> plain({"pct": 40.0, "multiplier": 1.5}, 2)
    {'pct': 40, 'multiplier': 1.5}
    """
    loaded = json.loads(json.dumps(value, ensure_ascii=False, default=_jsonable))
    return portable(loaded) if version == LATEST else loaded


def _jsonable(value: Any) -> Any:
    from enum import Enum
    from fractions import Fraction

    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, set | frozenset):
        return sorted(value)
    raise TypeError(f"not JSON: {value!r}")


def short(digest: str) -> str:
    """The first `SHORT` hex digits of a hash: what a forum post quotes."""
    return digest[:SHORT]


@dataclass(frozen=True)
class Entry:
    """One journal entry. `context`, `dice`, `result` are None for a hidden entry not yet
    disclosed; then `sealed_body_hash` carries the published `body_hash`."""

    seq: int
    prev_hash: str
    commitment: str
    context: Json | None
    dice: Json | None
    result: Json | None
    hidden: bool = False
    salt: str | None = None
    sealed_body_hash: str | None = field(default=None, compare=False)
    v: int = VERSION
    """The entry's format: 1 (Python JSON, no time) or 2 (RFC 8785, `time` in the header)."""
    time: str | None = None
    """When the entry was written (format 2): UTC, `YYYY-MM-DDTHH:MM:SSZ`."""

    @property
    def disclosed(self) -> bool:
        """Whether the body is known (always, unless a hidden entry is exported sealed)."""
        return self.context is not None

    @property
    def body(self) -> Json:
        body: Json = {"context": self.context, "dice": self.dice, "result": self.result}
        if self.hidden:
            body["salt"] = self.salt
        return body

    @cached_property  # an entry never changes: its hashes are computed once
    def body_hash(self) -> str:
        if not self.disclosed:
            assert self.sealed_body_hash is not None
            return self.sealed_body_hash
        return sha256_hex(canonical_json(self.body, "entry", self.v))

    @property
    def header(self) -> Json:
        header: Json = {
            "seq": self.seq,
            "prev_hash": self.prev_hash,
            "commitment": self.commitment,
            "hidden": self.hidden,
            "body_hash": self.body_hash,
        }
        if self.v != VERSION:
            header.update(time=self.time, v=self.v)
        return header

    @cached_property
    def hash(self) -> str:
        return sha256_hex(canonical_json(self.header, "entry", self.v))

    @property
    def actor(self) -> Any:
        return (self.context or {}).get("actor")

    @property
    def action_id(self) -> Any:
        return (self.context or {}).get("action_id")

    def sealed(self) -> Entry:
        """The entry as published while hidden: header and body hash, no body."""
        return Entry(
            self.seq,
            self.prev_hash,
            self.commitment,
            None,
            None,
            None,
            self.hidden,
            None,
            sealed_body_hash=self.body_hash,
            v=self.v,
            time=self.time,
        )

    def to_json(self, hash_: str | None = None) -> Json:
        """The entry as a journal file holds it: header, `hash`, then the body if disclosed.

        `hash_` writes a given hash instead of the computed one (the store's recorded value, so
        an export shows what was recorded, not what the row holds now).
        """
        data: Json = {**self.header, "hash": hash_ or self.hash}
        if self.disclosed:
            data.update(context=self.context, dice=self.dice, result=self.result)
            if self.hidden:
                data["salt"] = self.salt
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entry:
        """An entry from its JSON (a `KeyError`/`TypeError` on a malformed one: see verify)."""
        has_body = "context" in data
        return cls(
            seq=data["seq"],
            prev_hash=data["prev_hash"],
            commitment=data["commitment"],
            context=data["context"] if has_body else None,
            dice=data.get("dice") if has_body else None,
            result=data.get("result") if has_body else None,
            hidden=bool(data.get("hidden", False)),
            salt=data.get("salt"),
            sealed_body_hash=None if has_body else data["body_hash"],
            v=data.get("v", VERSION),
            time=data.get("time"),
        )


def make_entry(
    seq: int,
    prev_hash: str,
    commitment: str,
    context: Json,
    dice: Json,
    result: Json,
    hidden: bool = False,
    version: int = LATEST,
    time: str | None = None,
) -> Entry:
    """Entry `seq`, chained to `prev_hash`, in format `version` (written at `time`, now by
    default); a hidden one gets a fresh random salt. A format-2 context gets `"v": 2`."""
    if version == LATEST:
        context = {**context, "v": LATEST}
    return Entry(
        seq=seq,
        prev_hash=prev_hash,
        commitment=commitment,
        context=plain(context, version),
        dice=plain(dice, version),
        result=plain(result, version),
        hidden=hidden,
        salt=secrets.token_hex(16) if hidden else None,
        v=version,
        time=(time or now()) if version == LATEST else None,
    )


_frozen: ContextVar[str | None] = ContextVar("jdr_journal_time", default=None)


def now() -> str:
    """The time an entry is written: UTC to the second, `2026-12-01T10:00:00Z` (or the time
    `frozen_time` holds)."""
    from datetime import UTC, datetime

    return _frozen.get() or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@contextmanager
def frozen_time(time: str) -> Iterator[None]:
    """Entries written inside are dated `time` (a demo or a test that must print the same hashes
    at every run).

    >>> with frozen_time("2026-01-01T00:00:00Z"):
    ...     make_entry(1, GENESIS, "c" * 64, {}, dice([]), {}).time
    '2026-01-01T00:00:00Z'
    """
    token = _frozen.set(time)
    try:
        yield
    finally:
        _frozen.reset(token)
