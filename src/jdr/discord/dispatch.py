"""An interaction Discord sent (already signature-checked), answered: what the endpoint returns.

`respond(store, payload)` reads the interaction: a PING is answered `{"type": 1}`; a command
`/jdr …` becomes a `Caller` (who, in which channel, in which language), the subcommand's path
below `/jdr` and its options. `/jdr campaign link` and `/jdr join` are answered here
(`jdr.discord.identity`); every other subcommand by `jdr.discord.replies.answer`, given the
channel's campaign and the caller's seat there. A refusal (any `JdrError`) is answered to the
caller only (ephemeral), in their language, with its clear message; so is a failure of the
server itself, said in the log: Discord never sees a 500 for a command.

The answer is a channel message (interaction response type 4), ephemeral (`flags: 64`) when the
reply is, never pinging anyone (`allowed_mentions: {"parse": []}`); a reply longer than Discord's
2000 characters, and the reply's further messages, go as follow-up messages
(`Answered.followups`), posted after the response (`jdr.discord.api.followups`).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from jdr.access import ROLE_NAMES, Viewer
from jdr.discord.api import API_BASE
from jdr.discord.signature import MAX_AGE_S, Replays
from jdr.discord.types import MESSAGE_LIMIT, Caller, Options, Reply
from jdr.errors import InputError, JdrError
from jdr.i18n import _, language, normalize_language
from jdr.split import plain
from jdr.store import Campaign, Store

__all__ = [
    "EPHEMERAL",
    "Answer",
    "Answered",
    "Command",
    "Endpoint",
    "parse",
    "reply_to",
    "respond",
    "split",
]

PING, APPLICATION_COMMAND = 1, 2
PONG, CHANNEL_MESSAGE = 1, 4
EPHEMERAL = 64
"""The message flag that shows a message to the caller only."""
MAX_FOLLOWUPS = 10
"""The most follow-up messages one reply sends (Discord limits how fast a channel fills)."""
_SNOWFLAKE = re.compile(r"^[0-9]{1,32}$")
log = logging.getLogger("jdr.discord")

Answer = Callable[[Store, Campaign | None, Viewer | None, Caller, tuple[str, ...], Options], Reply]
"""`jdr.discord.replies.answer`'s signature: what answers a game subcommand."""


def default_answer(
    store: Store,
    campaign: Campaign | None,
    viewer: Viewer | None,
    caller: Caller,
    path: tuple[str, ...],
    options: Options,
) -> Reply:
    from jdr.discord.replies import answer

    return answer(store, campaign, viewer, caller, path, options)


@dataclass
class Endpoint:
    """The interactions endpoint's settings in a server: the application's public key, where
    Discord's API is (for follow-ups), what answers the game subcommands, and the signatures
    already seen."""

    public_key: Any
    """An `Ed25519PublicKey` (`jdr.discord.signature.public_key`)."""
    api_base: str = API_BASE
    answer: Answer = default_answer
    clock: Callable[[], float] = time.time
    replays: Replays = field(default_factory=lambda: Replays(MAX_AGE_S))


@dataclass(frozen=True)
class Command:
    """A `/jdr …` command: who sent it where, the subcommand's path and options, and what its
    follow-ups need (the application's id and the interaction's token)."""

    caller: Caller
    path: tuple[str, ...]
    options: dict[str, str | int | float | bool]
    application_id: str
    token: str


@dataclass(frozen=True)
class Answered:
    """What the endpoint returns (`response`), the follow-up messages to post after it, and the
    campaign the command may have changed (its open pages are told)."""

    response: dict[str, Any]
    followups: tuple[dict[str, Any], ...] = ()
    application_id: str = ""
    token: str = ""
    campaign_id: int | None = None


def _malformed(what: str) -> InputError:
    return InputError("interaction", what, _("an interaction as Discord sends it"))


def _snowflake(value: Any, what: str) -> str:
    text = str(value) if isinstance(value, str | int) and not isinstance(value, bool) else ""
    if not _SNOWFLAKE.match(text):
        raise _malformed(what)
    return text


def parse(payload: Mapping[str, Any]) -> Command:
    """A `/jdr …` command from an APPLICATION_COMMAND interaction (`InputError` if malformed)."""
    member = payload.get("member")
    user = member.get("user") if isinstance(member, dict) else payload.get("user")
    if not isinstance(user, dict):
        raise _malformed("user")
    channel = payload.get("channel_id")
    if channel is None and isinstance(payload.get("channel"), dict):
        channel = payload["channel"].get("id")
    guild = payload.get("guild_id")
    name = user.get("global_name") or user.get("username") or ""
    locale = payload.get("locale") or payload.get("guild_locale") or "en-US"
    caller = Caller(
        user_id=_snowflake(user.get("id"), "user.id"),
        user_name=str(name)[:100],
        channel_id=_snowflake(channel, "channel_id"),
        guild_id=None if guild is None else _snowflake(guild, "guild_id"),
        locale=str(locale)[:16],
    )
    data = payload.get("data")
    if not isinstance(data, dict) or data.get("name") != "jdr":
        raise _malformed("data.name")
    path: list[str] = []
    options: Any = data.get("options") or []
    while (
        isinstance(options, list)
        and len(options) == 1
        and isinstance(options[0], dict)
        and options[0].get("type") in (1, 2)
    ):
        path.append(str(options[0].get("name", ""))[:32])
        options = options[0].get("options") or []
    if not path or not isinstance(options, list):
        raise _malformed("data.options")
    found: dict[str, str | int | float | bool] = {}
    for option in options:
        if not isinstance(option, dict):
            raise _malformed("data.options")
        found[str(option.get("name", ""))[:32]] = _value(option)
    application = _snowflake(payload.get("application_id"), "application_id")
    token = payload.get("token")
    return Command(caller, tuple(path), found, application, str(token or ""))


