"""Run-time instrumentation of homekit_python (PyPI ``homekit``), as controller and as accessory server.

As for HAP-python and aiohomekit, the wrappers record and then call the original, and the only change in
behaviour is that randomness is seeded (SRP secrets, X25519 ephemeral keys, the controller's Ed25519 key
and pairing UUID), client ports come from a counter and zeroconf is bound to the namespace's one address.
homekit_python draws its secrets through module attributes, which is where the stand-ins go:
``homekit.crypto.srp.os`` (SRP a, b and salt), ``homekit.protocol.x25519`` / ``homekit.accessoryserver.x25519``
(ephemeral keys), ``homekit.protocol.ed25519`` (controller LTSK), ``homekit.controller.controller.uuid``
(pairing id); it derives the session keys with ``hkdf.Hkdf`` looked up in the same modules.
"""

from __future__ import annotations

import hashlib
import itertools
import threading
import time
import types
from typing import Any, Callable

import ed25519
import hkdf
import homekit.accessoryserver
import homekit.controller.controller
import homekit.controller.ip_implementation
import homekit.crypto.srp
import homekit.protocol
import homekit.zeroconf_impl
from cryptography.hazmat.primitives.asymmetric import x25519
from homekit.accessoryserver import AccessoryRequestHandler, AccessoryServerData
from homekit.crypto.srp import Srp, SrpClient
from homekit.http_impl.http_client import HomeKitHTTPConnection
from homekit.http_impl.secure_http import SecureHttp
from zeroconf import IPVersion, Zeroconf

from . import http, tlv8
from .journal import ACCESSORY_TO_CONTROLLER, CONTROLLER_TO_ACCESSORY, Journal, endpoint_text
from .recorders import RecordingEphemeralKey, record_advertisements
from .seeded import SeededRandomness, os_module_with_urandom, seeded_uuid4, seeded_x25519_key, uuid_module, x25519_module

FIRST_CLIENT_PORT = 49201
SRP_KEY_BYTES = 64
CONTROL_SALT = b"Control-Salt"
SESSION_KEY_LABELS = {
    b"Control-Write-Encryption-Key": "CONTROL_WRITE_KEY",  # controller to accessory
    b"Control-Read-Encryption-Key": "CONTROL_READ_KEY",  # accessory to controller
}
PAIR_SETUP_PATH = "/pair-setup"


