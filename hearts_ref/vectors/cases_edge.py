"""Edge cases and whole random games.

Edge cases: a leader holding only hearts before hearts are broken, a first-trick hand of only
point cards, the Q♠ offered on the first trick, a moon spoiled by one heart, a moon with the J♦
in play, a moon that pushes the others past the threshold, ties at the end (shared and play-on),
3 and 5 players. Whole games: a few per sound preset (``EXPECTED_UNSOUND`` lists the others).
"""

from __future__ import annotations

from collections.abc import Callable

from hearts_ref.game import Game, is_game_over
from hearts_ref.spec import load_rules
from hearts_ref.simulate import random_game
from hearts_ref.variants import EXPECTED_UNSOUND, PRESETS, Rules
from hearts_ref.vectors.builder import game_case
from hearts_ref.vectors.cases_play import OPENING, TWELVE_HEARTS, play_case
from hearts_ref.vectors.cases_score import moon_deal
from hearts_ref.vectors.lines import CatalogueError, fill_deal, script_deal
from hearts_ref.vectors.model import Case

__all__ = ["edge_cases", "game_cases", "SOUND_PRESETS", "GAMES_PER_PRESET"]

SOUND_PRESETS = tuple(name for name in PRESETS if name not in EXPECTED_UNSOUND)
GAMES_PER_PRESET = 3


def edge_cases() -> list[Case]:
    """The edge cases the rules are most often got wrong on."""
    return _play_edges() + _moon_edges() + _game_edges()


def _play_edges() -> list[Case]:
    rules = Rules(pass_cards=False)
    cases = []
    b = play_case("edge.leader-holds-only-hearts", "Hearts unbroken, seat 3 leads holding only hearts: it may lead "
                  "a heart, and that lead does not break hearts; then the round is played out.",
                  ["LEAD-HEARTS", "BREAK-DISCARD"], kind="edge")
    b.deal(script_deal(rules, 0, [OPENING], extra={3: TWELVE_HEARTS})).play(OPENING)
    cases.append(b.check(legal=TWELVE_HEARTS).play("2H").check(hearts_broken=False).play_out().build())
    b = play_case("edge.first-trick-only-point-cards", "On the first trick seat 1, void in clubs and holding only "
                  "the Q♠ and hearts, may play a heart; being a discard, it breaks hearts.",
                  ["FIRST-EXCEPTION", "FIRST-NO-POINTS", "BREAK-DISCARD"], kind="edge")
    b.deal(fill_deal(rules, {0: "2C", 1: f"QS {TWELVE_HEARTS}"})).play("2C").check(legal=f"QS {TWELVE_HEARTS}")
    cases.append(b.play("KH").check(hearts_broken=True).play_out().build())
    b = play_case("edge.queen-offered-on-first-trick", "On the first trick seat 1, void in clubs, offers the Q♠: "
                  "it is rejected because seat 1 holds cards that score nothing.", ["FIRST-NO-POINTS"], kind="edge")
    b.deal(fill_deal(rules, {0: "2C", 1: "QS 4D 9S"}, voids={1: "C"})).play("2C")
    cases.append(b.reject_play("QS", "FIRST-NO-POINTS").play("4D").play_out().build())
    return cases


def _moon_edges() -> list[Case]:
    rules = Rules(pass_cards=False)
    cases = []
    b = play_case("edge.moon-spoiled-by-one-heart", "Seat 0 takes the Q♠ and twelve hearts but seat 2 takes one "
                  "heart: no moon, seat 0 scores 25 and seat 2 scores 1.", ["SCORE-MOON", "SCORE-POINTS"], kind="edge")
    b.deal(fill_deal(rules, {0: "AC KC QC KD QD JD AS KS QS AH KH QH JH", 2: "AD"}, voids={3: "D"}))
    cases.append(b.play_out(points=(25, 0, 1, 0), owners={"QS": 0}).check(moon=None).build())
    b = play_case("edge.moon-with-jack-of-diamonds", "With the J♦ bonus seat 0 shoots the moon and takes the J♦ "
                  "as well: it scores -10 (0 for the moon, -10 for the J♦) and every other seat 26.",
                  ["SCORE-MOON", "SCORE-JACK"], kind="edge", jd_bonus=True)
    cases.append(b.deal(moon_deal(b.rules)).play_out(points=(26, 0, 0, 0), owners={"JD": 0}).check(moon=0).build())
    b = play_case("edge.moon-past-threshold", "Seat 0 shoots the moon four rounds running: the fourth moon pushes "
                  "the others from 78 to 104, the game ends and seat 0 wins on 0.",
                  ["SCORE-MOON", "END-THRESHOLD", "WIN-LOWEST"], kind="edge")
    for number in range(4):
        hands = moon_deal(rules)
        rotated = (hands[0],) + tuple(hands[1 + (seat + number) % 3] for seat in range(3))
        b.deal(rotated).play_out(points=(26, 0, 0, 0)).check(game_over=number == 3)
    cases.append(b.check(totals=(0, 104, 104, 104), winners=(0,)).build())
    return cases


