"""Choice scripts: every decision of a game written as a small integer, for replay and shrinking.

A differential game is decided by a *script*: a list of integers, each an index into
the options the reference offers at that moment, lowest card first:

- a deal: each hand but the last, ranked among the subsets of the cards left (DEAL-HANDS);
  rank 0 is the lowest cards, so a shrunk deal reads ``2C 3C …`` for seat 0 (from an engine
  that deals for itself, the hands it dealt, written after the direction it was sent);
- the pass direction (PASS-CYCLE): "none" first, then the directions of the cycle; the
  runner follows the cycle, or, for an engine that plays one round, draws among them;
- before each pass, the seat that chooses next, among those that have not chosen yet
  (PASS-SIMULTANEOUS: seats choose in any order); 0 is the lowest, so a shrunk game passes
  in seat order;
- each pass: the rank of the three cards among the passing seat's hand (PASS-COUNT);
- each play: an index into the reference's legal plays (a game plays on past a difference with
  cards both sides allow: if the engine does not allow that card, the next card it does).

A decision with one option takes no integer. Any list of integers is a valid game (past
its end, every choice is 0), so Hypothesis can shrink a failing game toward fewer steps
and lower choices, and a script read back replays the same game.

>>> from hearts_ref.variants import Rules
>>> from hearts_ref.deals import deal
>>> hands = deal(Rules(), seed=3)
>>> code = deal_code(Rules(), hands)
>>> len(code), deal_from(Rules(), ListSource(code)) == hands
(3, True)
>>> str(deal_from(Rules(), ListSource([]))[0])
'2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC'
"""

from __future__ import annotations

import base64
import functools
import json
import zlib
from math import comb
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from hearts_ref.cards import CARDS, Card
from hearts_ref.cardset import CardSet, bits_of
from hearts_ref.errors import HeartsError, RecordError
from hearts_ref.reading import read_json
from hearts_ref.round import PASS_SIZE, RoundState
from hearts_ref.variants import Rules

__all__ = ["Source", "ListSource", "Decider", "ScriptDecider", "deal_code", "deal_from", "nth_card", "next_allowed", "rank_in",
           "subset_rank", "subset_of",
           "direction_options", "waiting_seats", "CASE_FORMAT", "encode_case", "decode_case"]

Source = Callable[[int], int]
"""A source of choices: called with the number of options, returns an index in ``range(count)``."""

CASE_FORMAT = "hearts-ref-conform-case"
_TOKEN_PREFIX = "hr1:"


class ListSource:
    """Choices read from a list; past its end every choice is 0 (the lowest option), or drawn by ``more``.

    ``position`` can be set back: the play loop forecasts a round's choices and then makes
    them again, reading the same values (a value drawn by ``more`` is kept for that).
    """

    def __init__(self, values: Sequence[int], more: Source | None = None):
        self.values = list(values)
        self.more = more
        self.position = 0

    def __call__(self, count: int) -> int:
        position = self.position
        self.position = position + 1
        if position >= len(self.values):
            if self.more is None:
                return 0
            self.values.append(self.more(count))
        return min(max(int(self.values[position]), 0), count - 1)


def nth_card(mask: int, n: int) -> int:
    """Return the index of the ``n``-th lowest card (0-based) of a non-empty mask."""
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def next_allowed(allowed: int, index: int) -> int:
    """The card of ``allowed`` (a non-empty mask) that comes first from ``index`` on, round to the lowest."""
    higher = allowed & ~((1 << index) - 1)
    chosen = higher or allowed
    return (chosen & -chosen).bit_length() - 1


def rank_in(mask: int, index: int) -> int:
    """Return how many cards of ``mask`` are lower than the card ``index``."""
    return (mask & ((1 << index) - 1)).bit_count()


def subset_rank(mask: int, chosen: int) -> int:
    """Return the rank of the cards ``chosen`` among the subsets of ``mask`` of that size.

    Subsets are ranked in colex order (the combinatorial number system), so rank 0 is the
    lowest cards of ``mask``.

    >>> subset_rank(0b1111, 0b0011), subset_rank(0b1111, 0b0101), subset_rank(0b1111, 0b1100)
    (0, 1, 5)
    """
    rank = k = 0
    chosen &= mask
    while chosen:   # each chosen card, lowest first: the k-th adds the subsets of k cards of those below it
        low = chosen & -chosen
        k += 1
        rank += comb((mask & (low - 1)).bit_count(), k)
        chosen ^= low
    return rank


