"""Merging journals: message order, pairing outcomes, key-log entries."""

import base64
import unittest

from hapcapture.journal import ACCESSORY_TO_CONTROLLER, CONTROLLER_TO_ACCESSORY
from hapcapture.truth import SrpRecords, merge_connections, pairing_entries

CLIENT, SERVER = "10.77.0.1:49202", "10.77.0.2:51826"


def message(t: float, direction: str, data: bytes, note: str | None = None) -> dict:
    return {
        "t": t, "kind": "message", "client": CLIENT, "server": SERVER, "direction": direction,
        "encrypted": False, "data": base64.b64encode(data).decode(), "note": note,
    }  # fmt: skip


def request(t: float, path: str, body: bytes, note: str | None = None) -> dict:
    head = f"POST {path} HTTP/1.1\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    return message(t, CONTROLLER_TO_ACCESSORY, head + body, note)


def response(t: float, body: bytes) -> dict:
    head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    return message(t, ACCESSORY_TO_CONTROLLER, head + body)


class MergeConnectionsTests(unittest.TestCase):
    def test_each_direction_keeps_its_journal_order_even_against_the_clock(self):
        controller = [request(1.0, "/a", b""), request(0.5, "/b", b"")]
        accessory = [response(0.7, b"")]
        (connection,) = merge_connections(accessory, controller)
        paths = [m.data.split(b" ")[1] for m in connection.messages if m.direction == CONTROLLER_TO_ACCESSORY]
        self.assertEqual(paths, [b"/a", b"/b"])

    def test_connections_are_listed_in_the_order_they_opened(self):
        late = dict(request(2.0, "/a", b""), client="10.77.0.1:49203")
        early = request(1.0, "/a", b"")
        connections = merge_connections([], [late, early])
        self.assertEqual([c.client for c in connections], [CLIENT, "10.77.0.1:49203"])


class PairingEntriesTests(unittest.TestCase):
    def entries(self, records: list[dict]) -> list[dict]:
        controller = [r for r in records if r["direction"] == CONTROLLER_TO_ACCESSORY]
        accessory = [r for r in records if r["direction"] == ACCESSORY_TO_CONTROLLER]
        return pairing_entries(merge_connections(accessory, controller), SrpRecords(), "031-45-154")

    def test_a_pair_verify_that_reaches_m4_without_error_succeeds(self):
        records = [
            request(1.0, "/pair-verify", bytes([0x06, 0x01, 0x01]) + bytes([0x03, 0x20]) + bytes(32)),
            response(1.1, bytes([0x06, 0x01, 0x02])),
            request(1.2, "/pair-verify", bytes([0x06, 0x01, 0x03])),
            response(1.3, bytes([0x06, 0x01, 0x04])),
        ]
        (entry,) = self.entries(records)
        self.assertEqual((entry["kind"], entry["outcome"], entry["error"]), ("pair-verify", "success", None))

    def test_an_error_item_makes_the_exchange_fail_with_its_code(self):
        records = [
            request(1.0, "/pairings", bytes([0x06, 0x01, 0x01, 0x00, 0x01, 0x05]), note="list as a regular user"),
            response(1.1, bytes([0x06, 0x01, 0x02, 0x07, 0x01, 0x02])),
        ]
        (entry,) = self.entries(records)
        self.assertEqual((entry["kind"], entry["outcome"], entry["error"]), ("list-pairings", "error", 2))
        self.assertEqual(entry["note"], "list as a regular user; M2 Error=Authentication")

    def test_a_pair_setup_abandoned_after_m4_is_an_error_without_a_code(self):
        m1 = bytes([0x06, 0x01, 0x01, 0x00, 0x01, 0x00])
        m3 = bytes([0x06, 0x01, 0x03, 0x03, 0x01, 0x00, 0x04, 0x01, 0x00])
        records = [
            request(1.0, "/pair-setup", m1),
            response(1.1, bytes([0x06, 0x01, 0x02])),
            request(1.2, "/pair-setup", m3),
            response(1.3, bytes([0x06, 0x01, 0x04, 0x04, 0x01, 0x00])),
            request(1.4, "/pair-setup", m1),
            response(1.5, bytes([0x06, 0x01, 0x02])),
        ]
        first, second = self.entries(records)
        self.assertEqual((first["outcome"], first["error"]), ("error", None))
        self.assertIn("stopped after M4, then a new exchange followed", first["note"])
        self.assertIn("stopped after M2, then the connection closed", second["note"])

    def test_a_pair_setup_cut_off_by_the_connection_is_an_error(self):
        records = [
            request(1.0, "/pair-setup", bytes([0x06, 0x01, 0x01, 0x00, 0x01, 0x00])),
            response(1.1, bytes([0x06, 0x01, 0x02])),
        ]
        (entry,) = self.entries(records)
        self.assertEqual(entry["outcome"], "error")


if __name__ == "__main__":
    unittest.main()
