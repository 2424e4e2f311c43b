# ruff: noqa: E501 - a translation reads best on one line
"""Ombres in French: every message the system shows, declared in code (`jdr.i18n.Messages`).

Keys are the English messages exactly as written in the code (`_()`, `N_()`, `ngettext`); a
plural gives its two French forms. English needs no table: identifiers such as
`partial_success` read as words (`partial success`) by themselves.
"""

from jdr.i18n import Messages

MESSAGES = Messages(
    fr={
        # outcomes (OM-2): jdr already knows `success` and `failure`
        "critical_success": "réussite critique",
        "partial_success": "réussite partielle",
        "kept": "dé gardé",
        # the check
        "A check: keep the highest d6": "Un test : garder le meilleur d6",
        "the rating: how many d6 to roll (0 to 10)": "la cote : combien de d6 lancer (0 à 10)",
        "keep the highest": "garder le meilleur",
        "no rating: keep the lowest of 2": "cote nulle : garder le pire de 2",
        "{dice}d6, {how}: {faces} → {kept}: {outcome}": "{dice}d6, {how} : {faces} → {kept} : {outcome}",
        # the sheet
        "the character's name": "le nom du personnage",
        "dice to fight": "dés pour combattre",
        "dice for stealth and tricks": "dés pour la discrétion et les ruses",
        "dice to hold on and recover": "dés pour tenir bon et récupérer",
        "stress that breaks them": "stress qui les brise",
        # the fight
        "a fight needs fighters on two sides at least": "un combat demande des combattants dans deux camps au moins",
        "the fight is over": "le combat est terminé",
        "it is {name}'s turn": "c'est le tour de {name}",
        "unknown command {name}": "commande inconnue {name}",
        "{name} is already in the fight": "{name} est déjà dans le combat",
        "{name} is not in the fight": "{name} n'est pas dans le combat",
        "{name} cannot be attacked: broken, or on your side": "{name} ne peut pas être attaqué : brisé, ou dans votre camp",
        "Shadows fall: {sides}.": "Les ombres tombent : {sides}.",
        "{name} takes {n} stress": ["{name} prend {n} de stress", "{name} prend {n} de stress"],
        "no stress": "aucun stress",
        "{actor} attacks {target} ({faces}): {outcome}; {stress}.": "{actor} attaque {target} ({faces}) : {outcome} ; {stress}.",
        "{actor} catches their breath ({faces}): {outcome}, stress {change}.": "{actor} reprend son souffle ({faces}) : {outcome}, stress {change}.",
        "{name} breaks and leaves the fight.": "{name} craque et quitte le combat.",
        "{name}'s turn.": "Au tour de {name}.",
        "stress": "stress",
        "broken": "brisé",
        # the commands
        "the fighter attacked": "le combattant attaqué",
        "the side joined": "le camp rejoint",
        "Attack a fighter of another side.": "Attaquer un combattant d'un autre camp.",
        "Catch your breath: roll resolve.": "Reprendre son souffle : lancer la résolution.",
        "A stored character enters the fight.": "Un personnage enregistré entre dans le combat.",
        "Shadows: the system's own commands.": "Ombres : les commandes du système.",
        "What the kept die means (OM-2).": "Ce que dit le dé gardé (OM-2).",
        # the fight commands' odds
        "chance of a success (6)": "chance de réussite (6)",
        "stress dealt": "stress infligé",
        "combat": "combat",
        "resolve": "résolution",
        "the highest of {n}d6": "le meilleur de {n}d6",
        "the lowest of 2d6 (no rating)": "le pire de 2d6 (cote nulle)",
        "{rating} {dice}: {how} (OM-1); a 6 is a success (OM-2)": "{rating} {dice} : {how} (OM-1) ; un 6 est une réussite (OM-2)",
    }
)
