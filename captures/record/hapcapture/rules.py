"""A reference check of the audit rules, run by the verifier on every capture of the corpus.

hapscope's ``audit`` reports security and conformance findings; every rule has a misbehaving capture
that must trigger it, and the clean captures must trigger none. This module checks that from the other
side: it looks for each rule's violation in a recorded scenario (its truth messages, timed by the
capture, its key log, the mDNS packets on the wire and the frame anomalies ``frames.walk`` found) and
returns what it finds; the verifier then requires the findings to name exactly the (rule, connection)
pairs the truth file declares under ``misbehaviours``. It is the toolkit's own corroboration, written
from PROTOCOL.md, not hapscope's implementation.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import parse_qs, urlsplit

import pyhap
import zeroconf
from aiohomekit.model.characteristics import CharacteristicsTypes
from aiohomekit.model.services import ServicesTypes
from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ed25519
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from . import http, tlv8
from .journal import ACCESSORY_TO_CONTROLLER, CONTROLLER_TO_ACCESSORY

APPLE_SUFFIX = "-0000-1000-8000-0026BB765291"
SRP_MODULUS = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B"
    "302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE6"
    "49286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D"
    "670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF695581718"
    "3995497CEA956AE515D2261898FA051015728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7D"
    "B3970F85A6E1E4C7ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
    "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF",
    16,
)
SRP_KEY_BYTES = 384
SRP_SALT_BYTES = 16
ACCESSORY_INFORMATION = "3E"
REQUIRED_INFORMATION = {"14": "Identify", "20": "Manufacturer", "21": "Model", "23": "Name", "30": "Serial Number", "52": "Firmware Revision"}
KNOWN_CATEGORIES = range(1, 37)  # PROTOCOL.md §7
MAC_LIKE = re.compile(r"[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}")
VERSION_LIKE = re.compile(r"\d+\.\d+")
FAILED_ATTEMPTS_FOR_BRUTE_FORCE = 5
BRUTE_FORCE_WINDOW_SECONDS = 60.0
# An accessory re-announces right after pairing (HAP-python within 20 ms in the clean corpus); an
# answer already on its way may still say sf=1, so an advertisement counts only once it is this far past.
PAIRING_CHANGE_GRACE_SECONDS = 0.1
INTEGER_FORMATS = {"uint8": (0, 255), "uint16": (0, 65535), "uint32": (0, 2**32 - 1), "uint64": (0, 2**64 - 1), "int": (-(2**31), 2**31 - 1)}
STATUS_READ_ONLY, STATUS_INVALID_VALUE = -70404, -70410
# What a controller may ask before pair-verify (an unpaired accessory also answers POST /identify).
UNAUTHENTICATED_PATHS = ("/pair-setup", "/pair-verify", "/identify")
CATALOGUE = Path(__file__).resolve().parent / "catalogue"
NAME, CONFIGURED_NAME, SERVICE_SIGNATURE = "23", "E3", "A5"
# HAP perms strings (PROTOCOL.md §6; HomeKitADK HAPIPAccessory.c emits exactly these seven).
KNOWN_PERMS = {"pr", "pw", "ev", "aa", "tw", "wr", "hd"}
# Names HomeKit accepts: Apple's HomeKit Human Interface Guidelines ("use only alphanumeric, space, and
# apostrophe characters; start and end with an alphabetic or numeric character; don't include emojis"),
# as HAP-NodeJS checks them since PR #1009 (src/lib/util/checkName.ts), with the common punctuation its PR
# #1119 admits in the middle (& ! . _ : ; ( ) / , - and the typographic apostrophe). Only names outside
# this wider set are flagged, so the check is silent on every name the Home app is known to accept.
VALID_NAME = re.compile(r"^[^\W_](?:[\w \u00a0\u2019'&!.:;()/,-]*[^\W_])?$")
# Limits. HAP Specification (R2 onwards, quoted in brutella/hc issue #206): "A bridge must not expose more
# than 150 HAP accessory objects"; HomeKitADK HAP/HAP.h kHAPAccessoryServerMaxBridgedAccessories = 149
# bridged accessories plus the bridge, asserted by HAPAccessoryServerStartBridge (HAPAccessoryServer.c).
MAX_ACCESSORIES = 150
# HAP-NodeJS src/lib/Accessory.ts MAX_SERVICES = 100 ("Cannot add more than 100 services to a single
# accessory!") and src/lib/Service.ts MAX_CHARACTERISTICS = 100 ("HAP spec allows a maximum of 100
# characteristics per service!").
MAX_SERVICES_PER_ACCESSORY = 100
MAX_CHARACTERISTICS_PER_SERVICE = 100
# No source we could find documents how large an /accessories body controllers read (not ADK, HAP-NodeJS,
# HAP-python, aiohomekit, homekit_python nor Apple's HomeKit documentation). This limit is the toolkit's
# stated assumption, above every real database in the reference set (the largest, an ecobee3 lite, is
# under 100 KB as dumped) and above large-bridge's 44 KB: an /accessories body of more than 128 KiB.
MAX_DATABASE_BYTES = 128 * 1024
# A controller that rejects a database removes its own pairing on its first session, having asked for
# nothing but /accessories (what iOS does when it cannot use an accessory's database).
REJECTING_SESSION_PATHS = ("/accessories",)

# "No Response": how long a controller waits, from the stacks that say. HAP-NodeJS warns that a read or write
# handler "was slow to respond" after 3 s and answers -70408 (operation timed out) after 10 s in all
# (src/lib/Accessory.ts, handleGetCharacteristics and handleSetCharacteristics; src/lib/Characteristic.ts: "HAP-NodeJS
# will complain about slow running get handlers after 3 seconds and terminate the request after 10 seconds");
# HAP-python gives its own delayed responses 9 s (pyhap/hap_handler.py RESPONSE_TIMEOUT); aiohomekit waits 30 s for a
# response, then shuts the connection (aiohomekit/controller/ip/connection.py InsecureHomeKitProtocol._send_lines:
# write_eof, close). A response later than HAP-NodeJS's first mark is slow; measured from the captured segment that
# completed the request to the one that completed the response.
SLOW_RESPONSE_SECONDS = 3.0
# -70402: "unable to communicate with the requested service" (PROTOCOL.md §5.5); some devices send it positive (§8 #15).
SERVICE_COMMUNICATION_FAILURE = (-70402, 70402)
# HAP R17 §6.8 as HomeKitADK quotes it (HAP/HAPIPAccessoryServer.c, schedule_event_notifications, with
# kHAPIPAccessoryServer_MaxEventNotificationDelay = 1 s): "Network-based notifications must be coalesced by the
# accessory using a delay of no less than 1 second", save for characteristics whose events must be delivered at once
# (ADK names Programmable Switch Event; HAP-python's IMMEDIATE_NOTIFY in pyhap/characteristic.py has it and Button
# Event). With a delay of 1 s at most two EVENTs for one characteristic fall into any second, so three within one
# second are a burst. (Stock HAP-python coalesces for 0.5 s, pyhap/hap_protocol.py EVENT_COALESCE_TIME_WINDOW: three
# of its EVENTs span at least 1 s, and the clean corpus never comes near.)
EVENT_COALESCING_SECONDS = 1.0
EVENTS_IN_A_BURST = 3
IMMEDIATE_EVENT_TYPES = {"73", "126"}  # Programmable Switch Event, Button Event
# HomeKitADK writes EVENTs only to a session that waits for a request and holds none of it
# (HAP/HAPIPAccessoryServer.c schedule_event_notifications: state Reading and an empty inbound buffer), so never
# between a request and its response. An accessory may send one just before it has read a request already on the
# wire; an EVENT this long after the request was complete was sent with the request outstanding.
REQUEST_READ_ALLOWANCE_SECONDS = 0.1


@dataclass(frozen=True)
class Finding:
    rule: str
    connection: str | None
    detail: str


@dataclass
class TimedMessage:
    direction: str
    encrypted: bool
    data: bytes
    time: float  # capture time of the segment that completed the message

    @property
    def http(self) -> http.HttpMessage:
        return http.parse(self.data)


@dataclass
class TracedConnection:
    client: str
    messages: list[TimedMessage]
    # The capture joined the connection after it began (a mid-session capture): what came before is unseen.
    started_before_capture: bool = False
    # The first FIN or RST in the capture: (capture time, what and from whom), if the capture saw one.
    closed: tuple[float, str] | None = None

    def sent(self, direction: str) -> list[TimedMessage]:
        return [message for message in self.messages if message.direction == direction]

    def exchanges(self) -> tuple[list[tuple[TimedMessage, TimedMessage | None]], list[TimedMessage]]:
        """Requests with their responses (HAP answers in order; EVENTs are not responses), and leftover responses."""
        requests = self.sent(CONTROLLER_TO_ACCESSORY)
        responses = [m for m in self.sent(ACCESSORY_TO_CONTROLLER) if not m.http.is_event]
        pairs = [(request, responses[index] if index < len(responses) else None) for index, request in enumerate(requests)]
        return pairs, responses[len(requests) :]


@dataclass(frozen=True)
class MdnsResponse:
    time: float
    message: zeroconf.DNSIncoming


def hkdf(key: bytes, salt: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA512(), length=32, salt=salt, info=info).derive(key)


def padded_nonce(text: bytes) -> bytes:
    return text.rjust(12, b"\0")


def tlv(message: http.HttpMessage) -> dict[int, bytes]:
    return tlv8.decode(message.body) if message.body else {}


def json_body(message: http.HttpMessage) -> Any:
    """The body as JSON, strictly (no NaN/Infinity, no raw control characters); ValueError otherwise."""

    def reject(constant: str) -> None:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(message.body.decode("utf-8"), parse_constant=reject)


def json_entries(message: http.HttpMessage) -> list[dict[str, Any]]:
    """The ``characteristics`` entries of a JSON body; none when the body is not JSON (``invalid-json``'s case)."""
    try:
        return json_body(message).get("characteristics", [])
    except ValueError:
        return []


def short_type(uuid_or_short: str) -> str | None:
    """The short form of an Apple-range type, or None for a type outside Apple's range."""
    text = uuid_or_short.upper()
    if text.endswith(APPLE_SUFFIX):
        return text[: -len(APPLE_SUFFIX)].lstrip("0") or "0"
    if re.fullmatch(r"[0-9A-F]{1,8}", text):
        return text.lstrip("0") or "0"
    return None


def known_apple_types() -> set[str]:
    """Every Apple type aiohomekit or HAP-python knows (from Apple's metadata and the HAP spec)."""
    known = {
        short_type(value)
        for table in (CharacteristicsTypes, ServicesTypes)
        for value in vars(table).values()
        if isinstance(value, str) and value.upper().endswith(APPLE_SUFFIX)
    }
    resources = os.path.join(os.path.dirname(pyhap.__file__), "resources")
    for name in ("characteristics.json", "services.json"):
        with open(os.path.join(resources, name), encoding="utf-8") as handle:
            known |= {short_type(entry["UUID"]) for entry in json.load(handle).values()}
    return {value for value in known if value is not None}


# --- the pairings an accessory holds over time --------------------------------------------------------


@dataclass
class PairingTimeline:
    """Pairings stored and removed, in capture time, rebuilt from the pairing messages themselves."""

    events: list[tuple[float, str, str, bool]] = field(default_factory=list)  # (time, add/remove, id, admin)

    def add(self, time: float, pairing_id: str, admin: bool) -> None:
        self.events.append((time, "add", pairing_id.lower(), admin))

    def remove(self, time: float, pairing_id: str) -> None:
        self.events.append((time, "remove", pairing_id.lower(), False))

    def at(self, time: float) -> dict[str, bool]:
        """Pairing id → admin, as stored at ``time``."""
        stored: dict[str, bool] = {}
        for when, action, pairing_id, admin in sorted(self.events):
            if when > time:
                break
            if action == "add":
                stored[pairing_id] = admin
            else:
                stored.pop(pairing_id, None)
                if not any(stored.values()):
                    stored.clear()  # removing the last admin removes every pairing (HAP; HAP-python does so)
        return stored

    def changes(self) -> list[float]:
        return sorted(event[0] for event in self.events)


def pair_setup_controller_id(m5: bytes, session_key: bytes) -> str | None:
    sealed = tlv8.decode(m5).get(0x05)
    if sealed is None:
        return None
    key = hkdf(session_key, b"Pair-Setup-Encrypt-Salt", b"Pair-Setup-Encrypt-Info")
    try:
        inner = tlv8.decode(ChaCha20Poly1305(key).decrypt(padded_nonce(b"PS-Msg05"), sealed, b""))
    except InvalidTag:
        return None
    return inner[0x01].decode("utf-8")


def pairing_timeline(connections: list[TracedConnection], keys: dict[str, dict[str, bytes]]) -> PairingTimeline:
    timeline = PairingTimeline()
    for connection in connections:
        session_key = None
        for request, response in connection.exchanges()[0]:
            asked = request.http
            if asked.method != "POST" or response is None:
                continue
            items, answer = tlv(asked), tlv(response.http)
            if 0x07 in answer:
                continue
            state = tlv8.integer(items, tlv8.STATE)
            if asked.path == "/pair-setup" and state == 3:
                session_key = keys.get("PAIR_SETUP_SESSION_KEY", {}).get(items[0x03][:32].hex())
            elif asked.path == "/pair-setup" and state == 5 and session_key is not None:
                pairing_id = pair_setup_controller_id(asked.body, session_key)
                if pairing_id is not None:
                    timeline.add(response.time, pairing_id, admin=True)
            elif asked.path == "/pairings" and tlv8.integer(items, tlv8.METHOD) == tlv8.METHOD_ADD_PAIRING:
                timeline.add(response.time, items[0x01].decode("utf-8"), admin=bool(tlv8.integer(items, 0x0B)))
            elif asked.path == "/pairings" and tlv8.integer(items, tlv8.METHOD) == tlv8.METHOD_REMOVE_PAIRING:
                timeline.remove(response.time, items[0x01].decode("utf-8"))
    return timeline


# --- pair-verify --------------------------------------------------------------------------------------


@dataclass
class PairVerify:
    client: str
    controller_public: bytes
    accessory_public: bytes | None = None
    accessory_id: str | None = None
    accessory_signature: bytes | None = None
    controller_id: str | None = None
    succeeded: bool = False
    failed_at: float | None = None  # when an M2 or M4 with an Error item was on the wire


def pair_verifies(connections: list[TracedConnection], keys: dict[str, dict[str, bytes]]) -> list[PairVerify]:
    """Every pair-verify, with its M2 and M3 contents opened with the logged shared secret."""
    found: list[PairVerify] = []
    for connection in connections:
        current: PairVerify | None = None
        for request, response in connection.exchanges()[0]:
            if request.http.path != "/pair-verify" or response is None:
                continue
            items, answer = tlv(request.http), tlv(response.http)
            state = tlv8.integer(items, tlv8.STATE)
            if state == 1:
                current = PairVerify(connection.client, items[0x03])
                found.append(current)
                if 0x07 in answer:
                    current.failed_at = response.time
                shared = keys.get("PAIR_VERIFY_SHARED_SECRET", {}).get(current.controller_public.hex())
                if 0x03 in answer and 0x05 in answer and shared is not None:
                    current.accessory_public = answer[0x03]
                    inner = open_verify_message(shared, b"PV-Msg02", answer[0x05])
                    if inner is not None:
                        current.accessory_id = inner.get(0x01, b"").decode("utf-8")
                        current.accessory_signature = inner.get(0x0A)
            elif state == 3 and current is not None:
                shared = keys.get("PAIR_VERIFY_SHARED_SECRET", {}).get(current.controller_public.hex())
                inner = open_verify_message(shared, b"PV-Msg03", items.get(0x05, b"")) if shared else None
                if inner is not None:
                    current.controller_id = inner.get(0x01, b"").decode("utf-8")
                current.succeeded = 0x07 not in answer
                if 0x07 in answer:
                    current.failed_at = response.time
    return found


def open_verify_message(shared: bytes, label: bytes, sealed: bytes) -> dict[int, bytes] | None:
    key = hkdf(shared, b"Pair-Verify-Encrypt-Salt", b"Pair-Verify-Encrypt-Info")
    try:
        return tlv8.decode(ChaCha20Poly1305(key).decrypt(padded_nonce(label), sealed, b""))
    except InvalidTag:
        return None


# --- the rules ----------------------------------------------------------------------------------------


class Checker:
    def __init__(
        self,
        truth: dict[str, Any],
        keys: dict[str, dict[str, bytes]],
        connections: list[TracedConnection],
        mdns: list[MdnsResponse],
        previous: PreviousCapture | None = None,
    ) -> None:
        self.truth = truth
        self.keys = keys
        self.connections = connections
        self.mdns = mdns
        self.previous = previous
        self.findings: list[Finding] = []
        self.timeline = pairing_timeline(connections, keys)
        self.verifies = pair_verifies(connections, keys)

    def find(self, rule: str, connection: str | None, detail: str) -> None:
        self.findings.append(Finding(rule, connection, detail))

    def run(self) -> list[Finding]:
        for check in (
            self.requests, self.pair_setups, self.verification, self.pairing_admin, self.events,
            self.discovery, self.databases, self.writes, self.json_bodies, self.compliance, self.limits,
            self.lost_pairings, self.across_captures, self.responsiveness, self.event_timing,
        ):  # fmt: skip
            check()
        return self.findings

    # requests and responses
    def requests(self) -> None:
        for connection in self.connections:
            pairs, leftovers = connection.exchanges()
            for request, response in pairs:
                asked = request.http
                if request.encrypted or asked.path in UNAUTHENTICATED_PATHS or response is None:
                    continue
                if 200 <= response.http.status < 300:
                    self.find("unverified-request", connection.client, f"{asked.start_line} answered {response.http.start_line}")
            for response in leftovers:
                self.find("response-without-request", connection.client, f"{response.http.start_line} with no request left")

    # pair-setup
    def pair_setups(self) -> None:
        salts: dict[bytes, str] = {}
        failures: list[tuple[float, str]] = []
        throttled = False
        for connection in self.connections:
            m3: dict[int, bytes] = {}
            for request, response in connection.exchanges()[0]:
                if request.http.path != "/pair-setup" or response is None:
                    continue
                items, answer = tlv(request.http), tlv(response.http)
                state = tlv8.integer(items, tlv8.STATE)
                error = tlv8.integer(answer, tlv8.ERROR)
                throttled |= error in (3, 5)
                if state == 1 and error is None:
                    self.check_m2(connection.client, response.time, answer, salts)
                    # Only the downgrade counts: Method 0 (PairSetup) to an accessory that advertises its Apple
                    # Authentication Coprocessor skips that authentication. Method 1 (PairSetupWithAuth) to one
                    # that advertises none skips nothing: HomeKitADK answers a normal M2 and fails the setup at
                    # M4 (HAPPairingPairSetup.c HAPPairingPairSetupGetM4: "Apple Authentication Coprocessor is
                    # not available", kHAPError_InvalidState, which HAPIPAccessoryServer.c handle_pairing_data
                    # answers with 500), HAP-python ignores Method. homekit_python sends Method 1 to every
                    # accessory (its Methods.PairSetup = 1; captures homekit-python-controller, issue 17).
                    if self.advertised_ff_bit0() and tlv8.integer(items, tlv8.METHOD) == 0:
                        self.find("ff-mismatch", connection.client, "ff=1 advertised, pair-setup M1 uses Method 0")
                elif state == 3:
                    m3 = items
                    public_a = int.from_bytes(items[0x03], "big")
                    if len(items[0x03]) > SRP_KEY_BYTES or public_a % SRP_MODULUS == 0:
                        self.find("srp-malformed", connection.client, f"M3 A of {len(items[0x03])} bytes, A mod N = {public_a % SRP_MODULUS}")
                    if error == 2:
                        failures.append((response.time, connection.client))
                    elif 0x04 in answer:
                        self.check_m4_proof(connection.client, m3, answer[0x04])
        recent = [client for when, client in failures if when >= (failures[-1][0] if failures else 0) - BRUTE_FORCE_WINDOW_SECONDS]
        if len(recent) >= FAILED_ATTEMPTS_FOR_BRUTE_FORCE and not throttled:
            for client in sorted(set(recent)):
                self.find("setup-no-backoff", client, f"{len(recent)} failed pair-setups, never Backoff or MaxTries")
        code = self.truth["setupCode"]
        digits = code.replace("-", "")
        if code in ("123-45-678", "876-54-321") or len(set(digits)) == 1:
            self.find("forbidden-setup-code", None, f"setup code {code}")

    def check_m2(self, client: str, time: float, answer: dict[int, bytes], salts: dict[bytes, str]) -> None:
        salt, public_b = answer.get(0x02, b""), answer.get(0x03, b"")
        if len(salt) != SRP_SALT_BYTES:
            self.find("srp-malformed", client, f"M2 salt of {len(salt)} bytes")
        b = int.from_bytes(public_b, "big")
        if len(public_b) > SRP_KEY_BYTES or b % SRP_MODULUS == 0 or b >= SRP_MODULUS:
            self.find("srp-malformed", client, f"M2 B of {len(public_b)} bytes out of range")
        if salt in salts:
            self.find("salt-reuse", client, f"M2 salt {salt.hex()} seen before on {salts[salt]}")
        salts.setdefault(salt, client)
        if self.stored_pairings(time):
            self.find("setup-while-paired", client, "pair-setup M2 without an error while paired")

    def check_m4_proof(self, client: str, m3: dict[int, bytes], proof: bytes) -> None:
        public_a, controller_proof = m3[0x03], m3[0x04]
        session_key = self.keys.get("PAIR_SETUP_SESSION_KEY", {}).get(public_a[:32].hex())
        if session_key is None:
            return
        candidates = {
            hashlib.sha512(a + controller_proof + k).digest()
            for a in (public_a, public_a.rjust(SRP_KEY_BYTES, b"\0"))
            for k in (session_key, session_key.lstrip(b"\0"))
        }
        if proof not in candidates:
            self.find("srp-proof-mismatch", client, f"M4 proof {proof.hex()[:16]}… does not match the logged K")

    def stored_pairings(self, time: float) -> dict[str, bool]:
        return self.timeline.at(time)

    # pair-verify
    def verification(self) -> None:
        seen: dict[bytes, str] = {}
        for verify in self.verifies:
            if verify.accessory_public is not None:
                if verify.accessory_public in seen:
                    self.find("ephemeral-key-reuse", verify.client, f"accessory ephemeral key also used on {seen[verify.accessory_public]}")
                seen.setdefault(verify.accessory_public, verify.client)
            if verify.accessory_signature is None:
                continue
            ltpk = self.keys.get("ACCESSORY_LTPK", {}).get(verify.accessory_id or "")
            material = verify.accessory_public + (verify.accessory_id or "").encode("utf-8") + verify.controller_public
            try:
                if ltpk is None:
                    raise InvalidSignature
                ed25519.Ed25519PublicKey.from_public_bytes(ltpk).verify(verify.accessory_signature, material)
            except InvalidSignature:
                self.find("bad-signature", verify.client, "pair-verify M2 signature does not verify with ACCESSORY_LTPK")

    def pairing_admin(self) -> None:
        controller_of = {verify.client: verify.controller_id for verify in self.verifies if verify.succeeded}
        for connection in self.connections:
            for request, response in connection.exchanges()[0]:
                asked = request.http
                if asked.path != "/pairings" or not request.encrypted or response is None:
                    continue
                if 0x07 in tlv(response.http):
                    continue
                controller = (controller_of.get(connection.client) or "").lower()
                if not self.stored_pairings(request.time).get(controller, False):
                    method = tlv8.integer(tlv(asked), tlv8.METHOD)
                    self.find("pairing-without-admin", connection.client, f"/pairings method {method} accepted from {controller}")

    # events
    def characteristics(self) -> dict[tuple[int, int], dict[str, Any]]:
        """Every characteristic of the truth's database by (aid, iid)."""
        found = {}
        body = self.truth.get("accessoriesBody") or {}
        for accessory in body.get("accessories", []):
            for service in accessory.get("services", []):
                for characteristic in service.get("characteristics", []):
                    found[(accessory.get("aid"), characteristic.get("iid"))] = characteristic
        return found

    def events(self) -> None:
        """EVENTs for characteristics not subscribed (``unsolicited-event``) or no longer (``event-after-unsubscribe``).

        Subscriptions count from the accessory's response to the PUT that made them, in stream order. On a
        connection the capture joined mid-session a characteristic not (un)subscribed in the capture may have been
        subscribed before it: its EVENTs are not held against the accessory.
        """
        perms = {key: characteristic.get("perms", []) for key, characteristic in self.characteristics().items()}
        for connection in self.connections:
            pairs = connection.exchanges()[0]
            answered = {id(response): request for request, response in pairs if response is not None}
            subscribed: set[tuple[int, int]] = set()
            unsubscribed: set[tuple[int, int]] = set()
            for message in connection.sent(ACCESSORY_TO_CONTROLLER):
                parsed = message.http
                request = answered.get(id(message))
                if request is not None and request.http.method == "PUT" and request.http.path == "/characteristics" and parsed.status < 300:
                    for entry in json_entries(request.http):
                        if "ev" in entry:
                            key = (entry.get("aid"), entry.get("iid"))
                            if entry["ev"] in (True, 1):
                                subscribed.add(key)
                                unsubscribed.discard(key)
                            elif key in subscribed or connection.started_before_capture:
                                subscribed.discard(key)
                                unsubscribed.add(key)
                if not parsed.is_event:
                    continue
                for entry in json_entries(parsed):
                    key = (entry.get("aid"), entry.get("iid"))
                    if key in unsubscribed:
                        self.find("event-after-unsubscribe", connection.client, f"EVENT for {key[0]}.{key[1]} after the controller set ev false")
                    elif key not in subscribed and not connection.started_before_capture:
                        self.find("unsolicited-event", connection.client, f"EVENT for {key[0]}.{key[1]}, not subscribed")
                    if key in perms and "ev" not in perms[key]:
                        self.find("unsolicited-event", connection.client, f"EVENT for {key[0]}.{key[1]}, perms {perms[key]}")

    # mDNS
    def advertised_ff_bit0(self) -> bool:
        return any(int(ad["txt"].get("ff", "0") or 0) & 1 for ad in self.truth["advertisements"] if ad["txt"].get("ff", "0").isdigit())

    def discovery(self) -> None:
        setup_id = self.truth["setupId"]
        for response in self.mdns:
            records = response.message.answers()
            addresses = {record.name.lower() for record in records if isinstance(record, zeroconf.DNSAddress)}
            for record in records:
                if isinstance(record, zeroconf.DNSService) and record.ttl > 0 and record.server.lower() not in addresses:
                    self.find("srv-without-address", None, f"SRV {record.name} → {record.server} without A/AAAA")
                if isinstance(record, zeroconf.DNSText) and record.ttl > 0 and record.name.endswith("._hap._tcp.local."):
                    self.check_txt(txt_properties(record.text), setup_id)
        for ad in self.truth["advertisements"]:
            sf = ad["txt"].get("sf", "")
            if sf.isdigit() and int(sf) & 1:
                paired_throughout = self.stored_pairings(ad["time"] - PAIRING_CHANGE_GRACE_SECONDS) and self.stored_pairings(ad["time"])
                if paired_throughout:
                    self.find("sf-unpaired-while-paired", None, f"sf={sf} advertised at {ad['time']:.3f} while paired")

    def check_txt(self, txt: dict[str, str], setup_id: str) -> None:
        problems = []
        if not MAC_LIKE.fullmatch(txt.get("id", "")):
            problems.append(f"id={txt.get('id')!r}")
        if not VERSION_LIKE.fullmatch(txt.get("pv", "1.0")):
            problems.append(f"pv={txt.get('pv')!r}")
        ci = txt.get("ci", "")
        if not ci.isdigit() or int(ci) not in KNOWN_CATEGORIES:
            problems.append(f"ci={ci!r}")
        for key in ("c#", "s#", "sf", "ff"):
            if key in txt and not txt[key].isdigit():
                problems.append(f"{key}={txt[key]!r}")
        if problems:
            self.find("txt-malformed", None, ", ".join(problems))
        if "sh" in txt and MAC_LIKE.fullmatch(txt.get("id", "")):
            expected = base64.b64encode(hashlib.sha512((setup_id + txt["id"]).encode("ascii")).digest()[:4]).decode("ascii")
            if txt["sh"] != expected:
                self.find("setup-hash-mismatch", None, f"sh={txt['sh']} but {setup_id} gives {expected}")

    # the accessory database
    def accessories_responses(self) -> Iterable[tuple[str, TimedMessage, Any]]:
        for connection in self.connections:
            for request, response in connection.exchanges()[0]:
                if request.http.method == "GET" and request.http.path == "/accessories" and response is not None:
                    try:
                        yield connection.client, response, json_body(response.http)
                    except ValueError:
                        continue

    def databases(self) -> None:
        known = known_apple_types()
        structures: list[tuple[float, str, frozenset]] = []
        for client, response, body in self.accessories_responses():
            structure = set()
            aids: set[int] = set()
            for accessory in body.get("accessories", []):
                aid = accessory.get("aid")
                if aid in aids:
                    self.find("duplicate-aid", client, f"aid {aid} listed twice")
                aids.add(aid)
                iids: set[int] = set()
                information = None
                for service in accessory.get("services", []):
                    members = [service, *service.get("characteristics", [])]
                    for member in members:
                        if member.get("iid") in iids:
                            self.find("duplicate-iid", client, f"aid {aid} iid {member.get('iid')} listed twice")
                        iids.add(member.get("iid"))
                        kind = short_type(str(member.get("type", "")))
                        if kind is not None and kind not in known:
                            self.find("unknown-apple-type", client, f"aid {aid} iid {member.get('iid')} type {member.get('type')}")
                        structure.add((aid, member.get("iid"), str(member.get("type", "")).upper()))
                    if short_type(str(service.get("type", ""))) == ACCESSORY_INFORMATION:
                        information = service
                    for characteristic in service.get("characteristics", []):
                        self.check_value(client, aid, characteristic)
                if information is None:
                    self.find("missing-accessory-information", client, f"aid {aid} has no 3E service")
                else:
                    present = {short_type(str(c.get("type", ""))) for c in information.get("characteristics", [])}
                    missing = sorted(set(REQUIRED_INFORMATION) - present)
                    if missing:
                        self.find("missing-accessory-information", client, f"aid {aid} 3E lacks {missing}")
            structures.append((response.time, client, frozenset(structure)))
        structures.sort(key=lambda entry: entry[0])
        for (earlier, _, before), (later, client, after) in zip(structures, structures[1:]):
            if before != after and len(self.config_numbers(earlier, later)) == 1:
                self.find("config-number-unchanged", client, f"database changed between {earlier:.3f} and {later:.3f}, c# did not")

    def config_numbers(self, start: float, end: float) -> set[str]:
        """The c# advertised last before ``start`` and every c# advertised up to ``end``."""
        ads = sorted(self.truth["advertisements"], key=lambda ad: ad["time"])
        before = [ad["txt"].get("c#") for ad in ads if ad["time"] <= start]
        during = {ad["txt"].get("c#") for ad in ads if start < ad["time"] <= end}
        return ({before[-1]} if before else set()) | during

    def check_value(self, client: str, aid: int, characteristic: dict[str, Any]) -> None:
        if "value" not in characteristic or characteristic["value"] is None:
            return
        value, kind, where = characteristic["value"], characteristic.get("format"), f"{aid}.{characteristic.get('iid')}"
        numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
        if kind == "bool":
            fits = value in (True, False) or (numeric and value in (0, 1))
        elif kind in INTEGER_FORMATS:
            fits = numeric and float(value).is_integer()
        elif kind == "float":
            fits = numeric and math.isfinite(value)
        elif kind in ("string", "tlv8", "data"):
            fits = isinstance(value, str)
        else:
            fits = True
        if not fits:
            self.find("value-out-of-range", client, f"{where} format {kind} value {value!r}")
            return
        if not numeric or kind == "bool":
            return
        low, high = characteristic.get("minValue"), characteristic.get("maxValue")
        if (low is not None and value < low) or (high is not None and value > high):
            self.find("value-out-of-range", client, f"{where} value {value} outside [{low}, {high}]")
        step = characteristic.get("minStep")
        if step:
            on_grid = any(abs(round((value - base) / step) - (value - base) / step) < 1e-6 for base in {low or 0, 0})
            if not on_grid:
                self.find("value-out-of-range", client, f"{where} value {value} off the minStep {step} grid")
        valid = characteristic.get("valid-values")
        if valid is not None and value not in valid:
            self.find("value-out-of-range", client, f"{where} value {value} not in valid-values {valid}")

    def writes(self) -> None:
        for connection in self.connections:
            for request, response in connection.exchanges()[0]:
                asked = request.http
                if asked.method != "PUT" or asked.path != "/characteristics" or response is None or response.http.status != 207:
                    continue
                statuses = {entry.get("status") for entry in json_entries(response.http)}
                rejected = statuses & {STATUS_READ_ONLY, STATUS_INVALID_VALUE}
                if rejected:
                    self.find("write-rejected", connection.client, f"207 with statuses {sorted(rejected)}")

    # "No Response": late, failed and missing answers
    def responsiveness(self) -> None:
        for connection in self.connections:
            outstanding = []
            for request, response in connection.exchanges()[0]:
                asked = request.http.start_line
                if response is None:
                    outstanding.append(request)
                    self.find("unanswered-request", connection.client, f"{asked} at {request.time:.3f} never answered")
                    continue
                waited = response.time - request.time
                if waited > SLOW_RESPONSE_SECONDS:
                    self.find("slow-response", connection.client, f"{asked} answered after {waited:.2f} s")
                failed = [status for status in statuses(response.http) if status in SERVICE_COMMUNICATION_FAILURE]
                if failed:
                    self.find("service-communication-failure", connection.client, f"{asked} answered {response.http.start_line} with status {failed[0]}")
            if connection.closed is not None and outstanding:
                when, how = connection.closed
                waiting = [request for request in outstanding if request.time < when]
                if waiting:
                    self.find(
                        "closed-with-outstanding-requests",
                        connection.client,
                        f"{how} at {when:.3f} with {len(waiting)} request(s) unanswered, the first {waiting[0].http.start_line}",
                    )

    # event timing: bursts, and EVENTs while a request is outstanding
    def event_timing(self) -> None:
        types = {key: short_type(str(c.get("type", ""))) for key, c in self.characteristics().items()}
        for connection in self.connections:
            times: dict[tuple[int, int], list[float]] = {}
            requests = connection.sent(CONTROLLER_TO_ACCESSORY)
            answered = 0
            for message in connection.sent(ACCESSORY_TO_CONTROLLER):
                if not message.http.is_event:
                    answered += 1
                    continue
                pending = requests[answered] if answered < len(requests) else None
                if pending is not None and pending.time + REQUEST_READ_ALLOWANCE_SECONDS < message.time:
                    self.find(
                        "event-inside-response",
                        connection.client,
                        f"EVENT at {message.time:.3f} while {pending.http.start_line} (complete at {pending.time:.3f}) awaited its response",
                    )
                for entry in json_entries(message.http):
                    times.setdefault((entry.get("aid"), entry.get("iid")), []).append(message.time)
            for key, seen in times.items():
                if types.get(key) in IMMEDIATE_EVENT_TYPES:
                    continue
                seen.sort()
                for first, last in zip(seen, seen[EVENTS_IN_A_BURST - 1 :]):
                    if last - first < EVENT_COALESCING_SECONDS:
                        self.find(
                            "event-burst",
                            connection.client,
                            f"{len(seen)} EVENTs for {key[0]}.{key[1]}; {EVENTS_IN_A_BURST} of them within {last - first:.3f} s from {first:.3f}",
                        )
                        break

    def json_bodies(self) -> None:
        for connection in self.connections:
            answered = {id(response): request for request, response in connection.exchanges()[0] if response is not None}
            for message in connection.sent(ACCESSORY_TO_CONTROLLER):
                parsed = message.http
                if parsed.headers.get("content-type") != "application/hap+json" or not parsed.body:
                    continue
                try:
                    json_body(parsed)
                except ValueError as error:
                    request = answered.get(id(message))
                    if request is not None and metadata_read(request.http):
                        # HomeKitADK HAPIPAccessoryProtocolGetCharacteristicReadResponseBytes closes each
                        # characteristic object after "value" and writes perms/ev/meta members outside it.
                        self.find("malformed-characteristics-body", connection.client, f"{request.http.start_line}: {error}")
                    else:
                        self.find("invalid-json", connection.client, f"{parsed.start_line}: {error}")

    # the database as homes report it (issue 17): catalogue conformance
    def compliance(self) -> None:
        catalogue = Catalogue.load()
        for client, _, body in self.accessories_responses():
            for accessory in body.get("accessories", []):
                aid = accessory.get("aid")
                for service in accessory.get("services", []):
                    self.check_service(client, aid, service, catalogue)

    def check_service(self, client: str, aid: Any, service: dict[str, Any], catalogue: Catalogue) -> None:
        kind = short_type(str(service.get("type", "")))
        where = f"aid {aid} service iid {service.get('iid')} ({service.get('type')})"
        characteristics = service.get("characteristics", [])
        present = [short_type(str(c.get("type", ""))) for c in characteristics]
        definition = catalogue.services.get(kind or "")
        # The Accessory Information service has its own rule (missing-accessory-information).
        if definition is not None and kind != ACCESSORY_INFORMATION:
            missing = sorted(definition.required - set(present))
            if missing:
                self.find("missing-required-characteristic", client, f"{where} lacks required {missing}")
        names = [c for c in characteristics if short_type(str(c.get("type", ""))) == NAME]
        if len(names) > 1:
            self.find("duplicate-name", client, f"{where} has {len(names)} Name characteristics, iids {[c.get('iid') for c in names]}")
        for characteristic, short in zip(characteristics, present):
            at = f"{aid}.{characteristic.get('iid')}"
            perms = characteristic.get("perms")
            if not isinstance(perms, list) or not perms or not set(perms) <= KNOWN_PERMS:
                self.find("invalid-perms", client, f"{at} perms {perms!r}")
            known = catalogue.characteristics.get(short or "")
            if known is None:
                continue  # custom types are free; undefined Apple types are unknown-apple-type's
            if definition is not None and short not in definition.allowed:
                self.find("unexpected-characteristic", client, f"{at} ({short}) is not a characteristic of {where}")
            if characteristic.get("format") not in known.formats:
                self.find("format-mismatch", client, f"{at} ({short}) format {characteristic.get('format')!r}, catalogue {sorted(known.formats)}")
            unit = characteristic.get("unit")
            if unit is not None and known.units and unit not in known.units:
                self.find("unit-mismatch", client, f"{at} ({short}) unit {unit!r}, catalogue {sorted(known.units)}")
            if short in (NAME, CONFIGURED_NAME) and isinstance(characteristic.get("value"), str):
                if not VALID_NAME.fullmatch(characteristic["value"]):
                    self.find("invalid-name", client, f"{at} ({short}) value {characteristic['value']!r}")

    # the limits of what controllers accept
    def limits(self) -> None:
        for client, response, body in self.accessories_responses():
            accessories = body.get("accessories", [])
            if len(accessories) > MAX_ACCESSORIES:
                self.find("too-many-accessories", client, f"{len(accessories)} accessories > {MAX_ACCESSORIES}")
            for accessory in accessories:
                services = accessory.get("services", [])
                if len(services) > MAX_SERVICES_PER_ACCESSORY:
                    self.find("too-many-services", client, f"aid {accessory.get('aid')}: {len(services)} services")
                for service in services:
                    count = len(service.get("characteristics", []))
                    if count > MAX_CHARACTERISTICS_PER_SERVICE:
                        self.find("too-many-characteristics", client, f"aid {accessory.get('aid')} iid {service.get('iid')}: {count} characteristics")
            size = len(response.http.body)
            if size > MAX_DATABASE_BYTES:
                self.find("database-too-large", client, f"/accessories body of {size} bytes > {MAX_DATABASE_BYTES}")

    # pairings lost
    def lost_pairings(self) -> None:
        controller_of = {verify.client: (verify.controller_id or "").lower() for verify in self.verifies if verify.succeeded}
        for connection in self.connections:
            controller = controller_of.get(connection.client)
            asked_before: list[str] = []
            for request, response in connection.exchanges()[0]:
                asked = request.http
                if not request.encrypted or response is None:
                    continue
                items = tlv(asked) if asked.path == "/pairings" else {}
                removes_itself = (
                    tlv8.integer(items, tlv8.METHOD) == tlv8.METHOD_REMOVE_PAIRING
                    and items.get(0x01, b"").decode("utf-8").lower() == controller
                    and 0x07 not in tlv(response.http)
                )
                if removes_itself and asked_before and set(asked_before) <= set(REJECTING_SESSION_PATHS):
                    self.find("pairing-removed-after-setup", connection.client, f"{controller} removed itself after only {asked_before}")
                asked_before.append(asked.path)
        emptied = [when for when, action, _, _ in self.timeline.events if action == "remove" and not self.stored_pairings(when)]
        for verify in self.verifies:
            if verify.failed_at is None or not any(when <= verify.failed_at for when in emptied):
                continue
            if verify.controller_id is None:
                # Failed at M2, before the controller named itself: only a controller that was paired tries.
                lost = not self.stored_pairings(verify.failed_at)
            else:
                pairing_id = verify.controller_id.lower()
                history = [event for event in self.timeline.events if event[2] == pairing_id and event[0] <= verify.failed_at]
                lost = (
                    any(action == "add" for _, action, _, _ in history)
                    and not any(action == "remove" for _, action, _, _ in history)
                    and pairing_id not in self.stored_pairings(verify.failed_at)
                )
            if lost:
                self.find("verify-after-removal", verify.client, f"pair-verify by {verify.controller_id or 'a controller'} failed after every pairing was removed")
        for emptied_at in emptied:
            settled = [ad for ad in self.truth["advertisements"] if ad["time"] >= emptied_at + PAIRING_CHANGE_GRACE_SECONDS]
            # HAP-python's zeroconf still answers with the old record (sf=0) next to the new one for a while; what
            # counts is whether the accessory ever says sf=1 again.
            if settled and not any(ad["txt"].get("sf", "").isdigit() and int(ad["txt"]["sf"]) & 1 for ad in settled):
                self.find("sf-not-restored", None, f"{len(settled)} advertisements after the pairings were emptied at {emptied_at:.3f}, none with sf bit 0 set")

    # one accessory across captures (same device id and long-term key), compared with its previous capture
    def across_captures(self) -> None:
        if self.previous is None:
            return
        listings = [(response.time, client, body) for client, response, body in self.accessories_responses()]
        if not listings or self.previous.database is None or not self.truth["advertisements"]:
            return
        _, client, body = min(listings, key=lambda listing: listing[0])
        before, now = self.previous.database, body
        first_number = sorted(self.truth["advertisements"], key=lambda ad: ad["time"])[0]["txt"].get("c#")
        changed = database_structure(before) != database_structure(now)
        if changed and first_number == self.previous.config_number:
            self.find("config-number-not-bumped", client, f"database changed since {self.previous.scenario}, c# still {first_number}")
        if not changed and first_number != self.previous.config_number:
            self.find("config-number-changed-without-change", client, f"c# {self.previous.config_number} → {first_number}, database unchanged")
        old_paths, new_paths = type_paths(before), type_paths(now)
        moved = sorted(path for path in old_paths.keys() & new_paths.keys() if old_paths[path] != new_paths[path])
        if moved:
            self.find("iid-renumbered", client, f"{len(moved)} type paths kept their type but not their iids since {self.previous.scenario}")


@dataclass(frozen=True)
class ServiceDefinition:
    required: frozenset[str]
    allowed: frozenset[str]


@dataclass(frozen=True)
class CharacteristicDefinition:
    formats: frozenset[str]
    units: frozenset[str]


@dataclass(frozen=True)
class Catalogue:
    """The shared service/characteristic tables (catalogue/README.md), every source's view taken as valid.

    Required = the listed required characteristics less any a source does not require (``-req``); allowed =
    required and optional of every source (``+req``, ``+opt``), plus Service Signature (A5), which HomeKitADK
    attaches to any service with service properties (HAP/HAP.h, HAPService.properties). Formats and units:
    the table's value and every value a source gives in ``source_disagreements``.
    """

    services: dict[str, ServiceDefinition]
    characteristics: dict[str, CharacteristicDefinition]

    @classmethod
    def load(cls) -> Catalogue:
        services = {}
        with open(CATALOGUE / "services.tsv", encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                required = set(split_list(row["required_short_uuids"]))
                allowed = required | set(split_list(row["optional_short_uuids"])) | {SERVICE_SIGNATURE}
                for change in re.findall(r"([+-])(req|opt) ([0-9A-F,]+)", row["other_sources_differ"]):
                    sign, _, members = change
                    (allowed.update if sign == "+" else required.difference_update)(split_list(members))
                services[row["short_uuid"]] = ServiceDefinition(frozenset(required), frozenset(allowed))
        characteristics = {}
        with open(CATALOGUE / "characteristics.tsv", encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                disagreements = row["source_disagreements"]
                formats = {row["format"], *disputed(disagreements, "format")}
                units = {row["unit"], *disputed(disagreements, "unit")} - {""}
                characteristics[row["short_uuid"]] = CharacteristicDefinition(frozenset(formats), frozenset(units))
        return cls(services, characteristics)


def split_list(text: str) -> list[str]:
    return [item for item in text.split(",") if item]


def disputed(disagreements: str, field_name: str) -> list[str]:
    """The values sources give for ``field_name`` in a ``field: SRC=value; SRC=value | …`` cell."""
    for part in disagreements.split(" | "):
        name, _, values = part.partition(": ")
        if name == field_name:
            return [value.partition("=")[2].replace("int32", "int") for value in values.split("; ")]
    return []


def metadata_read(request: http.HttpMessage) -> bool:
    """A GET /characteristics that asks for metadata, permissions or the subscription state."""
    if request.method != "GET" or request.path != "/characteristics":
        return False
    query = parse_qs(urlsplit(request.start_line.split(" ")[1]).query)
    return any(query.get(flag) == ["1"] for flag in ("meta", "perms", "ev"))


def database_structure(body: Any) -> frozenset:
    """What a configuration number stands for: every accessory, service and characteristic, without values."""
    return frozenset(
        (accessory.get("aid"), member.get("iid"), str(member.get("type", "")).upper())
        for accessory in body.get("accessories", [])
        for service in accessory.get("services", [])
        for member in (service, *service.get("characteristics", []))
    )


def type_paths(body: Any) -> dict[tuple, tuple]:
    """(aid, service type, its occurrence, characteristic type, its occurrence) → (service iid, characteristic iid)."""
    paths: dict[tuple, tuple] = {}
    for accessory in body.get("accessories", []):
        seen_services: dict[str, int] = {}
        for service in accessory.get("services", []):
            service_type = short_type(str(service.get("type", ""))) or str(service.get("type", "")).upper()
            service_index = seen_services[service_type] = seen_services.get(service_type, -1) + 1
            seen: dict[str, int] = {}
            for characteristic in service.get("characteristics", []):
                kind = short_type(str(characteristic.get("type", ""))) or str(characteristic.get("type", "")).upper()
                index = seen[kind] = seen.get(kind, -1) + 1
                paths[(accessory.get("aid"), service_type, service_index, kind, index)] = (service.get("iid"), characteristic.get("iid"))
    return paths


@dataclass(frozen=True)
class PreviousCapture:
    """The capture of the same accessory (device id and long-term key) recorded just before this one."""

    scenario: str
    database: Any  # its last /accessories body
    config_number: str | None  # its last advertised c#

    @classmethod
    def from_truth(cls, truth: dict[str, Any]) -> PreviousCapture:
        database = None
        for connection in truth["connections"]:
            pending: list[http.HttpMessage] = []
            for message in connection["messages"]:
                parsed = http.parse(base64.b64decode(message["data"]))
                if message["direction"] == CONTROLLER_TO_ACCESSORY:
                    pending.append(parsed)
                elif not parsed.is_event and pending:
                    request = pending.pop(0)
                    if request.method == "GET" and request.path == "/accessories":
                        try:
                            database = json_body(parsed)
                        except ValueError:
                            pass
        ads = sorted(truth["advertisements"], key=lambda ad: ad["time"])
        return cls(truth["scenario"], database, ads[-1]["txt"].get("c#") if ads else None)


def statuses(message: http.HttpMessage) -> list[int]:
    """The HAP status codes a JSON body carries: its own ``status`` and each characteristic entry's."""
    try:
        body = json_body(message)
    except ValueError:
        return []
    if not isinstance(body, dict):
        return []
    found = [body["status"]] if isinstance(body.get("status"), int) else []
    return found + [entry["status"] for entry in body.get("characteristics", []) if isinstance(entry, dict) and isinstance(entry.get("status"), int)]


def txt_properties(wire_text: bytes) -> dict[str, str]:
    properties: dict[str, str] = {}
    offset = 0
    while offset < len(wire_text):
        length = wire_text[offset]
        key, _, value = wire_text[offset + 1 : offset + 1 + length].decode("utf-8", "replace").partition("=")
        properties.setdefault(key, value)
        offset += 1 + length
    return properties


def check(
    truth: dict[str, Any],
    keys: dict[str, dict[str, bytes]],
    connections: list[TracedConnection],
    mdns: list[MdnsResponse],
    previous: PreviousCapture | None = None,
) -> list[Finding]:
    return Checker(truth, keys, connections, mdns, previous).run()
