"""Which first-trick contexts a round reaches: z3 over the engine's deal and first plays (properties.reach).

Rules: FIRST-NO-POINTS, FIRST-EXCEPTION, BREAK-DISCARD (hearts broken on the first trick needs a point card
played there), LEAD-OPEN, DEAL-HANDS.
"""

import pytest

from hearts_ref import CARDS, CardSet, Context, Rules, start_round
from hearts_ref import legality, round as round_module
from properties.findings import proved_unreachable
from properties.prove import Session, _judged, claims_of, prove_context
from properties.reach import REACHABLE, UNREACHABLE, first_trick_reach, hearts_stay_unbroken
from properties.solving import Prover
from properties.replay import confirm_on_engine

BROKEN = Context(False, 0, True, True)      # following ♣ on the first trick, hearts broken
UNBROKEN = Context(False, 0, True, False)   # following ♣ on the first trick, hearts unbroken


def _reached(rules, replay):
    state = start_round(rules, [CardSet.from_mask(hand) for hand in replay.hands], direction="none")
    for index in replay.plays:
        assert CARDS[index] in state.legal_plays()
        state = state.play(CARDS[index])
    return state


def test_without_the_exception_no_round_breaks_hearts_on_the_first_trick():
    """seed001 forbids points on the first trick with no exception: no play there can break hearts."""
    assert first_trick_reach(Rules.preset("seed001"), BROKEN, stuck=False) == (UNREACHABLE, None)


def test_with_the_exception_hearts_break_on_the_first_trick_and_the_deal_found_reaches_it():
    """Under the default rules a seat holding only points plays a heart on the first trick (FIRST-EXCEPTION)."""
    rules = Rules()
    answer, replay = first_trick_reach(rules, BROKEN, stuck=False)
    assert answer == REACHABLE
    state = _reached(rules, replay)
    assert state.context == BROKEN and state.to_play == replay.seat


def test_the_seed001_deadlock_is_found_exactly_and_replays_stuck_on_the_engine():
    rules = Rules.preset("seed001")
    answer, replay = first_trick_reach(rules, UNBROKEN, stuck=True)
    assert answer == REACHABLE and confirm_on_engine(rules, replay) is None
    assert not _reached(rules, replay).legal_plays()
    assert first_trick_reach(Rules(), UNBROKEN, stuck=True) == (UNREACHABLE, None)   # FIRST-TRICK-NO-DEADLOCK


def test_a_planted_engine_bug_that_allows_points_on_the_first_trick_makes_the_context_reachable(monkeypatch):
    """The proof of unreachability runs the engine's own plays: an engine that ignores FIRST-NO-POINTS (any card
    of the hand may follow on the first trick) reaches hearts broken there, and the proof says so."""
    real = legality.legal_plays

    def any_card_follows(hand, ctx, rules, ops=legality.BITS):
        return hand if ctx.first_trick and not ctx.leading else real(hand, ctx, rules, ops)

    monkeypatch.setattr(round_module, "legal_plays", any_card_follows)
    answer, replay = first_trick_reach(Rules.preset("seed001"), BROKEN, stuck=False)
    assert answer == REACHABLE and replay is not None


def test_a_refutation_in_an_unreachable_context_is_no_counterexample():
    rules = Rules.preset("seed001")
    result = prove_context("LEGAL-MOVE-EXISTS", rules, Session(timeout=60))
    assert result.status == "refuted"
    unreachable = [e for e in result.counterexamples if proved_unreachable(e)]
    assert [e.context for e in unreachable] == [BROKEN]
    assert all(e.replay is not None for e in result.counterexamples if not proved_unreachable(e))


def test_claims_refuted_only_where_no_round_goes_are_proved():
    """The seed001 claims of the first trick with hearts broken alone: z3 refutes them, no round reaches them."""
    rules = Rules.preset("seed001")
    session = Session(timeout=60)
    claims = [c for c in claims_of("LEGAL-MOVE-EXISTS", rules, session) if c.situation.ctx == BROKEN]
    answers = [(c, session.prover.check(c)) for c in claims]
    assert [a.status for _, a in answers] == ["refuted"]
    result = _judged("LEGAL-MOVE-EXISTS", rules, session, "seed001", "refuted", answers, 0.0)
    assert result.status == "proved" and result.counterexamples == ()
    assert "no round reaches" in result.detail and "hearts broken" in result.detail


@pytest.mark.parametrize("preset", ["seed000", "seed001", "seed002", "seed003", "seed004", "openspiel"])
def test_the_lemma_the_proofs_use_says_what_the_search_over_the_engines_first_trick_says(preset):
    """hearts_stay_unbroken (no legal first-trick play breaks hearts) is what the proofs ask; the search over the
    engine's deal and first plays is the exact answer: for each preset the two agree."""
    rules = Rules.preset(preset)
    exact = first_trick_reach(rules, BROKEN, stuck=False)[0]
    assert hearts_stay_unbroken(rules, Prover(timeout=60)) == (exact == UNREACHABLE)
    assert exact in (REACHABLE, UNREACHABLE)


def test_the_lemma_fails_for_a_planted_engine_bug_that_allows_points_on_the_first_trick(monkeypatch):
    real = legality.legal_plays
    monkeypatch.setattr("properties.reach.legal_plays", lambda hand, ctx, rules, ops=legality.BITS:
                        hand if ctx.first_trick and not ctx.leading else real(hand, ctx, rules, ops))
    assert hearts_stay_unbroken(Rules.preset("seed001"), Prover(timeout=60)) is False


def test_two_decks_and_uneven_hands_keep_hearts_unbroken_on_seed003s_first_trick():
    """Seed 003 with six players (two decks, a seat playing two cards to the first trick): no legal play breaks
    hearts there, the seat's second card included (FIRST-TWO-CARDS)."""
    assert hearts_stay_unbroken(Rules.preset("seed003", players=6), Prover(timeout=60))
