"""The referee: replays a recorded game on the reference and reports what breaks the rules.

A record is read (:mod:`hearts_ref.record_reader`), then replayed round by round: the deal
(DEAL-HANDS, DECK-REMOVED, DEAL-DEALER, PASS-CYCLE), the passes (PASS-COUNT), every card
(LEAD-*, FOLLOW-*, FIRST-*, TRICK-ORDER), and the derived fields are recomputed and compared
(TRICK-WINNER, SCORE-*, END-THRESHOLD, WIN-*). The first illegal step stops the replay; a
wrong derived field is reported and the replay goes on with the right value. A record that
ends in a deadlock (FIRST-NO-POINTS) has its last round replayed up to it: the referee
confirms that the seat named has no legal play (``Verdict.deadlock``), or reports why not.

>>> from hearts_ref.records import game_record
>>> from hearts_ref.simulate import random_game
>>> from hearts_ref.record_reader import record_from_json
>>> from hearts_ref.variants import Rules
>>> data = game_record(random_game(Rules(), seed=5))
>>> referee(record_from_json(data)).valid
True
>>> data["rounds"][0]["tricks"][0]["winner"] = (data["rounds"][0]["tricks"][0]["winner"] + 1) % 4
>>> print(referee(record_from_json(data)).findings[0].text())
rounds[0].tricks[0].winner: TRICK-WINNER: the record says seat 3 took trick 1; seat 2 played the highest card of the suit led (round 1, trick 1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hearts_ref.cards import Card
from hearts_ref.errors import HeartsError, IllegalPlayError, RecordError
from hearts_ref.game import is_game_over, winners
from hearts_ref.record_reader import GameRecord, RecordRound, read_record
from hearts_ref.round import DeadlockError, RoundState, start_round
from hearts_ref.scoring import RoundScore
from hearts_ref.variants import Rules

__all__ = ["Finding", "Verdict", "FileReport", "referee", "referee_file", "exit_code"]

_RULE_PREFIX = re.compile(r"^([A-Z]+(?:-[A-Z]+)+): ")
_POSITION = re.compile(r" \(seat \d+, trick \d+, trick so far .*\)$")


@dataclass(frozen=True)
class Finding:
    """One thing a record gets wrong: the rule it breaks, where, and the position it happened in.

    ``illegal`` is True for an illegal step (the replay stops there) and False for a wrong
    derived field (a winner, points, scores, totals, winners).
    """

    rule_id: str
    where: str
    message: str
    illegal: bool
    round: int | None = None
    trick: int | None = None
    seat: int | None = None
    card: str | None = None
    legal: tuple[str, ...] | None = None
    trick_so_far: tuple[str, ...] | None = None

    def text(self) -> str:
        """Return the finding as one line: where, rule ID, what, and the position."""
        context = []
        if self.round is not None:
            context.append(f"round {self.round}" + (f", trick {self.trick}" if self.trick is not None else ""))
        if self.legal is not None:
            context.append(f"legal: {' '.join(self.legal) or '(none)'}")
        if self.trick_so_far is not None:
            context.append(f"trick so far: {' '.join(self.trick_so_far) or '(empty)'}")
        suffix = f" ({'; '.join(context)})" if context else ""
        return f"{self.where}: {self.rule_id}: {self.message}{suffix}"

    def to_dict(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


@dataclass(frozen=True)
class Verdict:
    """The referee's findings for one record, in the order they were met, and the deadlock it confirmed, if any."""

    findings: tuple[Finding, ...]
    rounds: int
    deadlock: str | None = None     # "round 3: FOLLOW-VOID: seat 2 has no legal play: …" once replayed

    @property
    def valid(self) -> bool:
        return not self.findings


@dataclass(frozen=True)
class FileReport:
    """The outcome for one file: ``valid``, ``invalid`` (a rule broken) or ``malformed`` (unreadable)."""

    path: str
    status: str
    verdict: Verdict | None = None
    error: str | None = None

    @property
    def exit_code(self) -> int:
        return {"valid": 0, "invalid": 1, "malformed": 2}[self.status]


