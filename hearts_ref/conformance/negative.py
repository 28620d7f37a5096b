"""Negative checks: offer an engine illegal moves; it must refuse them and stay as it was.

During a game, before the legal move is made, :class:`NegativeChecks` offers the engine
cards the reference forbids, one kind of rule at a time: a card of another suit while
the hand holds the suit led (FOLLOW-SUIT), a heart led before hearts are broken
(LEAD-HEARTS), a point card on the first trick (FIRST-NO-POINTS), another opening lead
(LEAD-OPEN), a heart discarded under seed 003's literal rule (FOLLOW-VOID), a card the
seat does not hold, and a card played by a seat that is not to move (TRICK-ORDER; offered
to an engine whose ``play`` is told the seat, :func:`~hearts_ref.engine.takes_seat`). And
before each seat chooses its pass, whichever seats have chosen before it (the runner varies
the order): passes by that seat of a card not held or of two cards (PASS-COUNT), and of a
card another seat has already chosen to pass to it, which it cannot hold before every seat
has chosen (PASS-SIMULTANEOUS); and a second choice by a seat that has chosen already
(PASS-SIMULTANEOUS). Each must raise
:class:`~hearts_ref.engine.EngineRejection`, and the engine's observation and legal plays
must be what they were.

Each check is counted per rule as ``[refused, failed, cited]``: refused as it should be (the
state unchanged), not refused or refused badly, and refused citing the reference's rule (an
engine that names no rule is never credited for naming one).

Which card is offered is decided by the step number, not by a random draw, so a game's
script replays the same offers (and a failing offer shrinks like any deviation).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hearts_ref.cards import CARDS
from hearts_ref.cardset import CardSet, bits_of
from hearts_ref.engine import Engine, EngineRejection, Observation, seated_play, takes_seat
from hearts_ref.engines.failures import ENGINE_ERRORS, EngineUnsupported
from hearts_ref.legality import legal_plays, rejecting_rule
from hearts_ref.round import RoundState
from hearts_ref.variants import PASS_DIRECTIONS
from hearts_ref.conformance.astray import citation_readings
from hearts_ref.conformance.refusals import accepted_pass_rules, cited_rule
from hearts_ref.conformance.findings import Deviation, Difference, failure_message
from hearts_ref.conformance.judge import describe
from hearts_ref.conformance.script import nth_card

__all__ = ["NegativeChecks", "NEGATIVE_RULES"]

NEGATIVE_RULES = ("LEAD-OPEN", "LEAD-HEARTS", "FOLLOW-SUIT", "FIRST-NO-POINTS", "FOLLOW-VOID", "TRICK-ORDER",
                  "PASS-COUNT", "PASS-SIMULTANEOUS")


def _never_astray(cited: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """No rule an engine cites says its hands are astray (a pass, a play by another seat than the one to move)."""
    return (), ()


def _pass_astray(state: RoundState, seat: int, cards: int) -> Callable[[str], tuple[tuple[str, ...], tuple[str, ...]]]:
    """What an engine's citing PASS-SIMULTANEOUS says when it refuses ``seat``'s pass of ``cards``: that one of them
    is on its way to ``seat``. When no seat passes it to ``seat`` in the reference's direction but a seat that has
    chosen it would in another, the engine passes the other way (PASS-CYCLE, put first)."""
    def readings(cited: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if cited != "PASS-SIMULTANEOUS" or not state.passing:
            return (), ()
        for direction in PASS_DIRECTIONS:
            if direction in ("none", state.direction) or (direction == "across" and state.rules.players % 2):
                continue
            if cards & _received_early(state, seat, direction):
                return ("PASS-CYCLE",), ()
        return (), ()
    return readings


def _astray(state: RoundState, card: int, legal: int) -> Callable[[str], tuple[tuple[str, ...], tuple[str, ...]]]:
    """What the rule an engine cites refusing ``card`` of the seat to move says of its hands: the hands gone astray
    it shows (PASS-CYCLE: :func:`~.astray.astray_citation`), and those it would be judging should the round show them
    (:func:`~.astray.citation_readings`)."""
    def readings(cited: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        later = citation_readings(state, card, cited, legal)
        if cited == "TRICK-ORDER" and "PASS-CYCLE" in later:   # astray_citation: a card it holds refused as not held
            return ("PASS-CYCLE",), ()
        return (), later
    return readings


class NegativeChecks:
    """Offers illegal moves during a game, at most ``per_round`` of each rule per round."""

    def __init__(self, per_round: int = 2):
        self.per_round = per_round
        self.counts: dict[str, list[int]] = {}
        self._used: dict[tuple[int, str], int] = {}

    def _budget(self, number: int, key: str) -> bool:
        return self._used.get((number, key), 0) < self.per_round

    def before_play(self, engine: Engine, state: RoundState, seen: Observation, legal: int, step: int,
                    number: int) -> list[Deviation]:
        """Offer the seat to move the illegal cards of each rule that still has budget this round.

        ``seen`` and ``legal`` are what the engine showed before: it must show them again.
        """
        rules = state.rules
        seat = state.to_play
        hand = state.hands[seat]
        # illegal with hearts broken as the engine shows them too: a consequence is no new finding
        ctx = state.context._replace(hearts_broken=seen.hearts_broken)
        groups: dict[str, int] = {}
        # a card the engine's own legal set allows is a legal-set finding already: not offered again
        for index in bits_of(hand & ~(state.legal | legal_plays(hand, ctx, rules) | legal)):
            rule = rejecting_rule(hand, ctx, rules, 1 << index)
            if rule is not None and self._budget(number, rule):
                groups[rule] = groups.get(rule, 0) | 1 << index
        if self._budget(number, "TRICK-ORDER"):
            groups["TRICK-ORDER"] = rules.deck_mask & ~hand & ~legal   # cards held by others or played
        play = seated_play(engine)
        offers = []
        for rule, mask in groups.items():
            if mask:
                index = nth_card(mask, (step * 7919 + len(rule)) % mask.bit_count())
                offers.append((rule, rule, seat, index))
        other = _out_of_turn(state, step) if takes_seat(engine) and self._budget(number, _OUT_OF_TURN) else None
        if other is not None:
            offers.append(("TRICK-ORDER", _OUT_OF_TURN) + other)
        found = []
        for rule, key, by, index in offers:
            where = {"round": number, "action": "illegal-play", "trick": len(state.tricks) + 1, "seat": by,
                     "card": str(CARDS[index])}
            if by != seat:
                where["to_move"] = seat
            astray = _astray(state, index, legal) if by == seat else _never_astray
            finding = self._offer(engine, rule, (rule,), seen, legal, step, where,
                                  lambda i=index, b=by: play(CARDS[i], b), astray, key)
            if finding is not None:
                found.append(finding)
                if finding.kind != "wrong-rule":
                    break   # the engine took the move, or failed: its game is not the reference's any more
        return found

    def before_pass(self, engine: Engine, state: RoundState, seat: int, seen: Observation, step: int,
                    number: int) -> list[Deviation]:
        """Before ``seat`` chooses, whoever has chosen already: PASS-COUNT, a pass by ``seat`` of a card it does
        not hold, and of two cards; PASS-SIMULTANEOUS, of a card another seat has already chosen to pass to it,
        and a second choice by a seat that has chosen (each seat's budget its own)."""
        hand = state.hands[seat]
        own = list(bits_of(hand))
        foreign = nth_card(state.rules.deck_mask & ~hand, step % (state.rules.deck_mask & ~hand).bit_count())
        offers: list[tuple[str, str, int, tuple[int, ...]]] = []   # (rule, budget, seat, cards)
        if self._budget(number, f"PASS-COUNT/{seat}"):
            offers += [("PASS-COUNT", f"PASS-COUNT/{seat}", seat, (own[0], own[1], foreign)),
                       ("PASS-COUNT", f"PASS-COUNT/{seat}", seat, (own[0], own[1]))]
        received = _received_early(state, seat)
        if received and self._budget(number, f"PASS-SIMULTANEOUS/{seat}"):
            offers.append(("PASS-SIMULTANEOUS", f"PASS-SIMULTANEOUS/{seat}", seat,
                           (own[0], own[1], nth_card(received, step % received.bit_count()))))
        chosen_already = [s for s, given in enumerate(state.passes) if given]
        if chosen_already and self._budget(number, _CHOOSES_AGAIN):
            again = chosen_already[step % len(chosen_already)]
            offers.append(("PASS-SIMULTANEOUS", _CHOOSES_AGAIN, again, _another_pass(state, again, step)))
        found = []
        for rule, key, by, cards in offers:
            chosen = CardSet(CARDS[i] for i in cards)
            forbidding = accepted_pass_rules(state, by, chosen.mask)
            where = {"round": number, "action": "illegal-pass", "seat": by, "cards": str(chosen)}
            if by != seat:
                where["chose"] = str(CardSet.from_mask(state.passes[by]))
            finding = self._offer(engine, rule, forbidding, seen, 0, step, where,
                                  lambda c=chosen, b=by: engine.pass_cards(b, c), _pass_astray(state, by, chosen.mask),
                                  key=key)
            if finding is not None:
                found.append(finding)
                if finding.kind != "wrong-rule":
                    break
        return found

    def _offer(self, engine: Engine, rule: str, forbidding: tuple[str, ...], seen: Observation, legal: int,
               step: int, where: dict[str, Any], move: Callable[[], None],
               astray: Callable[[str], tuple[tuple[str, ...], tuple[str, ...]]] = _never_astray,
               key: str | None = None) -> Deviation | None:
        """Offer one illegal move, forbidden by ``forbidding`` (cause first); return a finding unless it was refused well.

        ``astray(cited)``: what the rule the engine cited says of its hands: the hands gone astray it shows (put
        first), and those it would be judging, put first should the round show them (``explained_by``).
        ``key``: the budget the offer counts against (by default its rule's).
        """
        number = where["round"]
        key = key or rule
        self._used[(number, key)] = self._used.get((number, key), 0) + 1
        tally = self.counts.setdefault(rule, [0, 0, 0])
        try:
            move()
        except EngineRejection as error:   # right, unless it cites another rule than the reference does
            cited = cited_rule(error)
            if cited and cited[0] not in forbidding:
                tally[1] += 1
                cause, readings = astray(cited[0])
                return Deviation("wrong-rule", cause + forbidding + cited, step, where,
                                 message=f"the engine refused the illegal move citing {cited[0]}, but the "
                                         f"rule that forbids it is {forbidding[0]}: {error}", explained_by=readings)
            cited_right = bool(cited)
        except EngineUnsupported:
            raise
        except ENGINE_ERRORS as error:   # a failure, not a check the engine failed: no rule broken, none counted
            return Deviation("engine-error", forbidding, step, where,
                             message=failure_message(_offered(where), error))
        else:
            tally[1] += 1
            return Deviation("accepted-illegal", forbidding, step, where,
                             message=f"the engine accepted an illegal move ({forbidding[0]}): {where}")
        try:
            after = engine.observe()
            after_legal = engine.legal_plays() if where["action"] == "illegal-play" else None
        except ENGINE_ERRORS as error:
            return Deviation("engine-error", forbidding, step, where,
                             message=failure_message("observe() after refusing an illegal move", error))
        differences = [Difference(name, getattr(seen, name), getattr(after, name, None))
                       for name in ("phase", "to_move", "trick", "hearts_broken", "points_taken", "round_scores",
                                    "totals", "game_over", "winners")
                       if getattr(seen, name) != getattr(after, name, None)]
        if after_legal is not None and getattr(after_legal, "mask", None) != legal:
            differences.append(Difference("legal", str(CardSet.from_mask(legal)), str(after_legal)))
        if differences:
            tally[1] += 1
            return Deviation("state-changed", forbidding, step, where, tuple(differences),
                             "the engine refused the illegal move but its state changed: " + describe(tuple(differences)))
        tally[0] += 1
        tally[2] += cited_right
        return None


_OUT_OF_TURN = "TRICK-ORDER/out-of-turn"       # the budget of plays by a seat that is not to move
_CHOOSES_AGAIN = "PASS-SIMULTANEOUS/again"     # the budget of second choices by a seat that has chosen


def _out_of_turn(state: RoundState, step: int) -> tuple[int, int] | None:
    """TRICK-ORDER: a seat that is not to move, and a card it could play if it were to move (so that only the turn
    is wrong); None when no other seat could (the opening lead: only the holder of the lowest club has one)."""
    n = state.rules.players
    for k in range(n - 1):
        seat = (state.to_play + 1 + (step + k) % (n - 1)) % n
        cards = legal_plays(state.hands[seat], state.context, state.rules)
        if cards:
            return seat, nth_card(cards, step % cards.bit_count())
    return None


def _another_pass(state: RoundState, seat: int, step: int) -> tuple[int, ...]:
    """PASS-SIMULTANEOUS: three cards of ``seat``'s hand it did not choose (it has chosen already)."""
    left = state.hands[seat] & ~state.passes[seat]
    first = step % (left.bit_count() - 2)
    return tuple(nth_card(left, first + k) for k in range(3))


def _received_early(state: RoundState, seat: int, direction: str | None = None) -> int:
    """The cards seats that have chosen already pass to ``seat`` (in ``direction``, by default the round's): not its
    own until every seat has chosen."""
    offset = state.rules.pass_offset(direction or state.direction)
    received = 0
    for giver, given in enumerate(state.passes):
        if given and (giver + offset) % state.rules.players == seat:
            received |= given
    return received


def _offered(where: dict[str, Any]) -> str:
    """The call an illegal move was offered in, for a failure's message: ``an illegal move offered, play(KC)``."""
    if where.get("card") is not None:
        return f"an illegal move offered, play({where['card']})"
    return f"an illegal move offered, pass_cards({where.get('seat')}, {where.get('cards')})"
