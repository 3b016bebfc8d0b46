"""Run-time instrumentation of HAP-python, the accessory side.

Nothing here changes what HAP-python puts on the wire, except that its randomness is seeded: each
wrapper records what the library did (the exact bytes of every HTTP message it wrote, the keys it
derived, the pairings it stored, the mDNS responses it sent) and then calls the original.
"""

from __future__ import annotations

from typing import Any, Callable

import pyhap.hap_crypto
import pyhap.hap_handler
import pyhap.hsrp
from cryptography.hazmat.primitives import serialization
from pyhap.accessory_driver import AccessoryDriver
from pyhap.hap_handler import HAP_TLV_TAGS, HAPServerHandler
from pyhap.hap_protocol import HAPServerProtocol
from pyhap.util import long_to_bytes

from .journal import ACCESSORY_TO_CONTROLLER, Journal, endpoint_text
from .recorders import record_advertisements, txt_properties  # noqa: F401 (txt_properties: imported from here)
from .seeded import SeededRandomness, os_module_with_urandom, seeded_x25519_key, x25519_module

RAW = serialization.Encoding.Raw
RAW_PUBLIC = serialization.PublicFormat.Raw
SRP_KEY_BYTES = 64


def raw_public(key: Any) -> bytes:
    return key.public_bytes(encoding=RAW, format=RAW_PUBLIC)


