"""The minimal engine with one bug an engine author could make: the Q♠ breaks hearts.

Under the default rules only a heart discarded on another suit breaks hearts (BREAK-DISCARD);
the Q♠ does so only with ``qs_breaks_hearts = true`` (BREAK-QUEEN). Judge it to see a finding:

    hearts-ref conform --engine python:buggy_engine:QueenBreaksHearts
"""

from minimal_engine import MinimalEngine


class QueenBreaksHearts(MinimalEngine):
    name = "queen-breaks-hearts"

    def play(self, card, seat=None):
        super().play(card, seat)
        if str(card) == "QS" and self.phase == "play":
            self.broken = True