def referee_file(path: str | Path) -> FileReport:
    """Return the report for the record file at ``path``; never raises for bad input.

    The file is checked against the JSON Schema too, so a malformed file names the schema rule.
    """
    name = str(path)
    try:
        record = read_record(Path(path), where=name, validate_schema=True)
    except RecordError as error:
        return FileReport(name, "malformed", error=str(error).removeprefix(f"{name}: "))
    verdict = referee(record)
    return FileReport(name, "valid" if verdict.valid else "invalid", verdict=verdict)


def exit_code(reports: list[FileReport]) -> int:
    """Return the exit code for several files: the worst of them (0 valid, 1 invalid, 2 malformed)."""
    return max((report.exit_code for report in reports), default=0)


def referee(record: GameRecord) -> Verdict:
    """Return the findings of replaying ``record`` under its own rules (empty when it is valid)."""
    findings: list[Finding] = []
    rules = record.rules
    totals = (0,) * rules.players
    for index, recorded in enumerate(record.rounds):
        path = f"rounds[{index}]"
        if index and is_game_over(totals, index, rules):
            findings.append(Finding("END-THRESHOLD", path, f"the game was over after round {index} "
                                    f"(totals {_seats(totals)}), yet the record goes on", True, round=index + 1))
            return Verdict(tuple(findings), len(record.rounds))
        score = _referee_round(recorded, rules, path, findings)
        if score is None:
            return Verdict(tuple(findings), len(record.rounds))
        totals = tuple(t + s for t, s in zip(totals, score.scores))
    deadlock = None
    if record.deadlock is not None:
        deadlock = _referee_deadlock(record, totals, findings)
        if deadlock is None:
            return Verdict(tuple(findings), len(record.rounds))
    _check_end(record, totals, findings, deadlocked=deadlock is not None)
    return Verdict(tuple(findings), len(record.rounds), deadlock)


def _referee_deadlock(record: GameRecord, totals: tuple[int, ...], findings: list[Finding]) -> str | None:
    """FIRST-NO-POINTS: replay the round that deadlocked up to the seat with no legal play; return the
    deadlock confirmed, or None after an illegal step or a seat that can play (recorded in ``findings``)."""
    recorded, rules, played = record.deadlock.round, record.rules, len(record.rounds)
    number = recorded.number
    if played and is_game_over(totals, played, rules):
        findings.append(Finding("END-THRESHOLD", "deadlock", f"the game was over after round {played} "
                                f"(totals {_seats(totals)}), yet the record goes on", True, round=number))
        return None
    state = _start_round(recorded, rules, "deadlock", findings)
    for k, card in enumerate(record.deadlock.plays):
        if state is None:
            return None
        state = _replay_play(state, card, f"deadlock.plays[{k}]", number, findings)
    if state is None:
        return None
    if not state.deadlocked:
        said = f"seat {record.deadlock.seat} has no legal play"
        real = (f"seat {state.to_move} is to play and may play {state.legal_plays()}" if state.to_move is not None
                else "the round is over")
        findings.append(Finding(record.deadlock.rule, "deadlock", f"the record says {said}; after its "
                                f"{len(record.deadlock.plays)} plays {real}", True, number, len(state.tricks) + 1))
        return None
    error = state.deadlock_error()
    seat = state.to_play
    if record.deadlock.seat != seat:
        findings.append(Finding(error.rule_id, "deadlock.seat", f"the record says seat {record.deadlock.seat}; "
                                f"seat {seat} is to play and has no legal play", False, number))
    if record.deadlock.hand != state.hand(seat):
        findings.append(Finding(error.rule_id, "deadlock.hand", f"the record says seat {seat} holds "
                                f"{record.deadlock.hand}; it holds {state.hand(seat)}", False, number))
    if record.deadlock.rule != error.rule_id:
        findings.append(Finding(error.rule_id, "deadlock.rule", f"the record says {record.deadlock.rule} leaves no "
                                f"legal play; it is {error.rule_id}", False, number))
    return f"round {number}: {error}"


def _referee_round(recorded: RecordRound, rules: Rules, path: str, findings: list[Finding]) -> RoundScore | None:
    """Replay one round; return its score, or None after an illegal step (recorded in ``findings``)."""
    state = _start_round(recorded, rules, path, findings)
    if state is None:
        return None
    for k, trick in enumerate(recorded.tricks):
        state = _replay_trick(state, recorded, k, f"{path}.tricks[{k}]", findings)
        if state is None:
            return None
    if not state.is_over:
        findings.append(Finding("TRICK-ORDER", f"{path}.tricks", f"the round stops after {len(recorded.tricks)} "
                                f"of {rules.hand_size} tricks", True, recorded.number))
        return None
    score = state.score()
    _check_score(recorded, score, rules, path, findings)
    return score


