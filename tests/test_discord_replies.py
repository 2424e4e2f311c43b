"""Issue 33, part 2: what each `/jdr` subcommand answers on Discord (`jdr.discord.replies.answer`),
over the services the web and the CLI call — a fight of each system played to its end through
`/jdr fight act` by the seats whose decisions they are, owners' refusals (issue 28: every
decision by its owner), a hidden roll answered to its roller only, French for a French client,
every message within Discord's 2,000 characters, the journal line under what wrote to it."""

from __future__ import annotations

import re

import pytest

from discord_tables import (
    FRENCH,
    GM,
    PLAYER,
    SYSTEMS,
    Table,
    assert_fits,
    play_to_the_end,
    seeded_table,
)
from jdr.access import AccessError, Viewer
from jdr.discord.reading import messages, pairs
from jdr.discord.replies import answer
from jdr.discord.types import MESSAGE_LIMIT, Reply
from jdr.errors import InputError, RulesError
from jdr.store import Store
from jdr.table import fight_page

JOURNAL = re.compile(r"journal #\d+ · [0-9a-f]{10} · ")
JOURNAL_FR = re.compile(r"journal n°\d+ · [0-9a-f]{10} · ")


def _text(reply: Reply) -> str:
    return "\n".join([reply.content, *reply.followups])


@pytest.fixture
def plus_ultra(store: Store) -> Table:
    return seeded_table(store, "plus-ultra")


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_fight_of_each_system_is_played_to_its_end_through_fight_act(
    store: Store, system: str
) -> None:
    table = seeded_table(store, system)
    replies, ended = play_to_the_end(table)
    assert ended and replies
    for reply in replies:
        assert not reply.ephemeral
        assert JOURNAL.search(_text(reply)), reply.content  # every action wrote to the journal
        assert_fits(reply)
    page = fight_page(store, table.gm, table.campaign, table.fight_id, recaps=False)
    if system != "poledemos":  # its rules never end a fight: the GM does, after a round
        assert page.ending is not None
        assert page.view.status in replies[-1].content  # the state after the last action
    # everyone at the table reads the fight and its recap
    shown = table.ask("player", ("fight", "show"))
    assert page.view.status.split(" — ")[0] in shown.content
    recap = table.ask("spectator", ("recap",))
    assert re.match(rf"\*\*Fight {table.fight_id}( \(1/\d+\))?\*\*", recap.content)
    assert "journal #" in _text(recap)


@pytest.mark.parametrize("system", ["passion", "pokemon"])
def test_a_fight_is_told_in_french_to_a_french_client(store: Store, system: str) -> None:
    table = seeded_table(store, system)
    replies, ended = play_to_the_end(table, {"player": FRENCH, "gm": FRENCH})
    assert ended
    for reply in replies:
        assert JOURNAL_FR.search(_text(reply)), reply.content
        assert reply.content.startswith("**Combat ")
    recap = answer(store, table.campaign, table.player, FRENCH, ("recap",), {})
    assert re.match(rf"\*\*Combat {table.fight_id}( \(1/\d+\))?\*\*", recap.content)


def test_a_sealed_choice_is_told_without_its_value(store: Store) -> None:
    table = seeded_table(store, "passion")
    reply = table.ask("player", ("fight", "act"), command="choose_marker", options="marker=7")
    told = reply.content.split("\n")[1]
    assert re.fullmatch(r"Romuald has chosen a marker \(sealed: [0-9a-f]{10}\)\.", told), told
    assert "marker chosen (sealed)" in reply.content and "marker 7" not in reply.content


def test_a_player_plays_only_their_own_fighter(plus_ultra: Table) -> None:
    villain = plus_ultra.names[1]
    with pytest.raises(AccessError, match="own character"):
        plus_ultra.ask(
            "player", ("fight", "act"), command="attack", character=villain, target="Kaito Arashi"
        )


def test_a_spectator_neither_plays_nor_rolls(plus_ultra: Table) -> None:
    with pytest.raises(AccessError, match="spectator"):
        plus_ultra.ask("spectator", ("fight", "act"), command="defend", character="Kaito Arashi")
    with pytest.raises(AccessError, match="spectator"):
        plus_ultra.ask(
            "spectator", ("roll",), action="attack", options="willpower=5 target_energy=6 rank=C"
        )


def test_out_of_turn_and_a_wrong_target_are_refused_with_why(plus_ultra: Table) -> None:
    villain = plus_ultra.names[1]
    with pytest.raises(RulesError, match="legal commands now"):  # Kaito plays first
        plus_ultra.ask("gm", ("fight", "act"), command="defend", character=villain)
    with pytest.raises(RulesError, match="unknown target Nobody"):
        plus_ultra.ask("player", ("fight", "act"), command="attaque", target="Nobody")


