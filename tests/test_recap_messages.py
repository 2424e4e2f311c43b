"""Issue 33: recaps sized for their medium. Each of the five systems' demo fights, played on to
its end (or until it can no longer end), recapped whole and round by round for Discord: every
message at most 2,000 characters, cut between actions and never inside a line, numbered
"(1/3)", the one journal line on the last, which `jdr verify --witness` accepts; `--max-chars`
for another medium; the web's copies and the webhooks' posts cut the same way (`jdr.split`).
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_run import answer, run
from jdr.dice import make_source
from jdr.errors import InputError, JdrError
from jdr.fights import service
from jdr.fights.demo import SCRIPTS, Played, play_script
from jdr.fights.recaps import Posted, posted
from jdr.journal.service import export
from jdr.journal.verify import verify, witnesses_in
from jdr.split import DISCORD, SMALLEST, check_limit, lines, pack
from jdr.store import Store
from test_fight_recaps import play

LIMIT = DISCORD
JOURNAL = re.compile(r"^_journal (#|n°)\d+ [0-9a-f]{10}( … |, )?")


def to_the_end(store: Store, played: Played, most: int = 60) -> str:
    """Play `played`'s fight on with its system's simulation tactic (dice from fixed seeds)
    until it is over ("over"), can no longer end ("stalled") or `most` more commands."""
    system = played.system
    rules, simulation = system.fight, getattr(system, "simulation", None)
    assert rules is not None and simulation is not None
    commands = getattr(system, "fight_commands", None)
    for step in range(most):
        now = service.state(store, played.fight_id, rules)
        if simulation.over(now):
            return "over"
        if simulation.stalled is not None and simulation.stalled(now):
            return "stalled"
        chosen = simulation.tactic(now)
        for command in chosen if isinstance(chosen, list) else [chosen]:
            declared = commands.get(command["action"]) if commands is not None else None
            salted = {"salt": f"test-{step}"} if getattr(declared, "sealed", False) else {}
            dice = make_source(seed=str(step))
            try:
                service.act(store, played.fight_id, rules, {**command, **salted}, dice)
                break
            except JdrError:
                continue
    return "cut"


def rounds_of(store: Store, fight_id: int) -> list[int]:
    """The rounds (or hands) a fight has had, as `jdr fight recap --round` lists them."""
    try:
        posted(store, fight_id, "discord", round_=10_000)
    except InputError as refused:
        return [int(n) for n in str(refused.allowed).split(", ") if n.isdigit()]
    raise AssertionError("round 10000 was accepted")


def check_messages(made: Posted, limit: int = LIMIT, whole_lines: bool = True) -> None:
    """What every recap for a medium with a limit must be (`whole_lines` False: a limit so small
    that an action's line may be cut, between its sentences)."""
    count = len(made.messages)
    whole = made.text.splitlines()
    assert all(len(message) <= limit for message in made.messages), [len(m) for m in made.messages]
    if count == 1:
        assert made.messages == [made.text]
    items: list[str] = []
    for number, message in enumerate(made.messages, 1):
        title, *rest = message.splitlines()
        assert title.endswith(f" ({number}/{count})**") or count == 1, title
        if whole_lines:
            assert all(line in whole for line in rest), "a line was cut"
        else:
            assert all(any(line[2:] in w for w in whole) for line in rest), "a line was changed"
        items += [line for line in rest if line.startswith("- ")]
        footer = [line for line in rest if JOURNAL.match(line)]
        assert len(footer) == (1 if number == count and made.entries else 0), message
    said = [line for line in whole if line.startswith("- ")]
    if whole_lines:
        assert items == said, "every item once, in order"
    else:
        assert " ".join(i[2:] for i in items) == " ".join(i[2:] for i in said)
    if made.entries:
        last = made.messages[-1].splitlines()[-1]
        assert JOURNAL.match(last) and last.count("#") == min(2, len(made.entries)), last


def check_witness(store: Store, played: Played, made: Posted) -> None:
    """The compact journal line witnesses its first and last entries, and a journal cut short
    or rewritten after it was seen contradicts it."""
    journal: dict[str, Any] = json.loads(json.dumps(export(store, store.campaign(played.campaign))))
    seen = witnesses_in(made.messages[-1], "discord.txt")
    ends = [made.entries[0].seq, made.entries[-1].seq]
    assert [w.seq for w in seen] == sorted(set(ends))
    assert verify(journal, witnesses=seen).ok
    cut = copy.deepcopy(journal)
    del cut["entries"][ends[-1] - 1 :]
    kinds = [p.kind for p in verify(cut, witnesses=seen).problems]
    assert kinds[-1] == "witness_missing" and kinds.count("witness_missing") == 1, kinds


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.system for s in SCRIPTS])
def test_every_demo_fight_recap_splits_into_discord_messages(store: Store, script: Any) -> None:
    played = play_script(store, script)
    short = posted(store, played.fight_id, "discord", whole=True)
    check_messages(short)
    if to_the_end(store, played) == "over" and script.system == "poledemos":
        rules = played.system.fight
        assert rules is not None  # its hands are played: the GM ends it, as its rules never do
        service.end(store, played.fight_id, rules, [played.names[0]])
        store.set_fight_status(played.fight_id, "ended")
    made = posted(store, played.fight_id, "discord", whole=True)
    check_messages(made)
    check_witness(store, played, made)
    assert len(made.entries) > len(short.entries)
    if script.system != "pokemon":  # the end of the fight is said, on the last message
        ends = ("**The fight is over: ", "**The GM ended the fight: Alice wins.**")
        assert any(end in made.messages[-1] for end in ends), made.messages[-1]
    else:  # the demo's Pokémon fight stalls: nobody can hurt anybody any more
        assert "the fight can no longer end by its rules" in made.messages[-1]
    for number in rounds_of(store, played.fight_id):
        check_messages(posted(store, played.fight_id, "discord", round_=number))
    small = posted(store, played.fight_id, "markdown", whole=True, max_chars=SMALLEST)
    check_messages(small, SMALLEST, whole_lines=False)
    assert len(small.messages) > 1
    assert posted(store, played.fight_id, "markdown", whole=True).messages == [made.text]


