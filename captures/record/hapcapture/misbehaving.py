"""The misbehaving-peer scenarios: accessory hooks, controller hooks and controller stories.

Each scenario makes HAP-python (accessory) or aiohomekit (controller) break protocol rules on purpose,
patched at run time only, so that every rule of hapscope's ``audit`` has a recorded capture that triggers
it. Every deliberate misbehaviour is journalled (``Journal.misbehaviour``) with the audit rule it must
trigger, the connection it happened on and the values involved; the truth file lists them under
``misbehaviours`` and in its notes. Misbehaviours that make a peer abort get a TCP connection of their
own, opened with exactly one pair-verify (``Story.open_session``), so that the later ones still happen.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import time
from typing import Any

import aiohomekit.controller.ip.discovery as discovery_module
import pyhap.hap_handler
import zeroconf
from aiohomekit.controller.ip.discovery import IpDiscovery
from aiohomekit.crypto.srp import H_GROUP, MODULUS_VALUE, SrpClient, to_byte_array
from aiohomekit.exceptions import AccessoryDisconnectedError, AuthenticationError, InvalidSignatureError
from aiohomekit.model.characteristics import CharacteristicsTypes as Types
from aiohomekit.protocol.tlv import TLV
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519
from pyhap import tlv as pyhap_tlv
from pyhap.accessory import Accessory
from pyhap.accessory_driver import AccessoryDriver, AccessoryMDNSServiceInfo
from pyhap.characteristic import Characteristic
from pyhap.const import HAP_SERVER_STATUS
from pyhap.hap_event import create_hap_event
from pyhap.hap_handler import HAP_TLV_STATES, HAP_TLV_TAGS, HAPResponse, HAPServerHandler
from zeroconf.const import _CLASS_UNIQUE, _TYPE_A, _TYPE_AAAA, _TYPE_NSEC

from . import accessories, tlv8
from .faults import (
    Request,
    Saboteur,
    client_of,
    corrupt_tag,
    counter_shift,
    oversize_frame,
    rebuild_response,
    repeated_later,
    rewrite_mdns_responses,
    unencrypted,
    wrap,
    WriteFault,
)
from .instrument_accessory import txt_properties
from .journal import Journal, endpoint_text
from .srpsearch import with_salt
from .story import Database, Story

FORBIDDEN_SETUP_CODE = "123-45-678"
BRUTE_FORCE_CODES = ("111-22-333", "222-33-444", "333-44-555", "444-55-666", "555-66-777", "666-77-888")
SHORT_SALT_BYTES = 15
FORGED_SETUP_HASH_ID = "WXYZ"
UNKNOWN_APPLE_TYPE = "0000FF42-0000-1000-8000-0026BB765291"
# A fixed key that is not the accessory's: what the bad-signature accessory signs pair-verify M2 with.
WRONG_SIGNING_KEY = ed25519.Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"hapscope wrong signing key").digest())
PAIRING_PATHS = ("/pair-setup", "/pair-verify")


def raw_public(key: Any) -> bytes:
    return key.public_bytes(encoding=serialization.Encoding.Raw, format=serialization.PublicFormat.Raw)


def pairing_state(body: bytes) -> int | None:
    return tlv8.integer(tlv8.decode(body), tlv8.STATE) if body else None


def find_characteristic(driver: AccessoryDriver, accessory_name: str, name: str) -> tuple[Accessory, int, Characteristic]:
    """A characteristic of the served accessory (or of one of its bridged ones), with its accessory and iid."""
    top = driver.accessory
    for accessory in (top, *getattr(top, "accessories", {}).values()):
        if accessory.display_name != accessory_name:
            continue
        for service in accessory.services:
            for characteristic in service.characteristics:
                if characteristic.display_name == name:
                    return accessory, accessory.iid_manager.get_iid(characteristic), characteristic
    raise KeyError(f"{accessory_name} has no characteristic {name}")


def bridged(driver: AccessoryDriver, name: str) -> Accessory:
    return next(accessory for accessory in driver.accessory.accessories.values() if accessory.display_name == name)


def ident(accessory: Accessory, iid: int) -> str:
    return f"{accessory.aid}.{iid}"


async def expect_lost_connection(story: Story, what: str, request) -> None:
    """Run a request the accessory answers with a deliberate fault; aiohomekit must drop the connection."""
    try:
        await request
    except (AccessoryDisconnectedError, asyncio.TimeoutError) as error:
        story.journal.observation(f"{what}: aiohomekit gave up on the connection ({type(error).__name__}: {error})")
        return
    raise RuntimeError(f"{what}: aiohomekit accepted the faulty response")


# --- unverified-access ------------------------------------------------------------------------------


def unverified_access_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """Answers /accessories, /characteristics and a /pairings list on a connection that never verified."""
    saboteur = Saboteur(driver, journal)

    def as_if_verified(original):
        def handle(handler: HAPServerHandler) -> None:
            if handler.is_encrypted:
                return original(handler)
            handler.is_encrypted = True  # the one thing these two handlers check
            try:
                return original(handler)
            finally:
                handler.is_encrypted = False

        return handle

    def list_pairings_unverified(original):
        def handle(handler: HAPServerHandler) -> None:
            method = tlv8.integer(tlv8.decode(handler.request_body), tlv8.METHOD)
            if handler.is_encrypted or method != tlv8.METHOD_LIST_PAIRINGS:
                return original(handler)
            handler._handle_list_pairings()

        return handle

    wrap(HAPServerHandler, "handle_accessories", as_if_verified)
    wrap(HAPServerHandler, "handle_get_characteristics", as_if_verified)
    wrap(HAPServerHandler, "handle_pairings", list_pairings_unverified)
    repeated = []

    def misbehave(request: Request, response: HAPResponse) -> None:
        if request.session == 0 and request.path not in PAIRING_PATHS and response.status_code == 200:
            kind = dict(response.headers).get("Content-Type")
            if request.path == "/pairings":
                what, stock = f"{request.describe()} (List Pairings, State=1, Method=5)", "fails an assertion and answers 500"
            else:
                what, stock = request.describe(), "answers 401 with status -70401"
            saboteur.misbehaviour(
                "unverified-request",
                request.client,
                f"the plaintext request {what} on a connection that never ran pair-verify was answered HTTP 200 OK with "
                f"a {len(response.body)}-byte {kind} body (a conforming accessory answers 470; stock HAP-python {stock})",
            )
        if request.session == 1 and request.command == "GET" and request.path == "/characteristics" and not repeated:
            repeated.append(request)
            saboteur.fault_next_write(
                request.protocol, repeated_later(saboteur, f"the response to {request.describe()}", delay=0.3)
            )

    saboteur.on_response(misbehave)


async def unverified_access_story(story: Story) -> None:
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    plain = await story.plain_connection(discovery)
    with story.journal.note("no pair-verify: plaintext request right after pair-setup"):
        db = Database((await plain.get_json("/accessories"))["accessories"])
        lamp_on = db.characteristic("Desk Lamp", Types.ON)
        temperature = db.characteristic("Living Room Sensor", Types.TEMPERATURE_CURRENT)
        await plain.get_json(f"/characteristics?id={lamp_on[0]}.{lamp_on[1]},{temperature[0]}.{temperature[1]}")
        listing = await plain.post_tlv("/pairings", [(TLV.kTLVType_State, TLV.M1), (TLV.kTLVType_Method, TLV.ListPairings)])
    if dict(listing).get(TLV.kTLVType_Error) is not None:
        raise RuntimeError("the unverified /pairings list was refused")
    await plain.close()

    session = await story.open_session(pairing)
    await session.get_characteristics([lamp_on])
    await asyncio.sleep(1.0)  # the accessory repeats its response 0.3 s after the first copy
    if session.connection.is_connected:
        raise RuntimeError("aiohomekit kept the connection after a response without a request")
    story.journal.observation(
        "aiohomekit found no request waiting for the repeated response and dropped the connection "
        "(IndexError in its protocol's data_received)"
    )
    await session.close()


# --- paired-setup -----------------------------------------------------------------------------------


def paired_setup_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """Runs pair-setup although already paired, and keeps advertising sf=1 (not paired) after pairing."""
    saboteur = Saboteur(driver, journal)

    def handle_pairing(original):
        def handle(handler: HAPServerHandler) -> None:
            if not handler.state.paired:
                return original(handler)
            # What HAP-python does when unpaired, without its paired check (which answers Error=Unavailable).
            items = pyhap_tlv.decode(handler.request_body)
            state = items[HAP_TLV_TAGS.SEQUENCE_NUM]
            if state == HAP_TLV_STATES.M1:
                handler._pairing_one()
            elif state == HAP_TLV_STATES.M3:
                handler._pairing_two(items)
            elif state == HAP_TLV_STATES.M5:
                handler._pairing_three(items)

        return handle

    def advertisement(original):
        recorded = []

        def properties(info: AccessoryMDNSServiceInfo) -> dict[str, str]:
            advertised = original(info)
            if info.state.paired and advertised["sf"] != "1":
                advertised["sf"] = "1"
                if not recorded:
                    recorded.append(True)
                    paired = ", ".join(str(client) for client in info.state.paired_clients)
                    saboteur.misbehaviour(
                        "sf-unpaired-while-paired",
                        None,
                        f"after pair-setup stored the controller {paired}, the accessory re-announced itself with sf=1 "
                        f"(not paired) and c#={advertised['c#']}; every advertisement from then on still says sf=1 "
                        "while pair-verify and requests succeed",
                    )
            return advertised

        return properties

    wrap(HAPServerHandler, "handle_pairing", handle_pairing)
    wrap(AccessoryMDNSServiceInfo, "_get_advert_data", advertisement)

    def misbehave(request: Request, response: HAPResponse) -> None:
        # An M1 leaves the pairings as they were, so the state now is the state the M1 found.
        if request.path != "/pair-setup" or pairing_state(request.body) != 1 or not driver.state.paired:
            return
        items = tlv8.decode(response.body)
        saboteur.misbehaviour(
            "setup-while-paired",
            request.client,
            f"pair-setup M1 on {request.client} arrived while the accessory was paired "
            f"({len(driver.state.paired_clients)} pairing(s) stored); it answered a normal M2 (State=2, a "
            f"{len(items.get(0x02, b''))}-byte salt, a {len(items.get(0x03, b''))}-byte B, no Error item) instead of "
            "M2 Error=Unavailable (6), and went on to M4 and M6, storing a second admin pairing",
        )

    saboteur.on_response(misbehave)


async def paired_setup_story(story: Story) -> None:
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    db = Database(await session.list_accessories_and_characteristics())
    lamp_on = db.characteristic("Desk Lamp", Types.ON)
    await session.get_characteristics([lamp_on])
    await asyncio.sleep(2.0)  # the re-announcements after pairing, and answers to the browser's queries, say sf=1
    with story.journal.note("a second pair-setup while the accessory is already paired"):
        finish = await discovery.async_start_pairing("hapscope-second-owner")
        await finish(story.setup_code)
    await session.put_characteristics([(*lamp_on, True)])
    await asyncio.sleep(1.5)  # let the mDNS re-announcements after the second pairing reach the capture
    await session.get_characteristics([lamp_on])
    await session.close()


# --- brute-force ------------------------------------------------------------------------------------


def brute_force_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """Has a forbidden setup code and answers every pair-setup M1 with the salt of the first one."""
    saboteur = Saboteur(driver, journal)
    code = driver.state.pincode.decode("ascii")
    saboteur.misbehaviour(
        "forbidden-setup-code",
        None,
        f"the accessory's setup code is {code}, which HAP forbids (ADK rejects 123-45-678, 876-54-321 and codes of "
        "one repeated digit); pair-setup with it succeeds at the end of the capture",
    )
    first_salt: list[bytes] = []

    def setup_srp_verifier(original):
        def setup(accessory_driver: AccessoryDriver) -> None:
            original(accessory_driver)  # draws a fresh salt and secret b, as stock HAP-python does
            if first_salt:
                accessory_driver.srp_verifier = with_salt(accessory_driver.srp_verifier, first_salt[0])
            else:
                first_salt.append(accessory_driver.srp_verifier.s)

        return setup

    wrap(AccessoryDriver, "setup_srp_verifier", setup_srp_verifier)
    m2_count = [0]

    def misbehave(request: Request, response: HAPResponse) -> None:
        if request.path != "/pair-setup" or pairing_state(request.body) != 1:
            return
        m2_count[0] += 1
        if m2_count[0] > 1:
            salt = tlv8.decode(response.body)[0x02]
            saboteur.misbehaviour(
                "salt-reuse",
                request.client,
                f"pair-setup M2 #{m2_count[0]} of this capture (on {request.client}) carries the SRP salt {salt.hex()}, "
                "the same salt as M2 #1: the accessory reuses one salt for every pair-setup",
            )

    saboteur.on_response(misbehave)


async def brute_force_story(story: Story) -> None:
    discovery = await story.discover()
    loop = asyncio.get_running_loop()
    started = loop.time()
    for code in BRUTE_FORCE_CODES:
        await story.expect_pairing_failure(discovery, code)
    elapsed = loop.time() - started
    client = story.client_of(discovery.connection)
    story.journal.misbehaviour(
        "setup-no-backoff",
        client,
        f"{len(BRUTE_FORCE_CODES)} pair-setups with wrong codes ({', '.join(BRUTE_FORCE_CODES)}) in {elapsed:.2f} s on "
        f"{client}, one after the other; the accessory answered every M3 with M4 Error=Authentication (2) and never "
        "with Backoff (3) or MaxTries (5), nor did it delay its answers",
    )
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    db = Database(await session.list_accessories_and_characteristics())
    await session.get_characteristics([db.characteristic("Porch Light", Types.ON)])
    await session.close()


# --- bad-srp ----------------------------------------------------------------------------------------

PROOF_MISMATCH_ATTEMPT = 4


def bad_srp_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """Sends a 15-byte salt in the first pair-setup and a wrong M4 proof in the fourth."""
    saboteur = Saboteur(driver, journal)
    m1_count = [0]

    def setup_srp_verifier(original):
        def setup(accessory_driver: AccessoryDriver) -> None:
            original(accessory_driver)
            m1_count[0] += 1
            if m1_count[0] == 1:
                verifier = accessory_driver.srp_verifier
                accessory_driver.srp_verifier = with_salt(verifier, verifier.s[:SHORT_SALT_BYTES])

        return setup

    wrap(AccessoryDriver, "setup_srp_verifier", setup_srp_verifier)

    def misbehave(request: Request, response: HAPResponse) -> None:
        if request.path != "/pair-setup":
            return
        state = pairing_state(request.body)
        if state == 1 and m1_count[0] == 1:
            salt = tlv8.decode(response.body)[0x02]
            saboteur.misbehaviour(
                "srp-malformed",
                request.client,
                f"pair-setup M2 (attempt 1) on {request.client} carries a {len(salt)}-byte salt {salt.hex()} (HAP: 16 "
                "bytes); the accessory computed its verifier with these 15 bytes, aiohomekit left-pads them to 16, so "
                "the controller's M3 proof fails and M4 is Error=Authentication",
            )
        if state == 3 and m1_count[0] == PROOF_MISMATCH_ATTEMPT:
            items = tlv8.decode(response.body)
            genuine = items[0x04]
            forged = genuine[:-1] + bytes([genuine[-1] ^ 0x01])
            response.body = pyhap_tlv.encode(
                HAP_TLV_TAGS.SEQUENCE_NUM, HAP_TLV_STATES.M4, HAP_TLV_TAGS.PASSWORD_PROOF, forged
            )
            public_a = tlv8.decode(request.body)[0x03]
            saboteur.misbehaviour(
                "srp-proof-mismatch",
                request.client,
                f"pair-setup M4 (attempt {PROOF_MISMATCH_ATTEMPT}) on {request.client} carries the proof {forged.hex()}; "
                f"H(A ‖ M1 ‖ K) for the logged K (PAIR_SETUP_SESSION_KEY {public_a[:32].hex()}) is {genuine.hex()} (last "
                "bit flipped); the controller's own proof in M3 was right",
            )

    saboteur.on_response(misbehave)


async def forged_public_key_pair_setup(story: Story, discovery: IpDiscovery, public_a: bytes, label: str) -> None:
    """M1…M4 with a public key A ≡ 0 (mod N) and the proof an attacker computes without the setup code.

    With A ≡ 0 (mod N) the accessory's S = (A·v^u)^b mod N is 0 whatever the code, unless it rejects such
    an A (ADK checks A mod N). HAP-python hashes S as its minimal big-endian bytes, which for 0 is the
    empty string, so K = SHA-512("") and the proof M1 follows from the public values alone.
    """
    await discovery._ensure_connected()
    connection = discovery.connection
    client = story.client_of(connection)
    with story.journal.note(f"pair-setup with the forged SRP public key {label}, no setup code"):
        m2 = dict(await connection.post_tlv("/pair-setup", [(TLV.kTLVType_State, TLV.M1), (TLV.kTLVType_Method, TLV.PairSetup)]))
        salt, public_b = bytes(m2[TLV.kTLVType_Salt]), bytes(m2[TLV.kTLVType_PublicKey])
        SrpClient("Pair-Setup", story.setup_code)  # draws the secret a as a real attempt does: the seed plan stays aligned
        session_key = hashlib.sha512(b"").digest()
        username_hash = hashlib.sha512(b"Pair-Setup").digest()
        proof = hashlib.sha512(H_GROUP + username_hash + salt + public_a + public_b + session_key).digest()
        story.journal.write(
            "srp", side="controller", a_prefix=public_a[:32].hex(), k=session_key.hex(),
            a_bytes_sent=len(public_a), b_bytes_received=len(public_b),
        )  # fmt: skip
        m4 = dict(await connection.post_tlv("/pair-setup", [(TLV.kTLVType_State, TLV.M3), (TLV.kTLVType_PublicKey, public_a), (TLV.kTLVType_Proof, proof)]))
    if TLV.kTLVType_Error in m4:
        reaction = f"the accessory answered M4 Error={int.from_bytes(m4[TLV.kTLVType_Error], 'little')}"
    elif bytes(m4.get(TLV.kTLVType_Proof, b"")) == hashlib.sha512(public_a + proof + session_key).digest():
        reaction = (
            "stock HAP-python ACCEPTED it: M4 carries the valid accessory proof H(A ‖ M1 ‖ K), i.e. the SRP "
            "authentication succeeded without the setup code (the controller stopped there; no M5 was sent)"
        )
    else:
        reaction = "the accessory answered M4 with a proof that does not match K = SHA-512(\"\")"
    story.journal.misbehaviour(
        "srp-malformed",
        client,
        f"pair-setup M3 on {client} sends the SRP public key {label} ({len(public_a)} bytes, A mod N = 0) with the proof "
        f"{proof.hex()} computed for S = 0, K = SHA-512(\"\") = {session_key.hex()}, without knowing the setup code; "
        f"{reaction}",
    )


async def bad_srp_story(story: Story) -> None:
    discovery = await story.discover()
    with story.journal.note("attempt 1: the accessory sends a 15-byte salt"):
        await story.expect_pairing_failure(discovery, story.setup_code)
    await forged_public_key_pair_setup(story, discovery, bytes(384), "A = 0")
    await forged_public_key_pair_setup(story, discovery, to_byte_array(MODULUS_VALUE), "A = N")
    with story.journal.note(f"attempt {PROOF_MISMATCH_ATTEMPT}: the accessory sends a wrong M4 proof"):
        try:
            await story.attempt_pairing(discovery, story.setup_code)
        except AuthenticationError as error:
            story.journal.observation(f"aiohomekit rejected the wrong M4 proof and stopped before M5 ({error})")
        else:
            raise RuntimeError("aiohomekit accepted a wrong M4 proof")
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    db = Database(await session.list_accessories_and_characteristics())
    await session.get_characteristics([db.characteristic("Desk Lamp", Types.ON)])
    await session.close()


# --- verify-reuse -----------------------------------------------------------------------------------


def verify_reuse_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """Reuses its first pair-verify key pair in the second pair-verify; signs the third M2 with a wrong key."""
    saboteur = Saboteur(driver, journal)
    factory = pyhap.hap_handler.x25519.X25519PrivateKey  # the instrumentation's seeded stand-in
    generate = factory.generate
    keys: list[Any] = []

    def generate_reusing():
        key = generate()  # drawn even when discarded, so the stream stays where a stock run would have it
        keys.append(key)
        return keys[0] if len(keys) == 2 else key

    factory.generate = generate_reusing

    def pair_verify_one(original):
        def answer(handler: HAPServerHandler, tlv_objects) -> None:
            if len(keys) != 2:  # ``keys`` grows inside ``original``: this is the third M1
                return original(handler, tlv_objects)
            genuine = handler.state.private_key
            handler.state.private_key = WRONG_SIGNING_KEY
            try:
                original(handler, tlv_objects)
            finally:
                handler.state.private_key = genuine
            saboteur.misbehaviour(
                "bad-signature",
                endpoint_text(handler.client_address),
                f"pair-verify M2 on {endpoint_text(handler.client_address)} is signed with the Ed25519 key whose public key is "
                f"{raw_public(WRONG_SIGNING_KEY.public_key()).hex()}, not with the accessory's long-term key "
                f"{raw_public(genuine.public_key()).hex()} (ACCESSORY_LTPK {driver.state.mac}); signed material: "
                f"AccessoryCvPK ‖ '{driver.state.mac}' ‖ iOSDeviceCvPK",
            )

        return answer

    wrap(HAPServerHandler, "_pair_verify_one", pair_verify_one)
    first_m2: list[tuple[str, bytes]] = []

    def misbehave(request: Request, response: HAPResponse) -> None:
        if request.path != "/pair-verify" or pairing_state(request.body) != 1:
            return
        public = tlv8.decode(response.body)[0x03]
        if not first_m2:
            first_m2.append((request.client, public))
        elif len(keys) == 2:
            saboteur.misbehaviour(
                "ephemeral-key-reuse",
                request.client,
                f"pair-verify M2 on {request.client} carries the accessory ephemeral X25519 public key {public.hex()}, "
                f"the same key pair as pair-verify M2 on {first_m2[0][0]} (ACCESSORY_EPHEMERAL_SECRET logged once)",
            )

    saboteur.on_response(misbehave)


async def verify_reuse_story(story: Story) -> None:
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    lamp_on = None
    for _ in range(2):
        session = await story.open_session(pairing)
        if lamp_on is None:
            lamp_on = Database(await session.list_accessories_and_characteristics()).characteristic("Desk Lamp", Types.ON)
        await session.get_characteristics([lamp_on])
        await session.close()
    try:
        await story.open_session(pairing)
    except InvalidSignatureError as error:
        story.journal.observation(
            f"aiohomekit rejected the pair-verify M2 signature and sent no M3 ({type(error).__name__}: {error})"
        )
    else:
        raise RuntimeError("aiohomekit accepted a pair-verify M2 signed with the wrong key")


# --- pairings-admin ---------------------------------------------------------------------------------


def pairings_admin_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """Lets a regular (non-admin) controller add and remove pairings."""
    saboteur = Saboteur(driver, journal)

    def handle_pairings(original):
        def handle(handler: HAPServerHandler) -> None:
            if not handler.is_encrypted or handler.state.is_admin(handler.client_uuid):
                return original(handler)
            items = pyhap_tlv.decode(handler.request_body)
            method = items[HAP_TLV_TAGS.REQUEST_TYPE][0]
            if method == tlv8.METHOD_ADD_PAIRING:
                handler._handle_add_pairing(items)
                what = (
                    f"Add Pairing of {items[HAP_TLV_TAGS.USERNAME].decode()} with permissions "
                    f"{items[HAP_TLV_TAGS.PERMISSIONS][0]} ({'admin' if items[HAP_TLV_TAGS.PERMISSIONS][0] & 1 else 'regular'})"
                )
            elif method == tlv8.METHOD_REMOVE_PAIRING:
                handler._handle_remove_pairing(items)
                what = f"Remove Pairing of {items[HAP_TLV_TAGS.USERNAME].decode()}"
            else:
                return original(handler)
            client = endpoint_text(handler.client_address)
            saboteur.misbehaviour(
                "pairing-without-admin",
                client,
                f"{what} on {client}, a session verified by the regular (non-admin) controller {handler.client_uuid}, "
                "was accepted (M2 without an Error item) instead of M2 Error=Authentication",
            )

        return handle

    wrap(HAPServerHandler, "handle_pairings", handle_pairings)


async def pairings_admin_story(story: Story) -> None:
    discovery = await story.discover()
    owner = await story.pair(discovery)
    owner_session = await story.open_session(owner)
    db = Database(await owner_session.list_accessories_and_characteristics())
    user = story.new_identity("regular-user", upper_case=False)
    guest = story.new_identity("guest", upper_case=False)
    with story.journal.note("the owner adds a regular (non-admin) controller"):
        await owner_session.add_pairing(user.pairing_id, user.ltpk_hex, "User")
    user_session = await story.open_session(owner, user)
    await user_session.get_characteristics([db.characteristic("Desk Lamp", Types.ON)])
    with story.journal.note("the regular controller adds an admin pairing"):
        await user_session.add_pairing(guest.pairing_id, guest.ltpk_hex, "Admin")
    with story.journal.note("the regular controller removes that pairing again"):
        await user_session.remove_pairing(guest.pairing_id)
    await user_session.close()
    await owner_session.list_pairings()
    await owner_session.close()


# --- frame-faults -----------------------------------------------------------------------------------


def frame_faults_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """One frame fault per pair-verified session: oversize, counter skip, counter reuse, bad tag, plaintext."""
    saboteur = Saboteur(driver, journal)

    def misbehave(request: Request, response: HAPResponse) -> None:
        protocol = request.protocol
        if request.command == "GET" and request.path == "/characteristics":
            protocol.hapcapture_reads = getattr(protocol, "hapcapture_reads", 0) + 1
        second_read = request.path == "/characteristics" and getattr(protocol, "hapcapture_reads", 0) == 2
        what = f"the response to {request.describe()}"
        fault = None
        if request.session == 1 and request.path == "/accessories":
            fault = oversize_frame(journal, what)
        elif request.session == 2 and second_read:
            fault = counter_shift(journal, what, +1)
        elif request.session == 3 and second_read:
            fault = counter_shift(journal, what, -1)
        elif request.session == 4 and request.path == "/accessories":
            fault = corrupt_tag(journal, what, frame_index=2)
        elif request.session == 5 and second_read:
            fault = unencrypted(journal, what)
        if fault is not None:
            saboteur.fault_next_write(protocol, fault)

    saboteur.on_response(misbehave)


async def frame_faults_story(story: Story) -> None:
    discovery = await story.discover()
    pairing = await story.pair(discovery)

    session = await story.open_session(pairing)
    db = Database(await session.list_accessories_and_characteristics())  # arrives in one oversize frame
    story.journal.observation("aiohomekit accepted the oversize frame and went on using the session")
    lamp_on = db.characteristic("Desk Lamp", Types.ON)
    temperature = db.characteristic("Living Room Sensor", Types.TEMPERATURE_CURRENT)
    await session.get_characteristics([lamp_on, temperature])
    await session.close()

    for fault in ("nonce-skip", "nonce-reuse", "frame-auth-failure", "plaintext-after-encryption"):
        session = await story.open_session(pairing)
        await session.get_characteristics([lamp_on])
        if fault == "frame-auth-failure":
            request = session.connection.get("/accessories")
        else:
            # aiohomekit waits for frames that never come after a plaintext response: give up after 3 s.
            request = asyncio.wait_for(session.get_characteristics([lamp_on, temperature]), timeout=3.0)
        await expect_lost_connection(story, f"{fault} on {story.client_of(session.connection)}", request)
        await session.close()


# --- bad-events -------------------------------------------------------------------------------------


def bad_events_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """After the controller's write to the lamp, sends EVENTs for the lamp (not subscribed) and its Model (no ev)."""
    saboteur = Saboteur(driver, journal)
    lamp, lamp_on_iid, _ = find_characteristic(driver, "Desk Lamp", "On")
    _, model_iid, model = find_characteristic(driver, "Desk Lamp", "Model")
    sent: list[bool] = []

    def misbehave(request: Request, response: HAPResponse) -> None:
        if sent or request.command != "PUT" or request.path != "/characteristics" or b'"value"' not in request.body:
            return
        sent.append(True)
        lamp_on_value = {"aid": lamp.aid, "iid": lamp_on_iid, "value": True}
        model_value = {"aid": lamp.aid, "iid": model_iid, "value": model.get_value()}
        saboteur.write_later(request.protocol, 0.3, create_hap_event([lamp_on_value]))
        saboteur.write_later(request.protocol, 0.6, create_hap_event([model_value]))
        saboteur.misbehaviour(
            "unsolicited-event",
            request.client,
            f"0.3 s after answering {request.describe()} on {request.client}, the accessory sent an EVENT for "
            f"{ident(lamp, lamp_on_iid)} (Desk Lamp On, value true), which this connection never subscribed to "
            "(it subscribed only to the temperature); HAP-python itself never notifies the writer of its own change",
        )
        saboteur.misbehaviour(
            "unsolicited-event",
            request.client,
            f"0.6 s after answering {request.describe()} on {request.client}, the accessory sent an EVENT for "
            f"{ident(lamp, model_iid)} (Desk Lamp Model, value {model.get_value()!r}), whose perms {model.properties['Permissions']} "
            "lack ev, so no controller can subscribe to it",
        )

    saboteur.on_response(misbehave)


