"""Issue 29: the web's odds beside "roll from my sheet" read the sheet as the roll does (PS-4):
the advice beside a Passion action uses the sheet's talent, where it asked for a talent the
player had left empty for the sheet to fill."""

from __future__ import annotations

import re
from pathlib import Path

from web_helpers import example_table, join


def test_ps_4_the_advice_beside_a_roll_from_my_sheet_reads_its_talent(tmp_path: Path) -> None:
    app, store, campaign = example_table(
        f"sqlite:///{tmp_path / 'jdr.db'}", "Mardi", "passion", ("romuald",)
    )
    try:
        player = join(app, store, campaign, "player", "Romuald")
        asked = {"action": "action", "sheet": "Romuald", "use_talent": "Crochetage"}
        asked |= {"dice": "3d6", "difficulty": "2"}
        page = player.client.get(f"/c/{campaign}/odds", params=asked)
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.text))
        assert page.status_code == 200
        assert "required" not in text, text
        assert "success 87.50 %" in text  # 3d6, difficulty 2, Crochetage 7 from the sheet
        assert "Advice" in text and "chance of success" in text
        french = player.client.get(
            f"/c/{campaign}/odds", params=asked, headers={"accept-language": "fr"}
        )
        assert "obligatoire" not in french.text and "Conseil" in french.text
    finally:
        store.close()