def _value(option: dict[str, Any]) -> str | int | float | bool:
    """An option's value, of the type the option declares (`InputError` otherwise)."""
    kind = option.get("type")
    value = option.get("value")
    if kind == 3 and isinstance(value, str):
        return value
    if kind == 5 and isinstance(value, bool):
        return value
    if kind == 4 and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind == 10 and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise _malformed("data.options")


def split(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """`text` in messages of at most `limit` characters, cut at line ends where it can
    (`jdr.split.plain`).

    >>> split("ab\\ncd\\nef", 5)
    ['ab\\ncd', 'ef']
    """
    return plain(text, limit)


def _message(content: str, ephemeral: bool) -> dict[str, Any]:
    found: dict[str, Any] = {"content": content, "allowed_mentions": {"parse": []}}
    if ephemeral:
        found["flags"] = EPHEMERAL
    return found


def reply_to(reply: Reply) -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    """The interaction response for `reply` and its follow-up messages."""
    messages = split(reply.content)
    for more in reply.followups:
        messages.extend(split(more))
    first, *rest = messages
    if len(rest) > MAX_FOLLOWUPS:
        rest = [*rest[: MAX_FOLLOWUPS - 1], _("… (cut: too long for Discord)")]
    response = {"type": CHANNEL_MESSAGE, "data": _message(first, reply.ephemeral)}
    return response, tuple(_message(text, reply.ephemeral) for text in rest)


def _seated(campaign: Campaign, viewer: Viewer, joined: bool) -> str:
    role = _(ROLE_NAMES.get(viewer.role) or viewer.role)
    if viewer.character:
        said = _("You sit at {campaign} as {role} ({character}).").format(
            campaign=campaign.name, role=role, character=viewer.character
        )
    else:
        said = _("You sit at {campaign} as {role}.").format(campaign=campaign.name, role=role)
    if joined:
        return said
    return said + " " + _("This channel now plays {campaign}.").format(campaign=campaign.name)


def _identity(store: Store, command: Command) -> tuple[Reply, int]:
    """`/jdr campaign link` and `/jdr join`: the reply (to the caller only: it names a secret
    code) and the campaign."""
    from jdr.discord import identity

    code = command.options.get("code")
    if not isinstance(code, str) or not code.strip():
        raise InputError("code", None, _("the code"), _("missing"))
    if command.path == ("join",):
        campaign, viewer = identity.join(store, command.caller, code)
        said = _seated(campaign, viewer, joined=True)
        bound, _viewer = identity.place(store, command.caller)
        if bound is None or bound.id != campaign.id:
            said += " " + _("This channel does not play it: play in a channel the GM linked to it.")
        return Reply(said, ephemeral=True), campaign.id
    campaign, viewer = identity.link(store, command.caller, code)
    return Reply(_seated(campaign, viewer, joined=False), ephemeral=True), campaign.id


def answer_command(store: Store, command: Command, answer: Answer) -> tuple[Reply, int | None]:
    """The reply to `command` in the caller's language, and the campaign it concerns."""
    lang = normalize_language(command.caller.locale) or "en"
    with language(lang):
        try:
            if command.path in (("join",), ("campaign", "link")):
                return _identity(store, command)
            from jdr.discord.identity import place

            campaign, viewer = place(store, command.caller)
            reply = answer(store, campaign, viewer, command.caller, command.path, command.options)
            return reply, None if campaign is None else campaign.id
        except JdrError as refused:
            return Reply(refused.message(), ephemeral=True), None
        except Exception:  # a bug: said in the log, and to the caller in plain words
            log.exception("a Discord command failed: /jdr %s", " ".join(command.path))
            return Reply(_("The server failed to answer this command."), ephemeral=True), None


def respond(store: Store, payload: Any, answer: Answer = default_answer) -> Answered:
    """The answer to an interaction (see the module); `InputError` for one jdr cannot read."""
    if not isinstance(payload, dict):
        raise _malformed("JSON")
    kind = payload.get("type")
    if kind == PING:
        return Answered({"type": PONG})
    if kind != APPLICATION_COMMAND:
        raise InputError("type", kind, "1, 2")
    command = parse(payload)
    reply, campaign_id = answer_command(store, command, answer)
    response, followups = reply_to(reply)
    return Answered(response, followups, command.application_id, command.token, campaign_id)
