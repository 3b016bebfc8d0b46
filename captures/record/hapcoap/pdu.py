"""The HAP PDU as it travels inside a CoAP payload, the TLV8 it carries, and the event record.

HAP over CoAP reuses the PDU of HAP over Bluetooth LE without its fragmentation:

* request  ``control(1) opcode(1) tid(1) iid(2, LE) body-length(2, LE) body`` — HomeKitADK
  HAPBLEPDU.c (HAPBLEPDUDeserialize: request fixed params opcode, TID, IID little-endian, then an
  optional little-endian body length); over CoAP aiohomekit 4.0.1 always writes the length, also 0
  (aiohomekit controller/coap/pdu.py encode_pdu ``<BBBHH``);
* response ``control(1) tid(1) status(1) body-length(2, LE) body`` — HomeKitADK HAPBLEPDU.c (response
  fixed params TID, status); aiohomekit controller/coap/pdu.py decode_pdu ``<BBBH`` needs the length;
* control field: bit 7 continuation, bits 1–3 type (000 request, 001 response), bits 4–6 reserved,
  bit 0 length (0 = one byte) — HomeKitADK HAPBLEPDU.c DeserializeControlField;
* several PDUs in one payload are simply concatenated (a batch); aiohomekit numbers a batch's TIDs
  0…n−1 and reads the responses back in order (aiohomekit controller/coap/pdu.py encode_all_pdus,
  decode_all_pdus) — reverse engineering, no public specification;
* an event payload is a run of records ``byte(1) iid(2, LE) length(2, LE) body`` whose body is the
  TLV ``01 <value>`` (aiohomekit controller/coap/connection.py EventResource.render_put, which skips the
  first byte) — reverse engineering.

Everything here is bounded: every length from the wire is checked before it is used, and errors name
the byte offset.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

# HomeKitADK HAPBLEPDU.c DeserializeControlField: type bits 1–3, 0b000 request, 0b001 response.
REQUEST_CONTROL = 0x00
RESPONSE_CONTROL = 0x02
CONTROL_TYPE_MASK = 0x0E
# The byte before each event record's IID. aiohomekit ignores it; this accessory sends 0 (unconfirmed).
EVENT_RECORD_CONTROL = 0x00

# HomeKitADK HAPPDU.h HAPPDUOpcode (0x02 write, 0x03 read); 0x09, 0x0B, 0x0C only in aiohomekit
# controller/coap/pdu.py OpCode (UNK_09_READ_GATT, UNK_0B_SUBSCRIBE, UNK_0C_UNSUBSCRIBE) and
# roysjosh/nanoleaf-ltpdu README.rst ("New HAP PDUs").
OPCODE_WRITE, OPCODE_READ, OPCODE_DATABASE, OPCODE_SUBSCRIBE, OPCODE_UNSUBSCRIBE = 0x02, 0x03, 0x09, 0x0B, 0x0C

# HomeKitADK HAPBLEPDU.h HAPBLEPDUStatus.
STATUS_SUCCESS = 0x00
STATUS_UNSUPPORTED_PDU = 0x01
STATUS_INVALID_INSTANCE_ID = 0x04
STATUS_INVALID_REQUEST = 0x06

REQUEST_HEADER = struct.Struct("<BBBHH")
RESPONSE_HEADER = struct.Struct("<BBBH")
EVENT_HEADER = struct.Struct("<BHH")

# HomeKitADK HAPBLEPDU+TLV.h HAPBLEPDUTLVType (0x01–0x12); 0x13–0x1A only in aiohomekit protocol/tlv.py HAP_TLV.
TLV_SEPARATOR = 0x00
TLV_VALUE = 0x01
TLV_CHARACTERISTIC_TYPE = 0x04
TLV_CHARACTERISTIC_IID = 0x05
TLV_SERVICE_TYPE = 0x06
TLV_SERVICE_IID = 0x07
TLV_CHARACTERISTIC_PROPERTIES = 0x0A
TLV_PRESENTATION_FORMAT = 0x0C
TLV_VALID_RANGE = 0x0D
TLV_STEP_VALUE = 0x0E
TLV_SERVICE_PROPERTIES = 0x0F
TLV_CHARACTERISTIC = 0x13
TLV_CHARACTERISTICS = 0x14
TLV_SERVICE = 0x15
TLV_SERVICES = 0x16
TLV_ACCESSORIES = 0x18
TLV_ACCESSORY = 0x19
TLV_ACCESSORY_IID = 0x1A
TLV_FRAGMENT = 255


class PduError(ValueError):
    """A payload that is not a run of well-formed PDUs; ``offset`` is where reading stopped."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(f"{message} (payload offset {offset})")
        self.offset = offset


