"""Issue 18: witnesses — journal heads seen in saved texts show a rewrite without a manual pin."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cli_run import run
from jdr.journal.verify import Witness, verify, witnesses_in
from jdr.store import Store
from test_verifiers_agree import RUNNER, VERIFY_JS, format_2_journal, rehash

Json = dict[str, Any]
NODE = shutil.which("node")


def saved_post(journal: Json, seq: int) -> str:
    """A forum post as a player saved it: a recap whose footer pins entry `seq`."""
    entry = journal["entries"][seq - 1]
    return (
        "<div class='post'>[b]Sacha[/b] lance une Super Ball…<br>"
        f"[i]journal n°{seq} · {entry['hash'][:10]} · engagement de graine 630dcd29…[/i]</div>"
    )


def test_heads_are_read_from_any_saved_text_in_either_language() -> None:
    text = "journal #12 · 3fa9c2d1e0 · seed …\n_journal n°13 0123456789, #14 abcdefabcd · …_"
    assert witnesses_in(text, "t") == [
        Witness(12, "3fa9c2d1e0", "t"),
        Witness(13, "0123456789", "t"),
        Witness(14, "abcdefabcd", "t"),
    ]
    assert witnesses_in("post #3 by Sacha, 14 likes", "t") == []


def test_a_recaps_compact_journal_line_witnesses_its_first_and_last_entries() -> None:
    compact = "_journal #12 3fa9c2d1e0 … #41 77ab01c2d3 · seed commitment 0123456789abcdef…_"
    french = "[i]journal n°12 3fa9c2d1e0 … n°41 77ab01c2d3 · engagement de graine 01234567…[/i]"
    for text in (compact, french):
        assert witnesses_in(text, "t") == [
            Witness(12, "3fa9c2d1e0", "t"),
            Witness(41, "77ab01c2d3", "t"),
        ]


def test_a_truncated_or_re_rolled_journal_contradicts_its_witness(store: Store) -> None:
    journal = format_2_journal(store)
    seen = witnesses_in(saved_post(journal, 4), "post.html")
    assert verify(journal, witnesses=seen).ok
    truncated = copy.deepcopy(journal)
    del truncated["entries"][3:]
    (problem,) = verify(truncated, witnesses=seen).problems
    assert problem.message() == (
        "entry 4: post.html saw it, but the journal ends at entry 3 — entries were removed"
    )
    rerolled = copy.deepcopy(journal)
    size, face = rerolled["entries"][1]["dice"]["rolls"][0]
    rerolled["entries"][1]["dice"]["rolls"][0][1] = face % size + 1
    kinds = [p.kind for p in verify(rehash(rerolled, 1), witnesses=seen).problems]
    assert kinds[-1] == "witness"  # the chain alone is consistent: the witness is what catches it


def test_verify_witness_on_the_command_line(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = format_2_journal(store)
    post = tmp_path / "thread.html"
    post.write_text(saved_post(journal, 5), encoding="utf-8")
    path = tmp_path / "journal.json"
    cut = copy.deepcopy(journal)
    del cut["entries"][4:]
    path.write_text(json.dumps(cut), encoding="utf-8")
    code, out, _err = run(capsys, "verify", str(path), "--witness", str(post))
    assert code == 1 and f"entry 5: {post} saw it, but the journal ends at entry 4" in out
    code, out, _err = run(capsys, "verify", str(path), "--witness", str(post), "--lang", "fr")
    assert code == 1 and "le journal s'arrête à l'entrée 4" in out


@pytest.mark.skipif(NODE is None, reason="no Node.js (.ci/run installs it)")
def test_the_browser_verifier_reads_the_same_witnesses(store: Store, tmp_path: Path) -> None:
    journal = format_2_journal(store)
    post = tmp_path / "post.txt"
    post.write_text(saved_post(journal, 5), encoding="utf-8")
    del journal["entries"][4:]
    path = tmp_path / "journal.json"
    path.write_text(json.dumps(journal), encoding="utf-8")
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(RUNNER), str(VERIFY_JS), str(path), str(post)],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stdout)
    assert [(p["kind"], p["seq"]) for p in report["problems"]] == [("witness_missing", 5)]
