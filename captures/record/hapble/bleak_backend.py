"""A bleak backend on Bumble's central role, injected at run time (no installed file changes).

bleak 3.1.0 `BleakClient.__init__` and `BleakScanner.__init__` look up
`bleak.get_platform_client_backend_type` / `get_platform_scanner_backend_type` at each call, so
replacing those two names is enough for code (aiohomekit, bleak-retry-connector) that passes no
`backend=`. `BLEDevice.details` is deliberately not a dict with "path", so that bleak-retry-connector
skips its BlueZ/D-Bus code paths.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any, Callable

import bleak
from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient
from bleak.backends.descriptor import BleakGATTDescriptor
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection
from bleak.exc import BleakError
from bumble.core import PhysicalTransport
from bumble.device import Device, Peer
from bumble.gatt import Characteristic

BACKEND_ID = "hapble-bumble"


class Central:
    """What the backend classes need from the rig: the Bumble device and the MTU to request."""

    device: Device | None = None
    request_mtu: int | None = None
    timeout = 10.0


def parse_ad_structures(data: bytes) -> tuple[str | None, dict[int, bytes], list[str]]:
    """Local name, manufacturer data by company ID, 16-bit service UUIDs (Core Spec Supplement §1)."""
    name, manufacturer, uuids = None, {}, []
    offset = 0
    while offset < len(data):
        length = data[offset]
        if length == 0:
            break
        kind, value = data[offset + 1], data[offset + 2 : offset + 1 + length]
        if kind in (0x08, 0x09):
            name = value.decode("utf-8", "replace")
        elif kind == 0xFF and len(value) >= 2:
            manufacturer[struct.unpack_from("<H", value)[0]] = bytes(value[2:])
        elif kind in (0x02, 0x03):
            uuids += [f"0000{value[i + 1]:02x}{value[i]:02x}-0000-1000-8000-00805f9b34fb" for i in range(0, len(value) - 1, 2)]
        offset += 1 + length
    return name, manufacturer, uuids


def address_key(address) -> str:
    return address.to_string(with_type_qualifier=False).upper()


class BumbleScanner(BaseBleakScanner):
    def __init__(self, detection_callback=None, service_uuids=None, scanning_mode="passive", **kwargs: Any) -> None:
        super().__init__(detection_callback, service_uuids)
        self._listening = False

    def _on_advertisement(self, advertisement) -> None:
        name, manufacturer, uuids = parse_ad_structures(advertisement.data_bytes)
        if not self.is_allowed_uuid(uuids):
            return
        data = AdvertisementData(
            local_name=name,
            manufacturer_data=manufacturer,
            service_data={},
            service_uuids=uuids,
            tx_power=None,
            rssi=advertisement.rssi,
            platform_data=(advertisement,),
        )
        key = address_key(advertisement.address)
        details = {"bumble_address": advertisement.address}
        device = self.create_or_update_device(key, key, name, details, data)
        self.call_detection_callbacks(device, data)

    async def start(self) -> None:
        assert Central.device is not None
        self.seen_devices = {}
        Central.device.on("advertisement", self._on_advertisement)
        self._listening = True
        await Central.device.start_scanning(active=False, filter_duplicates=False)

    async def stop(self) -> None:
        assert Central.device is not None
        if self._listening:
            Central.device.remove_listener("advertisement", self._on_advertisement)
            self._listening = False
        if Central.device.is_scanning:
            await Central.device.stop_scanning()


class BumbleClient(BaseBleakClient):
    def __init__(self, address_or_ble_device, *, disconnected_callback=None, timeout: float = 10.0, **kwargs: Any) -> None:
        super().__init__(address_or_ble_device, disconnected_callback=disconnected_callback, timeout=timeout)
        self._device = address_or_ble_device if isinstance(address_or_ble_device, BLEDevice) else None
        self._connection = None
        self._peer: Peer | None = None
        self._proxies: dict[int, Any] = {}

    @property
    def name(self) -> str:
        return self._device.name if self._device and self._device.name else self.address

    @property
    def mtu_size(self) -> int:
        if self._connection is None:
            return 23
        return self._connection.att_mtu

    @property
    def is_connected(self) -> bool:
        return self._connection is not None

    async def connect(self, pair: bool = False, **kwargs: Any) -> None:
        assert Central.device is not None
        target = self.address
        if self._device is not None and isinstance(self._device.details, dict):
            target = self._device.details.get("bumble_address", target)
        if Central.device.is_scanning:
            # A Bumble controller cannot scan and initiate at once; scanning restarts afterwards.
            await Central.device.stop_scanning()
            self._restart_scan = True
        else:
            self._restart_scan = False
        try:
            connection = await Central.device.connect(target, transport=PhysicalTransport.LE, timeout=Central.timeout)
        finally:
            if self._restart_scan:
                await Central.device.start_scanning(active=False, filter_duplicates=False)
        self._connection = connection
        connection.on("disconnection", self._on_disconnection)
        self._peer = Peer(connection)
        if Central.request_mtu:
            await self._peer.request_mtu(Central.request_mtu)
        await self._discover()

    async def _discover(self) -> None:
        assert self._peer is not None
        collection = BleakGATTServiceCollection()
        services = await self._peer.discover_services()
        for service_proxy in services:
            service = BleakGATTService(service_proxy, service_proxy.handle, str(service_proxy.uuid.to_hex_str("-")).lower())
            collection.add_service(service)
            for char_proxy in await service_proxy.discover_characteristics():
                self._proxies[char_proxy.handle] = char_proxy
                mtu = self.mtu_size
                characteristic = BleakGATTCharacteristic(
                    char_proxy,
                    char_proxy.handle,
                    char_proxy.uuid.to_hex_str("-").lower(),
                    _property_names(char_proxy.properties),
                    lambda mtu=mtu: mtu - 3,
                    service,
                )
                collection.add_characteristic(characteristic)
                for descriptor_proxy in await char_proxy.discover_descriptors():
                    collection.add_descriptor(
                        BleakGATTDescriptor(
                            descriptor_proxy, descriptor_proxy.handle, descriptor_proxy.type.to_hex_str("-").lower(), characteristic
                        )
                    )
        self.services = collection

    def _on_disconnection(self, reason: int) -> None:
        self._connection = None
        self._peer = None
        if self._disconnected_callback is not None:
            self._disconnected_callback()

    async def disconnect(self) -> None:
        if self._connection is not None:
            connection = self._connection
            await connection.disconnect()

    async def pair(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("HAP-BLE does not use Bluetooth pairing")

    async def unpair(self) -> None:
        raise NotImplementedError("HAP-BLE does not use Bluetooth pairing")

    def _require_peer(self) -> Peer:
        if self._peer is None:
            raise BleakError("not connected")
        return self._peer

    async def read_gatt_char(self, characteristic: BleakGATTCharacteristic, *, use_cached: bool = False, **kwargs: Any) -> bytearray:
        return bytearray(await self._require_peer().read_value(characteristic.handle))

    async def read_gatt_descriptor(self, descriptor: BleakGATTDescriptor, *, use_cached: bool = False, **kwargs: Any) -> bytearray:
        return bytearray(await self._require_peer().read_value(descriptor.handle))

    async def write_gatt_char(self, characteristic: BleakGATTCharacteristic, data, response: bool) -> None:
        await self._require_peer().write_value(characteristic.handle, bytes(data), with_response=response)

    async def write_gatt_descriptor(self, descriptor: BleakGATTDescriptor, data) -> None:
        await self._require_peer().write_value(descriptor.handle, bytes(data), with_response=True)

    async def start_notify(self, characteristic: BleakGATTCharacteristic, callback: Callable[[bytearray], None], **kwargs: Any) -> None:
        self._require_peer()
        proxy = self._proxies[characteristic.handle]
        # HAP characteristics indicate (HAP R14 §7.4.6.1); prefer_notify=False subscribes to indications.
        await proxy.subscribe(lambda value: callback(bytearray(value)), prefer_notify=False)

    async def stop_notify(self, characteristic: BleakGATTCharacteristic) -> None:
        proxy = self._proxies[characteristic.handle]
        await proxy.unsubscribe()


def _property_names(properties: Characteristic.Properties) -> list[str]:
    names = []
    for flag, name in (
        (Characteristic.Properties.BROADCAST, "broadcast"),
        (Characteristic.Properties.READ, "read"),
        (Characteristic.Properties.WRITE_WITHOUT_RESPONSE, "write-without-response"),
        (Characteristic.Properties.WRITE, "write"),
        (Characteristic.Properties.NOTIFY, "notify"),
        (Characteristic.Properties.INDICATE, "indicate"),
    ):
        if properties & flag:
            names.append(name)
    return names


def install(device: Device, request_mtu: int | None) -> None:
    Central.device = device
    Central.request_mtu = request_mtu
    bleak.get_platform_client_backend_type = lambda: (BumbleClient, BACKEND_ID)
    bleak.get_platform_scanner_backend_type = lambda: (BumbleScanner, BACKEND_ID)
