"""Issue 30, part 3: a sheet reads as its game's sheet, in the reader's language — `jdr sheet
show` and the web's sheet page lay it out in headed sections (gauges as current/max, moves and
techniques as lists with their costs), never as JSON or the code's identifiers; the sheet's paths
are typed in French too; outcomes, purchases and awards are sentences with their reason and
rule id. `--json` and `--toml` keep the data."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from cli_run import answer, run
from jdr.i18n import language
from jdr.sheet_check import systems_example
from jdr.sheet_view import layout
from jdr.sheet_words import GENERIC, SheetWords, words_of
from jdr.systems import default_registry
from test_cli_living_sheets import EXAMPLES, table
from web_helpers import example_table, join

# What each system's sheet shows, by language: a section heading, and lines of the layout.
EXPECTED: dict[tuple[str, str], dict[str, list[str]]] = {
    ("pokemon", "pokemon"): {
        "fr": [
            "Jauges",
            "  Vitalité  14/14",
            "Capacités",
            "Caractéristiques",
            "  • Fatal-Foudre — Électrik · spéciale · 4 Énergie · 5d10 de dégâts · "
            "précision 70 % · inflige Paralysie (30 %)",
        ],
        "en": [
            "Gauges",
            "  Vitalité  14/14",
            "Moves",
            "Stats",
            "  • Fatal-Foudre — Electric · special · 4 Énergie · 5d10 damage · "
            "accuracy 70 % · inflicts Paralysis (30 %)",
        ],
    },
    ("pokemon", "trainer"): {
        "fr": ["Profil", "  Pokémon portés  Pikachu", "Compétences", "  Énergie  6/6"],
        "en": ["Profile", "  Pokémon carried  Pikachu", "Skills", "  Énergie  6/6"],
    },
    ("plus-ultra", "hero"): {
        "fr": [
            "Héros",
            "  Rang  C",
            "Jauges (maximum)",
            "  Volonté  8",
            "  • Rafale — coûte 2 Volonté · temps de recharge\u00a0: 1 tour · 1 attaque"
            " supplémentaire",
        ],
        "en": [
            "Hero",
            "  Rank  C",
            "Gauges (maximum)",
            "  Volonté  8",
            "  • Rafale — costs 2 Volonté · cooldown: 1 turn · 1 extra attack",
        ],
    },
    ("plus-ultra", "villain"): {"fr": ["Techniques"], "en": ["Techniques"]},
    ("poledemos", "warband"): {
        "fr": [
            "Bande",
            "Figurines",
            "  • Sergent Perry — VAL 3+ · chef · suivants\u00a0: Caporal, Recrue 1, Recrue 2",
        ],
        "en": [
            "Warband",
            "Figures",
            "  • Sergent Perry — VAL 3+ · leader · followers: Caporal, Recrue 1, Recrue 2",
        ],
    },
    ("ilvermorny", "wizard"): {
        "fr": [
            "Élève",
            "  Année  2",
            "Caractéristiques",
            "  Force physique  3",
            "Sorts",
            "  • Lumos — difficulté 1 · neutre · apprentissage 3/5 · 12 PX",
            "  • Stupefix — difficulté 3 · feu · pas encore appris · 0 PX",
        ],
        "en": [
            "Student",
            "  School year  2",
            "Stats",
            "  Strength  3",
            "Spells",
            "  • Lumos — difficulty 1 · neutral · level 3/5 · 12 XP",
        ],
    },
    ("passion", "romuald"): {
        "fr": [
            "Réserves",
            "  Passion  5/5",
            "Armes",
            "  • Multi-shurikens — score 3 · physique · Violence 1 · Énergie 5/5",
            "  • Costume renforcé — score 2 · physique · Robustesse 1 · Énergie 3/3",
            "En combat",
            "  Score d’attaque  Coup de pied circulaire",
        ],
        "en": [
            "Pools",
            "  Passion  5/5",
            "Weapons",
            "  • Multi-shurikens — score 3 · physical · Violence 1 · Énergie 5/5",
            "In a fight",
            "  Attack score  Coup de pied circulaire",
        ],
    },
    ("passion", "cyber-ninja"): {"fr": ["Réserves", "Talents"], "en": ["Pools", "Talents"]},
}


def stored(system: str, kind: str) -> dict[str, Any]:
    """An example sheet as a campaign stores it (validated, every field)."""
    from jdr.characters.steps import checked

    return checked(default_registry().get(system), tomllib.loads(systems_example(system, kind)))


def _code(value: Any) -> bool:
    return isinstance(value, str) and re.fullmatch(r"[a-z][a-z_]*", value) is not None


def identifiers(sheet: Any, words: SheetWords, parent: str | None = None) -> set[str]:
    """The code's own words in `sheet` that the reader's words name otherwise, in the current
    language: keys (`willpower`, `damage_dice`) and values (`speciale`, `paralysis`)."""
    found: set[str] = set()
    if isinstance(sheet, Mapping):
        for key, value in sheet.items():
            if key in words.hidden:
                continue
            if re.fullmatch(r"[a-z][a-z_]*", key) and words.key(key, parent).lower() != key:
                found.add(key)
            if _code(value) and words.value(key, value).lower() != value:
                found.add(value)
            found |= identifiers(value, words, key)
    elif isinstance(sheet, list):
        for item in sheet:
            if _code(item) and words.value(parent, item).lower() != item:
                found.add(item)
            found |= identifiers(item, words, parent)
    return found


def displays(words: SheetWords) -> list[str]:
    """Every name `words` gives, in the current language."""
    names = [str(word) for word in words.keys.values()]
    names += [str(word) for values in words.values.values() for word in values.values()]
    return names + [str(section.title) for section in words.sections]


def leaks(text: str, sheet: Any, words: SheetWords) -> list[str]:
    """Identifiers and JSON found in `text`: none is ever shown (an identifier that is also a
    word of the reader's language, `combat` in French, `year` in English, is a word there)."""
    named = displays(words)
    shown = [
        word
        for word in identifiers(sheet, words)
        if re.search(rf"\b{word}\b", text)
        and not any(re.search(rf"\b{word}\b", name, re.IGNORECASE) for name in named)
    ]
    return shown + [mark for mark in ('{"', '":', "[{", "null", "true", "false") if mark in text]


@pytest.mark.parametrize(("system", "kind"), EXAMPLES)
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_sheet_show_lays_every_system_out_in_sections_without_identifiers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, system: str, kind: str, lang: str
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    table(capsys, db, tmp_path, system, kind)
    sheet = stored(system, kind)
    code, out, err = run(
        capsys, "sheet", "show", sheet["name"], "--campaign", "C", "--db", db, "--lang", lang
    )
    assert code == 0, err
    lines = [re.sub(r"(?<=\S)  +(?=\S)", "  ", line) for line in out.splitlines()]
    assert lines[0].startswith(f"{sheet['name']} — C (")
    for expected in EXPECTED[(system, kind)][lang]:
        assert expected in lines, (expected, out)
    with language(lang):
        words = words_of(default_registry().get(system))
        assert leaks(out, sheet, words) == []
        titles = [part.title for part in layout(sheet, words).sections]
    assert len(titles) >= 2 and all(title in lines for title in titles)
    if lang == "fr":
        assert "révision 1 sur 1" in lines


@pytest.mark.parametrize(("system", "kind"), [("pokemon", "pokemon"), ("passion", "romuald")])
def test_json_and_toml_keep_the_data(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, system: str, kind: str
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    table(capsys, db, tmp_path, system, kind)
    sheet = stored(system, kind)
    args = ("sheet", "show", sheet["name"], "--campaign", "C", "--db", db, "--lang", "fr")
    assert answer(capsys, *args)["character"]["sheet"] == sheet
    code, out, _err = run(capsys, *args, "--toml")
    from jdr.characters.steps import checked

    assert code == 0 and checked(default_registry().get(system), tomllib.loads(out)) == sheet


def test_a_plugin_that_declares_no_words_still_reads_as_a_sheet() -> None:
    """The generic reading: a plain value under "Character", a table or a list of its own, a
    gauge as current/max, keys through the catalogs (`wounds` is jdr's `blessures`) or made
    readable, never JSON."""
    sheet = {
        "name": "Corvo",
        "stress_max": 9,
        "wounds": {"current": 2, "max": 4},
        "gear": [{"name": "Dague", "hidden": True, "bonus": 1}],
        "ratings": {"combat": 2},
    }
    with language("fr"):
        shown = layout(sheet, GENERIC)
    assert [part.title for part in shown.sections] == ["Personnage", "Gear", "Ratings"]
    entries = shown.sections[0].entries
    assert [(e.label, e.text, e.gauge) for e in entries] == [
        ("Stress max", "9", False),
        ("blessures", "2/4", True),
    ]
    assert shown.sections[1].items[0].details == ("caché", "Bonus 1")


# --- the web's sheet page ----------------------------------------------------------------------


class _Text(HTMLParser):
    """The text a reader sees in the sheet's article, and the tags it is made of."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = 0
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article" or self.inside:
            self.inside += 1
            self.tags.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.inside:
            self.inside -= 1

    def handle_data(self, data: str) -> None:
        if self.inside and data.strip():
            self.text.append(data.strip())


def sheet_article(html: str) -> _Text:
    parsed = _Text()
    parsed.feed(html)
    return parsed


@pytest.fixture
def web_tables(database_url: str) -> Iterator[dict[str, Any]]:
    tables = {}
    for system in {s for s, _k in EXAMPLES}:
        kinds = tuple(k for s, k in EXAMPLES if s == system)
        tables[system] = example_table(database_url, "Feuilles", system, kinds)
    yield tables
    for app, _store, _id in tables.values():
        app.state.store.close()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_web_sheet_page_shows_the_same_sections_as_html_lists(
    web_tables: dict[str, Any], lang: str
) -> None:
    for system, kind in EXAMPLES:
        app, store, campaign_id = web_tables[system]
        gm = join(app, store, campaign_id, "gm")
        sheet = stored(system, kind)
        character = store.character_named(campaign_id, sheet["name"])
        page = gm.client.get(
            f"/c/{campaign_id}/sheets/{character.id}", headers={"Accept-Language": lang}
        )
        assert page.status_code == 200
        article = sheet_article(page.text)
        assert "table" not in article.tags and {"h2", "dl", "dt", "dd"} <= set(article.tags)
        text = "\n".join(article.text)
        with language(lang):
            words = words_of(default_registry().get(system))
            shown = layout(sheet, words)
            assert leaks(text, sheet, words) == [], (system, kind)
        for part in shown.sections:
            assert f"<h2>{part.title}</h2>" in page.text.replace("&#39;", "'")
            for entry in part.entries:
                assert entry.label in article.text
            for item in part.items:
                assert item.title in article.text
        if any(e.gauge for p in shown.sections for e in p.entries):
            assert 'role="meter"' in page.text  # a gauge is a bar (the design's `.meter`)
        if (system, kind) == ("pokemon", "pokemon"):
            assert ("Capacités" if lang == "fr" else "Moves") in article.text
            assert "14/14" in text and ("1 Énergie" in text)
        assert 'name="sheet"' in page.text  # the TOML editor is still there, folded away


# --- French paths and choices ------------------------------------------------------------------


FRENCH_PATHS = [
    ("pokemon", "pokemon", "Pikachu", "énergie.actuelle=3", ["energy", "current"], 3),
    ("pokemon", "pokemon", "Pikachu", "VITALITE.MAX=20", ["vitality", "max"], 20),
    ("pokemon", "pokemon", "Pikachu", "Caractéristiques.volonté=3", ["stats", "willpower"], 3),
    ("pokemon", "pokemon", "Pikachu", "capacités[éclair].énergie=2", ["moves", 0, "energy"], 2),
    ("pokemon", "pokemon", "Pikachu", "altération=Paralysie", ["condition"], "paralysis"),
    ("plus-ultra", "hero", "Kaito Arashi", "techniques[rafale].Coût en Volonté=3",
     ["techniques", 1, "cost"], 3),
    ("plus-ultra", "hero", "Kaito Arashi", "techniques[Rafale].temps de recharge=2",
     ["techniques", 1, "cooldown"], 2),
    ("ilvermorny", "wizard", "Seraphina Quill", "sorts[lumos].px=20", ["spells", 0, "xp"], 20),
    ("ilvermorny", "wizard", "Seraphina Quill", "caractéristiques.force physique=4",
     ["stats", "strength"], 4),
    ("passion", "romuald", "Romuald", "énergie.actuelle=2", ["energy", "current"], 2),
    ("passion", "romuald", "Romuald", "armes[Pied].violence=1", ["weapons", 0, "violence"], 1),
    ("poledemos", "warband", "Section Perry", "figurines[caporal].val=3",
     ["figures", 1, "val"], 3),
]  # fmt: skip


@pytest.mark.parametrize(("system", "kind", "name", "typed", "path", "value"), FRENCH_PATHS)
def test_sheet_set_reads_the_sheets_french_names(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    system: str,
    kind: str,
    name: str,
    typed: str,
    path: list[Any],
    value: Any,
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    table(capsys, db, tmp_path, system, kind)
    answer(capsys, "sheet", "set", name, typed, "--campaign", "C", "--db", db, "--lang", "fr")
    found: Any = answer(capsys, "sheet", "show", name, "--campaign", "C", "--db", db)
    found = found["character"]["sheet"]
    for part in path:
        found = found[part]
    assert found == value


def test_a_mistyped_french_path_gets_a_suggestion_in_the_readers_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    table(capsys, db, tmp_path, "pokemon", "pokemon")
    args = ("sheet", "set", "Pikachu", "enrgie.actuelle=3", "--campaign", "C", "--db", db)
    code, _out, err = run(capsys, *args, "--lang", "fr")
    assert code == 2 and "vouliez-vous dire Énergie\u202f?" in err and "Vitalité" in err
    assert "energy" not in err and "vitality" not in err
    code, _out, err = run(capsys, *args)
    assert code == 2 and "did you mean Énergie?" in err
    # a new skill is still a new key, not a typo of another
    answer(capsys, "sheet", "set", "Pikachu", "compétences.Vol=1", "--campaign", "C", "--db", db)


def test_pu_2_sheet_rank_takes_volonte_in_french(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    table(capsys, db, tmp_path, "plus-ultra", "hero")
    code, out, err = run(
        capsys, "sheet", "rank", "Kaito Arashi", "VOLONTÉ", "--campaign", "C", "--db", db,
        "--lang", "fr",
    )  # fmt: skip
    assert code == 0, err
    assert (
        "  Kaito Arashi passe du rang C au rang C+\u00a0: Énergie 8 → 9, Volonté 8 → 10 (PU-2)"
        in out.splitlines()
    )
    assert "  Volonté 8 → 10" in out.splitlines() and "willpower" not in out
    code, _out, err = run(
        capsys, "sheet", "rank", "Kaito Arashi", "volnté", "--campaign", "C", "--db", db,
        "--lang", "fr",
    )  # fmt: skip
    assert (
        code == 2 and "vouliez-vous dire Volonté\u202f? (au choix\u00a0: Énergie, Volonté)" in err
    )
    ranked = answer(
        capsys, "sheet", "rank", "Kaito Arashi", "énergie", "--campaign", "C", "--db", db
    )
    assert ranked["changes"][1:] == [
        {"field": "energy", "before": 9, "after": 11},
        {"field": "willpower", "before": 10, "after": 11},
    ]  # the JSON keeps the ids


# --- outcomes, purchases and awards in sentences ------------------------------------------------


def test_pk_24_an_award_after_a_fight_is_a_sentence_with_its_reason_and_rule(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    table(capsys, db, tmp_path, "pokemon", "pokemon")
    base = ("--campaign", "C", "--db", db)
    code, out, err = run(capsys, "sheet", "award", "Pikachu", "defeated=6", *base, "--lang", "fr")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[:3] == [
        "Pikachu\u00a0: révision 2 (récompense)",
        "  Pikachu gagne 3 PX\u00a0: la moitié du niveau 6 du Pokémon vaincu (PK-24)",
        "  PX 4 → 7",
    ]
    code, out, err = run(capsys, "sheet", "award", "Pikachu", "defeated=6", "won=no", *base)
    assert "  Pikachu gains 1 XP: a quarter of the winner's level 6 (PK-24)" in out.splitlines()
    code, out, err = run(capsys, "sheet", "award", "Pikachu", "xp=5", "the gym's badge", *base)
    assert "  Pikachu gains 5 XP: the gym's badge (PK-24)" in out.splitlines()
    history = run(capsys, "sheet", "history", "Pikachu", *base, "--lang", "fr")[1]
    assert "PX 7 → 8" in history and "xp" not in history


def test_pk_21_pk_22_a_purchase_is_a_sentence_in_the_readers_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    table(capsys, db, tmp_path, "pokemon", "pokemon:Pikachu:xp=30")
    base = ("--campaign", "C", "--db", db, "--lang", "fr")
    code, out, err = run(capsys, "sheet", "buy", "Pikachu", "ev", "volonte", *base)
    assert code == 0, err
    assert out.splitlines()[1:4] == [
        "  Pikachu achète 1 EV en Volonté pour 11 PX\u00a0: Volonté 2 → 3, PX 30 → 19"
        " (PK-21, PK-22)",
        "  EV › Volonté — → 1",
        "  PX 30 → 19",
    ]
    code, out, err = run(capsys, "sheet", "buy", "Pikachu", "niveau", *base)
    assert code == 0, err
    assert out.splitlines()[1].startswith("  Pikachu achète 1 niveau pour 6 PX\u00a0: niveau 5 → 6")


def test_pk_10_pk_12_pk_16_pk_24_a_fights_outcome_in_sentences_fr_en() -> None:
    from jdr.systems.pokemon.fight_outcome import fight_outcome
    from jdr.systems.protocol import FightEnd

    pika, cara = stored("pokemon", "pokemon"), stored("pokemon", "pokemon")
    cara |= {"name": "Carapuce", "level": 6}

    def fought(side: str, vitality: int, condition: str | None, ko: bool = False) -> Any:
        return {"side": side, "vitality": vitality, "energy": 6, "condition": condition, "ko": ko}

    final = {
        "over": True,
        "winner": "a",
        "pokemon": {
            "Pikachu": fought("a", 7, "paralysis"),
            "Carapuce": fought("b", 0, None, ko=True),
        },
    }
    done = fight_outcome(FightEnd({"Pikachu": pika, "Carapuce": cara}, {}, final))
    assert done["Pikachu"].rules == ("PK-10", "PK-12", "PK-16", "PK-24")
    why = done["Pikachu"].why
    assert why is not None
    with language("fr"):
        assert why() == [
            "Pikachu garde ce que le combat lui a laissé\u00a0: Vitalité 14 → 7, Énergie 10 → 6"
            " (PK-10, PK-12)",
            "Pikachu sort du combat avec l’altération Paralysie (PK-16)",
            "Pikachu gagne 3 PX\u00a0: la moitié du niveau 6 de Carapuce (PK-24)",
        ]
    assert why()[1:] == [
        "Pikachu leaves the fight with Paralysis (PK-16)",
        "Pikachu gains 3 XP: half of Carapuce's level 6 (PK-24)",
    ]
    loser = done["Carapuce"].why
    assert loser is not None and loser()[-1] == (
        "Carapuce gains 1 XP: a quarter of Pikachu's level 5, the highest of the winning side"
        " (PK-24)"
    )


def test_ps_5_an_outcome_without_sentences_lists_its_changes_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A fight outcome a system words no further (a plug-in's) lists each change by the sheet's
    names, the rules on its line: `Énergie 6 → 2`, never `energy.current: 6 → 2`."""
    from jdr.characters.fights import FighterOutcome
    from jdr.cli.fight_outcome import _print_outcome
    from jdr.store import Character

    sheet = stored("passion", "romuald")
    character = Character(1, 1, "Romuald", sheet, 1)
    changes = [{"path": ["energy", "current"], "before": 6, "after": 2}]
    found = [FighterOutcome("Romuald", character, changes, [], ("PS-5",), 1)]
    with language("fr"):
        _print_outcome(found, None, words_of(default_registry().get("passion")))
    assert capsys.readouterr().out.splitlines() == [
        "Romuald, depuis la révision 1\u00a0: (PS-5)",
        "  Énergie 6 → 2",
    ]


def test_il_4_il_8_ps_19_progressions_are_sentences_naming_who_in_french(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    table(capsys, db, tmp_path, "ilvermorny", "wizard")
    base = ("--campaign", "C", "--db", db, "--lang", "fr")
    code, out, err = run(
        capsys, "sheet", "award", "Seraphina Quill", "lumos", "xp=5", "un beau sort", *base
    )
    assert code == 0, err
    assert out.splitlines()[1:3] == [
        "  Seraphina Quill gagne 5 PX — Lumos\u00a0: PX 12 → 17 — pourquoi\u00a0: un"
        " beau sort (IL-8)",
        "  Sorts › Lumos › PX 12 → 17",
    ]
    code, out, err = run(capsys, "sheet", "grant", "Seraphina Quill", "stupefix", *base)
    assert out.splitlines()[1:3] == [
        "  Seraphina Quill — Stupefix\u00a0: apprentissage 0 → 1 (IL-8)",
        "  Sorts › Stupefix › Apprentissage 0 → 1",
    ]
    db = f"sqlite:///{tmp_path}/p.db"
    table(capsys, db, tmp_path, "passion", "romuald")
    base = ("--campaign", "C", "--db", db, "--lang", "fr")
    code, out, err = run(capsys, "sheet", "award", "Romuald", "points=5", "le méchant", *base)
    assert code == 0, err
    assert out.splitlines()[1] == (
        "  Romuald gagne 5 points de scénario\u00a0: le méchant (points 0 → 5) (PS-19)"
    )
    code, out, err = run(capsys, "sheet", "buy", "Romuald", "passion", *base)
    assert out.splitlines()[1] == (
        "  Romuald achète 1 point de Passion pour 2 points de scénario\u00a0: Passion 5 → 6,"
        " points 5 → 3 (PS-19)"
    )
    assert {"  Passion 5 → 6", "  Passion max 5 → 6", "  Points de scénario 5 → 3"} <= set(
        out.splitlines()
    )


# --- every key and value named, in every system ---------------------------------------------------


def _fields(model: Any, parent: str | None = None) -> Iterator[tuple[str | None, str, Any]]:
    """`(parent, key, annotation)` of every field of a sheet model, nested models included."""
    import typing

    from pydantic import BaseModel

    for key, info in model.model_fields.items():
        yield parent, key, info.annotation
        stack = [info.annotation]
        while stack:
            kind = stack.pop()
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                yield from _fields(kind, key)
            else:
                stack += list(typing.get_args(kind))


def _models(system: Any) -> list[Any]:
    import typing

    from pydantic import BaseModel

    model = system.sheet
    models = [m for m in typing.get_args(model) if isinstance(m, type)] or [model]
    if system.id == "pokemon":
        from jdr.systems.pokemon.sheets import Trainer

        models.append(Trainer)
    return [m for m in models if issubclass(m, BaseModel)]


@pytest.mark.parametrize(
    "system_id", ["pokemon", "plus-ultra", "poledemos", "ilvermorny", "passion"]
)
def test_every_sheet_key_and_choice_has_a_french_and_an_english_name(system_id: str) -> None:
    """Part 1: each key of the sheet's models, and each value a key chooses from (a `Literal`
    of ids), is named in `System.sheet_words`, beside the model."""
    import typing

    system = default_registry().get(system_id)
    words = words_of(system)
    assert words is not GENERIC
    unnamed = []
    for model in _models(system):
        for parent, key, annotation in _fields(model):
            if key in (*words.hidden, "name"):
                continue
            if words.word(key, parent) is None:
                unnamed.append(f"{parent}.{key}" if parent else key)
            literals = [annotation, *typing.get_args(annotation)]
            for kind in literals:
                if typing.get_origin(kind) is typing.Literal:
                    for value in typing.get_args(kind):
                        if _code(value) and value not in words.values.get(key, {}):
                            unnamed.append(f"{key}={value}")
    assert unnamed == []


def test_ps_5_ps_17_il_7_il_8_passion_and_duel_outcomes_in_sentences() -> None:
    from jdr.systems.ilvermorny.fight_outcome import fight_outcome as duel_outcome
    from jdr.systems.passion.fight_outcome import _why
    from jdr.systems.protocol import FightEnd

    romuald = stored("passion", "romuald")
    after = romuald | {
        "energy": {"current": 2, "max": 6},
        "talents": {**romuald["talents"], "Crochetage": 8},
    }
    with language("fr"):
        assert _why("Romuald", romuald, after)() == [
            "Romuald garde ce que ses jets lui ont appris\u00a0: Talents › Crochetage 7 → 8"
            " (PS-17, PS-18)",
            "Romuald garde ce que le combat a dépensé\u00a0: Énergie 6 → 2 (PS-5)",
        ]
    mary = stored("ilvermorny", "wizard")
    final = {"spells": {"Mary": {"Expelliarmus": {"level": 3, "xp": 4}}}}
    why = duel_outcome(FightEnd({"Mary": mary}, {}, final))["Mary"].why
    assert why is not None
    with language("fr"):
        assert why() == [
            "Expelliarmus de Mary après les sorts lancés en duel\u00a0: PX 31 → 4,"
            " apprentissage 2 → 3 (IL-7, IL-8)"
        ]
