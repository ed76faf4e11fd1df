"""A fake Gemini REST server, so the Gemini backend is tested through the real google-genai SDK.

It speaks what google-genai 3.x sends with an API key (in the ``x-goog-api-key`` header):
``POST /{version}/models/{model}:generateContent`` (protobuf JSON; the SDK writes some nested
names in snake_case, which the real API accepts too: ``field_of``); the resumable Files API
upload (``POST /upload/{version}/files`` with ``X-Goog-Upload-Command: start`` answers with an
``X-Goog-Upload-URL``; the bytes are POSTed there with ``upload, finalize``, answered by
``X-Goog-Upload-Status: final`` and ``{"file": {...}}``); and ``GET /{version}/files/{id}``.
``{version}`` may be ``v1`` (the SDK's default) or ``v1beta``.

Each generateContent answer comes from a queue (``script``), else a function (``responder``),
else a fixed reply (``default_text``); every request is recorded. A ThreadingHTTPServer (a
thread per connection, deep listen backlog, no Nagle stalls) holds many concurrent requests for
``latency_s`` each, which is what a throughput benchmark needs.
"""

from __future__ import annotations

import base64
import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from .gemini_actions import (  # re-exported: tests script the server with these
    DEFAULT_TEXT,
    Action,
    empty_candidates,
    hang,
    http_error,
    malformed_json,
    max_tokens,
    prompt_blocked,
    rate_limited,
    reply,
    safety,
    server_error,
)

__all__ = [
    "Action", "DEFAULT_TEXT", "FakeGeminiServer", "RecordedRequest", "decode_bytes",
    "empty_candidates", "field_of", "hang", "http_error", "malformed_json", "max_tokens",
    "prompt_blocked", "rate_limited", "reply", "safety", "server_error",
]
_GENERATE = re.compile(r"^/(v1\w*)/models/([^/:]+):generateContent$")
_UPLOAD = re.compile(r"^/upload/(v1\w*)/files$")
_FILE = re.compile(r"^/(v1\w*)/files/([^/:]+)$")
_UPLOAD_ACTIVE = ("X-Goog-Upload-Status", "active")


def field_of(obj: dict[str, Any], camel: str) -> Any:
    """``obj[camel]`` or its snake_case twin: the SDK sends both forms (``inlineData`` holds
    ``mime_type``), and the real API, parsing protobuf JSON, accepts either."""
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", camel).lower()
    return obj.get(camel, obj.get(snake))


def decode_bytes(data: str) -> bytes:
    """A protobuf JSON ``bytes`` field: the SDK sends URL-safe base64, the API takes either."""
    return base64.b64decode(data.replace("-", "+").replace("_", "/"))


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str  # without the query string
    query: dict[str, list[str]]
    headers: dict[str, str]  # keys lower-cased
    body: bytes
    json: Any  # parsed body, or None
    kind: str  # "generate", "upload_start", "upload_chunk", "file_get", "other"
    model: str | None
    time_s: float  # time.monotonic() on arrival


Responder = Callable[[RecordedRequest], "Action | None"]


