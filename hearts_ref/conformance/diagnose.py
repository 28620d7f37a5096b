"""Which rule a difference breaks: from what differs between an engine and the reference to rule IDs, cause first.

The runner knows more than an engine shows: the hands it dealt, the cards it passed, the
reference's state. Each function here asks, in the order of the rules, which rule's own
outcome differs, and names that rule first:

- a legal set (:func:`legal_rules`): hands that went astray (the cards passed another way:
  PASS-CYCLE; passed cards kept: PASS-SIMULTANEOUS), a leader judged as if still following
  the trick just won (LEAD-WINNER), else the rule of each differing card, in the order of the
  rules (:func:`~hearts_ref.legality.rejecting_rule`, :func:`~hearts_ref.legality.allowing_rule`);
- the first lead (:func:`opening_rules`): the lowest club as another pass direction would
  have placed it (PASS-CYCLE), as other removed cards would make it (DECK-REMOVED), the
  dealer leading (DEAL-DEALER), else LEAD-OPEN;
- who wins a trick: the points credited to the right seat but another leading (LEAD-WINNER), the
  ace ranked low (DECK-CARDS), else TRICK-WINNER; after a trick of no points, LEAD-WINNER too (the
  points cannot tell the two apart: the game plays on until a trick that can);
- points and scores: the J♦'s ten (SCORE-JACK), the no-trick five (SCORE-NO-TRICKS), a moon
  seen or missed (SCORE-MOON), else SCORE-POINTS; totals: SCORE-TOTAL; the end: END-THRESHOLD,
  or WIN-TIE when a tie decides it; the winners: WIN-LOWEST, or WIN-TIE for a tie cut short;
- a legal move refused, an illegal one accepted: :mod:`.refusals`.

These functions run only once something differs; comparing is :mod:`.judge`'s job.

>>> from hearts_ref.deals import complete_deal
>>> from hearts_ref.round import start_round
>>> state = start_round(Rules(), complete_deal(Rules(), {0: "2C"}), direction="none")
>>> from hearts_ref.cardset import CardSet
>>> legal_rules(state, CardSet.parse("2C 3C").mask)
('LEAD-OPEN',)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from hearts_ref.cards import COPY_OFFSET, QUEEN_OF_SPADES, suit_of
from hearts_ref.cardset import JACK_OF_DIAMONDS_BIT, SUIT_MASKS, bits_of
from hearts_ref.engine import Observation
from hearts_ref.game import Game, RoundResult, is_game_over
from hearts_ref.legality import Context, allowing_rule, breaks_hearts, legal_plays, rejecting_rule
from hearts_ref.round import RoundState, first_trick_seats, trick_winner
from hearts_ref.scoring import JACK_POINTS, MOON_POINTS, NO_TRICKS_BONUS, card_points
from hearts_ref.spec import load_rules
from hearts_ref.variants import Rules
from hearts_ref.conformance.astray import astray_citation, hands_astray, opening_rules
from hearts_ref.conformance.findings import Difference

__all__ = ["StepFacts", "legal_rules", "stale_lead", "opening_rules", "observation_rules", "shape_rules",
           "astray_citation", "in_rule_order", "taken_in_round", "trick_taker", "ambiguous_winner", "told_winner_rule",
           "ace_low_refuted", "FIELDS"]

FIELDS = ("phase", "to_move", "trick", "hearts_broken", "points_taken", "round_scores", "totals",
          "game_over", "winners")
# Causes before consequences: within a step, who moves and what was played come before the
# points, the points before the scores, the scores before the end and the winners.
_CAUSAL_ORDER = ("to_move", "trick", "hearts_broken", "points_taken", "round_scores", "totals", "phase",
                 "game_over", "winners")
_QUEEN = QUEEN_OF_SPADES.index


class StepFacts(NamedTuple):
    """What the runner knows about one step, to blame a difference on the rule it breaks."""

    action: str                      # "deal", "pass" or "play"
    before: RoundState | None        # the reference's round before the step (None before a deal)
    after: RoundState | None         # the reference's round after it (None once the round is scored)
    game: Game                       # the reference's game after the step
    card: int | None = None          # the card played
    previous: Observation | None = None   # what the engine showed before the step
    engine_legal: int | None = None  # the engine's legal set after the step, when it was asked for


def in_rule_order(ids: Iterable[str | None]) -> tuple[str, ...]:
    """The rule IDs, each once, in the order the rules are written (an unknown ID last)."""
    order = _rule_order()
    return tuple(sorted(dict.fromkeys(i for i in ids if i), key=lambda rule: order.get(rule, len(order))))


def _rule_order() -> dict[str, int]:
    return {rule: k for k, rule in enumerate(load_rules())}


def _unique(ids: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ids))


# Legal sets ---------------------------------------------------------------------------------------

def legal_rules(state: RoundState, engine: int, broken: bool | None = None,
                found: Iterable[str] = ()) -> tuple[str, ...]:
    """Return the rules behind the engine's legal set ``engine`` (a mask) where it differs from the rules'.

    ``broken`` is hearts broken as the engine shows it: its legal set is judged with that.
    ``found``: the rules the game's earlier legal-set findings broke; a legal set that one of
    them explains as well as a new rule is put down to it.
    """
    rules, seat = state.rules, state.to_play
    ctx = state.context if broken is None else state.context._replace(hearts_broken=broken)
    hand = state.hands[seat]
    stale = stale_lead(state, engine, broken)
    if stale == "held" or stale and "LEAD-WINNER" in found:
        return ("LEAD-WINNER",)   # the leader judged as if still following the trick it won
    astray = hands_astray(state, engine, ctx)
    if astray:
        return astray
    expected = legal_plays(hand, ctx, rules)
    ids = [rejecting_rule(hand, ctx, rules, 1 << i) for i in bits_of(engine & ~expected)]
    ids += [allowing_rule(hand, ctx, rules, 1 << i) for i in bits_of(expected & ~engine)]
    return in_rule_order(ids)


def stale_lead(state: RoundState, engine: int, broken: bool | None = None) -> str:
    """LEAD-WINNER: whether a leader's legal set ``engine`` is that of a seat still following the trick just won.

    Returns ``"held"`` when the leader holds that trick's suit (the set can only come from there),
    ``"void"`` when it does not (any card, which other bugs give too), ``""`` when it is not so.
    """
    ctx = state.context
    if not ctx.leading or ctx.first_trick:
        return ""
    previous = suit_of(state.tricks[-1].indices[0])
    hand = state.hands[state.to_play]
    broken = ctx.hearts_broken if broken is None else broken
    if engine != legal_plays(hand, Context(False, previous, False, broken), state.rules):
        return ""
    return "held" if hand & SUIT_MASKS[previous] else "void"


# Observations --------------------------------------------------------------------------------------

def observation_rules(differences: Sequence[Difference], facts: StepFacts, actual: Observation) -> tuple[str, ...]:
    """Return the rules behind these differences of the engine's observation ``actual`` after a step."""
    rules = facts.game.rules
    if not _shaped(actual, rules.players):
        return ("PLAYERS-COUNT",)   # a seat too many or too few on the engine's score sheet
    by_field = {d.field: d for d in differences}
    phase_moved = "phase" in by_field and facts.action != "play"
    ids: list[str] = []
    if facts.after is not None and facts.after.deadlocked and by_field.keys() & _AT_A_DEADLOCK:
        ids.append(facts.after.deadlock_error().rule_id)   # the rule that says how a deadlock is shown: it comes first
    if phase_moved:   # the round began or the passing ended at another moment: the seat to move follows
        ids += _phase_rules(facts, by_field["phase"], actual)
    for name in _CAUSAL_ORDER:
        if name in by_field and not (phase_moved and name in ("phase", "to_move")):
            ids += _FIELD_RULES[name](facts, by_field[name], actual)
    return _unique(ids)


