"""Negative checks: offer an engine illegal moves; it must refuse them and stay as it was.

During a game, before the legal move is made, :class:`NegativeChecks` offers the engine
cards the reference forbids, one kind of rule at a time: a card of another suit while
the hand holds the suit led (FOLLOW-SUIT), a heart led before hearts are broken
(LEAD-HEARTS), a point card on the first trick (FIRST-NO-POINTS), another opening lead
(LEAD-OPEN), a heart discarded under seed 003's literal rule (FOLLOW-VOID), a card the
seat does not hold (TRICK-ORDER); and passes of a card not held or of two cards
(PASS-COUNT). Each must raise :class:`~hearts_ref.engine.EngineRejection`, and the
engine's observation and legal plays must be the same afterwards.

Which card is offered is decided by the step number, not by a random draw, so a game's
script replays the same offers (and a failing offer shrinks like any deviation).
"""

from __future__ import annotations

from typing import Any

from hearts_ref.cards import CARDS
from hearts_ref.cardset import CardSet, bits_of
from hearts_ref.engine import Engine, EngineRejection, Observation
from hearts_ref.engines.failures import ENGINE_ERRORS, failure_text
from hearts_ref.legality import rejecting_rule
from hearts_ref.round import RoundState
from hearts_ref.vectors.attribution import named_rule
from hearts_ref.conformance.differential import Deviation, _Stop
from hearts_ref.conformance.diagnose import Difference, observation_differences
from hearts_ref.conformance.script import nth_card

__all__ = ["NegativeChecks", "NEGATIVE_RULES"]

NEGATIVE_RULES = ("LEAD-OPEN", "LEAD-HEARTS", "FOLLOW-SUIT", "FIRST-NO-POINTS", "FOLLOW-VOID", "TRICK-ORDER",
                  "PASS-COUNT")


class NegativeChecks:
    """Offers illegal moves during a game, at most ``per_round`` of each rule per round."""

    def __init__(self, per_round: int = 2):
        self.per_round = per_round
        self.counts: dict[str, list[int]] = {}
        self._used: dict[tuple[int, str], int] = {}

    def _budget(self, number: int, rule: str) -> bool:
        return self._used.get((number, rule), 0) < self.per_round

    def before_play(self, engine: Engine, state: RoundState, expected: Observation, step: int,
                    number: int) -> None:
        """Offer the seat to move the illegal cards of each rule that still has budget this round."""
        rules = state.rules
        seat = state.to_play
        hand = state.hands[seat]
        groups: dict[str, int] = {}
        for index in bits_of(hand & ~state.legal):
            rule = rejecting_rule(hand, state.context, rules, 1 << index)
            if rule is not None and self._budget(number, rule):
                groups[rule] = groups.get(rule, 0) | 1 << index
        if self._budget(number, "TRICK-ORDER"):
            groups["TRICK-ORDER"] = rules.deck_mask & ~hand   # cards held by others or played
        for rule, mask in groups.items():
            index = nth_card(mask, (step * 7919 + len(rule)) % mask.bit_count())
            where = {"round": number, "action": "illegal-play", "trick": len(state.tricks) + 1, "seat": seat,
                     "card": str(CARDS[index])}
            self._offer(engine, rule, expected, state.legal, step, where,
                        lambda i=index: engine.play(CARDS[i]))

    def before_pass(self, engine: Engine, state: RoundState, seat: int, expected: Observation, step: int,
                    number: int) -> None:
        """PASS-COUNT: offer a pass of a card the seat does not hold, and a pass of two cards."""
        if not self._budget(number, "PASS-COUNT"):
            return
        hand = state.hands[seat]
        own = list(bits_of(hand))
        foreign = nth_card(state.rules.deck_mask & ~hand, step % (state.rules.deck_mask & ~hand).bit_count())
        offers = ((own[0], own[1], foreign), (own[0], own[1]))
        for cards in offers:
            chosen = CardSet(CARDS[i] for i in cards)
            where = {"round": number, "action": "illegal-pass", "seat": seat, "cards": str(chosen)}
            self._offer(engine, "PASS-COUNT", expected, 0, step, where,
                        lambda c=chosen: engine.pass_cards(seat, c))

    def _offer(self, engine: Engine, rule: str, expected: Observation, legal: int, step: int,
               where: dict[str, Any], move: Any) -> None:
        number = where["round"]
        self._used[(number, rule)] = self._used.get((number, rule), 0) + 1
        tally = self.counts.setdefault(rule, [0, 0])
        try:
            move()
        except EngineRejection as error:   # right, unless it cites another rule than the reference does
            cited = named_rule(error)
            if cited and cited[0] != rule:
                tally[1] += 1
                raise _Stop(Deviation("wrong-rule", (rule,) + cited, step, where,
                                      message=f"the engine refused the illegal move citing {cited[0]}, but the "
                                              f"rule that forbids it is {rule}: {error}")) from None
        except ENGINE_ERRORS as error:
            tally[1] += 1
            raise _Stop(Deviation("engine-error", (rule,), step, where,
                                  message=f"an illegal move made the engine fail: {failure_text(error)}")) from None
        else:
            tally[1] += 1
            raise _Stop(Deviation("accepted-illegal", (rule,), step, where,
                                  message=f"the engine accepted an illegal move ({rule}): {where}"))
        try:
            after = engine.observe()
            after_legal = engine.legal_plays() if where["action"] == "illegal-play" else None
        except ENGINE_ERRORS as error:
            tally[1] += 1
            raise _Stop(Deviation("engine-error", (rule,), step, where,
                                  message=f"after refusing an illegal move the engine failed: {failure_text(error)}")) from None
        differences = observation_differences(expected, after)
        if after_legal is not None and getattr(after_legal, "mask", None) != legal:
            differences.append(Difference("legal", str(CardSet.from_mask(legal)), str(after_legal)))
        if differences:
            tally[1] += 1
            raise _Stop(Deviation("state-changed", (rule,), step, where, tuple(differences),
                                  "the engine refused the illegal move but its state changed: "
                                  + "; ".join(f"{d.field}: expected {d.expected}, engine {d.actual}"
                                              for d in differences)))
        tally[0] += 1
