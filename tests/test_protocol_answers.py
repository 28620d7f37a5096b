"""The points of detail of ``spec/protocol/README.md``: each answer names what checks it, and that check fails
an engine that gets the point wrong.

Each planted engine below is the reference with one point of detail answered the other way; the
vector case the protocol page names for that point must fail on it, and pass on the reference.
"""

from __future__ import annotations

import json
import re

import pytest

from hearts_ref import Card, CardSet, EngineRejection, Observation, ReferenceEngine, Rules, deal
from hearts_ref.conformance import run_differential
from hearts_ref.protocol import cards_to_wire
from hearts_ref.serve import Server
from hearts_ref.vectors import load_vectors
from hearts_ref.conformance.vectors import run_case
from tests.docs_site import ROOT
from hearts_ref.conformance.shrink import Budget

SHRINK = Budget(seconds=None, replays=300)   # counted in games replayed: the same shrink on any machine

PROTOCOL = (ROOT / "spec" / "protocol" / "README.md").read_text(encoding="utf-8")
CASES = {case.id: case for case in load_vectors()}


def answers() -> dict[str, str]:
    """The sections of "Points of detail", by heading."""
    part = PROTOCOL[PROTOCOL.index("## Points of detail"):]
    part = part[:part.index("\n## ", 1)]
    return {m[1]: m[2] for m in re.finditer(r"^### (.+?)\n(.*?)(?=^### |\Z)", part, re.S | re.M)}


def test_every_point_of_detail_names_what_checks_it():
    found = answers()
    assert len(found) >= 12, sorted(found)
    for heading, body in found.items():
        checked = re.search(r"\*Checked by:\*(.+)", body, re.S)
        assert checked, f"'{heading}' does not say what checks it"
        named = [name for name in re.findall(r"`([a-z0-9-]+\.[a-z0-9.-]+)`", checked[1])
                 if not name.endswith((".json", ".py"))]
        assert all(case_id in CASES for case_id in named), (heading, named)
        assert named or re.search(r"differential games|negative checks|protocol test|schema", checked[1]), heading


class SecondPassCitesCount(ReferenceEngine):
    def pass_cards(self, seat, cards):
        if self.game.round is not None and self.game.round.passing and self.game.round.passes[seat]:
            raise EngineRejection("more than three cards", "PASS-COUNT")
        super().pass_cards(seat, cards)


class WinnersReversed(ReferenceEngine):
    def observe(self):
        seen = super().observe()
        return Observation(**{**seen.__dict__, "winners": tuple(reversed(seen.winners))})


class JackNotInPoints(ReferenceEngine):
    def observe(self):
        seen = super().observe()
        round_state = self.game.round
        if round_state is None or not self.game.rules.jd_bonus:
            return seen
        jack = Card.parse("JD").index
        points = tuple(p + 10 if taken >> jack & 1 else p for p, taken in zip(seen.points_taken, round_state.taken))
        return Observation(**{**seen.__dict__, "points_taken": points})


class DealsMidRound(ReferenceEngine):
    def start_round(self, hands, direction):
        self.game = self.game._replace(round=None)
        super().start_round(hands, direction)


class DealsAfterTheEnd(ReferenceEngine):
    def start_round(self, hands, direction):
        self.game = self.game._replace(over=False)
        super().start_round(hands, direction)


class PlaysAnyDeal(ReferenceEngine):
    """Takes whatever hands it is dealt: it checks nothing of the deal."""
    def start_round(self, hands, direction):
        try:
            super().start_round(hands, direction)
        except EngineRejection as refusal:
            if not str(refusal).startswith(("DEAL-HANDS:", "DECK-REMOVED:")):
                raise


class CitesFollowVoidFirst(ReferenceEngine):
    def play(self, card):
        try:
            super().play(card)
        except EngineRejection as refusal:
            if refusal.rule_id == "FIRST-NO-POINTS" and card.suit == 3 and self.game.rules.hearts_restriction == "discard":
                raise EngineRejection("no heart discarded before hearts are broken", "FOLLOW-VOID") from None
            raise


@pytest.mark.parametrize("engine, case_id", [
    (SecondPassCitesCount, "pass-simultaneous.cards-arrive-after-all-chose"),
    (WinnersReversed, "win-tie.shared"), (WinnersReversed, "edge.tie-shared-at-100"),
    (JackNotInPoints, "score-jack.minus-ten"),
    (DealsMidRound, "deal-hands.deal-during-a-round-rejected"),
    (DealsAfterTheEnd, "end-threshold.no-deal-after-the-end"),
    (CitesFollowVoidFirst, "first-no-points.before-follow-void"),
    (PlaysAnyDeal, "deal-hands.short-hand-rejected"), (PlaysAnyDeal, "deal-hands.card-dealt-twice-rejected"),
    (PlaysAnyDeal, "deck-removed.two-of-clubs-dealt-to-three"),
])
def test_the_vector_named_for_a_point_fails_an_engine_that_gets_it_wrong(engine, case_id):
    assert f"`{case_id}`" in PROTOCOL
    assert run_case(ReferenceEngine(), CASES[case_id]).status == "passed"
    result = run_case(engine(), CASES[case_id])
    assert result.status == "failed", (engine.__name__, result)


