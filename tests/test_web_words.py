"""Issue 30.1, the web's own words: journal kinds (a sheet's revisions, a fight's opening, undo
and end, generic dice) named in the reader's language on the journal, the campaign page, the
sheet history, the feed and `jdr journal show`; the browser verifier's failures in the page's
language; a refusal names its field in words; a body that is not JSON, or a value of the wrong
type, is told in words (never Python's or pydantic's English); the luck page's numbers in the
reader's number format."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli_run import run
from jdr.access import Viewer
from jdr.characters import service as sheets
from jdr.dice import notation
from jdr.i18n import language
from jdr.journal import service as journal
from jdr.journal.verify import BROWSER_DETAILS, MESSAGES, browser_messages
from jdr.live import seat
from jdr.store import Store
from jdr.table import start_fight
from test_web_leaks import visible_text
from web_helpers import join, plus_ultra_table

ROOT = Path(__file__).resolve().parents[1]
VERIFY_JS = ROOT / "src" / "jdr" / "web" / "static" / "verify.js"
NODE = shutil.which("node")
HERO, VILLAIN = "Kaito Arashi", "Maître Corbeau"

KINDS = {
    "fr": ["création", "nouveau nom", "annulation", "début du combat", "jet de dés"],
    "en": ["creation", "new name", "undo", "fight started", "dice roll"],
}
IDENTIFIERS = ["sheet.created", "sheet.renamed", "sheet.undone", "start", "dice", "undone"]


@pytest.fixture
def table(database_url: str) -> Iterator[tuple[Any, Store, int]]:
    """A Plus Ultra campaign whose journal holds every kind of entry but a roll: the sheets'
    creations, a renaming and its undo, generic dice, a fight's opening and an undone action."""
    app, store, campaign_id = plus_ultra_table(database_url, "Mots")
    campaign = store.campaign_by_id(campaign_id)
    sheets.rename(store, campaign, VILLAIN, "Corbeau", actor="MJ")
    sheets.undo(store, campaign, "Corbeau")
    journal.roll_dice(store, campaign, notation.parse("2d6"), journal.Who(HERO))
    start_fight(store, Viewer(campaign_id, "gm"), campaign, [HERO, VILLAIN])
    yield app, store, campaign_id
    store.close()


def _words_only(text: str, lang: str, told: bool = False) -> None:
    """Every kind in the reader's words, none as the journal stores it (`told`: a fight's
    opening is told by its sentence, not named)."""
    for word in KINDS[lang]:
        assert word in text or (told and word in ("début du combat", "fight started")), (
            lang,
            word,
            text,
        )
    shown = set(text.replace("·", " ").replace(":", " ").split())
    stored = set(IDENTIFIERS) - ({"dice", "start"} if lang == "en" else set())  # English too
    assert not shown & stored, (lang, shown & stored)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_journal_kinds_are_words_on_the_journal_and_campaign_pages(
    table: tuple[Any, Store, int], lang: str
) -> None:
    app, store, campaign_id = table
    gm = join(app, store, campaign_id, "gm")
    gm.client.get(f"/lang/{lang}")
    for path in (f"/c/{campaign_id}/journal", f"/c/{campaign_id}"):
        _words_only(visible_text(gm.client.get(path).text), lang)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_sheet_history_names_each_revision_in_words(
    table: tuple[Any, Store, int], lang: str
) -> None:
    app, store, campaign_id = table
    gm = join(app, store, campaign_id, "gm")
    gm.client.get(f"/lang/{lang}")
    villain = store.character_named(campaign_id, VILLAIN).id
    text = visible_text(gm.client.get(f"/c/{campaign_id}/sheets/{villain}/parts/history").text)
    for word in KINDS[lang][:3]:
        assert word in text, (lang, word, text)
    assert "created" not in text.split() or lang == "en"
    assert not {"renamed", "undone"} & set(text.split()), text


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_feed_and_the_cli_journal_name_kinds_in_words(
    table: tuple[Any, Store, int],
    lang: str,
    capsys: pytest.CaptureFixture[str],
    database_url: str,
) -> None:
    app, store, campaign_id = table
    campaign = store.campaign_by_id(campaign_id)
    made = seat.make_feed(store, Viewer(campaign_id, "gm"), campaign, lang)
    stranger = join(app, store, campaign_id, "spectator").client
    feed = stranger.get(f"/feeds/{made.token}").text
    assert not any(f">{word}<" in feed or f" {word} " in feed for word in IDENTIFIERS), feed
    code, out, err = run(
        capsys, "journal", "show", campaign.name, "--db", database_url, "--lang", lang
    )
    assert code == 0, err
    _words_only(out, lang, told=True)


