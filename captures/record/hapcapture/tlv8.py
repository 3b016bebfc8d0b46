"""Just enough TLV8 (PROTOCOL.md §1) to read the pairing outcome out of recorded messages, and to build and read the
TLV8 values of camera and Adaptive Lighting characteristics."""

from __future__ import annotations

STATE = 0x06
ERROR = 0x07
METHOD = 0x00

METHOD_ADD_PAIRING = 3
METHOD_REMOVE_PAIRING = 4
METHOD_LIST_PAIRINGS = 5
SEPARATOR = 0x00  # between the entries of a list-valued characteristic (HAP-NodeJS util/tlv.ts; PROTOCOL.md §9)


def decode(body: bytes) -> dict[int, bytes]:
    """Items by type, adjacent same-type fragments joined; first occurrence wins otherwise."""
    items: dict[int, bytes] = {}
    offset = 0
    previous_type = None
    while offset + 2 <= len(body):
        item_type, length = body[offset], body[offset + 1]
        value = body[offset + 2 : offset + 2 + length]
        if len(value) != length:
            raise ValueError(f"TLV item at offset {offset} runs past the end of the body")
        if item_type == previous_type:
            items[item_type] += value
        else:
            items.setdefault(item_type, value)
        previous_type = item_type
        offset += 2 + length
    if offset != len(body):
        raise ValueError("a TLV item header is cut off at the end of the body")
    return items


def items(body: bytes) -> list[tuple[int, bytes]]:
    """Every item in order, a value longer than 255 bytes joined from its adjacent fragments (PROTOCOL.md §1.1).

    Unlike ``decode`` this keeps repeated types apart, which is how a TLV8 list carries its entries (separated by an
    empty item of another type, ``SEPARATOR``).
    """
    result: list[tuple[int, bytes]] = []
    offset = 0
    continues = False
    while offset + 2 <= len(body):
        item_type, length = body[offset], body[offset + 1]
        value = body[offset + 2 : offset + 2 + length]
        if len(value) != length:
            raise ValueError(f"TLV item at offset {offset} runs past the end of the body")
        if continues and result[-1][0] == item_type:
            result[-1] = (item_type, result[-1][1] + value)
        else:
            result.append((item_type, value))
        continues = length == 255
        offset += 2 + length
    if offset != len(body):
        raise ValueError("a TLV item header is cut off at the end of the body")
    return result


def encode(entries: list[tuple[int, bytes]]) -> bytes:
    """Items in the order given; a value longer than 255 bytes goes out as fragments of 255 (PROTOCOL.md §1.1)."""
    out = bytearray()
    for item_type, value in entries:
        fragments = [value[start : start + 255] for start in range(0, len(value), 255)] or [b""]
        for fragment in fragments:
            out += bytes([item_type, len(fragment)]) + fragment
    return bytes(out)


def integer(items: dict[int, bytes], item_type: int) -> int | None:
    value = items.get(item_type)
    return int.from_bytes(value, "little") if value is not None else None
