"""The accessory's HAP attribute database: services, characteristics, instance IDs and their HAP-BLE
signatures (HomeKitADK HAPBLECharacteristic+Signature.c, HAPBLEService+Signature.c, HAPBLEPDU+TLV.c).
"""

from __future__ import annotations

import struct
import uuid as uuid_module
from dataclasses import dataclass, field

from . import tlv

HAP_BASE = "-0000-1000-8000-0026BB765291"
SERVICE_INSTANCE_ID_UUID = "E604E95D-A759-4817-87D3-AA005083A0D1"  # aiohomekit controller/ble/pairing.py
CHARACTERISTIC_INSTANCE_ID_UUID = "DC46F0FE-81D2-4616-B5D9-6ABDD796939A"  # aiohomekit controller/ble/bleak.py


def hap_uuid(short: str) -> str:
    """`3E` → `0000003E-0000-1000-8000-0026BB765291`; a full UUID passes through."""
    return short.upper() if "-" in short else f"{int(short, 16):08X}{HAP_BASE}"


def uuid_wire_bytes(text: str) -> bytes:
    """HAP-BLE signatures carry 128-bit UUIDs little-endian (HomeKitADK stores HAPUUID bytes reversed;
    aiohomekit structs.py reads the type TLV as a little-endian u128)."""
    return uuid_module.UUID(text).bytes[::-1]


# BT SIG presentation format bytes (HomeKitADK HAPBLEPDU+TLV.c ConvertHAPFormatToBTSIGFormat).
FORMAT_BYTES = {
    "bool": 0x01, "uint8": 0x04, "uint16": 0x06, "uint32": 0x08, "uint64": 0x0A,
    "int": 0x10, "float": 0x14, "string": 0x19, "data": 0x1B, "tlv8": 0x1B,
}
# ... and units (ConvertHAPUnitToBTSIGUnit).
UNIT_BYTES = {None: 0x2700, "celsius": 0x272F, "arcdegrees": 0x2763, "percentage": 0x27AD, "lux": 0x2731, "seconds": 0x2703}
RANGE_STRUCT = {"uint8": "<BB", "uint16": "<HH", "uint32": "<II", "uint64": "<QQ", "int": "<ii", "float": "<ff"}
VALUE_STRUCT = {"bool": "<B", "uint8": "<B", "uint16": "<H", "uint32": "<I", "uint64": "<Q", "int": "<i", "float": "<f"}

# HAP characteristic properties (HomeKitADK HAPBLEPDU+TLV.c SerializeHAPCharacteristicPropertiesDescriptor).
PROP_READ_OPEN = 0x0001
PROP_WRITE_OPEN = 0x0002
PROP_AAD = 0x0004
PROP_TIMED_WRITE = 0x0008
PROP_SECURE_READ = 0x0010
PROP_SECURE_WRITE = 0x0020
PROP_HIDDEN = 0x0040
PROP_EVENTS_CONNECTED = 0x0080
PROP_EVENTS_DISCONNECTED = 0x0100
PROP_BROADCAST = 0x0200

PERM_BITS = {"pr": PROP_SECURE_READ, "pw": PROP_SECURE_WRITE, "ev": PROP_EVENTS_CONNECTED, "tw": PROP_TIMED_WRITE,
             "hd": PROP_HIDDEN, "open-read": PROP_READ_OPEN, "open-write": PROP_WRITE_OPEN,
             "de": PROP_EVENTS_DISCONNECTED, "be": PROP_BROADCAST}


