"""The plug-in API a homebrew system is written with (docs/plugins.md): its own catalogs, in
code or as gettext files; keep/drop and count-of-faces pools against brute force; the events jdr
tells itself; `fight show` of any state a system keeps."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog as BabelCatalog
from babel.messages.mofile import write_mo

from jdr.dice import GivenFaces, KeepPool, ScoredDie, Seeded, count_pool, roll_keep, roll_pool
from jdr.errors import InputError
from jdr.fights.narration import Narration, Words
from jdr.fights.view import describe, fighter_line, fighters_of
from jdr.i18n import GettextCatalog, Messages, _, add_catalog, language, ngettext
from jdr.prob import keep_pool_distribution, pool_distribution
from jdr.systems import PluginError, Registry, System
from jdr.systems.registry import check_system
from test_notation import chi_square, chi_square_critical

# --- catalogs -------------------------------------------------------------------------------


def test_messages_in_code_translate_words_and_plurals() -> None:
    words = Messages(fr={"zz_glimmer": "lueur", "{n} shard": ["{n} éclat", "{n} éclats"]})
    add_catalog(words)
    with language("fr"):
        assert _("zz_glimmer") == "lueur"
        assert ngettext("{n} shard", "{n} shards", 0) == "{n} éclat"  # French: 0 is singular
        assert ngettext("{n} shard", "{n} shards", 2) == "{n} éclats"
        assert _("success") == "réussite"  # jdr's own words answer first
    assert _("zz_glimmer") == "zz glimmer"  # an identifier reads as words in English
    assert ngettext("{n} shard", "{n} shards", 0) == "{n} shards"


def test_a_plugin_ships_gettext_catalogs_in_its_package(tmp_path: Path) -> None:
    catalog = BabelCatalog(locale="fr", domain="zzhomebrew")
    catalog.add("zz_ember", "braise")
    catalog.add(("{n} spark", "{n} sparks"), ("{n} étincelle", "{n} étincelles"))
    folder = tmp_path / "locale" / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "zzhomebrew.mo").open("wb") as handle:
        write_mo(handle, catalog)
    add_catalog(GettextCatalog("zzhomebrew", tmp_path / "locale"))
    with language("fr"):
        assert _("zz_ember") == "braise"
        assert ngettext("{n} spark", "{n} sparks", 3) == "{n} étincelles"
        assert _("zz_unknown_word") == "zz_unknown_word"


def test_the_registry_adds_a_systems_messages_when_it_loads_it() -> None:
    system = System("zzcoin", {"en": "Coin"}, messages=Messages(fr={"zz_heads": "pile"}))
    Registry({"zzcoin": system})
    with language("fr"):
        assert _("zz_heads") == "pile"


def test_messages_that_are_not_a_catalog_are_refused() -> None:
    with pytest.raises(PluginError, match="catalog"):
        check_system("zzbad", System("zzbad", {"en": "Bad"}, messages={"fr": {}}))  # type: ignore[arg-type]


# --- keep/drop and count-of-faces pools -------------------------------------------------------


def keep_by_hand(die: ScoredDie, dice: int, keep: int, highest: bool) -> dict[int, Fraction]:
    counts: Counter[int] = Counter()
    for faces in itertools.product(range(1, die.size + 1), repeat=dice):
        kept = sorted(faces, reverse=highest)[:keep]
        counts[sum(die.score(face)[0] for face in kept)] += 1
    return {value: Fraction(n, die.size**dice) for value, n in counts.items()}


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("highest", [True, False])
def test_keep_pool_odds_equal_every_roll_enumerated(dice: int, highest: bool) -> None:
    partial = ScoredDie.from_function(6, lambda f: (2 if f == 6 else 1 if f >= 4 else 0,))
    for die in (ScoredDie.sum(6), partial):
        for keep in range(1, dice + 1):
            pool = KeepPool(die, dice, keep, highest)
            exact = dict(keep_pool_distribution(pool, exact=True).to_list())
            assert {v: p for v, p in exact.items() if p} == keep_by_hand(die, dice, keep, highest)


def test_keep_pool_rolls_follow_its_exact_odds() -> None:
    """20,000 seeded rolls of 5d6 keep the 2 highest fit the distribution (chi-square, 0.1 %)."""
    pool, rng, n = KeepPool(ScoredDie.sum(6), 5, keep=2), Seeded(2022), 20_000
    counts = Counter(roll_keep(pool, rng).total for _ in range(n))
    statistic, df = chi_square(counts, keep_pool_distribution(pool, exact=True), n)
    assert df >= 5
    assert statistic < chi_square_critical(df)


def test_keep_pool_refuses_what_cannot_be_kept() -> None:
    with pytest.raises(InputError):
        KeepPool(ScoredDie.sum(6), 2, keep=3)
    with pytest.raises(InputError):
        KeepPool(ScoredDie.sum(6), 0)


def test_count_pool_counts_the_faces_asked_for_exactly() -> None:
    pool = count_pool(6, 3, [5, 6])
    assert roll_pool(pool, GivenFaces([5, 1, 6])).total == (2,)
    dist = pool_distribution(pool, exact=True)
    assert dist.probability(3) == Fraction(1, 27)
    assert dist.at_least(1) == 1 - Fraction(2, 3) ** 3


# --- events jdr tells itself; fight show of any state ------------------------------------------


def test_jdr_tells_joined_and_fight_over_for_any_system() -> None:
    story = Narration({})
    with language("fr"):
        assert story.sentence({"type": "joined", "name": "Zed"}) == "Zed rejoint le combat."
        assert story.sentence({"type": "fight_over", "winners": []}) == (
            "Le combat est terminé\u00a0: personne ne l'emporte."
        )
    assert story.sentence({"type": "fight_over", "winner": "b"}) == "The fight is over: b wins."


def test_a_system_narrating_joined_itself_keeps_its_own_sentence() -> None:
    from jdr.fights.narration import Line, says

    story = Narration({"joined": Line(says("{name} bursts in."))})
    assert story.sentence({"type": "joined", "name": "Zed"}, Words()) == "Zed bursts in."


def test_fight_show_spreads_per_fighter_mappings_and_keeps_nested_state() -> None:
    state = {
        "order": ["Ann", "Bob"],
        "turn": "Ann",
        "stress": {"Ann": 2, "Bob": 5},
        "harm": {"Bob": {"level": 2, "notes": ["bruised"]}},
    }
    view = describe(None, state)
    assert view.status == "To play: Ann"
    assert list(view.fighters) == [
        "Ann — stress 2",
        "Bob — stress 5 · harm.level 2 · harm.notes bruised",
    ]


def test_fight_show_uses_the_fighters_a_system_declares() -> None:
    def fighters(state: dict[str, object]) -> dict[str, dict[str, object]]:
        return {"Ann": {"side": "a", "stress": 3, "stress_max": 9, "broken": True}}

    assert fighters_of({}, fighters) == {
        "Ann": {"name": "Ann", "side": "a", "stress": 3, "stress_max": 9, "broken": True}
    }
    with language("fr"):
        add_catalog(Messages(fr={"broken": "brisé"}))
        line = fighter_line(fighters_of({}, fighters)["Ann"])
    assert line == "Ann (a) — stress 3/9 · brisé"


def test_a_list_of_tables_is_shown_as_json_never_dropped() -> None:
    assert fighter_line({"name": "Ann", "wounds_list": [{"where": "arm"}]}) == (
        'Ann — wounds_list [{"where":"arm"}]'
    )


def test_the_plugin_docs_name_no_module_a_gm_cannot_import() -> None:
    """Every `from jdr… import …` line of docs/plugins.md imports (the docs do not rot)."""
    import re

    text = (Path(__file__).resolve().parents[1] / "docs" / "plugins.md").read_text("utf-8")
    lines = sorted(set(re.findall(r"^from jdr[\w.]* import [^\n(]+$", text, re.M)))
    assert lines
    done = subprocess.run(
        [sys.executable, "-c", "\n".join(lines)], capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_the_test_plugin_reads_in_french_once_installed(installed_example: Registry) -> None:
    from jdr.dice import GivenFaces as Faces
    from jdr.fights import play
    from jdr.fights.story import told

    system = installed_example.get("example")  # loading it adds its catalog
    assert system.fight is not None
    fight = play(system.fight, {"fighters": ["Ann", "Bob"], "vitality": 1},
                 [{"action": "attack", "actor": "Ann", "dice": 1}], Faces([6]))  # fmt: skip
    with language("fr"):
        said = [t.text for t in told(system, fight.events, {})]
    assert said == [
        "Duel\u00a0: Ann et Bob.",
        "Ann touche Bob (6)\u00a0: 1 point.",
        "Bob est hors de combat\u00a0: Ann l'emporte.",
    ]