def subset_of(mask: int, size: int, rank: int) -> int:
    """Return the subset of ``mask`` with ``size`` cards and colex rank ``rank`` (see :func:`subset_rank`)."""
    indices = list(bits_of(mask))
    chosen = 0
    position = len(indices)
    for k in range(size, 0, -1):
        position -= 1
        while comb(position, k) > rank:
            position -= 1
        rank -= comb(position, k)
        chosen |= 1 << indices[position]
    return chosen


def deal_code(rules: Rules, hands: Sequence[CardSet]) -> list[int]:
    """Return a deal as choices: each seat's hand (but the last) ranked among the cards left."""
    remaining = rules.deck_mask
    code = []
    for hand in hands[:-1]:
        code.append(subset_rank(remaining, hand.mask))
        remaining &= ~hand.mask
    return code


def deal_from(rules: Rules, take: Source, number: int = 1) -> tuple[CardSet, ...]:
    """DEAL-HANDS: return the deal of round ``number`` the source's choices describe (see :func:`deal_code`); with
    uneven hands the extra cards are the first seats' from the round's dealer's left (DEAL-DEALER)."""
    remaining = rules.deck_mask
    n, sizes = rules.players, rules.dealt_sizes(dealer=(number - 1) % rules.players)
    hands = []
    for seat in range(n - 1):
        size = sizes[seat]
        hand = subset_of(remaining, size, take(comb(remaining.bit_count(), size)))
        hands.append(CardSet.from_mask(hand))
        remaining &= ~hand
    hands.append(CardSet.from_mask(remaining))
    return tuple(hands)


def waiting_seats(state: RoundState) -> list[int]:
    """PASS-SIMULTANEOUS: the seats that have not chosen their pass yet, in seat order."""
    return [seat for seat, given in enumerate(state.passes) if not given]


@functools.lru_cache(maxsize=64)
def direction_options(rules: Rules) -> tuple[str, ...]:
    """PASS-CYCLE: the directions a round may be played with, "none" first (the simplest); worked out once per rules
    (every game of a campaign asks)."""
    cycle = {rules.pass_direction(number) for number in range(1, 5)}
    return ("none",) + tuple(d for d in ("left", "right", "across") if d in cycle)


class Decider(Protocol):
    """Makes the decisions of a game (a policy or a script) and records them as a script.

    ``snapshot()`` and ``restore()`` let the loop forecast a round's plays and make them again
    (a decider without them is asked one play at a time).
    """

    script: list[int]
    round_starts: list[int]

    def deal(self, rules: Rules, number: int) -> tuple[CardSet, ...]: ...
    def direction(self, rules: Rules, number: int) -> str: ...
    def passer(self, state: RoundState) -> int: ...
    def pass_cards(self, state: RoundState, seat: int) -> CardSet: ...
    def play(self, state: RoundState, allowed: int) -> Card: ...


class ScriptDecider:
    """Makes every decision of a game from a source of choices, and records them as a script."""

    def __init__(self, take: Source):
        self.take = take
        self.script: list[int] = []
        self.round_starts: list[int] = []

    def _choose(self, count: int) -> int:
        if count <= 1:
            return 0
        value = self.take(count)
        self.script.append(value)
        return value

    def deal(self, rules: Rules, number: int) -> tuple[CardSet, ...]:
        return deal_from(rules, self._choose, number)

    def direction(self, rules: Rules, number: int) -> str:
        options = direction_options(rules)
        return options[self._choose(len(options))]

    def take_deal(self, rules: Rules, hands: tuple[CardSet, ...]) -> None:
        """DEAL-HANDS: an engine that deals for itself dealt ``hands``: the script's deal is read past and
        replaced by them (a replay shows the same game only if the engine deals the same again)."""
        deal_from(rules, self.take, len(self.round_starts) or 1)
        self.script.extend(deal_code(rules, hands))

    def passer(self, state: RoundState) -> int:
        """The seat that chooses its pass next, among those that have not chosen (by its index, lowest first)."""
        waiting = waiting_seats(state)
        return waiting[self._choose(len(waiting))]

    def pass_cards(self, state: RoundState, seat: int) -> CardSet:
        hand = state.hands[seat]
        return CardSet.from_mask(subset_of(hand, PASS_SIZE, self._choose(comb(hand.bit_count(), PASS_SIZE))))

    def play(self, state: RoundState, allowed: int) -> Card:
        """One of the reference's legal plays, by its index; if the engine does not allow it, the next card
        of ``allowed`` (a mask: the legal plays on both sides)."""
        legal = state.legal
        count = legal.bit_count()
        index = nth_card(legal, self._choose(count)) if count > 1 else (legal & -legal).bit_length() - 1
        return CARDS[index if allowed >> index & 1 else next_allowed(allowed, index)]

    def snapshot(self) -> Any:
        """Where the choices stand, to come back to (None if the source cannot go back)."""
        position = getattr(self.take, "position", None)
        return None if position is None else (position, len(self.script))

    def restore(self, mark: Any) -> None:
        """Come back to a :meth:`snapshot`: the same choices will be read again."""
        self.take.position, length = mark
        del self.script[length:]


