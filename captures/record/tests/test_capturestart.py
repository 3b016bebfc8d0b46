"""Placing a capture that starts mid-session: which messages it holds, its first whole frame and that frame's counter."""

import socket
import unittest

from hapcapture import capturestart
from hapcapture.capturestart import NONE, PARTIAL, WHOLE, locate
from hapcapture.journal import ACCESSORY_TO_CONTROLLER as FROM_ACCESSORY
from hapcapture.journal import CONTROLLER_TO_ACCESSORY as FROM_CONTROLLER
from hapcapture.story import stream_counters
from hapcapture.truth import Connection, Message

CLIENT, SERVER = "10.77.0.1:49202", "10.77.0.2:51826"
FRAME = 2 + 1024 + 16  # one full frame on the wire


def message(t: float, direction: str, data: bytes, encrypted: bool = True, counter: int | None = 0) -> Message:
    return Message(t, CLIENT, SERVER, direction, encrypted, data, None, counter if encrypted else None)


def truth_of(*connections: Connection, advertisements: tuple[float, ...] = ()) -> dict:
    return {
        "advertisements": [{"time": when} for when in advertisements],
        "connections": [
            {"client": c.client, "server": c.server, "messages": [{"direction": m.direction} for m in c.messages]}
            for c in connections
        ],
    }


def capture_start(requested: float, opened: float, *counted: tuple[str, str, int, int]) -> dict:
    entries = [
        {"client": client, "server": server, FROM_CONTROLLER: sent, FROM_ACCESSORY: received}
        for client, server, sent, received in counted
    ]
    return {"t": opened, "kind": "capture-start", "requested": requested, "opened": opened, "connections": entries}


def lost(t: float, client: str) -> dict:
    return {"t": t, "kind": "connection", "client": client, "server": SERVER, "event": "lost"}


class LocateTests(unittest.TestCase):
    def test_a_start_between_messages_cuts_nothing_and_names_the_next_counter(self):
        messages = [(False, b"P" * 100, None), (True, b"a" * 1500, 0), (True, b"b" * 10, 2)]
        placed = locate(messages, 100 + FRAME + (476 + 18))
        self.assertEqual((placed.captured, placed.skipped_bytes, placed.first_frame_counter), ([NONE, NONE, WHOLE], 0, 2))

    def test_a_start_inside_a_frame_skips_its_rest_and_counts_from_the_next_frame(self):
        messages = [(True, b"a" * 3000, 5), (True, b"b" * 10, 8)]
        placed = locate(messages, FRAME + 100)
        self.assertEqual(placed.captured, [PARTIAL, WHOLE])
        self.assertEqual(placed.captured_from, {0: FRAME + 100})
        self.assertEqual((placed.skipped_bytes, placed.first_frame_counter), (FRAME - 100, 7))

    def test_a_start_inside_the_last_frame_of_a_message_counts_from_the_next_message(self):
        messages = [(True, b"a" * 1100, 0), (True, b"b" * 10, 2)]
        placed = locate(messages, FRAME + 10)
        self.assertEqual((placed.skipped_bytes, placed.first_frame_counter), (76 + 18 - 10, 2))

    def test_a_start_after_every_message_holds_none_and_names_the_counter_due(self):
        messages = [(True, b"a" * 10, 3)]
        placed = locate(messages, 28)
        self.assertEqual((placed.captured, placed.skipped_bytes, placed.first_frame_counter), ([NONE], 0, 4))

    def test_a_plaintext_direction_has_no_frame_counter(self):
        self.assertIsNone(locate([(False, b"GET / HTTP/1.1\r\n\r\n", None)], 0).first_frame_counter)

    def test_more_bytes_than_the_messages_hold_is_an_error(self):
        with self.assertRaises(ValueError):
            locate([(True, b"a" * 10, 0)], 29)

    def test_a_gap_in_the_senders_counters_is_an_error(self):
        with self.assertRaises(ValueError):
            locate([(True, b"a" * 10, 0), (True, b"b" * 10, 2)], 0)