def wrap(owner: Any, name: str, make: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    setattr(owner, name, make(getattr(owner, name)))


def srp_bytes(number: int) -> bytes:
    """An SRP integer as homekit_python sends and hashes it: big-endian, no leading zero bytes."""
    return bytes(Srp.to_byte_array(number))


def zeroconf_on(address: str) -> Callable[[], Zeroconf]:
    """homekit_python calls ``Zeroconf()``; this one answers and asks on the namespace's interface only."""
    return lambda: Zeroconf(interfaces=[address], ip_version=IPVersion.V6Only if ":" in address else IPVersion.V4Only)


def recording_hkdf(journal: Journal, controller_key_by_shared: dict[bytes, bytes]) -> types.SimpleNamespace:
    """A stand-in for the ``hkdf`` module that logs the two session keys derived from a known shared secret."""

    class RecordingHkdf(hkdf.Hkdf):
        def __init__(self, salt: bytes, input_key_material: bytes, hash=hashlib.sha256) -> None:
            super().__init__(salt, input_key_material, hash)
            self.hapcapture_salt = bytes(salt)
            self.hapcapture_secret = bytes(input_key_material)

        def expand(self, info: bytes = b"", length: int = 32) -> bytes:
            derived = super().expand(info, length)
            label = SESSION_KEY_LABELS.get(bytes(info))
            controller_public = controller_key_by_shared.get(self.hapcapture_secret)
            if self.hapcapture_salt == CONTROL_SALT and label is not None and controller_public is not None:
                session = controller_public.hex()
                journal.key(label, session, derived, session)
            return derived

    return types.SimpleNamespace(Hkdf=RecordingHkdf)


# --- the controller --------------------------------------------------------------------------------


class ControllerRecorder:
    """What the controller instrumentation saw that a story reports on: the Method of every pair-setup M1."""

    def __init__(self) -> None:
        self.pair_setup_methods: list[int | None] = []


def seeded_ed25519(randomness: SeededRandomness, purpose: str) -> types.SimpleNamespace:
    """A stand-in for the ``ed25519`` package whose ``create_keypair`` is seeded (it binds os.urandom at import)."""

    def create_keypair() -> tuple[ed25519.SigningKey, ed25519.VerifyingKey]:
        signing = ed25519.SigningKey(randomness.bytes(purpose, 32))
        return signing, signing.get_verifying_key()

    return types.SimpleNamespace(
        create_keypair=create_keypair,
        SigningKey=ed25519.SigningKey,
        VerifyingKey=ed25519.VerifyingKey,
        BadSignatureError=ed25519.BadSignatureError,
    )


def instrument_homekit_controller(journal: Journal, randomness: SeededRandomness, local_address: str) -> ControllerRecorder:
    recorder = ControllerRecorder()
    _record_controller_messages(journal, recorder, local_address)
    _seed_and_record_controller_pairing(journal, randomness)
    homekit.zeroconf_impl.Zeroconf = zeroconf_on(local_address)
    return recorder


def pair_setup_method(data: bytes) -> tuple[bool, int | None]:
    """Whether a request is pair-setup M1, and the Method it carries."""
    message = http.parse(data)
    if not message.is_request or message.path != PAIR_SETUP_PATH or not message.body:
        return False, None
    items = tlv8.decode(message.body)
    return tlv8.integer(items, tlv8.STATE) == 1, tlv8.integer(items, tlv8.METHOD)


def _record_controller_messages(journal: Journal, recorder: ControllerRecorder, local_address: str) -> None:
    ports = itertools.count(FIRST_CLIENT_PORT)

    def connection_init(original):
        # Every connection homekit_python opens is a HomeKitHTTPConnection (pair-setup, and each IpSession).
        def wrapper(self: HomeKitHTTPConnection, *args, **kwargs) -> None:
            kwargs.setdefault("source_address", (local_address, next(ports)))
            original(self, *args, **kwargs)

        return wrapper

    def connect(original):
        def wrapper(self: HomeKitHTTPConnection) -> None:
            original(self)
            self.hapcapture_endpoints = (endpoint_text(self.sock.getsockname()), endpoint_text(self.sock.getpeername()))
            journal.connection(client=self.hapcapture_endpoints[0], server=self.hapcapture_endpoints[1], event="connected")

        return wrapper

    def send(original):
        # HomeKitHTTPConnection._send_output joins status line, headers and body and sends them in one call.
        def wrapper(self: HomeKitHTTPConnection, data: bytes) -> None:
            if self.sock is None and self.auto_open:
                self.connect()  # what HTTPConnection.send does first, here before the message is journalled
            client, server = self.hapcapture_endpoints
            journal.message(client=client, server=server, direction=CONTROLLER_TO_ACCESSORY, encrypted=False, data=bytes(data))
            is_m1, method = pair_setup_method(bytes(data))
            if is_m1:
                recorder.pair_setup_methods.append(method)
            original(self, data)

        return wrapper

    def handle_request(original):
        # SecureHttp._handle_request gets one whole request in plaintext and cuts it into 1024-byte frames.
        def wrapper(self: SecureHttp, data: bytes):
            client, server = endpoint_text(self.sock.getsockname()), endpoint_text(self.sock.getpeername())
            journal.message(client=client, server=server, direction=CONTROLLER_TO_ACCESSORY, encrypted=True, data=bytes(data))
            return original(self, data)

        return wrapper

    def session_close(original):
        def wrapper(self) -> None:
            if getattr(self, "sock", None) is not None:
                try:
                    client, server = endpoint_text(self.sock.getsockname()), endpoint_text(self.sock.getpeername())
                    journal.connection(client=client, server=server, event="closed")
                except OSError:
                    pass  # the accessory closed it first
            original(self)

        return wrapper

    wrap(HomeKitHTTPConnection, "__init__", connection_init)
    wrap(HomeKitHTTPConnection, "connect", connect)
    wrap(HomeKitHTTPConnection, "send", send)
    wrap(SecureHttp, "_handle_request", handle_request)
    wrap(homekit.controller.ip_implementation.IpSession, "close", session_close)


def _seed_and_record_controller_pairing(journal: Journal, randomness: SeededRandomness) -> None:
    # SrpClient draws its 16-byte secret a from os.urandom once per pair-setup attempt.
    homekit.crypto.srp.os = os_module_with_urandom(randomness.urandom("srp"))
    homekit.protocol.ed25519 = seeded_ed25519(randomness, "controller-ltsk")
    homekit.controller.controller.uuid = uuid_module(seeded_uuid4(randomness, "controller-pairing-id"))

    class RecordingSrpClient(SrpClient):
        recorded = False

        def get_proof(self) -> int:
            proof = super().get_proof()
            if not self.recorded:
                self.recorded = True
                public_a = srp_bytes(self.A)
                journal.write(
                    "srp",
                    side="controller",
                    a_prefix=public_a[:32].hex(),
                    k=srp_bytes(self.get_session_key()).rjust(SRP_KEY_BYTES, b"\0").hex(),
                    a_bytes_sent=len(public_a),
                    b_bytes_received=len(srp_bytes(self.B)),
                )
            return proof

    homekit.protocol.SrpClient = RecordingSrpClient

    original_part2 = homekit.controller.controller.perform_pair_setup_part2

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

    homekit.controller.controller.perform_pair_setup_part2 = perform_pair_setup_part2

    shared_secrets: dict[bytes, bytes] = {}
    homekit.protocol.x25519 = x25519_module(
        lambda: RecordingEphemeralKey(seeded_x25519_key(randomness, "pair-verify-ephemeral"), journal, shared_secrets)
    )
    homekit.protocol.hkdf = recording_hkdf(journal, shared_secrets)


# --- the accessory server ----------------------------------------------------------------------------


class RecordingAccessoryEphemeralKey:
    """The accessory's X25519 key for one pair-verify, logging itself and the shared secret with the controller's key."""

    def __init__(self, key: x25519.X25519PrivateKey, journal: Journal, controller_key_by_shared: dict[bytes, bytes]) -> None:
        self._key = key
        self._journal = journal
        self._controller_key_by_shared = controller_key_by_shared

    def public_key(self) -> x25519.X25519PublicKey:
        return self._key.public_key()

    def exchange(self, peer_public_key: x25519.X25519PublicKey) -> bytes:
        shared = self._key.exchange(peer_public_key)
        controller_public = peer_public_key.public_bytes_raw()
        self._controller_key_by_shared[shared] = controller_public
        session = controller_public.hex()
        own_public = self._key.public_key().public_bytes_raw().hex()
        self._journal.key("ACCESSORY_EPHEMERAL_SECRET", own_public, self._key.private_bytes_raw(), session)
        self._journal.key("PAIR_VERIFY_SHARED_SECRET", session, shared, session)
        return shared


class PlaintextRecorder:
    """A handler's socket writer that passes every write through and keeps what one request's handling wrote.

    BaseHTTPRequestHandler writes a plaintext response as the buffered status line and headers, then the
    body: two writes, one HTTP message.
    """

    def __init__(self, writer: Any) -> None:
        self._writer = writer
        self._pending = bytearray()
        self.started: float | None = None  # when the first write of the pending message was made

    def write(self, data: bytes) -> int:
        if not self._pending:
            self.started = time.time()
        self._pending += data
        return self._writer.write(data)

    def take(self) -> tuple[bytes, float | None]:
        data, started = bytes(self._pending), self.started
        self._pending.clear()
        self.started = None
        return data, started

    def __getattr__(self, name: str) -> Any:
        return getattr(self._writer, name)


def instrument_homekit_accessory(journal: Journal, randomness: SeededRandomness, address: str) -> None:
    _record_accessory_messages(journal)
    _seed_and_record_accessory_pairing(journal, randomness)
    _record_peers(journal)
    homekit.accessoryserver.Zeroconf = zeroconf_on(address)
    record_advertisements(journal)


def _record_accessory_messages(journal: Journal) -> None:
    def setup(original):
        def wrapper(self: AccessoryRequestHandler) -> None:
            original(self)
            self.hapcapture_endpoints = (endpoint_text(self.client_address), endpoint_text(self.connection.getsockname()))
            # Sensor threads write EVENTs while the handler's own thread writes responses; the frames leave
            # in the order homekit_python's write lock lets them, and the journal must keep that order.
            self.hapcapture_write_lock = threading.Lock()
            self.wfile = PlaintextRecorder(self.wfile)  # setup() kept the raw writer as orig_wfile for frames
            client, server = self.hapcapture_endpoints
            journal.connection(client=client, server=server, event="accepted")

        return wrapper

    def finish(original):
        def wrapper(self: AccessoryRequestHandler) -> None:
            client, server = self.hapcapture_endpoints
            journal.connection(client=client, server=server, event="lost")
            original(self)

        return wrapper

    def handle_one_request(original):
        def wrapper(self: AccessoryRequestHandler) -> None:
            try:
                original(self)
            finally:
                # An encrypted request's response was written through write_encrypted_bytes; a plaintext one
                # went through the recorder, which hands it over whole once the handler returned.
                written, started = self.wfile.take() if isinstance(self.wfile, PlaintextRecorder) else (b"", None)
                if written:
                    client, server = self.hapcapture_endpoints
                    journal.message(
                        client=client, server=server, direction=ACCESSORY_TO_CONTROLLER, encrypted=False, data=written, at=started
                    )

        return wrapper

    def write_encrypted_bytes(original):
        # One call per response (the whole of it, read back from the handler's buffer) or EVENT, in plaintext.
        def wrapper(self: AccessoryRequestHandler, data: bytes) -> None:
            with self.hapcapture_write_lock:
                started = time.time()
                original(self, data)  # raises DisconnectedControllerError, and sends nothing, for a dead connection
                client, server = self.hapcapture_endpoints
                journal.message(
                    client=client, server=server, direction=ACCESSORY_TO_CONTROLLER, encrypted=True, data=bytes(data), at=started
                )

        return wrapper

    wrap(AccessoryRequestHandler, "setup", setup)
    wrap(AccessoryRequestHandler, "finish", finish)
    wrap(AccessoryRequestHandler, "handle_one_request", handle_one_request)
    wrap(AccessoryRequestHandler, "write_encrypted_bytes", write_encrypted_bytes)


def _seed_and_record_accessory_pairing(journal: Journal, randomness: SeededRandomness) -> None:
    # SrpServer draws its salt and then its secret b from os.urandom, once per pair-setup M1.
    homekit.crypto.srp.os = os_module_with_urandom(randomness.urandom("srp"))
    controller_key_by_shared: dict[bytes, bytes] = {}
    homekit.accessoryserver.x25519 = x25519_module(
        lambda: RecordingAccessoryEphemeralKey(
            seeded_x25519_key(randomness, "pair-verify-ephemeral"), journal, controller_key_by_shared
        )
    )
    homekit.accessoryserver.hkdf = recording_hkdf(journal, controller_key_by_shared)

    def post_pair_setup(original):
        def wrapper(self: AccessoryRequestHandler) -> None:
            items = tlv8.decode(bytes(self.body))
            original(self)
            srp = self.server.sessions[self.session_id].get("srp")
            if tlv8.integer(items, tlv8.STATE) != 3 or srp is None:
                return
            # The M3 bytes as sent: homekit_python itself keeps A only as an integer.
            proof = int.from_bytes(items.get(0x04, b""), "big")
            journal.write(
                "srp",
                side="accessory",
                a_prefix=items.get(0x03, b"")[:32].hex(),
                k=srp_bytes(srp.get_session_key()).rjust(SRP_KEY_BYTES, b"\0").hex(),
                k_bytes_used=len(srp_bytes(srp.get_session_key())),
                s_bytes_used=len(srp_bytes(srp.get_shared_secret())),
                b_bytes_sent=len(srp_bytes(srp.B)),
                proof_accepted=srp.verify_clients_proof(proof),
            )

        return wrapper

    wrap(AccessoryRequestHandler, "_post_pair_setup", post_pair_setup)


def _record_peers(journal: Journal) -> None:
    def add_peer(original):
        def wrapper(self: AccessoryServerData, pairing_id: bytes, ltpk: bytes, admin: bool) -> None:
            text = bytes(pairing_id).decode("utf-8")
            journal.write("pairing-stored", pairing_id=text, ltpk=bytes(ltpk).hex(), admin=bool(admin))
            journal.key("CONTROLLER_LTPK", text, bytes(ltpk))
            original(self, pairing_id, ltpk, admin)

        return wrapper

    def remove_peer(original):
        def wrapper(self: AccessoryServerData, pairing_id: bytes) -> None:
            original(self, pairing_id)
            journal.write("pairing-removed", pairing_id=bytes(pairing_id).decode("utf-8"), remaining=list(self.peers))

        return wrapper

    wrap(AccessoryServerData, "add_peer", add_peer)
    wrap(AccessoryServerData, "remove_peer", remove_peer)
