"""What the protocol version changes on the runner's side: the handshake that agrees on one, and a
version-1 engine's refusal of a parameter added since (``spec/protocol/README.md``, Versions).

The client (:class:`~hearts_ref.engines.stdio.StdioEngine`) calls these on its
:class:`~hearts_ref.engines.channel.Channel`; they send, read and judge, and leave the counting of
failures (the breaker) to it.
"""

from __future__ import annotations

from typing import Any

from hearts_ref.engines.channel import Channel
from hearts_ref.engines.failures import EngineProtocolError, EngineUnsupported
from hearts_ref.protocol import PROTOCOL_1_PARAMETERS, PROTOCOL_VERSIONS

__all__ = ["handshake", "later_parameters", "new_game_outcome"]


def handshake(channel: Channel, timeout: float) -> tuple[int, dict[str, Any]]:
    """Offer the highest protocol version spoken here; to an engine that refuses it as unsupported (one
    written for version 1 only), offer the next lower one. Return the version offered last and the reply.

    A refusal of the lowest version, or any failure, raises.
    """
    for offered in sorted(PROTOCOL_VERSIONS, reverse=True):
        [outcome] = channel.outcomes([("hello", {"protocol": offered})], timeout, steps=False, timed=False)
        if isinstance(outcome, EngineUnsupported) and offered > PROTOCOL_VERSIONS[0]:
            continue
        if isinstance(outcome, Exception):
            raise outcome
        return offered, outcome
    raise AssertionError("unreachable: the lowest version's outcome is returned or raised")


def later_parameters(values: dict[str, Any], protocol: int) -> list[str]:
    """The parameters of ``new_game``'s ``values`` that a ``protocol`` engine may not know (added after version 1)."""
    return [name for name in values if name not in PROTOCOL_1_PARAMETERS] if protocol < 2 else []


def new_game_outcome(channel: Channel, values: dict[str, Any], later: list[str], timeout: float) -> Any:
    """Send a version-1 engine ``new_game`` with parameters added since (``later``, not at their default); return
    its step, or raise. A refusal, even as a bad request (its schema knew no such field), is an
    :class:`EngineUnsupported`: the engine cannot play these rules, and the game is skipped, not failed."""
    [outcome] = channel.outcomes([("new_game", {"rules": values})], timeout, bad_requests=True)
    if isinstance(outcome, EngineProtocolError):
        outcome = EngineUnsupported(f"engine does not support {', '.join(later)} (added after protocol 1, which it "
                                    f"speaks): it refused the rules as a bad request: {outcome.summary}")
    if isinstance(outcome, Exception):
        raise outcome
    return outcome
