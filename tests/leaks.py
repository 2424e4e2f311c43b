"""The one leak detector of issue 30 ("a player never reads an identifier"), shared by the CLI
and the web leak tests: `find_leaks(text, lang)` lists the words of `text` a reader of `lang`
should never meet.

What counts as a leak:

- an identifier of the code, collected by introspection (`code_identifiers`): the fields of
  every pydantic model of jdr, of the installed systems and of the example plug-ins (and their
  aliases), every `Literal` and enum value their annotations hold, the systems' ids, actions,
  progression steps, sheet rolls and example sheets, the fight commands and their keys, the
  fight events' types (every `{"type": …}` the code writes), the journal's actions and the
  sheet revisions' kinds (`sheet.created`) — but not the systems' ids, which are their names as
  typed (`jdr pokemon`, `--system plus-ultra`), listed where one is to be typed; an
  identifier that is also an ordinary French word (`technique`, `passion`, `score`) is not
  one in French (`SAME_IN_FRENCH`);
- any `snake_case` word, and any dotted path of identifiers (`vitality.current`), in either
  language: no reader reads those (an all-capitals placeholder, `--as NEW_NAME`, is English
  notation: a leak in French only);
- in French output, the English words of `ENGLISH_WORDS`; in English output, the French words of
  `FRENCH_WORDS` and the identifiers a French code spells without its accents (`speciale`).

What never counts: code quoted as code (`` `jdr systems` ``, `` `stats.magic=8` ``), the command
names of a `jdr …` command line (`jdr fight act`, not the words after them), file paths, proper
names (the characters, figures, moves and spells of the systems'
example sheets, the `names` a test passes, `PROPER_NAMES`: programs, formats, the games), dice
notation (`2d6+3`, `4d10>=6f1`), hashes, numbers, URLs, command-line options (`--lang`) and
English words a French text keeps on purpose (`GAME_TERMS`).

>>> find_leaks("la fiche sheet.created de Pikachu", "fr")
['sheet.created']
>>> find_leaks("Pikachu attaque Évoli : touché", "fr")
[]
"""

from __future__ import annotations

import ast
import enum
import importlib
import pkgutil
import re
import sys
import tomllib
import types
import typing
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (ROOT / "src" / "jdr", ROOT / "examples" / "plugin" / "src" / "jdr_ombres")
PLUGIN_SRC = ROOT / "examples" / "plugin" / "src"
OUR_MODULES = ("jdr", "jdr_ombres", "example_system")

SAME_IN_FRENCH = frozenset(
    {
        # identifiers of the code that are also French words, read as French in French text
        "a", "b", "action", "actions", "arme", "armes", "attaque", "bonus", "certain", "combat",
        "concentration", "constitution", "contact", "critique", "distance", "duel", "effet",
        "fin", "force", "initiative", "instinct", "magie", "malus", "marqueur", "mental",
        "minimum", "maximum", "normal", "normale", "note", "options", "passion", "passions",
        "physique", "points", "position", "potentiel", "rang", "recrue", "science", "score",
        "scores", "sort", "sorts", "statut", "style", "total", "type", "types", "technique",
        "techniques", "vitesse", "volonte", "zone", "poke", "super", "hyper", "master", "radar",
        "cible", "description", "simple", "double", "triple", "d", "x", "n", "code", "message",
        "messages", "version", "statistique", "statistiques", "stress", "rapide", "base",
        "ombres", "page", "pages", "direction", "intelligence", "perception", "charisme",
        "vitalite", "energie", "ilvermorny", "pokemon", "capture", "parade", "protection",
        "niveau", "objet", "objets", "rage", "terrain", "destination", "mission", "fatal",
        "journal", "format", "test", "talent", "talents", "condition",
        "conditions", "distribution", "element", "intuition", "questionnaire",
        "resistance", "resolution", "robustesse", "stat", "stats", "source", "scenario",
        "vital", "finesse", "neutre", "eau", "feu", "vigne", "volatile", "participants",
        "partenaires",
        "parts", "protections", "id", "secret", "secrets", "but", "modifier", "violence",
        "chance", "chances", "face", "faces", "portee", "camp", "camps", "contre",
    }
)  # fmt: skip
"""Identifiers of the code that are ordinary French words too (`technique` is French, `score`
and `passion` are, `a`/`b` are the duel's sides and letters of French): allowed in French."""
SAME_IN_FRENCH |= {"journal", "chance", "format", "secret", "test", "tests", "simulation", "talent"}
SAME_IN_FRENCH |= {"talents", "neutre", "feu", "eau", "vigne"}
# the web pages' French words that are identifiers of the code too (`webleak`)

