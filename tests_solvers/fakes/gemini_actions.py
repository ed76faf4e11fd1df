"""What the fake Gemini server answers: scripted ``Action``s in the real API's JSON forms
(candidates, filters, blocked prompts, ``google.rpc.Status`` errors, 429 with retry hints).
Re-exported by :mod:`tests_solvers.fakes.gemini_server`, where tests name them."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

DEFAULT_TEXT = "Final Answer: A"
_STATUS_NAMES = {
    400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
    408: "DEADLINE_EXCEEDED", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 502: "UNAVAILABLE",
    503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED",
}


@dataclass(frozen=True)
class Action:
    """One scripted answer: HTTP status, body (JSON-able dict or raw bytes), headers, delay."""

    status: int = 200
    body: dict[str, Any] | bytes = field(default_factory=dict)
    headers: tuple[tuple[str, str], ...] = ()
    delay_s: float = 0.0  # on top of the server's latency_s


def _usage(prompt_tokens: int, output_tokens: int, thoughts_tokens: int = 0) -> dict[str, int]:
    usage = {"promptTokenCount": prompt_tokens, "candidatesTokenCount": output_tokens,
             "totalTokenCount": prompt_tokens + output_tokens + thoughts_tokens}
    return usage | ({"thoughtsTokenCount": thoughts_tokens} if thoughts_tokens else {})


def reply(
    text: str = DEFAULT_TEXT, finish_reason: str = "STOP", prompt_tokens: int = 120,
    output_tokens: int = 7, thoughts_tokens: int = 0, thought: str | None = None,
) -> Action:
    """A candidate with ``text`` (and optionally a thought part before it)."""
    parts: list[dict[str, Any]] = [{"text": thought, "thought": True}] if thought else []
    parts += [{"text": text}] if text else []
    candidate = {"content": {"role": "model", "parts": parts}, "index": 0}
    candidate |= {"finishReason": finish_reason} if finish_reason else {}
    return Action(body={"candidates": [candidate], "modelVersion": "fake-gemini",
                        "usageMetadata": _usage(prompt_tokens, output_tokens, thoughts_tokens)})


def max_tokens(text: str = "Let me think step by step") -> Action:
    """Generation cut off at the output-token limit."""
    return reply(text, finish_reason="MAX_TOKENS", output_tokens=2048)


def safety(reason: str = "SAFETY") -> Action:
    """A candidate stopped by a filter (SAFETY, PROHIBITED_CONTENT, ...): no content."""
    return Action(body={"candidates": [{"finishReason": reason, "index": 0}],
                        "usageMetadata": _usage(120, 0)})


def prompt_blocked(reason: str = "SAFETY") -> Action:
    """The prompt itself was blocked: no candidates, ``promptFeedback.blockReason`` set."""
    return Action(body={"promptFeedback": {"blockReason": reason}, "usageMetadata": _usage(120, 0)})


def empty_candidates() -> Action:
    """A 200 answer that holds no candidate at all and no block reason."""
    return Action(body={"candidates": [], "usageMetadata": _usage(120, 0)})


def http_error(
    status: int, message: str = "fake error", details: tuple[dict[str, Any], ...] = (),
    headers: tuple[tuple[str, str], ...] = (),
) -> Action:
    """An error in Google's ``google.rpc.Status`` JSON form, as the real API sends it."""
    error = {"code": status, "message": message, "status": _STATUS_NAMES.get(status, "UNKNOWN")}
    error |= {"details": list(details)} if details else {}
    return Action(status=status, body={"error": error}, headers=headers)


def rate_limited(retry_delay_s: float | None = 0.2, retry_after_s: float | None = None) -> Action:
    """HTTP 429 with a ``google.rpc.RetryInfo`` delay and/or a ``Retry-After`` header."""
    info = {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": f"{retry_delay_s}s"}
    details = (info,) if retry_delay_s is not None else ()
    headers = (("Retry-After", f"{retry_after_s:g}"),) if retry_after_s is not None else ()
    return http_error(429, "Resource has been exhausted (e.g. check quota).", details, headers)


def server_error(status: int = 500) -> Action:
    return http_error(status, "An internal error has occurred.")


def malformed_json() -> Action:
    """A 200 whose body is cut-off JSON, as a misbehaving proxy might send."""
    return Action(body=b'{"candidates": [{"content": {"parts": [{"text": "Final Ans')


def hang(delay_s: float, then: Action | None = None) -> Action:
    """Answer only after ``delay_s`` (longer than the client timeout, in timeout tests)."""
    return replace(then or reply(), delay_s=delay_s)
