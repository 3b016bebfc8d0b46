"""Splitting the recorded HTTP messages (each one whole, as its sender wrote it) into their parts."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HttpMessage:
    start_line: str
    headers: dict[str, str]
    body: bytes

    @property
    def is_event(self) -> bool:
        return self.start_line.startswith("EVENT/")

    @property
    def is_request(self) -> bool:
        return not self.start_line.startswith(("HTTP/", "EVENT/"))

    @property
    def method(self) -> str:
        return self.start_line.split(" ", 1)[0]

    @property
    def path(self) -> str:
        return self.start_line.split(" ")[1].split("?", 1)[0]

    @property
    def status(self) -> int:
        return int(self.start_line.split(" ")[1])


def parse(data: bytes) -> HttpMessage:
    head, separator, body = data.partition(b"\r\n\r\n")
    if not separator:
        raise ValueError("recorded HTTP message has no end of headers")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    declared = int(headers.get("content-length", "0"))
    if declared != len(body):
        raise ValueError(f"recorded HTTP message has {len(body)} body bytes but Content-Length {declared}")
    return HttpMessage(start_line=lines[0], headers=headers, body=body)
