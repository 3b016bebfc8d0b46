"""Choosing seeds whose SRP draws give each pair-setup the outcome a scenario wants.

HAP-python (accessory) and aiohomekit (controller) disagree on leading zero bytes in SRP values
(PROTOCOL.md §2.3), so about one pair-setup in 65 fails with the right code; homekit_python strips every
leading zero (A, B, salt, proofs, K) and disagrees with both in its own ways. Because both sides' SRP
randomness is seeded (``seeded.py``), the outcome of every attempt is fixed by the scenario seed; this
module replays those attempts in-process with the libraries' own SRP classes and TLV codecs and walks
the seeds upwards from the scenario's base seed until every attempt comes out as planned. That is how
``srp-mismatch`` gets a first attempt that fails, and how every other scenario avoids one.

A success also needs both sides to derive their keys from one full 64-byte K: homekit_python and
HAP-python both hash a K that starts with a zero byte stripped, so they would pair, but with a session
key the key log (whose PAIR_SETUP_SESSION_KEY is the 64-byte K) cannot express; such a seed is refused.
"""

from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass
from typing import Iterator, Sequence

import aiohomekit.crypto.srp
import homekit.crypto.srp
import pyhap.hsrp
import tlv8 as homekit_tlv
from aiohomekit.crypto.srp import SrpClient
from homekit.crypto.srp import Srp as HomekitSrp
from homekit.crypto.srp import SrpClient as HomekitSrpClient
from homekit.crypto.srp import SrpServer as HomekitSrpServer
from homekit.protocol.tlv_types import TlvTypes as HomekitTlv
from aiohomekit.protocol.tlv import TLV
from pyhap import tlv as pyhap_tlv
from pyhap.hap_handler import HAP_TLV_STATES, HAP_TLV_TAGS
from pyhap.hsrp import Server
from pyhap.params import get_srp_context
from pyhap.util import long_to_bytes

from .seeded import SeededRandomness, os_module_with_urandom

SEARCH_LIMIT = 2000
SRP_KEY_BYTES = 64
# (accessory, controller) as peers.Peer names them.
HAP_PYTHON_AIOHOMEKIT = ("HAP-python", "aiohomekit")
HAP_PYTHON_HOMEKIT_PYTHON = ("HAP-python", "homekit_python")
HOMEKIT_PYTHON_AIOHOMEKIT = ("homekit_python", "aiohomekit")


@contextlib.contextmanager
def seeded_srp(seed: int, homekit_role: str = "controller") -> Iterator[None]:
    """The same stream substitution the peers make, for the duration of a simulation.

    homekit_python's client and server share one module, so it gets the stream of the role it plays.
    """
    saved = pyhap.hsrp.os, aiohomekit.crypto.srp.os, homekit.crypto.srp.os
    pyhap.hsrp.os = os_module_with_urandom(SeededRandomness(seed, "accessory").urandom("srp"))
    aiohomekit.crypto.srp.os = os_module_with_urandom(SeededRandomness(seed, "controller").urandom("srp"))
    homekit.crypto.srp.os = os_module_with_urandom(SeededRandomness(seed, homekit_role).urandom("srp"))
    try:
        yield
    finally:
        pyhap.hsrp.os, aiohomekit.crypto.srp.os, homekit.crypto.srp.os = saved


@dataclass(frozen=True)
class PairSetupAttempt:
    """One pair-setup a story makes, as the seed check simulates it.

    ``code`` is the setup code the controller types (``None``: the accessory's own code). ``succeeds`` is
    the outcome the two libraries' stock SRP code must produce; ``None`` marks an exchange a scenario hook
    breaks on purpose, whose outcome is not simulated but whose random draws still count, so that the
    attempts after it are simulated on the right stream positions. ``reuses_first_salt`` mirrors the
    brute-force hook, whose accessory answers every M1 with the salt of the scenario's first attempt.
    """

    code: str | None = None
    succeeds: bool | None = True
    reuses_first_salt: bool = False


FIRST_TRY = (PairSetupAttempt(),)


def srp_server(setup_code: str) -> Server:
    """HAP-python's verifier exactly as ``AccessoryDriver.setup_srp_verifier`` builds it (draws salt, then b)."""
    return Server(get_srp_context(3072, hashlib.sha512, 16), b"Pair-Setup", setup_code.encode("ascii"))


