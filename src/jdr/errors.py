"""One error root for everything a user can get wrong.

Errors carry data, not prose: the edge (CLI, web) renders them in the reader's language.

>>> err = InputError("difficulty", 0, "1..")
>>> err.field, err.value, err.allowed
('difficulty', 0, '1..')
"""

from __future__ import annotations

from typing import Any

from jdr.i18n import N_


class JdrError(Exception):
    """Root of every error `jdr` raises on purpose.

    `code` is a stable machine name (the JSON `error.code`); `message()` renders one line in the
    current language.
    """

    code = "error"
    extra: dict[str, Any] | None = None
    """More JSON keys for the error's answer (a refused re-ask carries the roll it names)."""

    def message(self) -> str:
        return str(self)


class InputError(JdrError, ValueError):
    """A value the user gave is not allowed: names the field, the value and what is allowed.

    `field` is the stable name the JSON answer keeps (`size`); `label`, when given, is how the
    message names it to a reader, in their language (`faces`):

    >>> from jdr.i18n import language
    >>> with language("fr"):
    ...     InputError("size", 0, "1..", "no face", label="faces").message()
    'faces\\xa0: 0 — no face (permis\\xa0: 1..)'
    """

    code = "invalid_input"

    def __init__(
        self,
        field: str,
        value: Any,
        allowed: str,
        reason: str | None = None,
        label: str | None = None,
    ) -> None:
        self.field = field
        self.value = value
        self.allowed = allowed
        self.reason = reason
        self.label = label
        super().__init__(f"{field}: {value!r} ({reason or 'not allowed'}; allowed: {allowed})")

    def message(self) -> str:
        from jdr.i18n import _

        field = self.shown_field()
        if self.value is None and self.reason:
            return _("{field}: {reason} (allowed: {allowed})").format(
                field=field, reason=self.reason, allowed=self.allowed
            )
        if self.reason:
            return _("{field}: {value} — {reason} (allowed: {allowed})").format(
                field=field, value=_show(self.value), reason=self.reason, allowed=self.allowed
            )
        return _("{field}: {value} is not allowed (allowed: {allowed})").format(
            field=field, value=_show(self.value), allowed=self.allowed
        )

    def shown_field(self) -> str:
        """The field as the message names it: `field` stays the stable name JSON answers
        carry; its `label` when given (a model's field by its display name), else the web's own
        fields (`FIELD_NAMES`) worded for the reader; a subclass may word its own."""
        from jdr.i18n import _

        if self.label:
            return self.label
        named = FIELD_NAMES.get(self.field)
        return _(named) if named is not None else self.field


FIELD_NAMES = {
    "path": N_("page"),
    "request": N_("request"),
    "fight": N_("fight"),
    "character": N_("character"),
    "entry": N_("journal entry"),
    "invite": N_("invite"),
    "feed": N_("feed link"),
}
"""What the web's refusals name (the URL's parts, the request itself), in the reader's words;
JSON answers keep the identifier (`InputError.field`)."""


class LimitError(InputError):
    """A request over one of the budgets charged before any work (dice count, faces, length …)."""

    code = "limit_exceeded"


class NotFoundError(InputError):
    """No such thing where it was asked for: a page, or an id of another campaign (the web
    table answers 404)."""

    code = "not_found"


class TooManyError(InputError):
    """Too many attempts (or open pages) from one place: wait, then try again (429)."""

    code = "rate_limited"


class FacesError(InputError):
    """Given faces that do not fit the roll: a face off the die, too few or too many faces."""

    code = "invalid_faces"


class RulesError(JdrError):
    """A command the rules forbid (a fight action out of turn, a cost not payable …).

    `reason` is already a sentence in the current language: the system builds it with `_()`.
    """

    code = "rules"

    def __init__(self, reason: str, rule: str | None = None) -> None:
        self.reason = reason
        self.rule = rule
        super().__init__(reason if rule is None else f"{reason} ({rule})")

    def message(self) -> str:
        return str(self)


