"""Judging one step: the engine's observation and legal set against what the rules give.

After every step the engine's observation is compared with what the rules give *from the
engine's own earlier observation*: hearts broken as it showed them, its points, its totals.
While the engine agrees with the reference that is the reference's own observation, and the
comparison is a plain equality; once something has differed, each rule is still judged on
its own outcome — a trick's points added to the points the engine showed, the round's score
to its totals, its end decided on its totals — so a consequence is not counted again, and a
later, separate deviation still shows (:func:`engine_relative`). Only a difference builds a
:class:`~hearts_ref.conformance.findings.Deviation`, with its rules from :mod:`.diagnose`.

The vectors (:mod:`.vectors`), the differential games (:mod:`.differential`), the negative
checks and the perft counts all judge with these functions.

>>> from hearts_ref.game import Game
>>> from hearts_ref.deals import deal
>>> from hearts_ref.variants import Rules
>>> game = Game.new(Rules()).deal_round(deal(Rules(), seed=7), direction="none")
>>> seen = reference_observation(game, game.round)
>>> judge_observation(StepFacts("deal", None, game.round, game, previous=seen), seen, seen, 1, {}) is None
True
"""

from __future__ import annotations

import json

from typing import Any

from hearts_ref.cards import CARDS, suit_of
from hearts_ref.cardset import CardSet
from hearts_ref.engine import Observation, observe_game
from hearts_ref.game import Game, is_game_over, winners
from hearts_ref.legality import breaks_hearts, legal_plays
from hearts_ref.round import RoundState, trick_winner
from hearts_ref.scoring import card_points
from hearts_ref.conformance.diagnose import FIELDS, StepFacts, legal_rules, observation_rules, shape_rules
from hearts_ref.conformance.findings import Deviation, Difference, plain

__all__ = ["StepFacts", "reference_observation", "pass_observations", "trick_points", "engine_relative", "judge_observation", "judge_legal",
           "diverged", "expected_legal", "describe"]

TEXT = tuple(str(card) for card in CARDS)


def reference_observation(game: Game, state: RoundState | None = None,
                          points: tuple[int, ...] | None = None) -> Observation:
    """Return the reference's observation of ``game``, with ``state`` as its round in play; ``points``: its points
    taken when the caller has them already (``state.points_taken()`` otherwise)."""
    if state is None:
        return observe_game(game)
    last = game.results[-1].score.scores if game.results else None
    return Observation(state.phase, state.to_move, tuple(map(TEXT.__getitem__, state.trick)), state.hearts_broken,
                       state.points_taken() if points is None else points, last, game.totals, False, ())



def pass_observations(game: Game, dealt: RoundState, states: list[RoundState]) -> tuple[list[Observation], Any]:
    """The reference's observations of ``game`` with its round ``dealt`` and then each of ``states`` (after each
    pass) in play, the points taken worked out once (no trick is taken while the cards are passed); and the cards
    taken at the deal with their points."""
    points, taken = dealt.points_taken(), dealt.taken
    return [reference_observation(game, state, points if state.taken is taken else None)
            for state in [dealt] + states], (taken, points)


def trick_points(points: tuple[int, ...], after: RoundState, rules: Any) -> tuple[int, ...]:
    """SCORE-POINTS: the points taken after a play that closed a trick, from those before it: its winner's again."""
    winner = after.leader
    return points[:winner] + (card_points(after.taken[winner], rules),) + points[winner + 1:]

def _shaped(observation: Observation, players: int) -> bool:
    """One entry per seat in every per-seat field, as tuples (what the rules' arithmetic below needs)."""
    sized = (observation.points_taken, observation.totals) + (
        (observation.round_scores,) if observation.round_scores is not None else ())
    return all(isinstance(values, tuple) and len(values) == players for values in sized)


