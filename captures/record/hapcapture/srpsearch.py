"""Choosing seeds whose SRP draws give each pair-setup the outcome a scenario wants.

HAP-python (accessory) and aiohomekit (controller) disagree on leading zero bytes in SRP values
(PROTOCOL.md §2.3), so about one pair-setup in 65 fails with the right code. Because both sides' SRP
randomness is seeded (``seeded.py``), the outcome of every attempt is fixed by the scenario seed; this
module replays those attempts in-process with the libraries' own SRP classes and TLV codecs and walks
the seeds upwards from the scenario's base seed until every attempt comes out as planned. That is how
``srp-mismatch`` gets a first attempt that fails, and how every other scenario avoids one.
"""

from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass
from typing import Iterator, Sequence

import aiohomekit.crypto.srp
import pyhap.hsrp
from aiohomekit.crypto.srp import SrpClient
from aiohomekit.protocol.tlv import TLV
from pyhap import tlv as pyhap_tlv
from pyhap.hap_handler import HAP_TLV_STATES, HAP_TLV_TAGS
from pyhap.hsrp import Server
from pyhap.params import get_srp_context
from pyhap.util import long_to_bytes

from .seeded import SeededRandomness, os_module_with_urandom

SEARCH_LIMIT = 2000


@contextlib.contextmanager
def seeded_srp(seed: int) -> Iterator[None]:
    """The same stream substitution the peers make, for the duration of a simulation."""
    saved = pyhap.hsrp.os, aiohomekit.crypto.srp.os
    pyhap.hsrp.os = os_module_with_urandom(SeededRandomness(seed, "accessory").urandom("srp"))
    aiohomekit.crypto.srp.os = os_module_with_urandom(SeededRandomness(seed, "controller").urandom("srp"))
    try:
        yield
    finally:
        pyhap.hsrp.os, aiohomekit.crypto.srp.os = saved


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


def outcomes(seed: int, setup_code: str, attempts: Sequence[PairSetupAttempt]) -> list[bool | None]:
    """Each attempt's outcome under ``seed`` (``None`` for attempts a hook breaks on purpose)."""
    results: list[bool | None] = []
    first_salt: bytes | None = None
    with seeded_srp(seed):
        for attempt in attempts:
            server = srp_server(setup_code)
            if attempt.reuses_first_salt and first_salt is not None:
                server = with_salt(server, first_salt)
            first_salt = first_salt or server.s
            if attempt.succeeds is None:
                SrpClient("Pair-Setup", attempt.code or setup_code)  # the controller still draws its secret a
                results.append(None)
            else:
                results.append(exchange_succeeds(server, attempt.code or setup_code))
    return results


def choose_seed(base_seed: int, setup_code: str, attempts: Sequence[PairSetupAttempt]) -> int:
    """The first seed from ``base_seed`` on whose attempts all come out as planned."""
    wanted = [attempt.succeeds for attempt in attempts]
    for seed in range(base_seed, base_seed + SEARCH_LIMIT):
        if outcomes(seed, setup_code, attempts) == wanted:
            return seed
    raise RuntimeError(f"no seed in [{base_seed}, {base_seed + SEARCH_LIMIT}) gives pair-setup outcomes {wanted}")