async def bad_events_story(story: Story) -> None:
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    db = Database(await session.list_accessories_and_characteristics())
    temperature = db.characteristic("Living Room Sensor", Types.TEMPERATURE_CURRENT)
    await session.subscribe([temperature])
    await session.put_characteristics([(*db.characteristic("Desk Lamp", Types.ON), True)])
    await asyncio.sleep(2.0)
    await session.unsubscribe([temperature])
    await session.close()


# --- bad-discovery ----------------------------------------------------------------------------------


def setup_hash(setup_id: str, device_id: str) -> str:
    return base64.b64encode(hashlib.sha512((setup_id + device_id).encode("ascii")).digest()[:4]).decode("ascii")


def txt_wire(properties: dict[str, str]) -> bytes:
    entries = [f"{key}={value}".encode("utf-8") for key, value in properties.items()]
    return b"".join(bytes([len(entry)]) + entry for entry in entries)


def bad_discovery_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """Advertises ff=1 and a wrong sh, sends one announcement without an address and one with a bad TXT."""
    saboteur = Saboteur(driver, journal)
    state = driver.state
    forged_hash = setup_hash(FORGED_SETUP_HASH_ID, state.mac)
    saboteur.misbehaviour(
        "setup-hash-mismatch",
        None,
        f"every advertisement carries sh={forged_hash} = base64(SHA-512('{FORGED_SETUP_HASH_ID}' + '{state.mac}')[0..3]); "
        f"for the setup ID {state.setup_id} (truth setupId) it would be sh={setup_hash(state.setup_id, state.mac)}",
    )

    def advertisement(original):
        def properties(info: AccessoryMDNSServiceInfo) -> dict[str, str]:
            advertised = original(info)
            advertised["ff"] = "1"
            advertised["sh"] = forged_hash
            return advertised

        return properties

    wrap(AccessoryMDNSServiceInfo, "_get_advert_data", advertisement)
    announcements = [0]

    def rewrite(message: zeroconf.DNSIncoming, packet: bytes) -> bytes:
        if message.num_additionals != 0:
            return packet  # an answer to a query; only unsolicited announcements are rewritten
        announcements[0] += 1
        records = message.answers()
        # The instrumentation below stamps the advertisement a moment later; a millisecond is plenty to tell.
        sent = f"sent at {time.time():.3f} (Unix time; the truth advertisement of that time)"
        if announcements[0] == 1:
            kept = [record for record in records if record.type not in (_TYPE_A, _TYPE_AAAA, _TYPE_NSEC)]
            service = next(record for record in records if isinstance(record, zeroconf.DNSService))
            saboteur.misbehaviour(
                "srv-without-address",
                None,
                f"the accessory's first mDNS announcement, {sent}, carries the SRV record of '{service.name}' with "
                f"target '{service.server}' but no A or AAAA record for that target (its records: "
                f"{', '.join(type(record).__name__.removeprefix('DNS') for record in kept)})",
            )
            return rebuild_response(message, kept)
        if announcements[0] == 2:
            text = next(record for record in records if isinstance(record, zeroconf.DNSText))
            properties = txt_properties(text.text)
            properties.update({"id": "hapscope-4D5E6F", "pv": "1", "ci": "99"})
            malformed = zeroconf.DNSText(
                text.name, text.type, text.class_ | (_CLASS_UNIQUE if text.unique else 0), text.ttl, txt_wire(properties)
            )
            saboteur.misbehaviour(
                "txt-malformed",
                None,
                f"the accessory's second mDNS announcement, {sent}, carries a TXT record with id=hapscope-4D5E6F (not "
                "XX:XX:XX:XX:XX:XX), pv=1 (not X.Y) and ci=99 (no such category); every other advertisement has the "
                "accessory's normal TXT",
            )
            return rebuild_response(message, [malformed if record is text else record for record in records])
        return packet

    rewrite_mdns_responses(rewrite)

    def misbehave(request: Request, response: HAPResponse) -> None:
        if request.path != "/pair-setup" or pairing_state(request.body) != 1:
            return
        method = tlv8.integer(tlv8.decode(request.body), tlv8.METHOD)
        saboteur.misbehaviour(
            "ff-mismatch",
            request.client,
            f"the accessory advertises ff=1 (Apple authentication coprocessor) in every advertisement, yet pair-setup "
            f"M1 on {request.client} uses Method {method} (PairSetup, no MFi authentication) and the accessory answers "
            "it with a normal M2",
        )

    saboteur.on_response(misbehave)


