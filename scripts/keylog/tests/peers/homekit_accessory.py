"""A homekit_python accessory server for the end-to-end tests: a lightbulb and a thermostat.

    python homekit_accessory.py --port P --config FILE --record FILE --ready FILE

It serves on 127.0.0.1 only and advertises nothing; the current temperature steps every 0.2 s and
is sent as an event to subscribed controllers. SIGTERM stops it.
"""

from __future__ import annotations

import argparse
import json
import signal
import threading

import homekit.accessoryserver as server_module
from common import ACCESSORY_TO_CONTROLLER, SentRecord, endpoint, forbid_mdns, mark_ready
from homekit.model import Accessory
from homekit.model.services import BHSLightBulbService, ThermostatService
from session_plan import CURRENT_TEMPERATURE, short_type

DEVICE_ID = "2A:3B:4C:5D:6E:7F"
SETUP_CODE = "031-45-154"
TEMPERATURE_INTERVAL_SECONDS = 0.2


class NullZeroconf:
    """Stands in for the Zeroconf instance AccessoryServer creates: publishes nothing anywhere."""

    def check_service(self, *args, **kwargs) -> None:
        return None

    def register_service(self, *args, **kwargs) -> None:
        return None

    def unregister_service(self, *args, **kwargs) -> None:
        return None


class RecordingWriter:
    """The handler's socket writer, recording each message as it goes out.

    Events are written from another thread than responses, both under the handler's write lock;
    recording here, inside that lock and once the write succeeded, keeps the record in wire order.
    """

    def __init__(self, writer, handler, record: SentRecord, encrypting: threading.local) -> None:
        self._writer, self._handler, self._record, self._encrypting = writer, handler, record, encrypting

    def write(self, data) -> int:
        written = self._writer.write(data)
        # While write_encrypted_bytes runs on this thread, these are its frames: record its plaintext.
        plaintext = getattr(self._encrypting, "plaintext", None)
        self._encrypting.plaintext = None
        client, accessory = self._handler._test_endpoints
        self._record.sent(client=client, accessory=accessory, direction=ACCESSORY_TO_CONTROLLER,
                          data=bytes(data) if plaintext is None else plaintext)
        return written

    def __getattr__(self, name):
        return getattr(self._writer, name)


def record_what_the_accessory_sends(record: SentRecord) -> None:
    handler_class = server_module.AccessoryRequestHandler
    original_setup, original_write_encrypted = handler_class.setup, handler_class.write_encrypted_bytes
    encrypting = threading.local()

    def setup(self) -> None:
        original_setup(self)
        self._test_endpoints = (endpoint(self.client_address), endpoint(self.connection.getsockname()))
        self.wfile = self.orig_wfile = RecordingWriter(self.wfile, self, record, encrypting)

    def write_encrypted_bytes(self, data) -> None:
        # Gets each whole response or EVENT in plaintext and writes its frames in one write.
        encrypting.plaintext = bytes(data)
        try:
            original_write_encrypted(self, data)
        finally:
            encrypting.plaintext = None

    handler_class.setup = setup
    handler_class.write_encrypted_bytes = write_encrypted_bytes


def main(arguments) -> None:
    forbid_mdns()
    server_module.Zeroconf = NullZeroconf
    record_what_the_accessory_sends(SentRecord(arguments.record))
    with open(arguments.config, "w") as config:
        json.dump({
            "name": "Keylog Lamp", "host_ip": "127.0.0.1", "host_port": arguments.port,
            "accessory_pairing_id": DEVICE_ID, "accessory_pin": SETUP_CODE, "peers": {},
            "unsuccessful_tries": 0, "c#": 0, "category": "Lightbulb",
        }, config)
    server = server_module.AccessoryServer(arguments.config, logger=None)
    accessory = Accessory("Keylog Lamp", "hapscope", "Test", "0001", "0.1")
    accessory.add_service(BHSLightBulbService())
    thermostat = ThermostatService()
    accessory.add_service(thermostat)
    server.accessories.add_accessory(accessory)
    temperature = next(c for c in thermostat.characteristics if short_type(c.type) == CURRENT_TEMPERATURE)

    stop = threading.Event()

    def step_temperature() -> None:
        value = 20.0
        while not stop.wait(TEMPERATURE_INTERVAL_SECONDS):
            value += 0.5
            temperature.value = value  # read-only for controllers; set_value() refuses it
            server.write_event([(accessory.aid, temperature.iid)])

    def shut_down(signum, frame) -> None:
        stop.set()
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, shut_down)
    threading.Thread(target=step_temperature, daemon=True).start()
    server.publish_device()
    mark_ready(arguments.ready)
    server.serve_forever()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--config", required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--ready", required=True)
    main(parser.parse_args())