def _start_round(recorded: RecordRound, rules: Rules, path: str, findings: list[Finding]) -> RoundState | None:
    """Check the deal and replay the passes; return the state at the first lead, or None after an illegal step."""
    number = recorded.number
    dealer = (number - 1) % rules.players
    if recorded.dealer != dealer:
        findings.append(Finding("DEAL-DEALER", f"{path}.dealer", f"the record says seat {recorded.dealer} dealt "
                                f"round {number}; seat {dealer} deals it (clockwise from seat 0)", False, number))
    direction = rules.pass_direction(number)
    if recorded.direction != direction:
        findings.append(Finding("PASS-CYCLE", f"{path}.pass_direction", f"round {number} passes {direction} "
                                f"under these rules, not {recorded.direction}", True, number))
        return None
    try:
        state = start_round(rules, recorded.hands, direction=direction, dealer=dealer)
    except HeartsError as error:
        findings.append(Finding(_rule_of(error, "DEAL-HANDS"), f"{path}.hands", _reason(error), True, number))
        return None
    return _replay_passes(state, recorded, path, findings)


def _replay_passes(state: RoundState, recorded: RecordRound, path: str, findings: list[Finding]) -> RoundState | None:
    number = recorded.number
    if recorded.direction == "none":
        if recorded.passes and any(recorded.passes):
            findings.append(Finding("PASS-CYCLE", f"{path}.passes", f"round {number} has no passing, yet the "
                                    "record shows passed cards", True, number))
            return None
        return state
    players = state.rules.players
    if recorded.passes is None or len(recorded.passes) != players:
        count = 0 if recorded.passes is None else len(recorded.passes)
        findings.append(Finding("PASS-COUNT", f"{path}.passes", f"every one of the {players} players passes three "
                                f"cards; the record has {count} passes", True, number))
        return None
    for seat, cards in enumerate(recorded.passes):
        try:
            state = state.choose_pass(seat, cards)
        except IllegalPlayError as error:
            findings.append(Finding(error.rule_id, f"{path}.passes[{seat}]", _reason(error), True, number,
                                    seat=seat, legal=tuple(str(c) for c in state.hand(seat))))
            return None
    return state


def _replay_trick(state: RoundState, recorded: RecordRound, k: int, path: str,
                  findings: list[Finding]) -> RoundState | None:
    number, trick, players = recorded.number, recorded.tricks[k], state.rules.players
    if state.is_over:
        findings.append(Finding("TRICK-ORDER", path, f"the round has {state.rules.hand_size} tricks; "
                                f"the record has {len(recorded.tricks)}", True, number, k + 1))
        return None
    leader = state.to_move
    if trick.leader != leader:
        rule = "LEAD-OPEN" if state.first_trick else "LEAD-WINNER"
        why = (f"seat {leader} holds {state.rules.lowest_club} and leads the first trick" if state.first_trick
               else f"seat {leader} won the previous trick and leads")
        findings.append(Finding(rule, f"{path}.leader", f"the record has seat {trick.leader} lead: {why}",
                                True, number, k + 1, seat=trick.leader))
        return None
    extra = state.rules.extra_cards if state.first_trick else 0   # TRICK-ORDER: two cards from each extra card's seat
    if len(trick.cards) != players + extra:
        also = f" (and {extra} of them a second card to the first trick)" if extra else ""
        findings.append(Finding("TRICK-ORDER", f"{path}.cards", f"each of the {players} players plays one card to "
                                f"a trick{also}; the record has {len(trick.cards)}", True, number, k + 1))
        return None
    for position, card in enumerate(trick.cards):
        state = _replay_play(state, card, f"{path}.cards[{position}]", number, findings)
        if state is None:
            return None
    winner = state.tricks[-1].winner
    if trick.winner is not None and trick.winner != winner:
        findings.append(Finding("TRICK-WINNER", f"{path}.winner", f"the record says seat {trick.winner} took trick "
                                f"{k + 1}; seat {winner} played the highest card of the suit led", False, number, k + 1))
    return state


