"""The issue 17 and 22 rules of the reference check: each fires on its violation and not on conforming data."""

import json
import unittest

from hapcapture import http
from hapcapture.rules import Catalogue, Checker, PairingTimeline, PreviousCapture, TracedConnection
from tests.test_rules import CLIENT, request, response, truth


def information(iid_base: int = 1) -> dict:
    kinds = ("14", "20", "21", "23", "30", "52")
    chars = [{"iid": iid_base + 1 + n, "type": kind, "perms": ["pr"], "format": "string", "value": "Lamp"} for n, kind in enumerate(kinds)]
    chars[0] = {"iid": iid_base + 1, "type": "14", "perms": ["pw"], "format": "bool"}
    return {"iid": iid_base, "type": "3E", "characteristics": chars}


def lightbulb(*extra: dict, on: dict | None = None) -> dict:
    base = on or {"iid": 9, "type": "25", "perms": ["pr", "pw", "ev"], "format": "bool", "value": 1}
    return {"iid": 8, "type": "43", "characteristics": [base, *extra]}


def findings(services: list[dict], accessories: int = 1) -> list[str]:
    body = {"accessories": [{"aid": aid, "services": services} for aid in range(1, accessories + 1)]}
    messages = [request(1.0, "GET /accessories HTTP/1.1"), response(1.1, "HTTP/1.1 200 OK", json.dumps(body).encode())]
    return sorted({f.rule for f in Checker(truth(), {}, [TracedConnection(CLIENT, messages)], []).run()})


class CatalogueRuleTests(unittest.TestCase):
    def test_a_conforming_lightbulb_passes(self):
        self.assertEqual(findings([information(), lightbulb()]), [])

    def test_a_service_without_its_required_characteristic(self):
        self.assertEqual(findings([information(), {"iid": 8, "type": "43", "characteristics": []}]), ["missing-required-characteristic"])

    def test_an_apple_characteristic_outside_the_service(self):
        extra = {"iid": 10, "type": "11", "perms": ["pr", "ev"], "format": "float", "value": 20.0}
        self.assertEqual(findings([information(), lightbulb(extra)]), ["unexpected-characteristic"])

    def test_a_custom_characteristic_and_a_service_signature_are_allowed(self):
        custom = {"iid": 10, "type": "34AB8811-AC7F-4340-BAC3-FD6A85F9943B", "perms": ["pr", "hd"], "format": "string", "value": "1"}
        signature = {"iid": 11, "type": "A5", "perms": ["pr"], "format": "data", "value": ""}
        self.assertEqual(findings([information(), lightbulb(custom, signature)]), [])

    def test_names_with_emoji_or_leading_symbols_are_invalid_apostrophes_and_hyphens_are_not(self):
        for value, expected in (("Kitchen \u2615", ["invalid-name"]), ("#Kitchen", ["invalid-name"]), ("Ann's Wi-Fi Lamp", [])):
            name = {"iid": 10, "type": "23", "perms": ["pr"], "format": "string", "value": value}
            self.assertEqual(findings([information(), lightbulb(name)]), expected, value)

    def test_missing_or_unknown_perms_are_invalid(self):
        for perms in (None, [], ["pr", "rw"]):
            on = {"iid": 9, "type": "25", "format": "bool", "value": 1} | ({} if perms is None else {"perms": perms})
            self.assertEqual(findings([information(), lightbulb(on=on)]), ["invalid-perms"], perms)

    def test_two_names_on_one_service(self):
        names = [{"iid": iid, "type": "23", "perms": ["pr"], "format": "string", "value": "Lamp"} for iid in (10, 11)]
        self.assertEqual(findings([information(), lightbulb(*names)]), ["duplicate-name"])

    def test_format_and_unit_against_the_catalogue(self):
        brightness = {"iid": 10, "type": "8", "perms": ["pr", "pw", "ev"], "format": "float", "value": 50, "unit": "percentage"}
        self.assertEqual(findings([information(), lightbulb(brightness)]), ["format-mismatch"])
        brightness |= {"format": "int", "unit": "celsius"}
        self.assertEqual(findings([information(), lightbulb(brightness)]), ["unit-mismatch"])

    def test_every_sources_view_of_a_service_counts(self):
        # NodeJS does not require Outlet In Use (26) on an Outlet: services.tsv "NodeJS: -req 26".
        self.assertNotIn("26", Catalogue.load().services["47"].required)