def _first_game(rules: Rules, wanted: Callable[[Game], bool], what: str, tries: int = 3000) -> tuple[Game, int]:
    """Return the first random game (seeds 1, 2, …) for which ``wanted`` holds, with its seed."""
    for seed in range(1, tries + 1):
        game = random_game(rules, seed=seed)
        if wanted(game):
            return game, seed
    raise CatalogueError(f"no random game with {what} in {tries} seeds")


def _tie_passed(game: Game) -> bool:
    """Whether, before the last round, the threshold was reached with a tie for the lowest total."""
    shared = Rules(**(game.rules.to_dict() | {"ties": "shared"}))
    totals = [0] * game.rules.players
    for number, result in enumerate(game.results[:-1], 1):
        totals = [t + s for t, s in zip(totals, result.score.scores)]
        if is_game_over(tuple(totals), number, shared):
            return True
    return False


def _game_edges() -> list[Case]:
    cases = []
    rules = Rules()
    game, seed = _first_game(rules, lambda g: len(g.winners) > 1, "a tie for the win")
    cases.append(game_case(game, "edge.tie-shared-at-100", f"A whole game (seed {seed}) that ends with "
                           f"{len(game.winners)} seats tied on {min(game.totals)}: they share the win.",
                           ["WIN-TIE", "WIN-LOWEST", "END-THRESHOLD"], kind="edge"))
    rules = Rules(ties="play-on")
    game, seed = _first_game(rules, _tie_passed, "a tie at the threshold")
    cases.append(game_case(game, "edge.tie-play-on-at-100", f"A whole game (seed {seed}) in which a round reaches "
                           "100 with a tie for the lowest total; with ties=play-on the game goes on until one seat "
                           "alone is lowest.", ["WIN-TIE", "END-THRESHOLD"], kind="edge"))
    for players in (3, 5):
        rules = Rules.preset("seed002", players=players, pass_cycle="left-right-none")
        game = random_game(rules, seed=1)
        cases.append(game_case(game, f"edge.{players}-players-game", f"A whole game for {players} players (seed 1): "
                               f"{rules.hand_size} cards each, {' '.join(c.glyph for c in rules.removed_cards)} out "
                               f"of the deck, passing left, right, none.",
                               ["PLAYERS-COUNT", "DECK-REMOVED", "LEAD-OPEN", "PASS-CYCLE", "SCORE-TOTAL"],
                               kind="edge", preset="seed002"))
    return cases


def game_cases() -> dict[str, list[Case]]:
    """Return, per sound preset, a few whole random games; each preset has its own seeds."""
    every_rule = list(load_rules())
    result = {}
    for index, preset in enumerate(SOUND_PRESETS):
        rules = Rules.preset(preset)
        seeds = range(index * GAMES_PER_PRESET + 1, (index + 1) * GAMES_PER_PRESET + 1)
        result[preset] = [
            game_case(game, f"game.{preset}.seed-{seed}", f"A whole game under preset {preset} (seed {seed}): "
                      f"{len(game.results)} round{'s' if len(game.results) != 1 else ''} of random passes and random "
                      "legal plays.", every_rule, preset=preset)
            for seed in seeds for game in [random_game(rules, seed=seed)]]
    return result
