"""The controller peer: aiohomekit 4.0.1's CoAP controller running a scenario's story, inside its namespace.

Usage: ``python -m hapcoap.controller --scenario NAME --seed N --workdir DIR``. Writes ``DIR/controller.jsonl``
and exits non-zero if the story fails or overruns its time limit.

aiohomekit is used unmodified. As in the IP toolkit the wrappers below only record and then call the
original; the behavioural changes are seeded randomness (SRP secret a, X25519 ephemeral keys, the Ed25519
long-term key, the pairing UUID, PDU transaction ids, aiocoap message ids and tokens) and socket ports taken
from a counter, so that re-runs reproduce the scenario.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import logging
import types
from pathlib import Path

import aiohomekit.controller.coap.connection as connection_module
import aiohomekit.crypto.srp
import aiohomekit.protocol
from aiohomekit.characteristic_cache import CharacteristicCacheMemory
from aiohomekit.controller.coap.connection import EncryptionContext
from aiohomekit.controller.coap.controller import CoAPController
from aiohomekit.crypto import SrpClient
from aiohomekit.zeroconf import HAP_TYPE_UDP
from cryptography.exceptions import InvalidTag
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceBrowser, AsyncZeroconf

from hapcapture.journal import CONTROLLER_TO_ACCESSORY, Journal
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

from . import instrument, stories
from .scenarios import CONTROLLER_ADDRESS, FIRST_CONTROLLER_PORT, SCENARIOS, Scenario

SESSION_KEY_LABELS = {
    (b"Control-Salt", b"Control-Write-Encryption-Key"): "CONTROL_WRITE_KEY",
    (b"Control-Salt", b"Control-Read-Encryption-Key"): "CONTROL_READ_KEY",
    (b"Event-Salt", b"Event-Read-Encryption-Key"): "EVENT_READ_KEY",
}


def wrap(owner, name: str, make) -> None:
    setattr(owner, name, make(getattr(owner, name)))


def b64(data: bytes) -> str:
    return base64.b64encode(bytes(data)).decode("ascii")


class RecordingEphemeralKey:
    """An X25519 private key that logs itself and every shared secret computed with it."""

    def __init__(self, key, journal: Journal, shared_secrets: dict[bytes, bytes]) -> None:
        self._key = key
        self._journal = journal
        self._shared_secrets = shared_secrets
        self.public_bytes = key.public_key().public_bytes_raw()
        self.session = self.public_bytes.hex()
        journal.key("CONTROLLER_EPHEMERAL_SECRET", self.session, key.private_bytes_raw(), self.session)

    def public_key(self):
        return self._key.public_key()

    def exchange(self, peer_public_key) -> bytes:
        shared = self._key.exchange(peer_public_key)
        self._shared_secrets[shared] = self.public_bytes
        self._journal.key("PAIR_VERIFY_SHARED_SECRET", self.session, shared, self.session)
        return shared


def instrument_aiohomekit(journal: Journal, randomness: SeededRandomness) -> None:
    instrument.seed_aiocoap(randomness)
    instrument.record_coap_datagrams(journal, "controller", CONTROLLER_ADDRESS)
    instrument.number_controller_ports(FIRST_CONTROLLER_PORT)
    connection_module.random = types.SimpleNamespace(randint=randomness.stream("pdu-tid").randint)
    _seed_and_record_pair_setup(journal, randomness)
    _seed_and_record_pair_verify(journal, randomness)
    _record_pdus(journal)


def _seed_and_record_pair_setup(journal: Journal, randomness: SeededRandomness) -> None:
    aiohomekit.crypto.srp.os = os_module_with_urandom(randomness.urandom("srp"))
    aiohomekit.protocol.ed25519 = ed25519_module(lambda: seeded_ed25519_key(randomness, "controller-ltsk"))
    # do_pair_setup_finish draws the controller's pairing id from uuid.uuid4 (coap/connection.py).
    connection_module.uuid = uuid_module(seeded_uuid4(randomness, "controller-pairing-id"))

    class RecordingSrpClient(SrpClient):
        recorded = False

        def get_proof_bytes(self) -> bytes:
            proof = super().get_proof_bytes()
            if not self.recorded:
                self.recorded = True
                journal.key("PAIR_SETUP_SESSION_KEY", bytes(self.A_b[:32]).hex(), self.get_session_key_bytes())
            return proof

    aiohomekit.protocol.SrpClient = RecordingSrpClient
    original_part2 = connection_module.perform_pair_setup_part2

    def perform_pair_setup_part2(*args, **kwargs):
        pairing = yield from original_part2(*args, **kwargs)
        journal.write("pair-setup-complete", controller_pairing_id=pairing["iOSPairingId"])
        journal.key("CONTROLLER_LTPK", pairing["iOSPairingId"], bytes.fromhex(pairing["iOSDeviceLTPK"]))
        journal.key("ACCESSORY_LTPK", pairing["AccessoryPairingID"], bytes.fromhex(pairing["AccessoryLTPK"]))
        return pairing

    connection_module.perform_pair_setup_part2 = perform_pair_setup_part2


def _seed_and_record_pair_verify(journal: Journal, randomness: SeededRandomness) -> None:
    shared_secrets: dict[bytes, bytes] = {}
    aiohomekit.protocol.x25519 = x25519_module(
        lambda: RecordingEphemeralKey(seeded_x25519_key(randomness, "pair-verify-ephemeral"), journal, shared_secrets)
    )
    original_hkdf = aiohomekit.protocol.hkdf_derive

    # get_session_keys returns a derive() closure over the shared secret that calls the module's hkdf_derive;
    # do_pair_verify derives the three CoAP keys through it.
    def hkdf_derive(input_key: bytes, salt: bytes, info: bytes, length: int = 32) -> bytes:
        derived = original_hkdf(input_key, salt, info, length=length)
        label = SESSION_KEY_LABELS.get((bytes(salt), bytes(info)))
        if label is not None and bytes(input_key) in shared_secrets:
            session = shared_secrets[bytes(input_key)].hex()
            journal.key(label, session, derived, session)
        return derived

    aiohomekit.protocol.hkdf_derive = hkdf_derive


def _record_pdus(journal: Journal) -> None:
    """The plaintext of every payload aiohomekit seals and opens, with the counter it used."""

    def encrypt(original):
        def wrapper(self: EncryptionContext, plaintext: bytes) -> bytes:
            counter = self.send_ctr
            sealed = original(self, plaintext)
            journal.write(
                "pdus-sealed", direction=CONTROLLER_TO_ACCESSORY, pdu_kind="request", counter=counter, key_kind="control",
                plaintext=b64(plaintext), payload=b64(sealed), controller=None,
            )  # fmt: skip
            return sealed

        return wrapper

    def opener(kind: str, counter_name: str):
        def make(original):
            def wrapper(self: EncryptionContext, sealed: bytes) -> bytes:
                counter = getattr(self, counter_name)
                try:
                    plaintext = original(self, sealed)
                except InvalidTag:
                    journal.write("open-failed", pdu_kind=kind, counter=counter, payload=b64(sealed))
                    raise
                journal.write("opened", pdu_kind=kind, counter=counter, payload=b64(sealed), plaintext=b64(plaintext))
                return plaintext

            return wrapper

        return make

    def decrypt_response(original):
        async def wrapper(self: EncryptionContext, response):
            try:
                return await original(self, response)
            except Exception as error:
                journal.write("response-rejected", error=f"{type(error).__name__}: {error}", payload=b64(response.payload))
                raise

        return wrapper

    wrap(EncryptionContext, "encrypt", encrypt)
    wrap(EncryptionContext, "decrypt", opener("response", "recv_ctr"))
    wrap(EncryptionContext, "decrypt_event", opener("event", "event_ctr"))
    wrap(EncryptionContext, "_decrypt_response", decrypt_response)


def ignore_service_change(**_: object) -> None:
    """aiohomekit registers its own handler on the browser; this one only satisfies the constructor."""


async def control(scenario: Scenario, seed: int, workdir: Path) -> None:
    journal = Journal(workdir / "controller.jsonl")
    randomness = SeededRandomness(seed, "controller")
    instrument_aiohomekit(journal, randomness)
    zeroconf = AsyncZeroconf(interfaces=[CONTROLLER_ADDRESS], ip_version=IPVersion.V6Only)
    # aiohomekit's zeroconf controller needs a browser for its service type on the caller's instance.
    browser = AsyncServiceBrowser(zeroconf.zeroconf, [HAP_TYPE_UDP], handlers=[ignore_service_change])
    try:
        async with CoAPController(char_cache=CharacteristicCacheMemory(), zeroconf_instance=zeroconf) as controller:
            story = stories.Story(controller, journal, scenario)
            await asyncio.wait_for(getattr(stories, scenario.story)(story), timeout=scenario.time_limit)
            journal.write("story-finished")
    finally:
        await browser.async_cancel()
        await zeroconf.async_close()
        journal.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenario", required=True, choices=sorted(SCENARIOS))
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--workdir", type=Path, required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s controller %(name)s: %(message)s")
    asyncio.run(control(SCENARIOS[args.scenario], args.seed, args.workdir))


if __name__ == "__main__":
    main()
