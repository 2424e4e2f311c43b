"""The commands of a Polédémos game and the checks that refuse one before any die is rolled.

Every refusal is a `RulesError` with a sentence in the current language and the rule's id (a
malformed command is an `InputError`); names are matched ignoring case, accents and spaces, and
come back as the setup spells them.

>>> state = {"seats": ["Alice", "Bob"], "hand": "Alice"}
>>> check_player(state, "alice")
'Alice'
>>> check_player(state, "Bob")
Traceback (most recent call last):
...
jdr.errors.RulesError: Bob does not have the hand: Alice plays (PD-4)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import Field

from jdr.errors import RulesError
from jdr.i18n import _
from jdr.names import hint
from jdr.params import validate_params
from jdr.systems.poledemos.command_keys import ActionKeys, ActivateKeys, Nothing
from jdr.systems.poledemos.play_setup import MAX_NAME, find_name
from jdr.systems.poledemos.play_state import find_figure
from jdr.systems.poledemos.rules import MAX_ACTIVATION_DICE, MIN_ACTIVATION_DICE
from jdr.systems.protocol import Json

COMMANDS = ("activate", "action", "end_activation", "pass")
"""The command names: a command's `"action"` key (`fight_models.COMMANDS` declares them)."""
MAX_PA = 3
"""PD-5, PD-6: an activation gives at most 3 PA, so an action costs 1 to 3."""


class PlayerCommand(Nothing):
    """`end_activation` and `pass`: the player who gives the command."""

    player: str = Field(max_length=MAX_NAME)


class Activate(PlayerCommand, ActivateKeys):
    """PD-5, PD-8: the player's `activate` (`command_keys.ActivateKeys`)."""


class TakeAction(PlayerCommand, ActionKeys):
    """PD-6, PD-10: the player's `action` (`command_keys.ActionKeys`)."""


def parse_command(command: Any) -> tuple[str, PlayerCommand]:
    """The command's name and its validated fields."""
    name = command.get("action") if isinstance(command, dict) else None
    if name not in COMMANDS:
        raise RulesError(
            _("unknown command {name} (allowed: {allowed})").format(
                name=name, allowed=", ".join(COMMANDS)
            ),
            "PD-4",
        )
    fields = {key: value for key, value in command.items() if key != "action"}
    models: dict[str, type[PlayerCommand]] = {"activate": Activate, "action": TakeAction}
    return name, validate_params(models.get(name, PlayerCommand), fields)


def check_player(state: Json, name: str) -> str:
    """PD-4: the player with the hand (as the setup spells it); anyone else is refused."""
    player = find_name(state["seats"], name)
    if player is None:
        raise RulesError(
            _("unknown player {name} (players: {known})").format(
                name=name, known=", ".join(state["seats"])
            )
            + hint(name, state["seats"]),
            "PD-3",
        )
    if player != state["hand"]:
        raise RulesError(
            _("{player} does not have the hand: {hand} plays").format(
                player=player, hand=state["hand"]
            ),
            "PD-4",
        )
    return player


def check_no_activation(state: Json) -> None:
    """PD-4: figures are activated one at a time."""
    if state["activation"] is not None:
        raise RulesError(
            _("{figure} is still activated: end its activation first").format(
                figure=state["activation"]["figure"]
            ),
            "PD-4",
        )


def open_activation(state: Json, command: PlayerCommand) -> Json:
    """The open activation of the player with the hand."""
    check_player(state, command.player)
    activation: Json | None = state["activation"]
    if activation is None:
        raise RulesError(_("no figure is activated: activate one first"), "PD-5")
    return activation


def check_activate(state: Json, command: Activate) -> tuple[str, Json, list[Json]]:
    """PD-4, PD-5, PD-8: the player, its figure and the members it takes along."""
    player = check_player(state, command.player)
    check_no_activation(state)
    figure = _fresh_figure(state, player, command.figure)
    if not MIN_ACTIVATION_DICE <= command.dice <= MAX_ACTIVATION_DICE:
        raise RulesError(
            _("a figure is activated with 1, 2 or 3 dice, not {dice}").format(dice=command.dice),
            "PD-5",
        )
    return player, figure, _group(state, player, figure, command.group)


