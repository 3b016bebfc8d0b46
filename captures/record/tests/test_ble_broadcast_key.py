"""The broadcast key's lifetime in the toolkit: the verifier's reference check (HomeKitADK
HAPBLEAccessoryServer+Broadcast.c: the key expires after 32,767 GSN increments, 65535 wrapping to 1)."""

import unittest

from hapble import verify


def truth(generated_at: int, broadcast_gsn: int) -> dict:
    return {"broadcastKeys": [{"time": 1.0, "connection": 3, "gsn": generated_at}],
            "broadcasts": [{"time": 2.0, "gsn": broadcast_gsn}]}


class ExpiredBroadcastKeyTests(unittest.TestCase):
    def test_the_last_gsn_of_the_lifetime_is_not_expired(self):
        self.assertEqual(verify._expired_broadcast_keys(truth(1, 32767)), set())

    def test_32767_increments_after_the_generation_is_expired_on_the_generating_connection(self):
        self.assertEqual(verify._expired_broadcast_keys(truth(1, 32768)), {("broadcast-key-expired", 3)})

    def test_the_count_wraps_from_65535_to_1(self):
        self.assertEqual(verify._expired_broadcast_keys(truth(40000, 7231)), set())
        self.assertEqual(verify._expired_broadcast_keys(truth(40000, 7232)), {("broadcast-key-expired", 3)})

    def test_a_broadcast_before_any_generation_or_a_truth_without_keys_is_not_judged(self):
        self.assertEqual(verify._expired_broadcast_keys({"broadcasts": [{"time": 2.0, "gsn": 40000}]}), set())
        early = truth(1, 40000)
        early["broadcastKeys"][0]["time"] = 3.0
        self.assertEqual(verify._expired_broadcast_keys(early), set())


if __name__ == "__main__":
    unittest.main()
