"""Reading one reply of the stdio protocol: its fields, the step it carries, or the refusal it says.

:func:`read_reply` is the whole judgement of one reply line; the client
(:class:`~hearts_ref.engines.stdio.StdioEngine`) reads lines, times them and calls it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from hearts_ref.cardset import CardSet
from hearts_ref.engine import EngineRejection, Observation
from hearts_ref.engines.failures import EngineInternalError, EngineProtocolError, EngineUnsupported
from hearts_ref.protocol import ERROR_KINDS, WireError, cards_from_wire, decode, observation_from_wire, step_from_line

__all__ = ["Step", "read_reply"]


class Step(NamedTuple):
    """What a reply that changes the state carries: the observation and the next legal set."""

    observation: Observation
    legal: CardSet


def read_reply(line: bytes, seq: int, what: str, *, steps: bool = False, command: str | None = None) -> Any:
    """Return what the reply ``line`` to command ``seq`` (``what``, in words; ``command``, its name) says; WireError
    says why not.

    An ``ok`` reply gives its fields (a :class:`Step` when ``steps``: the reply of a command that
    changes the state); a refusal gives its :class:`~hearts_ref.engine.EngineRejection` or
    :class:`~hearts_ref.engines.failures.EngineFailure` (not raised: the caller reads every reply
    of a batch first). A compact step reply is read without a JSON parser (``step_from_line``).

    >>> refusal = read_reply(b'{"seq": 3, "ok": false, "error": {"kind": "illegal", "message": "must follow",'
    ...                      b' "rule": "FOLLOW-SUIT"}}', 3, "'play' (seq 3)")
    >>> refusal.rule_id, str(refusal)
    ('FOLLOW-SUIT', 'FOLLOW-SUIT: must follow')
    >>> read_reply(b'{"seq": 2, "ok": true}', 3, "'play' (seq 3)")
    Traceback (most recent call last):
    hearts_ref.protocol.WireError: it carries seq 2 (out of order)
    """
    fast = step_from_line(line) if steps else None
    if fast is not None and fast[0] == seq:
        return Step(fast[1], fast[2])
    reply = decode(line)
    if reply.get("seq") != seq:
        raise WireError(f"it carries seq {reply.get('seq')!r} (out of order)")
    ok = reply.get("ok")
    if ok is True:
        return reply if not steps else Step(observation_from_wire(reply.get("observation")),
                                            cards_from_wire(reply.get("legal"), field="legal", strict=True))
    if ok is False:
        return refusal(reply.get("error"), what, command)
    raise WireError("it needs \"ok\": true or false")


def refusal(error: Any, what: str, command: str | None = None) -> Exception:
    """The exception for an ``"ok": false`` reply to ``what`` (the command ``command``): a rejection, an unsupported
    variant, an internal error.

    >>> str(refusal({"kind": "unsupported", "message": "no J♦ bonus"}, "'new_game' (seq 4)", "new_game"))
    "'new_game' answered unsupported: no J♦ bonus"
    """
    if not isinstance(error, dict) or error.get("kind") not in ERROR_KINDS or not isinstance(error.get("message"), str):
        raise WireError(f"a refusal needs \"error\": {{\"kind\": one of {', '.join(ERROR_KINDS)}, \"message\": text}}")
    kind, message, rule = error["kind"], error["message"], error.get("rule")
    if rule is not None and not isinstance(rule, str):
        raise WireError("'error.rule' must be a rule ID string")
    if kind == "illegal":
        return EngineRejection(message, rule)
    if kind == "unsupported":   # a skip's reason: the command without its seq, which differs between processes
        return EngineUnsupported(f"{what if command is None else repr(command)} answered unsupported: {message}")
    if kind == "internal":
        return EngineInternalError(f"engine reported an internal error on {what}: {message}")
    return EngineProtocolError(f"engine refused {what} as a bad request: {message}")
