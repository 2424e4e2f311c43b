"""Issue 29 at the web table for Passion: the odds beside "roll from my sheet" read the sheet as
the roll does (PS-4): the advice beside an action uses the sheet's talent, where it asked for a
talent the player had left empty for the sheet to fill; beside a fight's attack, its chance to
hit as the fight resolves it (PS-11), named, with its formula, in both languages."""

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


def test_ps_11_beside_a_fights_attack_its_chance_to_hit_and_its_formula(tmp_path: Path) -> None:
    app, store, campaign = example_table(
        f"sqlite:///{tmp_path / 'jdr.db'}", "Mercredi", "passion", ("romuald", "cyber-ninja")
    )
    try:
        gm = join(app, store, campaign, "gm")
        started = gm.post(f"/c/{campaign}/fights", data={"with": ["Romuald", "Cyber-ninja"]})
        path = started.headers["location"]
        for actor, marker in (("Romuald", "2"), ("Cyber-ninja", "0")):
            chosen = gm.post(
                path, data={"actor": actor, "command": "choose_marker"} | {"marker": marker}
            )
            assert chosen.status_code == 303, chosen.text
        asked = {"actor": "Romuald", "command": "attack", "target": "Cyber-ninja"}
        asked |= {"dice": "2d6", "weapon": "Pied"}
        odds = gm.client.get(f"{path}/odds", params=asked)
        text = odds.text.replace("&#39;", "'")
        assert odds.status_code == 200 and "chance to hit 13.89 %" in text, text
        assert "difficulty 6: Cyber-ninja's dodge 6" in text
        assert "damage 4 physical: Pied 1 + Corps 3" in text
        french = gm.client.get(f"{path}/odds", params=asked, headers={"accept-language": "fr"})
        assert "chance de toucher 13,89 %" in french.text
        npc = {"actor": "Cyber-ninja", "command": "attack", "target": "Romuald"}
        not_its_turn = gm.client.get(f"{path}/odds", params=npc)  # an NPC never rolls anyway
        assert "chance" not in not_its_turn.text
    finally:
        store.close()