def _replay_play(state: RoundState, card: Card, path: str, number: int, findings: list[Finding]) -> RoundState | None:
    """Return the state after the seat to play plays ``card``, or None if it may not (recorded in ``findings``)."""
    seat = state.to_move
    try:
        return state.play(card)
    except (IllegalPlayError, DeadlockError) as error:
        findings.append(Finding(error.rule_id, path, f"seat {seat} plays {card}: {_reason(error)}", True, number,
                                len(state.tricks) + 1, seat, str(card), tuple(str(c) for c in state.legal_plays()),
                                tuple(str(c) for c in state.current_trick())))
        return None


def _check_score(recorded: RecordRound, score: RoundScore, rules: Rules, path: str, findings: list[Finding]) -> None:
    number = recorded.number
    points_rule = "SCORE-JACK" if rules.jd_bonus and recorded.points != score.points else "SCORE-POINTS"
    if recorded.points != score.points:
        findings.append(Finding(points_rule, f"{path}.points", f"the record says points {_seats(recorded.points)}; "
                                f"the tricks taken give {_seats(score.points)}", False, number))
    if recorded.scores != score.scores:
        rule = ("SCORE-MOON" if score.shooter is not None else
                "SCORE-NO-TRICKS" if rules.avoid_all_tricks_bonus else points_rule)
        findings.append(Finding(rule, f"{path}.scores", f"the record says round scores {_seats(recorded.scores)}; "
                                f"the rules give {_seats(score.scores)}", False, number))
    if recorded.moon != "absent" and recorded.moon != score.shooter:
        said = "nobody" if recorded.moon is None else f"seat {recorded.moon}"
        if rules.moon == "off":   # the cards may well all be one seat's: no round is scored as a moon
            real = "under moon = 'off' no round is scored as a moon (the field is null)"
        else:
            real = ("nobody" if score.shooter is None else f"seat {score.shooter}") + " took every point card"
        findings.append(Finding("SCORE-MOON", f"{path}.moon", f"the record says {said} shot the moon; {real}", False,
                                number))


def _check_end(record: GameRecord, totals: tuple[int, ...], findings: list[Finding], *, deadlocked: bool) -> None:
    rules = record.rules
    if record.totals != totals:
        findings.append(Finding("SCORE-TOTAL", "totals", f"the record says totals {_seats(record.totals)}; "
                                f"the round scores add up to {_seats(totals)}", False))
    if deadlocked:   # FIRST-NO-POINTS: the game ends there, without winners
        if record.winners:
            findings.append(Finding("FIRST-NO-POINTS", "winners", f"the record names winners, but the rules "
                                    "deadlocked: the game ends without winners", False))
        return
    over = bool(record.rounds) and is_game_over(totals, len(record.rounds), rules)
    if not over:
        if record.winners:
            findings.append(Finding("END-THRESHOLD", "winners", f"the record names winners, but the game is not over "
                                    f"(totals {_seats(totals)}, threshold {rules.end_comparison} "
                                    f"{rules.end_threshold})", False))
        return
    expected = winners(totals)
    if tuple(record.winners) != expected:
        rule = "WIN-TIE" if len(expected) > 1 or len(record.winners) > 1 else "WIN-LOWEST"
        findings.append(Finding(rule, "winners", f"the record says winners {_names(record.winners)}; "
                                f"the lowest total ({min(totals)}) is held by {_names(expected)}", False))


def _rule_of(error: HeartsError, default: str) -> str:
    rule = getattr(error, "rule_id", None)
    if rule:
        return rule
    match = _RULE_PREFIX.match(str(error))
    return match.group(1) if match else default


def _reason(error: HeartsError) -> str:
    """The error's message without its rule ID and without the position the finding reports anyway."""
    return _POSITION.sub("", _RULE_PREFIX.sub("", str(error), count=1))


def _seats(values: tuple[int, ...] | list[int]) -> str:
    return " ".join(str(v) for v in values) if values else "(none)"


def _names(seats: tuple[int, ...] | list[int]) -> str:
    return ", ".join(f"seat {s}" for s in seats) or "nobody"

