"""Refutations about a hand, made concrete: the simplest such hand, reached on the engine from a deal.

A refuted claim about the player to move (no legal play; a legal set or a rejection that
differs from the statements) leaves a z3 model. These functions read a hand and a card
from it that a real round can reach (the hand's size fits the context), search for a deal
and plays that reach that hand in that context (:func:`properties.replay.find_replay`),
and replay them on the engine, which must do what the model says it does.
"""

from __future__ import annotations

from typing import Any

from hearts_ref.cards import CARDS
from hearts_ref.legality import rejecting_rule
from hearts_ref.variants import Rules
from properties import statements as said
from properties.contexts import hand_claims
from properties.counterexamples import Counterexample, from_model
from properties.replay import confirm_on_engine, confirm_play as replay_play, confirm_rejection
from properties.solving import REFUTED, Answer, Claim

__all__ = ["UNREACHED", "UNREACHABLE", "NO_ROUND_REACHES", "confirm_stuck", "confirm_play", "judge_play",
           "proved_unreachable"]

UNREACHED = "no deal and plays reaching it were found (bounded search): this context may be unreachable"
NO_ROUND_REACHES = "no round reaches"   # what the notes and details of a proof of unreachability say
UNREACHABLE = (f"{NO_ROUND_REACHES} this context: no legal play of the first trick breaks hearts (proved by z3 on the "
               "engine's legal_plays and breaks_hearts): not a counterexample")


def confirm_stuck(session: Any, rules: Rules, example: Counterexample) -> tuple[Counterexample, bool]:
    """Return the stuck counterexample replayed on the engine and True, or noted as not reached and False."""
    if not session.confirm:
        return example, True
    replay = session.replay(rules, example.hand, example.context)
    if replay is not None and confirm_on_engine(rules, replay) is None:
        return example.with_replay(replay), True
    if session.unreachable(rules, example.context):   # proved (properties.reach)
        return example.with_notes(UNREACHABLE), False
    return example.with_notes(UNREACHED), False


def proved_unreachable(example: Counterexample) -> bool:
    """Whether no round reaches the refuted context of ``example`` (proved): it is then no counterexample."""
    return UNREACHABLE in example.notes


def judge_play(rules: Rules, hand: int, ctx: Any, card: int) -> str:
    """Which play statement forbids ``card`` (the first, in the spec's order), or that every one allows it."""
    for rule in said.PLAY_RULES:
        if not said.allows(rule, rules, hand, ctx, card):
            return f"{rule} forbids it"
    return "every play statement allows it"


def confirm_play(session: Any, invariant_id: str, rules: Rules, claim: Claim,
                 answer: Answer) -> tuple[Counterexample, bool]:
    """A hand and card where the engine's legal set or rejection differs from the statements, replayed on the engine.

    The hand is asked again of z3 with the sizes the context allows, so that a round can reach it.
    """
    kind, card_set, _ = claim.data
    situation, hand = claim.situation, claim.hand
    again = session.prover.holds(claim.hypotheses + tuple(hand_claims(hand, situation)), claim.goal)
    model = again.model if again.status == REFUTED else answer.model
    example = from_model(invariant_id, claim.label, claim.shown, model, context=situation.ctx, hand=hand)
    held, card = example.hand, card_set.evaluate(model)
    index = card.bit_length() - 1
    verdict = judge_play(rules, held, situation.ctx, card)
    if kind == "play":
        legal = bool(session.legal_plays()(held, situation.ctx, rules) & card)
        finding = (f"the engine's legal plays {'include' if legal else 'leave out'} {CARDS[index].glyph}; "
                   f"{verdict}")
    else:
        rule = rejecting_rule(held, situation.ctx, rules, card)
        finding = f"rejecting_rule names {rule or 'no rule'} for {CARDS[index].glyph}; {verdict}"
    example = example.with_notes(finding)
    if again.status != REFUTED:
        return example.with_notes("no hand of a size this context allows shows it: it may be unreachable"), False
    if not session.confirm:
        return example, True
    replay = session.replay(rules, held, situation.ctx)
    if replay is None:
        return example.with_notes(UNREACHED), False
    trouble = (replay_play(rules, replay, index, legal) if kind == "play"
               else confirm_rejection(rules, replay, index, rule))
    if trouble is not None:
        return example.with_notes(f"the engine does not do it when replayed: {trouble}"), False
    return example.with_replay(replay.with_finding(finding)), True