GAME_TERMS = frozenset({"xp", "ev", "ok", "dd", "pa", "pv", "pp", "mj", "gm", "ko"})
"""Abbreviations a table writes in either language (a French table says PX, but the EV of the
Pokémon games keep their letters): never a leak by themselves."""

CASED_TERMS = frozenset({"VAL"})
"""Game terms that are identifiers too, allowed only as the game writes them: Polédémos writes
a figure's value VAL, in capitals (the field `val`, in lower case, is a leak)."""

ENGLISH_WORDS = frozenset(
    {
        # words of English prose (a sentence left untranslated)
        "the", "and", "with", "without", "from", "into", "which", "what", "when", "where", "who",
        "whose", "this", "that", "these", "those", "there", "their", "them", "they", "his",
        "her", "its", "was", "were", "has", "have", "had", "not", "none", "yes", "no", "true",
        "false", "for", "of", "or", "than", "then", "each", "every", "one", "two",
        "only", "also", "may", "must", "should", "would", "could", "can", "cannot", "will",
        "after", "before", "again", "any", "all", "both", "between", "over", "under", "turn",
        "round", "fight", "fighter", "fighters", "player", "players", "sheet", "sheets",
        "campaign", "campaigns", "roll", "rolls", "rolled", "dice", "die", "odds", "hit",
        "miss", "missed", "damage", "attack", "attacks", "defend", "defence", "defense",
        "dodge", "endure", "counter", "flee", "wait", "pass", "free", "move", "moves", "target",
        "targets", "winner", "figure", "group", "kind", "size", "members", "energy", "willpower",
        "strength", "dexterity", "vitality", "level", "rank", "spell", "spells", "weapon",
        "weapons", "marker", "response", "protector", "allowed", "expected", "commands",
        "command", "default", "required", "choose", "settle", "respond", "cast", "end",
        "activate", "undo", "redo", "start", "started", "created", "changed", "value", "values",
        "entry", "entries", "show", "shows", "help", "example", "examples", "success",
        "failure", "critical", "partial", "result", "results", "outcome",
        "outcomes", "reason", "stunned", "knocked", "out", "ready", "wins", "won",
        "lost", "loses", "hits", "takes", "deals", "against", "side", "sides", "is", "are",
        "be", "to", "in", "at", "by", "it", "some",
    }
)  # fmt: skip
"""English words a French reader must not meet (kept beside the test, issue 30 part 5)."""
ENGLISH_WORDS -= {"journal"}  # French too: the web's « Journal » page (`webleak`)

