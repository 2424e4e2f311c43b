"""Verifiable dice: faces anyone can re-compute once the seed is revealed.

A secret 32-byte seed is drawn from the OS and its SHA-256 *commitment* is published before any
roll. A roll's faces come from HMAC-SHA256(seed, canonical JSON of its context ‖ block counter),
mapped to faces by rejection sampling (no modulo bias). docs/verifiable-rolls.md describes the
algorithm byte for byte, with test vectors.

Two schemes share everything but the canonical bytes: **scheme 2** (`"v": 2` in the context, what
jdr writes) canonicalises JSON by RFC 8785 (JCS), which any language reproduces byte for byte, and
its values never depend on a language's float formatting (`portable`); **scheme 1** (a context
without `"v"`, journals written before it) used Python's `json.dumps` with sorted keys.

>>> seed = bytes(range(32))
>>> commitment(seed)[:16]
'630dcd2966c43366'
>>> Derived(seed, {"action": "attack"}).faces(6, 3)
[3, 1, 6]
>>> derive_faces(seed, {"action": "attack"}, [6, 6, 6])
[3, 1, 6]
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from jdr.errors import InputError, LimitError
from jdr.i18n import _

VERSION = 1
"""The first scheme: a context without `"v"` is hashed with `"v": 1` added (Python JSON)."""

LATEST = 2
"""The scheme jdr writes: the context carries `"v": 2` and is canonicalised by RFC 8785."""

SCHEMES = (VERSION, LATEST)

SAFE_INTEGER = 2**53 - 1
"""The largest integer every JSON reader holds exactly (a JavaScript number's 53-bit mantissa)."""

SEED_BYTES = 32
MAX_SIZE = 10**6
"""The largest die: 1..10^6 faces, so a face never needs more than 3 bytes."""


def new_seed() -> bytes:
    """A fresh secret seed: 32 bytes from the operating system (`secrets`)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The seed's public commitment: its SHA-256, as lowercase hex."""
    return sha256_hex(seed)


def _check_json(value: object, where: str) -> None:
    """Refuse what a JSON round trip would change: verifiers must hash the same bytes."""
    if value is None or isinstance(value, str | bool | int):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InputError(where, value, _("a finite number"), _("not representable in JSON"))
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise InputError(where, key, _("text keys"), _("JSON object keys must be text"))
            _check_json(item, f"{where}.{key}")
        return
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _check_json(item, f"{where}[{index}]")
        return
    raise InputError(where, value, _("JSON values"), _("not a JSON value"))


def scheme_of(context: Mapping[str, object]) -> int:
    """A context's scheme: its `"v"` (1 when absent); any other value is refused."""
    version = context.get("v", VERSION)
    if isinstance(version, bool) or version not in SCHEMES:
        raise InputError("context.v", version, "1, 2", _("unknown scheme version"))
    return int(version)


def canonical(context: Mapping[str, object]) -> bytes:
    """The context's canonical bytes, by its scheme: RFC 8785 for `"v": 2`; sorted keys, no
    spaces, UTF-8, with `"v": 1` added, for a context without `"v"` (scheme 1).

    >>> canonical({"b": 1, "a": "é", "v": 2})
    b'{"a":"\\xc3\\xa9","b":1,"v":2}'
    >>> canonical({"b": 1, "a": "é"})
    b'{"a":"\\xc3\\xa9","b":1,"v":1}'
    """
    version = scheme_of(context)
    return canonical_json({**context, "v": version}, "context", version)


def canonical_json(value: object, where: str = "value", version: int = VERSION) -> bytes:
    """Any JSON value's canonical bytes (what the journal hashes): RFC 8785 for scheme 2; for
    scheme 1, Python's `json.dumps` with sorted keys, no spaces, UTF-8.

    >>> canonical_json({"b": [1, True], "a": None, "é": "\\u007f\\t"}, version=2)
    b'{"a":null,"b":[1,true],"\\xc3\\xa9":"\\x7f\\\\t"}'
    >>> canonical_json({"b": [1, True], "a": None})
    b'{"a":null,"b":[1,true]}'
    """
    if version == LATEST:
        _check_portable(value, where)
        import rfc8785

        return rfc8785.dumps(value)  # type: ignore[arg-type]  # checked just above
    _check_json(value, where)
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def _check_portable(value: object, where: str) -> None:
    """Refuse what scheme 2 keeps out of hashed JSON, so that every language reads back the
    values it hashed: a whole number written as a float (`portable` makes it an integer),
    NaN and infinities, integers beyond ±(2^53 − 1), and anything a JSON round trip would
    change. Other numbers are written as RFC 8785 says (ECMAScript's shortest round-trip
    form, which Python's `repr` and JavaScript's `String(x)` both give)."""
    if value is None or isinstance(value, str | bool):
        return
    if isinstance(value, int):
        if abs(value) > SAFE_INTEGER:
            raise InputError(where, value, f"±{SAFE_INTEGER}", _("too large to be exact in JSON"))
        return
    if isinstance(value, float):
        if value.is_integer() or not math.isfinite(value):
            raise InputError(where, value, _("a whole number as an integer"), _("a float"))
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise InputError(where, key, _("text keys"), _("JSON object keys must be text"))
            _check_portable(item, f"{where}.{key}")
        return
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _check_portable(item, f"{where}[{index}]")
        return
    raise InputError(where, value, _("JSON values"), _("not a JSON value"))


def portable(value: Any) -> Any:
    """`value` (plain JSON) as every language reads it back: a whole number written as a float
    becomes an integer (`40.0` and `40` are one value in JavaScript), an integer beyond
    ±(2^53 − 1) its decimal text (JavaScript would round it); other numbers stay numbers.

    >>> portable({"pct": 40.0, "multiplier": 1.5, "big": 2**60, "ok": [3, "x", None]})
    {'pct': 40, 'multiplier': 1.5, 'big': '1152921504606846976', 'ok': [3, 'x', None]}
    """
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value if abs(value) <= SAFE_INTEGER else str(value)
    if isinstance(value, float):
        if value.is_integer() and abs(value) <= SAFE_INTEGER:
            return int(value)
        return value
    if isinstance(value, Mapping):
        return {key: portable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [portable(item) for item in value]
    return value


def sha256_hex(data: bytes) -> str:
    """SHA-256 of `data`, as 64 lowercase hex digits."""
    return hashlib.sha256(data).hexdigest()


def _width(size: int) -> int:
    """The fewest bytes k with 256^k ≥ size."""
    k = 1
    while 256**k < size:
        k += 1
    return k


def _blocks(seed: bytes, message: bytes) -> Iterator[int]:
    """The bytes of HMAC-SHA256(seed, message ‖ counter) for counter 0, 1, 2 …"""
    counter = 0
    while True:
        yield from hmac.new(seed, message + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1


class Derived:
    """A random source whose faces derive from a seed and a roll's context (by its scheme).

    Bytes come from HMAC-SHA256 blocks, counter 0, 1, 2 …, consumed in order across calls.
    A d1 always shows 1 and consumes nothing.
    """

    def __init__(self, seed: bytes, context: Mapping[str, object]) -> None:
        if len(seed) != SEED_BYTES:
            raise InputError(
                "seed",
                len(seed),
                _("{count} bytes").format(count=SEED_BYTES),
                _("wrong seed length"),
            )
        self.seed = bytes(seed)
        self.context = context
        self._message = canonical(context)
        self._stream = _blocks(self.seed, self._message)  # no cycle: freed at once

    def _take(self, k: int) -> int:
        return int.from_bytes(bytes(next(self._stream) for _ in range(k)), "big")

    def faces(self, size: int, count: int) -> list[int]:
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_SIZE:
            raise LimitError("size", size, f"1..{MAX_SIZE}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise InputError("count", count, "0..")
        if size == 1:
            return [1] * count
        k = _width(size)
        limit = size * (256**k // size)
        got: list[int] = []
        while len(got) < count:
            x = self._take(k)
            if x < limit:
                got.append(x % size + 1)
        return got

    def __repr__(self) -> str:
        return f"Derived(commitment={commitment(self.seed)[:16]}…, context={self.context!r})"


def derive_faces(seed: bytes, context: Mapping[str, object], sizes: Sequence[int]) -> list[int]:
    """One face per size, in order, from a single stream (the verifier's one-liner)."""
    source = Derived(seed, context)
    return [source.faces(size, 1)[0] for size in sizes]
