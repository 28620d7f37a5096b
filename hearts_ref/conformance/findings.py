"""What a differential game finds: the differences, each named by the rule it breaks, and the game's outcome.

A :class:`Deviation` is one finding: at one step the engine did what the reference would
not, with the rule IDs it concerns, the cause first. A game plays on past its findings
(:mod:`.differential`), so a :class:`GameRun` holds every distinct finding of the game (the
first step at which each showed), the engine failure that ended it if one did, and how far
it went.

>>> finding = Deviation("observation", ("BREAK-QUEEN",), 9, {"round": 1, "action": "play", "card": "QS"})
>>> finding.signature(), finding.round
(('observation', 'BREAK-QUEEN'), 1)

An engine failure breaks no rule: two are the same when the engine failed the same way in the
same call, whatever rule the step it failed at concerns (a crash at every Q♠ is one finding,
whether the queen was led or followed):

>>> crash = Deviation("engine-error", ("FOLLOW-SUIT",), 30, {}, message="crashed: play(QS): exit code 3")
>>> crash.signature()
('engine-error', 'crashed: play')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from hearts_ref.cardset import CardSet
from hearts_ref.game import Game

__all__ = ["Difference", "Deviation", "GameRun", "KINDS", "plain", "failure_message", "finding_key", "failure_cause",
           "flaky_text"]

# What a finding can be: a difference in what the engine shows, in its legal set, a legal move
# it refused; in negative checks an illegal move accepted, refused citing another rule, or
# refused with a change of state; from an engine that deals for itself, a deal the rules forbid.
# An engine failure (timeout, crash …) is an error, not a finding.
KINDS = ("observation", "legal-set", "rejected-legal", "accepted-illegal", "wrong-rule", "state-changed",
         "illegal-deal", "engine-error")


class Difference(NamedTuple):
    """One observable that differs: its name, the value the rules give, the engine's value."""

    field: str
    expected: Any
    actual: Any


@dataclass(frozen=True)
class Deviation:
    """One finding (or, with kind ``engine-error``, the engine failure that ended a game).

    ``rule_ids``: the rules concerned, the rule broken first; ``step``: the move at which it
    showed (1 is the first deal); ``where``: the round, the action, the trick, the seat, the card.
    """

    kind: str
    rule_ids: tuple[str, ...]
    step: int
    where: dict[str, Any]
    differences: tuple[Difference, ...] = ()
    message: str = ""
    # the hands gone astray that would explain it, should its round show them: then they are put first
    # (:meth:`~.verdicts.Verdicts.record`); not part of the finding itself
    explained_by: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @property
    def round(self) -> int:
        """The round in which it showed (0 before the first deal)."""
        return int(self.where.get("round", 0))

    @property
    def is_error(self) -> bool:
        """Whether this is an engine failure rather than a deviation from the rules."""
        return self.kind == "engine-error"

    def signature(self) -> tuple[str, str]:
        """What makes two findings the same (:func:`finding_key`): the kind and the rule broken, or for an engine
        failure how it failed and in which call."""
        return finding_key(self.kind, self.rule_ids, self.message)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "rule_ids": list(self.rule_ids), "step": self.step, "where": self.where,
                "differences": [{"field": d.field, "expected": plain(d.expected), "actual": plain(d.actual)}
                                for d in self.differences],
                "message": self.message}


def finding_key(kind: str, rule_ids: Any, message: str = "") -> tuple[str, str]:
    """What makes two findings the same: the kind and the rule broken (the first rule ID); for an engine failure
    (``engine-error``), which breaks no rule, the kind and its cause (:func:`failure_cause`): the rules of the step
    it failed at say only where it happened. ``rule_ids`` and ``message`` as a finding's, or its JSON entry's."""
    if kind == "engine-error":
        return kind, failure_cause(message)
    return kind, rule_ids[0] if rule_ids else ""


def failure_cause(message: str) -> str:
    """How an engine failed and in which call, from a failure's message (:func:`failure_message`): its verdict and
    the call without its arguments (``crashed: play``, ``timeout: pass_cards``, ``KeyError: an illegal move``)."""
    verdict, said, rest = message.partition(": ")
    call = (rest if said else verdict).split("(", 1)[0].split(":", 1)[0].strip()
    return f"{verdict}: {call}" if said else call


def failure_message(what: str, error: BaseException) -> str:
    """An engine failure in words, its verdict first: ``crashed: play(QS): engine exited with code 3 …``."""
    from hearts_ref.engines.failures import failure_text

    verdict, _, rest = failure_text(error).partition(": ")
    return f"{verdict}: {what}: {rest}"