def wrap(owner: Any, name: str, make: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    setattr(owner, name, make(getattr(owner, name)))


def instrument_hap_python(journal: Journal, randomness: SeededRandomness) -> None:
    _record_http_messages(journal)
    _seed_and_record_pair_setup(journal, randomness)
    _seed_and_record_pair_verify(journal, randomness)
    _record_pairings(journal)
    record_advertisements(journal)


def _record_http_messages(journal: Journal) -> None:
    def connection_made(original):
        def wrapper(self: HAPServerProtocol, transport) -> None:
            original(self, transport)
            self.hapcapture_endpoints = (
                endpoint_text(transport.get_extra_info("peername")),
                endpoint_text(transport.get_extra_info("sockname")),
            )
            client, server = self.hapcapture_endpoints
            journal.connection(client=client, server=server, event="accepted")

        return wrapper

    def connection_lost(original):
        def wrapper(self: HAPServerProtocol, exc) -> None:
            client, server = self.hapcapture_endpoints
            journal.connection(client=client, server=server, event="lost")
            original(self, exc)

        return wrapper

    def write(original):
        # HAPServerProtocol.write receives one whole response or EVENT per call, in plaintext, and
        # encrypts it itself when a session is up: exactly the layer the ground truth describes.
        def wrapper(self: HAPServerProtocol, data: bytes) -> None:
            client, server = self.hapcapture_endpoints
            journal.message(
                client=client,
                server=server,
                direction=ACCESSORY_TO_CONTROLLER,
                encrypted=self.hap_crypto is not None,
                data=bytes(data),
                # HAPCrypto counts the frames it sealed in _out_count: the counter this message starts with.
                counter=self.hap_crypto._out_count if self.hap_crypto is not None else None,
            )
            original(self, data)

        return wrapper

    wrap(HAPServerProtocol, "connection_made", connection_made)
    wrap(HAPServerProtocol, "connection_lost", connection_lost)
    wrap(HAPServerProtocol, "write", write)


def _seed_and_record_pair_setup(journal: Journal, randomness: SeededRandomness) -> None:
    # hsrp.Server draws its salt and its secret b from os.urandom, in that order, once per M1.
    pyhap.hsrp.os = os_module_with_urandom(randomness.urandom("srp"))

    def pairing_two(original):
        def wrapper(self: HAPServerHandler, tlv_objects: dict) -> None:
            original(self, tlv_objects)
            verifier = self.accessory_handler.srp_verifier
            public_a = bytes(tlv_objects[HAP_TLV_TAGS.PUBLIC_KEY])
            journal.write(
                "srp",
                side="accessory",
                a_prefix=public_a[:32].hex(),
                # HAP-python keeps K as an integer and strips its leading zero bytes (long_to_bytes).
                k=long_to_bytes(verifier.K).rjust(SRP_KEY_BYTES, b"\0").hex(),
                k_bytes_used=len(verifier.Kb),
                s_bytes_used=len(verifier.Sb),
                b_bytes_sent=len(verifier.Bb),
                proof_accepted=verifier.M == bytes(tlv_objects[HAP_TLV_TAGS.PASSWORD_PROOF]),
            )

        return wrapper

    wrap(HAPServerHandler, "_pairing_two", pairing_two)


def _seed_and_record_pair_verify(journal: Journal, randomness: SeededRandomness) -> None:
    pyhap.hap_handler.x25519 = x25519_module(lambda: seeded_x25519_key(randomness, "pair-verify-ephemeral"))
    controller_key_by_shared_secret: dict[bytes, bytes] = {}

    def set_encryption_ctx(original):
        def wrapper(self, client_public, private_key, public_key, shared_key, pre_session_key) -> None:
            client_public = bytes(client_public)
            controller_key_by_shared_secret[bytes(shared_key)] = client_public
            session = client_public.hex()
            journal.key("ACCESSORY_EPHEMERAL_SECRET", raw_public(public_key).hex(), private_key.private_bytes_raw(), session)
            journal.key("PAIR_VERIFY_SHARED_SECRET", session, bytes(shared_key), session)
            # The accessory names the session by its transport: the socket's peer, then its own address.
            protocol = self.accessory_handler.http_server.connections[self.client_address]
            journal.session_endpoints(session, *protocol.hapcapture_endpoints)
            original(self, client_public, private_key, public_key, shared_key, pre_session_key)

        return wrapper

    original_hkdf = pyhap.hap_crypto.hap_hkdf
    labels = {
        # HAP-python's "out" cipher (accessory to controller) is the controller's read key.
        b"Control-Read-Encryption-Key": "CONTROL_READ_KEY",
        b"Control-Write-Encryption-Key": "CONTROL_WRITE_KEY",
    }

    def session_key_hkdf(key: bytes, salt: bytes, info: bytes) -> bytes:
        derived = original_hkdf(key, salt, info)
        controller_key = controller_key_by_shared_secret.get(bytes(key))
        if salt == b"Control-Salt" and info in labels and controller_key is not None:
            journal.key(labels[info], controller_key.hex(), derived, controller_key.hex())
        return derived

    wrap(HAPServerHandler, "_set_encryption_ctx", set_encryption_ctx)
    # HAPCrypto.reset looks hap_hkdf up in its module at call time, so replacing it there is enough.
    pyhap.hap_crypto.hap_hkdf = session_key_hkdf


def _record_pairings(journal: Journal) -> None:
    def pair(original):
        def wrapper(self: AccessoryDriver, client_username_bytes: bytes, client_public: bytes, permissions: bytes) -> bool:
            pairing_id = bytes(client_username_bytes).decode("utf-8")
            journal.write(
                "pairing-stored",
                pairing_id=pairing_id,
                ltpk=bytes(client_public).hex(),
                admin=bool(bytes(permissions)[0] & 0x01),
            )
            journal.key("CONTROLLER_LTPK", pairing_id, bytes(client_public))
            return original(self, client_username_bytes, client_public, permissions)

        return wrapper

    def unpair(original):
        def wrapper(self: AccessoryDriver, client_uuid) -> None:
            original(self, client_uuid)
            journal.write(
                "pairing-removed",
                pairing_id=str(client_uuid),
                remaining=[str(known) for known in self.state.paired_clients],
            )

        return wrapper

    wrap(AccessoryDriver, "pair", pair)
    wrap(AccessoryDriver, "unpair", unpair)
