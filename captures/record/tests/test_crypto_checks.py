"""The verifier's frame decryption, and the SRP seed search it relies on for the corpus."""

import struct
import unittest

from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from hapcapture.srpsearch import outcomes
from hapcapture.verify import VerificationError, decrypt_frames

KEY = bytes(range(32))


def frames(*plaintexts: bytes) -> bytes:
    cipher, stream = ChaCha20Poly1305(KEY), b""
    for counter, plaintext in enumerate(plaintexts):
        length = struct.pack("<H", len(plaintext))
        stream += length + cipher.encrypt(struct.pack("<LQ", 0, counter), plaintext, length)
    return stream


class DecryptFramesTests(unittest.TestCase):
    def test_frames_decrypt_in_counter_order_and_join(self):
        self.assertEqual(decrypt_frames(frames(b"GET /", b"accessories"), KEY, "test"), b"GET /accessories")

    def test_a_cut_off_frame_is_reported(self):
        with self.assertRaises(VerificationError):
            decrypt_frames(frames(b"GET /accessories")[:-1], KEY, "test")

    def test_a_frame_longer_than_1024_bytes_is_reported(self):
        with self.assertRaises(VerificationError):
            decrypt_frames(frames(b"x" * 1025), KEY, "test")


class SrpSeedTests(unittest.TestCase):
    """The libraries' own SRP code, run with the seeds the corpus was recorded with."""

    def test_the_srp_mismatch_seed_fails_first_with_the_right_code_and_then_succeeds(self):
        self.assertEqual(outcomes(8048, "031-45-154", "111-22-333", [True, True]), [False, True])

    def test_the_bridge_seed_pairs_at_the_first_attempt(self):
        self.assertEqual(outcomes(1001, "031-45-154", "111-22-333", [True]), [True])

    def test_a_wrong_code_never_pairs(self):
        self.assertEqual(outcomes(2001, "031-45-154", "111-22-333", [False]), [False])


if __name__ == "__main__":
    unittest.main()
