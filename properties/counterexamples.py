"""Counterexamples: what a refutation found, printed readably, and the simplest stuck hand.

A refuted claim leaves a z3 model. :func:`from_model` reads the named card sets of
the claim from it; for a player with no legal play, :func:`simplest_stuck_hand` then
trades the hand's cards for lower ones while it stays stuck, so that the report shows
``Q♠ 2♥ 3♥ … K♥`` rather than whichever hand z3 happened to pick.

>>> from hearts_ref import Context, Rules
>>> example = Counterexample("FIRST-TRICK-NO-DEADLOCK", "following ♣ on the first trick",
...                          (("hand", 0b11 << 39),), Context(False, 0, True, False), 0b11 << 39)
>>> print(example.text())
FIRST-TRICK-NO-DEADLOCK refuted: following ♣ on the first trick
  hand: 2♥ 3♥ (2 cards)
  context: following ♣, first trick, hearts unbroken
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

import z3

from hearts_ref.cards import CARDS, Suit
from hearts_ref.cardset import BITS, CardSet, bits_of
from hearts_ref.legality import Context, rejecting_rule
from hearts_ref.symbolic import SymbolicCardSet, as_z3
from hearts_ref.variants import PARAMETERS, Rules

__all__ = ["Replay", "replay_round", "Counterexample", "stuck_counterexample", "blocking_rules",
           "variant_settings", "from_model", "simplest_stuck_hand", "is_stuck", "describe_context",
           "cards_text"]


def cards_text(mask: int) -> str:
    """The cards of ``mask`` as glyphs, with their number: ``Q♠ 2♥ (2 cards)``; ``(none)`` when empty."""
    if not mask:
        return "(none)"
    count = mask.bit_count()
    return f"{CardSet.from_mask(mask).glyphs()} ({count} card{'s' if count != 1 else ''})"


def describe_context(ctx: Context) -> str:
    """The play context in words: ``following ♣, first trick, hearts unbroken``."""
    what = "leading" if ctx.leading else f"following {Suit(ctx.led_suit).glyph}"
    when = "first trick" if ctx.first_trick else "a later trick"
    return f"{what}, {when}, hearts {'broken' if ctx.hearts_broken else 'unbroken'}"


def replay_round(rules: Rules) -> tuple[int, int]:
    """The round a replay is dealt in, and its dealer: the first round with no pass (PASS-CYCLE: every cycle has
    one; with no passing, round 1), dealt by seat ``(round - 1) mod n`` (DEAL-DEALER). With uneven hands the
    dealer says which seats hold the extra cards (DEAL-HANDS), so a replay's deal is one that round deals.

    >>> replay_round(Rules()), replay_round(Rules(players=3, pass_cycle="left-right-none", even_out="uneven"))
    ((4, 3), (3, 2))
    """
    number = next(r for r in range(1, 5) if rules.pass_direction(r) == "none")
    return number, (number - 1) % rules.players


@dataclass(frozen=True)
class Replay:
    """A deal of round ``round_number`` (dealt by ``dealer``, no pass: :func:`replay_round`) and the plays from it
    after which ``seat`` is to move, holding the counterexample's hand.

    ``finding`` says what the engine does there (by default: it offers no legal play).
    """

    hands: tuple[int, ...]
    plays: tuple[int, ...]
    seat: int
    finding: str = ""
    round_number: int = 1
    dealer: int = 0

    def with_finding(self, finding: str) -> Replay:
        return replace(self, finding=finding)

    def text(self) -> str:
        lines = [f"  reached on the engine from this deal, in round {self.round_number} "
                 f"(dealt by seat {self.dealer}, no pass):"]
        lines += [f"    seat {seat}: {CardSet.from_mask(hand).glyphs()}" for seat, hand in enumerate(self.hands)]
        played = " ".join(CARDS[i].glyph for i in self.plays) or "(none)"
        lines.append(f"    plays: {played}; then seat {self.seat} is to move and "
                     + (self.finding or "has no legal play"))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        found = {"round": self.round_number, "dealer": self.dealer,
                 "hands": [str(CardSet.from_mask(h)) for h in self.hands],
                 "plays": [str(CARDS[i]) for i in self.plays], "stuck_seat": self.seat}
        if self.finding:
            found["finding"] = self.finding
        return found


def blocking_rules(hand: int, ctx: Context, rules: Rules, legality: Any = None) -> tuple[tuple[str, int], ...]:
    """Which rules leave ``hand`` no play in ``ctx``: for each card the first rule that forbids it (the engine's
    :func:`~hearts_ref.legality.rejecting_rule`, asking the rules in the order the spec writes them), grouped by rule
    in the order met. Empty when the legality under test is not the engine's (``legality`` given).

    >>> from hearts_ref import CardSet, Rules
    >>> stuck = CardSet.parse("QS 2H 3H").mask
    >>> blocking_rules(stuck, Context(False, 0, True, False), Rules.preset("seed001")) == (("FIRST-NO-POINTS", stuck),)
    True
    """
    if legality is not None:
        return ()
    found: dict[str, int] = {}
    for index in bits_of(hand):
        rule = rejecting_rule(hand, ctx, rules, 1 << index) or "?"
        found[rule] = found.get(rule, 0) | 1 << index
    return tuple(found.items())


def variant_settings(rule_ids: tuple[str, ...] | list[str], rules: Rules) -> tuple[str, ...]:
    """The values of ``rules`` that differ from the default and change one of ``rule_ids``: ``first_trick_points =
    "forbidden"``, as the variant registry writes it.

    >>> variant_settings(["FIRST-NO-POINTS"], Rules.preset("seed001"))
    ('first_trick_points = "forbidden"',)
    """
    changes = rules.changes()
    return tuple(f"{p.name} = {json.dumps(changes[p.name])}" for p in PARAMETERS
                 if p.name in changes and set(p.rules) & set(rule_ids))


@dataclass(frozen=True)
class Counterexample:
    """A refutation: where it holds, the card sets that show it, and for a stuck player the hand and context."""

    invariant: str
    where: str
    sets: tuple[tuple[str, int], ...]
    context: Context | None = None
    hand: int | None = None
    replay: Replay | None = None
    notes: tuple[str, ...] = ()
    numbers: tuple[tuple[str, int], ...] = ()    # the numbers of the refutation (totals, say), by name
    blocked: tuple[tuple[str, int], ...] = ()    # a stuck hand: each rule that forbids some of its cards, and those
    settings: tuple[str, ...] = ()               # the variant values of those rules that differ from the default

    def with_replay(self, replay: Replay | None) -> Counterexample:
        return replace(self, replay=replay)

    def with_notes(self, *notes: str) -> Counterexample:
        return replace(self, notes=self.notes + notes)

    def blocked_text(self) -> str:
        """Which rules leave the stuck hand no play: ``FIRST-NO-POINTS forbids every card of the hand``."""
        if not self.blocked:
            return ""
        if len(self.blocked) == 1:
            text = f"{self.blocked[0][0]} forbids every card of the hand"
        else:
            text = "; ".join(f"{rule} forbids {CardSet.from_mask(cards).glyphs()}" for rule, cards in self.blocked)
        return text + (f" ({', '.join(self.settings)})" if self.settings else "")

    def text(self) -> str:
        """The counterexample as a few readable lines."""
        lines = [f"{self.invariant} refuted: {self.where}"]
        lines += [f"  {name}: {cards_text(mask)}" for name, mask in self.sets]
        lines += [f"  {name}: {number}" for name, number in self.numbers]
        if self.context is not None:
            lines.append(f"  context: {describe_context(self.context)}")
        if self.blocked:
            lines.append(f"  blocked by: {self.blocked_text()}")
        lines += [f"  {note}" for note in self.notes]
        if self.replay is not None:
            lines.append(self.replay.text())
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        ctx = self.context
        return {
            "invariant": self.invariant, "where": self.where,
            "sets": {name: str(CardSet.from_mask(mask)) for name, mask in self.sets},
            "context": None if ctx is None else {"leading": ctx.leading,
                                                 "led_suit": None if ctx.led_suit is None else Suit(ctx.led_suit).letter,
                                                 "first_trick": ctx.first_trick, "hearts_broken": ctx.hearts_broken},
            "hand": None if self.hand is None else str(CardSet.from_mask(self.hand)),
            "replay": None if self.replay is None else self.replay.to_dict(),
            "notes": list(self.notes), "numbers": dict(self.numbers),
            "blocked_by": [{"rule": rule, "cards": str(CardSet.from_mask(cards))} for rule, cards in self.blocked],
            "settings": list(self.settings),
        }


def stuck_counterexample(invariant: str, where: str, hand: int, ctx: Context, rules: Rules,
                         legality: Any = None) -> Counterexample:
    """The counterexample of a hand with no play in ``ctx``: the hand, and the rules that block each of its cards
    with the variant values that set them (:func:`blocking_rules`, :func:`variant_settings`)."""
    blocked = blocking_rules(hand, ctx, rules, legality)
    return Counterexample(invariant, where, (("hand", hand),), ctx, hand, blocked=blocked,
                          settings=variant_settings([rule for rule, _ in blocked], rules))


def from_model(invariant: str, where: str, shown: tuple[tuple[str, SymbolicCardSet], ...], model: z3.ModelRef, *,
               context: Context | None = None, hand: SymbolicCardSet | None = None,
               notes: tuple[str, ...] = ()) -> Counterexample:
    """Read a counterexample from a z3 ``model``: the concrete value of each shown card set (and number)."""
    sets = tuple((name, cards.evaluate(model)) for name, cards in shown if isinstance(cards, SymbolicCardSet))
    numbers = tuple((name, model.eval(as_z3(value), model_completion=True).as_long()) for name, value in shown
                    if not isinstance(value, SymbolicCardSet))
    return Counterexample(invariant, where, sets, context, None if hand is None else hand.evaluate(model),
                          notes=notes, numbers=numbers)


def simplest_stuck_hand(hand: int, fits: Any, stuck: Any, rules: Rules) -> int:
    """Return a hand as low as can be that still ``fits`` the situation and is still ``stuck``.

    Repeatedly trades the highest card for the lowest card in play not in the hand, as
    long as both predicates (on masks) stay true. Cards order as in
    :mod:`hearts_ref.cards`: clubs, diamonds, spades, hearts; two up to ace.
    """
    improved = True
    while improved:
        improved = False
        for card in sorted(bits_of(hand), reverse=True):
            for lower in bits_of(rules.deck_mask & ~hand & ((1 << card) - 1)):
                candidate = hand & ~(1 << card) | (1 << lower)
                if fits(candidate) and stuck(candidate):
                    hand, improved = candidate, True
                    break
            if improved:
                break
    return hand


def is_stuck(legality: Any, ctx: Context, rules: Rules) -> Any:
    """Return the predicate "this hand has no legal play in ``ctx``" for :func:`simplest_stuck_hand`."""
    return lambda hand: BITS.is_empty(legality(hand, ctx, rules, BITS))