FRENCH_WORDS = frozenset(
    {
        # words of French prose (a sentence left untranslated in English output)
        "le", "les", "des", "une", "et", "ou", "est", "sont", "avec", "sans", "pour", "dans",
        "contre", "mais", "qui", "que", "quoi", "dont", "leur", "leurs", "cette", "ces", "son",
        "sa", "ses", "pas", "oui", "non", "vrai", "faux", "aucun", "aucune", "chaque", "tour",
        "tours", "manche", "manches", "combattant", "combattants", "joueur",
        "joueurs", "fiche", "fiches", "campagne", "campagnes", "jet", "jets", "dé", "dés",
        "touché", "touchée", "raté", "dégâts", "attaquer", "attaque", "défendre",
        "défense", "esquive", "esquiver", "encaisser", "contrer", "fuir", "attendre", "passer",
        "cible", "vainqueur", "groupe", "genre", "taille", "membres", "arme", "sort", "sorts",
        "marqueur", "réponse", "protecteur", "permis", "attendus", "commande", "commandes",
        "défaut", "requis", "choisir", "régler", "répondre", "lancer", "fin", "activer",
        "annuler", "rétablir", "commencé", "créé", "créée", "valeur", "valeurs", "entrée",
        "entrées", "afficher", "aide", "exemple", "exemples", "réussite", "échec", "critique",
        "partielle", "résultat", "résultats", "raison", "étourdi", "prêt", "prête", "gagne",
        "perd", "inflige", "subit", "côté", "côtés", "au", "aux", "du", "ni", "où", "puis",
        "très", "déjà", "encore", "être", "avoir", "été", "erreur", "introuvable", "choix",
        # codes spelled without their accents: French words as the code keeps them
        "speciale", "electrik", "energie", "volonte", "vitalite",
    }
)  # fmt: skip
"""French words an English reader must not meet (game terms kept in French, `Énergie`,
`Volonté`, `DD`, `PA`, are capitalised terms, not in this list)."""
FRENCH_WORDS -= {"combat"}  # English too: "Plus Ultra, forum combat" (`webleak`)

PROPER_NAMES = frozenset(
    {
        "jdr", "JDR_DATABASE_URL", "JDR_LANG", "Typer", "Click", "Rich", "PostgreSQL",
        "SQLite", "TOML", "JSON", "BBCode",
        "Markdown", "Discord", "Slack", "Atom", "HTMX", "HMAC", "SHA", "UTC", "SSE", "CSRF",
        "Alembic", "FLINT", "NumPy", "Python", "EDITOR", "Pokémon", "Plus Ultra", "Polédémos",
        "Ilvermorny", "Passion", "Ombres", "Shadows", "Bash", "Zsh", "Fish", "PowerShell",
        "Ball", "Poké Ball", "Super Ball", "Hyper Ball", "Master Ball",
        # the dice tools whose notations `jdr dice` reads (`jdr.dice.notation`)
        "Roll20", "Rolisteam", "DiceParser", "Dice Maiden", "Avrae", "Foundry",
    }
)  # fmt: skip
"""Names of programs, formats and games: a name, in either language."""

_CODE = re.compile(r"`[^`\n]+`")
_PATH = re.compile(r"(?<![\w/])(?:~|\.{1,2})?/[^\s:]+")
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+|\bwww\.\S+", re.I)
_OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")
_DICE = re.compile(r"(?<![\w])\d*[dD]\d+(?:[a-zA-Z<>=!+\-×x*/]*\d+)*[a-z]*(?![\w])")
_HASH = re.compile(r"\b[0-9a-fA-F]{8,}\b")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_WORD = re.compile(r"[^\W\d_][\w]*(?:[._-][^\W\d][\w]*)*|_[\w]+")


def find_leaks(text: str, lang: str, names: Iterable[str] = ()) -> list[str]:
    """The words of `text` a reader of `lang` (`fr` or `en`) should never meet, in the order
    they come (each once): identifiers of the code and the other language's words, outside
    proper names (`names`, and the example sheets'), dice notation, hashes, numbers, URLs and
    command-line options.

    >>> find_leaks("Pikachu esquive (dodge ou no_dodge) ; willpower 3", "fr")
    ['dodge', 'no_dodge', 'willpower']
    >>> find_leaks("Kaito rolls 2d6+3: the Volonté check fails", "en")
    []
    >>> find_leaks("Kaito est touché", "en", names=["Kaito"])
    ['est', 'touché']
    """
    if lang not in ("fr", "en"):
        raise ValueError(f"no leak rules for language {lang!r}")
    cleaned = _strip_command_lines(text)
    cleaned = _strip_names(cleaned, {*example_names(), *names, *PROPER_NAMES})
    for pattern in (_CODE, _URL, _PATH, _OPTION, _DICE, _HASH, _NUMBER):
        cleaned = pattern.sub(" ", cleaned)
    found: list[str] = []
    for match in _WORD.finditer(cleaned):
        word = match.group().strip("._-")
        if word and _leaks(word, lang) and word not in found:
            found.append(word)
    return found


