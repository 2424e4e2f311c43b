"""Words that reach a player as data (outcomes, JSON keys shown as column headers).

They are English identifiers in code and JSON (see the glossary in docs/glossary.md); the
catalogs translate them for display: `_(record.outcome)` shows `réussite` in French. Marking them
here puts them in the catalog; systems mark their own words the same way.
"""

from __future__ import annotations

from jdr.i18n import N_, ngettext

OUTCOMES = (
    N_("success"),
    N_("failure"),
    N_("critical_failure"),
    N_("status_quo"),
    N_("perfect"),
    N_("imperfect"),
)

KEYS = (
    N_("score"),
    N_("margin"),
    N_("successes"),
    N_("failures"),
    N_("positives"),
    N_("negatives"),
    N_("dice"),
    N_("difficulty"),
    N_("total"),
    N_("value"),
    N_("sure"),
    N_("p_success"),
    N_("p_status_quo"),
    N_("p_failure"),
    N_("mean_margin"),
    N_("action_points"),
    N_("damage"),
    N_("vitality_lost"),
    N_("by_ball"),
    N_("policies"),
    N_("mean"),
    N_("best"),
)


def successes_text(n: int) -> str:
    """`2 successes` / `2 succès`: a count of successes in the current language."""
    return ngettext("{n} success", "{n} successes", n).format(n=n)


def failures_text(n: int) -> str:
    """`1 failure` / `1 échec`: a count of failures in the current language."""
    return ngettext("{n} failure", "{n} failures", n).format(n=n)
