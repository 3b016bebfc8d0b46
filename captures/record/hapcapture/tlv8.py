"""Just enough TLV8 (PROTOCOL.md §1) to read the pairing outcome out of recorded messages."""

from __future__ import annotations

STATE = 0x06
ERROR = 0x07
METHOD = 0x00

METHOD_ADD_PAIRING = 3
METHOD_REMOVE_PAIRING = 4
METHOD_LIST_PAIRINGS = 5


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


def integer(items: dict[int, bytes], item_type: int) -> int | None:
    value = items.get(item_type)
    return int.from_bytes(value, "little") if value is not None else None