def shape_rules(observation: Observation, players: int) -> tuple[str, ...]:
    """PLAYERS-COUNT, when the engine's score sheet has a seat too many or too few."""
    return () if _shaped(observation, players) else ("PLAYERS-COUNT",)


def _shaped(observation: Observation, players: int) -> bool:
    """PLAYERS-COUNT: one entry per seat in every per-seat field."""
    sized = (observation.points_taken, observation.totals) + (
        (observation.round_scores,) if observation.round_scores is not None else ())
    return all(isinstance(values, (tuple, list)) and len(values) == players for values in sized)


def _phase_rules(facts: StepFacts, diff: Difference, actual: Observation) -> list[str]:
    if facts.action == "deal":
        return ["PASS-CYCLE"] if {diff.expected, diff.actual} == {"pass", "play"} else ["DEAL-HANDS"]
    if facts.action == "pass":
        return ["PASS-SIMULTANEOUS"]
    if {diff.expected, diff.actual} <= {"round-over", "game-over"}:
        return _end_rules(facts, actual)
    return ["TRICK-ORDER"]   # the round ended before its last trick, or went on past it


def _end_rules(facts: StepFacts, actual: Observation) -> list[str]:
    """END-THRESHOLD, or WIN-TIE when the lowest totals tie under ``ties = "play-on"``."""
    rules = facts.game.rules
    totals = actual.totals
    reached = is_game_over(totals, len(facts.game.results), dataclasses.replace(rules, ties="shared"))
    tied = totals.count(min(totals)) > 1
    if rules.ties == "play-on" and reached and tied:
        return ["WIN-TIE", "END-THRESHOLD"]
    return ["END-THRESHOLD"]