def _strip_command_lines(text: str) -> str:
    """`text` without the command names of `jdr …` command lines (`jdr fight act`, `jdr roll
    pokemon attack`) and of a help's list of commands (`  show   Show a fight.`): what a reader
    types, not what they read. The words after them are read."""
    names = cli_names()

    def typed(match: re.Match[str]) -> str:
        words = match.group(1).split()
        kept = 0
        while kept < len(words) and words[kept] in names:
            kept += 1
        return " " + " ".join(words[kept:])

    def listed(match: re.Match[str]) -> str:
        return " " * len(match.group()) if match.group(1) in names else match.group()

    text = re.sub(r"^[ \t]+([\w-]+)(?=[ \t]{2,}\S)", listed, text, flags=re.M)  # help's list
    return re.sub(r"(?<![\w-])jdr((?:[ \t]+[\w-]+)*)", typed, text)


@cache
def cli_names() -> frozenset[str]:
    """The names `jdr` commands are typed with: the built-in commands and their sub-commands,
    the systems' ids, their own commands and their actions (`jdr roll pokemon attack`)."""
    import typer

    from jdr.cli.app import build_app

    found: set[str] = set()
    top = typer.main.get_command(build_app())
    for name, command in getattr(top, "commands", {}).items():
        found.add(name)
        found.update(getattr(command, "commands", {}))
    for system in _registry_systems():
        found.add(system.id)
        found.update(getattr(system, "actions", {}))
        extra = system.commands() if hasattr(system, "commands") else None
        if extra is not None:
            found.update(c.name for c in getattr(extra, "registered_commands", []) if c.name)
    return frozenset(found)


def _strip_names(text: str, names: Iterable[str]) -> str:
    """`text` with each proper name blanked out, longest first (`Sergent Perry` before `Perry`)."""
    for name in sorted({n for n in names if n.strip()}, key=len, reverse=True):
        text = re.sub(rf"(?<![\w]){re.escape(name)}(?![\w])", " ", text)
    return text


def _leaks(word: str, lang: str) -> bool:
    low = word.lower()
    if low in GAME_TERMS or word in CASED_TERMS:
        return False
    if lang == "en" and word.isupper():
        return low in FRENCH_WORDS  # a placeholder (`NEW_NAME`): English notation
    if "_" in word or low.startswith("pydantic"):
        return True  # snake_case, or pydantic's own words (`PydanticUndefined`)
    identifiers = code_identifiers()
    if "." in word:  # a dotted path: `sheet.created`, `vitality.current`
        parts = low.split(".")
        return low in identifiers or all(p in identifiers for p in parts)
    if lang == "en":
        return low in FRENCH_WORDS or word in FRENCH_WORDS
    if low in SAME_IN_FRENCH or _unaccented(low) in SAME_IN_FRENCH:
        return False
    if low in ENGLISH_WORDS:
        return True
    if "-" in word and low not in identifiers:
        return any(p in identifiers and p not in SAME_IN_FRENCH for p in low.split("-"))
    return low in identifiers


