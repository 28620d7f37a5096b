"""Rule bugs planted in the engine for the proofs to catch, one at a time (the tests and ``bench/`` use them).

Each :class:`Bug` replaces one of the engine's real functions or constants (in every loaded
module that holds it, as a caller would see it) with a pytest ``MonkeyPatch``, under the
rules where the rule matters, and names the invariants of which at least one must then come
out wrong with a counterexample. Each bug is also shown real: the patched engine does
something the rules forbid on a concrete case. Rules broken: FOLLOW-SUIT, LEAD-OPEN,
LEAD-HEARTS, FIRST-EXCEPTION, SCORE-POINTS, SCORE-MOON, SCORE-JACK, SCORE-NO-TRICKS,
TRICK-WINNER, LEAD-WINNER, TRICK-ORDER, BREAK-DISCARD, BREAK-QUEEN, PASS-COUNT, PASS-CYCLE,
DEAL-HANDS, END-THRESHOLD, WIN-TIE, WIN-LOWEST, SCORE-TOTAL; and the z3 backend's count.

    with planted(bug):          # the engine broken, and the proofs' caches of its behaviour forgotten
        results = prove_bug(bug)
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from hearts_ref import CardSet, Context, Rules, cardset, deals, game, legality, round as round_module, scoring, symbolic
from hearts_ref.cardset import HEARTS, QUEEN, SUIT_MASKS
from hearts_ref.game import Game
from hearts_ref.round import RoundState, dealt_state

CLUBS = SUIT_MASKS[0]

__all__ = ["Bug", "BUGS", "planted", "prove_bug", "caught_by", "forget_engine_caches"]


def plant(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, value: Any) -> Any:
    """Replace ``owner.name`` by ``value``, and in every loaded module that holds the same object; return the original."""
    original = getattr(owner, name)
    monkeypatch.setattr(owner, name, value)
    for module in list(sys.modules.values()):
        for attr, held in list(vars(module).items()) if module is not None and hasattr(module, "__dict__") else ():
            if held is original and module is not owner:
                monkeypatch.setattr(module, attr, value)
    return original


@dataclass(frozen=True)
class Bug:
    """A planted bug: what it breaks, how to plant it, the rules it is proved under, the invariants that must catch
    it, and a concrete case where the patched engine misbehaves."""

    name: str
    plant: Callable[[pytest.MonkeyPatch], Any]
    settings: tuple[str, ...]            # house-rule settings on seed000 (``--set``), none for the preset itself
    caught_by: tuple[str, ...]           # invariants of which at least one must come out wrong
    real: Callable[[Any], bool]          # given what plant returned: whether the patched engine misbehaves

    @property
    def rules(self) -> Rules:
        from dataclasses import replace
        from hearts_ref.variants import parse_setting
        return replace(Rules.preset("seed000"), **dict(parse_setting(setting) for setting in self.settings))

    @property
    def cli_args(self) -> tuple[str, ...]:
        """The ``hearts-ref prove`` arguments that prove the invariants under this bug's rules."""
        if not self.settings:
            return ("--preset", "seed000")
        return tuple(arg for setting in self.settings for arg in ("--set", setting))


def forget_engine_caches() -> None:
    """Forget what the proofs learnt from running the engine (real states, planned rounds, the winners claim): a
    patched engine runs otherwise."""
    from properties.refinement import _winners_claim
    from properties.transitions import real_states
    from properties.witness import _planned
    for cached in (real_states, _planned, _winners_claim):
        cached.cache_clear()


@contextlib.contextmanager
def planted(bug: Bug) -> Iterator[Any]:
    """The engine with ``bug`` planted, for the ``with`` block; yields what the bug's plant returned."""
    forget_engine_caches()
    with pytest.MonkeyPatch.context() as monkeypatch:
        try:
            yield bug.plant(monkeypatch)
        finally:
            forget_engine_caches()


