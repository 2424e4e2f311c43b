"""A journal verifier written from docs/verifiable-rolls.md alone, importing nothing from jdr.

It checks what needs no rules (commitments, sequence, chain, hashes, derived dice, pins), so the
tests can show that the document says every byte: its verdicts must be `jdr verify`'s and the
JavaScript verifier's.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

import rfc8785

GENESIS = "0" * 64


def canon(value: Any, scheme: int) -> bytes:
    """Scheme 2: RFC 8785. Scheme 1: Python's sorted, spaceless, UTF-8 JSON."""
    if scheme == 2:
        return rfc8785.dumps(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def faces(seed: bytes, context: dict[str, Any], sizes: list[int]) -> list[int]:
    scheme = context.get("v", 1)
    message = canon({**context, "v": scheme}, scheme)
    stream, counter, out = b"", 0, []
    for n in sizes:
        if n == 1:
            out.append(1)
            continue
        k = 1
        while 256**k < n:
            k += 1
        while True:
            while len(stream) < k:
                stream += hmac.new(seed, message + counter.to_bytes(8, "big"), "sha256").digest()
                counter += 1
            x, stream = int.from_bytes(stream[:k], "big"), stream[k:]
            if x < n * (256**k // n):
                out.append(x % n + 1)
                break
    return out


def verify(journal: dict[str, Any]) -> list[tuple[str, int | None]]:
    """The problems of an exported journal, as (kind, seq), first one first."""
    problems: list[tuple[str, int | None]] = []
    if journal.get("format") != "jdr-journal" or journal.get("v") not in (1, 2):
        return [("format", None)]
    seeds: dict[str, bytes | None] = {}
    for epoch in journal["epochs"]:
        seeds[epoch["commitment"]] = None
        if epoch["seed"] is None:
            continue
        seed = bytes.fromhex(epoch["seed"])
        if sha(seed) != epoch["commitment"]:
            problems.append(("seed", None))
            continue
        seeds[epoch["commitment"]] = seed
    entries = journal["entries"]
    seqs = [item["seq"] for item in entries]
    swapped: dict[int, bool] = {}
    expected = 1
    for index, seq in enumerate(seqs):
        following = seqs[index + 1] if index + 1 < len(seqs) else None
        if index not in swapped and seq == expected + 1 and following == expected:
            swapped[index], swapped[index + 1] = True, False
        expected = max(expected, seq + 1)
    previous, expected = GENESIS, 1
    for index, item in enumerate(entries):
        seq, scheme = item["seq"], item.get("v", 1)
        if swapped.get(index):
            problems.append(("swap", seq - 1))
        if index not in swapped:
            if seq == expected + 1:
                problems.append(("missing_one", seq))
            elif seq > expected:
                problems.append(("missing", seq))
            elif seq < expected:
                problems.append(("order", seq))
        if item["prev_hash"] != previous:
            problems.append(("link", seq))
        disclosed = "context" in item
        if disclosed and item["context"].get("seq") != seq:
            problems.append(("context_seq", seq))
        body_hash = item.get("body_hash")
        if disclosed:
            body = {key: item[key] for key in ("context", "dice", "result")}
            if item["hidden"]:
                body["salt"] = item.get("salt")
            body_hash = sha(canon(body, scheme))
        if item["commitment"] not in seeds:
            problems.append(("commitment", seq))
        elif disclosed and item["dice"]["source"] == "derived" and seeds[item["commitment"]]:
            rolls = item["dice"]["rolls"]
            derived = faces(
                seeds[item["commitment"]] or b"", item["context"], [s for s, _ in rolls]
            )
            for (_size, face), face_derived in zip(rolls, derived, strict=True):
                if face != face_derived:
                    problems.append(("die", seq))
                    break
        if disclosed and item.get("body_hash", body_hash) != body_hash:
            problems.append(("body_hash", seq))
        header = {key: item[key] for key in ("seq", "prev_hash", "commitment", "hidden")}
        header["body_hash"] = body_hash
        if scheme == 2:
            header.update(time=item["time"], v=2)
        if sha(canon(header, scheme)) != item["hash"]:
            problems.append(("hash", seq))
        previous, expected = item["hash"], max(expected, seq + 1)
    return problems