def engine_relative(facts: StepFacts, reference: Observation, actual: Observation) -> Observation:
    """Return the observation the rules give after this step, applied to what the engine showed.

    Who moves and the phase come from the reference (a game whose phases diverge ends). The
    rest follows each rule from the engine's own values: the trick (TRICK-ORDER) and hearts
    broken (BREAK-*) from its observation before the step, a trick's points (SCORE-POINTS) added
    to its points, and at the end of a round the scores from its points (the bonuses as the
    reference scored them, SCORE-NO-TRICKS; a moon's scores, SCORE-MOON, as the reference's: they
    are the same whatever points the shooter's cards were counted), its totals plus its
    scores (SCORE-TOTAL), the end and the winners from its totals (END-THRESHOLD, WIN-*).
    """
    previous, rules = facts.previous, facts.game.rules
    n = rules.players
    if previous is None or not _shaped(previous, n) or not _shaped(actual, n):
        return reference
    if facts.action == "deal":
        return Observation(reference.phase, reference.to_move, (), False, reference.points_taken,
                           previous.round_scores, previous.totals, False, ())
    if facts.action == "pass":
        return Observation(reference.phase, reference.to_move, previous.trick, previous.hearts_broken,
                           previous.points_taken, previous.round_scores, previous.totals, False, ())
    before, card = facts.before, facts.card
    completes = len(before.trick) == n - 1
    points = previous.points_taken
    if completes:
        cards = before.trick + (card,)
        winner = trick_winner([1 << c for c in cards], suit_of(cards[0]), before.leader, n, decks=rules.decks)
        gained = card_points(sum(1 << c for c in cards), rules)
        points = points[:winner] + (points[winner] + gained,) + points[winner + 1:]
    if facts.after is not None:   # the round goes on
        broken = previous.hearts_broken or breaks_hearts(1 << card, before.context, rules)
        trick = () if completes else previous.trick + (TEXT[card],)
        return Observation(reference.phase, reference.to_move, trick, broken, points, previous.round_scores,
                           previous.totals, False, ())
    score = facts.game.results[-1].score
    if score.shooter is not None:   # SCORE-MOON: the scores of a moon are the same whatever the points were counted
        scores = score.scores
    else:
        scores = tuple(p + (s - r) for p, s, r in zip(actual.points_taken, score.scores, score.points))
    totals = tuple(t + s for t, s in zip(previous.totals, actual.round_scores)) \
        if actual.round_scores is not None else previous.totals
    over = is_game_over(actual.totals, len(facts.game.results), rules)
    return Observation("game-over" if over else "round-over", None, (), False, points, scores, totals, over,
                       winners(actual.totals) if actual.game_over else ())


def describe(differences: tuple[Difference, ...]) -> str:
    """The differences in one line: ``field: expected X, engine Y; …``."""
    return "; ".join(f"{d.field}: expected {_shown(d.expected)}, engine {_shown(d.actual)}" for d in differences)


def _shown(value: Any) -> Any:
    """A value in words: an empty card set (no legal play) as ``(none)``, not as nothing; true, false, null and lists
    as the protocol writes them (JSON), not as Python would.

    >>> _shown(True), _shown(None), _shown(("2C", "3C")), _shown((0, 13)), _shown("play")
    ('true', 'null', '["2C", "3C"]', '[0, 13]', 'play')
    """
    text = plain(value)
    if text == "":
        return "(none)"
    return text if isinstance(text, str) else json.dumps(text)


def judge_observation(facts: StepFacts, reference: Observation, actual: Observation, step: int,
                      where: dict[str, Any], fields: tuple[str, ...] = FIELDS) -> Deviation | None:
    """Return the finding of the engine's observation ``actual`` after a step, or None when the rules agree.

    ``reference`` is the reference's observation; ``fields`` the ones to judge (the vectors judge
    what each step's expectation names).
    """
    expected = engine_relative(facts, reference, actual)
    # a value the reference shows too is never a deviation (an engine catching up, say)
    differences = tuple(Difference(name, getattr(expected, name), getattr(actual, name)) for name in fields
                        if getattr(actual, name) != getattr(expected, name)
                        and getattr(actual, name) != getattr(reference, name))
    if not differences:
        return None
    return Deviation("observation", observation_rules(differences, facts, actual), step, where, differences,
                     describe(differences))


def diverged(reference: Observation, actual: Observation, players: int) -> str:
    """Why the engine's game can no longer follow the reference's (its phase, its seat to play), or ``""``."""
    if shape_rules(actual, players):
        return f"the engine keeps {len(actual.totals)} seats' scores for {players} players"
    if actual.phase != reference.phase:
        return f"the engine is in phase {actual.phase!r}, the reference in {reference.phase!r}"
    if reference.phase == "play" and actual.to_move != reference.to_move:
        return f"the engine has seat {actual.to_move} to play, the reference seat {reference.to_move}"
    return ""


def expected_legal(state: RoundState, broken: bool) -> int:
    """The legal set of the seat to move, with hearts broken as the engine shows them."""
    if broken == state.context.hearts_broken:
        return state.legal
    return legal_plays(state.hands[state.to_play], state.context._replace(hearts_broken=broken), state.rules)


def judge_legal(state: RoundState, actual: int, broken: bool, step: int, where: dict[str, Any],
                found: tuple[str, ...] = ()) -> Deviation | None:
    """Return the finding of the engine's legal set ``actual`` (a mask) before a play, or None when it is right.

    ``found``: the rules of the game's earlier legal-set findings (see :func:`~.diagnose.legal_rules`).
    """
    expected = expected_legal(state, broken)
    if actual == expected:
        return None
    shown, engine = CardSet.from_mask(expected), CardSet.from_mask(actual)
    return Deviation("legal-set", legal_rules(state, actual, broken, found), step, where,
                     (Difference("legal", str(shown), str(engine)),),
                     f"legal plays differ: expected {shown or '(none)'}, engine {engine or '(none)'}")