def prove_bug(bug: Bug, invariants: tuple[str, ...] | None = None) -> list[Any]:
    """Prove ``invariants`` (the bug's ``caught_by`` by default) under the bug's rules through the prover's API, with
    the engine as it is now (call inside :func:`planted` to prove the bug)."""
    from properties.catalogue import BY_ID
    from properties.prove import Session, prove_context, prove_game
    session = Session(timeout=60)
    results = []
    for invariant in invariants or bug.caught_by:
        if "game" in BY_ID[invariant].methods:
            results.append(prove_game(invariant, bug.rules, session))
        else:
            results.append(prove_context(invariant, bug.rules, session))
    return results


def caught_by(results: list[Any]) -> list[str]:
    """The invariants whose outcome is wrong and that give a counterexample (a refutation, replayed or concrete)."""
    return [r.invariant for r in results if not r.matches and (r.counterexamples or r.witness)]


def _first_state(rules: Rules = Rules()) -> RoundState:
    from hearts_ref.deals import complete_deal
    return dealt_state(rules, [h.mask for h in complete_deal(rules, {})], "none")


# --- the bugs ---------------------------------------------------------------------------------------

def _no_follow_suit(mp):
    return plant(mp, legality, "follow_suit", lambda hand, led_suit: hand & 0)


def _any_club_opens(mp):
    return plant(mp, legality, "opening_leads", lambda hand, rules: hand & CLUBS)


def _queen_twelve(mp):
    mp.setattr(scoring, "QUEEN_POINTS", 12)


def _moon_twenty_five(mp):
    mp.setattr(scoring, "MOON_POINTS", 25)


def _jack_plus_ten(mp):
    mp.setattr(scoring, "JACK_POINTS", 10)


def _no_tricks_six(mp):
    mp.setattr(scoring, "NO_TRICKS_BONUS", -6)


def _accepts_off_suit(mp):
    original = legality.rejecting_rule

    def rejecting_rule(hand, ctx, rules, card):
        if not ctx.leading and hand & card and not card & SUIT_MASKS[ctx.led_suit]:
            return None     # an off-suit card accepted, whatever the hand holds
        return original(hand, ctx, rules, card)
    plant(mp, legality, "rejecting_rule", rejecting_rule)
    return rejecting_rule


def _wrong_seat_leads(mp):
    original = RoundState.play

    def play(self, card, ops=cardset.BITS):
        after = original(self, card, ops)
        if len(self.trick) + 1 == self.rules.players and after.to_play >= 0:
            seat = (after.to_play + 1) % self.rules.players   # the seat after the winner leads
            after = after._replace(leader=seat, to_play=seat,
                                   legal=legality.legal_plays(after.hands[seat], after.context, self.rules, ops))
        return after
    mp.setattr(RoundState, "play", play)


def _counter_clockwise(mp):
    original = RoundState.play

    def play(self, card, ops=cardset.BITS):
        after = original(self, card, ops)
        if len(self.trick) + 1 < self.rules.players:
            seat = (self.to_play - 1) % self.rules.players
            after = after._replace(to_play=seat,
                                   legal=legality.legal_plays(after.hands[seat], after.context, self.rules, ops))
        return after
    mp.setattr(RoundState, "play", play)


def _count_off_by_one(mp):
    original = symbolic.Symbolic.count
    mp.setattr(symbolic.Symbolic, "count", staticmethod(lambda cards: original(cards) + (
        1 if isinstance(cards, symbolic.SymbolicCardSet) else 0)))


def _no_first_exception(mp):
    return plant(mp, legality, "first_trick_discards",
                 lambda hand, rules, ops=cardset.BITS: hand if rules.first_trick_points == "allowed"
                 else hand & ~cardset.POINT_CARDS)


def _no_only_hearts_lead(mp):
    original = legality.hearts_leads

    def hearts_leads(hand, ctx, rules, ops=cardset.BITS):
        if ctx.hearts_broken or not rules.must_break_hearts or rules.hearts_restriction != "lead":
            return original(hand, ctx, rules, ops)
        return hand & ~HEARTS
    return plant(mp, legality, "hearts_leads", hearts_leads)


