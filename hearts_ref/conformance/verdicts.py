"""Judging a differential game's steps, keeping its findings and deciding when it stops.

:class:`Verdicts` is the half of a game in progress (:mod:`.differential`) that rules on what
the engine showed: an observation after a step is compared with the reference's (and, when it
differs, judged rule by rule: :func:`~.judge.judge_observation`); each finding is kept once per
kind and rule, where it first showed (later ones counted as repeats); refusals, failures and
declines end the game with their reason; negative checks' findings are recorded; legal-set
findings that a stale lead context explains are put down to LEAD-WINNER; a wrong seat leading
after a trick is played on past (the reference's round goes on with that seat leading), so that
a later trick of points tells a wrong lead (LEAD-WINNER) from a wrong winner (TRICK-WINNER); and
the finished game becomes a :class:`~.findings.GameRun`.

The game (its reference, the engine's link, the decider, the step) is the subclass's: these
methods read ``self.game``, ``self.state``, ``self.link``, ``self.rules``, ``self.decider``,
``self.forecast``, ``self.negative`` and ``self.step``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from typing import Any

from hearts_ref.engine import Observation, observation_problem
from hearts_ref.engines.failures import ENGINE_ERRORS, EngineUnsupported
from hearts_ref.legality import legal_plays
from hearts_ref.scoring import card_points
from hearts_ref.conformance.diagnose import (StepFacts, ace_low_refuted, ambiguous_winner, told_winner_rule,
                                             trick_taker)
from hearts_ref.conformance.findings import Deviation, GameRun
from hearts_ref.conformance.judge import diverged, judge_observation

__all__ = ["Verdicts", "FIRST", "HANDS_ASTRAY", "ambiguous_lead"]

FIRST = "the first finding"   # why a ``stop_at_first`` game ended: not a stop worth reporting
# Findings after which the engine's hands are no longer the reference's for the rest of the round: what it then
# allows or refuses is no evidence of a rule of play (it judges other hands), and is not judged.
HANDS_ASTRAY = ("PASS-CYCLE", "PASS-SIMULTANEOUS", "DEAL-HANDS")


class Verdicts:
    """What a game in progress found, what the engine showed last, and why it stops."""

    stop_at_first = False
    synced = True            # whether what the engine showed last is what the reference showed
    held_back = False        # a first finding its round may yet put down to hands gone astray (stop_at_first)
    hands_known = True       # whether the engine's hands are the reference's (this round)
    error: Deviation | None = None
    unsupported = False

    def __init__(self) -> None:
        self.findings: list[Deviation] = []
        self.repeats: Counter = Counter()
        self.stale: dict[tuple[str, str], bool] = {}   # legal-set findings a stale lead context explains
        self.leads: dict[str, Deviation] = {}   # by rule, the first seat to move after a trick its points explain
        self.plays: dict[int, Any] = {}   # the reference's plays of the rounds judged in one go (:mod:`.quick`), by number

    def judge(self, facts: StepFacts, reference: Observation, actual: Any, where: dict[str, Any]) -> str | None:
        """Judge the engine's observation after a step; return why the game must stop, if it must."""
        if not isinstance(actual, Observation):
            return self.failed(where, (), f"observe() returned {type(actual).__name__}, not an Observation")
        if self.synced and actual == reference:
            self.seen = actual
            return None
        problem = observation_problem(actual)   # a type that can never equal the reference's: not a rule's fault
        if problem:
            return self.failed(where, (), f"observe() returned an Observation: {problem} "
                                          "(every field is compared with ==)")
        if facts.action != "play" and reference.phase == "play" == actual.phase and actual.to_move != reference.to_move:
            facts = facts._replace(engine_legal=self.evidence())   # who the engine has open, and with what
        finding = judge_observation(facts, reference, actual, self.step, where)
        self.seen, self.synced = actual, actual == reference
        if finding is not None:
            if facts.action == "pass" and finding.rule_ids[0] == "PASS-CYCLE":
                self.hands_known = False
            stopped = self.record(finding)
            if stopped:
                return stopped
        why = diverged(reference, actual, self.rules.players)
        if why and finding is not None and self.follow_leader(facts, actual):
            return None
        return f"the phases diverged: {why}" if why else None

    def follow_leader(self, facts: StepFacts, actual: Observation) -> bool:
        """TRICK-WINNER, LEAD-WINNER: the engine has another seat lead after a trick; return whether the game plays
        on with that seat leading.

        The reference's round goes on from where the engine's went: the seat the engine has lead leads the next
        trick, with the cards the reference dealt it, and the trick's cards go to the seat the engine's points gave
        them to (its winner, when the trick has no points). From there the reference's own rules play the round, so
        that a later trick of points tells a wrong lead from a wrong winner (:meth:`fold_leads`). Not when the
        engine's hands are not the reference's, when its points went elsewhere, or when who took a trick of no points
        changes the score (SCORE-NO-TRICKS).
        """
        state, rules, seat = self.state, self.rules, actual.to_move
        if (facts.action != "play" or state is None or state is not facts.after or state.trick or not state.tricks
                or not self.hands_known or actual.phase != "play" or actual.trick != () or type(seat) is not int
                or not 0 <= seat < rules.players or seat == state.to_play):
            return False
        trick = state.tricks[-1]
        won = 0
        for card in trick.indices:
            won |= 1 << card
        taker = trick_taker(facts, actual, trick.winner)
        if taker is None and (card_points(won, rules) or rules.avoid_all_tricks_bonus):
            return False
        taken, tricks = state.taken, state.tricks
        if taker == seat:   # the engine gave the trick to the seat it has lead
            taken = tuple(cards & ~won | (won if s == seat else 0) for s, cards in enumerate(taken))
            tricks = tricks[:-1] + (trick._replace(winner=seat),)
        self.state = state._replace(taken=taken, tricks=tricks, leader=seat, to_play=seat,
                                    legal=legal_plays(state.hands[seat], state.context, rules))
        return True

    def evidence(self) -> int | None:
        """The engine's legal set now, as evidence for a diagnosis (None if it cannot say)."""
        try:
            return getattr(self.link.legal(), "mask", None)
        except ENGINE_ERRORS:
            return None

    def offer(self, checks: Callable[[], list[Deviation]]) -> str | None:
        """Run negative checks; record what they found; return why the game stops, if it does."""
        try:
            found = checks()
        except EngineUnsupported as error:
            return self.declined(error)
        astray: tuple[str, ...] = ()
        for finding in found:
            if finding.is_error:
                self.error = finding
                return "engine failure"
            if astray and finding.rule_ids[:1] != astray:   # judged on hands gone astray: put down to the cause
                finding = dataclasses.replace(finding, rule_ids=astray + tuple(r for r in finding.rule_ids
                                                                                 if r not in astray))
            elif finding.rule_ids and finding.rule_ids[0] in HANDS_ASTRAY:
                astray, self.hands_known = finding.rule_ids[:1], False   # (no more checks this round)
            stopped = self.record(finding)
            if stopped:
                return stopped
            if finding.kind in ("accepted-illegal", "state-changed"):
                return f"the engine took an illegal move ({finding.rule_ids[0]}): its game left the reference's"
        return None

    def record(self, finding: Deviation) -> str | None:
        """Keep a finding (once per kind and rule); return why the game stops (with ``stop_at_first``).

        A finding that puts the engine's hands astray (:data:`HANDS_ASTRAY`) is the cause of the round's earlier
        findings it explains (``explained_by``: a refusal citing a rule that only those hands give): they are put
        down to it. With ``stop_at_first``, a finding its round may yet explain so does not stop the game before the
        round ends (:meth:`round_over`), so that its first difference is named as a whole game names it.
        """
        if finding.rule_ids and finding.rule_ids[0] in HANDS_ASTRAY:
            self.put_down(finding.rule_ids[0], finding.round)
        told = told_winner_rule(finding.rule_ids) if _wrong_seat(finding) else None
        if told is not None:
            self.leads.setdefault(told, finding)   # the evidence that tells a wrong lead or winner
        signature = finding.signature()
        if any(f.signature() == signature for f in self.findings):
            self.repeats[signature] += 1
        else:
            self.findings.append(finding)
        if self.stop_at_first and (finding.explained_by and not self.held_back
                                   or ambiguous_lead(finding) and all(map(ambiguous_lead, self.findings))):
            self.held_back = True   # (a wrong seat leading after a trick of no points: until a trick tells why)
            return None
        return FIRST if self.stop_at_first else None

    def put_down(self, cause: str, number: int) -> None:
        """The findings of round ``number`` that hands gone astray by ``cause`` explain, put down to it: ``cause``
        first, and kept once per kind and rule."""
        kept: list[Deviation] = []
        for finding in self.findings:
            if finding.round == number and cause in finding.explained_by:
                holds = "holds" if finding.rule_ids[-1] != "TRICK-ORDER" else "does not hold"   # the rule it cited
                where = finding.where
                finding = dataclasses.replace(
                    finding, rule_ids=(cause,) + tuple(r for r in finding.rule_ids if r != cause), explained_by=(),
                    message=f"{finding.message}; the round's hands went astray ({cause}): in the engine's hands seat "
                            f"{where.get('seat')} {holds} {where.get('card')}")
            if any(f.signature() == finding.signature() for f in kept):
                self.repeats[finding.signature()] += 1
            else:
                kept.append(finding)
        self.findings[:] = kept

    def round_over(self) -> str | None:
        """With ``stop_at_first``: stop once the round of a first finding held back (:meth:`record`) is over."""
        return FIRST if self.held_back else None

    def refused(self, finding: Deviation) -> str:
        self.record(finding)
        return FIRST if self.stop_at_first else "the engine refused a legal move it needed to go on"

    def failed(self, where: dict[str, Any], rule_ids: tuple[str, ...], message: str) -> str:
        self.error = Deviation("engine-error", tuple(rule_ids), self.step, where, message=message)
        return "engine failure"

    def declined(self, error: Exception) -> str:
        self.unsupported = True
        return f"the engine declined: {error}"

    def fold_stale_leads(self) -> None:
        """LEAD-WINNER: a legal set of a leader void in the suit just led is any card, as a LEAD-HEARTS bug would
        make it too; once the game shows a stale lead context beyond doubt, such findings are put down to it."""
        if not any(f.signature() == ("legal-set", "LEAD-WINNER") for f in self.findings):
            return
        for finding in list(self.findings):
            signature = finding.signature()
            if finding.kind == "legal-set" and signature[1] != "LEAD-WINNER" and self.stale.get(signature):
                self.findings.remove(finding)
                self.repeats[("legal-set", "LEAD-WINNER")] += 1 + self.repeats.pop(signature, 0)

    def fold_leads(self) -> None:
        """LEAD-WINNER, TRICK-WINNER, DECK-CARDS: the seats to move after tricks of no points, which a wrong winner and
        a wrong lead show alike, put down to the one a trick of points in the same game shows beyond doubt (when it
        shows one only): the engine giving the winner the points and another seat the lead (LEAD-WINNER), or giving
        the trick to the seat it has lead (the winner's rule, LEAD-WINNER then dropped)."""
        folded = [f for f in self.findings if ambiguous_lead(f)]
        if len(self.leads) != 1:
            return
        told, lead = next(iter(self.leads.items()))
        seat = next(d for d in lead.differences if d.field == "to_move")
        if told == "LEAD-WINNER":
            for finding in folded:
                self.findings.remove(finding)
                self.repeats[lead.signature()] += 1 + self.repeats.pop(finding.signature(), 0)
            note = (f"; seat {seat.expected} won the trick and the engine gave it the trick's points, but has seat "
                    f"{seat.actual} lead")
            if folded:
                first = min(folded, key=lambda f: f.step)
                note += (f": the seats it has lead after tricks of no points, where a wrong winner would look the "
                         f"same, are put down to it too (the first at step {first.step}: round "
                         f"{first.where.get('round')}, trick {first.where.get('trick')})")
            kept = next(k for k, f in enumerate(self.findings) if f.signature() == lead.signature())
            self.findings[kept] = dataclasses.replace(self.findings[kept], message=self.findings[kept].message + note)
            return
        note = (f"; at step {lead.step} (round {lead.where.get('round')}, trick {lead.where.get('trick')}) the engine "
                f"gave a trick of points to the seat it has lead, seat {seat.actual}, not to its winner, seat "
                f"{seat.expected}: a wrong winner, not a wrong lead")
        for finding in folded:
            if finding.rule_ids[0] == lead.rule_ids[0]:
                self.findings[self.findings.index(finding)] = dataclasses.replace(
                    finding, rule_ids=tuple(r for r in finding.rule_ids if r != "LEAD-WINNER"),
                    message=finding.message + note)

    def fold_ace_low(self) -> None:
        """DECK-CARDS, TRICK-WINNER: a wrong winner that the ace ranked low would explain, named DECK-CARDS first, is
        put down to TRICK-WINNER when a trick of the game, before it or after, shows that the engine does not rank
        the ace low (:func:`~.diagnose.ace_low_refuted`)."""
        low = [k for k, f in enumerate(self.findings) if f.rule_ids[:1] == ("DECK-CARDS",) and "TRICK-WINNER" in f.rule_ids]
        if not low or not ace_low_refuted(self.game.results, self.state):
            return
        for k in low:
            finding = self.findings[k]
            self.findings[k] = dataclasses.replace(finding, rule_ids=("TRICK-WINNER",) + tuple(
                r for r in finding.rule_ids if r != "TRICK-WINNER"), message=finding.message
                + "; another trick of the game went to a card that the ace ranked low would not make win: "
                  "the ace ranks high there, so a wrong winner, not the ace ranked low")

    def outcome(self, stopped: str) -> GameRun:
        self.forecast.depart()   # the script holds the choices made, not those forecast
        self.fold_stale_leads()
        self.fold_ace_low()
        self.fold_leads()
        negative = self.negative
        played_out = not stopped and self.game.over and self.error is None
        reference = self.game if self.state is None else self.game._replace(round=self.state)
        return GameRun(self.decider, self.findings, self.step, self.number,
                       negative.counts if negative is not None else {}, stopped, self.decider.round_starts,
                       self.game if played_out else None, self.unsupported, self.error, dict(self.repeats),
                       reference, self.plays)


def _wrong_seat(finding: Deviation) -> bool:
    """Whether ``finding`` is of the seat to move after a play."""
    return finding.kind == "observation" and any(d.field == "to_move" for d in finding.differences)


def ambiguous_lead(finding: Deviation) -> bool:
    """Whether ``finding`` is a seat to move after a trick of no points, which a wrong winner (TRICK-WINNER,
    DECK-CARDS) and a wrong lead (LEAD-WINNER) explain alike (:func:`~.diagnose.trick_taker`)."""
    return _wrong_seat(finding) and ambiguous_winner(finding.rule_ids)
