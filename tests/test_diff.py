"""`hearts_ref.diff`: two rulesets compared in play, with known answers.

Each difference found is the smallest game (fewest rounds, then fewest plays) and replays on
the engine to the difference it claims; each equivalence is proved over every reachable state,
and random games played under both rulesets never part.
"""

import dataclasses
import itertools
import json
import random

import pytest

import hearts_ref.legality
from hearts_ref import CARDS, Game, Rules
from hearts_ref.cardset import CardSet
from hearts_ref.diff.compare import BREAKING, DIFFERENT, EQUIVALENT, Comparer, breaking_aside
from hearts_ref.diff.games import replay
from hearts_ref.diff.rulesets import differing
from hearts_ref.diff.onestep import SAME, one_step
from hearts_ref.engine import ReferenceEngine, observe_game
from hearts_ref.variants import PRESETS

COMPARER = Comparer()


def compare(a, b):
    return COMPARER.compare(a, b)


def test_score_moon_add_and_subtract_differ_in_one_round():
    result = compare(Rules(moon="add"), Rules(moon="subtract"))
    difference = result.difference
    assert result.verdict == DIFFERENT and difference.kind == "scores" and difference.smallest
    assert (difference.part.round, difference.part.play) == (1, 52) and len(difference.script.rounds) == 1
    add, subtract = difference.part.values["round_scores"]
    assert sorted(add) == [0, 26, 26, 26] and sorted(subtract) == [-26, 0, 0, 0]
    assert add.index(0) == subtract.index(-26)          # the same player shot the moon on both sides


def test_seed000_against_itself_is_equivalent_with_every_part_the_same_formula():
    result = compare(Rules.preset("seed000"), Rules.preset("seed000"))
    assert result.verdict == EQUIVALENT and result.difference is None and not result.open
    assert [part.status for part in result.proof][:4] == [SAME] * 4
    assert result.proof[-1].status == "proved"          # the end: the same function, checked on every total class


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("before, after", [
    ({"must_break_hearts": False}, {"must_break_hearts": False, "can_lead_hearts_instead_of_qs": True}),
    ({"end_comparison": ">", "end_threshold": 100}, {"end_comparison": ">=", "end_threshold": 101}),
    ({"hearts_restriction": "discard", "hearts_broken_by": "lead"},
     {"hearts_restriction": "discard", "hearts_broken_by": "any-heart"}),
], ids=["lead-hearts-without-must-break", "threshold-101-or-more-than-100", "discard-restriction-breaking"])
def test_a_pair_proved_equivalent_stays_equivalent_under_every_preset(preset, before, after):
    base = Rules.preset(preset).to_dict()
    result = compare(Rules(**(base | before)), Rules(**(base | after)))
    assert result.verdict == EQUIVALENT, (result.difference and result.difference.part, result.open)


# Known answers: (A, B) -> (kind, round, play) of the smallest game.
KNOWN = {
    ("seed000", "seed001"): ("legal", 1, 2), ("seed000", "seed002"): ("legal", 1, 2),
    ("seed000", "seed004"): ("broken", 1, 5), ("seed000", "openspiel"): ("broken", 1, 2),
    ("seed001", "seed003"): ("legal", 1, 5), ("seed004", "openspiel"): ("broken", 1, 2),
}
PARAMETER_KNOWN = {
    "pass_cards=false": ({"pass_cards": False}, ("pass", 1, 0)),
    "pass_cycle": ({"pass_cycle": "left-right-none"}, ("pass", 3, 0)),
    "can_lead_any_club": ({"can_lead_any_club": True}, ("legal", 1, 1)),
    "qs_breaks_hearts": ({"qs_breaks_hearts": True}, ("broken", 1, 2)),
    "must_break_hearts": ({"must_break_hearts": False}, ("legal", 1, 5)),
    "can_lead_hearts_instead_of_qs": ({"can_lead_hearts_instead_of_qs": True}, ("legal", 1, 5)),
    "jd_bonus": ({"jd_bonus": True}, ("points", 1, 4)),
    "avoid_all_tricks_bonus": ({"avoid_all_tricks_bonus": True}, ("scores", 1, 52)),
    "moon=off": ({"moon": "off"}, ("scores", 1, 52)),
    "end_threshold=50": ({"end_threshold": 50}, ("end", 2, 52)),
    "end_comparison": ({"end_comparison": ">"}, ("end", 4, 52)),
    "max_rounds=1": ({"max_rounds": 1}, ("end", 1, 52)),
    "ties=play-on": ({"ties": "play-on"}, ("end", 4, 52)),
}
PAIRS = {f"{a}-{b}": (Rules.preset(a), Rules.preset(b)) for a, b in itertools.combinations(PRESETS, 2)}
PAIRS |= {name: (Rules(), Rules(**values)) for name, (values, _) in PARAMETER_KNOWN.items()}