def _queen_breaks(mp):
    original = legality.breaks_hearts

    def breaks_hearts(played, ctx, rules, ops=cardset.BITS):
        return ops.either(original(played, ctx, rules, ops), ops.non_empty(played & QUEEN))
    return plant(mp, legality, "breaks_hearts", breaks_hearts)


def _led_heart_breaks(mp):
    original = legality.breaks_hearts

    def breaks_hearts(played, ctx, rules, ops=cardset.BITS):
        led = ops.non_empty(played & HEARTS) if ctx.leading else False
        return ops.either(original(played, ctx, rules, ops), led)
    return plant(mp, legality, "breaks_hearts", breaks_hearts)


def _any_suit_wins(mp):
    original = round_module.trick_winner
    return plant(mp, round_module, "trick_winner",
                 lambda plays, led_suit, leader, players, ops=cardset.BITS: original(
                     plays, (led_suit + 1) % 4, leader, players, ops))


def _four_card_pass(mp):
    return plant(mp, round_module, "is_pass", lambda hand, cards, ops=cardset.BITS:
                 ops.count(cards) in (3, 4) and not cards & ~hand)


def _passes_backwards(mp):
    return plant(mp, round_module, "exchange", lambda hands, passes, offset: tuple(
        (hands[s] & ~passes[s]) | passes[(s + offset) % len(hands)] for s in range(len(hands))))


def _deals_from_dealer(mp):
    original = deals.deal

    def deal(rules, *, seed=None, rng=None, dealer=0):
        return original(rules, seed=seed, rng=rng, dealer=(dealer - 1) % rules.players)
    return plant(mp, deals, "deal", deal)


def _ties_ignored(mp):
    original = game.is_game_over
    plant(mp, game, "is_game_over", lambda totals, rounds, rules: original(totals, rounds, Rules(
        players=rules.players, pass_cycle=rules.pass_cycle, end_threshold=rules.end_threshold,
        end_comparison=rules.end_comparison, max_rounds=rules.max_rounds)))


def _highest_wins(mp):
    plant(mp, game, "winners", lambda totals: tuple(s for s, t in enumerate(totals) if t == max(totals)))


def _totals_forgotten(mp):
    original = Game._finish

    def finish(self, state):
        after = original(self, state)
        return after._replace(totals=tuple(t - s for t, s in zip(after.totals, self.totals)))
    mp.setattr(Game, "_finish", finish)


def _seat_zero_opens(mp):
    return plant(mp, legality, "opening_leader", lambda hands, rules, ops=cardset.BITS: 0)


# Two decks (seed 003's five or six players): each bug breaks one of the two-deck statements.
TWO_DECKS = ("players=5", "even_out=uneven", "decks=2", "pass_cycle=left-right-none")
_FIVE = Rules.preset("seed003", players=5)


def _one_queen_counted(mp):
    original = scoring.card_points

    def card_points(cards, rules, ops=cardset.BITS):
        points = original(cards, rules, ops)
        if rules.decks == 2:   # the second Q♠ scores nothing: 13 once, however many are taken
            points = points - ops.count(cards & QUEEN) * 13 + ops.when(ops.is_empty(cards & QUEEN), 0, 13)
        return points
    return plant(mp, scoring, "card_points", card_points)


def _moon_of_one_deck(mp):
    def takes_the_moon(cards, rules, ops=cardset.BITS):
        if rules.moon == "off":
            return False
        return ops.is_empty(cardset.POINT_CARDS & cardset.ONE_DECK & ~cards)   # the first deck's point cards only
    return plant(mp, scoring, "takes_the_moon", takes_the_moon)


def _second_copy_wins(mp):
    original = round_module.trick_winner
    return plant(mp, round_module, "trick_winner",
                 lambda plays, led_suit, leader, players, ops=cardset.BITS, seats=None, decks=1: original(
                     plays, led_suit, leader, players, ops, seats))   # one deck's rule: the higher index, copy #2, wins