def with_salt(server: Server, salt: bytes) -> Server:
    """The same verifier (same secret b, no new draws) recomputed for another salt."""
    return Server(get_srp_context(3072, hashlib.sha512, 16), server.I, server.p, s=salt, b=server.b)


def exchange_succeeds(server: Server, controller_code: str) -> bool:
    """M2…M4 as the two libraries run them, with the wire encoding in between."""
    salt, public_b = server.get_challenge()
    m2 = pyhap_tlv.encode(
        HAP_TLV_TAGS.SEQUENCE_NUM, HAP_TLV_STATES.M2,
        HAP_TLV_TAGS.SALT, salt,
        HAP_TLV_TAGS.PUBLIC_KEY, long_to_bytes(public_b),
    )  # fmt: skip
    received = dict(TLV.decode_bytes(m2))
    client = SrpClient("Pair-Setup", controller_code)
    client.set_salt(received[TLV.kTLVType_Salt])
    client.set_server_public_key(received[TLV.kTLVType_PublicKey])
    m3 = TLV.encode_list(
        [
            (TLV.kTLVType_State, TLV.M3),
            (TLV.kTLVType_PublicKey, client.get_public_key_bytes()),
            (TLV.kTLVType_Proof, client.get_proof_bytes()),
        ]
    )
    request = pyhap_tlv.decode(bytes(m3))
    server.set_A(request[HAP_TLV_TAGS.PUBLIC_KEY])
    accessory_proof = server.verify(request[HAP_TLV_TAGS.PASSWORD_PROOF])
    return accessory_proof is not None and client.verify_servers_proof_bytes(accessory_proof)


def homekit_bytes(number: int) -> bytes:
    """How homekit_python puts an SRP integer on the wire and into its hashes: no leading zero bytes."""
    return bytes(HomekitSrp.to_byte_array(number))


def homekit_controller_succeeds(server: Server, controller_code: str) -> bool:
    """M2…M4 between HAP-python's verifier and homekit_python's client (homekit/protocol/__init__.py)."""
    salt, public_b = server.get_challenge()
    m2 = pyhap_tlv.encode(
        HAP_TLV_TAGS.SEQUENCE_NUM, HAP_TLV_STATES.M2,
        HAP_TLV_TAGS.SALT, salt,
        HAP_TLV_TAGS.PUBLIC_KEY, long_to_bytes(public_b),
    )  # fmt: skip
    # The expectations homekit_python decodes M2 and M3 with (perform_pair_setup_part1, _post_pair_setup).
    received = homekit_tlv.decode(m2, {
        HomekitTlv.State: homekit_tlv.DataType.INTEGER,
        HomekitTlv.Error: homekit_tlv.DataType.INTEGER,
        HomekitTlv.PublicKey: homekit_tlv.DataType.BYTES,
        HomekitTlv.Salt: homekit_tlv.DataType.BYTES,
    })  # fmt: skip
    client = HomekitSrpClient("Pair-Setup", controller_code)
    client.set_salt(received.first_by_id(HomekitTlv.Salt).data)
    client.set_server_public_key(received.first_by_id(HomekitTlv.PublicKey).data)
    m3 = homekit_tlv.encode(
        [
            homekit_tlv.Entry(HomekitTlv.State, 3),
            homekit_tlv.Entry(HomekitTlv.PublicKey, HomekitSrpClient.to_byte_array(client.get_public_key())),
            homekit_tlv.Entry(HomekitTlv.Proof, HomekitSrpClient.to_byte_array(client.get_proof())),
        ]
    )
    request = pyhap_tlv.decode(bytes(m3))
    server.set_A(request[HAP_TLV_TAGS.PUBLIC_KEY])
    accessory_proof = server.verify(request[HAP_TLV_TAGS.PASSWORD_PROOF])
    if accessory_proof is None or not client.verify_servers_proof(accessory_proof):
        return False
    return len(homekit_bytes(client.get_session_key())) == SRP_KEY_BYTES