def _flat(text: str) -> str:
    """`text` as `visible_text` reads it: every run of spaces (no-break ones too) one space."""
    return " ".join(text.split())


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "fr",
            ("campagne\u00a0: pas votre campagne (permis\u00a0: la campagne de votre invitation)"),
        ),
        ("en", "campaign: not your campaign (allowed: the campaign of your invite)"),
    ],
)
def test_a_refusal_names_its_field_in_words(
    table: tuple[Any, Store, int], lang: str, expected: str
) -> None:
    app, store, campaign_id = table
    other = store.create_campaign("plus-ultra", "Autre table")
    gm = join(app, store, campaign_id, "gm")
    gm.client.get(f"/lang/{lang}")
    page = gm.client.get(f"/c/{other}")
    assert page.status_code == 403
    text = visible_text(page.text)
    assert _flat(expected) in text, text
    assert "\ncampaign\n" not in text or lang == "en"  # the field row too
    api = gm.client.get(f"/api/c/{other}")
    assert api.json()["error"]["field"] == "campaign"  # JSON keeps the stable name
    assert api.json()["error"]["message"] == expected


@pytest.mark.parametrize(
    ("lang", "expected", "typed"),
    [
        ("fr", "JSON\u00a0: JSON non valable au caractère 2",
         "action\u00a0: 3 n'est pas permis (permis\u00a0: texte)"),
        ("en", "JSON: not valid JSON at character 2", "action: 3 is not allowed (allowed: text)"),
    ],
)  # fmt: skip
def test_a_body_that_is_not_json_is_told_in_the_readers_words(
    table: tuple[Any, Store, int], lang: str, expected: str, typed: str
) -> None:
    app, store, campaign_id = table
    gm = join(app, store, campaign_id, "gm")
    gm.client.get(f"/lang/{lang}")
    headers = {"X-CSRF-Token": gm.csrf, "content-type": "application/json"}
    bad = gm.client.post(f"/api/c/{campaign_id}/roll", content=b"{not json", headers=headers)
    assert bad.status_code == 422
    message = bad.json()["error"]["message"]
    assert message.startswith(expected), message
    assert "Expecting" not in message and "decode" not in message
    wrong = gm.client.post(f"/api/c/{campaign_id}/roll", json={"action": 3}, headers=headers)
    assert wrong.json()["error"]["message"] == typed
    assert "Input should" not in wrong.text


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_luck_page_has_one_number_format(table: tuple[Any, Store, int], lang: str) -> None:
    app, store, campaign_id = table
    gm = join(app, store, campaign_id, "gm")
    gm.client.get(f"/lang/{lang}")
    text = visible_text(gm.client.get(f"/c/{campaign_id}/luck").text)
    percents = [w for w in text.replace("\n", " ").split(" %")[:-1] if w]
    assert percents, text
    numbers = [p.split()[-1] for p in percents]
    numbers = [n for n in numbers if any(c.isdigit() for c in n)]
    assert numbers, text
    wrong = "." if lang == "fr" else ","
    assert not any(wrong in n for n in numbers), (lang, numbers)
    assert "%" not in text.replace(" %", ""), text  # never `54.9%` beside `45,00 %`


def test_the_browser_verifiers_details_are_the_ones_python_translates() -> None:
    """verify.js's `DETAILS` and `MESSAGES` are the templates `jdr.journal.verify` declares
    (and has translated): the page hands the verifier their French."""
    source = VERIFY_JS.read_text(encoding="utf-8")
    details = _js_table(source, "export const DETAILS = {")
    assert details == {k: v.replace("}}", "}") for k, v in BROWSER_DETAILS.items()}
    messages = _js_table(source, "const MESSAGES = {")
    assert messages == {k: MESSAGES[k] for k in messages}
    with language("fr"):
        french = browser_messages()
    assert french["kinds"]["body_hash"].startswith("entrée {seq}")
    assert all(text != BROWSER_DETAILS[key] for key, text in french["details"].items())


def _js_table(source: str, start: str) -> dict[str, str]:
    body = source[source.index(start) + len(start) : source.index("\n};", source.index(start))]
    found = {}
    for line in body.strip().splitlines():
        key, text = line.strip().split(": ", 1)
        found[key] = json.loads(text.rstrip(","))
    return found


