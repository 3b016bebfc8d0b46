"""HAP-BLE advertisement manufacturer data (Apple company ID 0x004C).

Regular advertisement (HomeKitADK HAPBLEAccessoryServer+Advertising.c, HAP R14 §7.4.2.1.2), the bytes
after the company ID: TY = 0x06, STL = 0x2D (0x31 with a setup hash: subtype 1 in bits 7..5, length
13 or 17 in bits 4..0), SF (bit 0 = not paired), device ID (6), ACID = category (uint16 LE),
GSN (uint16 LE), CN (config number, 1..255), CV = 0x02, setup hash (4, optional).
aiohomekit controller/ble/manufacturer_data.py reads the same offsets.

Encrypted notification (HAP R14 §7.4.2.2.2): TY = 0x11, STL = 0x36 (subtype 1, length 22),
advertising identifier (6), then ChaCha20-Poly1305 of GSN (2) + IID (2) + value (8, zero-padded),
and the first 4 bytes of the tag.
"""

from __future__ import annotations

import base64
import hashlib
import struct
from dataclasses import dataclass

APPLE_COMPANY_ID = 0x004C
TYPE_REGULAR = 0x06
TYPE_ENCRYPTED_NOTIFICATION = 0x11
CONFIGURATION_VERSION = 0x02


def device_id_bytes(device_id: str) -> bytes:
    return bytes.fromhex(device_id.replace(":", ""))


def setup_hash(setup_id: str, device_id: str) -> bytes:
    """First 4 bytes of SHA-512(setup ID + device ID text), as in the IP TXT record's `sh`."""
    return hashlib.sha512((setup_id + device_id.upper()).encode("ascii")).digest()[:4]


def regular(*, paired: bool, device_id: str, category: int, gsn: int, config_number: int, setup_id: str | None) -> bytes:
    """Manufacturer data without the company ID."""
    hashed = setup_hash(setup_id, device_id) if setup_id else b""
    body = (
        bytes([0x00 if paired else 0x01])
        + device_id_bytes(device_id)
        + struct.pack("<HHBB", category, gsn, (config_number - 1) % 255 + 1, CONFIGURATION_VERSION)
        + hashed
    )
    return bytes([TYPE_REGULAR, 0x20 | len(body)]) + body


def encrypted_notification(advertising_id: bytes, sealed_payload: bytes) -> bytes:
    body = advertising_id + sealed_payload
    return bytes([TYPE_ENCRYPTED_NOTIFICATION, 0x20 | len(body)]) + body


def notification_plaintext(gsn: int, iid: int, value: bytes) -> bytes:
    if len(value) > 8:
        raise ValueError("a broadcast value holds at most 8 bytes")
    return struct.pack("<HH", gsn, iid) + value.ljust(8, b"\x00")


@dataclass
class Decoded:
    fields: dict


def decode(data: bytes) -> dict:
    """Fields of manufacturer data (without company ID) as a JSON-ready dict; raises ValueError."""
    if len(data) < 2:
        raise ValueError("manufacturer data shorter than type and length")
    kind, sub = data[0], data[1]
    length = sub & 0x1F
    if len(data) - 2 != length:
        raise ValueError(f"STL says {length} bytes, {len(data) - 2} follow")
    if kind == TYPE_REGULAR:
        if length not in (13, 17):
            raise ValueError(f"regular advertisement of {length} bytes")
        category, gsn, cn, cv = struct.unpack_from("<HHBB", data, 9)
        out = {
            "type": "regular",
            "subtype": sub >> 5,
            "statusFlags": data[2],
            "deviceId": ":".join(f"{b:02X}" for b in data[3:9]),
            "category": category,
            "gsn": gsn,
            "configNumber": cn,
            "compatibleVersion": cv,
        }
        out["setupHash"] = base64.b64encode(data[15:19]).decode("ascii") if length == 17 else None
        return out
    if kind == TYPE_ENCRYPTED_NOTIFICATION:
        if length != 22:
            raise ValueError(f"encrypted notification of {length} bytes")
        return {
            "type": "encrypted-notification",
            "subtype": sub >> 5,
            "advertisingId": ":".join(f"{b:02X}" for b in data[2:8]),
            "encryptedPayload": data[8:20].hex(),
            "tag": data[20:24].hex(),
        }
    raise ValueError(f"unknown HAP advertisement type 0x{kind:02x}")


def ad_structures(manufacturer_data: bytes, local_name: str | None) -> bytes:
    """Advertising data: Flags (LE General Discoverable, BR/EDR not supported), Manufacturer Specific
    Data, and the Local Name when it fits in 31 bytes (HomeKitADK ...+Advertising.c)."""
    flags = bytes([0x02, 0x01, 0x06])
    manufacturer = bytes([len(manufacturer_data) + 3, 0xFF]) + struct.pack("<H", APPLE_COMPANY_ID) + manufacturer_data
    data = flags + manufacturer
    if local_name:
        name = local_name.encode("utf-8")
        room = 31 - len(data) - 2
        if len(name) <= room:
            data += bytes([len(name) + 1, 0x09]) + name
        elif room > 0:
            data += bytes([room + 1, 0x08]) + name[:room]
    return data
