"""Writers are never refused for being concurrent (issue 14, item 5): a few processes rolling
dice, rolling a system's action and acting on one fight at once, on SQLite and PostgreSQL.
`benchmarks/bench_writers.py` runs the full 20 × 50."""

from __future__ import annotations

from concurrent_writers import run_writers


def test_concurrent_writers_are_serialised_never_refused(database_url: str) -> None:
    outcome = run_writers(database_url, processes=4, writes=9)
    assert outcome.refusals == []
    assert outcome.acknowledged == 4 * 9
    assert outcome.lost == 0 and outcome.duplicated == 0
    assert outcome.verified