def test_the_gm_plays_the_fighter_awaited_without_naming_it(plus_ultra: Table) -> None:
    reply = plus_ultra.ask("gm", ("fight", "act"), command="défense")
    assert reply.content.startswith("**Fight 1** · Kaito Arashi · defend")


def test_without_a_seat_only_dice_and_odds_answer(plus_ultra: Table) -> None:
    store, campaign = plus_ultra.store, plus_ultra.campaign
    for path, options in [
        (("roll",), {"action": "attack"}),
        (("fight", "act"), {"command": "defend"}),
        (("fight", "show"), {}),
        (("recap",), {}),
    ]:
        with pytest.raises(AccessError, match="/jdr join CODE"):
            answer(store, campaign, None, PLAYER, path, options)
    odds = answer(
        store,
        campaign,
        None,
        PLAYER,
        ("odds",),
        {"action": "attaque", "options": "volonté=5 target_energy=6 rang=C"},
    )
    assert "- hit: 60.00 %\n- miss: 40.00 %" in odds.content
    dice = answer(store, campaign, None, PLAYER, ("dice",), {"expression": "2d6+3"})
    assert "not written in any journal" in dice.content


def test_a_seat_of_another_campaign_is_refused(plus_ultra: Table) -> None:
    other = Viewer(plus_ultra.campaign.id + 1, "gm")
    with pytest.raises(AccessError, match="not your campaign"):
        answer(plus_ultra.store, plus_ultra.campaign, other, GM, ("fight", "show"), {})


def test_an_unbound_channel_rolls_free_dice_and_refuses_the_rest(store: Store) -> None:
    reply = answer(store, None, None, PLAYER, ("dice",), {"expression": "3d6 #dégâts"})
    assert reply.content.startswith("**dégâts** `3d6")
    assert "journal #" not in reply.content
    with pytest.raises(InputError, match="bound to no campaign"):
        answer(store, None, None, PLAYER, ("roll",), {"action": "attack"})
    with pytest.raises(InputError, match="bound to no campaign"):
        answer(store, None, None, PLAYER, ("odds",), {"action": "attack"})


def test_dice_in_a_bound_channel_go_through_the_journal(plus_ultra: Table) -> None:
    reply = plus_ultra.ask("player", ("dice",), expression="4d6kh3 #force; 1d20")
    assert reply.content.startswith("**force** `4d6kh3")
    assert re.search(r"4d6kh3 \(.*~~\d~~.*\) = \d+", reply.content)  # the dropped die struck
    assert len(JOURNAL.findall(reply.content)) == 2


def test_a_roll_is_the_journals_and_a_player_rolls_for_their_own_character(
    plus_ultra: Table,
) -> None:
    reply = plus_ultra.ask("player", ("roll",), action="attaque", options="cible=Maître Corbeau")
    assert reply.content.startswith("**Plus Ultra forum combat · attack**\n*Kaito Arashi*")
    assert JOURNAL.search(reply.content) and not reply.ephemeral
    with pytest.raises(AccessError, match="own character"):
        plus_ultra.ask(
            "player",
            ("roll",),
            action="attack",
            character="Maître Corbeau",
            options="willpower=5 target_energy=6 rank=C",
        )


def test_a_hidden_roll_answers_its_roller_only_and_only_the_gm_rolls_hidden(
    plus_ultra: Table,
) -> None:
    options = "willpower=5 target_energy=6 rank=C"
    reply = plus_ultra.ask(
        "gm", ("roll",), action="attack", character="Maître Corbeau", hidden=True, options=options
    )
    assert reply.ephemeral
    assert "hidden roll: only its hash is public" in reply.content
    with pytest.raises(AccessError, match="only the GM rolls hidden"):
        plus_ultra.ask("player", ("roll",), action="attack", hidden=True, options=options)


def test_a_typo_in_an_option_is_named_with_the_closest(plus_ultra: Table) -> None:
    with pytest.raises(InputError) as refused:
        plus_ultra.ask("gm", ("roll",), action="attack", options="wilpower=5")
    assert "did you mean willpower?" in refused.value.message()


def test_fight_show_gives_the_callers_commands_with_their_odds(plus_ultra: Table) -> None:
    mine = plus_ultra.ask("player", ("fight", "show")).content
    assert "**Your commands now:**" in mine
    assert "- Kaito Arashi · `attack` · `target=Maître Corbeau` — chance to hit" in mine
    spectator = plus_ultra.ask("spectator", ("fight", "show")).content
    assert "Your commands" not in spectator and "Maître Corbeau (b)" in spectator
    french = answer(
        plus_ultra.store, plus_ultra.campaign, plus_ultra.player, FRENCH, ("fight", "show"), {}
    ).content
    assert "`attaque` · `cible=Maître Corbeau` — chance de toucher 45,00 %" in french


