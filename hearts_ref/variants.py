"""The variant registry, the presets, and the frozen :class:`Rules` value.

Every parameter hearts-ref can vary is declared once in :data:`PARAMETERS` with its
allowed values, its default (seed 000's "Reglene vi bruker"), the rule IDs it changes
and its source. Names follow OpenSpiel's Hearts parameters where they mean the same.
``spec/variants.json`` is generated from this module (``hearts-ref rules --registry``).

>>> rules = Rules.preset("seed000", jd_bonus=True)
>>> rules.jd_bonus, rules.players, rules.points_per_round
(True, 4, 16)
>>> Rules.preset("seed000", moon="double")
Traceback (most recent call last):
hearts_ref.errors.RulesError: moon: 'double' is not allowed; choose one of 'add', 'subtract', 'off'
>>> Rules.preset("seed000", moon="ad")
Traceback (most recent call last):
hearts_ref.errors.RulesError: moon: 'ad' is not allowed; did you mean add? choose one of 'add', 'subtract', 'off'
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from hearts_ref.cards import CARDS, Card, Rank, Suit
from hearts_ref.cardset import ALL_CARDS, ONE_DECK
from hearts_ref.errors import RulesError

__all__ = ["Parameter", "PARAMETERS", "PRESETS", "EXPECTED_UNSOUND", "Rules", "DEFAULT_PRESET",
           "REMOVED_CARDS", "PASS_DIRECTIONS", "parse_setting", "parse_settings", "setting_text", "suggest"]


@dataclass(frozen=True)
class Parameter:
    """One variant parameter: its allowed values, default, the rules it changes, its source."""

    name: str
    values: tuple[Any, ...] | type
    default: Any
    rules: tuple[str, ...]
    source: str
    doc: str
    minimum: int | None = None

    def allows(self, value: Any) -> bool:
        if self.values is int:
            return (isinstance(value, int) and not isinstance(value, bool)
                    and value >= (self.minimum or 0))
        if self.values is bool:
            return isinstance(value, bool)
        # the same type as well: 4.0 or True is not the player count 4 (JSON input may carry either)
        return any(value == allowed and type(value) is type(allowed) for allowed in self.values)

    def describe_allowed(self) -> str:
        if self.values is int:
            return f"a whole number >= {self.minimum or 0}"
        if self.values is bool:
            return "true or false"
        return "one of " + ", ".join(repr(v) for v in self.values)


PARAMETERS: tuple[Parameter, ...] = (
    Parameter("players", (3, 4, 5, 6), 4, ("PLAYERS-COUNT", "DECK-REMOVED", "DEAL-HANDS", "LEAD-OPEN",
                                         "PASS-CYCLE", "SCORE-MOON"),
              "000, 001, 004: four; 002: 3 or 5 with cards removed; 003: 3 to 6 (3 with uneven hands: even_out; "
              "5 and 6 with two decks: decks); 6 with cards removed: hearts-ref",
              "Number of players; with 3, 5 or 6 the cards in DECK-REMOVED leave the deck (even_out)."),
    Parameter("even_out", ("remove", "uneven"), "remove",
              ("DECK-REMOVED", "DEAL-HANDS", "TRICK-ORDER", "FIRST-TWO-CARDS"),
              "002: remove cards (3 and 5 players); 003: deal every card (52, or 104 with two decks), the players "
              "with an extra card play two cards of the same suit to the first trick (3 players; 5 and 6 players "
              "with two decks: decks)",
              "How hands are evened out when the deck does not divide: cards removed, or uneven hands "
              "evened out on the first trick."),
    Parameter("decks", (1, 2), 1,
              ("DECK-CARDS", "DEAL-HANDS", "TRICK-ORDER", "TRICK-WINNER", "LEAD-OPEN", "SCORE-POINTS", "SCORE-MOON"),
              "003: two decks for five players or more (104 cards, every card twice; of two identical cards in a "
              "trick the first played ranks higher); with even_out='uneven' and 5 or 6 players",
              "How many 52-card decks are shuffled together: two with seed 003's five or six players."),
    Parameter("pass_cards", bool, True, ("PASS-CYCLE",), "all sources pass (three cards, every source speaking "
              "of four players; three with 3, 5 or 6 players is hearts-ref's choice); OpenSpiel `pass_cards`",
              "Whether three cards are passed before each round (except the no-pass rounds)."),
    Parameter("pass_cycle", ("left-right-across-none", "left-right-none"), "left-right-across-none",
              ("PASS-CYCLE",), "000, 001, 002: left, right, across, none; 003: left, right, none; 004 refers to an order "
              "its text does not give: left, right, across, none is hearts-ref's choice for it",
              "The repeating cycle of pass directions; across needs an even number of players."),
    Parameter("first_trick_points", ("exception", "forbidden", "allowed"), "exception",
              ("FIRST-NO-POINTS", "FIRST-EXCEPTION"),
              "000, 004: forbidden unless only point cards; 001, 003: forbidden (no exception); "
              "002: any card when void (no first-trick rule); OpenSpiel `no_pts_on_first_trick`",
              "Whether point cards may be played on the first trick."),
    Parameter("can_lead_any_club", bool, False, ("LEAD-OPEN",), "OpenSpiel `can_lead_any_club`",
              "The holder of the lowest club may open with any club."),
    Parameter("hearts_broken_by", ("discard", "any-heart", "lead"), "discard", ("BREAK-DISCARD",),
              "000, 001, 002: a heart discarded; 004: any heart played; 003 literal: a heart led",
              "Which play breaks hearts."),
    Parameter("qs_breaks_hearts", bool, False, ("BREAK-QUEEN",),
              "000: does not (variant table: may); OpenSpiel `qs_breaks_hearts` (default true)",
              "Whether playing the queen of spades breaks hearts."),
    Parameter("must_break_hearts", bool, True, ("LEAD-HEARTS", "FOLLOW-VOID"),
              "000, 001, 002, 004 (003's literal text frees the lead and restricts discards: hearts_restriction); "
              "OpenSpiel `must_break_hearts`",
              "Whether hearts must be broken before they may be led."),
    Parameter("hearts_restriction", ("lead", "discard"), "lead", ("LEAD-HEARTS", "FOLLOW-VOID"),
              "000, 001, 002, 004: no heart led until broken; 003 literal: no heart discarded until led",
              "What unbroken hearts forbid: leading a heart, or (003's literal text) discarding one."),
    Parameter("can_lead_hearts_instead_of_qs", bool, False, ("LEAD-HEARTS",),
              "000 FAQ: must lead the queen; OpenSpiel `can_lead_hearts_instead_of_qs`",
              "A leader holding only hearts and the queen of spades may lead a heart."),
    Parameter("moon", ("add", "subtract", "off"), "add", ("SCORE-MOON",),
              "000, 001, 002, 003, 004: 26 to each opponent; 000 table and 004: or -26 to the shooter",
              "Shooting the moon: 26 to every other player, 26 off the shooter, or no moon."),
    Parameter("jd_bonus", bool, False, ("SCORE-JACK", "SCORE-POINTS"), "000 table (Omnibus); OpenSpiel `jd_bonus`",
              "The jack of diamonds scores -10 to the player who takes it."),
    Parameter("avoid_all_tricks_bonus", bool, False, ("SCORE-NO-TRICKS",), "OpenSpiel `avoid_all_tricks_bonus`",
              "A player who takes no trick scores -5 (not in a round whose scores a moon changed)."),
    Parameter("end_threshold", int, 100, ("END-THRESHOLD",), "all five: 100; 000 table: 50; 003: may be agreed",
              "The total that ends the game.", minimum=1),
    Parameter("end_comparison", (">=", ">"), ">=", ("END-THRESHOLD",), "000, 002, 003, 004: reaches; 001: more than",
              "Whether a total equal to the threshold ends the game."),
    Parameter("max_rounds", int, 0, ("END-THRESHOLD", "WIN-TIE"), "OpenSpiel plays one round",
              "Stop after this many rounds (0: no limit).", minimum=0),
    Parameter("ties", ("shared", "play-on"), "shared", ("WIN-TIE",), "000, 001: shared; 000 table: play on",
              "Players tied for the lowest total share the win, or rounds go on until one alone is lowest."),
)

_BY_NAME = {p.name: p for p in PARAMETERS}

# DECK-REMOVED: cards taken out so that the deck divides evenly (002 for 3 and 5; 6 is hearts-ref's).
REMOVED_CARDS: dict[int, tuple[str, ...]] = {3: ("2C",), 4: (), 5: ("2C", "2D"), 6: ("2C", "2D", "3C", "3D")}

# PASS-CYCLE: a direction is an offset in seats, clockwise.
PASS_DIRECTIONS = ("left", "right", "across", "none")

DEFAULT_PRESET = "seed000"
PRESETS: dict[str, dict[str, Any]] = {
    "seed000": {},
    "seed001": {"first_trick_points": "forbidden", "end_comparison": ">"},
    "seed002": {"first_trick_points": "allowed"},
    "seed003": {"pass_cycle": "left-right-none", "first_trick_points": "forbidden", "even_out": "uneven",
                "hearts_broken_by": "lead", "hearts_restriction": "discard"},
    "seed004": {"hearts_broken_by": "any-heart"},
    "openspiel": {"hearts_broken_by": "any-heart", "qs_breaks_hearts": True, "max_rounds": 1},
}
# Presets whose literal rules can deadlock: the proofs must refute them (a changed outcome fails).
EXPECTED_UNSOUND = {"seed001": "FIRST-NO-POINTS", "seed003": "FOLLOW-VOID"}


@dataclass(frozen=True)
class Rules:
    """One complete, validated set of variant values. Build it with :meth:`preset`."""

    players: int = 4
    even_out: str = "remove"
    decks: int = 1
    pass_cards: bool = True
    pass_cycle: str = "left-right-across-none"
    first_trick_points: str = "exception"
    can_lead_any_club: bool = False
    hearts_broken_by: str = "discard"
    qs_breaks_hearts: bool = False
    must_break_hearts: bool = True
    hearts_restriction: str = "lead"
    can_lead_hearts_instead_of_qs: bool = False
    moon: str = "add"
    jd_bonus: bool = False
    avoid_all_tricks_bonus: bool = False
    end_threshold: int = 100
    end_comparison: str = ">="
    max_rounds: int = 0
    ties: str = "shared"

    def __post_init__(self) -> None:
        for parameter in PARAMETERS:
            value = getattr(self, parameter.name)
            if not parameter.allows(value):
                close = (suggest(value, [v for v in parameter.values if isinstance(v, str)])
                         if isinstance(value, str) and isinstance(parameter.values, tuple) else "")
                shown = json.dumps(value) if value is None or isinstance(value, bool) else repr(value)   # true, null
                raise RulesError(f"{parameter.name}: {shown} is not allowed; {close}"
                                 f"choose {parameter.describe_allowed()}", field=parameter.name)
        if self.pass_cards and "across" in self.pass_cycle and self.players % 2:
            raise RulesError(f"pass_cycle: 'left-right-across-none' needs an even number of players "
                             f"(players={self.players}); choose 'left-right-none', or pass_cards=false", field="pass_cycle")
        two_decks = self.even_out == "uneven" and self.players >= 5   # DECK-CARDS: seed 003's two decks
        if self.decks == 2 and not two_decks:
            raise RulesError(f"decks: 2 (seed 003's two decks) is played with 5 or 6 players and even_out='uneven', "
                             f"not with players={self.players}, even_out={self.even_out!r}; choose decks=1, or "
                             f"players=5 or 6 with even_out='uneven' (preset seed003)", field="decks")
        if two_decks and self.decks != 2:
            cards = 52 // self.players
            raise RulesError(f"decks: {self.players} players with even_out='uneven' (preset seed003) is seed 003's "
                             f"game with two decks (104 cards): set decks=2 (preset seed003 does by itself); one "
                             f"deck would give hands of {cards + 1} and {cards}, which no source describes. Or "
                             f"choose even_out='remove' to play seed 002's way (cards removed, "
                             f"{(52 - len(REMOVED_CARDS[self.players])) // self.players} each)", field="decks")
        if self.hearts_restriction == "discard" and self.hearts_broken_by == "discard":
            raise RulesError("hearts_restriction: 'discard' with hearts_broken_by='discard' is refused (FOLLOW-VOID): "
                             "no heart may be discarded before hearts are broken and only a discarded heart breaks "
                             "them, so that they could break only through the Q♠ (BREAK-QUEEN); choose "
                             "hearts_broken_by 'lead' or 'any-heart'", field="hearts_restriction")

    @classmethod
    def preset(cls, name: str = DEFAULT_PRESET, **overrides: Any) -> Rules:
        """Return the rules of preset ``name`` with ``overrides`` applied (names from :data:`PARAMETERS`)."""
        if name not in PRESETS:
            raise RulesError(f"unknown preset {name!r}; {suggest(name, list(PRESETS))}choose one of "
                             f"{', '.join(PRESETS)}", field="preset")
        for key in overrides:
            if key not in _BY_NAME:
                raise RulesError(f"unknown variant parameter {key!r}; {suggest(key, list(_BY_NAME))}"
                                 f"known: {', '.join(_BY_NAME)}", field=key)
        values = PRESETS[name] | overrides
        # DECK-CARDS: seed 003's uneven hands for five or six players come with two decks, unless decks is given.
        if "decks" not in values and values.get("even_out") == "uneven" and values.get("players", 4) in (5, 6):
            values["decks"] = 2
        return cls(**values)

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> Rules:
        """Return the rules described by ``values``: the default preset with these values applied."""
        if not isinstance(values, dict):
            raise RulesError(f"rules must be an object of variant values, got {type(values).__name__}")
        values = dict(values)
        preset = values.pop("preset", DEFAULT_PRESET)
        return cls.preset(preset, **values)

    def to_dict(self) -> dict[str, Any]:
        """Return every variant value by name (the form records and vectors store)."""
        return dataclasses.asdict(self)

    def changes(self) -> dict[str, Any]:
        """Return the values that differ from the default preset."""
        default = Rules()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}

    # Derived facts -----------------------------------------------------------------

    @cached_property
    def removed_cards(self) -> tuple[Card, ...]:
        """DECK-REMOVED: the cards taken out of the deck for this number of players (none with uneven hands)."""
        if self.even_out == "uneven":
            return ()
        return tuple(Card.parse(text) for text in REMOVED_CARDS[self.players])

    @cached_property
    def deck_mask(self) -> int:
        """DECK-CARDS, DECK-REMOVED: the cards in play, as a mask (104 bits with two decks).

        >>> Rules.preset("seed003", players=5).deck_mask == ALL_CARDS
        True
        """
        if self.decks == 2:
            return ALL_CARDS
        mask = ONE_DECK
        for card in self.removed_cards:
            mask &= ~(1 << card.index)
        return mask

    @cached_property
    def hand_size(self) -> int:
        """DEAL-HANDS: cards per hand, which is also the number of tricks in a round (without the extra cards)."""
        return self.deck_mask.bit_count() // self.players

    @cached_property
    def extra_cards(self) -> int:
        """DEAL-HANDS, TRICK-ORDER: how many players are dealt an extra card (``even_out = "uneven"``; 0 otherwise).

        >>> Rules(players=3, pass_cycle="left-right-none", even_out="uneven").extra_cards
        1
        """
        return self.deck_mask.bit_count() % self.players

    def changes_nothing(self, name: str) -> bool:
        """Whether the value of parameter ``name`` changes nothing in a game under these rules: ``even_out`` when the
        deck deals evenly whatever it says (four players: DECK-REMOVED removes nothing, DEAL-HANDS deals 13 each).

        >>> Rules.preset("seed003").changes_nothing("even_out"), Rules.preset("seed003", players=3).changes_nothing("even_out")
        (True, False)
        """
        return name == "even_out" and self.players == 4 and self.decks == 1

    def dealt_sizes(self, dealer: int = 0) -> tuple[int, ...]:
        """DEAL-HANDS: the number of cards dealt to each seat; the extra cards go to the first seats dealt to.

        >>> Rules(players=3, pass_cycle="left-right-none", even_out="uneven").dealt_sizes(dealer=2)
        (18, 17, 17)
        """
        n = self.players
        return tuple(self.hand_size + ((seat - dealer - 1) % n < self.extra_cards) for seat in range(n))

    @cached_property
    def lowest_club(self) -> Card:
        """LEAD-OPEN: the lowest club in play, which opens the first trick (the first deck's 2♣ with two decks)."""
        for rank in Rank:
            card = CARDS[Suit.CLUBS * 13 + rank]
            if self.deck_mask >> card.index & 1:
                return card
        raise AssertionError("every deck holds clubs")

    @cached_property
    def points_per_round(self) -> int:
        """SCORE-POINTS, SCORE-JACK: the sum of the raw points of one round (26, or 16 with the J♦; per deck).

        >>> Rules.preset("seed003", players=6).points_per_round
        52
        """
        return (26 - (10 if self.jd_bonus else 0)) * self.decks

    def pass_direction(self, round_number: int) -> str:
        """PASS-CYCLE: the pass direction of round ``round_number`` (1-based)."""
        if not self.pass_cards:
            return "none"
        cycle = ("left", "right", "across", "none") if self.pass_cycle == "left-right-across-none" \
            else ("left", "right", "none")
        return cycle[(round_number - 1) % len(cycle)]

    def pass_offset(self, direction: str) -> int:
        """PASS-CYCLE: how many seats clockwise the cards go in ``direction``."""
        if direction not in PASS_DIRECTIONS:
            raise RulesError(f"pass direction {direction!r}; choose one of {', '.join(PASS_DIRECTIONS)}")
        if direction == "across" and self.players % 2:
            raise RulesError(f"pass direction 'across' needs an even number of players, not {self.players}")
        return {"left": 1, "right": self.players - 1, "across": self.players // 2, "none": 0}[direction]


def parse_setting(text: str) -> tuple[str, Any]:
    """Return ``(name, value)`` from a ``name=value`` command-line setting, typed per the registry.

    A string may be written bare or, as the spec writes it, in double quotes (``moon="add"``).

    >>> parse_setting("jd_bonus=true"), parse_setting("end_threshold=50"), parse_setting('moon="add"')
    (('jd_bonus', True), ('end_threshold', 50), ('moon', 'add'))

    A value is read in any case, as a truth value is (``moon=OFF`` is ``moon=off``, ``jd_bonus=TRUE`` is true).
    """
    name, sep, raw = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise RulesError(f"setting {text!r} is not of the form name=value")
    parameter = _BY_NAME.get(name)
    if parameter is None:
        raise RulesError(f"unknown variant parameter {name!r}; {suggest(name, list(_BY_NAME))}"
                         f"known: {', '.join(_BY_NAME)}", field=name)
    raw = raw.strip()
    quoted = len(raw) >= 2 and raw[0] == raw[-1] == '"'
    if quoted:
        raw = raw[1:-1]
    if quoted and not isinstance(parameter.default, str):
        kind = "a boolean" if isinstance(parameter.default, bool) else "a whole number"
        raise RulesError(f'{name}: "{raw}" is in quotes, but {name} is {kind}: write {name}={raw}', field=name)
    if parameter.values is bool or isinstance(parameter.default, bool):
        lowered = raw.lower()
        if lowered not in ("true", "false", "1", "0", "yes", "no"):
            raise RulesError(f"{name}: {raw!r} is not true or false (write true, false, yes, no, 1 or 0)", field=name)
        return name, lowered in ("true", "1", "yes")
    if parameter.values is int or all(isinstance(v, int) for v in parameter.values):
        try:
            return name, int(raw)
        except ValueError:
            raise RulesError(f"{name}: {raw!r} is not a whole number", field=name) from None
    if isinstance(parameter.values, tuple) and raw not in parameter.values:   # typed by hand: moon=OFF is moon=off,
        same = [v for v in parameter.values if isinstance(v, str) and v.lower() == raw.lower()]   # as jd_bonus=TRUE
        if len(same) == 1:
            return name, same[0]
    return name, raw


def setting_text(name: str, value: Any) -> str:
    """A setting as ``--set`` takes it: ``jd_bonus=true`` (a truth value in lower case, as the registry writes it).

    >>> setting_text("pass_cards", False), setting_text("players", 3)
    ('pass_cards=false', 'players=3')
    """
    return f"{name}={str(value).lower() if isinstance(value, bool) else value}"


def suggest(word: str, choices: list[str]) -> str:
    """``did you mean …? `` with the closest of ``choices`` (those as close as the closest, in their order), or
    nothing.

    >>> suggest("mooon", ["moon", "decks"]), suggest("seed00", ["seed000", "seed001", "seed002", "seed003", "x"])
    ('did you mean moon? ', 'did you mean seed000 or seed001 or seed002? ')
    """
    import difflib

    scored = sorted(((difflib.SequenceMatcher(None, word, choice).ratio(), choice) for choice in choices),
                    key=lambda pair: -pair[0])   # the closest first; ties in the given order (a stable sort)
    close = [choice for ratio, choice in scored if ratio >= 0.6 and ratio >= scored[0][0] - 0.1][:3]
    return f"did you mean {' or '.join(close)}? " if close else ""


def parse_settings(texts: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """Every ``name=value`` of ``texts`` (:func:`parse_setting`); a name set twice is refused, as ``diff`` refuses it.

    >>> parse_settings(["moon=add", "jd_bonus=true"])
    {'moon': 'add', 'jd_bonus': True}
    >>> parse_settings(["moon=add", "moon=subtract"])
    Traceback (most recent call last):
    hearts_ref.errors.RulesError: moon is set twice (moon=add, moon=subtract)
    """
    settings: dict[str, Any] = {}
    given: dict[str, str] = {}
    for text in texts:
        name, value = parse_setting(text)
        if name in settings:
            raise RulesError(f"{name} is set twice ({given[name]}, {text.strip()})", field=name)
        settings[name], given[name] = value, text.strip()
    return settings
