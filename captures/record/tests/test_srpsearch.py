"""The SRP seed search the corpus relies on."""

import unittest

from hapcapture.srpsearch import PairSetupAttempt, exchange_succeeds, outcomes, seeded_srp, srp_server, with_salt


class SrpSeedTests(unittest.TestCase):
    """The libraries' own SRP code, run with the seeds the corpus was recorded with."""

    def test_the_srp_mismatch_seed_fails_first_with_the_right_code_and_then_succeeds(self):
        self.assertEqual(outcomes(8048, "031-45-154", [PairSetupAttempt(), PairSetupAttempt()]), [False, True])

    def test_the_bridge_seed_pairs_at_the_first_attempt(self):
        self.assertEqual(outcomes(1001, "031-45-154", [PairSetupAttempt()]), [True])

    def test_a_wrong_code_never_pairs(self):
        self.assertEqual(outcomes(2001, "031-45-154", [PairSetupAttempt(code="111-22-333")]), [False])

    def test_an_attempt_a_hook_breaks_is_not_simulated_but_still_draws(self):
        # Seed 8048's first attempt hits the mismatch; skipping it moves the second onto the same draws.
        plan = [PairSetupAttempt(succeeds=None), PairSetupAttempt()]
        self.assertEqual(outcomes(8048, "031-45-154", plan), [None, True])

    def test_a_verifier_rebuilt_for_another_salt_keeps_its_secret_and_still_pairs(self):
        with seeded_srp(1001):
            server = srp_server("031-45-154")
            rebuilt = with_salt(server, bytes(range(16)))
            self.assertEqual((rebuilt.s, rebuilt.b), (bytes(range(16)), server.b))
            self.assertNotEqual(rebuilt.v, server.v)
            self.assertTrue(exchange_succeeds(rebuilt, "031-45-154"))
            self.assertFalse(exchange_succeeds(with_salt(server, bytes(range(16))), "111-22-333"))


if __name__ == "__main__":
    unittest.main()
