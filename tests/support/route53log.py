"""A forwarder in front of moto that writes each Route 53 record change into the stand-ins' log.

The front door's records are applied by the real aws provider (on moto), the model servers by
the stand-in kubernetes provider in record mode. To see in which order a failover changed
them, the forwarder appends one line per ``ChangeResourceRecordSets`` to the same log the
stand-ins append to, at the moment the request is made (``{"provider": "aws", "type":
"aws_route53_record", "action", "name", "set_identifier", "weight", "cwd": None}``), then
passes the request to moto unchanged and returns moto's answer.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

_NS = "{https://route53.amazonaws.com/doc/2013-04-01/}"


def _changes(body: bytes) -> list[dict[str, object]]:
    """The record changes of a ChangeResourceRecordSets request body."""
    out: list[dict[str, object]] = []
    root = ET.fromstring(body)
    for change in root.iter(f"{_NS}Change"):
        record = change.find(f"{_NS}ResourceRecordSet")
        assert record is not None

        def text(tag: str, node: ET.Element = record) -> str | None:
            found = node.find(f"{_NS}{tag}")
            return None if found is None else found.text

        weight = text("Weight")
        out.append(
            {
                "provider": "aws",
                "type": "aws_route53_record",
                "action": (text("Action", change) or "").lower(),
                "name": text("Name"),
                "set_identifier": text("SetIdentifier"),
                "weight": None if weight is None else int(weight),
                "cwd": None,
            }
        )
    return out


@contextmanager
def route53_log(upstream: str, log: Path) -> Iterator[str]:
    """A forwarder to ``upstream`` (moto) logging record changes to ``log``; yields its URL."""
    lock = threading.Lock()

    class Forward(BaseHTTPRequestHandler):
        def _forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            if body and self.command == "POST" and self.path.endswith("/rrset"):
                with lock, log.open("a", encoding="utf-8") as out:
                    for change in _changes(body):
                        out.write(json.dumps(change) + "\n")
            headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
            request = urllib.request.Request(
                upstream + self.path, data=body, headers=headers, method=self.command
            )
            try:
                with urllib.request.urlopen(request, timeout=60) as answer:
                    status, data, got = answer.status, answer.read(), answer.headers
            except urllib.error.HTTPError as err:
                status, data, got = err.code, err.read(), err.headers
            self.send_response(status)
            for key, value in got.items():
                if key.lower() not in ("transfer-encoding", "connection", "content-length"):
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_DELETE = do_PUT = _forward

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Forward)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