@dataclass
class Characteristic:
    type: str
    iid: int
    format: str
    perms: tuple[str, ...]
    value: object = None
    unit: str | None = None
    valid_range: tuple | None = None
    step: object = None
    description: str | None = None
    role: str | None = None  # pair-setup, pair-verify, pairing-features, pairings, service-signature, identify
    value_handle: int = 0
    service: "Service | None" = None

    @property
    def uuid(self) -> str:
        return hap_uuid(self.type)

    @property
    def properties(self) -> int:
        bits = 0
        for perm in self.perms:
            bits |= PERM_BITS[perm]
        return bits

    def has(self, perm: str) -> bool:
        return perm in self.perms

    def encode_value(self, value=None) -> bytes:
        value = self.value if value is None else value
        if self.format in VALUE_STRUCT:
            if self.format == "bool":
                value = 1 if value else 0
            return struct.pack(VALUE_STRUCT[self.format], value)
        if self.format == "string":
            return str(value).encode("utf-8")
        return bytes(value or b"")

    def decode_value(self, raw: bytes):
        if self.format in VALUE_STRUCT:
            size = struct.calcsize(VALUE_STRUCT[self.format])
            if len(raw) != size:
                raise ValueError(f"{self.format} value of {len(raw)} bytes")
            value = struct.unpack(VALUE_STRUCT[self.format], raw)[0]
            return bool(value) if self.format == "bool" else value
        if self.format == "string":
            return raw.decode("utf-8")
        return bytes(raw)

    def signature(self) -> bytes:
        """HAP-Characteristic-Signature-Read-Response body (HAPBLECharacteristic+Signature.c order)."""
        assert self.service is not None
        items = [
            (tlv.PARAM_CHARACTERISTIC_TYPE, uuid_wire_bytes(self.uuid)),
            (tlv.PARAM_SERVICE_INSTANCE_ID, struct.pack("<H", self.service.iid)),
            (tlv.PARAM_SERVICE_TYPE, uuid_wire_bytes(self.service.uuid)),
            (tlv.PARAM_CHARACTERISTIC_PROPERTIES, struct.pack("<H", self.properties)),
        ]
        if self.description:
            items.append((tlv.PARAM_USER_DESCRIPTION, self.description.encode("utf-8")))
        items.append((tlv.PARAM_PRESENTATION_FORMAT,
                      struct.pack("<BbHBH", FORMAT_BYTES[self.format], 0, UNIT_BYTES[self.unit], 1, 0)))
        if self.valid_range is not None:
            items.append((tlv.PARAM_VALID_RANGE, struct.pack(RANGE_STRUCT[self.format], *self.valid_range)))
        if self.step is not None:
            items.append((tlv.PARAM_STEP_VALUE, struct.pack(VALUE_STRUCT[self.format], self.step)))
        return tlv.encode(items)


@dataclass
class Service:
    type: str
    iid: int
    characteristics: list[Characteristic]
    primary: bool = False
    hidden: bool = False
    supports_configuration: bool = False
    linked: list[int] = field(default_factory=list)

    @property
    def uuid(self) -> str:
        return hap_uuid(self.type)

    @property
    def properties(self) -> int:
        # HomeKitADK HAPBLEPDU+TLV.c SerializeHAPServiceProperties (HAP R14 Table 7-49).
        return (0x0001 if self.primary else 0) | (0x0002 if self.hidden else 0) | (0x0004 if self.supports_configuration else 0)

    def signature(self) -> bytes:
        """HAP-Service-Signature-Read-Response body: properties only if non-default or linked, then the
        linked services as one TLV of concatenated uint16 LE IIDs (HAPBLEPDU+TLV.c)."""
        items = []
        if self.properties or self.linked:
            items.append((tlv.PARAM_SERVICE_PROPERTIES, struct.pack("<H", self.properties)))
        items.append((tlv.PARAM_LINKED_SERVICES, b"".join(struct.pack("<H", iid) for iid in self.linked)))
        return tlv.encode(items)


@dataclass
class Database:
    services: list[Service]

    def __post_init__(self) -> None:
        iids = set()
        for service in self.services:
            for item in [service, *service.characteristics]:
                if item.iid in iids:
                    raise ValueError(f"duplicate IID {item.iid}")
                iids.add(item.iid)
            for characteristic in service.characteristics:
                characteristic.service = service

    def add(self, service: Service) -> None:
        """Adds a service after the others, its IIDs unused so far."""
        Database(self.services + [service])  # checks the IIDs
        self.services.append(service)
        for characteristic in service.characteristics:
            characteristic.service = service

    def characteristics(self):
        for service in self.services:
            yield from service.characteristics

    def characteristic(self, iid: int) -> Characteristic | None:
        return next((c for c in self.characteristics() if c.iid == iid), None)

    def by_role(self, role: str) -> Characteristic:
        return next(c for c in self.characteristics() if c.role == role)


