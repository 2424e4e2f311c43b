"""What a Discord interaction brings and what jdr answers, independent of HTTP."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["MESSAGE_LIMIT", "Caller", "Options", "Reply"]

MESSAGE_LIMIT = 2000
"""Discord refuses a message longer than this (characters)."""

Options = Mapping[str, str | int | float | bool]
"""A subcommand's options by their (English) name, as Discord sends them."""


@dataclass(frozen=True)
class Caller:
    """Who typed the command, and where: Discord's ids are strings of digits."""

    user_id: str
    user_name: str
    channel_id: str
    guild_id: str | None = None
    locale: str = "en-US"


@dataclass(frozen=True)
class Reply:
    """An answer: its first message, further ones (each at most MESSAGE_LIMIT characters),
    and whether only the caller sees it (hidden rolls, refusals)."""

    content: str
    followups: tuple[str, ...] = field(default=())
    ephemeral: bool = False