def _to_move_rules(facts: StepFacts, diff: Difference, actual: Observation) -> list[str]:
    after = facts.after
    if facts.action in ("deal", "pass"):
        if after is not None and after.passing:
            return ["PASS-SIMULTANEOUS"]   # while passing, the seat to move is the lowest that has not chosen
        if after is None:
            return ["TRICK-ORDER"]
        return list(opening_rules(after, actual.to_move, len(facts.game.results) % facts.game.rules.players,
                                  facts.engine_legal))
    if _completes(facts):
        return _winner_rules(facts, actual)
    return ["TRICK-ORDER"]


def _completes(facts: StepFacts) -> bool:
    """TRICK-ORDER: whether the step is the play that completed a trick (9 cards on seed 003's first trick for
    five)."""
    before, after = facts.before, facts.after
    return facts.action == "play" and before is not None and (after is None or len(after.tricks) > len(before.tricks))


def _trick_seats(facts: StepFacts) -> tuple[int, ...]:
    """TRICK-ORDER: the seat of each card of the trick just completed."""
    before, rules = facts.before, facts.game.rules
    if before.first_trick and rules.extra_cards:
        return first_trick_seats(before.dealt, before.leader, rules)
    return tuple((before.leader + k) % rules.players for k in range(rules.players))


def _trick_cards(facts: StepFacts) -> tuple[int, ...]:
    return facts.before.trick + (facts.card,)


def _winner_rules(facts: StepFacts, actual: Observation) -> list[str]:
    """DECK-CARDS, TRICK-WINNER, LEAD-WINNER: who the engine has lead after a trick, and why.

    The engine's points say which seat it gave a trick of points to: its winner, and another seat leading is
    LEAD-WINNER; the seat it has lead, and that seat's winning is the bug (the ace ranked low, DECK-CARDS, else
    TRICK-WINNER). A trick of no points says neither: the winner's rules come first and LEAD-WINNER after them, and
    the game plays on with the engine's leader until a trick of points tells (:meth:`~.verdicts.Verdicts.follow_leader`).
    """
    before, rules = facts.before, facts.game.rules
    n = rules.players
    cards = _trick_cards(facts)
    led = suit_of(cards[0])
    seats = _trick_seats(facts)
    winner = trick_winner([1 << c for c in cards], led, before.leader, n, seats=seats, decks=rules.decks)
    credited = trick_taker(facts, actual, winner)
    if credited == winner:
        return ["LEAD-WINNER"]   # the engine credits the winner, but another seat leads
    in_suit = [(k, c) for k, c in enumerate(cards) if suit_of(c) == led]
    position, _ = max(in_suit, key=lambda kc: (kc[1] % 13 + 1) % 13)   # the ace ranked below the two
    named = ["TRICK-WINNER"]
    if seats[position] == actual.to_move and not ace_low_refuted(facts.game.results, before):
        # Two decks: when the later of two identical top cards was played by that seat too, the identical-card
        # rule of TRICK-WINNER explains it with no other rule broken (the ace ranks high elsewhere).
        top = max(c % 13 for _, c in in_suit)
        copies = [k for k, c in in_suit if c % 13 == top]
        two_copies = len(copies) == 2 and seats[copies[1]] == actual.to_move
        named = ["TRICK-WINNER", "DECK-CARDS"] if two_copies else ["DECK-CARDS", "TRICK-WINNER"]
    return named if credited == actual.to_move else named + ["LEAD-WINNER"]


