"""Splitting the recorded HTTP messages (each one whole, as its sender wrote it) into their parts."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HttpMessage:
    start_line: str
    headers: dict[str, str]
    body: bytes  # the payload: for a chunked message, its chunks joined
    chunks: tuple[int, ...] = ()  # the chunk sizes of a chunked message, in order (the final 0 left out)

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
    if headers.get("transfer-encoding", "").lower() == "chunked":
        payload, chunks = dechunk(body)
        return HttpMessage(start_line=lines[0], headers=headers, body=payload, chunks=chunks)
    declared = int(headers.get("content-length", "0"))
    if declared != len(body):
        raise ValueError(f"recorded HTTP message has {len(body)} body bytes but Content-Length {declared}")
    return HttpMessage(start_line=lines[0], headers=headers, body=body)


def dechunk(body: bytes) -> tuple[bytes, tuple[int, ...]]:
    """A chunked body (RFC 9112 §7.1, no extensions or trailers) as its payload and chunk sizes.

    HomeKitADK sends GET /accessories this way (HAPIPAccessoryServer.c); a recorded message is one whole
    message, so it must end with the last chunk exactly.
    """
    payload = bytearray()
    sizes: list[int] = []
    offset = 0
    while True:
        line_end = body.find(b"\r\n", offset)
        if line_end < 0:
            raise ValueError(f"chunk size line at body offset {offset} has no CRLF")
        size = int(body[offset:line_end].decode("ascii"), 16)
        start = line_end + 2
        if size == 0:
            if body[start:] != b"\r\n":
                raise ValueError(f"the last chunk at body offset {offset} is not followed by CRLF and the end")
            return bytes(payload), tuple(sizes)
        if body[start + size : start + size + 2] != b"\r\n":
            raise ValueError(f"the {size}-byte chunk at body offset {offset} is not followed by CRLF")
        payload += body[start : start + size]
        sizes.append(size)
        offset = start + size + 2