def homekit_accessory_succeeds(server: HomekitSrpServer, controller_code: str) -> bool:
    """M2…M4 between homekit_python's AccessoryServer (accessoryserver.py) and aiohomekit's client."""
    m2 = homekit_tlv.encode(
        [
            homekit_tlv.Entry(HomekitTlv.State, 2),
            homekit_tlv.Entry(HomekitTlv.PublicKey, HomekitSrpServer.to_byte_array(server.get_public_key())),
            homekit_tlv.Entry(HomekitTlv.Salt, HomekitSrpServer.to_byte_array(server.get_salt())),
        ]
    )
    received = dict(TLV.decode_bytes(bytes(m2)))
    client = SrpClient("Pair-Setup", controller_code)
    client.set_salt(received[TLV.kTLVType_Salt])
    client.set_server_public_key(received[TLV.kTLVType_PublicKey])
    m3 = TLV.encode_list(
        [
            (TLV.kTLVType_State, TLV.M3),
            (TLV.kTLVType_PublicKey, client.get_public_key_bytes()),
            (TLV.kTLVType_Proof, client.get_proof_bytes()),
        ]
    )
    request = homekit_tlv.decode(bytes(m3), {
        HomekitTlv.State: homekit_tlv.DataType.INTEGER,
        HomekitTlv.PublicKey: homekit_tlv.DataType.BYTES,
        HomekitTlv.Proof: homekit_tlv.DataType.BYTES,
    })  # fmt: skip
    server.set_client_public_key(int.from_bytes(request.first_by_id(HomekitTlv.PublicKey).data, "big"))
    controller_proof = int.from_bytes(request.first_by_id(HomekitTlv.Proof).data, "big")
    if not server.verify_clients_proof(controller_proof):
        return False
    if not client.verify_servers_proof_bytes(HomekitSrpServer.to_byte_array(server.get_proof(controller_proof))):
        return False
    return homekit_bytes(server.get_session_key()) == client.get_session_key_bytes()


def outcomes(
    seed: int, setup_code: str, attempts: Sequence[PairSetupAttempt], peers: tuple[str, str] = HAP_PYTHON_AIOHOMEKIT
) -> list[bool | None]:
    """Each attempt's outcome under ``seed`` (``None`` for attempts a hook breaks on purpose).

    ``peers`` is (accessory, controller); each draws in the order its library does: the accessory its
    salt and secret at every M1, the controller its secret at every M3.
    """
    if peers not in (HAP_PYTHON_AIOHOMEKIT, HAP_PYTHON_HOMEKIT_PYTHON, HOMEKIT_PYTHON_AIOHOMEKIT):
        raise ValueError(f"no SRP simulation for accessory {peers[0]} with controller {peers[1]}")
    if peers != HAP_PYTHON_AIOHOMEKIT and any(attempt.reuses_first_salt for attempt in attempts):
        raise ValueError("only the HAP-python hooks reuse a salt")
    results: list[bool | None] = []
    first_salt: bytes | None = None
    homekit_role = "accessory" if peers == HOMEKIT_PYTHON_AIOHOMEKIT else "controller"
    with seeded_srp(seed, homekit_role):
        for attempt in attempts:
            code = attempt.code or setup_code
            if peers == HOMEKIT_PYTHON_AIOHOMEKIT:
                homekit_server = HomekitSrpServer("Pair-Setup", setup_code)
                if attempt.succeeds is None:
                    SrpClient("Pair-Setup", code)
                    results.append(None)
                else:
                    results.append(homekit_accessory_succeeds(homekit_server, code))
                continue
            server = srp_server(setup_code)
            if attempt.reuses_first_salt and first_salt is not None:
                server = with_salt(server, first_salt)
            first_salt = first_salt or server.s
            client_type = HomekitSrpClient if peers == HAP_PYTHON_HOMEKIT_PYTHON else SrpClient
            if attempt.succeeds is None:
                client_type("Pair-Setup", code)  # the controller still draws its secret a
                results.append(None)
            elif peers == HAP_PYTHON_HOMEKIT_PYTHON:
                results.append(homekit_controller_succeeds(server, code))
            else:
                results.append(exchange_succeeds(server, code))
    return results


def choose_seed(
    base_seed: int, setup_code: str, attempts: Sequence[PairSetupAttempt], peers: tuple[str, str] = HAP_PYTHON_AIOHOMEKIT
) -> int:
    """The first seed from ``base_seed`` on whose attempts all come out as planned."""
    wanted = [attempt.succeeds for attempt in attempts]
    for seed in range(base_seed, base_seed + SEARCH_LIMIT):
        if outcomes(seed, setup_code, attempts, peers) == wanted:
            return seed
    raise RuntimeError(f"no seed in [{base_seed}, {base_seed + SEARCH_LIMIT}) gives pair-setup outcomes {wanted}")