def bad_discovery_controller(journal: Journal) -> None:
    """aiohomekit would answer ff=1 with Method 1 (PairSetupWithAuth); this controller always uses Method 0."""
    discovery_module.pair_with_auth = lambda _feature_flags: False


async def bad_discovery_story(story: Story) -> None:
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    db = Database(await session.list_accessories_and_characteristics())
    await session.get_characteristics([db.characteristic("Desk Lamp", Types.ON)])
    await session.close()


# --- bad-database -----------------------------------------------------------------------------------


def bad_database_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """Breaks the database in every way the audit checks, rejects bad writes, and grows without a new c#."""
    saboteur = Saboteur(driver, journal)
    bridge = driver.accessory
    faults: list[tuple[str, str]] = []

    lamp, brightness_iid, brightness = find_characteristic(driver, "Desk Lamp", "Brightness")
    brightness.value = 150  # the property setter skips HAP-python's clamping
    faults.append(("value-out-of-range", f"{ident(lamp, brightness_iid)} (Desk Lamp Brightness) has value 150 > maxValue 100"))

    sensor, temperature_iid, temperature = find_characteristic(driver, "Living Room Sensor", "CurrentTemperature")
    temperature.value = 21.55
    faults.append((
        "value-out-of-range",
        f"{ident(sensor, temperature_iid)} (Living Room Sensor CurrentTemperature) has value 21.55, not a multiple of "
        "minStep 0.1 (from minValue -273.1 or from 0)",
    ))  # fmt: skip

    thermostat, heating_iid, heating = find_characteristic(driver, "Hallway Thermostat", "CurrentHeatingCoolingState")
    heating.override_properties(valid_values={"Off": 0, "Heat": 1})
    heating.value = 2
    faults.append((
        "value-out-of-range",
        f"{ident(thermostat, heating_iid)} (Hallway Thermostat CurrentHeatingCoolingState) has value 2, not in its "
        "valid-values [0, 1]",
    ))  # fmt: skip

    outlet, in_use_iid, in_use = find_characteristic(driver, "Coffee Maker", "OutletInUse")
    in_use.value = "yes"
    faults.append((
        "value-out-of-range",
        f"{ident(outlet, in_use_iid)} (Coffee Maker OutletInUse, format bool) has the string value \"yes\" (wrong format)",
    ))  # fmt: skip

    glow = Characteristic.from_dict(
        "Glow Level", {"Format": "uint8", "Permissions": ["pr"], "UUID": UNKNOWN_APPLE_TYPE, "minValue": 0, "maxValue": 3}
    )
    glow.value = 1
    lightbulb_service = lamp.get_service("Lightbulb")
    glow.broker = lamp
    lightbulb_service.add_characteristic(glow)
    lamp.iid_manager.assign(glow)
    faults.append((
        "unknown-apple-type",
        f"{ident(lamp, lamp.iid_manager.get_iid(glow))} (Desk Lamp, in the Lightbulb service) has type \"FF42\" "
        f"({UNKNOWN_APPLE_TYPE}), in Apple's UUID range but not defined by Apple",
    ))  # fmt: skip

    bare = bridged(driver, "Bare Switch")
    bare.services.remove(bare.get_service("AccessoryInformation"))
    faults.append(("missing-accessory-information", f"aid {bare.aid} (Bare Switch) has no Accessory Information service (3E)"))

    unlabelled = bridged(driver, "Unlabelled Outlet")
    information = unlabelled.get_service("AccessoryInformation")
    serial = information.get_characteristic("SerialNumber")
    information.characteristics.remove(serial)
    faults.append((
        "missing-accessory-information",
        f"aid {unlabelled.aid} (Unlabelled Outlet): its Accessory Information service (3E, iid "
        f"{unlabelled.iid_manager.get_iid(information)}) lacks the Serial Number characteristic (30)",
    ))  # fmt: skip

    twin, twin_on_iid, _ = find_characteristic(driver, "Twin Lamp", "On")
    _, twin_brightness_iid, twin_brightness = find_characteristic(driver, "Twin Lamp", "Brightness")
    twin.iid_manager.iids[twin_brightness] = twin_on_iid
    faults.append((
        "duplicate-iid",
        f"aid {twin.aid} (Twin Lamp): its Brightness characteristic is listed with iid {twin_on_iid}, the iid of its "
        f"On characteristic (its own iid {twin_brightness_iid} is not listed)",
    ))  # fmt: skip

    front_door = bridged(driver, "Front Door")
    shadow = bridged(driver, "Shadow Switch")
    genuine_to_hap = shadow.to_HAP
    shadow.to_HAP = lambda include_value=True: {**genuine_to_hap(include_value), "aid": front_door.aid}
    faults.append((
        "duplicate-aid",
        f"the accessory Shadow Switch (internally aid {shadow.aid}) is listed with aid {front_door.aid}, the aid of Front Door",
    ))  # fmt: skip

    def set_characteristics(original):
        def write(accessory_driver: AccessoryDriver, chars_query: dict, client_addr) -> dict | None:
            rejected: dict[tuple[int, int], tuple[int, str]] = {}
            for query in chars_query["characteristics"]:
                if "value" not in query:
                    continue
                target = bridge.get_characteristic(query["aid"], query["iid"])
                properties = target.properties
                value = query["value"]
                if "pw" not in properties["Permissions"]:
                    rejected[(query["aid"], query["iid"])] = (
                        HAP_SERVER_STATUS.READ_ONLY_CHARACTERISTIC,
                        f"{value!r} to {query['aid']}.{query['iid']} ({target.display_name}, perms {properties['Permissions']})",
                    )
                elif isinstance(value, (int, float)) and not properties.get("minValue", value) <= value <= properties.get("maxValue", value):
                    rejected[(query["aid"], query["iid"])] = (
                        HAP_SERVER_STATUS.INVALID_VALUE_IN_REQUEST,
                        f"{value!r} to {query['aid']}.{query['iid']} ({target.display_name}, minValue "
                        f"{properties.get('minValue')}, maxValue {properties.get('maxValue')})",
                    )
            if not rejected:
                return original(accessory_driver, chars_query, client_addr)
            accepted = [q for q in chars_query["characteristics"] if (q["aid"], q["iid"]) not in rejected]
            results = original(accessory_driver, {**chars_query, "characteristics": accepted}, client_addr) if accepted else None
            statuses = {(r["aid"], r["iid"]): r for r in (results or {}).get("characteristics", [])}
            answer = []
            for query in chars_query["characteristics"]:
                key = (query["aid"], query["iid"])
                if key in rejected:
                    answer.append({"aid": key[0], "iid": key[1], "status": rejected[key][0]})
                else:
                    answer.append(statuses.get(key, {"aid": key[0], "iid": key[1], "status": HAP_SERVER_STATUS.SUCCESS}))
            saboteur.misbehaviour(
                "write-rejected",
                endpoint_text(client_addr),
                "in one PUT /characteristics the controller wrote "
                + " and ".join(f"{detail}, answered status {status}" for status, detail in rejected.values())
                + ": the accessory answered 207 Multi-Status with those statuses (stock HAP-python accepts both: it "
                "ignores perms on writes, so it stores the value, and clamps the number into range, answering 204)",
            )
            return {"characteristics": answer}

        return write

    wrap(AccessoryDriver, "set_characteristics", set_characteristics)
    listings = [0]

    def misbehave(request: Request, response: HAPResponse) -> None:
        if request.command != "GET" or request.path != "/accessories":
            return
        listings[0] += 1
        if listings[0] != 1:
            return
        for rule, detail in faults:
            saboteur.misbehaviour(rule, request.client, f"in the GET /accessories response on {request.client}: {detail}")
        late = accessories.Switch(driver, "Late Switch", "HS-SWITCH-0300")
        bridge.add_accessory(late)
        saboteur.misbehaviour(
            "config-number-unchanged",
            request.client,
            f"right after answering the first GET /accessories on {request.client}, the accessory added the bridged "
            f"accessory Late Switch (aid {late.aid}) to its database without changing its configuration number "
            f"(c#={driver.state.config_version} in every advertisement); the second GET /accessories on "
            f"{request.client} lists it",
        )

    saboteur.on_response(misbehave)


