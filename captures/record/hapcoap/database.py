"""The accessory database the toolkit's accessory serves, and its encoding as the 0x09 PDU body.

The database read (opcode 0x09, IID 0, empty body) is answered with nested TLV8 — reverse engineering:
roysjosh/nanoleaf-ltpdu README.rst ("New HAP PDUs": the reply "appears to be a GATT attribute table") and
hapcoap.py decode_pdu_09, and aiohomekit 4.0.1 controller/coap/structs.py Pdu09Database:

    18 accessories:  list of 19 accessory {1A aid (u16 LE), 16 services}
    16 services:     list of 15 service {06 type (16 B), 07 iid (u16 LE), 0F properties (u16 LE), 14 characteristics}
    14 characteristics: list of 13 characteristic {04 type (16 B), 05 iid (u16 LE), 0A properties (u16 LE),
                        0C presentation format (7 B), 0D valid range, 0E step, 0B user description}

Lists separate their items with ``00 00``; an item longer than 255 bytes is cut into 255-byte fragments of
the same type. The item types 0x04–0x0F are HAP-BLE's (HomeKitADK HAPBLEPDU+TLV.h); 0x13–0x1A are not
public. UUIDs are 16 bytes least-significant byte first, as HAP-BLE sends them (HomeKitADK HAP.h HAPUUID:
"reversed network byte order"; HAPBLEPDU+TLV.c HAPBLEPDUTLVSerializeServiceType). The property bits are
HAP-BLE's characteristic properties descriptor and the 7-byte presentation format is the Bluetooth GATT
Characteristic Presentation Format (format, exponent, unit u16, namespace, description u16), as in
HomeKitADK HAPBLEPDU+TLV.c HAPBLEPDUTLVSerializeGATTPresentationFormatDescriptor.
"""

from __future__ import annotations

import struct
import uuid
from dataclasses import dataclass, field

from . import pdu

APPLE_BASE = "-0000-1000-8000-0026BB765291"

# HAP-BLE characteristic properties (HomeKitADK HAPBLECharacteristic+Signature / aiohomekit coap/structs.py).
PROPERTY_READ = 0x0001
PROPERTY_WRITE = 0x0002
PROPERTY_SECURE_READ = 0x0010
PROPERTY_SECURE_WRITE = 0x0020
PROPERTY_HIDDEN = 0x0040
PROPERTY_EVENTS_CONNECTED = 0x0080
SERVICE_PRIMARY = 0x0001

# Bluetooth GATT format types and units (Bluetooth Assigned Numbers), as HAP-BLE uses them.
FORMAT_BOOL, FORMAT_UINT8, FORMAT_UINT16, FORMAT_INT32, FORMAT_FLOAT, FORMAT_STRING = 0x01, 0x04, 0x06, 0x10, 0x14, 0x19
# TLV8 and data values: HAP-BLE's opaque structure (HomeKitADK HAPBLECharacteristic+Signature.c, 0x1B).
FORMAT_TLV8 = 0x1B
UNIT_UNITLESS, UNIT_CELSIUS, UNIT_PERCENTAGE = 0x2700, 0x272F, 0x27AD
GATT_NAMESPACE_BLUETOOTH_SIG = 0x01
VALUE_PACKING = {FORMAT_BOOL: "<?", FORMAT_UINT8: "<B", FORMAT_UINT16: "<H", FORMAT_INT32: "<i", FORMAT_FLOAT: "<f"}


def apple_uuid(short: int) -> uuid.UUID:
    return uuid.UUID(f"{short:08X}{APPLE_BASE}")


def uuid_bytes(value: uuid.UUID) -> bytes:
    """16 bytes, least significant first (HomeKitADK HAP.h HAPUUID)."""
    return value.bytes[::-1]


def encode_value(value_format: int, value: object) -> bytes:
    if value_format == FORMAT_STRING:
        return str(value).encode("utf-8")
    return struct.pack(VALUE_PACKING[value_format], value)


def decode_value(value_format: int, raw: bytes) -> object:
    if value_format == FORMAT_STRING:
        return raw.decode("utf-8")
    return struct.unpack(VALUE_PACKING[value_format], raw)[0]


