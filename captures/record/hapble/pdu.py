"""HAP-BLE PDUs: header codec, fragmenting into GATT values and reassembly.

Layout (HomeKitADK HAPBLEPDU.c, HAPPDU.h; aiohomekit pdu.py):
* Control field, one byte: bit 7 = continuation fragment, bits 6..4 reserved (0), bits 3..1 = PDU type
  (000 request, 001 response), bit 0 = control field length (0 = one byte).
* Request, first fragment: control, opcode, TID, IID (uint16 LE), then optionally body length
  (uint16 LE) and the first body bytes.
* Response, first fragment: control, TID, status, then optionally body length (uint16 LE) and body.
* Continuation fragment (either type): control | 0x80, TID, further body bytes.
A PDU without a body has no length field. Each fragment is one GATT value (one ATT write or read,
which the ATT layer may itself split into Prepare Writes or Read Blobs).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

CONTINUATION = 0x80
TYPE_REQUEST = 0x00
TYPE_RESPONSE = 0x02
TYPE_MASK = 0x0E
RESERVED_MASK = 0x70

# HomeKitADK HAPPDU.h: HAPPDUOpcode.
OPCODES = {
    0x01: "Characteristic-Signature-Read",
    0x02: "Characteristic-Write",
    0x03: "Characteristic-Read",
    0x04: "Characteristic-Timed-Write",
    0x05: "Characteristic-Execute-Write",
    0x06: "Service-Signature-Read",
    0x07: "Characteristic-Configuration",
    0x08: "Protocol-Configuration",
}
OP_CHAR_SIGNATURE_READ = 0x01
OP_CHAR_WRITE = 0x02
OP_CHAR_READ = 0x03
OP_CHAR_TIMED_WRITE = 0x04
OP_CHAR_EXECUTE_WRITE = 0x05
OP_SERVICE_SIGNATURE_READ = 0x06
OP_CHAR_CONFIGURATION = 0x07
OP_PROTOCOL_CONFIGURATION = 0x08

# HomeKitADK HAPBLEPDU.c: HAPBLEPDUStatus.
STATUS_SUCCESS = 0
STATUS_UNSUPPORTED_PDU = 1
STATUS_MAX_PROCEDURES = 2
STATUS_INSUFFICIENT_AUTHORIZATION = 3
STATUS_INVALID_INSTANCE_ID = 4
STATUS_INSUFFICIENT_AUTHENTICATION = 5
STATUS_INVALID_REQUEST = 6


@dataclass
class Request:
    opcode: int
    tid: int
    iid: int
    body: bytes | None = None  # None: no length field at all


@dataclass
class Response:
    tid: int
    status: int
    body: bytes | None = None


def fragment_request(request: Request, max_fragment: int) -> list[bytes]:
    head = struct.pack("<BBBH", TYPE_REQUEST, request.opcode, request.tid, request.iid)
    return _fragment(head, request.body, TYPE_REQUEST, request.tid, max_fragment)


def fragment_response(response: Response, max_fragment: int) -> list[bytes]:
    head = struct.pack("<BBB", TYPE_RESPONSE, response.tid, response.status)
    return _fragment(head, response.body, TYPE_RESPONSE, response.tid, max_fragment)


def _fragment(head: bytes, body: bytes | None, pdu_type: int, tid: int, max_fragment: int) -> list[bytes]:
    if body is None:
        return [head]
    if len(body) > 0xFFFF:
        raise ValueError("a HAP-BLE PDU body holds at most 65535 bytes")
    first_room = max_fragment - len(head) - 2
    if first_room < 0 or max_fragment < 3:
        raise ValueError(f"fragment size {max_fragment} cannot hold a PDU header")
    fragments = [head + struct.pack("<H", len(body)) + body[:first_room]]
    rest = body[first_room:]
    room = max_fragment - 2
    for start in range(0, len(rest), room):
        fragments.append(bytes((pdu_type | CONTINUATION, tid)) + rest[start : start + room])
    return fragments


class ReassemblyError(ValueError):
    pass


@dataclass
class Reassembler:
    """Collects the fragments of one PDU; `complete` once the body has its announced length."""

    expected_type: int
    header: Request | Response | None = None
    announced: int | None = None
    parts: list[bytes] = field(default_factory=list)

    def add(self, fragment: bytes) -> None:
        if not fragment:
            raise ReassemblyError("empty fragment")
        control = fragment[0]
        if control & RESERVED_MASK or control & 0x01:
            raise ReassemblyError(f"invalid control field 0x{control:02x}")
        if control & TYPE_MASK != self.expected_type:
            raise ReassemblyError(f"control field 0x{control:02x} is not of the expected PDU type")
        if control & CONTINUATION:
            if self.header is None:
                raise ReassemblyError("continuation fragment without a first fragment")
            if len(fragment) < 2 or fragment[1] != self.header.tid:
                raise ReassemblyError("continuation fragment with another TID")
            self.parts.append(fragment[2:])
            return
        if self.header is not None:
            raise ReassemblyError("a new first fragment before the PDU was complete")
        if self.expected_type == TYPE_REQUEST:
            if len(fragment) < 5:
                raise ReassemblyError("request fragment shorter than its header")
            _, opcode, tid, iid = struct.unpack_from("<BBBH", fragment)
            self.header = Request(opcode, tid, iid)
            rest = fragment[5:]
        else:
            if len(fragment) < 3:
                raise ReassemblyError("response fragment shorter than its header")
            _, tid, status = struct.unpack_from("<BBB", fragment)
            self.header = Response(tid, status)
            rest = fragment[3:]
        if rest:
            if len(rest) < 2:
                raise ReassemblyError("body length field cut off")
            self.announced = struct.unpack_from("<H", rest)[0]
            self.parts.append(rest[2:])

    @property
    def received(self) -> int:
        return sum(map(len, self.parts))

    @property
    def complete(self) -> bool:
        return self.header is not None and (self.announced is None or self.received >= self.announced)

    def pdu(self) -> Request | Response:
        if not self.complete:
            raise ReassemblyError("PDU incomplete")
        assert self.header is not None
        body = None if self.announced is None else b"".join(self.parts)
        if body is not None and len(body) != self.announced:
            raise ReassemblyError(f"body of {len(body)} bytes where {self.announced} were announced")
        self.header.body = body
        return self.header
