"""Recording a case from the reference: each step is played on a reference game and what holds after
it (the legal set, the trick winner, hearts broken, points taken, scores) is written down.

The catalogue says what to do and what it means (``reject_play("QS", "FIRST-NO-POINTS")``); the
reference says what follows. A step the reference judges differently from the catalogue's
intent stops generation with :class:`~hearts_ref.vectors.lines.CatalogueError`.

>>> from hearts_ref.deals import complete_deal
>>> b = CaseBuilder("demo", "The two of clubs opens.", ["LEAD-OPEN"])
>>> case = b.deal(complete_deal(b.rules, {}), direction="none").reject_play("3C", "LEAD-OPEN").play("2C").build()
>>> [step.text() for step in case.rounds[0].steps]
['seat 0 plays 3C', 'seat 0 plays 2C']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from hearts_ref.cards import Card
from hearts_ref.cardset import CardSet
from hearts_ref.errors import HeartsError, IllegalPlayError
from hearts_ref.game import Game
from hearts_ref.round import DeadlockError
from hearts_ref.simulate import random_card
from hearts_ref.variants import Rules
from hearts_ref.vectors.lines import CatalogueError, first_line, random_line
from hearts_ref.vectors.model import Case, Expect, FinalExpect, RoundCase, RoundExpect, Step

__all__ = ["CaseBuilder", "game_case", "expect_after"]


def expect_after(game: Game, *, closed_trick: bool) -> Expect:
    """Return what holds in ``game`` (the reference) after a step; ``closed_trick`` adds winner and points."""
    state = game.round
    if state is None:
        last = game.results[-1]
        return Expect("game-over" if game.over else "round-over", None, trick_winner=last.tricks[-1].winner,
                      points_taken=last.score.points)
    if state.phase == "pass":   # PASS-SIMULTANEOUS: every seat chooses at once, nobody is "to move"
        return Expect("pass", None)
    winner = state.tricks[-1].winner if closed_trick else None
    return Expect("play", state.to_move, state.legal_plays(), state.hearts_broken, winner,
                  state.points_taken() if closed_trick else None)


class CaseBuilder:
    """Builds one :class:`Case` by playing its steps on a reference :class:`~hearts_ref.game.Game`."""

    def __init__(self, case_id: str, description: str, rule_ids: Sequence[str], *, kind: str = "rule",
                 preset: str = "seed000", source: str | None = None, rules: Rules | None = None,
                 **changes: Any):
        self.id, self.description, self.kind, self.source = case_id, description, kind, source
        self.rule_ids = tuple(rule_ids)
        self.preset = preset
        self.rules = rules if rules is not None else Rules.preset(preset, **changes)
        self.game = Game.new(self.rules)
        self.rounds: list[RoundCase] = []
        self._setup: tuple[int, str, tuple[CardSet, ...]] | None = None
        self._steps: list[Step] = []
        self.rng = random.Random(f"hearts-ref-vector:{case_id}")

    # Deals ------------------------------------------------------------------------------

    def deal(self, hands: Sequence[CardSet | str], *, direction: str | None = None) -> CaseBuilder:
        """Start the next round with ``hands``; the pass direction follows PASS-CYCLE unless given."""
        if self._setup is not None:
            raise CatalogueError(f"{self.id}: round {len(self.rounds) + 1} is not finished")
        hands = tuple(CardSet.parse(h) if isinstance(h, str) else h for h in hands)
        self.game = self.game.deal_round(hands, direction=direction)
        self._setup = (self.game.dealer, self.game.round.direction, hands)
        return self

    def deal_rejected(self, hands: Sequence[CardSet | str], rule_id: str, *, direction: str = "none") -> CaseBuilder:
        """Add a deal that breaks ``rule_id``: the engine must refuse it (the case ends there)."""
        hands = tuple(CardSet.parse(h) if isinstance(h, str) else h for h in hands)
        try:
            self.game.deal_round(hands, direction=direction)
        except HeartsError as error:
            if not str(error).startswith(f"{rule_id}:"):
                raise CatalogueError(f"{self.id}: the deal is rejected, but not by {rule_id}: {error}") from None
        else:
            raise CatalogueError(f"{self.id}: the reference accepts a deal said to break {rule_id}")
        self.rounds.append(RoundCase(self.game.dealer, direction, hands, (), rule_id))
        return self

    # Steps ------------------------------------------------------------------------------

    def pass_cards(self, seat: int, cards: str | CardSet) -> CaseBuilder:
        """``seat`` passes ``cards`` (PASS-COUNT)."""
        cards = CardSet.parse(cards) if isinstance(cards, str) else cards
        self.game = self.game.choose_pass(seat, cards)
        self._steps.append(Step("pass", seat, tuple(cards), expect=expect_after(self.game, closed_trick=False)))
        return self

    def passes(self, *cards_by_seat: str) -> CaseBuilder:
        """Every seat passes, seat 0 first."""
        for seat, cards in enumerate(cards_by_seat):
            self.pass_cards(seat, cards)
        return self

    def random_passes(self) -> CaseBuilder:
        """Every seat passes three cards chosen by the case's own random generator."""
        for seat in range(self.rules.players):
            hand = list(self.game.round.hand(seat))
            self.pass_cards(seat, CardSet(self.rng.sample(hand, 3)))
        return self

    def reject_pass(self, seat: int, cards: str | CardSet, rule_id: str) -> CaseBuilder:
        """Record a pass that ``rule_id`` rejects."""
        cards = CardSet.parse(cards) if isinstance(cards, str) else cards
        self._expect_rejection(lambda: self.game.choose_pass(seat, cards), rule_id, f"seat {seat} passing {cards}")
        self._steps.append(Step("pass", seat, tuple(cards), rejected_by=rule_id))
        return self

    def play(self, *texts: str | Card) -> CaseBuilder:
        """The seats to move play these cards in order (``"2C"`` or ``"2C 3C 4C AC"``)."""
        for card in _cards(texts):
            state = self.game.round
            if state is None:
                raise CatalogueError(f"{self.id}: no round in play for {card}")
            seat = state.to_move
            try:
                self.game = self.game.play(card)
            except IllegalPlayError as error:
                raise CatalogueError(f"{self.id}: {card} by seat {seat} is illegal: {error}") from None
            closed = self.game.round is None or not self.game.round.trick
            self._steps.append(Step("play", seat, (card,), expect=expect_after(self.game, closed_trick=closed)))
            if self.game.round is None:
                self._close_round()
        return self

    def reject_play(self, text: str, rule_id: str) -> CaseBuilder:
        """Record a play of ``text`` (by whoever holds it) that ``rule_id`` rejects."""
        card = Card.parse(text)
        state = self.game.round
        holder = next((s for s in range(self.rules.players) if card in state.hand(s)), state.to_move)
        self._expect_rejection(lambda: self.game.play(card), rule_id, f"{card} by seat {holder}")
        self._steps.append(Step("play", holder, (card,), rejected_by=rule_id))
        return self

    def play_out(self, *, accept: Any = None, seed: str | None = None, **target: Any) -> CaseBuilder:
        """Finish the round with random legal plays.

        With ``accept`` (a test of the finished round), the first random play-out that passes
        it (:func:`random_line`, drawn from ``seed``, the case ID by default); with a target
        (see :func:`~hearts_ref.vectors.lines.find_line`), a line reaching it.
        """
        if target:
            return self.play(*first_line(self.game.round, **target))
        if accept is not None:
            return self.play(*random_line(self.game.round, accept, seed=seed or self.id))
        while self.game.round is not None and self._setup is not None:
            self.play(random_card(self.game.round, self.rng))
        return self

    def check(self, **facts: Any) -> CaseBuilder:
        """Stop generation unless the reference agrees with these facts (the catalogue's intent).

        Facts: ``to_move``, ``hearts_broken``, ``legal`` (card text), ``legal_is_hand``, ``points`` (taken this
        round), ``scores`` (of the last round), ``moon``, ``totals``, ``game_over``, ``winners``.
        """
        state, game = self.game.round, self.game
        last = game.results[-1].score if game.results else None
        actual = {
            "to_move": state.to_move if state else None,
            "hearts_broken": state.hearts_broken if state else None,
            "legal": str(state.legal_plays()) if state else None,
            "legal_is_hand": state.legal_plays() == state.hand(state.to_move) if state else None,
            "points": state.points_taken() if state else last.points if last else None,
            "scores": last.scores if last else None,
            "moon": last.shooter if last else None,
            "totals": game.totals, "game_over": game.over, "winners": game.winners,
        }
        for name, value in facts.items():
            want = str(CardSet.parse(value)) if name == "legal" else value
            if actual[name] != want:
                raise CatalogueError(f"{self.id}: expected {name}={want!r}, the reference has {actual[name]!r}")
        return self

    def build(self) -> Case:
        """Return the case: the rounds so far (an unfinished round included) and the game's state at the end."""
        rounds = list(self.rounds)
        if self._setup is not None:
            dealer, direction, hands = self._setup
            rounds.append(RoundCase(dealer, direction, hands, tuple(self._steps)))
        final = FinalExpect(self.game.totals, self.game.over, self.game.winners)
        return Case(self.id, self.description, self.kind, self.rule_ids, self.preset, self.rules, tuple(rounds),
                    final, self.source)

    # Internals ----------------------------------------------------------------------------

    def _close_round(self) -> None:
        dealer, direction, hands = self._setup
        score = self.game.results[-1].score
        result = RoundExpect(score.points, score.scores, score.shooter, self.game.totals)
        self.rounds.append(RoundCase(dealer, direction, hands, tuple(self._steps), None, result))
        self._setup, self._steps = None, []

    def _expect_rejection(self, action: Any, rule_id: str, what: str) -> None:
        try:
            action()
        except (IllegalPlayError, DeadlockError) as error:
            if error.rule_id != rule_id:
                raise CatalogueError(f"{self.id}: {what} is rejected by {error.rule_id}, not {rule_id}: {error}") \
                    from None
        else:
            raise CatalogueError(f"{self.id}: the reference accepts {what}, said to break {rule_id}")


def _cards(texts: Sequence[str | Card]) -> list[Card]:
    cards: list[Card] = []
    for text in texts:
        cards += [text] if isinstance(text, Card) else [Card.parse(word) for word in text.split()]
    return cards


def game_case(game: Game, case_id: str, description: str, rule_ids: Sequence[str], *, kind: str = "game",
              preset: str = "seed000") -> Case:
    """Return a case that replays every round of a finished reference ``game`` step by step."""
    builder = CaseBuilder(case_id, description, rule_ids, kind=kind, preset=preset, rules=game.rules)
    for result in game.results:
        builder.deal(tuple(CardSet.from_mask(m) for m in result.dealt), direction=result.direction)
        if result.direction != "none":
            for seat, cards in enumerate(result.passes):
                builder.pass_cards(seat, CardSet.from_mask(cards))
        builder.play(*(card for trick in result.tricks for card in trick.cards))
    return builder.build()
