"""What aiohomekit's CoAP controller does in each scenario, through its public API only.

Every request goes through aiohomekit (``CoAPController``, ``CoAPDiscovery``, ``CoAPPairing``); the helpers
choose what to ask for and journal how aiohomekit reacted to the accessory's misbehaviour.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiohomekit.controller.coap.pairing import CoAPPairing
from aiohomekit.exceptions import AccessoryDisconnectedError, EncryptionError
from aiohomekit.uuid import normalize_uuid

from hapcapture.journal import Journal

from .scenarios import Scenario

# A pairing alias other than the device id keeps aiohomekit from reacting to mDNS updates on its own
# (a new c# or address would start a database reload or reconnect behind the story's back).
PAIRING_ALIAS = "hapscope-story"
DISCOVERY_TIMEOUT = 30.0


def find(accessories: list[dict[str, Any]], service: int, characteristic: int) -> tuple[int, int]:
    service_type, characteristic_type = normalize_uuid(f"{service:X}"), normalize_uuid(f"{characteristic:X}")
    for accessory in accessories:
        for entry in accessory["services"]:
            if entry["type"] != service_type:
                continue
            for item in entry["characteristics"]:
                if item["type"] == characteristic_type:
                    return accessory["aid"], item["iid"]
    raise KeyError(f"no characteristic {characteristic:X} in a service {service:X}")


def readable(accessories: list[dict[str, Any]]) -> list[tuple[int, int]]:
    return [
        (accessory["aid"], item["iid"])
        for accessory in accessories
        for entry in accessory["services"]
        for item in entry["characteristics"]
        if "pr" in item["perms"]
    ]


class Story:
    def __init__(self, controller, journal: Journal, scenario: Scenario) -> None:
        self.controller = controller
        self.journal = journal
        self.scenario = scenario

    async def pair(self) -> CoAPPairing:
        """Browse ``_hap._udp``, then pair-setup M1…M6 over ``/1`` with the setup code."""
        discovery = await self.controller.async_find(self.scenario.device_id, DISCOVERY_TIMEOUT)
        self.journal.write("discovered", address=discovery.description.address, port=discovery.description.port)
        with self.journal.note(f"pair-setup with setup code {self.scenario.setup_code}"):
            finish = await discovery.async_start_pairing(PAIRING_ALIAS)
            pairing = await finish(self.scenario.setup_code)
        pairing.dispatcher_connect(self.event_delivered)
        return pairing

    def event_delivered(self, event: dict) -> None:
        self.journal.write("delivered", values={f"{aid}.{iid}": repr(v) for (aid, iid), v in event.items()})

    async def read_expecting_trouble(self, pairing: CoAPPairing, ids: list[tuple[int, int]], label: str) -> None:
        try:
            result = await pairing.get_characteristics(ids)
        except (EncryptionError, AccessoryDisconnectedError) as error:
            self.journal.observation(f"{label}: aiohomekit raised {type(error).__name__} ({error})")
            return
        self.journal.write("read-result", label=label, values={f"{a}.{i}": repr(v) for (a, i), v in result.items()})


async def full_story(story: Story) -> None:
    pairing = await story.pair()
    accessories = await pairing.list_accessories_and_characteristics()
    lamp_on, brightness = find(accessories, 0x43, 0x25), find(accessories, 0x43, 0x08)
    lock_current, lock_target = find(accessories, 0x45, 0x1D), find(accessories, 0x45, 0x1E)
    temperature, humidity = find(accessories, 0x8A, 0x11), find(accessories, 0x82, 0x10)
    await pairing.get_characteristics([lamp_on, brightness, temperature, lock_current])
    await pairing.put_characteristics([(*lamp_on, True), (*brightness, 80)])
    await pairing.subscribe([temperature, humidity, lock_current])
    await pairing.put_characteristics([(*lock_target, 0)])
    await asyncio.sleep(4.0)  # the lock event after 0.3 s, three sensor events from 0.5 s on
    await pairing.identify()
    await pairing.unsubscribe([temperature, humidity])
    await pairing.get_characteristics([temperature, lock_current])
    await pairing.close()


async def fault_reads_story(story: Story) -> None:
    """Five reads of the temperature alone; the scenario's faults hit some of them (counted by the accessory)."""
    pairing = await story.pair()
    accessories = await pairing.list_accessories_and_characteristics()
    temperature, lamp_on = find(accessories, 0x8A, 0x11), find(accessories, 0x43, 0x25)
    for number in range(1, 6):
        await story.read_expecting_trouble(pairing, [temperature], f"temperature read {number}")
    await pairing.put_characteristics([(*lamp_on, True)])
    await pairing.get_characteristics([temperature, lamp_on])
    await pairing.close()
    await asyncio.sleep(story.scenario.linger)


async def events_story(story: Story) -> None:
    pairing = await story.pair()
    accessories = await pairing.list_accessories_and_characteristics()
    temperature, humidity = find(accessories, 0x8A, 0x11), find(accessories, 0x82, 0x10)
    await pairing.subscribe([temperature, humidity])
    await asyncio.sleep(4.0)
    await pairing.unsubscribe([temperature, humidity])
    await pairing.get_characteristics([temperature, humidity])
    await pairing.close()


async def large_story(story: Story) -> None:
    pairing = await story.pair()
    accessories = await pairing.list_accessories_and_characteristics()
    await pairing.get_characteristics(readable(accessories))
    zones = [
        (accessory["aid"], item["iid"])
        for accessory in accessories
        for entry in accessory["services"]
        for item in entry["characteristics"]
        if item["type"] == normalize_uuid("25")
    ]
    await pairing.put_characteristics([(aid, iid, True) for aid, iid in zones])
    await pairing.get_characteristics(zones[:4])
    await pairing.close()
