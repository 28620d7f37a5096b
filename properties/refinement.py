"""Refinement: z3 proves that the engine computes exactly what the rules' formal statements say.

For the play rules (:data:`~properties.statements.PLAY_RULES`), in every play context and
for every hand and card: the engine's ``legal_plays`` holds the card exactly when every
statement allows it, and ``rejecting_rule`` — run on symbolic cards under
:func:`~hearts_ref.symbolic.explore`, one claim over all its paths — returns None exactly
then, and otherwise a rule whose statement the card breaks. The scoring
(``score_terms``, ``moon_shooter``), hearts breaking (``breaks_hearts``), the pass
(``is_pass``, ``RoundState._exchange``), the game's totals and end (``Game._finish``,
``winners``) and the setup (deck, deal, dealer, players) are claimed equal to their
statements in the same way. What the trick does to the round (``RoundState.play``) is in
:mod:`properties.transitions`.

Setup facts over small finite domains (the deck, the dealer of round r, …) are checked
exhaustively on the engine and reported as claims whose goal is that check's outcome.

>>> from hearts_ref import Rules
>>> from properties.solving import Prover
>>> prover = Prover(timeout=30)
>>> {prover.check(c).status for c in plays_as_stated(Rules(), None)}
{'proved'}
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

from hearts_ref.cards import CARDS, DECK
from hearts_ref.cardset import BITS
from hearts_ref.deals import deal
from hearts_ref.errors import RulesError
from hearts_ref.game import Game, winners
from hearts_ref.legality import breaks_hearts, rejecting_rule
from hearts_ref.round import dealt_state, is_pass
from hearts_ref.scoring import moon_shooter, score_terms
from hearts_ref.symbolic import SYMBOLIC, SymbolicNumber, all_of, any_of, as_z3, explore, iff, implies
from hearts_ref.variants import Rules
from properties import statements as said
from properties.contexts import LegalityFunction, situations, taken_piles
from properties.logic import ALL_CARDS, total
from properties.solving import Claim, card_variables, one_card

__all__ = ["REFINEMENTS", "plays_as_stated", "rejections_as_stated", "scores_as_stated", "breaking_as_stated",
           "passing_as_stated", "setup_as_stated", "game_end_as_stated", "totals_are_sums", "fact",
           "statement_allows"]

S = SYMBOLIC


def fact(label: str, holds: bool) -> Claim:
    """A claim checked exhaustively on the engine: its goal is the outcome of the check."""
    return Claim(label, (), bool(holds))


def statement_allows(rules: Rules, hand: Any, ctx: Any, card: Any) -> Any:
    """Whether every play statement allows the play: the legal set as the rules state it."""
    return all_of(said.allows(rule, rules, hand, ctx, card) for rule in said.PLAY_RULES)


def _legality(legality: LegalityFunction | None) -> LegalityFunction:
    if legality is not None:
        return legality
    from hearts_ref import legality as module
    return module.legal_plays


# Playing -----------------------------------------------------------------------------------

def plays_as_stated(rules: Rules, legality: LegalityFunction | None) -> list[Claim]:
    """PLAYS-AS-STATED: in each context, for every hand and card, the engine's legal set holds the card exactly when
    every play statement allows it (nothing forbidden is allowed, nothing allowed is forbidden)."""
    legal_plays = _legality(legality)
    hand, card = card_variables("hand", rules), card_variables("card", rules)
    claims = []
    for situation in situations(rules):
        legal = legal_plays(hand, situation.ctx, rules, S)
        engine = as_z3(S.non_empty(legal & card))
        claims.append(Claim(situation.describe(), (one_card(card),),
                            iff(engine, statement_allows(rules, hand, situation.ctx, card)),
                            (("hand", hand), ("card", card)), situation, hand, data=("play", card, engine)))
    return claims


def rejections_as_stated(rules: Rules, legality: LegalityFunction | None) -> list[Claim]:
    """REJECTIONS-AS-STATED: ``rejecting_rule`` returns None exactly for the cards the statements allow, and otherwise
    the ID of a play rule whose statement the card breaks; one claim over every path through it, per context."""
    hand, card = card_variables("hand", rules), card_variables("card", rules)
    claims = []
    for situation in situations(rules):
        ctx = situation.ctx
        allowed = statement_allows(rules, hand, ctx, card)
        paths = explore(rejecting_rule, hand, ctx, rules, card)
        goals = []
        for path in paths:
            result = path.result
            if result is None:
                right: Any = allowed
            elif isinstance(result, str) and result in said.PLAY_RULES:
                right = all_of([negation_of(said.allows(result, rules, hand, ctx, card))])
            else:   # an unknown answer, or the function raised
                right = False
            goals.append(implies(path.condition, right))
        claims.append(Claim(situation.describe(), (one_card(card),), all_of(goals),
                            (("hand", hand), ("card", card)), situation, hand,
                            data=("rejection", card, [(p.condition, p.result) for p in paths])))
    return claims


def negation_of(bit: Any) -> Any:
    from hearts_ref.symbolic import negation
    return negation(bit)


def breaking_as_stated(rules: Rules, legality: LegalityFunction | None) -> list[Claim]:
    """BREAKING-AS-STATED: while hearts are unbroken, ``breaks_hearts`` says a play breaks them exactly when
    BREAK-DISCARD or BREAK-QUEEN says so."""
    card = card_variables("card", rules)
    claims = []
    for situation in situations(rules):
        ctx = situation.ctx
        if ctx.hearts_broken:
            continue
        claims.append(Claim(situation.describe(), (one_card(card),),
                            iff(breaks_hearts(card, ctx, rules, S), said.breaks_hearts_by(rules, ctx, card)),
                            (("card", card),)))
    return claims


# Scoring -----------------------------------------------------------------------------------

def scores_as_stated(rules: Rules, legality: LegalityFunction | None) -> list[Claim]:
    """SCORES-AS-STATED: however the cards in play are taken, the engine's points, round scores and moon shooter are
    those of SCORE-POINTS, SCORE-JACK, SCORE-NO-TRICKS and SCORE-MOON."""
    # For any piles that share no card (not only those that share out the whole deck): both are functions of them.
    taken = [card_variables(f"taken{j}", rules) for j in range(rules.players)]
    points, scores = score_terms(taken, rules, S)
    expected = said.round_scores(rules, taken)
    goals = [as_z3(points[s]) == as_z3(said.raw_points(rules, pile)) for s, pile in enumerate(taken)]
    goals += [as_z3(scores[s]) == as_z3(expected[s]) for s in range(rules.players)]
    shown = tuple((f"taken by seat {j}", t) for j, t in enumerate(taken))
    hypotheses = [(taken[a] & taken[b]).is_empty_bit() for a in range(rules.players) for b in range(a + 1, rules.players)]
    shooters = said.moon_shooters(rules, taken)
    shooter_goals = []
    for path in explore(moon_shooter, tuple(taken), rules):
        result = path.result
        if result is None:
            right: Any = all_of(negation_of(shot) for shot in shooters)
        elif isinstance(result, int) and 0 <= result < rules.players:
            right = shooters[result]
        else:
            right = False
        shooter_goals.append(implies(path.condition, right))
    piles, shared_out = taken_piles(rules)
    points = said.round_points(rules)
    per_deck = ", per deck" if points != said.DECK_POINTS else ""
    sums = Claim(f"the card points of the cards taken sum to {points} («always sum to 26»{per_deck})", tuple(shared_out),
                 as_z3(total(said.score_points(rules, pile) for pile in piles)) == points,
                 tuple((f"taken by seat {j}", t) for j, t in enumerate(piles)))
    return [Claim("the round scores of any cards taken by the seats", tuple(hypotheses), all_of(goals), shown),
            Claim("the moon shooter of any cards taken by the seats", tuple(hypotheses), all_of(shooter_goals), shown),
            sums]


# Passing -----------------------------------------------------------------------------------

def passing_as_stated(rules: Rules, legality: LegalityFunction | None) -> list[Claim]:
    """PASSING-AS-STATED: ``is_pass`` accepts exactly the passes PASS-COUNT allows; the exchange gives each seat the
    cards PASS-SIMULTANEOUS says, in the direction PASS-CYCLE gives each round; odd players never pass across."""
    n = rules.players
    hand, passed = card_variables("hand", rules), card_variables("passed", rules)
    accepted = [implies(path.condition, iff(path.result is True, said.pass_count(rules, hand, passed)))
                for path in explore(is_pass, hand, passed, S)]
    claims = [Claim("a pass of any cards from any hand", (), all_of(accepted), (("hand", hand), ("passed", passed)))]
    hands = [card_variables(f"dealt{j}", rules) for j in range(n)]
    passes = [card_variables(f"pass{j}", rules) for j in range(n)]
    for direction in ("left", "right", "across"):
        if direction == "across" and n % 2:
            continue
        state = dealt_state(rules, hands, direction)._replace(passes=tuple(passes))
        after = state._exchange()
        claims.append(Claim(f"passing {direction}: who holds each card after the pass", (),
                            all_of([said.pass_simultaneous(rules, direction, hands, passes, after.hands),
                                    not after.passing]),
                            tuple((f"seat {j} after", h) for j, h in enumerate(after.hands))))
    for pass_cards in (True, False):
        for cycle, directions in said.CYCLES.items():
            try:
                cycled = Rules(players=n, pass_cards=pass_cards, pass_cycle=cycle)
            except RulesError:
                claims.append(fact(f"{cycle} with {n} players is rejected", "across" in directions and n % 2 == 1
                                   and pass_cards))
                continue
            for number in range(1, 2 * len(directions) + 1):
                direction = cycled.pass_direction(number)
                offsets = all(((s + cycled.pass_offset(direction)) % n) == said.recipient(cycled, direction, s)
                              for s in range(n))
                claims.append(fact(f"{cycle}, pass_cards={pass_cards}: round {number} passes {direction}",
                                   said.pass_cycle(cycled, number, direction) and offsets))
    return claims


# Setup -------------------------------------------------------------------------------------

def setup_as_stated(rules: Rules, legality: LegalityFunction | None) -> list[Claim]:
    """SETUP-AS-STATED: the players allowed, the deck, the cards removed, the deal and the dealer, checked on the
    engine against their statements for this number of players (every value where the values are few)."""
    n = rules.players
    claims = []
    for players in range(-1, 9):
        try:
            Rules(players=players, pass_cycle="left-right-none")
            accepted = True
        except RulesError:
            accepted = False
        claims.append(fact(f"players = {players} is {'accepted' if accepted else 'rejected'}",
                           accepted == said.players_count(players)))
    decks = said.decks_of(rules)
    two = {"decks": 2} if decks == 2 else {}
    claims.append(fact("the deck holds the 52 cards", said.deck_cards([str(c) for c in DECK])))
    if decks == 2:   # DECK-CARDS, two decks: every card twice, the second deck's copies in play
        claims.append(fact("two decks hold every card twice", said.deck_cards(
            [str(c) for c in CARDS if rules.deck_mask >> c.index & 1], 2)))
    removed = "no card" if rules.even_out == "uneven" else ", ".join(said.REMOVED[n]) or "no card"
    claims.append(fact(f"{n} players play {'two decks' if decks == 2 else 'the deck'} less {removed}",
                       said.deck_removed(n, rules.deck_mask, rules.even_out, decks)))
    for players in (5, 6):   # DECK-REMOVED: uneven hands with 5 or 6 players need two decks: one deck rejected
        try:
            Rules(players=players, pass_cycle="left-right-none", even_out="uneven", **_ONE_DECK)
            accepted = True
        except RulesError:
            accepted = False
        claims.append(fact(f"even_out = uneven with {players} players and one deck is rejected",
                           not accepted and not said.deck_removed(players, ALL_CARDS, "uneven")))
    order = [i for i in range(2 * 52) if rules.deck_mask >> i & 1]
    for seed in range(3):
        for dealer in range(n):
            shuffled = list(order)
            random.Random(seed).shuffle(shuffled)
            hands = [h.mask for h in deal(rules, seed=seed, dealer=dealer)]
            claims.append(fact(f"the deal from seed {seed}, dealer {dealer}",
                               said.deal_hands(n, dealer, shuffled, hands, said.extra_cards(rules), decks)))
    game = Game.new(Rules(players=n, pass_cycle="left-right-none", even_out=rules.even_out, max_rounds=n + 1, **two),
                    seed=0)
    from hearts_ref.simulate import play_round_choices
    rng = random.Random(0)
    dealers = []
    while not game.over and not game.deadlocked:
        dealers.append((game.round_number, game.dealer))
        game = play_round_choices(game, rng)
    claims.append(fact(f"a game of {n + 1} rounds played at random is not stuck", not game.deadlocked))
    dealers += [(r.number, r.dealer) for r in game.results]
    claims.append(fact(f"rounds 1 to {n + 1} are dealt by seats {', '.join(str(d) for _, d in dealers[:n + 1])}",
                       all(said.deal_dealer(n, number, dealer) for number, dealer in dealers)))
    return claims


# The game: totals, the end, the winners --------------------------------------------------------

def _rounds_to_score(rules: Rules) -> list[Any]:
    """A few finished rounds to add to symbolic totals: two random ones and one where seat 0 takes every card."""
    from hearts_ref.simulate import random_card
    rng = random.Random(7)
    found = []
    for seed in (1, 2):
        state = dealt_state(rules, [h.mask for h in deal(rules, seed=seed)], "none")
        while state.to_play >= 0 and state.legal:
            state = state.play(random_card(state, rng))
        if state.to_play < 0:
            found.append(state)
    return found


def _symbolic_totals(rules: Rules) -> tuple[SymbolicNumber, ...]:
    import z3
    return tuple(SymbolicNumber(z3.Int(f"total{j}")) for j in range(rules.players))


def game_end_as_stated(rules: Rules, legality: LegalityFunction | None) -> list[Claim]:
    """GAME-END-AS-STATED: from any totals, after any of a few rounds, ``Game._finish`` ends the game exactly when
    END-THRESHOLD and WIN-TIE say so, and ``winners`` names exactly the players WIN-LOWEST names."""
    rules = Rules(players=rules.players, pass_cycle="left-right-none" if rules.players % 2 else "left-right-across-none",
                  end_threshold=rules.end_threshold, end_comparison=rules.end_comparison, max_rounds=rules.max_rounds,
                  ties=rules.ties)   # the end of the game reads only these; the scores are those of a few rounds
    totals = _symbolic_totals(rules)
    claims = []
    before = [0] + ([rules.max_rounds - 1] if rules.max_rounds > 1 else [])
    for state in _rounds_to_score(rules)[:1]:   # the totals are symbolic: one round's scores shift them as any would
        scores = state.score().scores
        for played in before:
            game = Game(rules, None, (None,) * played, totals, None, False)
            goals = []
            for path in explore(Game._finish, game, state, prune=True):
                after = path.result
                right = False if path.raised else iff(after.over, said.game_ends(rules, after.totals, played + 1))
                goals.append(implies(path.condition, right))
            claims.append(Claim(f"after round {played + 1} scoring {', '.join(map(str, scores))}", (), all_of(goals),
                                tuple((f"total of seat {j} before", t) for j, t in enumerate(totals))))
    return claims + [_winners_claim(rules.players)]


@cache
def _winners_claim(players: int) -> Claim:
    """WIN-LOWEST: ``winners`` of any totals names exactly the seats WIN-LOWEST names (it reads only the totals, so
    the claim is made once per number of players)."""
    rules = Rules(players=players, pass_cycle="left-right-none")
    totals = _symbolic_totals(rules)
    goals = []
    for path in explore(winners, totals, prune=True):
        right = False if path.raised else all_of(
            iff(seat in path.result, said.win_lowest(rules, totals, seat)) for seat in range(players))
        goals.append(implies(path.condition, right))
    return Claim("the winners of any totals", (), all_of(goals),
                 tuple((f"total of seat {j}", t) for j, t in enumerate(totals)))


def totals_are_sums(rules: Rules, legality: LegalityFunction | None) -> list[Claim]:
    """TOTALS-ARE-SUMS: a game starts with every total 0, and ``Game._finish`` adds each round's scores to any totals
    (SCORE-TOTAL), so the totals are the sums of the round scores."""
    canonical = Rules(players=rules.players, pass_cycle="left-right-none")
    totals = _symbolic_totals(canonical)
    claims = [fact("a new game's totals are 0", Game.new(canonical).totals == (0,) * canonical.players)]
    for state in _rounds_to_score(canonical):
        scores = state.score().scores
        game = Game(canonical, None, (), totals, None, False)
        goals = [implies(path.condition, False if path.raised else said.score_total(canonical, totals, scores,
                                                                                     path.result.totals))
                 for path in explore(Game._finish, game, state, prune=True)]
        claims.append(Claim(f"a round scoring {', '.join(map(str, scores))} added to any totals", (), all_of(goals),
                            tuple((f"total of seat {j} before", t) for j, t in enumerate(totals))))
    return claims


_ONE_DECK = {"decks": 1}   # said explicitly: 5 or 6 players with uneven hands and one deck are refused

REFINEMENTS: dict[str, Callable[[Rules, Any], list[Claim]]] = {
    "PLAYS-AS-STATED": plays_as_stated,
    "REJECTIONS-AS-STATED": rejections_as_stated,
    "SCORES-AS-STATED": scores_as_stated,
    "BREAKING-AS-STATED": breaking_as_stated,
    "PASSING-AS-STATED": passing_as_stated,
    "SETUP-AS-STATED": setup_as_stated,
    "GAME-END-AS-STATED": game_end_as_stated,
    "TOTALS-ARE-SUMS": totals_are_sums,
}

_ = (ALL_CARDS, BITS, any_of)
