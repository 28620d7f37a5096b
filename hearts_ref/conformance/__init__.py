"""The conformance runner: judge any Hearts engine against hearts-ref's reference.

An engine is driven through the :class:`hearts_ref.engine.Engine` interface (in process,
or over the stdio protocol). The runner plays the conformance vectors and perft counts,
then differential games (the same deal and the same choices on the reference and the
engine, every observable judged at every step, played on past a difference) and negative
checks (illegal moves that must be refused), and writes a report by rule ID, each finding
named by the rule it breaks, with a shrunk reproduction of every distinct finding.

- :func:`run_conformance` — the whole suite, as ``hearts-ref conform`` runs it;
- :func:`run_differential` — the differential games alone (``hearts-ref verify`` uses it);
- :func:`replay_case` — replay one reproduction (``hearts-ref conform --replay``);
- :func:`merge_reports` — join the reports of shards of one campaign.
"""

from hearts_ref.conformance.differential import run_game
from hearts_ref.conformance.findings import Deviation, GameRun
from hearts_ref.conformance.policies import POLICY_NAMES
from hearts_ref.conformance.report import Case, Report, junit_xml, load_report, merge_reports
from hearts_ref.conformance.runner import load_engine, replay_case, run_conformance, run_differential

__all__ = ["run_conformance", "run_differential", "replay_case", "load_engine", "merge_reports", "load_report",
           "junit_xml", "Report", "Case", "Deviation", "GameRun", "run_game", "POLICY_NAMES"]