def ace_low_refuted(results: Sequence[RoundResult], state: RoundState | None) -> bool:
    """Whether a trick of the game went elsewhere than to the highest card of the suit led with the ace ranked low:
    then the engine does not rank the ace low, and a wrong winner is not DECK-CARDS. Who the engine gave a trick to
    is the seat it had lead after it, the next trick's leader (the runner follows the engine's leader): the tricks
    of the rounds played (``results``, a round's last trick telling none) and of the round in play (``state``; a
    trick just completed tells none until the next is begun: the game may have stopped at it)."""
    taken = [(trick, later.leader) for result in results for trick, later in zip(result.tricks, result.tricks[1:])]
    if state is not None:   # the last trick's taker leads the trick in play, once a card of it is played
        taken += zip(state.tricks, [trick.leader for trick in state.tricks[1:]] + [state.leader] * bool(state.trick))
    for trick, taker in taken:
        if trick.seats is not None:   # a seat played two cards (uneven hands): not one card from each seat
            continue
        led = suit_of(trick.indices[0])
        in_suit = [(k, card) for k, card in enumerate(trick.indices) if suit_of(card) == led]
        place = max(in_suit, key=lambda kc: (kc[1] % 13 + 1) % 13)[0]   # (with two copies, the first played)
        if taker != (trick.leader + place) % len(trick.indices):
            return True
    return False


WINNER_RULES = ("LEAD-WINNER", "TRICK-WINNER", "DECK-CARDS")   # who leads after a trick (:func:`_winner_rules`)
# The rules :func:`_winner_rules` names, in order, for a seat to move after a trick of no points: a wrong winner, or
# the right winner and a wrong lead, which the points cannot tell apart.
AMBIGUOUS_WINNER = (("TRICK-WINNER", "LEAD-WINNER"), ("DECK-CARDS", "TRICK-WINNER", "LEAD-WINNER"),
                    ("TRICK-WINNER", "DECK-CARDS", "LEAD-WINNER"))
UNTOLD = ("after a trick of no points a wrong winner and a wrong lead look alike: a case with a trick of points "
          "tells which, and conform's rule table charges what its cases show")


def ambiguous_winner(rule_ids: Sequence[str]) -> bool:
    """Whether a finding's ``rule_ids`` are those of a seat to move after a trick of no points (:func:`_winner_rules`):
    a wrong winner first, LEAD-WINNER after it.

    >>> ambiguous_winner(["TRICK-WINNER", "LEAD-WINNER"]), ambiguous_winner(["TRICK-WINNER"])
    (True, False)
    """
    return any(tuple(rule_ids[:len(names)]) == names for names in AMBIGUOUS_WINNER)


def told_winner_rule(rule_ids: Sequence[str]) -> str | None:
    """The rule a seat to move after a trick names beyond doubt (its points told: LEAD-WINNER, TRICK-WINNER or
    DECK-CARDS first, and not :func:`ambiguous_winner`), else None."""
    return rule_ids[0] if rule_ids and rule_ids[0] in WINNER_RULES and not ambiguous_winner(rule_ids) else None


def trick_taker(facts: StepFacts, actual: Observation, winner: int) -> int | None:
    """The seat the engine's points show took the trick just completed (``winner``, the reference's, or the seat the
    engine has lead), or None when they cannot tell: a trick of no points, or points that went elsewhere."""
    previous = facts.previous
    points = card_points(_mask(_trick_cards(facts)), facts.game.rules)
    n = facts.game.rules.players
    if not points or previous is None or not _shaped(previous, n) or not _shaped(actual, n):
        return None
    gained = [now - then for now, then in zip(actual.points_taken, previous.points_taken)]
    for seat in dict.fromkeys((winner, actual.to_move)):
        if isinstance(seat, int) and 0 <= seat < n and gained[seat] == points and gained.count(0) == n - 1:
            return seat
    return None