def test_sealed_markers_chosen_together_read_as_one_line(store: Store) -> None:
    played = play_script(store, next(s for s in SCRIPTS if s.system == "passion"))
    text = posted(store, played.fight_id, "discord", whole=True).text
    (line,) = [line for line in text.splitlines() if "has chosen a marker" in line]
    assert line.startswith("- Romuald has chosen a marker (sealed: ")
    assert "Cyber-ninja has chosen a marker (sealed: " in line and "Markers revealed: " in line


def test_the_command_line_cuts_a_recap_for_discord_or_a_forum(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    play(capsys, db, "passion")
    code, out, err = run(capsys, "fight", "recap", "1", "--all", "--format", "discord", "--db", db)
    assert code == 0 and out.startswith("**Fight 1 (1/2)**\n"), err
    first, second = out.split("\n\n**Fight 1 (2/2)**\n")
    assert len(first) <= LIMIT and len(second) < LIMIT and second.endswith("…_\n")
    found = answer(capsys, "fight", "recap", "1", "--all", "--format", "bbcode", "--db", db,
                   "--max-chars", "700")  # fmt: skip
    messages = found["messages"]
    assert len(messages) > 1 and all(len(m) <= 700 for m in messages)
    assert messages[0].startswith(f"[b]Fight 1 (1/{len(messages)})[/b]\n")
    assert all(m.count("[list]") == m.count("[/list]") for m in messages)
    assert found["recap"].startswith("[b]Fight 1[/b]") and found["journal"]
    code, out, _err = run(capsys, "fight", "recap", "1", "--all", "--max-chars", "700",
                          "--format", "texte", "--db", db, "--lang", "fr")  # fmt: skip
    assert code == 0 and out.startswith("Combat 1 (1/") and "\n\nCombat 1 (2/" in out
    code, _out, err = run(capsys, "fight", "recap", "1", "--max-chars", "100", "--db", db)
    assert code == 2 and "--max-chars" in err and f"{SMALLEST} or more" in err
    code, _out, err = run(capsys, "fight", "recap", "1", "--format", "tweet", "--db", db)
    assert code == 2 and "Discord" in err


def test_the_web_copies_carry_the_journal_line_and_discord_messages(store: Store) -> None:
    from jdr.table import copies

    played = play_script(store, SCRIPTS[0])
    to_the_end(store, played)
    found = copies(store, played.fight_id)
    assert "[i]journal #" in found["bbcode"] and "_journal #" in found["markdown"]
    assert found["discord"] and all(len(m) <= LIMIT for m in found["discord"])
    assert found["discord"][-1].splitlines()[-1].startswith("_journal #")


def test_a_webhook_post_is_cut_under_discords_limit() -> None:
    from datetime import UTC, datetime

    from jdr.live.announce import Announcement
    from jdr.live.webhook import messages

    lines = tuple(f"Kaito attacks Corbeau, blow {n}. " * 8 for n in range(20))
    told = Announcement(1, "Fight 1, action 5 · Kaito", lines, datetime.now(UTC),
                        journal_line="journal #7 · 3fa9c2d1e0 · seed commitment 0123…")  # fmt: skip
    bodies = [json.loads(body)["content"] for body in messages("discord", told)]
    assert len(bodies) > 1 and all(len(body) <= DISCORD for body in bodies)
    assert bodies[0].startswith(f"**Fight 1, action 5 · Kaito (1/{len(bodies)})**\n")
    assert bodies[-1].endswith("`journal #7 · 3fa9c2d1e0 · seed commitment 0123…`")
    told_lines = [line for body in bodies for line in body.splitlines()[1:]]
    assert told_lines[:-1] == list(lines), "every line once, whole, in order"
    slack = [json.loads(body)["text"] for body in messages("slack", told)]
    assert all(len(body) <= 3000 for body in slack) and len(slack) < len(bodies) + 1


def test_a_limit_below_the_smallest_is_refused() -> None:
    assert check_limit(None) is None and check_limit(SMALLEST) == SMALLEST
    with pytest.raises(InputError):
        check_limit(SMALLEST - 1)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(1, 380), max_size=40),
    st.integers(SMALLEST, 2500),
    st.integers(0, 3),
)
def test_split_keeps_every_line_whole_in_order_under_the_limit(
    sizes: list[int], limit: int, tails: int
) -> None:
    body = [f"- {n}:" + "x" * size for n, size in enumerate(sizes)]
    tail = [f"_journal #{n} 3fa9c2d1e0_" for n in range(tails)]
    said = lines("**Fight 1**", body, tail, limit)
    count = len(said)
    assert all(len(message) <= limit for message in said)
    shown: list[str] = []
    for number, message in enumerate(said, 1):
        title, *rest = message.split("\n")
        assert title == (f"**Fight 1 ({number}/{count})**" if count > 1 else "**Fight 1**")
        kept = rest[: len(rest) - len(tail)] if number == count else rest
        assert number < count or rest[len(rest) - len(tail) :] == tail
        shown += kept
    assert shown == body, "every line once, whole, in order"


