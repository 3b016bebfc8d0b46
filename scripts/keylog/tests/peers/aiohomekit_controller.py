"""An aiohomekit controller for the end-to-end tests.

    python aiohomekit_controller.py --port P --device-id ID --setup-code CODE --record FILE

Pair-setup on one connection, then on a second, pair-verified one: GET /accessories, a read, a
write, a subscription with events, an unsubscription and a last read. It connects to 127.0.0.1
by address (no mDNS) and every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio

from aiohomekit.characteristic_cache import CharacteristicCacheMemory
from aiohomekit.controller.ip.connection import InsecureHomeKitProtocol, SecureHomeKitProtocol
from aiohomekit.controller.ip.controller import IpController
from aiohomekit.controller.ip.discovery import IpDiscovery
from aiohomekit.exceptions import AuthenticationError
from aiohomekit.model import Categories
from aiohomekit.model.feature_flags import FeatureFlags
from aiohomekit.model.status_flags import StatusFlags
from aiohomekit.zeroconf import HAP_TYPE_TCP, HomeKitService
from common import CONTROLLER_TO_ACCESSORY, NullAdvertiser, SentRecord, endpoint, forbid_mdns
from session_plan import BRIGHTNESS, CURRENT_TEMPERATURE, EVENT_TIMEOUT_SECONDS, EVENTS_WANTED, ON, find

OVERALL_TIMEOUT_SECONDS = 60
SETUP_ATTEMPTS = 3


def record_what_the_controller_sends(record: SentRecord) -> None:
    # send_bytes gets each whole request in plaintext; the secure protocol frames and encrypts it.
    for protocol_class in (InsecureHomeKitProtocol, SecureHomeKitProtocol):
        original = protocol_class.__dict__["send_bytes"]

        def make(original):
            async def send_bytes(self, payload: bytes):
                if self.transport.is_closing():  # aiohomekit refuses to send on a closing transport
                    return await original(self, payload)
                record.sent(
                    client=endpoint(self.transport.get_extra_info("sockname")),
                    accessory=endpoint(self.transport.get_extra_info("peername")),
                    direction=CONTROLLER_TO_ACCESSORY,
                    data=payload,
                )
                return await original(self, payload)

            return send_bytes

        protocol_class.send_bytes = make(original)


async def run(arguments) -> None:
    forbid_mdns()
    record_what_the_controller_sends(SentRecord(arguments.record))
    controller = IpController(char_cache=CharacteristicCacheMemory(), zeroconf_instance=NullAdvertiser())
    service = HomeKitService(
        name="Keylog Bridge",
        id=arguments.device_id.lower(),
        model="Bridge",
        feature_flags=FeatureFlags(0),
        status_flags=StatusFlags(1),
        config_num=1,
        state_num=1,
        category=Categories.BRIDGE,
        protocol_version="1.1",
        type=HAP_TYPE_TCP,
        address="127.0.0.1",
        addresses=["127.0.0.1"],
        port=arguments.port,
    )
    discovery = IpDiscovery(controller, service)
    for attempt in range(1, SETUP_ATTEMPTS + 1):
        try:
            finish_pairing = await discovery.async_start_pairing("bridge")
            pairing = await finish_pairing(arguments.setup_code)
            break
        except AuthenticationError:
            # The SRP leading-zero mismatch between these libraries (docs/PROTOCOL.md): a fresh B next time.
            if attempt == SETUP_ATTEMPTS:
                raise

    accessories = await pairing.list_accessories_and_characteristics()
    on, brightness, temperature = (find(accessories, wanted) for wanted in (ON, BRIGHTNESS, CURRENT_TEMPERATURE))
    await pairing.get_characteristics([on, brightness])
    await pairing.put_characteristics([(*on, True), (*brightness, 75)])

    events: list[dict] = []
    enough = asyncio.Event()

    def event_received(event: dict) -> None:
        events.append(event)
        if len(events) >= EVENTS_WANTED:
            enough.set()

    pairing.dispatcher_connect(event_received)
    await pairing.subscribe([temperature])
    await asyncio.wait_for(enough.wait(), EVENT_TIMEOUT_SECONDS)
    await pairing.unsubscribe([temperature])
    await pairing.get_characteristics([on, temperature])
    await pairing.close()


async def main(arguments) -> None:
    await asyncio.wait_for(run(arguments), OVERALL_TIMEOUT_SECONDS)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--device-id", required=True)
    parser.add_argument("--setup-code", required=True)
    parser.add_argument("--record", required=True)
    asyncio.run(main(parser.parse_args()))