def test_a_long_recap_is_cut_between_lines_into_messages(store: Store) -> None:
    table = seeded_table(store, "poledemos")
    play_to_the_end(table)
    recap = table.ask("gm", ("recap",))
    assert recap.followups  # a round of 34 actions is longer than one message
    assert_fits(recap)
    from jdr.fights.recaps import posted

    cut = posted(store, table.fight_id, "discord", None, None, whole=True).messages
    assert [recap.content, *recap.followups] == cut  # the recap's own messages (1/3)…
    whole = posted(store, table.fight_id, "markdown", None, None, whole=True).text
    lines = {line for line in whole.splitlines() if line.strip()}
    told = {re.sub(r" \(\d+/\d+\)", "", line) for line in _text(recap).splitlines()}
    assert lines == told - {""}  # no line cut, none lost
    one_round = table.ask("gm", ("recap",), round=1)
    assert_fits(one_round)


def test_messages_cut_between_lines_and_a_line_too_long_at_a_space() -> None:
    text = "\n".join(f"line {n} " + "x" * 90 for n in range(100))
    cut = messages(text)
    assert len(cut) > 1 and all(len(m) <= MESSAGE_LIMIT for m in cut)
    assert "\n".join(cut) == text
    long = " ".join(["word"] * 1000)
    assert all(len(m) <= MESSAGE_LIMIT for m in messages(long))
    assert " ".join(messages(long)) == long


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("target=Maître Corbeau", ["target=Maître Corbeau"]),
        ('move="Vive Attaque" target=Évoli', ["move=Vive Attaque", "target=Évoli"]),
        ("", []),
        ("a=1 b='2", ["a=1", "b='2"]),
    ],
)
def test_options_are_key_value_words(typed: str, found: list[str]) -> None:
    assert pairs(typed) == found


def test_options_without_a_key_are_refused() -> None:
    with pytest.raises(InputError, match="key=value"):
        pairs("Corbeau")


def test_an_unknown_subcommand_is_refused(plus_ultra: Table) -> None:
    with pytest.raises(InputError):
        plus_ultra.ask("gm", ("fight", "end"))


def test_fight_act_needs_a_fight(store: Store) -> None:
    campaign_id = store.create_campaign("plus-ultra", "No fight")
    campaign = store.campaign_by_id(campaign_id)
    with pytest.raises(InputError, match="no fight yet"):
        answer(store, campaign, Viewer(campaign_id, "gm"), GM, ("fight", "show"), {})


def test_keys_and_choices_are_read_in_french(plus_ultra: Table) -> None:
    store, campaign = plus_ultra.store, plus_ultra.campaign
    typed = {"action": "attaque", "options": "volonté=5 énergie_de_la_cible=6 rang=C"}
    odds = answer(store, campaign, None, FRENCH, ("odds",), typed)
    assert "chances exactes" in odds.content and "- touché\u00a0: 60,00 %" in odds.content
    reply = answer(
        store,
        campaign,
        plus_ultra.player,
        FRENCH,
        ("fight", "act"),
        {"command": "technique", "options": "technique=poing tempete", "target": "maître corbeau"},
    )
    assert reply.content.startswith("**Combat 1** · Kaito Arashi · technique")
    assert "Poing Tempête" in reply.content


def test_a_refusal_is_worded_in_the_callers_language(plus_ultra: Table) -> None:
    from jdr.discord.reading import speaking

    store, campaign = plus_ultra.store, plus_ultra.campaign
    with pytest.raises(AccessError) as refused:
        answer(store, campaign, None, FRENCH, ("roll",), {"action": "attaque"})
    with speaking(FRENCH):  # the dispatcher words the refusal so
        assert "vous n'avez pas de place dans cette campagne" in refused.value.message()
        assert "/jdr join CODE" in refused.value.message()


def test_the_reply_names_the_fighter_as_stored_however_typed(plus_ultra: Table) -> None:
    reply = plus_ultra.ask("gm", ("fight", "act"), command="defend", character="KAITO arashi")
    assert reply.content.startswith("**Fight 1** · Kaito Arashi · defend")


def test_a_player_seat_without_a_character_yet_plays_nothing(plus_ultra: Table) -> None:
    creating = Viewer(plus_ultra.campaign.id, "player")
    with pytest.raises(InputError, match="no character yet"):
        answer(
            plus_ultra.store,
            plus_ultra.campaign,
            creating,
            PLAYER,
            ("fight", "act"),
            {"command": "defend"},
        )
