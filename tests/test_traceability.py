"""Traceability: every rule ID in spec/ is cited by the engine code that enforces it and by a test,
and nothing cites an ID that does not exist.

A rule-ID-like token is a word of upper-case letters and hyphens starting with one of the
chapter prefixes of spec/ (``LEAD-``, ``SCORE-`` …). Other catalogues of IDs (the invariants in
``properties/``, the vectors) register their IDs with :func:`known_other_ids`.
"""

import re
from pathlib import Path

import pytest

from hearts_ref.spec import RULE_ID, load_rules

ROOT = Path(__file__).resolve().parent.parent
RULES = load_rules()
PREFIXES = sorted({rule_id.split("-")[0] for rule_id in RULES})
CITATION = re.compile(r"(?<![A-Za-z0-9_-])(?:" + "|".join(PREFIXES) + r")(?:-[A-Z]+)+(?![A-Za-z0-9_-])")


def known_other_ids() -> set[str]:
    """IDs of other catalogues that may share a prefix with rule IDs (for example FIRST-TRICK-NO-DEADLOCK)."""
    ids: set[str] = set()
    try:
        from properties.catalogue import INVARIANTS   # the invariant catalogue, when present
        ids |= {invariant.id for invariant in INVARIANTS}
    except ImportError:
        pass
    return ids


def citations(paths) -> dict[str, set[str]]:
    """rule-ID-like token -> the files citing it."""
    found: dict[str, set[str]] = {}
    for path in paths:
        for token in CITATION.findall(path.read_text(encoding="utf-8")):
            found.setdefault(token, set()).add(str(path.relative_to(ROOT)))
    return found


ENGINE = citations(p for p in (ROOT / "hearts_ref").rglob("*.py"))
TESTS = citations(p for p in (ROOT / "tests").rglob("*.py") if p.name != "test_traceability.py")
# A test named after a rule cites it too: test_follow_suit_… and test_invalid_follow_suit_… cite FOLLOW-SUIT.
_TEST_SOURCE = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py"))
for _rule_id in RULES:
    _snake = _rule_id.lower().replace("-", "_")
    if re.search(rf"def test_(invalid_)?{_snake}(_|\()", _TEST_SOURCE):
        TESTS.setdefault(_rule_id, set()).add("tests (by name)")
SPEC = citations((ROOT / "spec").rglob("*.md"))


def test_spec_rule_ids_are_well_formed_and_chaptered():
    assert len(RULES) >= 27
    for rule_id, rule in RULES.items():
        assert RULE_ID.match(rule_id), rule_id
        assert rule.section("Rule"), f"{rule_id} has no **Rule.** section"
        assert rule.section("Sources"), f"{rule_id} has no **Sources.** section"


@pytest.mark.parametrize("rule_id", sorted(RULES))
def test_every_rule_is_cited_by_the_engine(rule_id):
    assert rule_id in ENGINE, f"{rule_id} is in spec/ but no code in hearts_ref/ cites it"


@pytest.mark.parametrize("rule_id", sorted(RULES))
def test_every_rule_is_exercised_by_a_test(rule_id):
    assert rule_id in TESTS, f"{rule_id} is in spec/ but no test in tests/ cites it"


@pytest.mark.parametrize("where, found", [("hearts_ref", ENGINE), ("tests", TESTS), ("spec", SPEC)])
def test_no_citation_of_an_unknown_id(where, found):
    unknown = {token: sorted(files) for token, files in found.items()
               if token not in RULES and token not in known_other_ids()}
    assert not unknown, f"{where} cites IDs that spec/ does not define: {unknown}"


def test_the_checker_itself_catches_an_unknown_id(tmp_path):
    """A plausible slip, LEAD-HEART for LEAD-HEARTS, must be caught."""
    bogus = tmp_path / "x.py"
    bogus.write_text('raise IllegalPlayError("LEAD-HEART", "…")  # and FOLLOW-SUIT\n', encoding="utf-8")
    tokens = set(CITATION.findall(bogus.read_text(encoding="utf-8")))
    assert tokens == {"LEAD-HEART", "FOLLOW-SUIT"}
    assert "LEAD-HEART" not in RULES


QUOTE = re.compile(r"`(\d{3}_[0-9a-f]{16}\.txt)` \([A-Za-z]+\): «(.+?)»")


def test_every_source_quote_is_verbatim_in_its_source():
    """The spec quotes the five sources word for word; a quote that drifts from spec/sources/ fails."""
    sources = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "spec" / "sources").glob("*.txt")}
    quotes = [(m.group(1), m.group(2)) for p in (ROOT / "spec").rglob("*.md")
              for m in QUOTE.finditer(p.read_text(encoding="utf-8"))]
    assert len(quotes) > 100
    missing = [(name, q) for name, q in quotes if name not in sources or q not in sources[name]]
    assert not missing, missing[:5]


ANY_QUOTE = re.compile(r"«(.+?)»", re.S)


def test_every_quote_in_the_prose_is_verbatim_in_a_source_too():
    """Short quotes inside the notes and the disagreements («må man lægge hvad som helst») are word for word too."""
    sources = [p.read_text(encoding="utf-8") for p in (ROOT / "spec" / "sources").glob("*.txt")]
    pages = [p for p in (ROOT / "spec").rglob("*.md") if p.name != "README.md"] + list((ROOT / "docs").glob("*.md"))
    quotes = [(p.name, m.group(1)) for p in pages for m in ANY_QUOTE.finditer(p.read_text(encoding="utf-8"))]
    assert len(quotes) > 150
    drifted = [(name, quote) for name, quote in quotes if not any(quote in text for text in sources)]
    assert not drifted, drifted[:5]