def test_a_line_longer_than_a_message_is_cut_between_its_sentences() -> None:
    line = "- " + " ".join(f"Sentence {n} is said." for n in range(200))
    said = lines("**Fight 1**", [line], ["_journal #1 3fa9c2d1e0_"], SMALLEST)
    assert len(said) > 1 and all(len(message) <= SMALLEST for message in said)
    pieces = [piece for message in said for piece in message.splitlines()[1:]][:-1]
    assert " ".join(pieces) == line and all(p.endswith("is said.") for p in pieces)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 200), min_size=1, max_size=30), st.integers(300, 1200))
def test_pack_fills_messages_in_order(sizes: list[int], limit: int) -> None:
    def render(chunk: Any, number: int, count: int, last: bool) -> str:
        return "\n".join([f"T ({number}/{count})", *chunk, *(["END"] if last else [])])

    units = ["y" * size for size in sizes]
    said = pack(units, render, limit)
    assert all(len(message) <= limit for message in said)
    assert [u for m in said for u in m.split("\n")[1:] if u != "END"] == units
    assert said[-1].endswith("END") and not any(m.endswith("END") for m in said[:-1])


def test_a_bbcode_list_cut_between_messages_is_closed_and_opened_again() -> None:
    body = ["[b]Actions[/b]", "[list]", *[f"[*]Kaito attacks, blow {n}. " * 4 for n in range(12)]]
    said = lines(
        "[b]Kaito — round 2[/b]", [*body, "[/list]"], ["[i]journal #2 3fa9c2d1e0[/i]"], 600
    )
    assert len(said) > 1 and all(len(message) <= 600 for message in said)
    for number, message in enumerate(said, 1):
        assert message.startswith(f"[b]Kaito — round 2 ({number}/{len(said)})[/b]\n")
        assert message.count("[list]") == message.count("[/list]") == 1, message
