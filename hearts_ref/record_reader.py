"""Reading a game record (``spec/record.schema.json``) into typed, frozen values.

Reading checks the *form* only: valid JSON, the fields of the schema, known variant values,
cards that exist and appear once per list, rounds numbered in order. Whether the game followed
the rules is the referee's question (:mod:`hearts_ref.referee`). Every problem of form raises
one :class:`~hearts_ref.errors.RecordError` with where (a JSON path) and why.

The fields are checked by hand, as the schema says (tests hold the two together), which is
fast; ``validate_schema=True`` first runs a JSON Schema validator too, whose message names
the schema rule that fails.

>>> from hearts_ref.records import dumps, game_record
>>> from hearts_ref.simulate import random_game
>>> from hearts_ref.variants import Rules
>>> record = read_record(dumps(game_record(random_game(Rules(), seed=2))))
>>> record.rounds[0].tricks[0].cards[0], len(record.rounds[0].hands)
(Card.parse('2C'), 4)
>>> read_record('{"format": "hearts-ref-game", "version": 1, "rules": {"moon": "double"}, '
...             '"rounds": [], "totals": [], "winners": []}')
Traceback (most recent call last):
hearts_ref.errors.RecordError: rules.moon: 'double' is not allowed; choose one of 'add', 'subtract', 'off'
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

from hearts_ref.cards import COPY_OFFSET, Card, parse_card
from hearts_ref.cardset import CardSet
from hearts_ref.errors import RulesError
from hearts_ref.reading import JsonReader, check_schema, json_kind, read_json
from hearts_ref.variants import Rules

__all__ = ["RecordTrick", "RecordRound", "RecordDeadlock", "GameRecord", "read_record", "record_from_json",
           "parse_cards", "rules_from_json", "CARD_TEXT"]

CARD_TEXT = re.compile(r"^(10|[2-9TJQKA])[CDSH](#2)?$")   # the card pattern of the schemas (#2: a second deck's copy)
_RULE_ID = re.compile(r"[A-Z]+(-[A-Z]+)+")
_ABSENT: Any = "absent"
_DIRECTIONS = ("left", "right", "across", "none")


class RecordTrick(NamedTuple):
    """One recorded trick: the leader, the cards in play order, the winner written in the record (or None)."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None


