"""A minimal Hearts engine, judged by hearts-ref in process: the default rules, four players.

It is written as an engine author writes one: its own rules code, with cards as strings
such as "QS" and "10H"; hearts-ref is imported only for the types of the interface it
implements (hearts_ref.engine.Engine). Judge it from this folder:

    hearts-ref conform --engine python:minimal_engine:MinimalEngine

Each refusal raises EngineRejection with the rule ID that forbids the move, so that the
runner can check the engine refused for the right reason.
"""

from hearts_ref import Capabilities, CardSet, EngineRejection, Observation

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = {rank + suit for suit in "CDSH" for rank in RANKS}
PASS_OFFSET = {"left": 1, "right": 3, "across": 2, "none": 0}   # to the seat that many places clockwise


def suit(card):
    return card[-1]


def rank(card):
    return RANKS.index(card[:-1])


def points(card):
    return 13 if card == "QS" else 1 if suit(card) == "H" else 0


class MinimalEngine:
    name = "minimal-python"
    version = "1.0"

    def capabilities(self):
        # Everything but the defaults is declined; the runner skips those cases, saying why.
        return Capabilities(unsupported={
            "players": (3, 5, 6), "first_trick_points": ("forbidden", "allowed"), "can_lead_any_club": (True,),
            "hearts_broken_by": ("any-heart", "lead"), "qs_breaks_hearts": (True,), "must_break_hearts": (False,),
            "hearts_restriction": ("discard",), "can_lead_hearts_instead_of_qs": (True,),
            "moon": ("subtract", "off"), "jd_bonus": (True,), "avoid_all_tricks_bonus": (True,),
            "end_comparison": (">",), "ties": ("play-on",)})

    def new_game(self, rules):
        self.threshold, self.max_rounds = rules.end_threshold, rules.max_rounds
        self.totals, self.rounds, self.round_scores = [0] * 4, 0, None
        self.phase, self.points, self.trick, self.broken = "round-over", [0] * 4, [], False

    def start_round(self, hands, direction):
        if self.phase == "game-over":
            raise EngineRejection("the game is over", "END-THRESHOLD")
        if self.phase != "round-over":
            raise EngineRejection("a round is still being played", "DEAL-HANDS")
        hands = [{str(card) for card in hand} for hand in hands]
        if len(hands) != 4 or any(len(hand) != 13 for hand in hands) or set().union(*hands) != DECK:
            raise EngineRejection("four hands of 13 cards, each card once", "DEAL-HANDS")
        self.hands, self.offset, self.chosen = hands, PASS_OFFSET[direction], [None] * 4
        self.trick, self.leader, self.tricks_played, self.broken = [], 0, 0, False
        self.taken, self.points = [set() for _ in range(4)], [0] * 4
        self.phase = "pass" if self.offset else "play"
        if not self.offset:
            self.begin_play()

    def pass_cards(self, seat, cards):
        cards = {str(card) for card in cards}
        if self.phase != "pass":
            raise EngineRejection("no pass in this round", "PASS-CYCLE")
        if 0 <= seat < 4 and self.chosen[seat] is not None:
            raise EngineRejection("this seat has already chosen", "PASS-SIMULTANEOUS")
        if not 0 <= seat < 4 or len(cards) != 3 or not cards <= self.hands[seat]:
            raise EngineRejection("pass exactly three cards of your own hand", "PASS-COUNT")
        self.chosen[seat] = cards
        if all(self.chosen):   # the cards change hands once every seat has chosen
            for seat in range(4):
                self.hands[seat] -= self.chosen[seat]
            for seat in range(4):
                self.hands[(seat + self.offset) % 4] |= self.chosen[seat]
            self.begin_play()

    def begin_play(self):
        self.phase = "play"
        self.to_move = self.leader = next(s for s in range(4) if "2C" in self.hands[s])

    def legal(self):
        hand = self.hands[self.to_move]
        if not self.trick:                      # leading
            if self.tricks_played == 0:
                return {"2C"}                   # LEAD-OPEN
            safe = {card for card in hand if suit(card) != "H"}
            return hand if self.broken or not safe else safe   # LEAD-HEARTS
        same = {card for card in hand if suit(card) == suit(self.trick[0])}
        if same:
            return same                         # FOLLOW-SUIT
        if self.tricks_played == 0:
            safe = {card for card in hand if not points(card)}
            return safe or hand                 # FIRST-NO-POINTS, FIRST-EXCEPTION
        return hand                             # FOLLOW-VOID

    def refusal(self, card):
        if card not in self.hands[self.to_move]:
            return "TRICK-ORDER"
        if not self.trick:
            return "LEAD-OPEN" if self.tricks_played == 0 else "LEAD-HEARTS"
        if any(suit(c) == suit(self.trick[0]) for c in self.hands[self.to_move]):
            return "FOLLOW-SUIT"
        return "FIRST-NO-POINTS"

    def legal_plays(self):
        return CardSet(self.legal()) if self.phase == "play" else CardSet()

    def play(self, card, seat=None):
        card = str(card)
        if self.phase != "play":
            raise EngineRejection(f"no card can be played in the {self.phase} phase", "TRICK-ORDER")
        if seat is not None and seat != self.to_move:
            raise EngineRejection(f"seat {seat} may not play: it is seat {self.to_move}'s turn", "TRICK-ORDER")
        if card not in self.legal():
            rule = self.refusal(card)
            raise EngineRejection(f"{card} may not be played", rule)
        self.hands[self.to_move].remove(card)
        if suit(card) == "H" and self.trick and suit(self.trick[0]) != "H":
            self.broken = True                  # BREAK-DISCARD: a heart discarded on another suit
        self.trick.append(card)
        self.to_move = (self.to_move + 1) % 4
        if len(self.trick) == 4:
            self.finish_trick()

    def finish_trick(self):
        led = suit(self.trick[0])
        best = max((c for c in self.trick if suit(c) == led), key=rank)
        winner = (self.leader + self.trick.index(best)) % 4   # TRICK-WINNER
        self.taken[winner] |= set(self.trick)
        self.points[winner] += sum(points(c) for c in self.trick)
        self.trick, self.leader, self.to_move = [], winner, winner   # LEAD-WINNER
        self.tricks_played += 1
        if self.tricks_played == 13:
            self.finish_round()

    def finish_round(self):
        scores = list(self.points)
        if 26 in scores:                        # SCORE-MOON: the others take 26 each
            scores = [0 if p == 26 else 26 for p in scores]
        self.round_scores = scores
        self.totals = [t + s for t, s in zip(self.totals, scores)]
        self.rounds += 1
        self.broken = False
        ended = max(self.totals) >= self.threshold or self.rounds == self.max_rounds   # END-THRESHOLD
        self.phase = "game-over" if ended else "round-over"

    def observe(self):
        playing = self.phase in ("pass", "play")
        if self.phase == "pass":
            to_move = next(s for s in range(4) if self.chosen[s] is None)
        else:
            to_move = self.to_move if self.phase == "play" else None
        over = self.phase == "game-over"
        low = min(self.totals)
        return Observation(
            phase=self.phase, to_move=to_move, trick=tuple(self.trick) if playing else (),
            hearts_broken=self.broken and playing, points_taken=tuple(self.points),
            round_scores=None if self.round_scores is None else tuple(self.round_scores),
            totals=tuple(self.totals), game_over=over,
            winners=tuple(s for s in range(4) if self.totals[s] == low) if over else ())