def shrink_label(repro: dict[str, Any]) -> tuple[str, bool]:
    """How far a finding's game was shrunk, as the summary and the pytest items say it, and whether the shrink was
    cut short: ``minimal game``, ``smallest game found`` (its budget ran out), or ``its game, not shrunk (why)``.

    >>> shrink_label({"search": {"finished": True}}), shrink_label({"search": {"finished": False}})
    (('minimal game', False), ('smallest game found', True))
    >>> shrink_label({"search": {"skipped": "not shrunk: no shrink budget"}})[0]
    'its game, not shrunk (no shrink budget)'
    """
    search = repro.get("search") or {}
    cut = search.get("finished") is False   # the budget ran out: maybe not the smallest
    if "skipped" in search:   # the game up to the finding's round
        return f"its game, not shrunk ({str(search['skipped']).removeprefix('not shrunk: ')})", cut
    return ("smallest game found" if cut else "minimal game"), cut


def flaky_text(replays: dict[str, Any], found_at: Any) -> str:
    """How the replays of a flaky finding went (``replays``: its times, the ``finding`` replayed, and its runs, each
    with the step it failed at, or None, and the finding it showed), beside the step it was found at: ``FLAKY:
    replayed 3 times on a fresh engine: step 5, no failure, …``. A replay that showed another finding says so: its
    step is not where this one failed.

    >>> flaky_text({"times": 2, "runs": [{"step": None}, {"step": None}]}, 0)
    'FLAKY: replayed 2 times on a fresh engine, it failed so in none of them (at step 0 when found: the failure may depend on what the engine did before that game)'
    >>> flaky_text({"times": 2, "finding": ["rule", "WIN-LOWEST"],
    ...             "runs": [{"step": 0, "finding": ["rule", "WIN-LOWEST"]}, {"step": None}]}, 7)
    'FLAKY: replayed 2 times on a fresh engine: step 0, no failure (step 7 when found)'
    >>> flaky_text({"times": 1, "finding": ["engine-error", "crashed: new_game"],
    ...             "runs": [{"step": 212, "finding": ["rule", "WIN-LOWEST"]}]}, 0).split(" (at")[0]
    'FLAKY: replayed 1 times on a fresh engine, it failed so in none of them: another finding (WIN-LOWEST) at step 212'
    """
    target = replays.get("finding")
    runs = replays.get("runs", [])

    def shown(run: dict[str, Any]) -> str:
        if run.get("step") is None:
            return "no failure"
        if target is not None and run.get("finding") not in (None, target):
            return f"another finding ({(run['finding'] or ['', '?'])[-1]}) at step {run['step']}"
        return f"step {run['step']}"

    said = [shown(run) for run in runs]
    head = f"FLAKY: replayed {replays.get('times')} times on a fresh engine"
    if all(text.startswith(("no failure", "another finding")) for text in said):
        others = [text for text in said if text != "no failure"]
        return (f"{head}, it failed so in none of them" + (f": {', '.join(others)}" if others else "")
                + f" (at step {found_at} when found: the failure may depend on what the engine did before that game)")
    return f"{head}: {', '.join(said)} (step {found_at} when found)"


def plain(value: Any) -> Any:
    """A value as JSON holds it: tuples as lists, card sets as their text."""
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    if isinstance(value, CardSet):
        return str(value)
    return value


@dataclass
class GameRun:
    """One differential game: its script, its findings, the failure that ended it, its size, its checks.

    ``findings`` holds the first occurrence of each distinct finding, in the order they showed;
    ``repeats`` how many more times each showed. ``stopped`` says why the game ended before
    its end (the phases diverged, a deadlock of the rules, a limit, the engine declined).
    """

    choices: Any   # the game's script, or the decider that recorded it (its ``script``, read when first asked for)
    findings: list[Deviation]
    steps: int
    rounds: int
    checks: dict[str, list[int]] = field(default_factory=dict)   # rule ID -> [refused, failed, cited]
    stopped: str = ""
    round_starts: list[int] = field(default_factory=list)   # where each round's choices begin in the script
    game: Game | None = None      # the reference's finished game, when the game was played to its end
    unsupported: bool = False     # stopped because the engine declined (an ``unsupported`` reply)
    error: Deviation | None = None   # the engine failure that ended the game
    repeats: dict[tuple[str, str], int] = field(default_factory=dict)
    reference: Game | None = None   # the reference's game as played, its round in play included
    plays: dict[int, Any] = field(default_factory=dict)   # the reference's plays of rounds judged in one go, by number

    @property
    def script(self) -> list[int]:
        """The game's choices (:mod:`.script`), to replay it."""
        if not isinstance(self.choices, list):
            self.choices = self.choices.script
        return self.choices

    @property
    def deviation(self) -> Deviation | None:
        """The first difference of the game: its first finding, or the failure if that came first."""
        first = self.findings[0] if self.findings else None
        if self.error is not None and (first is None or self.error.step < first.step):
            return self.error
        return first

    def finding(self, signature: tuple[str, str]) -> Deviation | None:
        """The finding with this signature, or the failure with it (also by its kind and first rule ID, as a
        replay case written before failures were told apart by their cause names it)."""
        error = self.error
        if error is not None and signature in (error.signature(), (error.kind, (error.rule_ids or ("",))[0])):
            return error
        return next((f for f in self.findings if f.signature() == signature), None)
