"""The default Polédémos tactic (issue 21): the hand policy already computed (PD-4, PD-5,
`hand.best_policy`), and what a simulated game is.

A tactic is a plain function `tactic(state) -> commands`, best first (see docs/plugins.md).

- With no figure activated, the player with the hand activates the next figure it has not
  rolled for (in its warband's order, alone: no group), with the dice `best_policy` gives the
  first of the figures left — the dice that maximise the hand's expected PA from there.
- An activated figure spends its PA one at a time on the kinds of action still open (PD-6); the
  game's positions and shots are the table's (PD-7), so the kind is only a label here.

Where the rules are silent (a reading of this simulation): Polédémos play resolves no shot and
declares no winner, so a simulated game is one hand for each player, won by the player whose
figures gained the most PA (no winner on a tie); a report gives each player's PA gained and
activations (nobody is knocked out), and its "rounds" are the hands played.
"""

from __future__ import annotations

from collections.abc import Sequence

from jdr.i18n import N_
from jdr.systems.poledemos.hand import best_policy
from jdr.systems.poledemos.play_state import available_figures, open_kinds
from jdr.systems.protocol import Columns, Ending, Json, Simulation


def val_of(figure: Json) -> int:
    """A figure's Val as a number (`"3+"` → 3)."""
    return int(str(figure["val"]).rstrip("+"))


def tactic(state: Json) -> list[Json]:
    """The commands of the player with the hand, best first."""
    player = state["hand"]
    if state["activation"] is not None:
        kinds = open_kinds(state)
        spend = [{"action": "action", "player": player, "kind": kind} for kind in kinds]
        return [*spend, {"action": "end_activation", "player": player}]
    left = available_figures(state)
    figures = {f["name"]: f for f in state["figures"][player]}
    policy = best_policy([val_of(figures[name]) for name in left])
    return [{"action": "activate", "player": player, "figure": left[0], "dice": policy.dice[0]}]


def sides(state: Json) -> dict[str, str]:
    """Each player is a side of its own."""
    return {name: name for name in state["seats"]}


def over(state: Json) -> bool:
    """One hand for each player has been played (the next one has started)."""
    return bool(state["hand_number"] > len(state["seats"]))


def ending(events: Sequence[Json], state: Json) -> Ending:
    """The player whose figures gained the most PA (none on a tie), PA by player (`dealt`) and
    activations by player (`taken`, as `SIMULATION.columns` names them)."""
    gained = dict.fromkeys(state["seats"], 0)
    activations = dict.fromkeys(state["seats"], 0)
    for event in events:
        if event["type"] == "activation_rolled":
            activations[event["player"]] += 1
            gained[event["player"]] += event["action_points"] + sum(
                member["action_points"] for member in event["members"]
            )
    best = max(gained.values())
    leaders = [name for name, points in gained.items() if points == best]
    winner = leaders[0] if len(leaders) == 1 else None
    return Ending(winner, len(state["seats"]), (), gained, activations)


SIMULATION = Simulation(
    tactic=tactic,
    sides=sides,
    over=over,
    ending=ending,
    columns=Columns(
        None, N_("PA gained"), N_("activations"), N_("hands"), ("-", "action_points", "activations")
    ),
)