@pytest.mark.skipif(NODE is None, reason="no Node.js (.ci/run installs it)")
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_browser_verifier_tells_failures_in_the_pages_language(
    store: Store, tmp_path: Path, lang: str
) -> None:
    from test_verifiers_agree import format_2_journal

    exported = format_2_journal(store)
    exported["entries"][2]["body_hash"] = "0" * 64
    broken = tmp_path / "journal.json"
    broken.write_text(json.dumps(exported), encoding="utf-8")
    (tmp_path / "not-json.json").write_text('{"format": "jdr-journal", ', encoding="utf-8")
    with language(lang):
        words = tmp_path / "words.json"
        words.write_text(json.dumps(browser_messages(), ensure_ascii=False), encoding="utf-8")
    script = tmp_path / "run.mjs"
    script.write_text(
        "import { readFileSync } from 'node:fs';\n"
        "import { pathToFileURL } from 'node:url';\n"
        "const [module, words, ...files] = process.argv.slice(2);\n"
        "const { describe, verifyJournalText } = await import(pathToFileURL(module).href);\n"
        "const messages = JSON.parse(readFileSync(words, 'utf8'));\n"
        "const out = [];\n"
        "for (const file of files) {\n"
        "  const report = await verifyJournalText(readFileSync(file, 'utf8'));\n"
        "  out.push(report.problems.map((p) => describe(p, messages)));\n"
        "}\n"
        "process.stdout.write(JSON.stringify(out));\n",
        encoding="utf-8",
    )
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(script), str(VERIFY_JS), str(words), str(broken),
         str(tmp_path / "not-json.json")],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    tampered, not_json = json.loads(done.stdout)
    if lang == "fr":
        assert tampered[0].startswith("entrée 3\u00a0: son corps a pour hachage"), tampered
        assert not_json == [
            ("pas un journal jdr\u00a0: pas du JSON\u00a0: une clé attendue au caractère 26")
        ]
    else:
        assert tampered[0].startswith("entry 3: its body hashes to"), tampered
        assert not_json == ["not a jdr journal: not JSON: a key expected at character 26"]


def test_the_journal_page_hands_its_verifier_the_pages_words(
    table: tuple[Any, Store, int],
) -> None:
    app, store, campaign_id = table
    gm = join(app, store, campaign_id, "gm")
    gm.client.get("/lang/fr")
    page = gm.client.get(f"/c/{campaign_id}/journal").text
    start = page.index('<script type="application/json" id="verify-messages">') + len(
        '<script type="application/json" id="verify-messages">'
    )
    carried = json.loads(page[start : page.index("</script>", start)])
    with language("fr"):
        assert carried == browser_messages()
    assert carried["details"]["json_key"].startswith("pas du JSON")


def test_sheet_kinds_keep_their_stored_names() -> None:
    """The kinds stay what the journal and JSON store (`sheet.created`); only their names are
    words, declared once beside them."""
    from jdr.characters.revisions import KIND_NAMES, KINDS, kind_name

    assert KINDS[0] == "created" and set(KINDS) == set(KIND_NAMES)
    with language("fr"):
        assert [kind_name(k) for k in ("created", "renamed", "undone")] == [
            "création",
            "nouveau nom",
            "annulation",
        ]


@pytest.mark.parametrize(
    ("lang", "page", "character", "method"),
    [
        ("fr", "page\u00a0: /nowhere n'est pas permis", "personnage\u00a0: 999999 n'est pas permis",
         (
             "requête\u00a0: GET n'est pas permis (permis\u00a0: une"
             " requête à laquelle cette page répond)"
         )),
        ("en", "page: /nowhere is not allowed", "character: 999999 is not allowed",
         "request: GET is not allowed (allowed: a request this page answers)"),
    ],
)  # fmt: skip
def test_the_webs_refusals_name_what_was_asked_in_words(
    table: tuple[Any, Store, int], lang: str, page: str, character: str, method: str
) -> None:
    app, store, campaign_id = table
    gm = join(app, store, campaign_id, "gm")
    gm.client.get(f"/lang/{lang}")
    assert _flat(page) in visible_text(gm.client.get("/nowhere").text)
    assert _flat(character) in visible_text(gm.client.get(f"/c/{campaign_id}/sheets/999999").text)
    assert _flat(method) in visible_text(gm.client.get(f"/c/{campaign_id}/invites").text)
    assert gm.client.get("/api/nowhere").json()["error"]["field"] == "path"  # JSON: stable
    fighters = "combattants" if lang == "fr" else "fighters"
    refused = gm.post(f"/c/{campaign_id}/fights", data={"with": [HERO]})
    assert f"{fighters}\u00a0: " in refused.text or f"{fighters}: " in refused.text
