"""hearts-ref: the rules of Hearts as a specification, a reference engine, proofs and a conformance suite.

The public API, re-exported here:

>>> from hearts_ref import Rules, Game, Card
>>> game = Game.new(Rules.preset("seed000"), seed=1)
>>> game.round.phase
'pass'
"""

from hearts_ref.cards import (
    CARDS, JACK_OF_DIAMONDS, QUEEN_OF_SPADES, TEN_OF_CLUBS, THREE_OF_CLUBS, TWO_OF_CLUBS,
    Card, Rank, Suit, parse_card,
)
from hearts_ref.cardset import CardSet
from hearts_ref.errors import (
    HeartsError, IllegalPassError, IllegalPlayError, InvalidCardError, RecordError, RulesError,
)
from hearts_ref.game import Game, RoundResult
from hearts_ref.legality import Context, legal_plays, rejecting_rule
from hearts_ref.deals import complete_deal, deal
from hearts_ref.engine import Capabilities, Engine, EngineRejection, Observation, ReferenceEngine
from hearts_ref.round import DeadlockError, RoundState, Trick, start_round
from hearts_ref.scoring import RoundScore, round_scores
from hearts_ref.simulate import random_game
from hearts_ref.variants import PARAMETERS, PRESETS, Rules

__version__ = "0.1.0"

__all__ = [
    "CARDS", "Capabilities", "Card", "CardSet", "Context", "Engine", "EngineRejection", "Observation", "ReferenceEngine", "DeadlockError", "Game", "HeartsError", "IllegalPassError",
    "IllegalPlayError", "InvalidCardError", "JACK_OF_DIAMONDS", "PARAMETERS", "PRESETS", "QUEEN_OF_SPADES",
    "Rank", "RecordError", "complete_deal", "RoundResult", "RoundScore", "RoundState", "Rules", "RulesError", "Suit",
    "TEN_OF_CLUBS", "THREE_OF_CLUBS", "TWO_OF_CLUBS", "Trick", "deal", "legal_plays", "parse_card",
    "random_game", "rejecting_rule", "round_scores", "start_round", "__version__",
]
