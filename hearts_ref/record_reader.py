"""Reading a game record (``spec/record.schema.json``) into typed, frozen values.

Reading checks the *form* only: valid JSON, the schema, known variant values, cards that
exist and appear once per list, rounds numbered in order. Whether the game followed the
rules is the referee's question (:mod:`hearts_ref.referee`). Every problem of form raises
one :class:`~hearts_ref.errors.RecordError` with where (a JSON path) and why.

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

from pathlib import Path
from typing import Any, NamedTuple

from hearts_ref.cards import Card, parse_card
from hearts_ref.cardset import CardSet
from hearts_ref.errors import HeartsError, RecordError, RulesError
from hearts_ref.reading import check_schema, read_json
from hearts_ref.variants import Rules

__all__ = ["RecordTrick", "RecordRound", "GameRecord", "read_record", "record_from_json", "parse_cards",
           "rules_from_json"]

_ABSENT: Any = "absent"


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


class GameRecord(NamedTuple):
    """A whole recorded game: the rules, the rounds, the totals and winners as written."""

    rules: Rules
    seed: int | str | None
    rounds: tuple[RecordRound, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]


def read_record(source: str | bytes | Path, *, where: str = "") -> GameRecord:
    """Return the game record in ``source`` (a path, or the file's bytes or text).

    Raises :class:`RecordError` (where and why) when it is not a well-formed record.
    """
    if isinstance(source, Path):
        where = where or str(source)
    data = read_json(source, where=where)
    return record_from_json(data, where=where)


def record_from_json(data: Any, *, where: str = "") -> GameRecord:
    """Return the :class:`GameRecord` of an already parsed JSON value (see :func:`read_record`)."""
    check_schema(data, "record.schema.json", where=where)
    rules = rules_from_json(data["rules"], path="rules", where=where)
    rounds = []
    for i, item in enumerate(data["rounds"]):
        path = f"rounds[{i}]"
        if item["number"] != i + 1:
            raise _error(f"{path}.number", f"round {item['number']} where round {i + 1} was expected "
                         "(rounds are numbered 1, 2, 3 … in order)", where)
        hands = tuple(parse_cards(hand, f"{path}.hands[{seat}]", where) for seat, hand in enumerate(item["hands"]))
        passes = item.get("passes")
        if passes is not None:
            passes = tuple(parse_cards(cards, f"{path}.passes[{seat}]", where) for seat, cards in enumerate(passes))
        tricks = tuple(RecordTrick(t["leader"], _trick_cards(t["cards"], f"{path}.tricks[{k}].cards", where),
                                   t.get("winner"))
                       for k, t in enumerate(item["tricks"]))
        rounds.append(RecordRound(item["number"], item["dealer"], item["pass_direction"], hands, passes, tricks,
                                  tuple(item["points"]), tuple(item["scores"]), item.get("moon", _ABSENT)))
    return GameRecord(rules, data.get("seed"), tuple(rounds), tuple(data["totals"]), tuple(data["winners"]))


def rules_from_json(values: Any, *, path: str, where: str) -> Rules:
    """Return the :class:`Rules` of a JSON object of variant values; a bad value names its field."""
    try:
        return Rules.from_dict(values)
    except RulesError as error:
        field = f"{path}.{error.field}" if error.field else path
        message = str(error).removeprefix(f"{error.field}: ")
        raise _error(field, message, where) from None


def parse_cards(texts: Any, path: str, where: str) -> CardSet:
    """Return the set of the cards listed in ``texts``; a card that is not one, or is listed twice, is an error."""
    if not isinstance(texts, list):
        raise _error(path, f"expected a list of cards, got {type(texts).__name__}", where)
    cards = _trick_cards(texts, path, where)
    result = CardSet(cards)
    if len(result) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise _error(path, f"card {twice} is listed twice", where)
    return result


def _trick_cards(texts: list[Any], path: str, where: str) -> tuple[Card, ...]:
    cards = []
    for k, text in enumerate(texts):
        try:
            cards.append(parse_card(text))
        except HeartsError as error:
            raise _error(f"{path}[{k}]", str(error), where) from None
    return tuple(cards)


def _error(path: str, why: str, where: str) -> RecordError:
    return RecordError(why, where=f"{where}: {path}" if where else path)
