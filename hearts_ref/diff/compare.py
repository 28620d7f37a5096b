"""Comparing two rulesets: equivalent in play (proved), or the smallest game in which they part.

:func:`compare` asks, in the order a game shows them, where two sides could first differ:

1. the deal (PLAYERS-COUNT: different numbers of players share no deal) and the first pass;
2. a play of the first round: the one-step questions of :mod:`hearts_ref.diff.onestep` in every
   context, each refutation reached in a real round by :mod:`hearts_ref.diff.reach`. Every state
   a round can reach can be reached in the first round, up to turning the table (whatever the pass,
   the hands at the first lead can be any deal of the sizes it deals; with uneven hands a later
   round's state is one of round 1 turned to its dealer, and the rules are the same at every seat),
   so a difference in play shows in round 1 if anywhere;
3. the scores of the first round (:func:`~hearts_ref.diff.onestep.score_question`, then a round
   built to show it);
4. the end of the game and later pass directions (:mod:`hearts_ref.diff.endgame`).

The first difference found is replayed on the reference engine under both rulesets
(:func:`hearts_ref.diff.games.replay`), which says where the sides part; the game is the
smallest — fewest rounds, then fewest plays — when no earlier candidate remains (``smallest``).
When nothing differs, :attr:`Comparison.proof` lists what was proved and over which states.

>>> from hearts_ref import Rules
>>> result = compare(Rules(moon="add"), Rules(moon="subtract"))
>>> result.verdict, result.difference.kind, result.difference.part.round, result.difference.part.play
('different', 'scores', 1, 52)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from hearts_ref.deals import complete_deal
from hearts_ref.diff.endgame import end_question, outcomes_of, search_end
from hearts_ref.diff.games import Part, Script, ScriptRound, engine_rules, replay
from hearts_ref.diff.onestep import SAME, UNREACHABLE, Formulas, one_step, score_question
from hearts_ref.diff.reach import reach
from hearts_ref.diff.rounds import RoundPlan, play_plan
from hearts_ref.diff.rulesets import differing
from hearts_ref.diff.semantics import ENGINE, Semantics, rules_for
from hearts_ref.errors import HeartsError, RulesError
from hearts_ref.variants import Rules
from properties.solving import PROVED, Prover

__all__ = ["Difference", "ProofPart", "Comparison", "compare", "Comparer", "breaking_aside", "BREAKING", "EQUIVALENT",
           "DIFFERENT", "UNSETTLED"]

EQUIVALENT, DIFFERENT, UNSETTLED = "equivalent", "different", "unsettled"


@dataclass(frozen=True)
class Difference:
    """The smallest game found in which the sides part: the script both play, where the engine says they part,
    and whether no smaller game can exist (``smallest``, with ``note`` saying why not when it is False)."""

    kind: str
    script: Script | None
    part: Part
    smallest: bool
    note: str = ""
    rules: tuple[str, ...] = ()      # the rules that decide it: those the engine names first, then the registry's


@dataclass(frozen=True)
class ProofPart:
    """One part of an equivalence proof: what was compared, over which states, and how it came out."""

    name: str
    status: str          # same (identical formulas), proved, unsettled, or n/a
    covers: str
    queries: int = 0


@dataclass(frozen=True)
class Comparison:
    """The outcome of comparing rules ``a`` with rules ``b``."""

    a: Rules
    b: Rules
    verdict: str
    difference: Difference | None
    proof: tuple[ProofPart, ...] = ()
    open: tuple[str, ...] = ()          # why the comparison is not settled, or why a game may not be the smallest
    seconds: float = 0.0
    parameters: tuple[str, ...] = field(default_factory=tuple)
    # sides that part first in whether hearts are broken where that restricts no play on either side: ``a`` against
    # ``b`` with ``a``'s way of breaking hearts, which plays as ``b`` does in all else (:func:`breaking_aside`)
    in_play: Comparison | None = None


# The parameters that say only when hearts break (BREAK-*) or what being unbroken restricts once must_break_hearts is
# on: with must_break_hearts = false on both sides, hearts broken restricts no play (BREAK-DISCARD: "it restricts
# nothing"), and these change nothing but the state shown.
BREAKING = ("qs_breaks_hearts", "hearts_broken_by", "hearts_restriction")


def breaking_aside(a: Rules, b: Rules) -> Rules | None:
    """``b`` with ``a``'s way of breaking hearts (:data:`BREAKING`), when hearts broken restricts no play under
    either (``must_break_hearts`` false on both): a ruleset whose every legal set, point and score is ``b``'s;
    else None."""
    if a.must_break_hearts or b.must_break_hearts:
        return None
    try:
        return replace(b, **{name: getattr(a, name) for name in BREAKING})
    except RulesError:
        return None


class Comparer:
    """Compares rulesets, sharing one z3 prover (and its answers) and remembering each pair compared."""

    def __init__(self, *, timeout: float = 30.0, semantics: Semantics = ENGINE):
        self.prover = Prover(timeout=timeout)
        self.semantics = semantics
        self._done: dict[tuple[Rules, Rules], Comparison] = {}
        self._formulas: dict[int, Formulas] = {}

    def formulas(self, rules: Rules) -> Formulas:
        """The shared symbolic formulas for this number of players."""
        if rules.players not in self._formulas:
            self._formulas[rules.players] = Formulas(rules, self.semantics)
        return self._formulas[rules.players]

    def compare(self, a: Rules, b: Rules) -> Comparison:
        if (a, b) not in self._done:
            start = time.perf_counter()
            result = self._compare(a, b)
            broken = result.difference is not None and result.difference.kind == "broken"
            aside = breaking_aside(a, b) if broken else None   # (never b: the sides break hearts apart)
            in_play = self.compare(a, aside) if aside is not None and aside != b else None
            self._done[a, b] = Comparison(a, b, result.verdict, result.difference, result.proof, result.open,
                                          time.perf_counter() - start, differing(a, b), in_play)
        return self._done[a, b]

    def _compare(self, a: Rules, b: Rules) -> Comparison:
        if a.players != b.players:   # PLAYERS-COUNT, DECK-REMOVED: no deal is valid on both sides
            part = Part("deal", 1, 0, 0, {"players": (a.players, b.players)})
            return Comparison(a, b, DIFFERENT, Difference("deal", None, part, True, "",
                                                          rules_for("deal", differing(a, b))))
        if a.pass_direction(1) != b.pass_direction(1):
            return self._found(a, b, Script((ScriptRound(_plain_deal(a), ()),)), True)
        proof: list[ProofPart] = []
        opened: list[str] = []
        found = self._in_round(a, b, proof, opened)
        if found is not None:
            return found
        found = self._scores(a, b, proof, opened)
        if found is not None:
            return found
        found = self._end(a, b, proof, opened)
        if found is not None:
            return found
        return Comparison(a, b, UNSETTLED if opened else EQUIVALENT, None, tuple(proof), tuple(opened))

    def _found(self, a: Rules, b: Rules, script: Script, smallest: bool, note: str = "",
               opened: list[str] | None = None) -> Comparison:
        replayed = replay(a, b, script)
        part = replayed.part
        if part is None:   # the rule functions searched with are not the engine's, and disagree with it here
            return Comparison(a, b, UNSETTLED, None, open=tuple(opened or ()) + (
                "a difference found with the rule functions compared does not show when the game is replayed on "
                f"the reference engine ({len(script.rounds)} round(s), {sum(len(r.plays) for r in script.rounds)} "
                "plays): those functions and the engine disagree",))
        named = tuple(rule for rule in (engine_rules(replayed) if part.kind == "legal" else ()) if rule)
        rules = tuple(dict.fromkeys(named + rules_for(part.kind, differing(a, b))))
        return Comparison(a, b, DIFFERENT, Difference(part.kind, script, part, smallest and not note, note, rules),
                          open=tuple(opened or ()))

    def _in_round(self, a: Rules, b: Rules, proof: list[ProofPart], opened: list[str]) -> Comparison | None:
        asked = one_step(a, b, self.prover, self.formulas(a))
        best, unreached = None, []
        for candidate in asked.candidates:
            if best is not None and candidate.earliest >= best.play:
                break
            reached = reach(a, b, asked.lowest(candidate), limit=best.play - 1 if best else None,
                            semantics=self.semantics)
            if reached is None:
                unreached.append(candidate)
            else:
                best = reached
        if best is not None:
            note = ""
            earlier = [c for c in unreached if c.earliest < best.play]
            if earlier or asked.open():
                note = ("an earlier difference may exist: no game reached " + "; ".join(c.describe() for c in earlier)
                        if earlier else "some contexts were not settled by z3: "
                        + "; ".join(f"{x.kind} {x.situation.describe()}: {x.status}" for x in asked.open()))
            plays = best.plays + ((best.card,) if best.card is not None else ())
            return self._found(a, b, Script((ScriptRound(best.hands, plays),)), True, note)
        for kind, name in (("legal", "the legal plays"), ("broken", "whether a play breaks hearts"),
                           ("points", "the points of each card")):
            answers = [x for x in asked.answers if x.kind == kind]
            statuses = {x.status for x in answers}
            status = SAME if statuses <= {SAME, UNREACHABLE} else (
                PROVED if statuses <= {SAME, PROVED, UNREACHABLE} else UNSETTLED)
            reasons = sorted({x.detail for x in answers if x.status == UNREACHABLE})
            unreachable = sum(1 for x in answers if x.status == UNREACHABLE)
            covers = (f"{name}, in each of the {len(answers)} contexts of a play (leading or following each suit, the "
                      "first trick or a later one, hearts broken or not), for every hand of a size that context allows"
                      + (f"; {unreachable} of them no round reaches: {'; '.join(reasons)}" if unreachable else ""))
            proof.append(ProofPart(name, status, covers, sum(x.queries for x in answers)))
        opened += [f"no game reached the one-step difference {c.describe()}" for c in unreached]
        opened += [f"z3 did not settle {x.kind} in {x.situation.describe()}: {x.status} {x.detail}".rstrip()
                   for x in asked.open()]
        return None

    def _scores(self, a: Rules, b: Rules, proof: list[ProofPart], opened: list[str]) -> Comparison | None:
        status, queries = score_question(a, b, self.prover, self.semantics)
        covers = "the round scores and points, for every division of the cards in play into the piles the players take"
        if status in (SAME, PROVED):
            proof.append(ProofPart("the round scores", status, covers, queries))
            return None
        scores = self.semantics.score_terms
        for outcome in outcomes_of(a):
            plan = outcome.plan
            if scores(plan.taken, a) != scores(plan.taken, b) and _legal(b, plan):
                return self._found(a, b, Script((ScriptRound(plan.hands, plan.plays),)), not opened,
                                   "; ".join(opened), opened)
        proof.append(ProofPart("the round scores", UNSETTLED, covers, queries))
        opened.append(f"the round scores may differ (z3: {status}), but no round built to order shows it")
        return None

    def _end(self, a: Rules, b: Rules, proof: list[ProofPart], opened: list[str]) -> Comparison | None:
        question = end_question(a, b, self.semantics)
        if question.last:
            rounds = ("after round 1, the last a game can reach" if question.rounds == 1 else
                      f"after each of the rounds 1 to {question.rounds}, the last a game can reach")
        else:
            rounds = (f"after every round (rounds 1 to {question.rounds} looked at: the end reads the round number "
                      "only against the round limit, and the pass cycles repeat every 12 rounds)")
        covers = (f"the end of the game (END-THRESHOLD, WIN-TIE) {rounds}, for every total (each class of highest "
                  "total the thresholds make, the lowest total alone or shared), and the pass direction of each next "
                  "round (PASS-CYCLE)")
        if question.status == PROVED:
            proof.append(ProofPart("the end and the passes", PROVED, covers))
            return None
        found = search_end(a, b, question, self.prover, self.semantics)
        if found is None:
            proof.append(ProofPart("the end and the passes", UNSETTLED, covers))
            round_number, kind, totals = question.first
            opened.append(f"the {kind} may differ (round {round_number}" + (f", totals {totals}" if totals else "")
                          + "), but no game of rounds built to order reaches it")
            return None
        rounds = [ScriptRound(plan.hands, plan.plays) for plan in found.rounds]
        if found.kind == "pass":
            rounds.append(ScriptRound(_plain_deal(a), ()))
        note = "; ".join(opened)
        if not found.smallest:
            note = (note + "; " if note else "") + (
                f"fewer rounds may do: a round gives a player at most {found.bound} points (proved), which allows "
                "a difference sooner" if found.bound is not None else "z3 did not bound a round's score")
        return self._found(a, b, Script(tuple(rounds)), True, note, opened)


def _plain_deal(rules: Rules) -> tuple[int, ...]:
    """The deal used where any deal shows the difference: the cards handed out lowest first, seat by seat."""
    return tuple(hand.mask for hand in complete_deal(rules, {}))


def _legal(rules: Rules, plan: RoundPlan) -> bool:
    """Whether every play of ``plan`` is legal under ``rules``."""
    try:
        return play_plan(rules, plan).is_over
    except HeartsError:
        return False


_DEFAULT: Comparer | None = None


def compare(a: Rules, b: Rules) -> Comparison:
    """Compare ``a`` with ``b`` (one shared :class:`Comparer` per process)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Comparer()
    return _DEFAULT.compare(a, b)


