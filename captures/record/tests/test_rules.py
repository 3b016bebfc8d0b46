"""The reference rule check: each rule fires on its violation and stays quiet on conforming traffic."""

import json
import unittest

from hapcapture.journal import ACCESSORY_TO_CONTROLLER as FROM_ACCESSORY
from hapcapture.journal import CONTROLLER_TO_ACCESSORY as FROM_CONTROLLER
from hapcapture.rules import Checker, PairingTimeline, TimedMessage, TracedConnection

CLIENT = "10.77.0.1:49202"
# The setup hash of setup ID HSCP and device ID 1A:2B:3C:4D:5E:6F (the clean corpus advertises it).
GOOD_TXT = {"c#": "2", "ff": "0", "id": "1A:2B:3C:4D:5E:6F", "md": "Bridge", "pv": "1.1", "s#": "1", "sf": "0", "ci": "2", "sh": "YHi/lA=="}


def request(time: float, line: str, body: bytes = b"", encrypted: bool = True) -> TimedMessage:
    head = f"{line}\r\nHost: 10.77.0.2\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    return TimedMessage(FROM_CONTROLLER, encrypted, head + body, time)


def response(time: float, status: str, body: bytes = b"", encrypted: bool = True, kind: str = "application/hap+json") -> TimedMessage:
    head = f"{status}\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    return TimedMessage(FROM_ACCESSORY, encrypted, head + body, time)


