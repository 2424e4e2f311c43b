"""A campaign's seed epochs in the store: the secret seeds its rolls are drawn from, each
committed to in public at once and revealed when the epoch ends (`jdr.dice.verifiable`).

>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> campaign = store.create_campaign("example", "Mardi", seed=bytes(32))
>>> first = store.epoch(campaign)
>>> first.number, first.revealed is None
(1, True)
>>> revealed, opened = store.reveal_epoch(campaign)
>>> revealed.seed == bytes(32), opened.number, opened.revealed is None
(True, 2, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from jdr.dice.verifiable import SEED_BYTES, commitment, new_seed
from jdr.store.base import Database
from jdr.store.changes import REVEAL, changed
from jdr.store.errors import StoreError
from jdr.store.models import epochs, journal
from jdr.store.rows import insert_row as _insert
from jdr.store.rows import now as _now

Json = dict[str, Any]


@dataclass(frozen=True)
class Epoch:
    """One seed of a campaign: secret while `revealed` is None, its `commitment` public always."""

    number: int
    seed: bytes
    commitment: str
    created: datetime
    revealed: datetime | None


class Epochs(Database):
    """The store's seed epochs (a part of `Store`)."""

    def epochs(self, campaign_id: int) -> list[Epoch]:
        """The campaign's epochs, oldest first (the last one is open)."""
        query = select(epochs).where(epochs.c.campaign_id == campaign_id).order_by(epochs.c.number)
        with self._translated(), self._reading() as conn:
            return [epoch_of(row) for row in conn.execute(query)]

    def epoch(self, campaign_id: int) -> Epoch:
        """The campaign's open epoch, created if it has none (a campaign from revision 0001)."""
        found = self.epochs(campaign_id)
        if found and found[-1].revealed is None:
            return found[-1]
        number = found[-1].number + 1 if found else 1
        try:
            with self._translated(), self.engine.begin() as conn:
                _insert(conn, epochs, epoch_row(campaign_id, number))
        except IntegrityError:
            pass  # another process opened it first: read theirs
        return self.epochs(campaign_id)[-1]

    def reveal_epoch(self, campaign_id: int) -> tuple[Epoch, Epoch]:
        """End the open epoch (its seed becomes public) and open the next; return both.

        Refused (`StoreError`) while a hidden entry of the epoch is not disclosed, since the seed
        would let anyone re-derive its faces.
        """
        current = self.epoch(campaign_id)
        secret = (
            select(journal.c.seq)
            .where(
                journal.c.campaign_id == campaign_id,
                journal.c.epoch == current.number,
                journal.c.hidden.is_(True),
                journal.c.disclosed.is_(False),
            )
            .order_by(journal.c.seq)
        )
        close = (
            update(epochs)
            .where(
                epochs.c.campaign_id == campaign_id,
                epochs.c.number == current.number,
                epochs.c.revealed.is_(None),
            )
            .values(revealed=_now())
        )
        with self._translated(), self.engine.begin() as conn:
            changed(conn, campaign_id, REVEAL)
            if conn.execute(close).rowcount != 1:
                raise StoreError("epoch_changed", campaign=campaign_id)
            hidden = [int(seq) for seq in conn.execute(secret).scalars()]
            if hidden:  # leaving the block by an error rolls the whole transaction back
                raise StoreError("hidden_rolls", seqs=", ".join(map(str, hidden)))
            _insert(conn, epochs, epoch_row(campaign_id, current.number + 1))
        revealed, opened = self.epochs(campaign_id)[-2:]
        return revealed, opened


def epoch_row(campaign_id: int, number: int, seed: bytes | None = None) -> Json:
    """A new `epochs` row: the campaign's epoch `number`, open, with `seed` (by default 32 fresh
    bytes from the OS) and its commitment."""
    seed = new_seed() if seed is None else seed
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed is {SEED_BYTES} bytes")
    return {
        "campaign_id": campaign_id,
        "number": number,
        "seed": seed.hex(),
        "commitment": commitment(seed),
        "created": _now(),
        "revealed": None,
    }


def epoch_of(row: Any) -> Epoch:
    """The `Epoch` an `epochs` row holds."""
    return Epoch(row.number, bytes.fromhex(row.seed), row.commitment, row.created, row.revealed)
