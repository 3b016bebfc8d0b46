"""A homekit_python controller for the end-to-end tests.

    python homekit_controller.py --port P --device-id ID --setup-code CODE --record FILE

Pair-setup on one connection, then on a second, pair-verified one: GET /accessories, a read, a
write, a subscription with events and a last read. It connects to 127.0.0.1 by address (no mDNS);
homekit_python's socket reads time out by themselves and the number of events waited for is bounded.
"""

from __future__ import annotations

import argparse
import http.client

import homekit.controller.controller as controller_module
from common import CONTROLLER_TO_ACCESSORY, SentRecord, endpoint, forbid_mdns
from homekit.exceptions import AuthenticationError
from homekit.http_impl.secure_http import SecureHttp
from session_plan import BRIGHTNESS, CURRENT_TEMPERATURE, EVENT_TIMEOUT_SECONDS, EVENTS_WANTED, ON, find


SETUP_ATTEMPTS = 3


def record_what_the_controller_sends(record: SentRecord) -> None:
    original_send, original_request = http.client.HTTPConnection.send, SecureHttp._handle_request

    def sent(sock, data) -> None:
        record.sent(client=endpoint(sock.getsockname()), accessory=endpoint(sock.getpeername()),
                    direction=CONTROLLER_TO_ACCESSORY, data=bytes(data))

    def send(self, data) -> None:
        # Pair-setup and pair-verify requests go out through http.client in plaintext.
        if self.sock is None:
            self.connect()
        sent(self.sock, data)
        original_send(self, data)

    def handle_request(self, data):
        # Each whole request in plaintext, before SecureHttp frames and encrypts it.
        sent(self.sock, data)
        return original_request(self, data)

    http.client.HTTPConnection.send = send
    SecureHttp._handle_request = handle_request


def main(arguments) -> None:
    forbid_mdns()
    record_what_the_controller_sends(SentRecord(arguments.record))
    controller_module.find_device_ip_and_port = lambda device_id, max_seconds=10: {"ip": "127.0.0.1", "port": arguments.port}
    controller = controller_module.Controller()
    for attempt in range(1, SETUP_ATTEMPTS + 1):
        try:
            controller.perform_pairing("lamp", arguments.device_id, arguments.setup_code)
            break
        except AuthenticationError:
            # SRP values with leading zeros are hashed differently by some peers (docs/PROTOCOL.md).
            if attempt == SETUP_ATTEMPTS:
                raise
    pairing = controller.get_pairings()["lamp"]

    accessories = pairing.list_accessories_and_characteristics()
    on, brightness, temperature = (find(accessories, wanted) for wanted in (ON, BRIGHTNESS, CURRENT_TEMPERATURE))
    pairing.get_characteristics([on, brightness])
    pairing.put_characteristics([(*on, True), (*brightness, 75)])
    events = []
    pairing.get_events([temperature], events.append, max_events=EVENTS_WANTED, max_seconds=EVENT_TIMEOUT_SECONDS)
    if len(events) < EVENTS_WANTED:
        raise SystemExit(f"only {len(events)} events arrived")
    pairing.get_characteristics([on, temperature])
    pairing.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--device-id", required=True)
    parser.add_argument("--setup-code", required=True)
    parser.add_argument("--record", required=True)
    main(parser.parse_args())
