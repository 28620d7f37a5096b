"""Reading vector files: JSON, then every field checked by hand against ``spec/vectors.schema.json``.

The checks here follow the schema field by field (a test holds them to it) and add what a
schema cannot say: cards that exist, rule IDs of spec/, seats that exist for the number of
players. They run in a few milliseconds per file, where a general JSON Schema validator
takes seconds for the suite; ``validate_schema=True`` runs that validator as well.
Every problem ends in one :class:`~hearts_ref.errors.RecordError` saying where and why.

>>> cases = load_vectors(default_vectors_dir() / "rules" / "03-leading.json")
>>> cases[0].id, cases[0].rule_ids
('lead-open.two-of-clubs-only', ('LEAD-OPEN',))
>>> cases_from_json({"format": "hearts-ref-vectors", "version": 2, "suite": "1.0.0", "title": "", "cases": []},
...                 where="x.json")
Traceback (most recent call last):
hearts_ref.errors.RecordError: x.json: version: 2 is not 1 (this reader reads format version 1)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hearts_ref.cardset import CardSet
from hearts_ref.errors import RecordError
from hearts_ref.reading import JsonReader, check_schema, json_kind, read_json
from hearts_ref.record_reader import parse_cards, rules_from_json
from hearts_ref.spec import load_rules, spec_dir
from hearts_ref.vectors.model import (
    FORMAT_VERSION, KINDS, VECTORS_FORMAT, Case, Expect, FinalExpect, RoundCase, RoundExpect, Step,
)

__all__ = ["load_vectors", "read_vector_file", "cases_from_json", "default_vectors_dir"]

_CASE_ID = re.compile(r"^[a-z0-9]+([.-][a-z0-9]+)*$")
_SUITE = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+$")
_DIRECTIONS = ("left", "right", "across", "none")
_PHASES = ("pass", "play", "round-over", "game-over")


def default_vectors_dir() -> Path:
    """Return the folder of the committed vectors, ``spec/vectors/``."""
    return spec_dir() / "vectors"


def load_vectors(path: str | Path | None = None, *, validate_schema: bool = False) -> list[Case]:
    """Return the cases of a vector file, or of every ``*.json`` file under a folder (sorted by path).

    With no ``path``, the committed suite in ``spec/vectors/``. Raises :class:`RecordError`
    for a malformed file, and for a case ID that appears twice.
    """
    return list(iter_vectors(path, validate_schema=validate_schema))


def iter_vectors(path: str | Path | None = None, *, validate_schema: bool = False) -> Iterator[Case]:
    """The cases of :func:`load_vectors`, each file read as its first case is asked for (a run that stops early,
    or reports as it goes, does not wait for every file to be read)."""
    root = Path(path) if path is not None else default_vectors_dir()
    if root.is_dir():
        files = sorted(root.rglob("*.json"))
        if not files:
            raise RecordError("no vector files (*.json) in this folder", where=str(root))
    elif root.exists():
        files = [root]
    else:
        raise RecordError("no such file or folder", where=str(root))
    seen: dict[str, str] = {}
    for file in files:
        for case in read_vector_file(file, validate_schema=validate_schema):
            if case.id in seen:
                raise RecordError(f"case {case.id!r} is also in {seen[case.id]}", where=str(file))
            seen[case.id] = str(file)
            yield case


def read_vector_file(source: str | bytes | Path, *, where: str = "", validate_schema: bool = False) -> list[Case]:
    """Return the cases of one vector file: a path, or the file's bytes or text."""
    if isinstance(source, Path):
        where = where or str(source)
    return cases_from_json(read_json(source, where=where), where=where, validate_schema=validate_schema)


