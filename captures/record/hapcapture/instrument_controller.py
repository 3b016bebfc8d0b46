"""Run-time instrumentation of aiohomekit, the controller side.

As on the accessory side, the wrappers only record and then call the original; the one behavioural
change is seeded randomness (SRP secret a, X25519 ephemeral keys, the Ed25519 long-term key, the
pairing UUID) and client source ports taken from a counter, so that re-runs reproduce the scenario.
"""

from __future__ import annotations

import itertools
import socket
import types
from typing import Any

import aiohappyeyeballs
import aiohomekit.controller.ip.connection as connection_module
import aiohomekit.controller.ip.discovery as discovery_module
import aiohomekit.crypto.srp
import aiohomekit.protocol
from aiohomekit.controller.ip.connection import InsecureHomeKitProtocol, SecureHomeKitProtocol
from aiohomekit.crypto import SrpClient, hkdf_derive

from .journal import CONTROLLER_TO_ACCESSORY, Journal, endpoint_text
from .recorders import RecordingEphemeralKey
from .seeded import (
    SeededRandomness,
    ed25519_module,
    os_module_with_urandom,
    seeded_ed25519_key,
    seeded_uuid4,
    seeded_x25519_key,
    uuid_module,
    x25519_module,
)

FIRST_CLIENT_PORT = 49201


def wrap(owner: Any, name: str, make) -> None:
    setattr(owner, name, make(getattr(owner, name)))


def transport_endpoints(transport) -> tuple[str, str]:
    return endpoint_text(transport.get_extra_info("sockname")), endpoint_text(transport.get_extra_info("peername"))


def instrument_aiohomekit(journal: Journal, randomness: SeededRandomness, local_address: str) -> None:
    _record_http_messages(journal)
    _seed_and_record_pair_setup(journal, randomness)
    _seed_and_record_pair_verify(journal, randomness)
    _number_client_ports(local_address)


def _record_http_messages(journal: Journal) -> None:
    opened: set[tuple[str, str]] = set()

    def connection_made(original):
        def wrapper(self: InsecureHomeKitProtocol, transport) -> None:
            original(self, transport)
            # After pair-verify aiohomekit swaps a secure protocol onto the same transport and calls
            # connection_made again; that is still the same TCP connection.
            endpoints = transport_endpoints(transport)
            if endpoints not in opened:
                opened.add(endpoints)
                journal.connection(client=endpoints[0], server=endpoints[1], event="connected")

        return wrapper

    def connection_lost(original):
        def wrapper(self: InsecureHomeKitProtocol, exception) -> None:
            client, server = transport_endpoints(self.transport)
            journal.connection(client=client, server=server, event="lost")
            original(self, exception)

        return wrapper

    def send_bytes(encrypted: bool):
        # send_bytes gets one whole request in plaintext; the secure subclass frames and encrypts it.
        def make(original):
            async def wrapper(self, payload: bytes):
                client, server = transport_endpoints(self.transport)
                journal.message(
                    client=client,
                    server=server,
                    direction=CONTROLLER_TO_ACCESSORY,
                    encrypted=encrypted,
                    data=bytes(payload),
                    # SecureHomeKitProtocol counts the frames it sealed in c2a_counter.
                    counter=self.c2a_counter if encrypted else None,
                )
                return await original(self, payload)

            return wrapper

        return make

    wrap(InsecureHomeKitProtocol, "connection_made", connection_made)
    wrap(InsecureHomeKitProtocol, "connection_lost", connection_lost)
    wrap(InsecureHomeKitProtocol, "send_bytes", send_bytes(encrypted=False))
    wrap(SecureHomeKitProtocol, "send_bytes", send_bytes(encrypted=True))


