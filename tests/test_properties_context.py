"""The per-context proofs: every preset comes out as expected, and a broken rule flips its proof.

FIRST-NO-POINTS without FIRST-EXCEPTION deadlocks the first trick with 4, 5 and 6 players
and not with 3 (17 cards cannot all be point cards); seed 003's literal FOLLOW-VOID rule
deadlocks later tricks too. The proofs run the engine's legality (LEAD-OPEN, LEAD-HEARTS,
FOLLOW-SUIT, FOLLOW-VOID) on z3; handing them a deliberately broken legality function
(here, in the test only) must turn the relevant proof into a refutation.
"""

import pytest

from hearts_ref import CardSet, Context, Rules
from hearts_ref.cardset import BITS, HEARTS, POINT_CARDS
from hearts_ref.legality import follow_suit, legal_plays, opening_leads
from properties import all_match
from properties.catalogue import rules_for
from properties.contexts import situations
from properties.prove import Session, prove_context


def test_fast_tier_every_preset_as_expected(fast_tier):
    assert all_match(fast_tier), [(r.invariant, r.rules, r.status, r.expected) for r in fast_tier if not r.matches]
    refuted = {(r.rules, r.invariant) for r in fast_tier if r.status == "refuted"}
    assert refuted == {("seed001", "LEGAL-MOVE-EXISTS"), ("seed001", "FIRST-TRICK-NO-DEADLOCK"),
                       ("seed003", "LEGAL-MOVE-EXISTS"), ("seed003", "FIRST-TRICK-NO-DEADLOCK")}


def test_first_no_points_seed001_counterexample_is_the_queen_and_twelve_hearts(fast_tier):
    result = next(r for r in fast_tier if r.rules == "seed001" and r.invariant == "FIRST-TRICK-NO-DEADLOCK")
    example = result.counterexample
    assert example.hand == CardSet.parse("QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH").mask
    assert example.context == Context(False, 0, True, False) and example.replay is not None
    assert "Q♠ 2♥ 3♥" in example.text() and "no legal play" in example.text()


def test_follow_void_seed003_literal_rule_deadlocks_a_later_trick(fast_tier):
    """Seed 003: no heart discarded until hearts are led; a void hand of only hearts is stuck."""
    result = next(r for r in fast_tier if r.rules == "seed003" and r.invariant == "LEGAL-MOVE-EXISTS")
    later = [e for e in result.counterexamples if not e.context.first_trick and e.replay is not None]
    assert later, [e.where for e in result.counterexamples]
    for example in later:
        assert example.hand & ~HEARTS == 0 and not example.context.hearts_broken and not example.context.leading


@pytest.mark.parametrize("players, outcome, size", [(3, "proved", None), (4, "refuted", 13), (5, "refuted", 10),
                                                    (6, "refuted", 8)])
def test_first_no_points_without_exception_by_player_count(players, outcome, size):
    rules = rules_for({"players": players, "first_trick_points": "forbidden"})
    result = prove_context("FIRST-TRICK-NO-DEADLOCK", rules, Session(timeout=60))
    assert result.status == outcome == result.expected
    if size:
        hand = result.counterexample.hand
        assert hand.bit_count() == size and hand & ~POINT_CARDS == 0 and result.counterexample.replay is not None


def test_first_exception_makes_every_player_count_sound():
    for players in (3, 4, 5, 6):
        rules = rules_for({"players": players})
        assert prove_context("FIRST-TRICK-NO-DEADLOCK", rules, Session(timeout=60)).status == "proved"


# Deliberately broken legality functions, for these tests only --------------------------------

def legality_without_first_exception(hand, ctx, rules, ops=BITS):
    """FIRST-NO-POINTS applied even to a hand of only point cards (the FIRST-EXCEPTION dropped)."""
    if ctx.first_trick and not ctx.leading:
        same = follow_suit(hand, ctx.led_suit)
        return ops.choose(ops.is_empty(same), hand & ~POINT_CARDS, same)
    return legal_plays(hand, ctx, rules, ops)


def legality_without_only_hearts_lead(hand, ctx, rules, ops=BITS):
    """LEAD-HEARTS without its exception: hearts never led while unbroken."""
    if ctx.leading and not ctx.first_trick and not ctx.hearts_broken:
        return hand & ~HEARTS
    return legal_plays(hand, ctx, rules, ops)


def legality_any_opening(hand, ctx, rules, ops=BITS):
    """LEAD-OPEN forgotten: any card may open the round."""
    return hand if ctx.leading and ctx.first_trick else legal_plays(hand, ctx, rules, ops)


@pytest.mark.parametrize("legality, invariant, context", [
    (legality_without_first_exception, "FIRST-TRICK-NO-DEADLOCK", Context(False, 0, True, False)),
    (legality_without_only_hearts_lead, "LEGAL-MOVE-EXISTS", Context(True, None, False, False)),
    (legality_any_opening, "OPENING-LEAD", None),
])
def test_a_broken_rule_flips_its_proof_to_refuted(legality, invariant, context):
    sound = prove_context(invariant, Rules(), Session(timeout=60))
    broken = prove_context(invariant, Rules(), Session(timeout=60, legality=legality, confirm=False))
    assert sound.status == "proved" and broken.status == "refuted" and not broken.matches
    example = broken.counterexample
    if context is not None:
        assert example.context == context
        assert legality(example.hand, context, Rules()) == 0 and legal_plays(example.hand, context, Rules()) != 0


def test_a_broken_rule_that_the_engine_does_not_share_stays_unconfirmed():
    """With replay on, the engine (which keeps the exception) cannot reach the deadlock: not a refutation."""
    result = prove_context("FIRST-TRICK-NO-DEADLOCK", Rules(),
                           Session(timeout=60, legality=legality_without_first_exception))
    assert result.status == "unconfirmed" and result.counterexample.replay is None


def test_situations_cover_every_context_with_the_hands_it_allows():
    rules = Rules()
    found = situations(rules)
    assert len(found) == 1 + 2 + 2 * 5
    first_lead = found[0]
    assert first_lead.ctx == Context(True, None, True, False) and first_lead.holds == opening_leads(rules.deck_mask,
                                                                                                   rules)
    assert all(s.ctx.led_suit in (None, 0) for s in found if s.ctx.first_trick)
    assert all(s.max_cards == 12 for s in found if not s.ctx.first_trick)