class AnnotateTests(unittest.TestCase):
    def test_connections_and_advertisements_are_marked_by_the_capture_start(self):
        setup = Connection("10.77.0.1:49201", SERVER, 1.0, [Message(1.0, "10.77.0.1:49201", SERVER, FROM_CONTROLLER, False, b"x", None)])
        session = Connection(CLIENT, SERVER, 2.0, [message(3.0, FROM_CONTROLLER, b"a" * 10), message(12.0, FROM_CONTROLLER, b"b" * 10, counter=1)])
        later = Connection("10.77.0.1:49203", SERVER, 13.0, [Message(13.0, "10.77.0.1:49203", SERVER, FROM_CONTROLLER, False, b"y", None)])
        truth = truth_of(setup, session, later, advertisements=(5.0, 11.0))
        controller = [lost(1.5, "10.77.0.1:49201"), capture_start(10.0, 10.1, (CLIENT, SERVER, 28, 0))]
        capturestart.annotate(truth, [setup, session, later], [lost(1.6, "10.77.0.1:49201")], controller)
        self.assertEqual(truth["captureStart"], {"requested": 10.0, "opened": 10.1, "insideFrame": []})
        self.assertEqual([a["captured"] for a in truth["advertisements"]], [False, True])
        self.assertEqual([c["captured"] for c in truth["connections"]], [NONE, PARTIAL, WHOLE])
        self.assertEqual([m["captured"] for m in truth["connections"][1]["messages"]], [NONE, WHOLE])
        self.assertEqual(truth["connections"][1]["captureStart"][FROM_CONTROLLER], {"streamOffset": 28, "skippedBytes": 0, "firstFrameCounter": 1})

    def test_an_advertisement_sent_while_the_capture_started_cannot_be_placed(self):
        truth = truth_of(advertisements=(10.05,))
        with self.assertRaises(ValueError):
            capturestart.annotate(truth, [], [], [capture_start(10.0, 10.1)])

    def test_a_connection_open_across_the_start_but_not_counted_cannot_be_placed(self):
        session = Connection(CLIENT, SERVER, 2.0, [message(3.0, FROM_CONTROLLER, b"a")])
        with self.assertRaises(ValueError):
            capturestart.annotate(truth_of(session), [session], [], [capture_start(10.0, 10.1)])

    def test_a_capture_expected_to_start_inside_a_frame_must_do_so(self):
        session = Connection(CLIENT, SERVER, 2.0, [message(3.0, FROM_ACCESSORY, b"a" * 10)])
        inside = {"t": 9.0, "kind": "capture-inside-frame", "client": CLIENT, "direction": FROM_ACCESSORY}
        with self.assertRaises(ValueError):
            capturestart.annotate(truth_of(session), [session], [], [inside, capture_start(10.0, 10.1, (CLIENT, SERVER, 0, 28))])

    def test_a_capture_started_at_the_beginning_adds_nothing(self):
        truth = truth_of(advertisements=(1.0,))
        capturestart.annotate(truth, [], [], [])
        self.assertEqual(truth, truth_of(advertisements=(1.0,)))


class StreamCountersTests(unittest.TestCase):
    def test_the_opening_side_counts_the_bytes_it_sent_without_the_syn(self):
        with socket.create_server(("127.0.0.1", 0)) as server:
            with socket.create_connection(server.getsockname()) as client:
                accepted, _ = server.accept()
                with accepted:
                    client.sendall(b"x" * 1000)
                    received = b""
                    while len(received) < 1000:
                        received += accepted.recv(4096)
                    accepted.sendall(b"y" * 333)
                    self.assertEqual(client.recv(333, socket.MSG_PEEK | socket.MSG_WAITALL), b"y" * 333)
                    counted = stream_counters(client)
        self.assertEqual((counted.sent_and_acknowledged, counted.received, counted.unacknowledged_segments), (1000, 333, 0))


if __name__ == "__main__":
    unittest.main()
