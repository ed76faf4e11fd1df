"""A fake OpenAI chat-completions server, so the real ``openai`` SDK can be tested offline.

It listens on 127.0.0.1 (a free port) in a background thread, one thread per request, so a
backend can keep dozens of requests in flight against it. Each request is answered by the
next scripted :class:`Step` (a FIFO queue), or by a script function, or, when neither has
anything to say, by a fixed reply. Every request is recorded (path, headers, JSON body), so a
test can check exactly what went over the wire.

    with FakeOpenAIServer(latency_s=0.01) as server:
        server.enqueue(rate_limited(0.05), text("Final Answer: B"))
        ...  # point the backend at server.base_url
        assert server.count == 2
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DEFAULT_REPLY = "Final Answer: A"


@dataclass(frozen=True)
class Step:
    """What the server does with one request: wait ``delay_s``, then answer."""

    status: int = 200
    body: dict[str, Any] | bytes = b""
    headers: tuple[tuple[str, str], ...] = ()
    delay_s: float = 0.0
    content_type: str = "application/json"
    dribble_s: float = 0.0  # above 0: the body is sent one byte at a time, this far apart


@dataclass(frozen=True)
class RecordedRequest:
    path: str
    headers: dict[str, str]  # lower-cased names
    body: dict[str, Any] | None  # None when the body was not JSON
    received_at: float = field(default_factory=time.monotonic)


Script = Callable[[RecordedRequest], "Step | None"]


def completion(
    content: str | None,
    finish_reason: str = "stop",
    prompt_tokens: int = 11,
    completion_tokens: int = 7,
    cost_usd: float | None = None,
) -> dict[str, Any]:
    """A chat-completion JSON body with one choice; with ``cost_usd`` its usage reports what
    the request cost, as OpenRouter's does (``usage.cost``)."""
    billed = {} if cost_usd is None else {"cost": cost_usd}
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1700000000,
        "model": "fake-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
            **billed,
        },
    }


def text(reply: str = DEFAULT_REPLY, delay_s: float = 0.0, **usage: float) -> Step:
    """A successful reply ending with finish_reason "stop"."""
    return Step(body=completion(reply, **usage), delay_s=delay_s)


def length(reply: str = "Let me think step by") -> Step:
    """A reply cut off by the output-token limit."""
    return Step(body=completion(reply, finish_reason="length"))


def content_filter() -> Step:
    """A reply withheld by the provider's content filter."""
    return Step(body=completion(None, finish_reason="content_filter"))


def empty_choices() -> Step:
    """A well-formed completion that carries no choice at all."""
    body = completion("")
    body["choices"] = []
    return Step(body=body)


def malformed_json() -> Step:
    """Status 200, JSON content type, body cut off mid-object."""
    return Step(body=b'{"id": "chatcmpl-fake", "choices": [{"index": 0, "mess')


def not_json(content_type: str = "text/html") -> Step:
    """Status 200 with an HTML page, as a misconfigured proxy would answer."""
    return Step(body=b"<html><body>502 Bad Gateway</body></html>", content_type=content_type)


def error(status: int, message: str, headers: tuple[tuple[str, str], ...] = ()) -> Step:
    """An OpenAI-style error body with ``status``."""
    kind = "invalid_request_error" if status < 500 else "server_error"
    return Step(
        status=status,
        body={"error": {"message": message, "type": kind, "param": None, "code": None}},
        headers=headers,
    )


def rate_limited(retry_after_s: float = 0.05, header: str = "retry-after") -> Step:
    """429 carrying the delay in ``retry-after`` (seconds) or ``retry-after-ms``."""
    value = retry_after_s * 1000 if header == "retry-after-ms" else retry_after_s
    return error(429, "Rate limit reached; slow down.", ((header, f"{value:g}"),))


def server_error(status: int = 500) -> Step:
    return error(status, "The server had an error while processing your request.")


def dribbling(byte_every_s: float = 0.5, then: Step | None = None) -> Step:
    """``then`` (default: the fixed reply) sent at once in its headers, then one body byte
    every ``byte_every_s``: a server alive enough never to trip a read timeout."""
    return dataclasses.replace(then or text(), dribble_s=byte_every_s)


def slow(delay_s: float, then: Step | None = None) -> Step:
    """``then`` (default: the fixed reply) after ``delay_s``: past a client timeout, a timeout."""
    return dataclasses.replace(then or text(), delay_s=delay_s)


class FakeOpenAIServer:
    """A scripted ``POST /v1/chat/completions`` endpoint on 127.0.0.1.

    Parameters
    ----------
    latency_s : fixed delay before every answer (on top of a step's own ``delay_s``).
    script : optional function deciding the answer from the recorded request; it is asked
        only when the queue is empty, and may return None to fall back to ``default``.
    default : the answer when nothing is scripted (a "Final Answer: A" reply).
    """

    def __init__(
        self,
        latency_s: float = 0.0,
        script: Script | None = None,
        default: Step | None = None,
    ) -> None:
        self.latency_s = latency_s
        self.script = script
        self.default = default or text()
        self.requests: list[RecordedRequest] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._queue: deque[Step] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.fake = self
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        """What to give the SDK as ``base_url``."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def count(self) -> int:
        """How many requests arrived (answered or not)."""
        with self._lock:
            return len(self.requests)

    def enqueue(self, *steps: Step) -> None:
        """Answer the next requests with ``steps``, in order."""
        with self._lock:
            self._queue.extend(steps)

    @property
    def pending(self) -> int:
        """Scripted steps not yet used."""
        with self._lock:
            return len(self._queue)

    def start(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; requests still sleeping are woken and dropped."""
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _next_step(self, recorded: RecordedRequest) -> Step:
        with self._lock:
            self.requests.append(recorded)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            if recorded.path.rstrip("/") != "/v1/chat/completions":
                return error(404, f"no route {recorded.path}")
            if self._queue:
                return self._queue.popleft()
        if self.script is not None:
            step = self.script(recorded)
            if step is not None:
                return step
        return self.default

    def _finished(self) -> None:
        with self._lock:
            self.in_flight -= 1


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # a handler sleeping past a client timeout must not block stop()
    request_queue_size = 256  # a burst of 64+ connects must not overflow the listen backlog
    fake: FakeOpenAIServer


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the SDK's connection pool expects
    server: _Server

    def do_POST(self) -> None:  # noqa: N802 (the http.server naming convention)
        fake = self.server.fake
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        headers = {k.lower(): v for k, v in self.headers.items()}
        step = fake._next_step(RecordedRequest(self.path, headers, body))
        try:
            if fake._stopping.wait(fake.latency_s + step.delay_s):
                self.close_connection = True
                return
            self._send(step)
        finally:
            fake._finished()

    def _send(self, step: Step) -> None:
        payload = step.body if isinstance(step.body, bytes) else json.dumps(step.body).encode()
        try:
            self.send_response(step.status)
            self.send_header("content-type", step.content_type)
            self.send_header("content-length", str(len(payload)))
            for name, value in step.headers:
                self.send_header(name, value)
            self.end_headers()
            if not step.dribble_s:
                self.wfile.write(payload)
            for index in range(len(payload) if step.dribble_s else 0):
                self.wfile.write(payload[index:index + 1])
                self.wfile.flush()
                if self.server.fake._stopping.wait(step.dribble_s):
                    break
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (timeout) before the answer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Silence the per-request access log."""
