"""The variant registry, the presets and their validation (PLAYERS-COUNT, DECK-REMOVED, PASS-CYCLE, …)."""

import json
from pathlib import Path

import pytest

from hearts_ref import PARAMETERS, PRESETS, Rules, RulesError
from hearts_ref.commands.rules import registry
from hearts_ref.variants import parse_setting

ROOT = Path(__file__).resolve().parent.parent


def test_default_preset_is_seed000_and_matches_reglene_vi_bruker():
    rules = Rules.preset()
    assert rules == Rules.preset("seed000") == Rules()
    assert (rules.players, rules.first_trick_points, rules.hearts_broken_by, rules.qs_breaks_hearts,
            rules.moon, rules.end_threshold, rules.end_comparison, rules.ties) == (
        4, "exception", "discard", False, "add", 100, ">=", "shared")
    assert [rules.pass_direction(r) for r in range(1, 6)] == ["left", "right", "across", "none", "left"]


def test_every_parameter_cites_rules_and_has_a_valid_default():
    defaults = Rules()
    for parameter in PARAMETERS:
        assert parameter.rules and parameter.source and parameter.doc
        assert getattr(defaults, parameter.name) == parameter.default


def test_presets_openspiel_uses_openspiel_defaults():
    rules = Rules.preset("openspiel")
    assert rules.qs_breaks_hearts and rules.hearts_broken_by == "any-heart" and rules.max_rounds == 1
    assert rules.first_trick_points == "exception" and not rules.can_lead_any_club


def test_pass_cycle_seed003_left_right_none():
    rules = Rules.preset("seed003")
    assert [rules.pass_direction(r) for r in range(1, 5)] == ["left", "right", "none", "left"]
    assert Rules(pass_cards=False).pass_direction(1) == "none"


@pytest.mark.parametrize("players, removed, hand_size, lowest", [
    (3, ["2C"], 17, "3C"), (4, [], 13, "2C"), (5, ["2C", "2D"], 10, "3C"), (6, ["2C", "2D", "3C", "3D"], 8, "4C")])
def test_deck_removed_per_player_count(players, removed, hand_size, lowest):
    rules = Rules(players=players, pass_cycle="left-right-none")
    assert [str(c) for c in rules.removed_cards] == removed
    assert rules.hand_size == hand_size and str(rules.lowest_club) == lowest
    assert rules.deck_mask.bit_count() == players * hand_size


@pytest.mark.parametrize("overrides, field", [
    ({"moon": "double"}, "moon"), ({"players": 7}, "players"), ({"players": 2}, "players"),
    ({"end_threshold": 0}, "end_threshold"), ({"jd_bonus": "yes"}, "jd_bonus"),
    ({"players": 3}, "pass_cycle"), ({"players": 5, "pass_cycle": "left-right-across-none"}, "pass_cycle"),
    ({"hearts_restriction": "discard"}, "hearts_restriction"), ({"end_comparison": "=>"}, "end_comparison"),
])
def test_invalid_rules_name_the_field(overrides, field):
    with pytest.raises(RulesError) as error:
        Rules.preset("seed000", **overrides)
    assert error.value.field == field and str(error.value).startswith(field)


def test_invalid_preset_and_unknown_parameter():
    with pytest.raises(RulesError, match="unknown preset 'seed999'"):
        Rules.preset("seed999")
    with pytest.raises(RulesError, match="unknown variant parameter 'moon_mode'"):
        Rules.preset("seed000", moon_mode="add")


def test_parse_setting_types_values_per_registry():
    assert parse_setting("qs_breaks_hearts=True") == ("qs_breaks_hearts", True)
    assert parse_setting("players=5") == ("players", 5)
    assert parse_setting("moon=subtract") == ("moon", "subtract")
    assert parse_setting('moon="subtract"') == ("moon", "subtract")          # strings as the spec writes them
    assert parse_setting('pass_cycle = "left-right-none"') == ("pass_cycle", "left-right-none")
    assert parse_setting("moon=OFF") == ("moon", "off") and parse_setting("ties=Play-On") == ("ties", "play-on")
    with pytest.raises(RulesError, match="'offf' is not allowed"):   # a misspelling is still refused, by Rules
        Rules(**dict([parse_setting("moon=offf")]))
    for bad in ["players=five", "jd_bonus=maybe", "moon", "nosuch=1", 'players="4"', 'jd_bonus="true"']:
        with pytest.raises(RulesError):
            parse_setting(bad)


def test_rules_round_trip_through_dict():
    rules = Rules.preset("seed004", jd_bonus=True, end_threshold=50)
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict({"preset": "seed003"}) == Rules.preset("seed003")
    assert rules.changes() == {"hearts_broken_by": "any-heart", "jd_bonus": True, "end_threshold": 50}


def test_spec_variants_json_is_generated_from_the_registry():
    """spec/variants.json must equal `hearts-ref rules --registry` (regenerate it when this fails)."""
    on_disk = json.loads((ROOT / "spec" / "variants.json").read_text(encoding="utf-8"))
    assert on_disk == json.loads(json.dumps(registry()))
    assert set(on_disk["presets"]) == set(PRESETS)
    assert not on_disk["presets"]["seed001"]["expected_sound"]
