"""Finding the truth's messages in a captured stream, and naming each deliberate frame fault."""

import struct
import unittest

from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from hapcapture.frames import FrameError, keystream_decrypt, walk

KEY = bytes(range(32))
REQUEST = b"GET /characteristics?id=1.10 HTTP/1.1\r\n\r\n"


def seal(plaintext: bytes, counter: int, length: int | None = None) -> bytes:
    header = struct.pack("<H", len(plaintext) if length is None else length)
    return header + ChaCha20Poly1305(KEY).encrypt(struct.pack("<LQ", 0, counter), plaintext, header)


def rules_of(result) -> list[str]:
    return [anomaly.rule for anomaly in result.anomalies]


class WalkTests(unittest.TestCase):
    def test_plaintext_then_frames_in_counter_order_match_without_anomaly(self):
        stream = b"POST /pair-verify" + seal(b"GET /", 0) + seal(b"accessories", 1)
        result = walk([(False, b"POST /pair-verify"), (True, b"GET /"), (True, b"accessories")], stream, KEY)
        self.assertEqual((result.ends, result.anomalies), ([17, 17 + 2 + 5 + 16, len(stream)], []))

    def test_a_message_longer_than_1024_bytes_spans_frames(self):
        message = bytes(1500)
        result = walk([(True, message)], seal(message[:1024], 0) + seal(message[1024:], 1), KEY)
        self.assertEqual(result.anomalies, [])

    def test_a_frame_longer_than_1024_bytes_is_an_oversize_frame(self):
        message = bytes(1500)
        result = walk([(True, message)], seal(message, 0), KEY)
        self.assertEqual(rules_of(result), ["oversize-frame"])
        self.assertIn("1500 bytes", result.anomalies[0].detail)

    def test_a_counter_sealed_one_too_far_is_a_skip(self):
        result = walk([(True, REQUEST), (True, REQUEST)], seal(REQUEST, 0) + seal(REQUEST, 2), KEY)
        self.assertEqual(rules_of(result), ["nonce-skip"])
        self.assertIn("skipped 1", result.anomalies[0].detail)

    def test_a_counter_sealed_again_is_a_reuse_and_counting_goes_on_from_it(self):
        stream = seal(REQUEST, 0) + seal(REQUEST, 1) + seal(REQUEST, 1) + seal(REQUEST, 2)
        result = walk([(True, REQUEST)] * 4, stream, KEY)
        self.assertEqual(rules_of(result), ["nonce-reuse"])

    def test_a_damaged_tag_is_an_authentication_failure_whose_plaintext_still_matches(self):
        damaged = bytearray(seal(REQUEST, 1))
        damaged[-1] ^= 0x01
        result = walk([(True, REQUEST), (True, REQUEST)], seal(REQUEST, 0) + bytes(damaged), KEY)
        self.assertEqual(rules_of(result), ["frame-auth-failure"])
        self.assertIn(bytes(damaged[-16:]).hex(), result.anomalies[0].detail)

    def test_plaintext_after_a_frame_is_reported(self):
        result = walk([(True, REQUEST), (False, b"HTTP/1.1 200 OK\r\n\r\n")], seal(REQUEST, 0) + b"HTTP/1.1 200 OK\r\n\r\n", KEY)
        self.assertEqual(rules_of(result), ["plaintext-after-encryption"])

    def test_a_frame_that_carries_other_plaintext_is_an_error(self):
        with self.assertRaises(FrameError):
            walk([(True, REQUEST)], seal(REQUEST.replace(b"10", b"11"), 0), KEY)

    def test_bytes_beyond_the_truth_messages_are_an_error(self):
        with self.assertRaises(FrameError):
            walk([(True, REQUEST)], seal(REQUEST, 0) + b"\x00", KEY)

    def test_a_cut_off_frame_is_an_error(self):
        with self.assertRaises(FrameError):
            walk([(True, REQUEST)], seal(REQUEST, 0)[:-1], KEY)

    def test_encrypted_messages_need_a_key(self):
        with self.assertRaises(FrameError):
            walk([(True, REQUEST)], seal(REQUEST, 0), None)


class KeystreamTests(unittest.TestCase):
    def test_the_raw_keystream_opens_what_the_aead_sealed(self):
        sealed = seal(REQUEST, 7)[2:]
        self.assertEqual(keystream_decrypt(KEY, 7, sealed[:-16]), REQUEST)


if __name__ == "__main__":
    unittest.main()
