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
    revealed = set()
    for epoch in journal["epochs"]:
        seeds[epoch["commitment"]] = None
        if epoch["seed"] is None:
            continue
        revealed.add(epoch["commitment"])
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
        elif not disclosed and item["commitment"] in revealed:
            problems.append(("sealed_revealed", seq))
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
        if disclosed and "events_hash" in item["result"]:
            shown = item["result"].get("events")
            if (
                sha(canon(shown if isinstance(shown, list) else [], 2))
                != item["result"]["events_hash"]
            ):
                problems.append(("events_hash", seq))
        header = {key: item[key] for key in ("seq", "prev_hash", "commitment", "hidden")}
        header["body_hash"] = body_hash
        if scheme == 2:
            header.update(time=item["time"], v=2)
        if sha(canon(header, scheme)) != item["hash"]:
            problems.append(("hash", seq))
        bound = {*header, "hash"} | ({"v"} if "v" in item else set())
        if disclosed:
            bound |= {"context", "dice", "result"} | ({"salt"} if item["hidden"] else set())
        unbound = [key for key in item if key not in bound]
        if unbound:
            problems.append(("field", seq))
        previous, expected = item["hash"], max(expected, seq + 1)
    fought = fight_problems(journal.get("fights"), entries)
    sheeted = sheet_problems(journal.get("sheets"), entries)
    kept = sheet_problems(journal.get("snapshots"), entries, snapshots=True)
    return problems + fought + sheeted + kept


def sheet_problems(
    sheets: Any, entries: list[Any], snapshots: bool = False
) -> list[tuple[str, int | None]]:
    """Step 9: each exported sheet against the entries: not behind the highest revision a
    disclosed entry records for it, recorded by the entry it names, and the same as its
    revision's `sheet_hash`; each kept snapshot (`snapshots`) likewise, without the first."""
    if sheets is None:
        return []
    if not isinstance(sheets, list):
        return [("sheets", None)]
    problems: list[tuple[str, int | None]] = []
    for sheet in sheets:
        if not _sheet_shape(sheet):
            return [*problems, ("sheets", None)]
        character, revision, seq = sheet["character"], sheet["revision"], sheet["seq"]
        highest: tuple[int, int] | None = None
        for entry in entries:
            context, result = entry.get("context"), entry.get("result")
            if not isinstance(context, dict) or not isinstance(result, dict):
                continue
            recorded = []
            if str(context.get("action", "")).startswith("sheet.") and (
                context.get("character") == character
            ):
                recorded.append(result.get("revision"))
            recorded += [
                item.get("revision")
                for item in result.get("sheets") or []
                if isinstance(item, dict) and item.get("character") == character
            ]
            for number in recorded:
                if isinstance(number, int) and (highest is None or number > highest[0]):
                    highest = (number, entry["seq"])
        if not snapshots and highest is not None and highest[0] > revision:
            problems.append(("sheet_behind", highest[1]))
            continue
        named: list[Any] = [entry for entry in entries if entry.get("seq") == seq]
        matching = [
            (who, number, digest)
            for who, number, digest in _recorded(named[-1] if named else {})
            if number == revision and (who == character or (who is None and revision == 1))
        ]
        if not matching:
            problems.append(("sheet_entry", seq))
            continue
        bound = matching[0][2]
        if bound is not None:
            mine = sha(canon({"name": sheet["name"], "sheet": sheet["sheet"]}, 2))
            if mine != bound:
                problems.append(("snapshot_changed" if snapshots else "sheet_changed", seq))
    return problems


def _recorded(entry: Any) -> list[tuple[Any, Any, str | None]]:
    """The (character, revision, sheet_hash) an entry records: each item of its result's
    `sheets`, else a `sheet.…` entry's own (its context's character: null for a creation)."""
    context, result = entry.get("context"), entry.get("result")
    if not isinstance(context, dict) or not isinstance(result, dict):
        return []

    def digest(data: dict[str, Any]) -> str | None:
        found = data.get("sheet_hash")
        return found if isinstance(found, str) else None

    if "sheets" in result:
        items = result["sheets"] if isinstance(result["sheets"], list) else []
        return [
            (item.get("character"), item.get("revision"), digest(item))
            for item in items
            if isinstance(item, dict)
        ]
    if str(context.get("action", "")).startswith("sheet."):
        return [(context.get("character"), result.get("revision"), digest(result))]
    return []