def _unaccented(word: str) -> str:
    import unicodedata

    decomposed = unicodedata.normalize("NFD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@cache
def example_names() -> frozenset[str]:
    """The proper names of the systems' example sheets (characters, figures, moves, spells,
    weapons: every `name`, `species` and `followers` value, and the keys written with a capital,
    a Passion talent's `Blast`) and their texts (any value with a
    space or a capital, as the table wrote it: "Les corbeaux aveuglent la cible.", `Électrik`;
    a lower-case word, `target`, is a value of the code)."""
    found: set[str] = set()
    for source in SOURCES:
        for sheet in source.rglob("examples/*.toml"):
            _names_in(tomllib.loads(sheet.read_text(encoding="utf-8")), found)
    return frozenset(found)


def _names_in(data: Any, found: set[str]) -> None:
    if isinstance(data, dict):
        for key, value in data.items():
            if key[:1].isupper():  # a key the table wrote: a talent, `Blast = 7`
                found.add(key)
            if key in ("name", "species") and isinstance(value, str):
                found.add(value)
            elif key == "followers" and isinstance(value, list):
                found.update(v for v in value if isinstance(v, str))
            else:
                _names_in(value, found)
    elif isinstance(data, list):
        for item in data:
            _names_in(item, found)
    elif isinstance(data, str) and (" " in data.strip() or data[:1].isupper()):
        found.add(data)  # the table's own words: a technique's text, a type as written


@cache
def code_identifiers() -> frozenset[str]:
    """Every identifier of the code a reader could be shown, lower-cased (see the module's
    docstring for where each comes from)."""
    found: set[str] = set()
    _import_everything()
    for model in _models():
        for name, info in model.model_fields.items():
            found.add(name)
            if info.alias:
                found.add(info.alias)
            found.update(_literals(info.annotation))
    for kind in _enums():
        found.update(str(member.value) for member in kind)
        found.update(member.name for member in kind)
    for system in _registry_systems():
        found.update(_system_identifiers(system))
    found.update(_written_literals())
    from jdr.characters.revisions import KINDS, SHEET_ACTION

    found.update(KINDS)
    found.update(f"{SHEET_ACTION}{kind}" for kind in KINDS)
    found -= {system.id for system in _registry_systems()}
    return frozenset(w.lower() for w in found if isinstance(w, str) and len(w) > 1)


def _system_identifiers(system: Any) -> Iterator[str]:
    yield system.id
    yield from getattr(system, "examples", {})  # the example sheets' names (`warband`)
    for name, action in getattr(system, "actions", {}).items():
        yield name
        yield from _model_words(action.params)
        if action.advise is not None:
            yield from _model_words(action.advise.params)
        if action.odds is not None:
            try:
                from jdr.params import validate_params

                odds = action.odds(validate_params(action.params, dict(action.example)), False)
            except Exception:  # an example odds cannot compute: its outcomes come from elsewhere
                continue
            yield from map(str, odds.outcomes)
    for mapping in ("progression", "sheet_rolls"):
        for name, step in getattr(system, mapping, {}).items():
            yield name
            yield from _model_words(getattr(step, "params", None) or getattr(step, "uses", None))
    commands = getattr(system, "fight_commands", None)
    for command in commands or ():
        yield command.name
        yield from _model_words(command.keys)
    if getattr(system, "sheet", None) is not None:
        yield from _model_words(system.sheet)


def _model_words(model: Any) -> Iterator[str]:
    if isinstance(model, type) and issubclass(model, BaseModel):
        for name, info in model.model_fields.items():
            yield name
            yield from _literals(info.annotation)


def _literals(annotation: Any) -> Iterator[str]:
    """The `Literal` and enum values an annotation holds, however deep (`list[Literal[…]]`,
    `Literal[…] | None`, a nested model's are its own fields')."""
    if annotation is None:
        return
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        yield from (str(v) for v in typing.get_args(annotation))
        return
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        yield from (str(m.value) for m in annotation)
        return
    if origin is typing.Annotated:
        yield from _literals(typing.get_args(annotation)[0])
        return
    for arg in typing.get_args(annotation):
        yield from _literals(arg)


@cache
def _import_everything() -> None:
    """Import every module of jdr and of the example plug-ins, so their models exist."""
    import jdr

    for info in pkgutil.walk_packages(jdr.__path__, "jdr."):
        try:
            importlib.import_module(info.name)
        except Exception:  # an optional extra missing: its models cannot be shown either
            continue
    _plugin_modules()


def _plugin_modules() -> list[Any]:
    if str(PLUGIN_SRC) not in sys.path:
        sys.path.append(str(PLUGIN_SRC))
    tests = str(Path(__file__).parent)
    if tests not in sys.path:
        sys.path.append(tests)
    modules = [importlib.import_module("jdr_ombres"), importlib.import_module("example_system")]
    import jdr_ombres

    for info in pkgutil.walk_packages(jdr_ombres.__path__, "jdr_ombres."):
        modules.append(importlib.import_module(info.name))
    return modules


@cache
def _registry_systems() -> tuple[Any, ...]:
    """The installed systems, the example plug-in (Ombres) and the tests' example system."""
    from jdr.systems import Registry

    systems = list(Registry.from_entry_points().all())
    modules = _plugin_modules()
    for module in modules[:2]:
        system = getattr(module, "SYSTEM", None)
        if system is not None and system.id not in {s.id for s in systems}:
            systems.append(system)
    return tuple(systems)


def _models() -> Iterator[type[BaseModel]]:
    seen: set[type] = set()
    todo = list(BaseModel.__subclasses__())
    while todo:
        model = todo.pop()
        if model in seen:
            continue
        seen.add(model)
        todo.extend(model.__subclasses__())
        if model.__module__.split(".")[0] in OUR_MODULES:
            yield model


def _enums() -> Iterator[type[enum.Enum]]:
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] not in OUR_MODULES or not isinstance(module, types.ModuleType):
            continue
        for value in list(vars(module).values()):
            if (
                isinstance(value, type)
                and issubclass(value, enum.Enum)
                and value.__module__ == name
            ):
                yield value