@pytest.mark.parametrize("pair", list(KNOWN))
def test_presets_part_where_known(pair):
    result = compare(Rules.preset(pair[0]), Rules.preset(pair[1]))
    part = result.difference.part
    assert (part.kind, part.round, part.play) == KNOWN[pair] and result.difference.smallest


@pytest.mark.parametrize("name", list(PARAMETER_KNOWN))
def test_each_parameter_alone_from_seed000_parts_where_known(name):
    values, expected = PARAMETER_KNOWN[name]
    difference = compare(Rules(), Rules(**values)).difference
    assert (difference.kind, difference.part.round, difference.part.play) == expected and difference.smallest


def test_players_count_parts_at_the_deal_with_no_common_game():
    difference = compare(Rules(), Rules(players=6)).difference
    assert difference.kind == "deal" and difference.script is None and difference.part.values["players"] == (4, 6)


def _engine_observations(rules, script, part):
    """Play the script on the reference engine (the Engine interface); return (legal, observation) after the deal
    and passes of each round and after each play."""
    from hearts_ref.diff.rounds import dealt_for
    engine, seen = ReferenceEngine(), []
    engine.new_game(rules)
    for number, planned in enumerate(script.rounds, 1):
        direction = rules.pass_direction(number)
        if number == part.round and part.kind == "pass":   # the sides deal the same hands, then pass differently
            engine.start_round([CardSet.from_mask(h) for h in planned.hands], direction)
            return seen + [(str(engine.legal_plays()), engine.observe())]
        dealt, passes = dealt_for(rules, planned.hands, direction)
        engine.start_round([CardSet.from_mask(h) for h in dealt], direction)
        for seat, cards in enumerate(passes or ()):
            engine.pass_cards(seat, CardSet.from_mask(cards))
        seen.append((str(engine.legal_plays()), engine.observe()))
        for card in planned.plays:
            engine.play(CARDS[card])
            seen.append((str(engine.legal_plays()), engine.observe()))
    return seen


@pytest.mark.parametrize("name", list(PAIRS))
def test_each_smallest_game_replays_on_the_engine_to_the_claimed_difference(name):
    """Both engines agree until the last step of the script and differ exactly there, in what the part says."""
    a, b = PAIRS[name]
    difference = compare(a, b).difference
    if difference.script is None:
        pytest.skip("no game is valid under both rulesets")
    part = difference.part
    seen_a, seen_b = _engine_observations(a, difference.script, part), _engine_observations(b, difference.script, part)
    assert len(seen_a) == len(seen_b)
    assert seen_a[:-1] == seen_b[:-1], "the sides part before the step the difference names"
    (legal_a, observed_a), (legal_b, observed_b) = seen_a[-1], seen_b[-1]
    if part.kind == "legal":
        assert legal_a != legal_b and [legal_a, legal_b] == list(part.values["legal"])
    else:
        field = {"broken": "hearts_broken", "points": "points_taken", "scores": "round_scores", "end": "game_over",
                 "pass": "phase"}[part.kind]
        assert getattr(observed_a, field) != getattr(observed_b, field)
    replayed = replay(a, b, difference.script)
    assert replayed.part == part


