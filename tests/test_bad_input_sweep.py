"""Bad input never reaches a user as a traceback: every option of every installed action, given
garbage, an absurd number or a negative one, either answers or exits 2 with one clear line."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from typing import Any

import pytest

from jdr.cli.app import main
from jdr.cli.options import option_name
from jdr.params import is_flag
from jdr.systems import Registry

BAD_VALUES = ("zzz", "-7", "999999999", "")


def _cases() -> Iterator[tuple[str, str, str, str, str]]:
    registry = Registry.from_entry_points()
    for system in registry.all():
        for name, action in system.actions.items():
            modes = ["roll"] + ["odds"] * (action.odds is not None)
            for field, info in action.params.model_fields.items():
                if is_flag(info):
                    continue
                for value in BAD_VALUES:
                    for mode in modes:
                        yield mode, system.id, name, field, value


class _TimeoutError(Exception):
    pass


def _alarm(_signum: int, _frame: Any) -> None:
    raise _TimeoutError


@pytest.mark.parametrize(("mode", "system", "action", "field", "value"), list(_cases()))
def test_every_option_refuses_bad_values_cleanly(
    capsys: pytest.CaptureFixture[str], mode: str, system: str, action: str, field: str, value: str
) -> None:
    registry = Registry.from_entry_points()
    example = {k: v for k, v in registry.get(system).actions[action].example.items() if k != field}
    args = [mode, system, action]
    for key, raw in example.items():
        values = raw if isinstance(raw, list) else [raw]
        for item in values:
            if item is True:
                args.append(option_name(key))
            elif item is not False:
                args += [option_name(key), str(item)]
    args += [option_name(field), value] + (["--seed", "1"] if mode == "roll" else [])
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(10)  # a refusal is immediate; a limit must be charged before the work
    try:
        code = main(args)
    except _TimeoutError:
        pytest.fail(f"{' '.join(args)} did not answer within 10 s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    _out, err = capsys.readouterr()
    assert code in (0, 2), err
    if code == 2:
        assert err.count("\n") == 1 and err.startswith("jdr: error: "), err


def test_pu_11_attack_recap_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """`jdr roll plus-ultra attack … --recap bbcode` prints the post-ready block (PU-11)."""
    args = ["roll", "plus-ultra", "attack", "--willpower", "5", "--target-energy", "6"]
    args += ["--rank", "C", "--faces", "9", "--attacker", "Izuku", "--target", "Shoto"]
    assert main([*args, "--recap", "bbcode", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "[b]Izuku[/b]" in out
    assert (
        "Attaque sur Shoto\u00a0: d20 9 + 5 = 14 contre défense 14"
        " → [color=green]touché[/color]" in out
    )
    assert main([*args, "--recap", "markdown", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["hit"] is True and "**Izuku**" in payload["explanation"]
