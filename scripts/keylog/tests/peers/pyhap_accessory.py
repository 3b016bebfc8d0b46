"""A HAP-python accessory for the end-to-end tests: a bridge with a lightbulb and a temperature sensor.

    python pyhap_accessory.py --port P --state FILE --record FILE --ready FILE

It serves on 127.0.0.1 only and advertises nothing; the temperature steps every 0.2 s so that a
subscribed controller gets events. SIGTERM stops it.
"""

from __future__ import annotations

import argparse
import asyncio
import signal

from common import ACCESSORY_TO_CONTROLLER, NullAdvertiser, SentRecord, endpoint, forbid_mdns, mark_ready
from pyhap.accessory import Accessory, Bridge
from pyhap.accessory_driver import AccessoryDriver
from pyhap.const import CATEGORY_LIGHTBULB, CATEGORY_SENSOR
from pyhap.hap_protocol import HAPServerProtocol

DEVICE_ID = "1A:2B:3C:4D:5E:6F"
SETUP_CODE = b"031-45-154"


class Lightbulb(Accessory):
    category = CATEGORY_LIGHTBULB

    def __init__(self, driver, name):
        super().__init__(driver, name)
        service = self.add_preload_service("Lightbulb", chars=["On", "Brightness"])
        service.configure_char("On", value=False)
        service.configure_char("Brightness", value=50)


class TemperatureSensor(Accessory):
    category = CATEGORY_SENSOR

    def __init__(self, driver, name):
        super().__init__(driver, name)
        self.temperature = self.add_preload_service("TemperatureSensor").configure_char("CurrentTemperature", value=20.0)

    @Accessory.run_at_interval(0.2)
    async def run(self):
        self.temperature.set_value(round(self.temperature.value + 0.5, 1))


def record_what_the_accessory_sends(record: SentRecord) -> None:
    # HAPServerProtocol.write gets each whole response or EVENT in plaintext, before it encrypts it.
    original = HAPServerProtocol.write

    def write(self, data: bytes) -> None:
        transport = self.transport
        if transport.is_closing():  # asyncio drops what is written to a closing transport
            original(self, data)
            return
        record.sent(
            client=endpoint(transport.get_extra_info("peername")),
            accessory=endpoint(transport.get_extra_info("sockname")),
            direction=ACCESSORY_TO_CONTROLLER,
            data=data,
        )
        original(self, data)

    HAPServerProtocol.write = write


async def serve(arguments) -> None:
    forbid_mdns()
    record_what_the_accessory_sends(SentRecord(arguments.record))
    driver = AccessoryDriver(
        loop=asyncio.get_running_loop(),
        address="127.0.0.1",
        port=arguments.port,
        persist_file=arguments.state,
        pincode=SETUP_CODE,
        mac=DEVICE_ID,
        async_zeroconf_instance=NullAdvertiser(),
    )
    bridge = Bridge(driver, "Keylog Bridge")
    bridge.add_accessory(Lightbulb(driver, "Lamp"))
    bridge.add_accessory(TemperatureSensor(driver, "Thermometer"))
    driver.add_accessory(bridge)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await driver.async_start()
    mark_ready(arguments.ready)
    await stop.wait()
    await driver.async_stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--state", required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--ready", required=True)
    asyncio.run(serve(parser.parse_args()))
