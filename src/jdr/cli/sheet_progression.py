"""`jdr sheet buy|award|year|grant|rank`: a progression step of the sheet's system, and the help
that lists what each installed system takes for it.
"""

from typing import Any

import typer

from jdr.cli.sheet_render import show_revised, stored_name
from jdr.cli.stored import opened
from jdr.i18n import N_, _

PROGRESSION_HELP = {
    "buy": N_("Buy with XP or points: a skill, an EV, a level, Passion … (the system's rules)."),
    "award": N_("Give XP or points: xp=N, points=N … and why."),
    "year": N_("Ilvermorny: a school year's 2 points, e.g. magic=1 intuition=1 (IL-4)."),
    "grant": N_("Ilvermorny: the GM grants a spell's level 1 after a lesson (IL-8)."),
    "rank": N_("Plus Ultra: the next rank, its free point in Énergie or Volonté (PU-2)."),
}


class ProgressionCommand(typer.core.TyperCommand):
    """`jdr sheet buy|award|…`: `--help` ends with what each installed system (a plug-in's as
    a built-in's) takes for this step, its words and keys, and its own help."""

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
        super().format_epilog(ctx, formatter)
        rows = _progression_help(str(self.name))
        if rows:
            with formatter.section(_("Each rule system's own")):
                formatter.write_dl(rows)


def _progression_help(command: str) -> list[tuple[str, str]]:
    """`(system: NAME WORD… [key=…], its help)` for each installed system that has the
    progression step `command` (a plug-in that does not load is left out)."""
    import typing

    from jdr.cli.click_words import placeholders
    from jdr.labels import field_label
    from jdr.sheet_check import installed
    from jdr.systems import default_registry

    rows = []
    for system in installed(default_registry()):
        step = (getattr(system, "progression", None) or {}).get(command)
        if step is None:
            continue
        fields = step.params.model_fields
        parts = [f"{system.id}:", "NAME"]
        for word in step.words:
            info = fields.get(word)
            shown = field_label(word, info).upper().replace(" ", "-")
            parts.append(shown if info is None or info.is_required() else f"[{shown}]")
        for key_name, info in fields.items():
            if typing.get_origin(info.annotation) is dict:  # its own keys: `magic=1`
                parts.append(placeholders("KEY=VALUE…"))
            elif key_name not in step.words:
                typed = _typed_key(key_name, info)
                parts.append(f"{typed}=…" if info.is_required() else f"[{typed}=…]")
        rows.append((" ".join(parts), _(step.help) if step.help else ""))
    return rows


def _typed_key(name: str, info: Any) -> str:
    """How a reader types a progression step's key: in French its display name (`coût`,
    `niveau du Pokémon vaincu`, accepted as typed: `jdr.characters.steps`), in English the
    key itself (`cost`, `defeated`)."""
    from jdr.i18n import current_language
    from jdr.labels import field_label

    return field_label(name, info) if current_language() == "fr" else name


def progress(
    command: str,
    name: str,
    words: list[str],
    campaign: str,
    reason: str | None,
    actor: str | None,
    db: str | None,
    json: bool,
) -> None:
    from jdr.characters import service

    bare = [word for word in words if "=" not in word]
    pairs = {}
    for word in words:
        if "=" in word:
            key, _equals, value = word.partition("=")
            pairs[key.strip()] = value.strip()
    with opened(db) as store:
        found = store.campaign(campaign)
        revised = service.progress(store, found, name, command, bare, pairs, actor, reason)
    summary = revised.value.summary() if revised.value is not None else None
    show_revised(found, stored_name(revised, name), revised, json, summary)