class RecordRound(NamedTuple):
    """One recorded round, as written: the referee recomputes everything derived from it."""

    number: int
    dealer: int
    direction: str
    hands: tuple[CardSet, ...]
    passes: tuple[CardSet, ...] | None
    tricks: tuple[RecordTrick, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    moon: int | None | str        # the string "absent" when the record leaves it out


class RecordDeadlock(NamedTuple):
    """The recorded round that deadlocked (FIRST-NO-POINTS): its deal (a round without tricks or
    scores), the cards played in it, and the seat said to have no legal play, its hand and the rule."""

    round: RecordRound
    plays: tuple[Card, ...]
    seat: int
    hand: CardSet
    rule: str


class GameRecord(NamedTuple):
    """A whole recorded game: the rules, the rounds, the totals and winners as written, and the deadlock if any."""

    rules: Rules
    seed: int | str | None
    rounds: tuple[RecordRound, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    deadlock: RecordDeadlock | None = None


def read_record(source: str | bytes | Path, *, where: str = "", validate_schema: bool = False) -> GameRecord:
    """Return the game record in ``source`` (a path, or the file's bytes or text).

    Raises :class:`RecordError` (where and why) when it is not a well-formed record.
    """
    if isinstance(source, Path):
        where = where or str(source)
    data = read_json(source, where=where)
    return record_from_json(data, where=where, validate_schema=validate_schema)


def record_from_json(data: Any, *, where: str = "", validate_schema: bool = False) -> GameRecord:
    """Return the :class:`GameRecord` of an already parsed JSON value (see :func:`read_record`)."""
    if validate_schema:
        check_schema(data, "record.schema.json", where=where)
    read = _CardReader(where)
    top = read.object(data, "", required=("format", "version", "rules", "rounds", "totals", "winners"),
                      optional=("seed", "deadlock"))
    if top["format"] != "hearts-ref-game":
        raise read.error("format", f"{str(top['format'])[:40]!r} is not 'hearts-ref-game'")
    if read.integer(top["version"], "version") != 1:
        raise read.error("version", f"{top['version']} is not 1 (this reader reads record version 1)")
    seed = top.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
        raise read.error("seed", f"expected a number, a string or null, got {json_kind(seed)}")
    rules = rules_from_json(top["rules"], path="rules", where=where)
    read.decks, read.players = rules.decks, rules.players
    rounds = tuple(_round(read, item, f"rounds[{i}]", i + 1)
                   for i, item in enumerate(read.array(top["rounds"], "rounds")))
    winners = tuple(read.seat(w, f"winners[{k}]") for k, w in enumerate(read.array(top["winners"], "winners")))
    deadlock = _deadlock(read, top["deadlock"], len(rounds) + 1) if "deadlock" in top else None
    return GameRecord(rules, seed, rounds, read.per_seat(top["totals"], "totals"), winners, deadlock)


def _round(read: _CardReader, value: Any, path: str, number: int) -> RecordRound:
    item = read.object(value, path, required=("number", "dealer", "pass_direction", "hands", "tricks", "points",
                                              "scores"), optional=("passes", "moon"))
    dealt = _deal(read, item, path, number)
    tricks = tuple(_trick(read, t, f"{path}.tricks[{k}]")
                   for k, t in enumerate(read.array(item["tricks"], f"{path}.tricks")))
    moon = item.get("moon", _ABSENT)
    if moon is not _ABSENT and moon is not None:
        read.integer(moon, f"{path}.moon")
    return dealt._replace(tricks=tricks, points=read.per_seat(item["points"], f"{path}.points"),
                          scores=read.per_seat(item["scores"], f"{path}.scores"), moon=moon)


def _deadlock(read: _CardReader, value: Any, number: int) -> RecordDeadlock:
    path = "deadlock"
    item = read.object(value, path, required=("number", "dealer", "pass_direction", "hands", "plays", "seat", "hand",
                                              "rule"), optional=("passes",))
    dealt = _deal(read, item, path, number)
    plays = tuple(_card(read, text, f"{path}.plays[{k}]")
                  for k, text in enumerate(read.array(item["plays"], f"{path}.plays")))
    if len(set(plays)) != len(plays):
        raise read.error(f"{path}.plays", f"card {next(c for c in plays if plays.count(c) > 1)} is played twice")
    seat = read.integer(item["seat"], f"{path}.seat", least=0, most=5)
    hand = parse_cards(item["hand"], f"{path}.hand", read.where, decks=read.decks)
    rule = read.text(item["rule"], f"{path}.rule")
    if not _RULE_ID.fullmatch(rule):
        raise read.error(f"{path}.rule", f"{rule[:40]!r} is not a rule ID (such as 'FIRST-NO-POINTS')")
    return RecordDeadlock(dealt, plays, seat, hand, rule)


def _deal(read: _CardReader, item: dict[str, Any], path: str, number: int) -> RecordRound:
    """The deal of a round (number, dealer, direction, hands, passes), as a round without tricks or scores."""
    if read.integer(item["number"], f"{path}.number", least=1) != number:
        raise read.error(f"{path}.number", f"round {item['number']} where round {number} was expected "
                         "(rounds are numbered 1, 2, 3 … in order)")
    dealer = read.integer(item["dealer"], f"{path}.dealer", least=0, most=5)
    direction = read.text(item["pass_direction"], f"{path}.pass_direction", choices=_DIRECTIONS)
    hands = tuple(parse_cards(hand, f"{path}.hands[{seat}]", read.where, decks=read.decks)
                  for seat, hand in enumerate(read.array(item["hands"], f"{path}.hands", least=3, most=6)))
    passes = item.get("passes")
    if passes is not None:
        passes = tuple(parse_cards(read.array(cards, f"{path}.passes[{seat}]", least=3, most=3),
                                   f"{path}.passes[{seat}]", read.where, decks=read.decks)
                       for seat, cards in enumerate(read.array(passes, f"{path}.passes")))
    return RecordRound(number, dealer, direction, hands, passes, (), (), (), _ABSENT)


def _trick(read: _CardReader, value: Any, path: str) -> RecordTrick:
    item = read.object(value, path, required=("leader", "cards"), optional=("winner",))
    leader = read.integer(item["leader"], f"{path}.leader", least=0, most=5)
    texts = read.array(item["cards"], f"{path}.cards", least=1, most=9)   # 5 + 4 extra cards on an uneven first trick
    cards = tuple(_card(read, text, f"{path}.cards[{k}]") for k, text in enumerate(texts))
    winner = item.get("winner")
    if winner is not None or "winner" in item:
        winner = read.integer(winner, f"{path}.winner", least=0, most=5)
    return RecordTrick(leader, cards, winner)


def rules_from_json(values: Any, *, path: str, where: str) -> Rules:
    """Return the :class:`Rules` of a JSON object of variant values; a bad value names its field."""
    read = JsonReader(where)
    if not isinstance(values, dict):
        raise read.error(path, f"expected an object of variant values, got {json_kind(values)}")
    if "preset" in values:
        read.text(values["preset"], f"{path}.preset")
    try:
        return Rules.from_dict(values)
    except RulesError as error:
        field = f"{path}.{error.field}" if error.field else path
        message = str(error).removeprefix(f"{error.field}: ")
        raise read.error(field, message) from None


def parse_cards(texts: Any, path: str, where: str, *, decks: int = 2) -> CardSet:
    """Return the set of the cards listed in ``texts``; a card that is not one, or is listed twice, is an error,
    and so is a second deck's copy (``JC#2``) when the rules play one deck (``decks = 1``, DECK-CARDS)."""
    read = _CardReader(where, decks)
    cards = [_card(read, text, f"{path}[{k}]") for k, text in enumerate(read.array(texts, path))]
    result = CardSet(cards)
    if len(result) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise read.error(path, f"card {twice} is listed twice")
    return result


class _CardReader(JsonReader):
    """A reader of cards under rules of ``decks`` decks: a second deck's copy with one deck is an error."""

    def __init__(self, where: str, decks: int = 2, players: int = 6):
        super().__init__(where)
        self.decks, self.players = decks, players

    def seat(self, value: Any, path: str) -> int:
        """A seat of the game: a whole number from 0 to players − 1."""
        seat = self.integer(value, path, least=0, most=5)
        if seat >= self.players:
            raise self.error(path, f"{seat} is not a seat of a {self.players}-player game (seats 0 to {self.players - 1})")
        return seat

    def per_seat(self, value: Any, path: str) -> tuple[int, ...]:
        """One whole number per seat (the totals, a round's points or scores)."""
        numbers = self.integers(value, path)
        if len(numbers) != self.players:
            raise self.error(path, f"{len(numbers)} numbers for a {self.players}-player game: one per seat")
        return numbers


def _card(read: _CardReader, text: Any, path: str) -> Card:
    card = _READ_CARDS.get(text) if isinstance(text, str) else None   # a card text read before: the same card
    if card is None:
        if not isinstance(text, str):
            raise read.error(path, f"expected a card such as 'QS', got {json_kind(text)}")
        if not CARD_TEXT.match(text):
            raise read.error(path, f"not a card: {text[:20]!r} (rank 2-10, J, Q, K, A or T, then suit C D S H; "
                             "a second deck's copy with #2 after it, 'JC#2')")
        card = _READ_CARDS[text] = parse_card(text)
    if card.index >= COPY_OFFSET and read.decks < 2:
        raise read.error(path, f"DECK-CARDS: {text!r} is a second deck's card, but these rules play one deck "
                         "(decks = 1)")
    return card


_READ_CARDS: dict[str, Card] = {}   # every card text read well, and its card (a few hundred spellings at most)
