"""The proofs can fail: each rule bug of ``tests/planted_rules.py``, planted in the engine, makes a proof fail with a
counterexample.

Every bug is proved through the prover's API on the invariants that must catch it (the same
claims ``hearts-ref prove`` checks, with real z3); a few go through the real command, which
must then exit 1 and print the counterexample. The unpatched engine passes the same proofs
(and the same commands: ``tests/test_cli_prove.py``).
"""

from __future__ import annotations

import pytest

from hearts_ref.cli import main
from tests.planted_rules import BUGS, caught_by, planted, prove_bug

# Through the command too: a play rule, a score, the engine's own transition, the z3 backend and the end of a game.
THROUGH_THE_COMMAND = ("FOLLOW-SUIT removed", "the moon worth 25", "the wrong seat leads the next trick",
                       "ties ignored under play-on")


def _prove(args: tuple[str, ...], capsys: pytest.CaptureFixture) -> tuple[int, str]:
    code = main(["prove", *args])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("settings", sorted({bug.settings for bug in BUGS}), ids=lambda s: ",".join(s) or "seed000")
def test_the_unpatched_engine_passes_every_planted_bugs_proofs(settings):
    bugs = [bug for bug in BUGS if bug.settings == settings]
    invariants = tuple(sorted({invariant for bug in bugs for invariant in bug.caught_by}))
    results = prove_bug(bugs[0], invariants)
    assert all(r.matches for r in results), [(r.invariant, r.status, r.expected, r.detail) for r in results]


@pytest.mark.parametrize("bug", BUGS, ids=lambda bug: bug.name)
def test_a_planted_rule_bug_makes_its_proof_fail_with_a_counterexample(bug):
    with planted(bug) as returned:
        assert bug.real(returned), f"the planted bug {bug.name!r} changes nothing on its concrete case"
        results = prove_bug(bug)
    assert caught_by(results), [(r.invariant, r.status, r.expected, r.detail) for r in results]


@pytest.mark.parametrize("name", THROUGH_THE_COMMAND)
def test_a_planted_rule_bug_makes_the_prove_command_fail(name, capsys):
    bug = next(bug for bug in BUGS if bug.name == name)   # unpatched, the command passes (tests/test_cli_prove.py)
    with planted(bug):
        code, out = _prove(bug.cli_args, capsys)
    assert code == 1, out[-3000:]
    wrong = [line for line in out.splitlines() if "(expected " in line and ")*" in line]
    assert any(invariant in line for line in wrong for invariant in bug.caught_by), "\n".join(wrong) or out[-3000:]
    assert "Counterexamples:" in out or "never ends" in out, out[-3000:]


def test_at_least_fifteen_bugs_are_planted_each_with_its_own_name():
    assert len(BUGS) >= 15 and len({bug.name for bug in BUGS}) == len(BUGS)
