"""Perft: the number of legal play sequences from the start of play, depth by depth.

As chess programmers count move paths to check a move generator, a Hearts engine can count
play sequences from a fixed deal and compare them with ``spec/perft/*.json``. Depth ``d``
counts the sequences of exactly ``d`` plays from the first lead (passing is over, or there
is none); depth 4 with four players is the first trick.

>>> from hearts_ref.deals import deal
>>> from hearts_ref.round import start_round
>>> from hearts_ref.variants import Rules
>>> state = start_round(Rules(), deal(Rules(), seed=1), direction="none")
>>> [perft(state, d) for d in range(1, 6)]
[1, 4, 12, 48, 416]
>>> divide(state, 3)
{'2C': 12}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from hearts_ref.cards import CARDS, Card
from hearts_ref.cardset import CardSet, bits_of
from hearts_ref.engine import Engine, EngineRejection, Observation, observe_game
from hearts_ref.errors import HeartsError, RecordError
from hearts_ref.game import Game
from hearts_ref.reading import read_json
from hearts_ref.record_reader import parse_cards, rules_from_json
from hearts_ref.round import RoundState, start_round
from hearts_ref.spec import spec_dir
from hearts_ref.variants import Rules

__all__ = ["perft", "perft_counts", "divide", "perft_engine", "divide_engine", "perft_difference", "PerftNode",
           "PerftDeal", "PERFT_FORMAT", "perft_dir", "load_perft", "perft_names", "perft_from_json"]

PERFT_FORMAT = "hearts-ref-perft"


def perft(state: RoundState, depth: int) -> int:
    """Return the number of sequences of ``depth`` legal plays from ``state`` (the last level is counted, not played)."""
    if depth <= 0:
        return 1
    legal = state.legal
    if depth == 1:
        return legal.bit_count()
    return sum(perft(state.play(CARDS[card]), depth - 1) for card in bits_of(legal))


def perft_counts(state: RoundState, depth: int) -> tuple[int, ...]:
    """Return ``perft(state, d)`` for every d from 1 to ``depth``, in one walk of the tree.

    >>> from hearts_ref.deals import deal
    >>> from hearts_ref.variants import Rules
    >>> perft_counts(start_round(Rules(), deal(Rules(), seed=1), direction="none"), 5)
    (1, 4, 12, 48, 416)
    """
    counts = [0] * depth

    def walk(st: RoundState, level: int) -> None:
        legal = st.legal
        counts[level] += legal.bit_count()
        if level + 1 < depth:
            for card in bits_of(legal):
                walk(st.play(CARDS[card]), level + 1)

    if depth > 0:
        walk(state, 0)
    return tuple(counts)


def divide(state: RoundState, depth: int) -> dict[str, int]:
    """Return, for each legal first play, the number of sequences of ``depth`` plays that start with it."""
    return {str(CARDS[card]): perft(state.play(CARDS[card]), depth - 1) for card in bits_of(state.legal)}


def _refused(what: str, error: EngineRejection, plays: tuple[Card, ...] | None = None) -> EngineRejection:
    """An engine's refusal, named by what it refused: ``the deal: DEAL-HANDS: …``, ``play(QS): …``; ``plays``, for
    a refused play, the plays from the deal up to it and it (kept as ``error.plays``: where the rules allow it)."""
    named = EngineRejection(f"{what}: {error}")
    named.rule_id = error.rule_id
    named.refused, named.plays, named.cause = what, plays, error
    return named


class _Replayer:
    """Drives an engine to a prefix of plays by starting the round again and replaying them."""

    def __init__(self, engine: Engine, rules: Rules, hands: Sequence[CardSet]):
        self.engine, self.rules, self.hands = engine, rules, tuple(hands)
        self.at: tuple[Card, ...] | None = None
        self.replays = 0

    def go(self, prefix: tuple[Card, ...]) -> None:
        if self.at == prefix:
            return
        step = -2   # -2 the new game, -1 the deal, then the plays of the prefix
        try:
            self.engine.new_game(self.rules)
            step = -1
            self.engine.start_round(self.hands, "none")
            for step, card in enumerate(prefix):
                self.engine.play(card)
        except EngineRejection as error:
            raise _refused("its new game" if step == -2 else "the deal" if step == -1 else f"play({prefix[step]})",
                           error, prefix[:step + 1] if step >= 0 else None) from None
        self.at = prefix
        self.replays += 1

    def play(self, prefix: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
        self.go(prefix)
        try:
            self.engine.play(card)
        except EngineRejection as error:
            raise _refused(f"play({card})", error, prefix + (card,)) from None
        self.at = prefix + (card,)
        return self.at

    def count(self, prefix: tuple[Card, ...], depth: int) -> int:
        self.go(prefix)
        legal = tuple(self.engine.legal_plays())
        if depth == 1:
            return len(legal)
        return sum(self.count(self.play(prefix, card), depth - 1) for card in legal)


def perft_engine(engine: Engine, rules: Rules, hands: Sequence[CardSet], depth: int) -> int:
    """Return :func:`perft` as ``engine`` counts it, through the :class:`~hearts_ref.engine.Engine` interface.

    The interface has no undo, so each position is reached by starting the round again and
    replaying its plays (about ``depth`` plays per counted position).
    """
    if depth <= 0:
        return 1
    return _Replayer(engine, rules, hands).count((), depth)


def divide_engine(engine: Engine, rules: Rules, hands: Sequence[CardSet], depth: int) -> dict[str, int]:
    """Return :func:`divide` as ``engine`` counts it (see :func:`perft_engine`)."""
    replayer = _Replayer(engine, rules, hands)
    replayer.go(())
    firsts = tuple(engine.legal_plays())
    counts = {}
    for card in firsts:
        counts[str(card)] = 1 if depth <= 1 else replayer.count(replayer.play((), card), depth - 1)
    return counts


class PerftNode(NamedTuple):
    """A position of a perft walk at which the engine shows something else than the reference."""

    plays: tuple[Card, ...]        # the plays from the start of play to the position
    before: RoundState | None      # the reference before the last of them (None at the start of play)
    state: RoundState              # the reference at the position
    observation: Any               # what the engine shows there
    legal: Any                     # the engine's legal set there


def perft_difference(engine: Engine, rules: Rules, hands: Sequence[CardSet], depth: int, *,
                     budget: int = 10_000) -> PerftNode | None:
    """Return the first position, depth first in the reference's tree of plays, at which ``engine``'s
    observation or legal set differs from the reference's; None if none within ``depth`` plays.

    The walk plays the reference's legal cards on the engine and stops where the engine first
    differs, so the engine is never asked to play a card it does not allow; at most ``budget``
    positions are visited. Engine failures propagate.
    """
    replayer = _Replayer(engine, rules, hands)
    game = Game.new(rules)
    visited = 0

    def walk(before: RoundState | None, state: RoundState, plays: tuple[Card, ...]) -> PerftNode | None:
        nonlocal visited
        visited += 1
        if plays:
            replayer.play(plays[:-1], plays[-1])
        else:
            replayer.go(plays)
        observation, legal = engine.observe(), engine.legal_plays()
        expected: Observation = observe_game(game._replace(round=state))
        if observation != expected or getattr(legal, "mask", None) != state.legal:
            return PerftNode(plays, before, state, observation, legal)
        if len(plays) + 1 >= depth or visited >= budget:
            return None
        for card in bits_of(state.legal):
            found = walk(state, state.play(CARDS[card]), plays + (CARDS[card],))
            if found is not None or visited >= budget:
                return found
        return None

    return walk(None, start_round(rules, hands, direction="none"), ())


@dataclass(frozen=True)
class PerftDeal:
    """A fixed deal with its rules and its perft counts for depths 1, 2, …, len(counts)."""

    name: str
    description: str
    rule_ids: tuple[str, ...]
    preset: str
    rules: Rules
    hands: tuple[CardSet, ...]
    counts: tuple[int, ...] = ()
    divide: dict[str, int] | None = None     # the counts per first play at the deepest depth

    def start(self) -> RoundState:
        """Return the state at the start of play (no passing)."""
        return start_round(self.rules, self.hands, direction="none")

    def to_json(self) -> dict[str, Any]:
        return {"format": PERFT_FORMAT, "version": 1, "name": self.name, "description": self.description,
                "rule_ids": list(self.rule_ids), "preset": self.preset, "variant": self.rules.to_dict(),
                "hands": [[str(c) for c in hand] for hand in self.hands],
                "counts": list(self.counts), "divide": self.divide}


def perft_dir() -> Path:
    """Return the folder of the perft files, ``spec/perft/``."""
    return spec_dir() / "perft"


def perft_names() -> list[str]:
    """Return the names of the deals in ``spec/perft/``."""
    return sorted(path.stem for path in perft_dir().glob("*.json"))


def load_perft(name_or_path: str | Path) -> PerftDeal:
    """Return the perft deal named ``name_or_path`` (a file of ``spec/perft/``) or stored in that file.

    Raises :class:`RecordError` for an unknown name or a malformed file.
    """
    path = Path(name_or_path)
    if not path.suffix and not path.exists():
        path = perft_dir() / f"{name_or_path}.json"
        if not path.exists():
            raise RecordError(f"no perft deal {str(name_or_path)!r}; known: {', '.join(perft_names())} "
                              "(or give a file path)")
    return perft_from_json(read_json(path, where=str(path)), where=str(path))


def perft_from_json(data: Any, *, where: str = "") -> PerftDeal:
    """Return the :class:`PerftDeal` of a parsed perft file (see ``spec/vectors.md``)."""
    def fail(path: str, why: str) -> RecordError:
        return RecordError(why, where=f"{where}: {path}" if where else path)

    if not isinstance(data, dict) or data.get("format") != PERFT_FORMAT or data.get("version") != 1:
        raise fail("(top level)", f"not a perft file (expected format {PERFT_FORMAT!r}, version 1)")
    for key, kind in (("name", str), ("description", str), ("preset", str), ("variant", dict), ("hands", list),
                      ("counts", list), ("rule_ids", list)):
        if not isinstance(data.get(key), kind):
            raise fail(key, f"expected {kind.__name__}, got {type(data.get(key)).__name__}")
    rules = rules_from_json(data["variant"] | {"preset": data["preset"]}, path="variant", where=where)
    hands = tuple(parse_cards(hand, f"hands[{seat}]", where, decks=rules.decks)
                  for seat, hand in enumerate(data["hands"]))
    try:   # DECK-CARDS, DECK-REMOVED, DEAL-HANDS: the deal is one the rules deal
        start_round(rules, hands, direction="none")
    except HeartsError as error:
        raise fail("hands", str(error)) from None
    counts = data["counts"]
    if not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts):
        raise fail("counts", "counts must be whole numbers >= 0")
    divide_ = data.get("divide")
    if divide_ is not None and not (isinstance(divide_, dict) and all(isinstance(v, int) for v in divide_.values())):
        raise fail("divide", "expected an object of card -> count")
    return PerftDeal(data["name"], data["description"], tuple(data["rule_ids"]), data["preset"], rules, hands,
                     tuple(counts), divide_)
