"""The pieces behind the real-home captures: their rules, the mid-session frame checks, key-log endpoints, TLV8."""

import base64
import json
import struct
import tempfile
import unittest
from pathlib import Path

from hapcapture import frames, tlv8, verify
from hapcapture.journal import ACCESSORY_TO_CONTROLLER as FROM_ACCESSORY
from hapcapture.journal import CONTROLLER_TO_ACCESSORY as FROM_CONTROLLER
from hapcapture.realhome import ids_of, selected_stream, setup_endpoints, transition_curve_start, transition_stop
from hapcapture.rules import Checker, TimedMessage, TracedConnection

CLIENT = "10.77.0.1:49202"
KEY = bytes(range(32))
SESSION = "ab" * 32


def request(time: float, line: str, body: bytes = b"") -> TimedMessage:
    return TimedMessage(FROM_CONTROLLER, True, f"{line}\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body, time)


def response(time: float, status: str = "HTTP/1.1 200 OK", body: bytes = b"{}") -> TimedMessage:
    head = f"{status}\r\nContent-Type: application/hap+json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    return TimedMessage(FROM_ACCESSORY, True, head + body, time)


def event(time: float, aid: int, iid: int) -> TimedMessage:
    body = json.dumps({"characteristics": [{"aid": aid, "iid": iid, "value": 1}]}).encode()
    return response(time, "EVENT/1.0 200 OK", body)


def subscription(time: float, aid: int, iid: int, ev: bool) -> TimedMessage:
    return request(time, "PUT /characteristics HTTP/1.1", json.dumps({"characteristics": [{"aid": aid, "iid": iid, "ev": ev}]}).encode())


def read(time: float) -> TimedMessage:
    return request(time, "GET /characteristics?id=1.9 HTTP/1.1")


def findings(messages: list[TimedMessage], body: dict | None = None, **connection) -> list[str]:
    truth = {"setupCode": "031-45-154", "setupId": "HSCP", "advertisements": [], "accessoriesBody": body or {"accessories": []}}
    return sorted({f.rule for f in Checker(truth, {}, [TracedConnection(CLIENT, messages, **connection)], []).run()})


def database(kind: str) -> dict:
    return {"accessories": [{"aid": 1, "services": [{"iid": 8, "type": "89", "characteristics": [{"iid": 9, "type": kind, "perms": ["pr", "ev"]}]}]}]}


class NoResponseRuleTests(unittest.TestCase):
    def test_a_response_within_three_seconds_is_not_slow_and_one_after_is(self):
        self.assertEqual(findings([read(1.0), response(3.9)]), [])
        self.assertEqual(findings([read(1.0), response(4.1)]), ["slow-response"])

    def test_a_request_never_answered_is_unanswered_and_a_close_after_it_leaves_it_outstanding(self):
        self.assertEqual(findings([read(1.0)]), ["unanswered-request"])
        closed = (31.0, "FIN from 10.77.0.1:49202")
        self.assertEqual(findings([read(1.0)], closed=closed), ["closed-with-outstanding-requests", "unanswered-request"])
        self.assertEqual(findings([read(1.0), response(1.1)], closed=closed), [])

    def test_a_close_before_the_request_leaves_nothing_outstanding_at_the_close(self):
        self.assertEqual(findings([read(5.0)], closed=(4.0, "RST from 10.77.0.2:51826")), ["unanswered-request"])

    def test_status_70402_in_an_entry_or_the_body_is_a_service_communication_failure_either_sign(self):
        entry = json.dumps({"characteristics": [{"aid": 1, "iid": 9, "status": -70402}]}).encode()
        self.assertEqual(findings([read(1.0), response(1.1, "HTTP/1.1 207 Multi-Status", entry)]), ["service-communication-failure"])
        self.assertEqual(findings([read(1.0), response(1.1, "HTTP/1.1 500 Internal Server Error", b'{"status":70402}')]), ["service-communication-failure"])
        self.assertEqual(findings([read(1.0), response(1.1, "HTTP/1.1 207 Multi-Status", entry.replace(b"70402", b"70403"))]), [])


class EventRuleTests(unittest.TestCase):
    subscribed = [subscription(1.0, 1, 9, True), response(1.01, "HTTP/1.1 204 No Content", b"")]

    def test_three_events_for_one_characteristic_within_a_second_are_a_burst(self):
        self.assertEqual(findings(self.subscribed + [event(2.0, 1, 9), event(2.3, 1, 9), event(2.6, 1, 9)]), ["event-burst"])

    def test_events_half_a_second_apart_as_stock_hap_python_sends_them_are_no_burst(self):
        self.assertEqual(findings(self.subscribed + [event(2.0 + 0.5 * n, 1, 9) for n in range(6)]), [])

    def test_programmable_switch_events_are_delivered_at_once_and_never_a_burst(self):
        burst = self.subscribed + [event(2.0 + 0.1 * n, 1, 9) for n in range(5)]
        self.assertEqual(findings(burst, database("73")), [])
        self.assertEqual(findings(burst, database("11")), ["event-burst"])

    def test_an_event_after_a_request_was_complete_and_before_its_response_is_inside_it(self):
        self.assertEqual(findings(self.subscribed + [read(2.0), event(2.3, 1, 9), response(3.0)]), ["event-inside-response"])

    def test_an_event_sent_before_the_accessory_can_have_read_the_request_is_not(self):
        self.assertEqual(findings(self.subscribed + [read(2.0), event(2.05, 1, 9), response(2.06)]), [])

    def test_an_event_after_ev_false_is_after_unsubscribe_not_unsolicited(self):
        unsubscribed = self.subscribed + [subscription(2.0, 1, 9, False), response(2.01, "HTTP/1.1 204 No Content", b"")]
        self.assertEqual(findings(unsubscribed + [event(2.5, 1, 9)]), ["event-after-unsubscribe"])

    def test_mid_session_an_event_for_a_subscription_made_before_the_capture_is_not_held_against_anyone(self):
        self.assertEqual(findings([event(2.0, 1, 9)], started_before_capture=True), [])
        self.assertEqual(findings([event(2.0, 1, 9)]), ["unsolicited-event"])
        unsubscribed = [subscription(2.0, 1, 9, False), response(2.01, "HTTP/1.1 204 No Content", b""), event(2.5, 1, 9)]
        self.assertEqual(findings(unsubscribed, started_before_capture=True), ["event-after-unsubscribe"])


def sealed_stream(data: bytes, first_counter: int) -> bytes:
    return b"".join(
        frames.seal_frame(KEY, first_counter + number, data[start : start + length])
        for number, (start, length) in enumerate(zip(range(0, len(data), 1024), frames.frame_lengths(data)))
    )


class CutMessageTests(unittest.TestCase):
    data = bytes(range(256)) * 12  # 3072 bytes: three full frames

    def placed(self, skipped: int, counter: int) -> dict:
        return {"streamOffset": 0, "skippedBytes": skipped, "firstFrameCounter": counter}

    def test_the_tail_of_a_cut_frame_is_sealed_again_and_the_rest_of_the_message_follows(self):
        wire = sealed_stream(self.data, 4)
        cut = 1042 + 100
        skipped, rest = verify.cut_message(True, self.data, cut, wire[cut:], KEY, self.placed(942, 6), CLIENT)
        self.assertEqual((skipped, rest), (942, self.data[2048:]))
        walked = frames.walk([(True, rest)], wire[cut + skipped :], KEY, 6)
        self.assertEqual(walked.anomalies, [])

    def test_a_cut_at_a_frame_boundary_skips_nothing(self):
        wire = sealed_stream(self.data, 0)
        self.assertEqual(verify.cut_message(True, self.data, 1042, wire[1042:], KEY, self.placed(0, 1), CLIENT), (0, self.data[1024:]))

    def test_a_wrong_counter_or_skip_is_an_error(self):
        wire = sealed_stream(self.data, 4)
        for placed in (self.placed(942, 7), self.placed(941, 6)):
            with self.assertRaises(verify.VerificationError):
                verify.cut_message(True, self.data, 1142, wire[1142:], KEY, placed, CLIENT)

    def test_frames_counted_from_a_later_counter_are_walked_from_it(self):
        with self.assertRaises(frames.FrameError):
            frames.walk([(True, self.data)], sealed_stream(self.data, 9), KEY)
        self.assertEqual(frames.walk([(True, self.data)], sealed_stream(self.data, 9), KEY, 9).anomalies, [])


class SessionEndpointsTests(unittest.TestCase):
    def key_log(self, *lines: str) -> Path:
        handle = tempfile.NamedTemporaryFile("w", suffix=".keylog", delete=False)
        handle.write("\n".join(lines) + "\n")
        handle.close()
        self.addCleanup(Path(handle.name).unlink)
        return Path(handle.name)

    def test_ipv4_ipv6_and_bluetooth_endpoints_are_read(self):
        path = self.key_log(
            f"SESSION_ENDPOINTS {SESSION} 10.77.0.1:49202 10.77.0.2:51826",
            f"SESSION_ENDPOINTS {'cd' * 32} [fd77::1]:49203 [fd77::2]:51826",
            f"SESSION_ENDPOINTS {'ef' * 32} 11:22:33:44:55:66 AA:BB:CC:DD:EE:FF/random",
        )
        verify.read_key_log(path)
        named = verify.read_session_endpoints(path)
        self.assertEqual(named[SESSION], ("10.77.0.1:49202", "10.77.0.2:51826"))
        self.assertEqual(named["ef" * 32], ("11:22:33:44:55:66", "AA:BB:CC:DD:EE:FF/random"))

    def test_a_line_without_both_endpoints_is_an_error(self):
        with self.assertRaises(verify.VerificationError):
            verify.read_key_log(self.key_log(f"SESSION_ENDPOINTS {SESSION} 10.77.0.1:49202"))

    def pair_verify(self, client: str) -> dict:
        m1 = tlv8.encode([(tlv8.STATE, b"\x01"), (0x03, bytes.fromhex(SESSION))])
        data = f"POST /pair-verify HTTP/1.1\r\nContent-Length: {len(m1)}\r\n\r\n".encode() + m1
        return {"client": client, "server": "10.77.0.2:51826", "messages": [{"direction": FROM_CONTROLLER, "data": base64.b64encode(data).decode()}]}

    def test_a_line_must_name_the_connection_its_session_ran_on(self):
        truth = {"connections": [self.pair_verify(CLIENT)]}
        keys = {"CONTROL_WRITE_KEY": {SESSION: KEY}}
        self.assertEqual(verify.check_session_endpoints(truth, keys, {SESSION: (CLIENT, "10.77.0.2:51826")}), 1)
        with self.assertRaises(verify.VerificationError):
            verify.check_session_endpoints(truth, keys, {SESSION: ("10.77.0.1:49203", "10.77.0.2:51826")})

    def test_old_key_logs_without_the_label_need_none(self):
        self.assertEqual(verify.check_session_endpoints({"connections": []}, {"CONTROL_WRITE_KEY": {SESSION: KEY}}, {}), 0)


class Tlv8ListTests(unittest.TestCase):
    def test_items_keep_list_entries_apart_and_join_long_values(self):
        body = tlv8.encode([(1, b"a"), (tlv8.SEPARATOR, b""), (1, b"b"), (2, b"x" * 300)])
        self.assertEqual(tlv8.items(body), [(1, b"a"), (0, b""), (1, b"b"), (2, b"x" * 300)])
        self.assertEqual(body[:8], bytes([1, 1]) + b"a" + bytes([0, 0, 1, 1]) + b"b")

    def test_an_empty_value_is_one_empty_item(self):
        self.assertEqual(tlv8.encode([(2, b"")]), b"\x02\x00")


class CameraTlvTests(unittest.TestCase):
    def test_setup_endpoints_carries_the_session_address_and_srtp_keys_as_hap_python_reads_them(self):
        from pyhap import tlv as pyhap_tlv

        value = setup_endpoints(bytes(16), "10.77.0.1", (b"k" * 16, b"s" * 14), (b"K" * 16, b"S" * 14))
        read = pyhap_tlv.decode(value)
        address = pyhap_tlv.decode(read[b"\x03"])
        video = pyhap_tlv.decode(read[b"\x04"])
        self.assertEqual((address[b"\x02"], struct.unpack("<H", address[b"\x03"])[0]), (b"10.77.0.1", 51000))
        self.assertEqual((video[b"\x01"], video[b"\x02"], video[b"\x03"]), (b"\x00", b"k" * 16, b"s" * 14))

    def test_a_stream_start_names_its_session_and_command_and_an_end_only_those(self):
        start = tlv8.decode(tlv8.decode(selected_stream(bytes(16), 1, 7, 8))[1])
        self.assertEqual(start, {1: bytes(16), 2: b"\x01"})
        self.assertEqual(set(tlv8.decode(selected_stream(bytes(16), 0))), {1})

    def test_transition_control_start_and_stop_name_the_color_temperature_iid(self):
        start = tlv8.decode(tlv8.decode(tlv8.decode(transition_curve_start(11, 10, bytes(16), bytes(8)))[2])[1])
        self.assertEqual((start[1], start[3]), (b"\x0b", b"\x01"))
        curve = tlv8.items(start[5])
        self.assertEqual([kind for kind, _ in curve], [1, 0, 1, 0, 1, 2, 3])
        self.assertEqual(tlv8.decode(tlv8.decode(tlv8.decode(transition_stop(11))[2])[1]), {1: b"\x0b"})

    def test_the_ids_of_a_read_are_parsed_from_its_query(self):
        self.assertEqual(ids_of("/characteristics?id=2.9,8.9&meta=1"), [(2, 9), (8, 9)])


if __name__ == "__main__":
    unittest.main()
