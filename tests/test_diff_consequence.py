"""What a difference in hearts broken changes in play (hearts_ref.diff.consequence): the first play found whose legal
cards differ, checked by replaying its round on the engine under both rulesets, independently of the search."""

import pytest

from hearts_ref.cards import CARDS
from hearts_ref.cardset import CardSet
from hearts_ref.diff.compare import Comparer
from hearts_ref.diff.consequence import consequence_of, first_changed_play
from hearts_ref.diff.soonest import soonest_legal_difference
from hearts_ref.diff.rounds import dealt_for
from hearts_ref.game import Game
from hearts_ref.variants import Rules


def _replay(rules: Rules, hands, plays):
    """The round at its first lead holding ``hands`` (dealt and passed as dealt_for says), then ``plays``: the game
    after each play, the first being the game before any."""
    direction = rules.pass_direction(1)
    dealt, passes = dealt_for(rules, hands, direction)
    game = Game.new(rules).deal_round(tuple(CardSet.from_mask(h) for h in dealt), direction=direction)
    for seat, cards in enumerate(passes or ()):
        game = game.choose_pass(seat, CardSet.from_mask(cards))
    games = [game]
    for card in plays:
        game = game.play(CARDS[card])
        games.append(game)
    return games


@pytest.mark.parametrize("b, breaking, rule", [
    (Rules(qs_breaks_hearts=True), "QS", "LEAD-HEARTS"),          # BREAK-QUEEN: the Q♠ breaks hearts on B only
    (Rules.preset("seed004"), None, "LEAD-HEARTS"),               # BREAK-DISCARD: any heart breaks them on B
])
def test_the_play_found_is_the_first_of_its_round_whose_legal_cards_differ(b, breaking, rule):
    a = Rules()
    _check_found(first_changed_play(a, b), a, b, breaking, rule)


def _check_found(found, a: Rules, b: Rules, breaking: str | None, rule: str) -> None:
    """The consequence's round, replayed on both sides independently of the search, shows what it says."""
    assert found is not None and found.part.kind == "legal"
    planned = found.script.rounds[0]
    side_a, side_b = _replay(a, planned.hands, planned.plays), _replay(b, planned.hands, planned.plays)
    broken = [g.round.context.hearts_broken != h.round.context.hearts_broken for g, h in zip(side_a, side_b)]
    assert broken.index(True) == found.broken_at, "hearts broken first parts after play broken_at"
    if breaking is not None:   # the card that broke hearts on one side, or its suit
        text = str(CARDS[planned.plays[found.broken_at - 1]])
        assert breaking in (text, text[-1])
    legal = [g.round.legal != h.round.legal for g, h in zip(side_a, side_b)]
    assert legal.index(True) == len(planned.plays), "no earlier play of the round has different legal cards"
    assert len(planned.plays) + 1 == found.part.play and found.broken_at < found.part.play
    a_legal, b_legal = side_a[-1].round.legal, side_b[-1].round.legal
    if side_b[-1].round.context.hearts_broken:
        assert a_legal & ~b_legal == 0 and b_legal & ~a_legal, "B, hearts broken, allows more than A"
        assert found.rules == (rule, None)
    else:
        assert b_legal & ~a_legal == 0 and a_legal & ~b_legal, "A, hearts broken, allows more than B"
        assert found.rules == (None, rule)
    assert found.part.values["legal"] == (str(side_a[-1].round.legal_plays()), str(side_b[-1].round.legal_plays()))


def test_the_search_is_deterministic_and_keeps_the_soonest_play():
    a, b = Rules(), Rules(qs_breaks_hearts=True)
    first, again = first_changed_play(a, b), first_changed_play.__wrapped__(a, b)   # (searched again, not cached)
    assert first.script == again.script and first.part == again.part
    fewer = first_changed_play(a, b, games=20)
    assert fewer is not None and fewer.part.play >= first.part.play, "more rounds searched never find a later play"


def test_rulesets_whose_legal_cards_never_depend_on_hearts_broken_have_none():
    """must_break_hearts off on both sides: hearts broken restricts nothing, no legal set can differ through it."""
    a = Rules(must_break_hearts=False)
    assert first_changed_play(a, Rules(must_break_hearts=False, qs_breaks_hearts=True), games=60) is None


