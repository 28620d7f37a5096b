"""In-process Python engines with planted faults, served by ``hearts-ref serve --engine python:...``."""

from __future__ import annotations

from hearts_ref import Capabilities, CardSet, ReferenceEngine


class FourPlayersOnly(ReferenceEngine):
    """Declares that it cannot play with 3, 5 or 6 players."""

    name = "four-players-only"

    def capabilities(self) -> Capabilities:
        return Capabilities(unsupported={"players": (3, 5, 6)}, known_deviations=("SCORE-MOON",))


class NoUnevenHands(ReferenceEngine):
    """Declares that it cannot deal uneven hands (even_out = "uneven")."""

    name = "no-uneven-hands"

    def capabilities(self) -> Capabilities:
        return Capabilities(unsupported={"even_out": ("uneven",)})


class ExplodesOnThirdPlay(ReferenceEngine):
    """Raises ZeroDivisionError on the third play of each game: an internal error."""

    name = "explodes"

    def new_game(self, rules) -> None:
        super().new_game(rules)
        self.plays = 0

    def play(self, card) -> None:
        self.plays += 1
        if self.plays == 3:
            raise ZeroDivisionError("planted")
        super().play(card)


class CrashesOnTheQueen(ReferenceEngine):
    """Raises RuntimeError whenever the Q♠ is played, led or followed: one failure, at steps of several rules."""

    name = "crashes-on-the-queen"

    def play(self, card) -> None:
        if str(card) == "QS":
            raise RuntimeError("planted: the queen of spades")
        super().play(card)


class IgnoresFollowSuit(ReferenceEngine):
    """A planted rules bug: while following, it offers the whole hand as legal (FOLLOW-SUIT ignored)."""

    name = "ignores-follow-suit"

    def legal_plays(self) -> CardSet:
        state = self.game.round if self.game is not None else None
        if state is None or state.phase != "play" or not state.trick:
            return super().legal_plays()
        return state.hand(state.to_move)


class DeclinesTheJack(ReferenceEngine):
    """Answers ``unsupported`` (not a refusal, not a failure) when asked to play with jd_bonus."""

    name = "declines-the-jack"

    def new_game(self, rules) -> None:
        from hearts_ref.engines.failures import EngineUnsupported
        if rules.jd_bonus:
            raise EngineUnsupported("jd_bonus is not supported")
        super().new_game(rules)


class CapabilitiesAsDict(ReferenceEngine):
    """A bug of an in-process engine: capabilities() returns a dict."""

    def capabilities(self):
        return {"multi_round": True}


class ObservesNothing(ReferenceEngine):
    """A bug of an in-process engine: observe() returns None."""

    def observe(self):
        return None


class LegalAsText(ReferenceEngine):
    """A bug of an in-process engine: legal_plays() returns a list of strings."""

    def legal_plays(self):
        return [str(card) for card in super().legal_plays()]


class ExitsDuringPlay(ReferenceEngine):
    """A bug of an in-process engine: it calls sys.exit(3) on its fifth play."""

    def new_game(self, rules) -> None:
        super().new_game(rules)
        self.plays = 0

    def play(self, card) -> None:
        self.plays += 1
        if self.plays == 5:
            raise SystemExit(3)
        super().play(card)


class CitesTheWrongRule(ReferenceEngine):
    """Refuses illegal plays rightly, but always cites FOLLOW-SUIT."""

    def play(self, card) -> None:
        from hearts_ref.engine import EngineRejection
        try:
            super().play(card)
        except EngineRejection as error:
            raise EngineRejection(f"FOLLOW-SUIT: {error.reason}", "FOLLOW-SUIT") from None


class NoPassing(ReferenceEngine):
    """Declares it does not pass cards (it is the reference otherwise)."""

    def capabilities(self) -> Capabilities:
        return Capabilities(passing=False)


def ignores_follow_suit() -> IgnoresFollowSuit:
    """A factory: ``python:tests.engines.python_engines:ignores_follow_suit`` calls it for the engine."""
    return IgnoresFollowSuit()


# An engine object: ``python:tests.engines.python_engines:IGNORES_FOLLOW_SUIT`` is used as it is.
IGNORES_FOLLOW_SUIT = IgnoresFollowSuit()


class RefusesThreePlayerDeals(ReferenceEngine):
    """Refuses a deal of three hands as illegal, though it declares nothing unsupported."""

    name = "refuses-three-player-deals"

    def start_round(self, hands, direction):
        if len(hands) == 3:
            from hearts_ref.engine import EngineRejection
            raise EngineRejection("three hands: bad deal", "DEAL-HANDS")
        return super().start_round(hands, direction)


class IllegalMoveRaisesValueError(ReferenceEngine):
    """Refuses an illegal play with its own ValueError, not EngineRejection: an engine failure, not a rule broken."""

    name = "illegal-move-raises-value-error"

    def play(self, card, seat=None) -> None:
        from hearts_ref.engine import EngineRejection
        try:
            super().play(card, seat)
        except EngineRejection:
            raise ValueError(f"illegal: {card}") from None
