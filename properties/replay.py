"""Replaying a counterexample: a bounded search for a deal and plays that reach it, confirmed on an engine.

A per-context refutation says: *a hand like this, in a context like this, has no legal
play*. It may still be unreachable in a real round. :func:`find_replay` searches for a
deal (no pass) and a sequence of legal plays after which the player to move holds
exactly that hand in exactly that context; :func:`confirm_on_engine` then replays it
through the :class:`~hearts_ref.engine.Engine` interface and checks that the engine
offers no legal play and refuses every card of the hand.

The search deals the stuck player the hand plus the cards to shed on the tricks
before, hands out the rest at random, and walks the legal plays depth first (the stuck
player only ever sheds its extra cards), giving up on a deal after ``nodes`` states and on the search after ``total``.
Every choice comes from ``random.Random(seed)``.

>>> from hearts_ref import CardSet, Context, Rules
>>> rules = Rules.preset("seed001")
>>> stuck = CardSet.parse("QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH").mask
>>> replay = find_replay(rules, stuck, Context(False, 0, True, False))
>>> confirm_on_engine(rules, replay) is None
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hearts_ref.cards import CARDS, suit_of
from hearts_ref.cardset import CardSet, bits_of
from hearts_ref.deals import dealt_turn, turned
from hearts_ref.engine import Engine, EngineRejection, ReferenceEngine
from hearts_ref.errors import HeartsError
from hearts_ref.legality import Context
from hearts_ref.round import RoundState, start_round
from hearts_ref.variants import Rules
from properties.counterexamples import Replay, replay_round

__all__ = ["find_replay", "confirm_on_engine", "confirm_play", "confirm_rejection"]


def _reached(state: RoundState, seat: int, hand: int, ctx: Context) -> bool:
    return (state.to_play == seat and state.hands[seat] == hand and state.context.leading == ctx.leading
            and state.context.first_trick == ctx.first_trick and state.context.hearts_broken == ctx.hearts_broken
            and (ctx.leading or state.context.led_suit == ctx.led_suit)
            and state.context.pair_suit == ctx.pair_suit)   # FIRST-TWO-CARDS: a seat's second card, or not


def _search(state: RoundState, seat: int, hand: int, ctx: Context, tricks_before: int, rng: random.Random,
            budget: list[int], plays: list[int]) -> bool:
    budget[0] -= 1
    if budget[0] < 0 or state.to_play < 0:
        return False
    done = len(state.tricks)
    if _reached(state, seat, hand, ctx):
        return True
    if done > tricks_before or (state.hearts_broken and not ctx.hearts_broken):
        return False   # too late, or hearts broke and never mend (BREAK-DISCARD)
    legal = state.legal
    if state.to_play == seat:
        if done == tricks_before and not (ctx.pair_suit is not None and state.hands[seat] & ~hand):
            return False   # the stuck player's turn came in the wrong context (or, of two, its first card: below)
        legal &= ~hand     # it only ever sheds its extra cards
    moves = list(bits_of(legal))
    rng.shuffle(moves)
    for card in moves:
        plays.append(card)
        if _search(state.play(CARDS[card]), seat, hand, ctx, tricks_before, rng, budget, plays):
            return True
        plays.pop()
    return False


def find_replay(rules: Rules, hand: int, ctx: Context, *, seed: int = 0, attempts: int = 300,
                nodes: int = 2000, total: int = 20000) -> Replay | None:
    """Return a deal and plays after which the player to move holds ``hand`` in ``ctx``, or None.

    Tries up to ``attempts`` random deals, each searched for at most ``nodes`` states and
    all of them for at most ``total`` states.
    """
    rng = random.Random(seed)
    n, size = rules.players, rules.hand_size
    number, dealer = replay_round(rules)
    # On the first trick the stuck seat holds what it was dealt, less its first card when it is to play a second
    # (FIRST-TWO-CARDS: that card of the suit ``ctx.pair_suit``); on a later trick it has shed one card a trick.
    shed = int(ctx.pair_suit is not None) if ctx.first_trick else size - hand.bit_count()
    tricks_before = 0 if ctx.first_trick else shed
    if hand & ~rules.deck_mask or shed < 0 or (ctx.first_trick and hand.bit_count() + shed not in rules.dealt_sizes()):
        return None
    others_cards = list(bits_of(rules.deck_mask & ~hand))
    if ctx.pair_suit is not None and not any(suit_of(c) == ctx.pair_suit for c in others_cards):
        return None
    for attempt in range(attempts):
        # The first deal is the most readable one: seat 1 is stuck, the others get the rest lowest first.
        seat = 1 if attempt == 0 else rng.randrange(n)
        if attempt:
            rng.shuffle(others_cards)
        if ctx.pair_suit is not None:   # its first card of two, of the suit the context says
            first = next(c for c in others_cards if suit_of(c) == ctx.pair_suit)
            extra, rest = [first], [c for c in others_cards if c != first]
        else:
            extra, rest = others_cards[:shed], others_cards[shed:]
        hands = [0] * n
        hands[seat] = hand | sum(1 << c for c in extra)
        others = [s for s in range(n) if s != seat]
        # the first deal fills the other seats in turn, lowest first (with uneven hands the first one holds
        # the extra card: DEAL-HANDS); the later ones deal the rest round the table
        order = [o for j, o in enumerate(others) for _ in range(len(rest) // len(others) + (j < len(rest) % len(others)))]
        for k, card in enumerate(rest):
            hands[order[k] if attempt == 0 else others[k % len(others)]] |= 1 << card
        by = dealt_turn(rules, hands, dealer)   # DEAL-HANDS: the seats turned so that the dealer of a round with
        if by is None:                           # no pass deals them (the rules are the same at every seat)
            continue
        hands, seat = list(turned(hands, by)), (seat + by) % n
        try:
            state = start_round(rules, [CardSet.from_mask(h) for h in hands], direction="none", dealer=dealer)
        except HeartsError:
            continue
        plays: list[int] = []
        budget = [min(nodes, total)]
        if _search(state, seat, hand, ctx, tricks_before, rng, budget, plays):
            return Replay(tuple(hands), tuple(plays), seat, round_number=number, dealer=dealer)
        total -= min(nodes, total) - max(budget[0], 0)
        if total <= 0:
            break
    return None


def confirm_on_engine(rules: Rules, replay: Replay, engine: Engine | None = None,
                      make_engine: Callable[[], Engine] = ReferenceEngine) -> str | None:
    """Replay ``replay`` through the engine interface; return None when the engine is stuck as claimed, else why not."""
    engine = engine if engine is not None else make_engine()
    problem = _replayed(rules, replay, engine)
    if problem is not None:
        return problem
    legal = engine.legal_plays()
    if legal:
        return f"the engine offers legal plays: {legal.glyphs()}"
    stuck_hand = replay.hands[replay.seat] & ~sum(1 << c for c in replay.plays)
    for card in bits_of(stuck_hand):
        try:
            engine.play(CARDS[card])
        except EngineRejection:
            continue
        return f"the engine accepted {CARDS[card].glyph} although it offered no legal play"
    return None


def _replayed(rules: Rules, replay: Replay, engine: Engine) -> str | None:
    """Deal the replay as the engine's first round, with no pass, and make its plays; None when the seat to move is
    the one the replay says. The engine's first round is dealt by seat 0: with uneven hands a replay of a later
    round is turned so that seat 0 deals it (DEAL-HANDS; the rules are the same at every seat)."""
    n = rules.players
    by = dealt_turn(rules, replay.hands, 0) or 0
    try:
        engine.new_game(rules)
        engine.start_round([CardSet.from_mask(h) for h in turned(replay.hands, by)], "none")
        for card in replay.plays:
            engine.play(CARDS[card])
    except EngineRejection as error:
        return f"the engine refused the replay: {error}"
    observation = engine.observe()
    if observation.to_move != (replay.seat + by) % n:
        return f"seat {(observation.to_move - by) % n} is to move, not seat {replay.seat}"
    return None


def confirm_play(rules: Rules, replay: Replay, card: int, legal: bool, engine: Engine | None = None) -> str | None:
    """Replay ``replay``; return None when the engine's legal plays hold the card ``card`` exactly when ``legal`` says."""
    engine = engine if engine is not None else ReferenceEngine()
    trouble = _replayed(rules, replay, engine)
    if trouble:
        return trouble
    offered = bool(engine.legal_plays().mask >> card & 1)
    return None if offered == legal else f"the engine {'offers' if offered else 'does not offer'} {CARDS[card].glyph}"


def confirm_rejection(rules: Rules, replay: Replay, card: int, rule: str | None,
                      engine: Engine | None = None) -> str | None:
    """Replay ``replay``; return None when playing ``card`` is refused citing ``rule`` (accepted, when ``rule`` is None)."""
    engine = engine if engine is not None else ReferenceEngine()
    trouble = _replayed(rules, replay, engine)
    if trouble:
        return trouble
    try:
        engine.play(CARDS[card])
    except EngineRejection as error:
        return None if rule is not None and error.rule_id == rule else f"the engine refused it: {error}"
    return None if rule is None else f"the engine accepted {CARDS[card].glyph}"
