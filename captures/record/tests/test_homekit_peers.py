"""The homekit_python peers: their SRP seed check, instrumentation pieces, scenario facts and bridge."""

import hashlib
import subprocess
import tempfile
import unittest
from pathlib import Path

import homekit.protocol
import tlv8 as homekit_tlv
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import x25519
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from homekit.crypto.srp import SrpClient as HomekitSrpClient
from pyhap.util import long_to_bytes

from hapcapture import tlv8
from hapcapture.homekitpy import HomekitBridge, find_characteristic
from hapcapture.instrument_homekit import (
    PlaintextRecorder,
    RecordingAccessoryEphemeralKey,
    pair_setup_method,
    recording_hkdf,
    seeded_ed25519,
)
from hapcapture.peerfacts import PeerFacts
from hapcapture.recorders import answers
from hapcapture.scenarios import SCENARIOS
from hapcapture.seeded import SeededRandomness
from hapcapture.srpsearch import (
    HAP_PYTHON_HOMEKIT_PYTHON,
    HOMEKIT_PYTHON_AIOHOMEKIT,
    PairSetupAttempt,
    homekit_bytes,
    outcomes,
    seeded_srp,
    srp_server,
)
from hapcapture.truth import SrpRecords

from test_rules import GOOD_TXT, request, response, rules_found

CODE = "031-45-154"
RECORD_DIR = Path(__file__).resolve().parents[1]
HOMEKIT_PYTHON = RECORD_DIR / ".venv-homekit" / "bin" / "python"


class KeyJournal:
    """Collects what an instrumentation would journal as key-log entries."""

    def __init__(self):
        self.keys = []

    def key(self, label, ident, secret, session=None):
        self.keys.append((label, ident, bytes(secret), session))


class HomekitSrpSeedTests(unittest.TestCase):
    """homekit_python's own SRP code against HAP-python's and aiohomekit's, with the corpus seeds."""

    def test_the_scenario_seeds_pair_at_the_first_attempt(self):
        self.assertEqual(outcomes(41001, CODE, [PairSetupAttempt()], HAP_PYTHON_HOMEKIT_PYTHON), [True])
        self.assertEqual(outcomes(42001, CODE, [PairSetupAttempt()], HOMEKIT_PYTHON_AIOHOMEKIT), [True])

    def test_a_wrong_code_never_pairs(self):
        for peers in (HAP_PYTHON_HOMEKIT_PYTHON, HOMEKIT_PYTHON_AIOHOMEKIT):
            self.assertEqual(outcomes(41001, CODE, [PairSetupAttempt(code="111-22-333")], peers), [False])

    def test_a_k_with_a_leading_zero_pairs_but_is_refused_because_the_key_log_cannot_express_it(self):
        # Seed 175: homekit_python and HAP-python both hash the 63-byte K, so the proofs agree.
        with seeded_srp(175, "controller"):
            server = srp_server(CODE)
            salt, public_b = server.get_challenge()
            client = HomekitSrpClient("Pair-Setup", CODE)
            client.set_salt(salt)
            client.set_server_public_key(long_to_bytes(public_b))
            self.assertEqual(len(homekit_bytes(client.get_session_key())), 63)
            server.set_A(homekit_bytes(client.get_public_key()))
            self.assertIsNotNone(server.verify(homekit_bytes(client.get_proof())))
        self.assertEqual(outcomes(175, CODE, [PairSetupAttempt()], HAP_PYTHON_HOMEKIT_PYTHON), [False])

    def test_salt_reuse_is_only_simulated_for_hap_python_hooks(self):
        with self.assertRaises(ValueError):
            outcomes(41001, CODE, [PairSetupAttempt(reuses_first_salt=True)], HOMEKIT_PYTHON_AIOHOMEKIT)


