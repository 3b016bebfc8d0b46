"""One recording: the radio, the accessory, aiohomekit's controller and a scenario's story, in one
asyncio process; every wait has a timeout."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Awaitable, Callable

from cryptography.hazmat.primitives.asymmetric import ed25519

from hapcapture.journal import Journal
from hapcapture.seeded import SeededRandomness

from . import bleak_backend, controller
from .accessory import Accessory, Identity, Misbehaviour
from .attlog import AttRecorder
from .database import Database
from .radio import Radio

ACCESSORY_ADDRESS = "E1:2B:3C:4D:5E:6F"  # random static (two top bits set)
CONTROLLER_ADDRESS = "C0:77:00:00:00:01"
DEVICE_ID = "1A:2B:3C:4D:5E:6F"
SETUP_CODE = "031-45-154"
SETUP_ID = "HSCP"
# aiohomekit controller/ble/controller.py looks pairings up by the lower-case device ID (as Home
# Assistant names them), so that is the alias.
ALIAS = DEVICE_ID.lower()


class StoryError(Exception):
    pass


@dataclass
class Scenario:
    name: str
    summary: str
    database: Callable[[], Database]
    story: Callable[["Rig"], Awaitable[None]]
    category: int = 5
    request_mtu: int | None = 185
    response_fragment_limit: int = 512
    pairing_fragment_limit: int | None = None
    misbehaviour: Callable[[], Misbehaviour] | None = None
    accessory_name: str = "hapscope BLE Lamp"
    seed: int = 1
    clean: bool = True


@dataclass
class Rig:
    scenario: Scenario
    workdir: Path
    radio: Radio = field(default_factory=Radio)
    accessory: Accessory | None = None
    ble_controller: object = None
    values: list[tuple[float, tuple[int, int], object]] = field(default_factory=list)
    controller_journal: Journal | None = None
    accessory_journal: Journal | None = None

    async def wait_for(self, predicate: Callable[[], object], timeout: float, what: str):
        deadline = time.monotonic() + timeout
        while True:
            result = predicate()
            if result:
                return result
            if time.monotonic() > deadline:
                raise StoryError(f"timed out after {timeout} s waiting for {what}")
            await asyncio.sleep(0.02)

    async def step(self, awaitable: Awaitable, timeout: float, what: str):
        try:
            return await asyncio.wait_for(awaitable, timeout)
        except asyncio.TimeoutError as error:
            raise StoryError(f"timed out after {timeout} s: {what}") from error

    def note(self, text: str) -> None:
        self.controller_journal.write("note", text=text)

    def observe(self, text: str) -> None:
        self.controller_journal.observation(text)

    def on_values(self, results: dict) -> None:
        for key, value in results.items():
            self.values.append((time.time(), key, value.get("value")))

    def value_seen(self, key: tuple[int, int], value, since: float) -> bool:
        return any(k == key and v == value and t >= since for t, k, v in self.values)


async def record(scenario: Scenario, workdir: Path, capture_stem: Path, timeout: float = 60.0) -> None:
    """Records `scenario` into `capture_stem`.pcap/.btsnoop; journals go to `workdir`."""
    from aiohomekit.characteristic_cache import CharacteristicCacheMemory
    from aiohomekit.controller.ble.controller import BleController

    rig = Rig(scenario, workdir)
    rig.accessory_journal = Journal(workdir / "accessory.jsonl")
    rig.controller_journal = Journal(workdir / "controller.jsonl")
    accessory_randomness = SeededRandomness(scenario.seed, "ble-accessory")
    controller_randomness = SeededRandomness(scenario.seed, "ble-controller")
    central = rig.radio.add_station("controller", CONTROLLER_ADDRESS, capture_stem.with_suffix(".pcap"), capture_stem.with_suffix(".btsnoop"))
    peripheral = rig.radio.add_station("accessory", ACCESSORY_ADDRESS, None, None)
    try:
        await central.device.power_on()
        await peripheral.device.power_on()
        identity = Identity(
            DEVICE_ID, SETUP_CODE, SETUP_ID, scenario.category, scenario.accessory_name,
            ed25519.Ed25519PrivateKey.from_private_bytes(accessory_randomness.bytes("accessory-ltsk", 32)),
        )
        rig.accessory_journal.key("ACCESSORY_LTPK", DEVICE_ID, identity.ltpk)
        rig.accessory = Accessory(
            peripheral.device, scenario.database(), identity, rig.accessory_journal, accessory_randomness,
            response_fragment_limit=scenario.response_fragment_limit,
            pairing_fragment_limit=scenario.pairing_fragment_limit,
            misbehaviour=scenario.misbehaviour() if scenario.misbehaviour else None,
        )
        rig.accessory_journal.write("identity", deviceId=DEVICE_ID, setupCode=SETUP_CODE, setupId=SETUP_ID,
                                    category=scenario.category, name=scenario.accessory_name, ltpk=identity.ltpk.hex(),
                                    address=ACCESSORY_ADDRESS + "/random")
        rig.accessory_journal.write("gatt-table", table=rig.accessory.gatt_table())
        AttRecorder(central.device, rig.controller_journal, "controller", "accessory-to-controller", "controller-to-accessory")
        bleak_backend.install(central.device, scenario.request_mtu)
        controller.instrument(rig.controller_journal, controller_randomness, DEVICE_ID)
        rig.ble_controller = BleController(CharacteristicCacheMemory())
        await rig.accessory.advertise()
        await rig.step(rig.ble_controller.async_start(), 5, "start scanning")
        await rig.step(scenario.story(rig), timeout, f"story of {scenario.name}")
        await asyncio.sleep(0.2)
        if rig.accessory.failures:
            raise StoryError(f"the accessory failed: {rig.accessory.failures[0]!r}") from rig.accessory.failures[0]
    finally:
        try:
            if rig.ble_controller is not None:
                for pairing in list(rig.ble_controller.pairings.values()):
                    pairing._shutdown = True
                    await asyncio.wait_for(pairing.close(), 5)
                await asyncio.wait_for(rig.ble_controller.async_stop(), 5)
            if peripheral.device.is_advertising:
                await asyncio.wait_for(peripheral.device.stop_advertising(), 5)
            await asyncio.sleep(0.1)
        finally:
            rig.radio.close()
            rig.accessory_journal.close()
            rig.controller_journal.close()
