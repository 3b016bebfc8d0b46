"""TLV8 as HAP uses it: items of at most 255 value bytes, a longer value split into adjacent items of
the same type (HAP R14 §14.1; aiohomekit tlv8.py joins them the same way), zero-length items allowed.
"""

from __future__ import annotations

from typing import Iterable


def encode(items: Iterable[tuple[int, bytes]]) -> bytes:
    """Items in order; an empty value is written as a zero-length item (type, 00)."""
    out = bytearray()
    for item_type, value in items:
        value = bytes(value)
        if not value:
            out += bytes((item_type, 0))
            continue
        for start in range(0, len(value), 255):
            chunk = value[start : start + 255]
            out += bytes((item_type, len(chunk))) + chunk
    return bytes(out)


def decode_list(body: bytes) -> list[tuple[int, bytes]]:
    """Items in order; adjacent items of one type join only when the first is a full 255 bytes."""
    items: list[tuple[int, bytes]] = []
    offset = 0
    continues = False
    while offset < len(body):
        if offset + 2 > len(body):
            raise ValueError(f"TLV item header cut off at offset {offset}")
        item_type, length = body[offset], body[offset + 1]
        value = body[offset + 2 : offset + 2 + length]
        if len(value) != length:
            raise ValueError(f"TLV item at offset {offset} runs past the end ({length} bytes announced)")
        if continues and items and items[-1][0] == item_type:
            items[-1] = (item_type, items[-1][1] + value)
        else:
            items.append((item_type, value))
        continues = length == 255
        offset += 2 + length
    return items


def decode(body: bytes) -> dict[int, bytes]:
    """Items by type; the first occurrence of a type wins."""
    result: dict[int, bytes] = {}
    for item_type, value in decode_list(body):
        result.setdefault(item_type, value)
    return result


# HAP-BLE additional parameter types (HomeKitADK HAPBLEPDU+TLV.h; aiohomekit controller/ble/const.py).
PARAM_VALUE = 0x01
PARAM_ADDITIONAL_AUTHORIZATION_DATA = 0x02
PARAM_ORIGIN = 0x03
PARAM_CHARACTERISTIC_TYPE = 0x04
PARAM_CHARACTERISTIC_INSTANCE_ID = 0x05
PARAM_SERVICE_TYPE = 0x06
PARAM_SERVICE_INSTANCE_ID = 0x07
PARAM_TTL = 0x08
PARAM_RETURN_RESPONSE = 0x09
PARAM_CHARACTERISTIC_PROPERTIES = 0x0A
PARAM_USER_DESCRIPTION = 0x0B
PARAM_PRESENTATION_FORMAT = 0x0C
PARAM_VALID_RANGE = 0x0D
PARAM_STEP_VALUE = 0x0E
PARAM_SERVICE_PROPERTIES = 0x0F
PARAM_LINKED_SERVICES = 0x10
PARAM_VALID_VALUES = 0x11
PARAM_VALID_VALUES_RANGE = 0x12

# Pairing TLV types (HAP R14 Table 5-6; HomeKitADK HAPPairing.h).
METHOD = 0x00
IDENTIFIER = 0x01
SALT = 0x02
PUBLIC_KEY = 0x03
PROOF = 0x04
ENCRYPTED_DATA = 0x05
STATE = 0x06
ERROR = 0x07
SIGNATURE = 0x0A
PERMISSIONS = 0x0B
FRAGMENT_DATA = 0x0C
FRAGMENT_LAST = 0x0D
SESSION_ID = 0x0E
SEPARATOR = 0xFF

ERROR_AUTHENTICATION = 0x02
ERROR_UNAVAILABLE = 0x06
METHOD_PAIR_SETUP = 0
METHOD_PAIR_SETUP_WITH_AUTH = 1
METHOD_PAIR_VERIFY = 2
METHOD_ADD_PAIRING = 3
METHOD_REMOVE_PAIRING = 4
METHOD_LIST_PAIRINGS = 5
METHOD_PAIR_RESUME = 6  # HomeKitADK HAPPairingPairVerify.c: kHAPPairingMethod_PairResume
