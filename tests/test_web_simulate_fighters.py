"""Issue 32: the simulate page offers as fighters only the sheets that can fight — never a
Pokémon trainer (its sheet is refused by the fight's setup, `jdr.fights.setup.can_fight`)."""

from __future__ import annotations

from pathlib import Path

from web_helpers import example_table, join


def test_pk_5_the_simulate_page_offers_no_trainer(tmp_path: Path) -> None:
    app, store, campaign_id = example_table(
        f"sqlite:///{tmp_path / 'jdr.db'}", "Sim", "pokemon", ("pokemon", "trainer")
    )
    try:
        gm = join(app, store, campaign_id, "gm")
        page = gm.client.get(f"/c/{campaign_id}/simulate").text
        assert 'value="Pikachu"' in page
        assert 'value="Léa"' not in page  # the trainer
    finally:
        store.close()
