"""Just enough CoAP (RFC 7252 §3) and block-wise transfer (RFC 7959 §2.2) to read the toolkit's own traffic.

aiocoap encodes and decodes the messages on the wire; this independent reader is what the truth file and
the verifier describe them with, so that neither depends on aiocoap's view of its own bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

VERSION = 1
TYPES = {0: "CON", 1: "NON", 2: "ACK", 3: "RST"}
MAX_TOKEN_BYTES = 8  # RFC 7252 §3: token lengths 9–15 are reserved
PAYLOAD_MARKER = 0xFF
# RFC 7252 §12.2, RFC 7959 §6, RFC 7641 §2, RFC 7967 §2.
OPTION_NAMES = {
    1: "If-Match", 3: "Uri-Host", 4: "ETag", 5: "If-None-Match", 6: "Observe", 7: "Uri-Port",
    8: "Location-Path", 11: "Uri-Path", 12: "Content-Format", 14: "Max-Age", 15: "Uri-Query",
    17: "Accept", 20: "Location-Query", 23: "Block2", 27: "Block1", 28: "Size2", 35: "Proxy-Uri",
    39: "Proxy-Scheme", 60: "Size1", 258: "No-Response",
}  # fmt: skip
OPTION_URI_PATH = 11
OPTION_BLOCK2 = 23
OPTION_BLOCK1 = 27
# RFC 7252 §12.1: the codes this transport uses, by name.
CODE_NAMES = {
    0x00: "Empty", 0x01: "GET", 0x02: "POST", 0x03: "PUT", 0x04: "DELETE",
    0x41: "2.01 Created", 0x42: "2.02 Deleted", 0x43: "2.03 Valid", 0x44: "2.04 Changed", 0x45: "2.05 Content",
    0x5F: "2.31 Continue", 0x80: "4.00 Bad Request", 0x84: "4.04 Not Found", 0x85: "4.05 Method Not Allowed",
    0x88: "4.08 Request Entity Incomplete", 0x8D: "4.13 Request Entity Too Large", 0xA0: "5.00 Internal Server Error",
}  # fmt: skip


class CoapError(ValueError):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(f"{message} (datagram offset {offset})")
        self.offset = offset


@dataclass(frozen=True)
class Option:
    number: int
    value: bytes

    @property
    def name(self) -> str:
        return OPTION_NAMES.get(self.number, f"option-{self.number}")


@dataclass(frozen=True)
class Block:
    """RFC 7959 §2.2: NUM, M and SZX of a Block1 or Block2 option."""

    number: int
    more: bool
    size_exponent: int

    @property
    def size(self) -> int:
        return 1 << (self.size_exponent + 4)

    @classmethod
    def decode(cls, value: bytes) -> Block:
        if len(value) > 3:
            raise CoapError(f"a block option of {len(value)} bytes (at most 3)", 0)
        number = int.from_bytes(value, "big")
        if number & 0x7 == 7:
            raise CoapError("block size exponent 7 is reserved", 0)
        return cls(number=number >> 4, more=bool(number & 0x8), size_exponent=number & 0x7)


@dataclass(frozen=True)
class Message:
    type: str
    code: int
    message_id: int
    token: bytes
    options: tuple[Option, ...]
    payload: bytes

    @property
    def code_text(self) -> str:
        return CODE_NAMES.get(self.code, f"{self.code >> 5}.{self.code & 0x1F:02d}")

    @property
    def is_request(self) -> bool:
        return 0x01 <= self.code <= 0x1F

    @property
    def is_response(self) -> bool:
        return self.code >= 0x40

    @property
    def path(self) -> str:
        return "/" + "/".join(o.value.decode("utf-8", "replace") for o in self.options if o.number == OPTION_URI_PATH)

    def block(self, number: int) -> Block | None:
        for option in self.options:
            if option.number == number:
                return Block.decode(option.value)
        return None


def _extended(data: bytes, offset: int, nibble: int, what: str) -> tuple[int, int]:
    """RFC 7252 §3.1: an option delta or length nibble with its extension bytes."""
    if nibble < 13:
        return nibble, offset
    size = 1 if nibble == 13 else 2
    if nibble == 15:
        raise CoapError(f"option {what} nibble 15 is reserved outside the payload marker", offset)
    if offset + size > len(data):
        raise CoapError(f"the extended option {what} is cut off", offset)
    extension = int.from_bytes(data[offset : offset + size], "big")
    return (13 if size == 1 else 269) + extension, offset + size


def decode(data: bytes) -> Message:
    if len(data) < 4:
        raise CoapError(f"a CoAP header needs 4 bytes, the datagram has {len(data)}", 0)
    version, mtype, token_length = data[0] >> 6, (data[0] >> 4) & 0x3, data[0] & 0xF
    if version != VERSION:
        raise CoapError(f"version {version} is not CoAP version 1", 0)
    if token_length > MAX_TOKEN_BYTES:
        raise CoapError(f"token length {token_length} is reserved", 0)
    if 4 + token_length > len(data):
        raise CoapError("the token is cut off", 4)
    code, message_id = data[1], int.from_bytes(data[2:4], "big")
    token = data[4 : 4 + token_length]
    offset = 4 + token_length
    options: list[Option] = []
    number = 0
    payload = b""
    while offset < len(data):
        if data[offset] == PAYLOAD_MARKER:
            payload = data[offset + 1 :]
            if not payload:
                raise CoapError("a payload marker with no payload", offset)
            break
        delta_nibble, length_nibble = data[offset] >> 4, data[offset] & 0xF
        delta, cursor = _extended(data, offset + 1, delta_nibble, "delta")
        length, cursor = _extended(data, cursor, length_nibble, "length")
        if cursor + length > len(data):
            raise CoapError(f"an option value of {length} bytes runs past the end", offset)
        number += delta
        options.append(Option(number=number, value=data[cursor : cursor + length]))
        offset = cursor + length
    if code == 0 and (token or options or payload):
        raise CoapError("an Empty message must be only the 4-byte header", 4)
    return Message(TYPES[mtype], code, message_id, token, tuple(options), payload)