def check_pass(state: Json, command: PlayerCommand) -> None:
    """PD-4: a voluntary pass, only when the table's setting allows it."""
    check_player(state, command.player)
    check_no_activation(state)
    if not state["settings"]["voluntary_pass"]:
        raise RulesError(
            _("the hand passes only when forced or with no figure left to activate"), "PD-4"
        )


def _fresh_figure(state: Json, player: str, name: str) -> Json:
    """PD-4: one of `player`'s figures, not yet activated in this hand."""
    names = [figure["name"] for figure in state["figures"][player]]
    found = find_name(names, name)
    if found is None:
        raise RulesError(
            _("{player} has no figure named {name} (figures: {known})").format(
                player=player, name=name, known=", ".join(names)
            ),
            "PD-4",
        )
    if found in state["activated"]:
        raise RulesError(
            _("{figure} has already been activated in this hand").format(figure=found), "PD-4"
        )
    figure = find_figure(state, player, found)
    assert figure is not None
    return figure


def _group(state: Json, player: str, leader: Json, names: list[str]) -> list[Json]:
    """PD-8: the followers a leader takes along, declared before its roll."""
    if names and not leader["leader"]:
        raise RulesError(
            _("{figure} is not a leader: it takes no figure along").format(figure=leader["name"]),
            "PD-8",
        )
    members: list[Json] = []
    for name in names:
        found = find_name(leader["followers"], name)
        if found is None:
            raise RulesError(
                _("{name} is not one of {figure}'s followers (followers: {known})").format(
                    name=name, figure=leader["name"], known=", ".join(leader["followers"]) or "-"
                ),
                "PD-8",
            )
        if any(member["name"] == found for member in members):
            raise RulesError(_("{name} is declared twice in the group").format(name=found), "PD-8")
        members.append(_fresh_figure(state, player, found))
    return members


_ALREADY: dict[str, Callable[[], str]] = {
    "move": lambda: _("{figure} has already moved in this activation"),
    "shoot": lambda: _("{figure} has already shot in this activation"),
    "melee": lambda: _("{figure} has already fought in melee in this activation"),
}


def check_action(state: Json, command: TakeAction) -> tuple[dict[str, int], list[str]]:
    """PD-5, PD-6, PD-10: a legal action; what each member spends on it, and who stays."""
    activation = open_activation(state, command)
    figure, kind, pa = activation["figure"], command.kind, command.pa
    if kind in activation["kinds"]:
        raise RulesError(_ALREADY[kind]().format(figure=figure), "PD-6")
    if not 1 <= pa <= MAX_PA:
        raise RulesError(_("an action costs 1, 2 or 3 PA, not {pa}").format(pa=pa), "PD-6")
    if pa > activation["left"]:
        raise RulesError(
            _("{figure} has {left} PA left: it cannot spend {pa}").format(
                figure=figure, left=activation["left"], pa=pa
            ),
            "PD-5",
        )
    return _member_spends(activation, command.members, pa)


def _member_spends(
    activation: Json, spends: dict[str, int], pa: int
) -> tuple[dict[str, int], list[str]]:
    """PD-10: each member with PA left spends 1 (or what `spends` says, up to the leader's `pa`
    and its PA left) on the leader's action; the others stay."""
    group: dict[str, Json] = activation["members"]
    chosen: dict[str, int] = {}
    for name, spent in spends.items():
        found = find_name(list(group), name)
        if found is None:
            raise RulesError(
                _("{name} is not in {figure}'s group").format(
                    name=name, figure=activation["figure"]
                ),
                "PD-10",
            )
        left = group[found]["left"]
        if left == 0:
            raise RulesError(_("{name} has no PA left and stays").format(name=found), "PD-10")
        most = min(left, pa)
        if not 1 <= spent <= most:
            raise RulesError(
                _("{name} spends 1 to {most} PA on this action, not {pa}").format(
                    name=found, most=most, pa=spent
                ),
                "PD-10",
            )
        chosen[found] = spent
    following = {name: chosen.get(name, 1) for name, member in group.items() if member["left"]}
    staying = [name for name, member in group.items() if not member["left"]]
    return following, staying
