"""Every refusal of the web table, in the CLI's error shape (`jdr.answers.error_json`).

A `JdrError` keeps its words; FastAPI's own refusals (a malformed form, an unknown path) are
translated into `InputError`s first, so a browser and a script see one shape and never a 500.
"""

from __future__ import annotations

from typing import Any

from jdr.access import AccessError, NotSignedInError
from jdr.errors import (
    InputError,
    JdrError,
    LimitError,
    NotFoundError,
    RulesError,
    TooManyError,
    UnknownNameError,
)
from jdr.i18n import _
from jdr.journal.service import HiddenRollError
from jdr.store import StoreError

_NOT_FOUND_PROBLEMS = {"no_campaign", "no_character", "no_fight", "no_revision"}
_DATABASE_DOWN = {
    "read_only",
    "disk_full",
    "unreachable",
    "failed",
    "newer_schema",
    "older_schema",
    "not_jdr",
}
"""The database cannot serve (503); every other store refusal is a conflict with its state (409)."""


def status_of(error: JdrError) -> int:
    """The HTTP status a refusal is answered with."""
    if isinstance(error, NotSignedInError):
        return 401
    if isinstance(error, AccessError | HiddenRollError):
        return 403  # a hidden roll re-asked: the same refusal whether or not the guess matched
    if isinstance(error, TooManyError):
        return 429
    if isinstance(error, NotFoundError | UnknownNameError):
        return 404
    if isinstance(error, LimitError) and error.field == "body":
        return 413
    if isinstance(error, StoreError):
        if error.problem in _NOT_FOUND_PROBLEMS:
            return 404
        return 503 if error.problem in _DATABASE_DOWN else 409
    if isinstance(error, RulesError):
        return 409
    return 422


def from_validation(errors: list[Any]) -> InputError:
    """FastAPI's request validation errors as the CLI's `InputError` (the first problem)."""
    if not errors:
        return InputError("request", None, _("a well-formed request"))
    first = errors[0]
    loc = [str(part) for part in first.get("loc", ()) if part not in ("body", "query", "path")]
    value = first.get("input")
    if not isinstance(value, str | int | float | bool | type(None)):
        value = None
    return InputError(".".join(loc) or "request", value, str(first.get("msg", "")))