async def bad_database_story(story: Story) -> None:
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    # aiohomekit's model would choke on this database, so it is read and written as raw JSON.
    connection = session.connection
    db = Database((await connection.get_json("/accessories"))["accessories"])
    lamp = db.characteristic("Desk Lamp", Types.BRIGHTNESS)
    temperature = db.characteristic("Living Room Sensor", Types.TEMPERATURE_CURRENT)
    heating = db.characteristic("Hallway Thermostat", Types.HEATING_COOLING_CURRENT)
    in_use = db.characteristic("Coffee Maker", Types.OUTLET_IN_USE)
    target = db.characteristic("Hallway Thermostat", Types.TEMPERATURE_TARGET)
    ids = ",".join(f"{aid}.{iid}" for aid, iid in (lamp, temperature, heating, in_use))
    await connection.get_json(f"/characteristics?id={ids}&meta=1&perms=1&type=1")
    with story.journal.note("writes a read-only characteristic and an out-of-range value"):
        await connection.put_json(
            "/characteristics",
            {"characteristics": [{"aid": temperature[0], "iid": temperature[1], "value": 30.0}, {"aid": target[0], "iid": target[1], "value": 45.0}]},
        )
    await connection.get_json("/accessories")
    await session.close()


# --- bad-json ---------------------------------------------------------------------------------------