@pytest.mark.parametrize("name", list(PAIRS))
def test_each_sides_game_record_passes_the_referee_under_its_own_rules(name):
    """Each side's game, played on to the end of the round where they part (or to its deadlock), is a valid record."""
    from hearts_ref.diff.report import drawn
    from hearts_ref.reading import check_schema
    from hearts_ref.record_reader import record_from_json
    from hearts_ref.referee import referee
    a, b = PAIRS[name]
    result = compare(a, b)
    view = drawn(result, "A", "B")
    if view.records is None:
        pytest.skip("no game is valid under both rulesets")
    for rules, record in zip((a, b), view.records):
        check_schema(record, "record.schema.json")
        assert Rules.from_dict(record["rules"]) == rules
        verdict = referee(record_from_json(record))
        assert verdict.valid, [finding.text() for finding in verdict.findings]
        assert len(record["rounds"]) + ("deadlock" in record) == result.difference.part.round


def _joint_random_game(a, b, seed, broken_shown=True):
    """Play a random game under ``a`` and feed every move to a game under ``b``; return the first step they differ
    (in what they show but hearts broken, without ``broken_shown``)."""
    rng = random.Random(seed)
    game_a, game_b = Game.new(a, seed=seed), Game.new(b, seed=seed)
    for step in range(2000):
        if game_a.over or game_a.deadlocked:
            return None if game_b.over == game_a.over and game_b.deadlocked == game_a.deadlocked else step
        state = game_a.round
        if state.passing:
            seat = state.to_move
            cards = CardSet(rng.sample(list(state.hand(seat)), 3))
            game_a, game_b = game_a.choose_pass(seat, cards), game_b.choose_pass(seat, cards)
        else:
            if state.legal != game_b.round.legal:
                return step
            card = CARDS[rng.choice([i for i in range(52) if state.legal >> i & 1])]
            game_a, game_b = game_a.play(card), game_b.play(card)
        seen_a, seen_b = observe_game(game_a), observe_game(game_b)
        if not broken_shown:
            seen_a, seen_b = (dataclasses.replace(seen, hearts_broken=False) for seen in (seen_a, seen_b))
        if seen_a != seen_b:
            return step
    return None


ASIDE = [(Rules(must_break_hearts=False), Rules(must_break_hearts=False, qs_breaks_hearts=True)),
         (Rules(must_break_hearts=False), Rules(must_break_hearts=False, hearts_broken_by="any-heart")),
         (Rules.preset("seed003", must_break_hearts=False),
          Rules.preset("seed003", must_break_hearts=False, qs_breaks_hearts=True, hearts_broken_by="any-heart")),
         (Rules(must_break_hearts=False), Rules(must_break_hearts=False, qs_breaks_hearts=True, jd_bonus=True))]


@pytest.mark.parametrize("a, b", ASIDE, ids=["queen", "any-heart", "seed003-queen-any-heart", "queen-and-jack"])
def test_break_hearts_breaking_set_aside_plays_as_the_side_itself_where_broken_restricts_nothing(a, b):
    """The claim under ``in_play``, tied to the engine: with must_break_hearts = false, ``b`` breaking hearts as
    ``a`` does (:func:`breaking_aside`) plays every game as ``b`` — the same legal sets, points, scores and end —
    and differs at most in hearts broken; and ``diff`` says what that comparison finds."""
    aside = breaking_aside(a, b)
    assert aside is not None and aside != b and all(getattr(aside, n) == getattr(a, n) for n in BREAKING)
    assert [_joint_random_game(b, aside, seed, broken_shown=False) for seed in range(8)] == [None] * 8
    assert any(_joint_random_game(b, aside, seed) is not None for seed in range(8))   # the state itself differs
    result = compare(a, b)
    assert result.difference.kind == "broken" and result.in_play is not None
    assert (result.in_play.verdict == EQUIVALENT) == (set(differing(a, b)) <= set(BREAKING))
    assert breaking_aside(Rules(), Rules(qs_breaks_hearts=True)) is None   # broken restricts the lead there
    assert compare(Rules(), Rules(qs_breaks_hearts=True)).in_play is None


