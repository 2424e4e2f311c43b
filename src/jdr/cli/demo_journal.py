"""`jdr demo`, part 6: a roll anyone can verify — committed seed, journal line, reveal, verify,
and a changed face caught. The demo's campaign uses the documented test seed (bytes 0..31), so its
output is the same on every run; real campaigns draw 32 fresh bytes from the OS."""

from __future__ import annotations

import copy

from rich.console import Console

from jdr.cli.render import command_line
from jdr.i18n import _

DEMO_SEED = bytes(range(32))
DEMO_TIME = "2026-01-01T20:00:00Z"
"""When the demo's entries say they were written (so the demo prints the same hashes every run)."""
CAMPAIGN = "demo-journal"


def verifiable_rolls(out: Console) -> None:
    """Roll twice through a campaign (the second asks for the same action id), reveal, verify."""
    from jdr.cli.journal_commands import journal_lines
    from jdr.journal import service
    from jdr.journal.entries import frozen_time
    from jdr.journal.replay import replayer_for
    from jdr.journal.verify import verify
    from jdr.params import validate_params
    from jdr.store import open_store
    from jdr.systems import default_registry

    registry = default_registry()
    if "poledemos" not in registry.ids():
        return
    system = registry.get("poledemos")
    action = system.actions["test"]
    params = validate_params(action.params, {"val": "3+", "dice": 3})
    with frozen_time(DEMO_TIME):  # the same hashes at every run
        store = open_store("sqlite://")  # in memory: a throw-away database
        try:
            campaign_id = store.create_campaign(system.id, CAMPAIGN, seed=DEMO_SEED)
            campaign = store.campaign(CAMPAIGN)
            created = command_line("jdr", "campaign", "new", CAMPAIGN, "--system", "poledemos")
            out.print("   $ " + created, markup=False)
            out.print(
                "   "
                + _("seed commitment (epoch {number}): {commitment}").format(
                    number=1, commitment=store.epoch(campaign_id).commitment
                ),
                markup=False,
            )
            command = "   $ " + command_line(
                *["jdr", "roll", "poledemos", "test", "--val", "3+", "--dice", "3", "--campaign"],
                CAMPAIGN,
                *["--actor", "Ana", "--action-id", "post-1"],
            )
            for _time in range(2):
                out.print(command, markup=False)
                rolled = service.roll(
                    store, campaign, system, action, params, actor="Ana", action_id="post-1"
                )
                out.print("   " + rolled.record.explain(), markup=False)
                for line in journal_lines(rolled.entry, rolled.replayed):
                    out.print("   " + line, markup=False)
            out.print("   $ " + command_line("jdr", "campaign", "reveal", CAMPAIGN), markup=False)
            exported = command_line("jdr", "journal", "export", CAMPAIGN)
            out.print(f"   $ {exported} > journal.json", markup=False)
            out.print("   $ jdr verify journal.json", markup=False)
            store.reveal_epoch(campaign_id)
            journal = service.export(store, campaign)
        finally:
            store.close()
    report = verify(journal, replayer_for)
    assert report.ok, [problem.message() for problem in report.problems]
    out.print("   " + _("OK: the journal verifies"), markup=False)
    tampered = copy.deepcopy(journal)
    rolls = tampered["entries"][0]["dice"]["rolls"]
    rolls[1][1] = rolls[1][1] % 6 + 1
    out.print("   " + _("The same file with one face changed:"), markup=False)
    problems = verify(tampered).problems
    out.print("   " + _("FAILED: {problem}").format(problem=problems[0].message()), markup=False)