class CitesNoRule(ReferenceEngine):
    def play(self, card):
        try:
            super().play(card)
        except EngineRejection:
            raise EngineRejection("not that card") from None


class CitesAnotherRule(ReferenceEngine):
    def play(self, card):
        try:
            super().play(card)
        except EngineRejection as refusal:
            raise EngineRejection(refusal.reason, "LEAD-HEARTS") from None


def test_a_refusal_is_judged_on_its_rule_when_it_cites_one_and_on_the_refusal_alone_when_not():
    case = CASES["follow-suit.any-card-of-the-suit"]
    assert "`follow-suit.any-card-of-the-suit`" in PROTOCOL
    assert run_case(CitesNoRule(), case).status == "passed"
    assert run_case(CitesAnotherRule(), case).status == "failed"


class HeartsStayBroken(ReferenceEngine):
    """Keeps hearts broken from the last trick of a round until the next deal."""

    def observe(self):
        seen = super().observe()
        if self.game.round is None and self.game.results and any(
                trick_card.suit == 3 for trick in self.game.results[-1].tricks for trick_card in trick.cards):
            return Observation(**{**seen.__dict__, "hearts_broken": True})
        return seen


class HeartsNeverReset(ReferenceEngine):
    """Once hearts are broken in a game, says so for the rest of the game."""

    def observe(self):
        seen = super().observe()
        self.ever = getattr(self, "ever", False) or seen.hearts_broken
        return Observation(**{**seen.__dict__, "hearts_broken": self.ever}) if seen.phase == "play" else seen


def test_a_vector_of_several_rounds_catches_hearts_broken_from_the_round_before():
    case = CASES["deal-dealer.four-rounds"]
    assert "`deal-dealer.four-rounds`" in PROTOCOL
    result = run_case(HeartsNeverReset(), case)
    assert result.status == "failed" and result.failure.round == 2 and result.failure.field == "hearts_broken"


def test_the_differential_games_catch_hearts_still_broken_after_the_last_trick():
    report = run_differential(HeartsStayBroken, Rules(), games=3, seed=0, shrink_budget=SHRINK)
    assert report.exit_code() == 1
    failed = [case for case in report.cases if case.status == "failed"]
    assert failed and all(case.rule_ids[0] == "BREAK-DISCARD" for case in failed)


def _served() -> tuple[Server, list[list[str]]]:
    server = Server(ReferenceEngine())
    server.answer(json.dumps({"seq": 0, "cmd": "hello", "protocol": 1}))
    server.answer(json.dumps({"seq": 1, "cmd": "new_game", "rules": Rules().to_dict()}))
    hands = [cards_to_wire(hand) for hand in deal(Rules(), seed=1)]
    assert server.answer(json.dumps({"seq": 2, "cmd": "start_round", "hands": hands, "direction": "left"}))["ok"]
    return server, hands


def test_serve_answers_the_points_of_detail_as_the_protocol_page_says():
    server, hands = _served()

    def error(command: dict) -> dict:
        reply = server.answer(json.dumps({"seq": 3, **command}))
        assert reply["ok"] is False, reply
        return reply["error"]
    assert error({"cmd": "pass", "seat": 4, "cards": hands[0][:3]}) == {
        "kind": "illegal", "message": "PASS-COUNT: no seat 4 with 4 players", "rule": "PASS-COUNT"}
    assert error({"cmd": "pass", "seat": 0, "cards": [hands[0][0]] * 2 + [hands[0][1]]})["kind"] == "bad-request"
    assert error({"cmd": "start_round", "hands": hands, "direction": "none"})["message"].startswith("DEAL-HANDS:")
    for changes in ({"hearts_restriction": "discard"}, {"players": 5}, {"players": 7}):
        rejected = error({"cmd": "new_game", "rules": {**Rules().to_dict(), **changes}})
        assert rejected["kind"] == "bad-request" and next(iter(changes)) in rejected["message"] + "pass_cycle"


def test_ten_is_written_10_on_the_wire():
    from jsonschema import Draft202012Validator
    card = json.loads((ROOT / "spec" / "protocol" / "definitions.schema.json").read_text(encoding="utf-8"))
    validator = Draft202012Validator(card["$defs"]["card"])
    assert validator.is_valid("10H") and not validator.is_valid("TH")
    assert cards_to_wire(CardSet.parse("TH TC")) == ["10C", "10H"]
    vectors = "".join(path.read_text(encoding="utf-8") for path in (ROOT / "spec" / "vectors").rglob("*.json"))
    assert '"10H"' in vectors and not re.search(r'"T[CDSH]"', vectors)
