"""The dice languages people already type: parse, roll and odds of each form, and the pools' public
API on the homebrew rule of docs/api.md ("keep the two highest d10, a 10 explodes, half the dice
showing 1 is a catastrophe").

Run from the project root:

    .venv/bin/python benchmarks/bench_dialects.py [--repeat 15]

Each figure is the median of `--repeat` calls, in milliseconds, after one call to warm up. The
odds are floats unless marked exact.
"""

from __future__ import annotations

import argparse
import sys

from jdr.dice import Seeded
from jdr.dice.notation import odds, parse_rolls, roll
from jdr.dice.notation.pools import pool, pool_odds
from timing import median_time

FORMS = [
    "8d10k3",
    "4d6k3",
    "4d10e10",
    "3d6!!",
    "3D10c[>=7]",
    "5d10cs>=8",
    "6d10t7",
    "1d20+5 Attaque",
    "/roll 1d20+5",
    "3d6r1",
    "4d6ro1",
    "4dF",
    "1d20adv",
    "(1d6+2)*2",
    "1d20/2",
    "2d6 ; 1d20",
    "1d8+1d6[feu]",
    "10d10>7",
]


def ms(run: object, repeat: int) -> float:
    run()  # type: ignore[operator]
    return median_time(run, repeat) * 1000  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=15, help="calls per timing (median kept)")
    args = parser.parse_args(argv)
    source = Seeded(1)
    print(f"{'form':16} {'parse':>8} {'roll':>8} {'odds':>8} {'exact':>8}  (ms)")
    for text in FORMS:
        rolls = parse_rolls(text)
        parse_ms = ms(lambda t=text: parse_rolls(t), args.repeat)
        roll_ms = ms(lambda r=rolls: [roll(e, source) for e in r], args.repeat)
        odds_ms = ms(lambda r=rolls: [odds(e) for e in r], args.repeat)
        exact_ms = ms(lambda r=rolls: [odds(e, exact=True) for e in r], args.repeat)
        print(f"{text:16} {parse_ms:8.3f} {roll_ms:8.3f} {odds_ms:8.3f} {exact_ms:8.3f}")
    print("\nThe homebrew catastrophe (jdr.dice.notation.pools), floats:")
    for dice in (3, 5, 8, 20):
        term = pool(f"{dice}d10!kh2")
        alone = ms(lambda t=term: pool_odds(t), args.repeat)
        tallied = ms(lambda t=term: pool_odds(t, tally="=1"), args.repeat)
        print(
            f"  {dice:2} dice: the pool alone {alone:7.1f} ms, with the tally of 1s {tallied:7.1f}"
        )
    exact = ms(lambda: pool_odds(pool("5d6kh2"), "=1", True), args.repeat)
    print(f"  exact, 5d6kh2 with its 1s: {exact:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
