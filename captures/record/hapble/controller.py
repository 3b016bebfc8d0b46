"""Run-time instrumentation of aiohomekit's BLE controller (installed files are never edited).

The wrappers record and then call the original; the one behavioural change is seeded randomness:
TIDs (`random` in aiohomekit controller/ble/client.py and pairing.py), SRP secret a
(`os.urandom` in aiohomekit crypto/srp.py), X25519 ephemeral and Ed25519 long-term keys
(`aiohomekit.protocol`), the pairing UUID (`uuid4` in controller/ble/discovery.py).
"""

from __future__ import annotations

import aiohomekit.controller.ble.client as ble_client
import aiohomekit.controller.ble.discovery as ble_discovery
import aiohomekit.controller.ble.key as ble_key
import aiohomekit.controller.ble.pairing as ble_pairing
import aiohomekit.crypto.srp
import aiohomekit.protocol
from aiohomekit.crypto import SrpClient

from hapcapture.instrument_controller import RecordingEphemeralKey
from hapcapture.journal import Journal
from hapcapture.seeded import (
    SeededRandomness,
    ed25519_module,
    os_module_with_urandom,
    seeded_ed25519_key,
    seeded_uuid4,
    seeded_x25519_key,
    uuid_module,
    x25519_module,
)

C2A = "controller-to-accessory"
A2C = "accessory-to-controller"


def instrument(journal: Journal, randomness: SeededRandomness, accessory_device_id: str) -> None:
    tids = randomness.stream("tid")
    ble_client.random = tids
    ble_pairing.random = tids
    _seed_and_record_pair_setup(journal, randomness)
    _seed_and_record_pair_verify(journal, randomness)
    _record_fragments(journal)
    _record_broadcast_key(journal, accessory_device_id)


def _seed_and_record_pair_setup(journal: Journal, randomness: SeededRandomness) -> None:
    aiohomekit.crypto.srp.os = os_module_with_urandom(randomness.urandom("srp"))
    aiohomekit.protocol.ed25519 = ed25519_module(lambda: seeded_ed25519_key(randomness, "controller-ltsk"))
    ble_discovery.uuid = uuid_module(seeded_uuid4(randomness, "controller-pairing-id"))

    class RecordingSrpClient(SrpClient):
        recorded = False

        def get_proof_bytes(self) -> bytes:
            proof = super().get_proof_bytes()
            if not self.recorded:
                self.recorded = True
                key = self.get_session_key_bytes()
                journal.key("PAIR_SETUP_SESSION_KEY", bytes(self.A_b[:32]).hex(), key)
            return proof

    aiohomekit.protocol.SrpClient = RecordingSrpClient
    original_part2 = ble_discovery.perform_pair_setup_part2

    def perform_pair_setup_part2(*args, **kwargs):
        pairing = yield from original_part2(*args, **kwargs)
        journal.key("CONTROLLER_LTPK", pairing["iOSPairingId"], bytes.fromhex(pairing["iOSDeviceLTPK"]))
        journal.key("ACCESSORY_LTPK", pairing["AccessoryPairingID"], bytes.fromhex(pairing["AccessoryLTPK"]))
        journal.write("pair-setup-complete", controllerPairingId=pairing["iOSPairingId"],
                      controllerLtpk=pairing["iOSDeviceLTPK"], accessoryPairingId=pairing["AccessoryPairingID"])
        return pairing

    ble_discovery.perform_pair_setup_part2 = perform_pair_setup_part2


def _shared_secret_of(derive) -> bytes:
    """aiohomekit's `derive` closes over the session's shared secret (protocol/__init__.py)."""
    cells = dict(zip(derive.__code__.co_freevars, derive.__closure__ or ()))
    return cells["shared_secret"].cell_contents


def _seed_and_record_pair_verify(journal: Journal, randomness: SeededRandomness) -> None:
    shared_secrets: dict[bytes, bytes] = {}
    aiohomekit.protocol.x25519 = x25519_module(
        lambda: RecordingEphemeralKey(seeded_x25519_key(randomness, "pair-verify-ephemeral"), journal, shared_secrets)
    )
    original = ble_pairing.get_session_keys

    def get_session_keys(*args, **kwargs):
        machine = original(*args, **kwargs)
        request, expected = machine.send(None)
        public = dict(request)[aiohomekit.protocol.TLV.kTLVType_PublicKey]
        name = bytes(public).hex()
        resuming = any(key == aiohomekit.protocol.TLV.kTLVType_Method for key, _ in request)
        journal.write("pair-verify-start", session=name, resume=resuming)
        try:
            while True:
                response = yield request, expected
                request, expected = machine.send(response)
        except StopIteration as stop:
            session_id, derive = stop.value
        shared = _shared_secret_of(derive)
        if resuming and shared not in shared_secrets:
            journal.key("PAIR_VERIFY_SHARED_SECRET", name, shared, name)
        journal.key("CONTROL_WRITE_KEY", name, derive(b"Control-Salt", b"Control-Write-Encryption-Key"), name)
        journal.key("CONTROL_READ_KEY", name, derive(b"Control-Salt", b"Control-Read-Encryption-Key"), name)
        journal.write("session", session=name, resumed=resuming and shared not in shared_secrets, sessionId=bytes(session_id).hex())
        return session_id, derive

    ble_pairing.get_session_keys = get_session_keys


def _record_fragments(journal: Journal) -> None:
    """Every sealed or opened fragment, with its counter, as aiohomekit saw it (controller/ble/key.py)."""
    original_encrypt = ble_key.EncryptionKey.encrypt
    original_decrypt = ble_key.DecryptionKey.decrypt

    def encrypt(self, data: bytes) -> bytes:
        counter = self.counter
        sealed = original_encrypt(self, data)
        journal.write("fragment", direction=C2A, counter=counter, plaintext=bytes(data).hex(), wire=bytes(sealed).hex())
        return sealed

    def decrypt(self, data: bytes) -> bytes:
        counter = self.counter
        try:
            plaintext = original_decrypt(self, data)
        except Exception:
            journal.write("fragment", direction=A2C, counter=counter, plaintext=None, wire=bytes(data).hex(), failed=True)
            raise
        journal.write("fragment", direction=A2C, counter=counter, plaintext=bytes(plaintext).hex(), wire=bytes(data).hex())
        return plaintext

    ble_key.EncryptionKey.encrypt = encrypt
    ble_key.DecryptionKey.decrypt = decrypt


def _record_broadcast_key(journal: Journal, device_id: str) -> None:
    class RecordingBroadcastKey(ble_key.BroadcastDecryptionKey):
        def __init__(self, key: bytes) -> None:
            journal.key("BROADCAST_KEY", device_id, bytes(key))
            super().__init__(key)

    ble_pairing.BroadcastDecryptionKey = RecordingBroadcastKey

