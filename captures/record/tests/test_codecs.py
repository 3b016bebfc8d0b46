"""The small codecs the toolkit reads its own recordings with."""

import struct
import tempfile
import unittest
from pathlib import Path

from hapcapture import http, tlv8
from hapcapture.instrument_accessory import txt_properties
from hapcapture.truth import link_type


class Tlv8DecodeTests(unittest.TestCase):
    def test_adjacent_fragments_of_one_type_are_joined(self):
        body = bytes([0x03, 0xFF]) + b"a" * 255 + bytes([0x03, 0x02]) + b"bc" + bytes([0x06, 0x01, 0x02])
        items = tlv8.decode(body)
        self.assertEqual(items[0x03], b"a" * 255 + b"bc")
        self.assertEqual(tlv8.integer(items, tlv8.STATE), 2)

    def test_a_value_running_past_the_end_is_rejected(self):
        with self.assertRaises(ValueError):
            tlv8.decode(bytes([0x06, 0x02, 0x01]))

    def test_a_cut_off_item_header_is_rejected(self):
        with self.assertRaises(ValueError):
            tlv8.decode(bytes([0x06, 0x01, 0x01, 0x07]))

    def test_an_absent_integer_item_reads_as_none(self):
        self.assertIsNone(tlv8.integer(tlv8.decode(bytes([0x06, 0x01, 0x04])), tlv8.ERROR))


class HttpParseTests(unittest.TestCase):
    def test_a_request_exposes_method_path_and_body(self):
        message = http.parse(b"POST /pair-verify HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n\x06\x01\x01")
        self.assertTrue(message.is_request)
        self.assertEqual((message.method, message.path, message.body), ("POST", "/pair-verify", b"\x06\x01\x01"))

    def test_the_query_is_not_part_of_the_path(self):
        self.assertEqual(http.parse(b"GET /characteristics?id=1.9 HTTP/1.1\r\n\r\n").path, "/characteristics")

    def test_an_event_is_neither_request_nor_plain_response(self):
        message = http.parse(b"EVENT/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}")
        self.assertTrue(message.is_event)
        self.assertFalse(message.is_request)

    def test_a_body_that_disagrees_with_content_length_is_rejected(self):
        with self.assertRaises(ValueError):
            http.parse(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n{}")


class TxtPropertiesTests(unittest.TestCase):
    def test_entries_are_split_at_the_first_equals_sign_in_wire_order(self):
        wire = b"\x04c#=2\x07sh=ab==\x04sf=1"
        self.assertEqual(list(txt_properties(wire).items()), [("c#", "2"), ("sh", "ab=="), ("sf", "1")])


class LinkTypeTests(unittest.TestCase):
    def write(self, data: bytes) -> Path:
        handle = tempfile.NamedTemporaryFile(delete=False)
        handle.write(data)
        handle.close()
        self.addCleanup(Path(handle.name).unlink)
        return Path(handle.name)

    def test_a_little_endian_pcap_header_names_its_link_type(self):
        header = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 276)
        self.assertEqual(link_type(self.write(header)), "LINUX_SLL2")

    def test_a_pcapng_file_names_the_link_type_of_its_first_interface(self):
        section = struct.pack("<IIIHHq", 0x0A0D0D0A, 28, 0x1A2B3C4D, 1, 0, -1) + struct.pack("<I", 28)
        interface = struct.pack("<IIHHI", 1, 20, 1, 0, 262144) + struct.pack("<I", 20)
        self.assertEqual(link_type(self.write(section + interface)), "EN10MB")

    def test_a_file_that_is_no_capture_is_rejected(self):
        with self.assertRaises(ValueError):
            link_type(self.write(b"not a capture at all"))


if __name__ == "__main__":
    unittest.main()