def _sheet_shape(sheet: Any) -> bool:
    def whole(n: Any) -> bool:
        return isinstance(n, int) and not isinstance(n, bool)

    return (
        isinstance(sheet, dict)
        and all(whole(sheet.get(key)) for key in ("character", "revision", "seq"))
        and isinstance(sheet.get("name"), str)
        and isinstance(sheet.get("sheet"), dict)
    )


def fight_problems(fights: Any, entries: list[Any]) -> list[tuple[str, int | None]]:
    """Each exported fight's events against the entries that recorded them: the first event
    changed, added or removed, per fight."""
    if fights is None:
        return []
    if not isinstance(fights, list):
        return [("fights", None)]
    problems: list[tuple[str, int | None]] = []
    if not all(_fight_shape(fight) for fight in fights):
        return [("fights", None)]
    shown = [fight["fight"] for fight in fights]
    for item in entries:  # a fight the entries record but the file leaves out: no events
        context = item.get("context")
        number = context.get("fight") if isinstance(context, dict) else None
        if isinstance(number, int) and not isinstance(number, bool) and number not in shown:
            tail = str(context.get("action_id", "")).removeprefix(f"#fight{number}.")
            if tail.isdigit():
                shown.append(number)
                fights = [*fights, {"fight": number, "events": []}]
    for fight in fights:
        number, prefix = fight["fight"], f"#fight{fight['fight']}."
        recorded = {}
        for item in entries:
            context = item.get("context")
            if isinstance(context, dict) and context.get("fight") == number:
                action_id = str(context.get("action_id", ""))
                if action_id.startswith(prefix) and action_id[len(prefix) :].isdigit():
                    recorded[int(action_id[len(prefix) :])] = item
        groups: dict[int, list[Any]] = {}
        for stored in fight["events"]:
            groups.setdefault(stored["action"], []).append(stored)
        found: tuple[str, int | None] | None = None
        for action, items in groups.items():
            entry = recorded.get(action)
            if entry is None:
                found = ("fight_added", None)
            elif any(item["seq"] != action + k for k, item in enumerate(items)):
                found = ("fight_changed", entry["seq"])  # numbered from the action on
            else:
                found = _action([item["event"] for item in items], entry)
            if found is not None:
                break
        else:
            for action, entry in sorted(recorded.items()):
                if action not in groups and entry["result"].get("events"):
                    found = ("fight_removed", entry["seq"])
                    break
        if found is not None:
            problems.append(found)
    return problems


def _fight_shape(fight: Any) -> bool:
    def whole(n: Any) -> bool:
        return isinstance(n, int) and not isinstance(n, bool)

    return (
        isinstance(fight, dict)
        and whole(fight.get("fight"))
        and isinstance(fight.get("events"), list)
        and all(
            isinstance(e, dict)
            and whole(e.get("seq"))
            and whole(e.get("action"))
            and isinstance(e.get("event"), dict)
            for e in fight["events"]
        )
    )


def _action(events: list[Any], entry: dict[str, Any]) -> tuple[str, int | None] | None:
    def digest(value: Any) -> str:
        return sha(canon(value, 2))

    shown = entry["result"].get("events") or []
    bound = entry["result"].get("events_hash")
    if bound is not None and digest(events) == bound == digest(shown):
        return None
    if bound is None and canon(events, 2) == canon(shown, 2):
        return None
    for mine, theirs in zip(events, shown, strict=False):
        if digest(mine) != digest(theirs):
            return ("fight_changed", entry["seq"])
    if len(events) > len(shown):
        return ("fight_added", entry["seq"])
    if len(events) < len(shown):
        return ("fight_removed", entry["seq"])
    return ("fight_changed", entry["seq"])