def cases_from_json(data: Any, *, where: str = "", validate_schema: bool = False) -> list[Case]:
    """Return the cases of an already parsed vector file (see :func:`read_vector_file`)."""
    if validate_schema:
        check_schema(data, "vectors.schema.json", where=where)
    read = _Reader(where)
    top = read.object(data, "", required=("format", "version", "suite", "title", "cases"),
                      optional=())
    if top["format"] != VECTORS_FORMAT:
        raise read.error("format", f"{top['format']!r} is not {VECTORS_FORMAT!r}")
    if top["version"] != FORMAT_VERSION or isinstance(top["version"], bool):
        raise read.error("version", f"{top['version']!r} is not {FORMAT_VERSION} (this reader reads format "
                         f"version {FORMAT_VERSION})")
    read.text(top["suite"], "suite", pattern=_SUITE)
    read.text(top["title"], "title")
    cases = read.array(top["cases"], "cases")
    return [read.case(item, f"cases[{i}]") for i, item in enumerate(cases)]


class _Reader(JsonReader):
    """The vector file's parts, each checked as ``spec/vectors.schema.json`` says, plus cards, rules and seats."""

    def __init__(self, where: str):
        super().__init__(where)
        self.known = load_rules()
        self.decks = 2   # the decks of the case being read: a second deck's copy (JC#2) with one deck is an error

    def seat(self, value: Any, path: str, players: int) -> int:
        seat = self.integer(value, path)
        if not 0 <= seat < players:
            raise self.error(path, f"seat {seat} does not exist with {players} players (seats 0 to {players - 1})")
        return seat

    def seat_values(self, value: Any, path: str, players: int) -> tuple[int, ...]:
        items = self.array(value, path)
        if len(items) != players:
            raise self.error(path, f"{len(items)} values for {players} players")
        return tuple(self.integer(v, f"{path}[{k}]") for k, v in enumerate(items))

    def rule_id(self, value: Any, path: str) -> str:
        self.text(value, path)
        if value not in self.known:
            raise self.error(path, f"{value[:80]!r} is not a rule ID of spec/rules")
        return value

    def cards(self, value: Any, path: str, *, most: int = 104) -> CardSet:
        """A card list of at most ``most`` cards (104: every card of two decks, DECK-CARDS)."""
        self.array(value, path, most=most)
        return parse_cards(value, path, self.where, decks=self.decks)

    # The parts of a case --------------------------------------------------------------------

    def case(self, value: Any, path: str) -> Case:
        item = self.object(value, path, required=("id", "description", "kind", "rule_ids", "variant", "rounds"),
                           optional=("source", "preset", "final"))
        case_id = self.text(item["id"], f"{path}.id", pattern=_CASE_ID)
        description = self.text(item["description"], f"{path}.description")
        if not description:
            raise self.error(f"{path}.description", "a case says what it shows: the description is empty")
        kind = self.text(item["kind"], f"{path}.kind", choices=KINDS)
        rule_ids = tuple(self.rule_id(r, f"{path}.rule_ids[{k}]")
                         for k, r in enumerate(self.array(item["rule_ids"], f"{path}.rule_ids", least=1)))
        if len(set(rule_ids)) != len(rule_ids):
            raise self.error(f"{path}.rule_ids", "a rule ID is listed twice")
        source, preset = item.get("source"), item.get("preset")
        for key, value_ in (("source", source), ("preset", preset)):
            if value_ is not None:
                self.text(value_, f"{path}.{key}")
        variant = item["variant"]
        if not isinstance(variant, dict):
            raise self.error(f"{path}.variant", f"expected an object, got {json_kind(variant)}")
        values = dict(variant)
        if preset is not None:
            values.setdefault("preset", preset)
        rules = rules_from_json(values, path=f"{path}.variant", where=self.where)
        self.decks = rules.decks
        rounds = tuple(self.round(r, f"{path}.rounds[{k}]", rules.players)
                       for k, r in enumerate(self.array(item["rounds"], f"{path}.rounds", least=1)))
        final = item.get("final")
        if final is not None:
            final = self.final(final, f"{path}.final", rules.players)
        return Case(case_id, description, kind, rule_ids, preset, rules, rounds, final, source, self.where)

    def round(self, value: Any, path: str, players: int) -> RoundCase:
        item = self.object(value, path, required=("dealer", "pass_direction", "hands", "steps"),
                           optional=("rejected_by", "result"))
        dealer = self.seat(item["dealer"], f"{path}.dealer", players)
        direction = self.text(item["pass_direction"], f"{path}.pass_direction", choices=_DIRECTIONS)
        hands = tuple(self.cards(h, f"{path}.hands[{seat}]")
                      for seat, h in enumerate(self.array(item["hands"], f"{path}.hands", least=1, most=6)))
        rejected = item.get("rejected_by")
        if rejected is not None:
            self.rule_id(rejected, f"{path}.rejected_by")
        elif len(hands) != players:
            raise self.error(f"{path}.hands", f"{len(hands)} hands for {players} players")
        steps = tuple(self.step(s, f"{path}.steps[{k}]", players)
                      for k, s in enumerate(self.array(item["steps"], f"{path}.steps")))
        result = item.get("result")
        if result is not None:
            result = self.result(result, f"{path}.result", players)
        return RoundCase(dealer, direction, hands, steps, rejected, result)

    def step(self, value: Any, path: str, players: int) -> Step:
        item = self.object(value, path, required=("seat",), optional=("play", "pass", "rejected_by", "expect"))
        seat = self.seat(item["seat"], f"{path}.seat", players)
        if ("play" in item) == ("pass" in item):
            raise self.error(path, "a step has exactly one of 'play' and 'pass'")
        if ("rejected_by" in item) == ("expect" in item):
            raise self.error(path, "a step has exactly one of 'expect' (a valid step) and 'rejected_by' (an invalid one)")
        if "play" in item:
            self.text(item["play"], f"{path}.play")
            kind, cards = "play", tuple(parse_cards([item["play"]], f"{path}.play", self.where, decks=self.decks))
        else:
            kind, cards = "pass", tuple(self.cards(item["pass"], f"{path}.pass", most=13))
        if "rejected_by" in item:
            return Step(kind, seat, cards, rejected_by=self.rule_id(item["rejected_by"], f"{path}.rejected_by"))
        return Step(kind, seat, cards, expect=self.expect(item["expect"], f"{path}.expect", players))

    def expect(self, value: Any, path: str, players: int) -> Expect:
        item = self.object(value, path, required=("phase", "to_move"),
                           optional=("legal", "hearts_broken", "trick_winner", "points_taken"))
        phase = self.text(item["phase"], f"{path}.phase", choices=_PHASES)
        to_move = None if item["to_move"] is None else self.seat(item["to_move"], f"{path}.to_move", players)
        legal = self.cards(item["legal"], f"{path}.legal") if "legal" in item else None
        broken = self.boolean(item["hearts_broken"], f"{path}.hearts_broken") if "hearts_broken" in item else None
        winner = self.seat(item["trick_winner"], f"{path}.trick_winner", players) if "trick_winner" in item else None
        points = self.seat_values(item["points_taken"], f"{path}.points_taken", players) \
            if "points_taken" in item else None
        return Expect(phase, to_move, legal, broken, winner, points)

    def result(self, value: Any, path: str, players: int) -> RoundExpect:
        item = self.object(value, path, required=("points", "scores", "moon", "totals"), optional=())
        moon = None if item["moon"] is None else self.seat(item["moon"], f"{path}.moon", players)
        return RoundExpect(self.seat_values(item["points"], f"{path}.points", players),
                           self.seat_values(item["scores"], f"{path}.scores", players), moon,
                           self.seat_values(item["totals"], f"{path}.totals", players))

    def final(self, value: Any, path: str, players: int) -> FinalExpect:
        item = self.object(value, path, required=("totals", "game_over", "winners"), optional=())
        winners = tuple(self.seat(w, f"{path}.winners[{k}]", players)
                        for k, w in enumerate(self.array(item["winners"], f"{path}.winners")))
        if len(set(winners)) != len(winners):
            raise self.error(f"{path}.winners", "a seat is listed twice")
        return FinalExpect(self.seat_values(item["totals"], f"{path}.totals", players),
                           self.boolean(item["game_over"], f"{path}.game_over"), winners)