@dataclass(frozen=True)
class Request:
    opcode: int
    tid: int
    iid: int
    body: bytes = b""
    control: int = REQUEST_CONTROL

    def encode(self) -> bytes:
        return REQUEST_HEADER.pack(self.control, self.opcode, self.tid, self.iid, len(self.body)) + self.body


@dataclass(frozen=True)
class Response:
    tid: int
    status: int
    body: bytes = b""
    control: int = RESPONSE_CONTROL

    def encode(self) -> bytes:
        return RESPONSE_HEADER.pack(self.control, self.tid, self.status, len(self.body)) + self.body


@dataclass(frozen=True)
class EventRecord:
    iid: int
    body: bytes
    control: int = EVENT_RECORD_CONTROL

    def encode(self) -> bytes:
        return EVENT_HEADER.pack(self.control, self.iid, len(self.body)) + self.body


def _split(payload: bytes, header: struct.Struct, what: str) -> list[tuple[int, tuple[int, ...], bytes]]:
    """(offset, header fields without the length, body) of each item of ``payload``."""
    if not payload:
        raise PduError(f"an empty payload holds no {what}", 0)
    parts = []
    offset = 0
    while offset < len(payload):
        if len(payload) - offset < header.size:
            raise PduError(f"a {what} header needs {header.size} bytes, {len(payload) - offset} remain", offset)
        fields = header.unpack_from(payload, offset)
        length = fields[-1]
        start = offset + header.size
        if start + length > len(payload):
            raise PduError(f"a {what} body of {length} bytes runs past the end", offset)
        parts.append((offset, fields[:-1], payload[start : start + length]))
        offset = start + length
    return parts


def split_requests(payload: bytes) -> list[Request]:
    requests = []
    for offset, (control, opcode, tid, iid), body in _split(payload, REQUEST_HEADER, "request PDU"):
        if control & CONTROL_TYPE_MASK != REQUEST_CONTROL:
            raise PduError(f"control field 0x{control:02x} is not a request", offset)
        requests.append(Request(opcode=opcode, tid=tid, iid=iid, body=body, control=control))
    return requests


def split_responses(payload: bytes) -> list[Response]:
    responses = []
    for offset, (control, tid, status), body in _split(payload, RESPONSE_HEADER, "response PDU"):
        if control & CONTROL_TYPE_MASK != RESPONSE_CONTROL:
            raise PduError(f"control field 0x{control:02x} is not a response", offset)
        responses.append(Response(tid=tid, status=status, body=body, control=control))
    return responses


def split_event_records(payload: bytes) -> list[EventRecord]:
    return [
        EventRecord(iid=iid, body=body, control=control)
        for _, (control, iid), body in _split(payload, EVENT_HEADER, "event record")
    ]


# --- TLV8 --------------------------------------------------------------------------------------


def tlv(item_type: int, value: bytes) -> bytes:
    """One TLV8 item, split into 255-byte fragments of the same type (HAP TLV8 fragmentation)."""
    if not value:
        return bytes([item_type, 0])
    out = bytearray()
    for start in range(0, len(value), TLV_FRAGMENT):
        chunk = value[start : start + TLV_FRAGMENT]
        out += bytes([item_type, len(chunk)]) + chunk
    return bytes(out)


def tlv_list(items: list[bytes]) -> bytes:
    """Encoded items separated by an empty separator item ``00 00`` (aiohomekit tlv8.py tlv_array)."""
    return bytes([TLV_SEPARATOR, 0]).join(items)


def tlv_items(data: bytes) -> list[tuple[int, bytes]]:
    """Items in order; a 255-byte fragment is joined with the items of the same type that follow it."""
    items: list[tuple[int, bytes]] = []
    offset = 0
    continuing = False
    while offset < len(data):
        if len(data) - offset < 2:
            raise PduError("a TLV item header is cut off", offset)
        item_type, length = data[offset], data[offset + 1]
        if offset + 2 + length > len(data):
            raise PduError(f"a TLV item of {length} bytes runs past the end", offset)
        value = data[offset + 2 : offset + 2 + length]
        if continuing and items and items[-1][0] == item_type:
            items[-1] = (item_type, items[-1][1] + value)
        else:
            items.append((item_type, value))
        continuing = length == TLV_FRAGMENT
        offset += 2 + length
    return items


def value_body(value: bytes) -> bytes:
    """A read response's or write request's body: the HAP-Param-Value item."""
    return tlv(TLV_VALUE, value)


def value_of(body: bytes) -> bytes | None:
    for item_type, value in tlv_items(body):
        if item_type == TLV_VALUE:
            return value
    return None