def event(time: float, aid: int, iid: int) -> TimedMessage:
    body = json.dumps({"characteristics": [{"aid": aid, "iid": iid, "value": 1}]}).encode()
    return TimedMessage(FROM_ACCESSORY, True, f"EVENT/1.0 200 OK\r\nContent-Type: application/hap+json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body, time)


def subscribe(time: float, aid: int, iid: int) -> TimedMessage:
    return request(time, "PUT /characteristics HTTP/1.1", json.dumps({"characteristics": [{"aid": aid, "iid": iid, "ev": True}]}).encode())


def truth(**overrides) -> dict:
    base = {"setupCode": "031-45-154", "setupId": "HSCP", "advertisements": [], "accessoriesBody": {"accessories": []}}
    return base | overrides


def rules_found(messages: list[TimedMessage], **truth_overrides) -> list[str]:
    checker = Checker(truth(**truth_overrides), {}, [TracedConnection(CLIENT, messages)], [])
    return sorted({finding.rule for finding in checker.run()})


def accessories_body(characteristic: dict) -> bytes:
    identify = {"iid": 2, "type": "14", "perms": ["pw"], "format": "bool"}
    information = {"iid": 1, "type": "3E", "characteristics": [identify] + [{"iid": iid, "type": kind, "perms": ["pr"], "format": "string", "value": "x"} for iid, kind in ((3, "20"), (4, "21"), (5, "23"), (6, "30"), (7, "52"))]}
    # The characteristic under test has a custom type (the catalogue rules leave those alone) unless it says otherwise.
    custom = "6D5F0001-6B6E-4C1B-9B9E-68617073636F"
    on = {"iid": 20, "type": "25", "perms": ["pr", "pw", "ev"], "format": "bool", "value": 1}
    lightbulb = {"iid": 8, "type": "43", "characteristics": [{"iid": 9, "type": custom, "perms": ["pr", "pw", "ev"], **characteristic}, on]}
    return json.dumps({"accessories": [{"aid": 1, "services": [information, lightbulb]}]}).encode()


class RequestRuleTests(unittest.TestCase):
    def test_a_plaintext_read_answered_200_is_an_unverified_request(self):
        messages = [request(1.0, "GET /accessories HTTP/1.1", encrypted=False), response(1.1, "HTTP/1.1 200 OK", b"{}", encrypted=False)]
        self.assertEqual(rules_found(messages), ["unverified-request"])

    def test_a_plaintext_read_answered_470_is_fine(self):
        messages = [request(1.0, "GET /accessories HTTP/1.1", encrypted=False), response(1.1, "HTTP/1.1 470 Connection Authorization Required", b"{}", encrypted=False)]
        self.assertEqual(rules_found(messages), [])

    def test_an_identify_before_pairing_may_be_answered(self):
        messages = [request(1.0, "POST /identify HTTP/1.1", encrypted=False), response(1.1, "HTTP/1.1 204 No Content", encrypted=False)]
        self.assertEqual(rules_found(messages), [])

    def test_a_response_beyond_the_requests_answers_nothing(self):
        messages = [request(1.0, "GET /characteristics?id=1.9 HTTP/1.1"), response(1.1, "HTTP/1.1 200 OK", b"{}"), response(1.4, "HTTP/1.1 200 OK", b"{}")]
        self.assertEqual(rules_found(messages), ["response-without-request"])


class EventRuleTests(unittest.TestCase):
    def test_an_event_after_the_subscription_was_answered_is_solicited(self):
        messages = [subscribe(1.0, 1, 9), response(1.1, "HTTP/1.1 204 No Content"), event(1.5, 1, 9)]
        self.assertEqual(rules_found(messages), [])

    def test_an_event_for_a_characteristic_never_subscribed_is_unsolicited(self):
        messages = [subscribe(1.0, 1, 9), response(1.1, "HTTP/1.1 204 No Content"), event(1.5, 1, 10)]
        self.assertEqual(rules_found(messages), ["unsolicited-event"])

    def test_an_event_for_a_characteristic_without_ev_permission_is_unsolicited_even_if_subscribed(self):
        body = json.loads(accessories_body({"format": "int", "value": 1}))
        body["accessories"][0]["services"][1]["characteristics"][0]["perms"] = ["pr", "pw"]
        messages = [subscribe(1.0, 1, 9), response(1.1, "HTTP/1.1 204 No Content"), event(1.5, 1, 9)]
        self.assertEqual(rules_found(messages, accessoriesBody=body), ["unsolicited-event"])


class DatabaseRuleTests(unittest.TestCase):
    def listing(self, characteristic: dict) -> list[TimedMessage]:
        return [request(1.0, "GET /accessories HTTP/1.1"), response(1.1, "HTTP/1.1 200 OK", accessories_body(characteristic))]

    def test_a_conforming_value_passes(self):
        self.assertEqual(rules_found(self.listing({"format": "float", "value": 21.5, "minValue": -273.1, "maxValue": 1000, "minStep": 0.1})), [])

    def test_a_value_above_max_is_out_of_range(self):
        self.assertEqual(rules_found(self.listing({"format": "int", "value": 150, "minValue": 0, "maxValue": 100})), ["value-out-of-range"])

    def test_a_value_off_the_step_grid_is_out_of_range(self):
        self.assertEqual(rules_found(self.listing({"format": "float", "value": 21.55, "minValue": -273.1, "minStep": 0.1})), ["value-out-of-range"])

    def test_a_value_outside_valid_values_is_out_of_range(self):
        self.assertEqual(rules_found(self.listing({"format": "uint8", "value": 2, "valid-values": [0, 1]})), ["value-out-of-range"])

    def test_a_string_for_a_bool_is_out_of_range_but_one_and_zero_are_bools(self):
        self.assertEqual(rules_found(self.listing({"format": "bool", "value": "yes"})), ["value-out-of-range"])
        self.assertEqual(rules_found(self.listing({"format": "bool", "value": 1})), [])

    def test_an_undefined_type_in_apples_range_is_unknown_but_a_custom_uuid_is_not(self):
        self.assertEqual(rules_found(self.listing({"format": "int", "value": 1, "type": "FF42"})), ["unknown-apple-type"])
        self.assertEqual(rules_found(self.listing({"format": "int", "value": 1, "type": "34AB8811-AC7F-4340-BAC3-FD6A85F9943B"})), [])

    def test_a_changed_database_needs_a_new_configuration_number(self):
        first = self.listing({"format": "int", "value": 1})
        second = [request(2.0, "GET /accessories HTTP/1.1"), response(2.1, "HTTP/1.1 200 OK", accessories_body({"format": "int", "value": 1, "iid": 10}))]
        same_number = [{"time": 0.5, "txt": {"c#": "2"}}, {"time": 1.5, "txt": {"c#": "2"}}]
        new_number = same_number + [{"time": 1.6, "txt": {"c#": "3"}}]
        self.assertEqual(rules_found(first + second, advertisements=same_number), ["config-number-unchanged"])
        self.assertEqual(rules_found(first + second, advertisements=new_number), [])

    def test_a_body_with_a_raw_control_character_is_invalid_json(self):
        messages = [request(1.0, "GET /accessories HTTP/1.1"), response(1.1, "HTTP/1.1 200 OK", b'{"name":"a\x07b"}')]
        self.assertEqual(rules_found(messages), ["invalid-json"])


class DiscoveryRuleTests(unittest.TestCase):
    def findings(self, txt: dict) -> list[str]:
        checker = Checker(truth(), {}, [], [])
        checker.check_txt(txt, "HSCP")
        return sorted({finding.rule for finding in checker.findings})

    def test_the_clean_corpus_txt_passes(self):
        self.assertEqual(self.findings(GOOD_TXT), [])

    def test_an_id_that_is_not_mac_like_a_bad_version_or_an_unknown_category_is_malformed(self):
        for key, value in (("id", "hapscope-4D5E6F"), ("pv", "1"), ("ci", "99")):
            self.assertEqual(self.findings(GOOD_TXT | {key: value}), ["txt-malformed"], key)

    def test_a_setup_hash_from_another_setup_id_mismatches(self):
        self.assertEqual(self.findings(GOOD_TXT | {"sh": "5WgZ0g=="}), ["setup-hash-mismatch"])


class PairingRuleTests(unittest.TestCase):
    def test_removing_the_last_admin_removes_every_pairing(self):
        timeline = PairingTimeline()
        timeline.add(1.0, "A", admin=True)
        timeline.add(2.0, "B", admin=False)
        timeline.remove(3.0, "a")
        self.assertEqual((timeline.at(2.5), timeline.at(3.5)), ({"a": True, "b": False}, {}))

    def test_a_forbidden_setup_code_is_found_and_an_ordinary_one_is_not(self):
        self.assertEqual(rules_found([], setupCode="123-45-678"), ["forbidden-setup-code"])
        self.assertEqual(rules_found([], setupCode="111-11-111"), ["forbidden-setup-code"])
        self.assertEqual(rules_found([]), [])


if __name__ == "__main__":
    unittest.main()