def test_the_diff_command_asks_only_where_hearts_broken_restricts_a_play():
    comparer = Comparer()
    restricting = comparer.compare(Rules(), Rules(qs_breaks_hearts=True))
    assert restricting.difference.kind == "broken" and consequence_of(restricting) is not None
    free = comparer.compare(Rules(must_break_hearts=False), Rules(must_break_hearts=False, qs_breaks_hearts=True))
    assert free.in_play is not None and consequence_of(free) is None   # (in_play says they play alike)
    legal = comparer.compare(Rules(), Rules.preset("seed001"))
    assert legal.difference.kind == "legal" and consequence_of(legal) is None


def test_no_consequence_is_searched_where_one_side_leads_hearts_whatever_is_broken():
    """must_break_hearts off on B alone: B may lead a heart broken or not, so a later difference in the legal cards
    is must_break_hearts' (the breakdown by parameter shows it), not hearts broken's: nothing is put down to it."""
    result = Comparer().compare(Rules(), Rules(must_break_hearts=False, qs_breaks_hearts=True))
    assert result.difference.kind == "broken" and result.in_play is None
    assert consequence_of(result) is None


@pytest.mark.parametrize("b, breaking", [
    (Rules(qs_breaks_hearts=True), "QS"),          # the Q♠ discarded on the first trick by a hand of only points
    (Rules(hearts_broken_by="lead"), "H"),         # a heart discarded on the first trick breaks hearts on A only
])
def test_played_on_from_the_smallest_game_it_reaches_the_play_z3_proves_the_soonest(b, breaking):
    a = Rules()
    found = consequence_of(Comparer().compare(a, b))
    _check_found(found, a, b, breaking, "LEAD-HEARTS")
    assert found.bound.proved and found.part.play == found.bound.play == 5 and found.soonest
    assert found.claim.startswith("proved the soonest") and found.games == 0   # (no random round was needed)


def test_where_no_round_reaches_the_bound_the_claim_says_both():
    """seed004's smallest game parts hearts broken at play 5 with a lead of only hearts: z3 proves no play before 9
    can differ, the search finds a later one, and the claim says the two apart."""
    a, b = Rules(), Rules.preset("seed004")
    found = consequence_of(Comparer().compare(a, b))
    _check_found(found, a, b, None, "LEAD-HEARTS")
    assert found.bound.play == 9 and found.bound.proved and found.part.play > 9 and not found.soonest
    assert found.part.play <= 13, "played on from deals near the smallest game's: a lead of trick 4 at the latest"
    assert found.claim == ("the soonest found, not proved the soonest: z3 proves no play before play 9 can show "
                           "different legal cards")


def test_the_bound_is_asked_play_by_play_with_hearts_broken_alike_until_the_sides_part():
    a = Rules()
    qs = soonest_legal_difference(a, Rules(qs_breaks_hearts=True), parted=2)
    assert (qs.play, qs.proved) == (5, True), "the first lead after the first trick"
    # hearts broken alike up to play 5, where the sides part: the lead at play 5 is the same on both sides
    assert soonest_legal_difference(a, Rules.preset("seed004"), parted=5).play == 9
    # a difference in the legal cards whatever hearts broken shows: at the first lead already
    assert soonest_legal_difference(a, Rules(can_lead_any_club=True), parted=1).play == 1
    same = soonest_legal_difference(a, Rules(), parted=52)
    assert (same.play, same.proved, same.queries) == (None, True, 0), "the same rules: the same formulas, no query"


def test_a_planted_bug_that_leads_hearts_while_they_are_unbroken_leaves_no_play_to_differ(monkeypatch):
    """The bound is asked of the engine's own legal_plays: with LEAD-HEARTS planted away (every card may be led), no
    legal set depends on hearts broken, and z3 proves that no play of the round can differ; the real rule gives 5."""
    import hearts_ref.legality

    monkeypatch.setattr(hearts_ref.legality, "hearts_leads", lambda hand, ctx, rules, ops=None: hand)
    planted = soonest_legal_difference.__wrapped__(Rules(), Rules(qs_breaks_hearts=True), parted=2)
    assert (planted.play, planted.proved) == (None, True)
    monkeypatch.undo()
    assert soonest_legal_difference.__wrapped__(Rules(), Rules(qs_breaks_hearts=True), parted=2).play == 5
