"""The HomeKitADK shapes the adk-* scenarios write, built without a running accessory."""

import json
import unittest

from hapcapture import http
from hapcapture.adklike import adk_value, chunked_accessories_response, read_flags


class AdkShapeTests(unittest.TestCase):
    def test_booleans_are_zero_and_one(self):
        self.assertEqual((adk_value(True), adk_value(False), adk_value("x")), (1, 0, "x"))

    def test_the_accessories_response_is_chunked_with_transfer_encoding_first(self):
        body = json.dumps({"accessories": [{"aid": 1, "services": []}]}).encode() * 40
        message = chunked_accessories_response(body)
        head = message.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
        self.assertEqual(head[1:], [b"Transfer-Encoding: chunked", b"Content-Type: application/hap+json"])
        parsed = http.parse(message)
        self.assertEqual((parsed.body, parsed.chunks[0]), (body, 0x403))

    def test_read_flags_count_only_one(self):
        self.assertEqual(read_flags("/characteristics?id=1.51&perms=1&ev=0"), {"meta": False, "perms": True, "type": False, "ev": False})


if __name__ == "__main__":
    unittest.main()