def _second_two_of_clubs_opens(mp):
    original = legality.opening_leads
    return plant(mp, legality, "opening_leads", lambda hand, rules: original(hand, rules) | (
        hand & (1 << 52) if rules.decks == 2 else 0))


def _reality_of_play(check: Callable[[RoundState], bool]) -> Callable[[Any], bool]:
    return lambda _: check(_first_state())


def _play_all(state: RoundState) -> RoundState:
    from hearts_ref.cards import CARDS
    while state.to_play >= 0 and state.legal:
        state = state.play(CARDS[(state.legal & -state.legal).bit_length() - 1])
    return state


BUGS = [
    Bug("FOLLOW-SUIT removed", _no_follow_suit, (), ("PLAYS-AS-STATED",),
        lambda _: legality.legal_plays(CardSet.parse("3C 5D").mask, Context(False, 0, False, False), Rules())
        == CardSet.parse("3C 5D").mask),
    Bug("any club opens", _any_club_opens, (), ("PLAYS-AS-STATED", "OPENING-LEAD"),
        lambda _: legality.legal_plays(CardSet.parse("2C 9C KC").mask, Context(True, None, True, False), Rules())
        == CardSet.parse("2C 9C KC").mask),
    Bug("the Q♠ worth 12", _queen_twelve, (), ("SCORES-AS-STATED",),
        lambda _: scoring.card_points(QUEEN, Rules()) == 12),
    Bug("the moon worth 25", _moon_twenty_five, (), ("SCORES-AS-STATED",),
        lambda _: scoring.round_scores((cardset.POINT_CARDS, 0, 0, 0), Rules()).scores[1] == 25),
    Bug("the J♦ worth +10", _jack_plus_ten, ("jd_bonus=true",), ("SCORES-AS-STATED",),
        lambda _: scoring.card_points(cardset.JACK_OF_DIAMONDS_BIT, Rules(jd_bonus=True)) == 10),
    Bug("no trick worth −6", _no_tricks_six, ("avoid_all_tricks_bonus=true",), ("SCORES-AS-STATED",),
        lambda _: scoring.round_scores((CardSet.parse("2H").mask, 0, 0, 0), Rules(avoid_all_tricks_bonus=True))
        .scores[1] == -6),
    Bug("rejecting_rule accepts an off-suit card", _accepts_off_suit, (),
        ("REJECTIONS-AS-STATED",),
        lambda rejecting: rejecting(CardSet.parse("3C 5D").mask, Context(False, 0, False, False), Rules(),
                                    CardSet.parse("5D").mask) is None),
    Bug("the wrong seat leads the next trick", _wrong_seat_leads, (), ("PLAY-STEPS-AS-STATED",),
        _reality_of_play(lambda s: _play_four(s).to_play != _play_four(s).tricks[-1].winner)),
    Bug("the turn passes counter-clockwise", _counter_clockwise, (), ("PLAY-STEPS-AS-STATED",),
        _reality_of_play(lambda s: _play_one(s).to_play == (s.to_play - 1) % 4)),
    Bug("a count bug in the z3 algebra", _count_off_by_one, (), ("SCORES-AS-STATED",),
        lambda _: symbolic.SYMBOLIC.count(symbolic.SymbolicCardSet(0b11)) == 3),
    Bug("FIRST-EXCEPTION dropped", _no_first_exception, (),
        ("PLAYS-AS-STATED", "FIRST-TRICK-NO-DEADLOCK"),
        lambda _: legality.legal_plays(cardset.POINT_CARDS & ~CardSet.parse("AH").mask,
                                       Context(False, 0, True, False), Rules()) == 0),
    Bug("LEAD-HEARTS without its only-hearts exception", _no_only_hearts_lead, (),
        ("PLAYS-AS-STATED", "LEGAL-MOVE-EXISTS"),
        lambda _: legality.legal_plays(CardSet.parse("3H 9H").mask, Context(True, None, False, False), Rules()) == 0),
    Bug("the Q♠ breaks hearts", _queen_breaks, (), ("BREAKING-AS-STATED",),
        lambda _: legality.breaks_hearts(QUEEN, Context(False, 1, False, False), Rules())),
    Bug("a heart led breaks hearts", _led_heart_breaks, (), ("BREAKING-AS-STATED",),
        lambda _: legality.breaks_hearts(CardSet.parse("6H").mask, Context(True, None, False, False), Rules())),
    Bug("the next suit wins the trick", _any_suit_wins, (), ("UNIQUE-TRICK-WINNER",),
        lambda _: round_module.trick_winner([CardSet.parse(c).mask for c in ("2C", "KC", "AD", "5C")], 0, 0, 4) == 2),
    Bug("a pass of four cards accepted", _four_card_pass, (), ("PASSING-AS-STATED",),
        lambda _: round_module.is_pass(CardSet.parse("2C 3C 4C 5C 6C").mask, CardSet.parse("2C 3C 4C 5C").mask)),
    Bug("the cards passed the wrong way", _passes_backwards, (), ("PASSING-AS-STATED",),
        lambda _: round_module.exchange((0b001, 0b010, 0b100), (0b001, 0b010, 0b100), 1) != (0b100, 0b001, 0b010)),
    Bug("the deal starts at the dealer", _deals_from_dealer, (), ("SETUP-AS-STATED",),
        lambda original: original(Rules(), seed=1, dealer=0) != deals.deal(Rules(), seed=1, dealer=0)),
    Bug("ties ignored under play-on", _ties_ignored, ("ties=play-on",), ("GAME-END-AS-STATED", "GAME-ENDS"),
        lambda _: game.is_game_over((100, 50, 50, 70), 3, Rules(ties="play-on"))),
    Bug("the highest total wins", _highest_wins, (), ("GAME-END-AS-STATED",),
        lambda _: game.winners((100, 50, 60, 70)) == (0,)),
    Bug("totals forget earlier rounds", _totals_forgotten, (), ("TOTALS-ARE-SUMS",),
        lambda _: Game(Rules(), None, (), (5, 5, 5, 5), None, False)._finish(_play_all(_first_state())).totals
        == _play_all(_first_state()).score().scores),
    Bug("the second Q♠ scores nothing", _one_queen_counted, TWO_DECKS, ("SCORES-AS-STATED",),
        lambda _: scoring.card_points(CardSet.parse("QS QS#2").mask, _FIVE) == 13),
    Bug("the moon over one deck's point cards", _moon_of_one_deck, TWO_DECKS, ("SCORES-AS-STATED",),
        lambda _: scoring.takes_the_moon(cardset.POINT_CARDS & cardset.ONE_DECK, _FIVE)),
    Bug("of two identical cards the second deck's wins", _second_copy_wins, TWO_DECKS, ("UNIQUE-TRICK-WINNER",),
        lambda _: round_module.trick_winner([CardSet.parse(c).mask for c in ("JC", "JC#2", "2C", "3C", "4C")],
                                            0, 0, 5, decks=2) == 1),   # Pelle's J♣ beats Kalle's
    Bug("the second deck's 2♣ opens too", _second_two_of_clubs_opens, TWO_DECKS, ("PLAYS-AS-STATED", "OPENING-LEAD"),
        lambda _: legality.legal_plays(CardSet.parse("2C 2C#2 9C").mask, Context(True, None, True, False), _FIVE)
        == CardSet.parse("2C 2C#2").mask),
    Bug("seat 0 always opens", _seat_zero_opens, (), ("PLAY-STEPS-AS-STATED", "OPENING-LEAD"),
        lambda _: legality.opening_leader([CardSet.parse("3C").mask, CardSet.parse("2C").mask], Rules()) == 0),
]


def _play_one(state: RoundState) -> RoundState:
    from hearts_ref.cards import CARDS
    return state.play(CARDS[(state.legal & -state.legal).bit_length() - 1])


def _play_four(state: RoundState) -> RoundState:
    for _ in range(4):
        state = _play_one(state)
    return state


