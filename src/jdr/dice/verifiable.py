"""Verifiable dice: faces anyone can re-compute once the seed is revealed (scheme `v: 1`).

A secret 32-byte seed is drawn from the OS and its SHA-256 *commitment* is published before any
roll. A roll's faces come from HMAC-SHA256(seed, canonical JSON of its context ‖ block counter),
mapped to faces by rejection sampling (no modulo bias). docs/verifiable-rolls.md describes the
algorithm byte for byte, with test vectors.

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

from jdr.errors import InputError, LimitError
from jdr.i18n import _

VERSION = 1
"""The scheme's version, hashed inside every context as `"v": 1`."""

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


def canonical(context: Mapping[str, object]) -> bytes:
    """The context's canonical bytes: sorted keys, no spaces, UTF-8, with `"v": 1` added.

    >>> canonical({"b": 1, "a": "é"})
    b'{"a":"\\xc3\\xa9","b":1,"v":1}'
    """
    if context.get("v", VERSION) != VERSION:
        raise InputError("context.v", context["v"], str(VERSION), _("unknown scheme version"))
    return canonical_json({**context, "v": VERSION}, "context")


def canonical_json(value: object, where: str = "value") -> bytes:
    """Any JSON value's canonical bytes: sorted keys, no spaces, UTF-8 (what the journal hashes).

    >>> canonical_json({"b": [1, True], "a": None})
    b'{"a":null,"b":[1,true]}'
    """
    _check_json(value, where)
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def sha256_hex(data: bytes) -> str:
    """SHA-256 of `data`, as 64 lowercase hex digits."""
    return hashlib.sha256(data).hexdigest()


def _width(size: int) -> int:
    """The fewest bytes k with 256^k ≥ size."""
    k = 1
    while 256**k < size:
        k += 1
    return k


class Derived:
    """A random source whose faces derive from a seed and a roll's context (scheme v1).

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
        self._stream = self._blocks()

    def _blocks(self) -> Iterator[int]:
        counter = 0
        while True:
            block = hmac.new(
                self.seed, self._message + counter.to_bytes(8, "big"), hashlib.sha256
            ).digest()
            yield from block
            counter += 1

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