class InstrumentationTests(unittest.TestCase):
    def test_the_plaintext_recorder_passes_writes_through_and_hands_over_one_message(self):
        sent = []

        class Writer:
            def write(self, data):
                sent.append(bytes(data))
                return len(data)

            def flush(self):
                sent.append(b"<flush>")

        recorder = PlaintextRecorder(Writer())
        recorder.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n")
        recorder.write(b"ok")
        recorder.flush()  # anything else goes to the writer itself
        message, started = recorder.take()
        self.assertEqual(message, b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        self.assertIsInstance(started, float)
        self.assertEqual(sent, [b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n", b"ok", b"<flush>"])
        self.assertEqual(recorder.take(), (b"", None))

    def test_session_keys_are_logged_only_for_control_salt_and_a_known_shared_secret(self):
        journal = KeyJournal()
        shared, controller_public = bytes(range(32)), bytes(range(32, 64))
        module = recording_hkdf(journal, {shared: controller_public})
        write_key = module.Hkdf(b"Control-Salt", shared, hash=hashlib.sha512).expand(b"Control-Write-Encryption-Key", 32)
        module.Hkdf(b"Pair-Verify-Encrypt-Salt", shared, hash=hashlib.sha512).expand(b"Pair-Verify-Encrypt-Info", 32)
        module.Hkdf(b"Control-Salt", bytes(32), hash=hashlib.sha512).expand(b"Control-Read-Encryption-Key", 32)
        expected = HKDF(hashes.SHA512(), 32, b"Control-Salt", b"Control-Write-Encryption-Key").derive(shared)
        self.assertEqual(write_key, expected)
        self.assertEqual(journal.keys, [("CONTROL_WRITE_KEY", controller_public.hex(), expected, controller_public.hex())])

    def test_the_accessory_ephemeral_key_logs_itself_and_the_shared_secret_under_the_controller_key(self):
        journal, mapping = KeyJournal(), {}
        accessory = x25519.X25519PrivateKey.from_private_bytes(bytes([7]) * 32)
        controller = x25519.X25519PrivateKey.from_private_bytes(bytes([9]) * 32)
        shared = RecordingAccessoryEphemeralKey(accessory, journal, mapping).exchange(controller.public_key())
        controller_hex = controller.public_key().public_bytes_raw().hex()
        self.assertEqual(shared, controller.exchange(accessory.public_key()))
        self.assertEqual(mapping, {shared: controller.public_key().public_bytes_raw()})
        self.assertEqual(
            journal.keys,
            [
                ("ACCESSORY_EPHEMERAL_SECRET", accessory.public_key().public_bytes_raw().hex(), bytes([7]) * 32, controller_hex),
                ("PAIR_VERIFY_SHARED_SECRET", controller_hex, shared, controller_hex),
            ],
        )

    def test_pair_setup_m1_as_homekit_python_builds_it_says_method_1(self):
        request_tlv, _ = homekit.protocol.perform_pair_setup_part1().send(None)
        body = homekit_tlv.encode(request_tlv)
        message = b"POST /pair-setup HTTP/1.1\r\nHost: 10.77.0.2:51826\r\nContent-Length: %d\r\n\r\n" % len(body) + body
        self.assertEqual(body, bytes([0x06, 1, 1, 0x00, 1, 1]))  # State first, then Method = 1
        self.assertEqual(pair_setup_method(message), (True, 1))
        self.assertEqual(pair_setup_method(b"GET /accessories HTTP/1.1\r\nHost: x\r\n\r\n"), (False, None))

    def test_the_controller_key_pair_is_seeded(self):
        first = seeded_ed25519(SeededRandomness(41001, "controller"), "controller-ltsk").create_keypair()
        again = seeded_ed25519(SeededRandomness(41001, "controller"), "controller-ltsk").create_keypair()
        self.assertEqual(first[1].to_bytes(), again[1].to_bytes())
        self.assertEqual(first[0].get_verifying_key().to_bytes(), first[1].to_bytes())

    def test_answers_are_read_from_either_zeroconf_api(self):
        class Old:
            answers = ["record"]

        class New:
            def answers(self):
                return ["record"]

        self.assertEqual(answers(Old()), ["record"])
        self.assertEqual(answers(New()), ["record"])


class PeerFactsTests(unittest.TestCase):
    def test_facts_round_trip_and_name_the_functions_the_peer_imports(self):
        scenario = SCENARIOS["homekit-python-accessory"]
        with tempfile.TemporaryDirectory() as directory:
            PeerFacts.of(scenario).write(Path(directory))
            facts = PeerFacts.read(Path(directory), scenario.name)
            self.assertEqual(facts, PeerFacts.of(scenario))
            self.assertEqual(facts.build_accessory, "hapcapture.homekitpy:homekit_bridge")
            with self.assertRaises(ValueError):
                PeerFacts.read(Path(directory), "bridge")

    def test_a_scenario_with_hooks_cannot_be_run_by_a_peer_without_them(self):
        with tempfile.TemporaryDirectory() as directory:
            PeerFacts.of(SCENARIOS["bad-json"]).write(Path(directory))
            with self.assertRaises(ValueError):
                PeerFacts.read(Path(directory), "bad-json")

    @unittest.skipUnless(HOMEKIT_PYTHON.exists(), "record.sh creates .venv-homekit")
    def test_the_homekit_python_peers_import_neither_hap_python_nor_aiohomekit(self):
        probe = (
            "import sys, hapcapture.homekit_accessory, hapcapture.homekit_controller; "
            "print(sorted(m for m in ('pyhap', 'aiohomekit') if m in sys.modules))"
        )
        result = subprocess.run([str(HOMEKIT_PYTHON), "-c", probe], cwd=RECORD_DIR, capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip(), "[]")


class RecordingScenarioTests(unittest.TestCase):
    def test_the_homekit_python_bridge_serves_the_demo_bridge_names_and_the_lock_follows_its_target(self):
        class Server:
            def __init__(self):
                self.accessories, self.events = [], []

            def add_accessory(self, accessory):
                self.accessories.append(accessory)

            def write_event(self, characteristics, source=None):
                self.events.append(characteristics)

        server = Server()
        home = HomekitBridge("hapscope Bridge")
        home.attach(server)
        listing = [accessory.to_accessory_and_service_list() for accessory in server.accessories]
        aid, target = find_characteristic(listing, "Front Door", "1E")
        _, current = find_characteristic(listing, "Front Door", "1D")
        names = [c["value"] for accessory in listing for c in accessory["services"][0]["characteristics"] if c["type"].startswith("00000023")]
        self.assertEqual(names, ["hapscope Bridge", "Desk Lamp", "Living Room Sensor", "Coffee Maker", "Front Door", "Hallway Thermostat"])
        self.assertEqual(find_characteristic(listing, "Desk Lamp", "8")[0], find_characteristic(listing, "Desk Lamp", "25")[0])
        home.lock_service.target.set_value(0)
        self.assertEqual(home.lock_service.current.value, 0)
        self.assertEqual(server.events, [[(aid, current)]])
        self.assertNotEqual(target, current)

    def test_a_mismatch_between_other_peers_is_explained_by_the_short_values(self):
        records = SrpRecords()
        records.accessory["ab"] = {"proof_accepted": False, "b_bytes_sent": 384, "s_bytes_used": 383, "k_bytes_used": 64}
        records.controller["ab"] = {"a_bytes_sent": 384}
        self.assertEqual(
            records.mismatch_cause("ab", ("homekit_python", "aiohomekit")),
            "homekit_python and aiohomekit pad these differently: S hashed by the accessory of 383 bytes",
        )


class FeatureFlagCalibrationTests(unittest.TestCase):
    """ff-mismatch is the downgrade only: HomeKitADK HAPPairingPairSetupGetM4 refuses PairSetupWithAuth without MFi."""

    @staticmethod
    def pair_setup(method: int) -> list:
        m1 = bytes([tlv8.STATE, 1, 1, tlv8.METHOD, 1, method])
        m2 = bytes([tlv8.STATE, 1, 2, 0x02, 16]) + bytes(range(1, 17)) + bytes([0x03, 255]) + b"\x05" * 255 + bytes([0x03, 129]) + b"\x05" * 129
        kind = "application/pairing+tlv8"
        return [
            request(1.0, "POST /pair-setup HTTP/1.1", m1, encrypted=False),
            response(1.1, "HTTP/1.1 200 OK", m2, encrypted=False, kind=kind),
        ]

    def test_pair_setup_with_auth_to_an_accessory_without_a_coprocessor_is_no_finding(self):
        advertisements = [{"time": 0.5, "txt": GOOD_TXT}]
        self.assertEqual(rules_found(self.pair_setup(1), advertisements=advertisements), [])

    def test_plain_pair_setup_to_an_accessory_with_a_coprocessor_is_the_downgrade(self):
        advertisements = [{"time": 0.5, "txt": {**GOOD_TXT, "ff": "1"}}]
        self.assertEqual(rules_found(self.pair_setup(0), advertisements=advertisements), ["ff-mismatch"])


if __name__ == "__main__":
    unittest.main()