def bad_json_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """Answers the second GET /accessories with a raw control character in a string, the third cut short."""
    saboteur = Saboteur(driver, journal)
    listings = [0]

    def recorded(describe) -> WriteFault:
        def apply(protocol, data: bytes, write) -> None:
            write(protocol, data)
            body_start = data.index(b"\r\n\r\n") + 4
            saboteur.misbehaviour("invalid-json", client_of(protocol), describe(len(data) - body_start, body_start))

        return apply

    def misbehave(request: Request, response: HAPResponse) -> None:
        if request.command != "GET" or request.path != "/accessories":
            return
        listings[0] += 1
        if listings[0] == 2:
            response.body = response.body.replace(b'"Desk Lamp"', b'"Desk\x07Lamp"', 1)
            offset = response.body.index(b"\x07")
            saboteur.fault_next_write(
                request.protocol,
                recorded(
                    lambda length, body_start: (
                        f"the second GET /accessories response on {request.client} has a {length}-byte body with a raw "
                        "control character (0x07) inside the string \"Desk<0x07>Lamp\" (the Desk Lamp's Name value): the "
                        f"first invalid byte is at body offset {offset} (byte {body_start + offset} of the HTTP message)"
                    )
                ),
            )
        elif listings[0] == 3:
            string_start = response.body.index(b'"Living Room Sensor"')
            response.body = response.body[: string_start + len(b'"Living Room')]
            saboteur.fault_next_write(
                request.protocol,
                recorded(
                    lambda length, body_start: (
                        f"the third GET /accessories response on {request.client} has a body cut short after {length} "
                        f"bytes, inside the string \"Living Room (Content-Length {length} matches): the JSON text ends "
                        f"unexpectedly at body offset {length} (byte {body_start + length} of the HTTP message, i.e. its "
                        f"end), in an unterminated string that starts at body offset {string_start}"
                    )
                ),
            )

    saboteur.on_response(misbehave)


async def bad_json_story(story: Story) -> None:
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    db = Database(await session.list_accessories_and_characteristics())
    # Raw requests: aiohomekit's JSON decoding would raise before the story could go on.
    await session.connection.get("/accessories")
    await session.connection.get("/accessories")
    await session.get_characteristics([db.characteristic("Desk Lamp", Types.ON)])
    await session.close()