def _seed_and_record_pair_setup(journal: Journal, randomness: SeededRandomness) -> None:
    # SrpClient draws its 16-byte secret a from os.urandom once per pair-setup attempt.
    aiohomekit.crypto.srp.os = os_module_with_urandom(randomness.urandom("srp"))
    aiohomekit.protocol.ed25519 = ed25519_module(lambda: seeded_ed25519_key(randomness, "controller-ltsk"))
    discovery_module.uuid = uuid_module(seeded_uuid4(randomness, "controller-pairing-id"))

    class RecordingSrpClient(SrpClient):
        recorded = False

        def get_proof_bytes(self) -> bytes:
            proof = super().get_proof_bytes()
            if not self.recorded:
                self.recorded = True
                journal.write(
                    "srp",
                    side="controller",
                    a_prefix=bytes(self.A_b[:32]).hex(),
                    k=self.get_session_key_bytes().hex(),
                    a_bytes_sent=len(self.A_b),
                    b_bytes_received=len(self.B_b),
                )
            return proof

    aiohomekit.protocol.SrpClient = RecordingSrpClient

    original_part2 = discovery_module.perform_pair_setup_part2

    def perform_pair_setup_part2(*args, **kwargs):
        pairing = yield from original_part2(*args, **kwargs)
        journal.write(
            "pair-setup-complete",
            controller_pairing_id=pairing["iOSPairingId"],
            controller_ltpk=pairing["iOSDeviceLTPK"],
            accessory_pairing_id=pairing["AccessoryPairingID"],
            accessory_ltpk=pairing["AccessoryLTPK"],
        )
        journal.key("CONTROLLER_LTPK", pairing["iOSPairingId"], bytes.fromhex(pairing["iOSDeviceLTPK"]))
        journal.key("ACCESSORY_LTPK", pairing["AccessoryPairingID"], bytes.fromhex(pairing["AccessoryLTPK"]))
        return pairing

    discovery_module.perform_pair_setup_part2 = perform_pair_setup_part2


def _seed_and_record_pair_verify(journal: Journal, randomness: SeededRandomness) -> None:
    shared_secrets: dict[bytes, bytes] = {}
    aiohomekit.protocol.x25519 = x25519_module(
        lambda: RecordingEphemeralKey(seeded_x25519_key(randomness, "pair-verify-ephemeral"), journal, shared_secrets)
    )

    def secure_protocol_init(original):
        def wrapper(self, connection, a2c_key: bytes, c2a_key: bytes) -> None:
            original(self, connection, a2c_key, c2a_key)
            # The keys arrive without the exchange they came from; find it by re-deriving.
            for shared, controller_public in shared_secrets.items():
                if hkdf_derive(shared, b"Control-Salt", b"Control-Write-Encryption-Key") == c2a_key:
                    session = controller_public.hex()
                    journal.key("CONTROL_WRITE_KEY", session, c2a_key, session)
                    journal.key("CONTROL_READ_KEY", session, a2c_key, session)
                    # The controller names the session by its socket: its own address, then the accessory's.
                    journal.session_endpoints(session, *transport_endpoints(connection.transport))
                    break

        return wrapper

    wrap(SecureHomeKitProtocol, "__init__", secure_protocol_init)


def _number_client_ports(local_address: str) -> None:
    """Bind every controller connection to the next port of a counter instead of an ephemeral one."""
    ports = itertools.count(FIRST_CLIENT_PORT)
    family = socket.AF_INET6 if ":" in local_address else socket.AF_INET

    async def start_connection(addr_infos, **kwargs):
        local = (local_address, next(ports), 0, 0) if family == socket.AF_INET6 else (local_address, next(ports))
        kwargs["local_addr_infos"] = [(family, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", local)]
        return await aiohappyeyeballs.start_connection(addr_infos, **kwargs)

    connection_module.aiohappyeyeballs = types.SimpleNamespace(
        start_connection=start_connection,
        pop_addr_infos_interleave=aiohappyeyeballs.pop_addr_infos_interleave,
        AddrInfoType=aiohappyeyeballs.AddrInfoType,
    )