@dataclass
class Characteristic:
    iid: int
    type: uuid.UUID
    properties: int
    format: int
    value: object = None
    unit: int = UNIT_UNITLESS
    valid_range: tuple[object, object] | None = None
    step: object | None = None

    @property
    def readable(self) -> bool:
        return bool(self.properties & PROPERTY_SECURE_READ)

    @property
    def writable(self) -> bool:
        return bool(self.properties & PROPERTY_SECURE_WRITE)

    @property
    def notifies(self) -> bool:
        return bool(self.properties & PROPERTY_EVENTS_CONNECTED)

    def encode(self) -> bytes:
        presentation = struct.pack("<BbHBH", self.format, 0, self.unit, GATT_NAMESPACE_BLUETOOTH_SIG, 0)
        items = [
            pdu.tlv(pdu.TLV_CHARACTERISTIC_TYPE, uuid_bytes(self.type)),
            pdu.tlv(pdu.TLV_CHARACTERISTIC_IID, struct.pack("<H", self.iid)),
            pdu.tlv(pdu.TLV_CHARACTERISTIC_PROPERTIES, struct.pack("<H", self.properties)),
            pdu.tlv(pdu.TLV_PRESENTATION_FORMAT, presentation),
        ]
        if self.valid_range is not None:
            low, high = self.valid_range
            items.append(pdu.tlv(pdu.TLV_VALID_RANGE, encode_value(self.format, low) + encode_value(self.format, high)))
        if self.step is not None:
            items.append(pdu.tlv(pdu.TLV_STEP_VALUE, encode_value(self.format, self.step)))
        return pdu.tlv(pdu.TLV_CHARACTERISTIC, b"".join(items))


@dataclass
class Service:
    iid: int
    type: uuid.UUID
    characteristics: list[Characteristic]
    properties: int = 0

    def encode(self) -> bytes:
        items = [
            pdu.tlv(pdu.TLV_SERVICE_TYPE, uuid_bytes(self.type)),
            pdu.tlv(pdu.TLV_SERVICE_IID, struct.pack("<H", self.iid)),
            pdu.tlv(pdu.TLV_SERVICE_PROPERTIES, struct.pack("<H", self.properties)),
            pdu.tlv(pdu.TLV_CHARACTERISTICS, pdu.tlv_list([c.encode() for c in self.characteristics])),
        ]
        return pdu.tlv(pdu.TLV_SERVICE, b"".join(items))


@dataclass
class Accessory:
    aid: int
    services: list[Service]
    by_iid: dict[int, Characteristic] = field(init=False)

    def __post_init__(self) -> None:
        self.by_iid = {c.iid: c for s in self.services for c in s.characteristics}
        iids = [s.iid for s in self.services] + [c.iid for s in self.services for c in s.characteristics]
        if len(iids) != len(set(iids)):
            raise ValueError("instance ids of services and characteristics must be unique")

    def encode_database(self) -> bytes:
        """The body of the 0x09 response: one accessory in the 18/19 wrapper."""
        accessory = pdu.tlv(
            pdu.TLV_ACCESSORY,
            pdu.tlv(pdu.TLV_ACCESSORY_IID, struct.pack("<H", self.aid))
            + pdu.tlv(pdu.TLV_SERVICES, pdu.tlv_list([s.encode() for s in self.services])),
        )
        return pdu.tlv(pdu.TLV_ACCESSORIES, pdu.tlv_list([accessory]))

    def characteristic(self, short_type: int) -> Characteristic:
        wanted = apple_uuid(short_type)
        return next(c for s in self.services for c in s.characteristics if c.type == wanted)


class Builder:
    """Numbers services and characteristics from iid 1 up, in the order they are added."""

    def __init__(self) -> None:
        self.next_iid = 1
        self.services: list[Service] = []

    def service(self, short_type: int, characteristics: list[tuple], primary: bool = False) -> Service:
        service = Service(iid=self.next_iid, type=apple_uuid(short_type), characteristics=[],
                          properties=SERVICE_PRIMARY if primary else 0)  # fmt: skip
        self.next_iid += 1
        for short, properties, value_format, value, *extra in characteristics:
            options = extra[0] if extra else {}
            service.characteristics.append(
                Characteristic(iid=self.next_iid, type=apple_uuid(short), properties=properties,
                               format=value_format, value=value, **options)  # fmt: skip
            )
            self.next_iid += 1
        self.services.append(service)
        return service


R, W, EV = PROPERTY_SECURE_READ, PROPERTY_SECURE_WRITE, PROPERTY_EVENTS_CONNECTED