class LimitRuleTests(unittest.TestCase):
    def test_151_accessories_are_too_many_150_are_not(self):
        self.assertEqual(findings([information(), lightbulb()], accessories=150), [])
        self.assertIn("too-many-accessories", findings([information(), lightbulb()], accessories=151))

    def test_more_than_100_services_or_characteristics(self):
        switches = [{"iid": 100 + n, "type": "49", "characteristics": [{"iid": 300 + n, "type": "25", "perms": ["pr"], "format": "bool", "value": 0}]} for n in range(100)]
        self.assertEqual(findings([information(), *switches]), ["too-many-services"])
        custom = [{"iid": 10 + n, "type": f"E2D2{n:04X}-6B6E-4C1B-9B9E-68617073636F", "perms": ["pr"], "format": "uint8", "value": 1} for n in range(100)]
        self.assertEqual(findings([information(), lightbulb(*custom)]), ["too-many-characteristics"])


class ChunkedMessageTests(unittest.TestCase):
    def test_a_chunked_body_is_its_chunks_joined(self):
        message = http.parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/hap+json\r\n\r\n3\r\n{\"a\r\n4\r\n\":1}\r\n0\r\n\r\n")
        self.assertEqual((message.body, message.chunks), (b'{"a":1}', (3, 4)))

    def test_a_chunked_body_cut_short_is_an_error(self):
        with self.assertRaises(ValueError):
            http.parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabc")


class MalformedReadTests(unittest.TestCase):
    def test_adks_read_body_is_malformed_characteristics_not_invalid_json(self):
        body = b'{"characteristics":[{"aid":1,"iid":51,"value":0},"perms":["pr","pw","ev"]]}'
        for target, expected in (("/characteristics?id=1.51&perms=1", "malformed-characteristics-body"), ("/accessories", "invalid-json")):
            messages = [request(1.0, f"GET {target} HTTP/1.1"), response(1.1, "HTTP/1.1 200 OK", body)]
            self.assertEqual(sorted({f.rule for f in Checker(truth(), {}, [TracedConnection(CLIENT, messages)], []).run()}), [expected])


class AcrossCaptureTests(unittest.TestCase):
    def check(self, before: dict, now: dict, number_before: str, number_now: str) -> list[str]:
        previous = PreviousCapture("earlier", before, number_before)
        messages = [request(1.0, "GET /accessories HTTP/1.1"), response(1.1, "HTTP/1.1 200 OK", json.dumps(now).encode())]
        checker = Checker(truth(advertisements=[{"time": 0.5, "txt": {"c#": number_now}}]), {}, [TracedConnection(CLIENT, messages)], [], previous)
        return sorted({f.rule for f in checker.run()})

    def database(self, on_iid: int = 9, extra: bool = False) -> dict:
        services = [information(), lightbulb(on={"iid": on_iid, "type": "25", "perms": ["pr", "pw", "ev"], "format": "bool", "value": 1})]
        accessories = [{"aid": 1, "services": services}]
        if extra:
            accessories.append({"aid": 2, "services": [information(), lightbulb()]})
        return {"accessories": accessories}

    def test_a_changed_database_needs_a_new_number_and_an_unchanged_one_keeps_it(self):
        self.assertEqual(self.check(self.database(), self.database(extra=True), "2", "2"), ["config-number-not-bumped"])
        self.assertEqual(self.check(self.database(), self.database(extra=True), "2", "3"), [])
        self.assertEqual(self.check(self.database(), self.database(), "2", "3"), ["config-number-changed-without-change"])
        self.assertEqual(self.check(self.database(), self.database(), "2", "2"), [])

    def test_a_type_path_under_a_new_iid_is_renumbered(self):
        self.assertEqual(self.check(self.database(), self.database(on_iid=109), "2", "3"), ["iid-renumbered"])


class PairingLossTests(unittest.TestCase):
    def test_the_timeline_empties_with_the_last_admin(self):
        timeline = PairingTimeline()
        timeline.add(1.0, "owner", admin=True)
        timeline.add(2.0, "hub", admin=False)
        timeline.remove(3.0, "owner")
        self.assertEqual(timeline.at(3.5), {})


if __name__ == "__main__":
    unittest.main()