def encode_case(case: dict[str, Any]) -> str:
    """Return a case (rules, mode, script) as one short token for ``hearts-ref conform --replay``."""
    text = json.dumps(case, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return _TOKEN_PREFIX + base64.urlsafe_b64encode(zlib.compress(text, 9)).decode("ascii").rstrip("=")


def decode_case(source: str | Path, where: str = "--replay") -> dict[str, Any]:
    """Return the case of a ``--replay`` token, of a case's JSON text or of a case file; RecordError says why not.

    The JSON may be the case itself, or one case of a JSON report (its shrunk reproduction's
    case is replayed). ``where`` names the token in the error messages (a file names itself).
    """
    if isinstance(source, Path):
        data = read_json(source)
        where = str(source)
    elif source.strip().startswith(_TOKEN_PREFIX):
        raw = source.strip()[len(_TOKEN_PREFIX):]
        try:
            unpacked = zlib.decompressobj()
            text = unpacked.decompress(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))
            if not unpacked.eof or unpacked.unused_data:
                raise ValueError("cut short" if not unpacked.eof else "text after its end")
            data = json.loads(text)
        except (ValueError, zlib.error) as error:
            raise RecordError(f"not a replay token ({error})", where=where) from None
    else:
        data = read_json(source, where=where)
    if isinstance(data, dict):
        found = data.get("reproduction")
        if isinstance(found, dict) and isinstance(found.get("case"), dict):   # one case of a JSON report
            data = found["case"]
        elif isinstance(data.get("cases"), list):   # a whole report
            findings = [c.get("id") for c in data["cases"] if isinstance(c, dict) and "reproduction" in c]
            raise RecordError("this is a whole report; give one of its cases or its 'hr1:' token ("
                              + (f"its findings: {', '.join(map(str, findings[:5]))}" if findings
                                 else "it holds no shrunk finding") + ")", where=where)
    if not isinstance(data, dict) or data.get("format") != CASE_FORMAT:
        raise RecordError(f"expected a {CASE_FORMAT!r} object, or one case of a JSON report", where=where)
    if data.get("version", 1) != 1:
        raise RecordError(f"a case of version {data.get('version')!r}: this hearts-ref reads version 1", where=where)
    script = data.get("script")
    if not isinstance(script, list) or not all(type(v) is int and v >= 0 for v in script):
        raise RecordError("'script' must be a list of whole numbers, none below 0 (the game's choices)", where=where)
    if not isinstance(data.get("rules", {}), dict):
        raise RecordError("'rules' must be an object: the variant values that differ from the default", where=where)
    try:
        Rules.from_dict(data.get("rules", {}))
    except HeartsError as error:
        raise RecordError(f"rules: {error}", where=where) from None
    if data.get("mode", "differential") not in ("differential", "negative"):
        raise RecordError(f"'mode' must be 'differential' or 'negative', not {data.get('mode')!r}", where=where)
    finding = data.get("finding")
    if finding is not None and not (isinstance(finding, list) and len(finding) == 2
                                    and all(isinstance(part, str) for part in finding)):
        raise RecordError("'finding' must be [kind, rule] ([kind, cause] for an engine failure): the finding the "
                          "replay plays on to", where=where)
    return data