def common_services(builder: Builder, name: str, model: str) -> None:
    """Accessory Information, Protocol Information, Pairing and Thread Transport services."""
    builder.service(0x3E, [
        (0x14, W, FORMAT_BOOL, False),  # Identify
        (0x20, R, FORMAT_STRING, "hapscope"),  # Manufacturer
        (0x21, R, FORMAT_STRING, model),  # Model
        (0x23, R, FORMAT_STRING, name),  # Name
        (0x30, R, FORMAT_STRING, "HSC-0001"),  # Serial Number
        (0x52, R, FORMAT_STRING, "1.0.0"),  # Firmware Revision
    ])  # fmt: skip
    builder.service(0xA2, [(0x37, R, FORMAT_STRING, "1.1.0")])  # HAP Protocol Information: Version
    # Pairing service with the four characteristics every source requires of it (HomeKitADK
    # HAPServiceTypes.h, HAP-NodeJS, HAP-python, aiohomekit): Pair Setup and Pair Verify (TLV8,
    # read and write without a session; over CoAP the procedures themselves run on /1 and /2),
    # Pairing Features, and Pairing Pairings (TLV8, the list/add/remove control point).
    builder.service(0x55, [
        (0x4C, PROPERTY_READ | PROPERTY_WRITE, FORMAT_TLV8, None),
        (0x4E, PROPERTY_READ | PROPERTY_WRITE, FORMAT_TLV8, None),
        (0x4F, R, FORMAT_UINT8, 0),
        (0x50, R | W, FORMAT_TLV8, None),
    ])  # fmt: skip
    # Thread Transport with its required characteristics (scripts/catalog services.tsv, from
    # HAP-NodeJS and aiohomekit): Current Transport (true: on Thread), Thread Control Point,
    # Node Capabilities, and Status (a bitmask, aiohomekit ThreadStatus: 0x08 = child).
    builder.service(0x701, [
        (0x22B, R, FORMAT_BOOL, True),
        (0x704, W, FORMAT_TLV8, None),
        (0x702, R, FORMAT_UINT16, 0x0C),
        (0x703, R | EV, FORMAT_UINT16, 0x08),
    ])  # fmt: skip


def sensor_light(name: str) -> Accessory:
    """The clean story's accessory: a lamp, a lock, a temperature and a humidity sensor, aid 1."""
    builder = Builder()
    common_services(builder, name, "HSC-Thread-1")
    builder.service(0x43, [  # Lightbulb
        (0x25, R | W | EV, FORMAT_BOOL, False),  # On
        (0x08, R | W | EV, FORMAT_INT32, 50, {"unit": UNIT_PERCENTAGE, "valid_range": (0, 100), "step": 1}),
        (0x23, R, FORMAT_STRING, "Desk Lamp"),
    ], primary=True)  # fmt: skip
    builder.service(0x45, [  # Lock Mechanism
        (0x1D, R | EV, FORMAT_UINT8, 1),  # Lock Current State: secured
        (0x1E, R | W | EV, FORMAT_UINT8, 1),  # Lock Target State
    ])  # fmt: skip
    builder.service(0x8A, [  # Temperature Sensor
        (0x11, R | EV, FORMAT_FLOAT, 21.0, {"unit": UNIT_CELSIUS, "valid_range": (-40.0, 100.0), "step": 0.1}),
        # A Name, so that aiohomekit's per-service read of the sensor is a batch: the scenarios'
        # faults count single-PDU reads of the temperature, which must be the story's own.
        (0x23, R, FORMAT_STRING, "Temperature"),
    ])  # fmt: skip
    builder.service(0x82, [  # Humidity Sensor: Current Relative Humidity belongs here, not in the Temperature Sensor
        (0x10, R | EV, FORMAT_FLOAT, 40.0, {"unit": UNIT_PERCENTAGE, "valid_range": (0.0, 100.0), "step": 1.0}),
        (0x23, R, FORMAT_STRING, "Humidity"),
    ])  # fmt: skip
    return Accessory(aid=1, services=builder.services)


def zoned_light(name: str, zones: int) -> Accessory:
    """A light with many zones: a database and reads large enough to need Block1 and Block2."""
    builder = Builder()
    common_services(builder, name, "HSC-Thread-Zones")
    for zone in range(1, zones + 1):
        builder.service(0x43, [
            (0x25, R | W | EV, FORMAT_BOOL, zone % 2 == 0),
            (0x08, R | W | EV, FORMAT_INT32, zone, {"unit": UNIT_PERCENTAGE, "valid_range": (0, 100), "step": 1}),
            (0x23, R, FORMAT_STRING, f"Zone {zone:02d}"),
        ], primary=zone == 1)  # fmt: skip
    return Accessory(aid=1, services=builder.services)