def test_diff_says_when_sides_that_part_in_hearts_broken_alone_play_alike(capsys):
    from hearts_ref.cli import main
    assert main(["diff", "seed000 must_break_hearts=false", "qs_breaks_hearts=true"]) == 1   # they show it apart
    out = capsys.readouterr().out
    assert "hearts broken restricting no play on either side, they play alike (proved)" in out
    assert out.splitlines()[3].startswith("DIFFERENT in what they show, ALIKE in play: the sides part in round 1")
    assert "the sides play alike (proved)" in out
    assert main(["diff", "seed000 must_break_hearts=false", "qs_breaks_hearts=true jd_bonus=true", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["difference"]["kind"] == "broken" and data["in_play"]["verdict"] == "different"
    assert data["in_play"]["difference"]["rules"][0] == "SCORE-JACK"


@pytest.mark.parametrize("before, after", [
    (Rules.preset("seed003"), Rules.preset("seed003", hearts_broken_by="any-heart")),
    (Rules.preset("openspiel"), Rules.preset("openspiel", ties="play-on", pass_cycle="left-right-none")),
    (Rules(players=3, pass_cycle="left-right-none"),
     Rules(players=3, pass_cycle="left-right-none", first_trick_points="forbidden")),
], ids=["seed003-breaking", "openspiel-one-round", "three-players-first-trick"])
def test_an_equivalence_is_never_contradicted_by_random_games(before, after):
    assert compare(before, after).verdict == EQUIVALENT
    assert [_joint_random_game(before, after, seed) for seed in range(6)] == [None] * 6


def test_an_equivalence_that_holds_only_in_reachable_states_needs_the_unreachable_contexts():
    """Under seed003 a heart led while unbroken breaks hearts either way, so no one follows hearts unbroken:
    the context z3 alone refutes is unreachable, and the comparison says so rather than reporting a difference."""
    a, b = Rules.preset("seed003"), Rules.preset("seed003", hearts_broken_by="any-heart")
    asked = one_step(a, b, COMPARER.prover, COMPARER.formulas(a))
    unreachable = [x for x in asked.answers if x.status == "unreachable"]
    assert any("lead of a ♥" in x.detail for x in unreachable) and not asked.candidates
    assert any("no round reaches" in part.covers for part in compare(a, b).proof)


def test_a_planted_bug_leaking_a_parameter_into_a_rule_is_a_difference_named_by_that_rule(monkeypatch):
    """A first-trick rule that reads end_threshold (a bug) makes two rulesets that differ only in the end part on
    the first trick, named FIRST-NO-POINTS, instead of after the rounds that reach 50 points."""
    real = hearts_ref.legality.first_trick_discards

    def leaky(hand, rules, ops=hearts_ref.legality.BITS):
        if rules.end_threshold == 50:
            return hand & ~hearts_ref.legality.POINT_CARDS
        return real(hand, rules, ops)

    monkeypatch.setattr(hearts_ref.legality, "first_trick_discards", leaky)
    difference = Comparer().compare(Rules(), Rules(end_threshold=50)).difference
    assert (difference.kind, difference.part.round, difference.part.play) == ("legal", 1, 2)
    from hearts_ref.diff.report import drawn
    view = drawn(Comparer().compare(Rules(), Rules(end_threshold=50)), "A", "B")
    assert view.applies[1][0] == "FIRST-NO-POINTS"


def test_a_difference_too_early_for_z3_to_allow_is_not_claimed():
    """The smallest game is proved smallest: z3 finds no difference at any earlier play of the round."""
    a, b = Rules(), Rules.preset("seed004")
    asked = one_step(a, b, COMPARER.prover, COMPARER.formulas(a))
    assert min(c.earliest for c in asked.candidates) == 5
    assert compare(a, b).difference.part.play == 5


def test_rule_functions_that_disagree_with_the_engine_are_reported_not_trusted():
    """The plug point for formal statements: a search run on other rule functions is replayed on the engine; a
    planted statement that forgets FIRST-EXCEPTION when the threshold is 50 parts the sides only on paper."""
    import dataclasses

    from hearts_ref.diff.semantics import Semantics

    def statement(hand, ctx, rules, ops=hearts_ref.legality.BITS):
        if rules.end_threshold == 50:
            rules = dataclasses.replace(rules, first_trick_points="forbidden")
        return hearts_ref.legality.legal_plays(hand, ctx, rules, ops)

    result = Comparer(semantics=Semantics(legal_plays=statement)).compare(Rules(), Rules(end_threshold=50))
    assert result.verdict == "unsettled" and result.difference is None
    assert "does not show when the game is replayed on the reference engine" in result.open[-1]