def _mask(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _trick_rules(facts: StepFacts, diff: Difference, actual: Observation) -> list[str]:
    return ["TRICK-ORDER"]


def _hearts_rules(facts: StepFacts, diff: Difference, actual: Observation) -> list[str]:
    """BREAK-QUEEN when the Q♠ just played would explain the engine's hearts broken, else BREAK-DISCARD (among them
    hearts still broken once the round is over, whatever its last card: BREAK-DISCARD's round is the one in play)."""
    if facts.action == "play" and facts.after is None:
        return ["BREAK-DISCARD"]
    if facts.action == "play" and facts.card % COPY_OFFSET == _QUEEN:   # either deck's Q♠
        previous = facts.previous.hearts_broken if facts.previous is not None else facts.before.hearts_broken
        rules = facts.game.rules
        other = dataclasses.replace(rules, qs_breaks_hearts=not rules.qs_breaks_hearts)
        if (previous or breaks_hearts(1 << facts.card, facts.before.context, other)) == diff.actual:
            return ["BREAK-QUEEN"]
    return ["BREAK-DISCARD"]


def _points_rules(facts: StepFacts, diff: Difference, actual: Observation) -> list[str]:
    """SCORE-POINTS, SCORE-JACK, TRICK-WINNER: the points the engine gave for the trick just taken."""
    if not _completes(facts):
        return ["SCORE-POINTS"]   # points changed without a trick taken (or not reset for the round)
    delta = [a - e for a, e in zip(diff.actual, diff.expected)]
    moved = [seat for seat, d in enumerate(delta) if d]
    if len(moved) > 1 and not sum(delta):
        return ["TRICK-WINNER"]   # the trick's points went to another seat
    if _mask(_trick_cards(facts)) & JACK_OF_DIAMONDS_BIT and len(moved) == 1 and _jack_off(delta[moved[0]]):
        return ["SCORE-JACK"]
    return ["SCORE-POINTS"]


def _jack_off(delta: int) -> bool:
    """SCORE-JACK: whether a seat's points are off by what the J♦ it took explains: its ten counted or not when the
    rules say otherwise, or counted with the wrong sign."""
    return abs(delta) in (-JACK_POINTS, -2 * JACK_POINTS)


def taken_in_round(game: Game) -> tuple[int, ...]:
    """The cards each seat took in tricks in the last finished round of ``game``."""
    taken = [0] * game.rules.players
    for trick in game.results[-1].tricks:
        for index in trick.indices:
            taken[trick.winner] |= 1 << index
    return tuple(taken)


def _scores_rules(facts: StepFacts, diff: Difference, actual: Observation) -> list[str]:
    """SCORE-JACK, SCORE-NO-TRICKS, SCORE-MOON, SCORE-POINTS: the round's scores, given the engine's points."""
    game, rules = facts.game, facts.game.rules
    if facts.action != "play" or facts.after is not None or not game.results or diff.expected is None \
            or diff.actual is None:
        return ["SCORE-POINTS"]
    taken = taken_in_round(game)
    delta = [a - e for a, e in zip(diff.actual, diff.expected)]
    moved = [seat for seat, d in enumerate(delta) if d]
    jack = next((seat for seat, cards in enumerate(taken) if cards & JACK_OF_DIAMONDS_BIT), None)
    if moved == [jack] and _jack_off(delta[jack]):
        return ["SCORE-JACK"]
    if moved and all(not taken[s] and abs(delta[s]) == -NO_TRICKS_BONUS for s in moved):
        return ["SCORE-NO-TRICKS"]
    if game.results[-1].score.shooter is not None or _looks_like_a_moon(tuple(diff.actual), taken, rules):
        return ["SCORE-MOON"]
    return ["SCORE-POINTS"]


def _looks_like_a_moon(scores: tuple[int, ...], taken: tuple[int, ...], rules: Rules) -> bool:
    """Whether ``scores`` are a moon's (26 to the others, or 26 off the shooter) for some seat."""
    jack = [JACK_POINTS if rules.jd_bonus and cards & JACK_OF_DIAMONDS_BIT else 0 for cards in taken]
    for shooter in range(rules.players):
        added = tuple(j + (0 if seat == shooter else MOON_POINTS) for seat, j in enumerate(jack))
        subtracted = tuple(j - (MOON_POINTS if seat == shooter else 0) for seat, j in enumerate(jack))
        if scores in (added, subtracted):
            return True
    return False


def _totals_rules(facts: StepFacts, diff: Difference, actual: Observation) -> list[str]:
    return ["SCORE-TOTAL"]


def _game_over_rules(facts: StepFacts, diff: Difference, actual: Observation) -> list[str]:
    if facts.action == "play" and facts.after is None:
        return _end_rules(facts, actual)
    return ["END-THRESHOLD"]   # the end is checked after a round, never during one


def _winners_rules(facts: StepFacts, diff: Difference, actual: Observation) -> list[str]:
    """WIN-LOWEST, WIN-TIE: the winners the engine names, against the lowest of its own totals."""
    low = min(actual.totals)
    lowest = {seat for seat, total in enumerate(actual.totals) if total == low}
    named = set(diff.actual or ())
    if named - lowest or not named:
        return ["WIN-LOWEST"]
    return ["WIN-TIE"]   # some of the seats sharing the lowest total were left out


# What a deadlock shows (FIRST-NO-POINTS, FOLLOW-VOID): the play phase, no legal play, the game not over, no winners
_AT_A_DEADLOCK = frozenset({"phase", "game_over", "winners"})

_FIELD_RULES = {"phase": _phase_rules, "to_move": _to_move_rules, "trick": _trick_rules,
                "hearts_broken": _hearts_rules, "points_taken": _points_rules, "round_scores": _scores_rules,
                "totals": _totals_rules, "game_over": _game_over_rules, "winners": _winners_rules}