def _accessory_information(name: str, iid: int) -> Service:
    return Service("3E", iid, [
        Characteristic("14", iid + 1, "bool", ("pw",), False, role="identify"),
        Characteristic("20", iid + 2, "string", ("pr",), "hapscope"),
        Characteristic("21", iid + 3, "string", ("pr",), "BLE-Rig-1"),
        Characteristic("23", iid + 4, "string", ("pr",), name),
        Characteristic("30", iid + 5, "string", ("pr",), "HSB-0001"),
        Characteristic("52", iid + 6, "string", ("pr",), "1.0.0"),
        Characteristic("53", iid + 7, "string", ("pr",), "1.0.0"),
    ])


def _protocol_information(iid: int) -> Service:
    # HomeKitADK HAPBLEProcedure.c: Protocol-Configuration needs a service with supportsConfiguration;
    # aiohomekit sends it to the Service Signature characteristic of the Protocol Information service.
    return Service("A2", iid, [
        Characteristic("A5", iid + 1, "data", ("pr",), b"", role="service-signature"),
        Characteristic("37", iid + 2, "string", ("pr",), "2.2.0"),
    ], supports_configuration=True)


def _pairing(iid: int) -> Service:
    # HomeKitADK HAPBLEProcedure.c: Pair Setup, Pair Verify and Pairing Features are accessed without
    # a secure session only; Pairings only inside one.
    return Service("55", iid, [
        Characteristic("4C", iid + 2, "tlv8", ("open-read", "open-write"), b"", role="pair-setup"),
        Characteristic("4E", iid + 3, "tlv8", ("open-read", "open-write"), b"", role="pair-verify"),
        Characteristic("4F", iid + 4, "uint8", ("open-read",), 0, role="pairing-features"),
        Characteristic("50", iid + 5, "tlv8", ("pr", "pw"), b"", role="pairings"),
    ])


def lamp(name: str = "hapscope BLE Lamp") -> Database:
    """A stand-alone lightbulb (category 5)."""
    return Database([
        _accessory_information(name, 1),
        _protocol_information(16),
        _pairing(32),
        Service("43", 48, [
            Characteristic("A5", 49, "data", ("pr",), b"", role="service-signature"),
            Characteristic("25", 50, "bool", ("pr", "pw", "ev", "de"), False),
            Characteristic("08", 51, "int", ("pr", "pw", "ev", "be"), 50, unit="percentage", valid_range=(0, 100), step=1),
            Characteristic("23", 52, "string", ("pr",), "Lamp"),
        ], primary=True),
    ])


def battery(iid: int) -> Service:
    """A Battery service: level, charging state, low-battery status (IIDs iid + 2 ...)."""
    return Service("96", iid, [
        Characteristic("68", iid + 2, "uint8", ("pr", "ev"), 87, unit="percentage", valid_range=(0, 100), step=1),
        Characteristic("8F", iid + 3, "uint8", ("pr", "ev"), 0, valid_range=(0, 2), step=1),
        Characteristic("79", iid + 4, "uint8", ("pr", "ev"), 0, valid_range=(0, 1), step=1),
    ])


LONG_NOTE = ("hapscope long value: " + "The quick brown fox jumps over the lazy dog. " * 7).strip()[:300]


def multi_service(name: str = "hapscope BLE Combo") -> Database:
    """A lamp with a battery, a temperature sensor, a lock (timed writes) and a vendor service holding a
    300-byte value; the lamp and the lock each link the battery."""
    base = lamp(name)
    base.services[3].linked = [64]
    extra = [
        battery(64),
        Service("8A", 80, [
            Characteristic("11", 82, "float", ("pr", "ev", "de", "be"), 21.5, unit="celsius", valid_range=(-40.0, 100.0), step=0.1),
        ]),
        Service("45", 96, [
            Characteristic("A5", 97, "data", ("pr",), b"", role="service-signature"),
            Characteristic("1D", 98, "uint8", ("pr", "ev"), 1, valid_range=(0, 3), step=1),
            Characteristic("1E", 99, "uint8", ("pr", "pw", "ev", "tw"), 1, valid_range=(0, 1), step=1),
        ], linked=[64]),
        Service("7A8B0000-5C6D-4E7F-8091-A2B3C4D5E6F7", 112, [
            Characteristic("7A8B0001-5C6D-4E7F-8091-A2B3C4D5E6F7", 114, "string", ("pr", "pw"), LONG_NOTE,
                           description="Long note"),
        ]),
    ]
    return Database(base.services + extra)
