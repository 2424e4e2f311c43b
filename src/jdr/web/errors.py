"""Every refusal of the web table, in the CLI's error shape (`jdr.answers.error_json`).

A `JdrError` keeps its words; FastAPI's own refusals (a malformed form, an unknown path) are
translated into `InputError`s first, so a browser and a script see one shape and never a 500.
"""

from __future__ import annotations

from typing import Any

from jdr.errors import (
    AccessError,
    InputError,
    JdrError,
    LimitError,
    NotFoundError,
    NotSignedInError,
    RulesError,
    TooManyError,
    UnknownNameError,
)
from jdr.i18n import N_, _
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
    """FastAPI's request validation errors as the CLI's `InputError` (the first problem), in the
    reader's words: a body that is not JSON says where it stops being JSON (never Python's own
    "Expecting property name …"), a value of the wrong type says what was expected."""
    if not errors:
        return InputError("request", None, _("a well-formed request"))
    first = errors[0]
    kind = str(first.get("type", ""))
    loc = [str(part) for part in first.get("loc", ()) if part not in ("body", "query", "path")]
    if kind == "json_invalid":  # its `loc` is the character where the JSON broke
        at = next((part for part in first.get("loc", ()) if isinstance(part, int)), None)
        reason = (
            _("not valid JSON at character {at}").format(at=at + 1)
            if at is not None
            else _("not valid JSON")
        )
        return InputError("JSON", None, _("a JSON object, as /api/openapi.json describes"), reason)
    value = first.get("input")
    if not isinstance(value, str | int | float | bool | type(None)):
        value = None
    expected = next((words for prefix, words in _EXPECTED if kind.startswith(prefix)), None)
    if expected is None:
        return InputError(".".join(loc) or "request", value, _("a value of the right type"))
    if kind == "missing":
        return InputError(".".join(loc) or "request", None, _(expected), _("missing"))
    return InputError(".".join(loc) or "request", value, _(expected))


_EXPECTED = (
    ("missing", N_("a value")),
    ("string", N_("text")),
    ("int", N_("a whole number")),
    ("float", N_("a number")),
    ("bool", N_("true or false")),
    ("dict", N_("a JSON object")),
    ("model", N_("a JSON object")),
    ("list", N_("a list")),
)
"""Pydantic's error types (by prefix: `int_parsing`, `int_type` …) → what was expected, in words."""