class FakeGeminiServer:
    """The fake API on ``127.0.0.1:<free port>``; a context manager, or start() / stop().

    ``api_key``: when set, any other ``x-goog-api-key`` gets the real API's 400 API_KEY_INVALID.
    ``models``: when set, other model names get 404 NOT_FOUND. ``processing_polls``: uploaded
    files report PROCESSING for that many ``files.get`` calls (generateContent refuses a file
    that is not ACTIVE, like the real API). ``keep_bodies=False`` records requests without
    their bodies (long benchmark runs). ``latency_s`` and ``responder`` may change at any time.
    """

    def __init__(
        self, *, default_text: str = DEFAULT_TEXT, latency_s: float = 0.0,
        api_key: str | None = None, models: set[str] | None = None, processing_polls: int = 0,
        responder: Responder | None = None, keep_bodies: bool = True,
    ) -> None:
        self.default_text = default_text
        self.latency_s = latency_s
        self.api_key = api_key
        self.models = models
        self.processing_polls = processing_polls
        self.responder = responder
        self.keep_bodies = keep_bodies
        self.max_in_flight = 0  # peak number of generateContent calls held at once
        self._lock = threading.Lock()
        self._queue: deque[Action] = deque()
        self._requests: list[RecordedRequest] = []
        self.in_flight = 0
        self._files: dict[str, dict[str, Any]] = {}  # id -> file JSON (+ "_" private fields)
        self._uploads: dict[str, dict[str, Any]] = {}  # upload id -> pending upload
        self._serial = 0
        self._httpd: _Server | None = None

    def start(self) -> FakeGeminiServer:
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.fake = self
        threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:  # idle keep-alive handler threads are daemons: they just end
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeGeminiServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "server not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def script(self, *actions: Action) -> None:
        """Queue answers for the next generateContent calls, in order."""
        with self._lock:
            self._queue.extend(actions)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def requests_of(self, kind: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.kind == kind]

    def count(self, kind: str | None = None) -> int:
        """How many requests arrived (of one ``kind``, or all)."""
        with self._lock:
            return sum(1 for r in self._requests if kind is None or r.kind == kind)

    @property
    def generate_count(self) -> int:
        """generateContent calls received."""
        return self.count("generate")

    @property
    def upload_count(self) -> int:
        """Files API uploads started (one per resumable session)."""
        return self.count("upload_start")

    def file_bytes(self, name: str) -> bytes:
        """The content of uploaded file ``files/<id>``."""
        with self._lock:
            return bytes(self._files[name.removeprefix("files/")]["_data"])

    def reset(self) -> None:
        """Forget requests, queued answers and files; the server keeps running."""
        with self._lock:
            for store in (self._queue, self._requests, self._files, self._uploads):
                store.clear()
            self.max_in_flight = 0

    # -- request handling, on handler threads ----------------------------------------------
    def _handle(self, rec: RecordedRequest, match: re.Match[str] | None) -> Action:
        with self._lock:
            self._requests.append(rec if self.keep_bodies else replace(rec, body=b"", json=None))
        if rec.kind == "upload_chunk":  # the session id in the URL is the credential
            return self._upload_chunk(rec)
        if self.api_key is not None and rec.headers.get("x-goog-api-key") != self.api_key:
            info = {"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": "API_KEY_INVALID", "domain": "googleapis.com"}
            return http_error(400, "API key not valid. Please pass a valid API key.", (info,))
        if rec.kind == "generate":
            return self._generate(rec)
        if rec.kind == "upload_start" and match:
            return self._upload_start(rec, match.group(1))
        if rec.kind == "file_get" and match:
            return self._file_get(match.group(2))
        return http_error(404, f"Method not found: {rec.method} {rec.path}")

    def _generate(self, rec: RecordedRequest) -> Action:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            action = self._refusal(rec)
            if action is None:
                with self._lock:
                    action = self._queue.popleft() if self._queue else None
            if action is None and self.responder is not None:
                action = self.responder(rec)
            action = action or reply(self.default_text)
            time.sleep(self.latency_s + action.delay_s)
            return action
        finally:
            with self._lock:
                self.in_flight -= 1

    def _refusal(self, rec: RecordedRequest) -> Action | None:
        """The real API's answer to an unknown model or to a file that is not ACTIVE."""
        if self.models is not None and rec.model not in self.models:
            return http_error(404, f"models/{rec.model} is not found for API version v1beta, or "
                                   "is not supported for generateContent.")
        for content in (rec.json or {}).get("contents", []):
            for part in content.get("parts", []):
                uri = field_of(field_of(part, "fileData") or {}, "fileUri")
                if uri is None:
                    continue
                with self._lock:
                    file = self._files.get(uri.rsplit("/", 1)[-1])
                if file is None or file["state"] != "ACTIVE":
                    return http_error(400, f"The File {uri} is not in an ACTIVE state.")
        return None

    def _upload_start(self, rec: RecordedRequest, version: str) -> Action:
        meta = (rec.json or {}).get("file", {})
        with self._lock:
            self._serial += 1
            upload_id = f"fake{self._serial:05d}"
            self._uploads[upload_id] = {
                "mime": rec.headers.get("x-goog-upload-header-content-type")
                or meta.get("mimeType", "application/octet-stream"),
                "data": bytearray(), "version": version,
            }
        url = f"{self.base_url}/upload/{version}/files?upload_id={upload_id}"
        return Action(body=b"", headers=(("X-Goog-Upload-URL", url), _UPLOAD_ACTIVE))

    def _upload_chunk(self, rec: RecordedRequest) -> Action:
        upload_id = rec.query["upload_id"][0]
        with self._lock:
            if (pending := self._uploads.get(upload_id)) is None:
                return http_error(404, "No such upload session.")
            pending["data"] += rec.body
            if "finalize" not in rec.headers.get("x-goog-upload-command", ""):
                return Action(body=b"", headers=(_UPLOAD_ACTIVE,))
            del self._uploads[upload_id]
            stamp = "2025-01-01T00:00:00Z"
            self._files[upload_id] = file = {
                "name": f"files/{upload_id}", "mimeType": pending["mime"],
                "sizeBytes": str(len(pending["data"])), "createTime": stamp, "updateTime": stamp,
                "uri": f"{self.base_url}/{pending['version']}/files/{upload_id}",
                "state": "PROCESSING" if self.processing_polls > 0 else "ACTIVE",
                "source": "UPLOADED", "_data": pending["data"], "_polls": 0,
            }
            public = {k: v for k, v in file.items() if not k.startswith("_")}
        return Action(body={"file": public}, headers=(("X-Goog-Upload-Status", "final"),))

    def _file_get(self, file_id: str) -> Action:
        with self._lock:
            if (file := self._files.get(file_id)) is None:
                return http_error(404, f"File files/{file_id} does not exist.")
            file["_polls"] += 1
            if file["_polls"] >= self.processing_polls:
                file["state"] = "ACTIVE"
            return Action(body={k: v for k, v in file.items() if not k.startswith("_")})


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 512  # a burst of 64+ connects must not overflow the listen backlog
    fake: FakeGeminiServer


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as httpx expects
    disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms stall
    timeout = 120  # an idle keep-alive connection releases its thread eventually
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        """Silence the per-request stderr log."""

    def handle(self) -> None:
        try:
            super().handle()
        except OSError:  # BrokenPipe, ConnectionReset, timeout
            pass  # the client gave up (its timeout) or the server is stopping

    def _dispatch(self) -> None:
        url = urlsplit(self.path)
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        fake = self.server.fake
        query = parse_qs(url.query)
        kind, match, model = "other", None, None
        if self.command == "POST" and (match := _GENERATE.match(url.path)):
            kind, model = "generate", match.group(2)
        elif self.command == "POST" and (match := _UPLOAD.match(url.path)):
            kind = "upload_chunk" if "upload_id" in query else "upload_start"
        elif self.command == "GET" and (match := _FILE.match(url.path)):
            kind = "file_get"
        # Without kept bodies a generateContent body is parsed only for its file references
        # (inline audio makes bodies of megabytes; parsing them was most of the fake's CPU).
        wanted = (fake.keep_bodies or kind != "generate"
                  or b"fileData" in body or b"file_data" in body)
        try:
            parsed = json.loads(body) if wanted and body[:1] == b"{" else None
        except ValueError:  # recorded as None; the raw body is kept
            parsed = None
        rec = RecordedRequest(
            method=self.command, path=url.path, query=query,
            headers={k.lower(): v for k, v in self.headers.items()},
            body=body, json=parsed, kind=kind, model=model, time_s=time.monotonic(),
        )
        action = fake._handle(rec, match)
        body = action.body
        payload = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(action.status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(payload)))
        for name, value in action.headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = _dispatch
