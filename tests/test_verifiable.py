"""Verifiable dice (scheme v1): the documented vectors, a second implementation, fairness."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from typing import Any

import numpy as np
import pytest

from jdr.dice.source import RandomSource
from jdr.dice.verifiable import (
    Derived,
    canonical,
    commitment,
    derive_faces,
    new_seed,
)
from jdr.errors import InputError, LimitError

SEED = bytes(range(32))
COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
CONTEXT_A: dict[str, Any] = {
    "campaign": "demo",
    "fight": 1,
    "action_id": "a1",
    "actor": "Ayla",
    "action": "attack",
    "params": {"weapon": "sword", "bonus": 2},
    "seq": 1,
}
CONTEXT_B: dict[str, Any] = {
    "campaign": "demo",
    "fight": 1,
    "action_id": "a2",
    "actor": "Éloïse",
    "action": "dodge",
    "params": {},
    "seq": 2,
    "client_seed": "lucky",
}
CANONICAL_A = (
    '{"action":"attack","action_id":"a1","actor":"Ayla","campaign":"demo","fight":1,'
    '"params":{"bonus":2,"weapon":"sword"},"seq":1,"v":1}'
)
CANONICAL_B = (
    '{"action":"dodge","action_id":"a2","actor":"Éloïse","campaign":"demo",'
    '"client_seed":"lucky","fight":1,"params":{},"seq":2,"v":1}'
)
BLOCK0_A = "5a3c73e7a66de16314f55003f45e1126d9b37c3af398625c949e382bfa1fb36e"
BLOCK0_B = "f15652b39d2c8e759a19b2d12bfb5a45788806c6a51d6d8384e9f264b91792fc"

# (context, size) -> the first 10 faces of a fresh source; copied from docs/verifiable-rolls.md.
VECTORS: list[tuple[dict[str, Any], int, list[int]]] = [
    (CONTEXT_A, 6, [1, 1, 2, 4, 5, 2, 4, 4, 3, 6]),
    (CONTEXT_A, 10, [1, 1, 6, 2, 7, 10, 6, 10, 1, 6]),
    (CONTEXT_A, 20, [11, 1, 16, 12, 7, 10, 6, 20, 1, 1]),
    (CONTEXT_A, 100, [91, 61, 16, 67, 10, 100, 21, 81, 4, 95]),
    (CONTEXT_A, 7, [7, 5, 4, 1, 6, 5, 2, 2, 7, 1]),
    (
        CONTEXT_A,
        1_000_000,
        [913716, 181422, 770965, 546100, 141556, 986653, 739833, 882080, 759243, 962816],
    ),
    (CONTEXT_B, 6, [2, 3, 5, 6, 2, 3, 5, 4, 5, 2]),
    (CONTEXT_B, 10, [2, 7, 3, 10, 8, 5, 3, 8, 5, 6]),
    (CONTEXT_B, 20, [7, 3, 20, 18, 5, 3, 18, 15, 6, 19]),
    (CONTEXT_B, 100, [87, 83, 80, 58, 45, 43, 18, 55, 26, 79]),
    (CONTEXT_B, 7, [4, 3, 6, 5, 4, 3, 3, 6, 1, 5]),
    (
        CONTEXT_B,
        1_000_000,
        [816275, 771181, 336219, 684178, 882395, 552841, 444070, 928580, 710643, 600984],
    ),
]
MIXED_SIZES = [6, 10, 20, 100, 7]
MIXED = [(CONTEXT_A, [1, 1, 16, 67, 5]), (CONTEXT_B, [2, 7, 3, 80, 4])]


def reference_faces(seed: bytes, context: dict[str, Any], sizes: list[int]) -> list[int]:
    """A second implementation, straight from the doc, sharing no code with the library."""
    message = json.dumps(
        {**context, "v": 1}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode()
    stream = b""
    counter = 0
    out = []
    for n in sizes:
        if n == 1:
            out.append(1)
            continue
        k = (n - 1).bit_length() + 7 >> 3 or 1
        while True:
            while len(stream) < k:
                stream += hmac.new(seed, message + counter.to_bytes(8, "big"), "sha256").digest()
                counter += 1
            x, stream = int.from_bytes(stream[:k], "big"), stream[k:]
            if x < n * (256**k // n):
                out.append(x % n + 1)
                break
    return out


def chi_square(faces: list[int], size: int) -> float:
    counts = np.bincount(np.asarray(faces) - 1, minlength=size)
    assert counts.shape == (size,)
    expected = len(faces) / size
    return float(((counts - expected) ** 2 / expected).sum())


# Critical values of the chi-square distribution at p = 0.001 (upper tail), df = size - 1,
# from standard tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4).
CRITICAL_P001 = {3: 13.816, 6: 20.515, 7: 22.458, 10: 27.877, 100: 148.230}


def test_commitment_is_sha256_of_the_seed() -> None:
    assert commitment(SEED) == COMMITMENT == hashlib.sha256(SEED).hexdigest()
    seed = new_seed()
    assert len(seed) == 32
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert new_seed() != seed


def test_canonical_bytes_and_first_blocks_match_the_doc() -> None:
    assert canonical(CONTEXT_A) == CANONICAL_A.encode("utf-8")
    assert canonical(CONTEXT_B) == CANONICAL_B.encode("utf-8")
    for text, block in [(CANONICAL_A, BLOCK0_A), (CANONICAL_B, BLOCK0_B)]:
        mac = hmac.new(SEED, text.encode() + bytes(8), hashlib.sha256).hexdigest()
        assert mac == block


def test_canonical_keeps_v1_and_refuses_other_versions_and_non_json() -> None:
    assert canonical({"v": 1, "a": 1}) == canonical({"a": 1}) == b'{"a":1,"v":1}'
    assert canonical({"v": 2, "a": 1}) == b'{"a":1,"v":2}'  # scheme 2: RFC 8785
    with pytest.raises(InputError):
        canonical({"v": 3})
    with pytest.raises(InputError):
        canonical({"v": True})
    assert canonical({"v": 2, "x": 1.5, "y": 2.5e-7}) == b'{"v":2,"x":1.5,"y":2.5e-7}'
    with pytest.raises(InputError):
        canonical({"v": 2, "x": 40.0})  # scheme 2: a whole number is an integer
    with pytest.raises(InputError):
        canonical({"v": 2, "x": 2**53})
    with pytest.raises(InputError):
        canonical({"x": float("nan")})
    with pytest.raises(InputError):
        canonical({"x": {1: "int key"}})
    with pytest.raises(InputError):
        canonical({"x": {1, 2}})


@pytest.mark.parametrize(("context", "size", "faces"), VECTORS)
def test_documented_vectors(context: dict[str, Any], size: int, faces: list[int]) -> None:
    assert Derived(SEED, context).faces(size, 10) == faces
    assert reference_faces(SEED, context, [size] * 10) == faces


@pytest.mark.parametrize(("context", "faces"), MIXED)
def test_documented_mixed_vectors(context: dict[str, Any], faces: list[int]) -> None:
    assert derive_faces(SEED, context, MIXED_SIZES) == faces
    assert reference_faces(SEED, context, MIXED_SIZES) == faces


def test_agrees_with_the_reference_on_random_contexts() -> None:
    rng = random.Random(9)
    for _ in range(200):
        seed = rng.randbytes(32)
        context = {
            "campaign": rng.choice(["demo", "Ténèbres", "雨"]),
            "seq": rng.randrange(10**6),
            "params": {"dice": rng.randrange(100), "tag": rng.choice([None, True, 1.5, "x"])},
            "client_seed": rng.randbytes(4).hex(),
        }
        sizes = [
            rng.choice([1, 2, 3, 6, 7, 10, 20, 100, 255, 256, 257, 65537, 10**6]) for _ in "x" * 30
        ]
        assert derive_faces(seed, context, sizes) == reference_faces(seed, context, sizes)


def test_calls_share_one_stream() -> None:
    source = Derived(SEED, CONTEXT_A)
    assert isinstance(source, RandomSource)
    assert source.faces(6, 4) + source.faces(6, 6) == VECTORS[0][2]
    assert Derived(SEED, CONTEXT_A).faces(6, 0) == []


def test_a_d1_shows_1_and_consumes_nothing() -> None:
    source = Derived(SEED, CONTEXT_A)
    assert source.faces(1, 5) == [1] * 5
    assert source.faces(6, 10) == VECTORS[0][2]


def test_deterministic_and_sensitive_to_seed_and_context() -> None:
    base = Derived(SEED, CONTEXT_A).faces(20, 30)
    assert Derived(SEED, dict(reversed(list(CONTEXT_A.items())))).faces(20, 30) == base
    other_seed = bytes(range(1, 33))
    assert Derived(other_seed, CONTEXT_A).faces(20, 30) != base
    for key, value in [("seq", 2), ("actor", "Bob"), ("client_seed", "x"), ("params", {})]:
        assert Derived(SEED, {**CONTEXT_A, key: value}).faces(20, 30) != base


def test_bad_sizes_counts_and_seeds_are_refused() -> None:
    source = Derived(SEED, CONTEXT_A)
    for size in (0, -1, 10**6 + 1):
        with pytest.raises(LimitError):
            source.faces(size, 1)
    with pytest.raises(InputError):
        source.faces(6, -1)
    with pytest.raises(InputError):
        Derived(b"short", CONTEXT_A)


@pytest.mark.parametrize("size", [6, 10])
def test_100000_faces_pass_chi_square(size: int) -> None:
    one_stream = Derived(SEED, CONTEXT_A).faces(size, 100_000)
    assert chi_square(one_stream, size) < CRITICAL_P001[size]
    # Also across contexts: one face from each of 100,000 sequence numbers.
    across = [Derived(SEED, {**CONTEXT_B, "seq": seq}).faces(size, 1)[0] for seq in range(100_000)]
    assert chi_square(across, size) < CRITICAL_P001[size]


@pytest.mark.parametrize("size", [3, 7, 100])
def test_rejection_sampling_is_unbiased(size: int) -> None:
    faces = Derived(SEED, {**CONTEXT_A, "size": size}).faces(size, 60_000)
    assert set(faces) == set(range(1, size + 1))
    assert chi_square(faces, size) < CRITICAL_P001[size]