@cache
def _written_literals() -> frozenset[str]:
    """What the code writes as a fight event's `type`, a journal entry's `action` or `kind`, a
    setting's key: every string constant under those keys in a dict the code spells, given as a
    keyword argument of that name or compared with a variable of that name, every key of a
    `settings` dict, and the journal's, fights' and sheets' module constants (`UNDO = "undo"`,
    `END = "fight.end"`)."""
    found: set[str] = set()
    for source in SOURCES:
        for path in source.rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                found.update(_node_words(node))
            if path.parent.name in ("journal", "fights", "characters"):
                found.update(_constants(tree))
    return frozenset(found)


def _node_words(node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Dict):
        yield from _dict_words(node)
    elif isinstance(node, ast.keyword) and node.arg in WRITTEN_KEYS:
        yield from _identifier(node.value)
    elif (
        isinstance(node, ast.Compare)
        and isinstance(node.left, ast.Name)
        and node.left.id in WRITTEN_KEYS  # `action == "start"`
    ):
        for compared in node.comparators:
            yield from _identifier(compared)


def _constants(tree: ast.Module) -> Iterator[str]:
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and all(
            isinstance(t, ast.Name) and t.id.isupper() for t in statement.targets
        ):
            yield from _identifier(statement.value)


WRITTEN_KEYS = ("type", "action", "kind", "event")


def _dict_words(node: ast.Dict) -> Iterator[str]:
    for key, value in zip(node.keys, node.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            continue
        if key.value in WRITTEN_KEYS:
            yield from _identifier(value)
        if key.value == "settings" and isinstance(value, ast.Dict):
            for inner in value.keys:
                if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                    yield inner.value


def _identifier(node: ast.expr) -> Iterator[str]:
    """The string constant `node` is, when it reads as an identifier (`fight_started`)."""
    value = node.value if isinstance(node, ast.Constant) else None
    if isinstance(value, str) and re.fullmatch(r"[a-z][a-z0-9_.]*", value):
        yield value
