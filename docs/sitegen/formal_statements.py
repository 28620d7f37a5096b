"""The formal statement of a rule, drawn on its rule page beside the prose (``properties.statements``).

Each rule's statement is shown with what kind of thing it constrains, its predicate in
words, the invariant that proves the engine equal to it (linked to the proofs page), and
the predicate's source, read from ``properties/statements/`` when the site is built.

>>> block = formal_statement("FOLLOW-SUIT", "rules/04-following.md")
>>> "**Formal statement.**" in block and "def follow_suit" in block and "PLAYS-AS-STATED" in block
True
"""

from __future__ import annotations

__all__ = ["formal_statement", "proved_by"]

KINDS = {"setup": "the setup", "pass": "a pass", "play": "one play", "permission": "one play (a permission)",
         "breaking": "one play (whether it breaks hearts)", "step": "one play's effect on the round",
         "score": "a round's score", "game": "the game"}


def proved_by(rule_id: str) -> list[str]:
    """The refinement invariants (``*-AS-STATED``, TOTALS-ARE-SUMS) that prove the engine equal to this statement."""
    from properties.catalogue import INVARIANTS
    return [i.id for i in INVARIANTS if (i.id.endswith("-AS-STATED") or i.id == "TOTALS-ARE-SUMS") and rule_id in i.rules]


def formal_statement(rule_id: str, page: str) -> str:
    """Return the Markdown of the rule's formal statement, or an empty string when it has none."""
    from properties.statements import STATEMENTS
    from sitegen.common import relative

    statement = STATEMENTS.get(rule_id)
    if statement is None:
        return ""
    proofs = ", ".join(f"[{name}]({relative(f'proofs.md#{name}', page)})" for name in proved_by(rule_id))
    body = "\n".join("    " + line if line.strip() else "" for line in statement.source.rstrip().splitlines())
    return (f"**Formal statement.** {statement.words[0].upper() + statement.words[1:]} (a predicate over "
            f"{KINDS[statement.kind]}). The engine is proved to compute exactly this by {proofs or 'no proof'}.\n\n"
            f'??? abstract "`{statement.signature.replace(chr(39), "")}` · {statement.path}"\n\n'
            f'    ```python\n{body}\n    ```\n')