class UnknownNameError(InputError):
    """An unknown system, action or other name, with the names that exist and the closest one
    (`suggestion`, found by `jdr.names.closest` unless given).

    >>> UnknownNameError("system", "pokemn", ["passion", "pokemon"]).message()
    'unknown system pokemn — did you mean pokemon? (known: passion, pokemon)'
    """

    code = "unknown_name"

    def __init__(
        self, field: str, value: str, known: list[str], suggestion: str | None = None
    ) -> None:
        super().__init__(field, value, ", ".join(known) or "-")
        self.known = list(known)
        if suggestion is None and isinstance(value, str):
            from jdr.names import closest

            suggestion = closest(value, known)
        self.suggestion = suggestion

    def message(self) -> str:
        from jdr.i18n import _

        if self.suggestion is not None:
            text = _("unknown {field} {value} — did you mean {suggestion}? (known: {allowed})")
            return text.format(
                field=self.field,
                value=_show(self.value),
                suggestion=self.suggestion,
                allowed=self.allowed,
            )
        return _("unknown {field} {value} (known: {allowed})").format(
            field=self.field, value=_show(self.value), allowed=self.allowed
        )


class NotOfferedError(InputError):
    """A system or an action that exists but has no odds or no advisor: names those that have.

    >>> NotOfferedError("advise", "pokemon", None, ["passion"]).message()
    'pokemon has no advisor; systems with one: passion'
    """

    code = "not_offered"

    def __init__(self, mode: str, system: str, action: str | None, offering: list[str]) -> None:
        field, value = ("system", system) if action is None else ("action", f"{system} {action}")
        super().__init__(field, value, ", ".join(offering) or "-")
        self.mode = mode
        self.system = system
        self.action = action

    def message(self) -> str:
        from jdr.i18n import _

        if self.mode == "advise":
            text = (
                _("{system} has no advisor; systems with one: {allowed}")
                if self.action is None
                else _("{system} {action} has no advisor; actions with one: {allowed}")
            )
        else:
            text = (
                _("{system} has no odds; systems with odds: {allowed}")
                if self.action is None
                else _("{system} {action} has no odds; actions with odds: {allowed}")
            )
        return text.format(system=self.system, action=self.action, allowed=self.allowed)


REORDERING = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Direction marks and overrides: they reorder the text that follows them on screen."""


def _visible(char: str) -> str:
    """`char`, or its escape (`\x1b`, `\u202e`) for a control character or a direction
    override, which a terminal would obey instead of showing."""
    import unicodedata

    if unicodedata.category(char) in ("Cc", "Cs") or char in REORDERING:
        code = ord(char)
        return f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}"
    return char


MAX_SHOWN = 80
"""Characters of a value a message repeats: a 5,000-digit value is shown by its start."""


def _show(value: Any) -> str:
    """The value as a message shows it, cut past `MAX_SHOWN` characters.

    >>> _show("9" * 100) == "9" * 80 + "… (100 characters)"
    True
    """
    text = value if isinstance(value, str) else repr(value)
    text = "".join(_visible(char) for char in text)  # `\x1b`, never an escape sent raw
    if len(text) <= MAX_SHOWN:
        return text
    from jdr.i18n import _

    return text[:MAX_SHOWN] + "… " + _("({n} characters)").format(n=len(text))


class AccessError(InputError):
    """A request this session may not make (`jdr.access`): names what was asked and what it may
    do."""

    code = "forbidden"

    def shown_field(self) -> str:
        from jdr.i18n import _

        named = ACCESS_FIELDS.get(self.field)
        return _(named) if named is not None else self.field


ACCESS_FIELDS = {
    "campaign": N_("campaign"),
    "invite": N_("invite link"),
    "host": N_("host link"),
    "origin": N_("origin of the request"),
    "csrf": N_("form"),
    "session": N_("session"),
    "hidden": N_("hidden roll"),
    "action_id": N_("action id"),
    "sheet": N_("sheet"),
    "actor": N_("character"),
    "settings": N_("settings"),
    "fight": N_("fight"),
    "disclose": N_("disclosing hidden rolls"),
    "reveal": N_("revealing the seed"),
    "pace": N_("pace"),
    "webhook": N_("webhook"),
    "feed": N_("feed"),
    "invites": N_("invites"),
}
"""What a refusal names (`AccessError.field`, stable in JSON) in the reader's words; a field not
listed here is already worded (a fight command's name, in the reader's language)."""


class NotSignedInError(AccessError):
    """No live session: the browser has to open an invite link first."""

    code = "not_signed_in"
