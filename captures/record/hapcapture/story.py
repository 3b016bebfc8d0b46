"""What a scenario's controller script works with: aiohomekit's own API plus a few helpers.

Every request a story makes goes through aiohomekit (``IpDiscovery``, ``IpPairing`` and its
``HomeKitConnection``); the helpers only choose what to ask for, retry the one known library
incompatibility, and label the messages for the ground truth.
"""

from __future__ import annotations

import asyncio
import copy
import json
import socket
import struct
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from aiohomekit.controller.ip.connection import HomeKitConnection
from aiohomekit.controller.ip.controller import IpController
from aiohomekit.controller.ip.discovery import IpDiscovery
from aiohomekit.controller.ip.pairing import IpPairing
from aiohomekit.exceptions import AuthenticationError
from aiohomekit.model.characteristics import CharacteristicsTypes
from aiohomekit.uuid import normalize_uuid
from cryptography.hazmat.primitives import serialization

from .journal import ACCESSORY_TO_CONTROLLER, CONTROLLER_TO_ACCESSORY, Journal, endpoint_text
from .seeded import SeededRandomness, seeded_ed25519_key, seeded_uuid4

# aiohomekit stores a pairing under an alias; one that is not the device id keeps the controller from
# re-reading /accessories on its own whenever the mDNS record changes, so the story alone drives requests.
PAIRING_ALIAS = "hapscope-story"
SRP_MISMATCH_ATTEMPTS = 4
# The files through which a story asks the recorder to start the capture (``record.py``) and learns that it runs.
CAPTURE_REQUEST = "capture.request"
CAPTURE_STARTED = "capture.started"
CAPTURE_START_TIMEOUT = 30.0
CAPTURE_POLL_SECONDS = 0.02
# Linux struct tcp_info (include/uapi/linux/tcp.h): tcpi_unacked (u32) at byte 24; tcpi_bytes_acked and
# tcpi_bytes_received (u64) at bytes 120 and 128, the stream bytes the peer acknowledged and the bytes received in order.
# On the side that opened the connection the acknowledged count includes the SYN (checked on this kernel: 1 after the
# handshake, 1001 after 1000 bytes), so the controller's sent bytes are one fewer.
TCP_INFO_BYTES = 136
SYN_COUNTED_AS_ACKNOWLEDGED = 1
TCP_INFO_UNACKED = struct.Struct("<I")
TCP_INFO_BYTE_COUNTS = struct.Struct("<QQ")


@dataclass(frozen=True)
class ControllerIdentity:
    """A controller pairing identity the story creates itself (for /pairings add/remove)."""

    pairing_id: str
    ltsk_hex: str
    ltpk_hex: str


class Database:
    """Finds (aid, iid) pairs by accessory name and characteristic type in an /accessories listing."""

    def __init__(self, accessories: list[dict[str, Any]]) -> None:
        self.accessories = accessories
        self._aid_by_name: dict[str, int] = {}
        for accessory in accessories:
            for service in accessory["services"]:
                for characteristic in service["characteristics"]:
                    if normalize_uuid(characteristic["type"]) == CharacteristicsTypes.NAME and "value" in characteristic:
                        self._aid_by_name.setdefault(characteristic["value"], accessory["aid"])

    def characteristic(self, accessory_name: str, characteristic_type: str) -> tuple[int, int]:
        aid = self._aid_by_name[accessory_name]
        wanted = normalize_uuid(characteristic_type)
        for accessory in self.accessories:
            if accessory["aid"] != aid:
                continue
            for service in accessory["services"]:
                for characteristic in service["characteristics"]:
                    if normalize_uuid(characteristic["type"]) == wanted:
                        return aid, characteristic["iid"]
        raise KeyError(f"{accessory_name} has no characteristic {characteristic_type}")

    def readable(self) -> list[tuple[int, int]]:
        return [
            (accessory["aid"], characteristic["iid"])
            for accessory in self.accessories
            for service in accessory["services"]
            for characteristic in service["characteristics"]
            if "pr" in characteristic.get("perms", [])
        ]


@dataclass(frozen=True)
class StreamCounters:
    """Where one TCP connection stands, as the controller's kernel counts it."""

    sent_and_acknowledged: int
    received: int
    unacknowledged_segments: int


def stream_counters(sock: Any) -> StreamCounters:
    """The kernel's byte counts of a connection this process opened (a controller connection)."""
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_BYTES)
    if len(info) < TCP_INFO_BYTES:
        raise RuntimeError(f"TCP_INFO returned {len(info)} bytes; this kernel does not count stream bytes")
    (unacked,) = TCP_INFO_UNACKED.unpack_from(info, 24)
    acked, received = TCP_INFO_BYTE_COUNTS.unpack_from(info, 120)
    return StreamCounters(acked - SYN_COUNTED_AS_ACKNOWLEDGED, received, unacked)


class Story:
    """The controller side of one scenario run."""

    def __init__(
        self,
        controller: IpController,
        journal: Journal,
        randomness: SeededRandomness,
        device_id: str,
        setup_code: str,
        workdir: Path | None = None,
    ) -> None:
        self.controller = controller
        self.journal = journal
        self.randomness = randomness
        self.device_id = device_id
        self.setup_code = setup_code
        self.workdir = workdir

    async def start_capture(self, open_connections: Iterable[HomeKitConnection]) -> None:
        """Have the recorder start the packet capture now, in the middle of the story (``capture_on_request``).

        ``open_connections`` are every connection open at this moment. For each the journal gets, from the controller's
        kernel, how many bytes each direction had carried before the capture began: that is where the captured
        streams start, which the truth turns into which messages the capture holds. The counts are taken before
        the request and again once the capture runs, and must agree: nothing may be in flight across the start.
        """
        if self.workdir is None:
            raise RuntimeError("this story runs without a work directory, so it cannot ask for a capture")
        connections = list(open_connections)
        before = [stream_counters(c.transport.get_extra_info("socket")) for c in connections]
        requested = time.time()
        (self.workdir / CAPTURE_REQUEST).write_text(f"{requested!r}\n")
        started = self.workdir / CAPTURE_STARTED
        deadline = time.monotonic() + CAPTURE_START_TIMEOUT
        while not started.exists():
            if time.monotonic() > deadline:
                raise RuntimeError(f"the recorder did not start the capture within {CAPTURE_START_TIMEOUT:.0f} s")
            await asyncio.sleep(CAPTURE_POLL_SECONDS)
        opened = json.loads(started.read_text())["opened"]
        after = [stream_counters(c.transport.get_extra_info("socket")) for c in connections]
        entries = []
        for connection, counted, recounted in zip(connections, before, after):
            client, server = self.client_of(connection), endpoint_text(connection.transport.get_extra_info("peername"))
            if counted != recounted or counted.unacknowledged_segments:
                raise RuntimeError(f"{client}: bytes were in flight while the capture started ({counted} then {recounted})")
            entries.append(
                {
                    "client": client,
                    "server": server,
                    CONTROLLER_TO_ACCESSORY: counted.sent_and_acknowledged,
                    ACCESSORY_TO_CONTROLLER: counted.received,
                }
            )
        self.journal.write("capture-start", requested=requested, opened=opened, connections=entries)

    def expect_capture_inside_frame(self, connection: HomeKitConnection, direction: str) -> None:
        """Record that the capture of ``direction`` must begin inside a frame (checked when the truth is written)."""
        self.journal.write("capture-inside-frame", client=self.client_of(connection), direction=direction)

    async def discover(self, timeout: float = 30.0) -> IpDiscovery:
        """Browse ``_hap._tcp`` and resolve the accessory (zeroconf, inside aiohomekit)."""
        return await self.controller.async_find(self.device_id, timeout)

    async def attempt_pairing(self, discovery: IpDiscovery, code: str) -> IpPairing:
        """One pair-setup M1…M6 on the discovery's connection; raises what aiohomekit raises."""
        with self.journal.note(f"pair-setup with setup code {code}"):
            finish = await discovery.async_start_pairing(PAIRING_ALIAS)
            return await finish(code)

    async def pair(self, discovery: IpDiscovery) -> IpPairing:
        """Pair-setup with the right code, retrying the HAP-python/aiohomekit SRP leading-zero mismatch.

        With the right code, an M4 Error=Authentication can only be the mismatch (PROTOCOL.md §2.3):
        about one pair-setup in 65 fails that way, and a fresh attempt draws new SRP secrets.
        """
        for attempt in range(1, SRP_MISMATCH_ATTEMPTS + 1):
            try:
                return await self.attempt_pairing(discovery, self.setup_code)
            except AuthenticationError:
                self.journal.write("srp-mismatch-retry", attempt=attempt)
        raise RuntimeError(f"pair-setup failed {SRP_MISMATCH_ATTEMPTS} times with the right setup code")

    async def expect_pairing_failure(self, discovery: IpDiscovery, wrong_code: str) -> None:
        try:
            await self.attempt_pairing(discovery, wrong_code)
        except AuthenticationError:
            return
        raise RuntimeError(f"pair-setup with the wrong code {wrong_code} succeeded")

    def session(self, pairing: IpPairing, identity: ControllerIdentity | None = None) -> IpPairing:
        """Another aiohomekit pairing object, hence another TCP connection, to the same accessory."""
        data = copy.deepcopy(pairing.pairing_data)
        if identity is not None:
            data["iOSPairingId"] = identity.pairing_id
            data["iOSDeviceLTSK"] = identity.ltsk_hex
            data["iOSDeviceLTPK"] = identity.ltpk_hex
        return IpPairing(self.controller, data)

    async def open_session(self, pairing: IpPairing, identity: ControllerIdentity | None = None) -> IpPairing:
        """A new connection with exactly one pair-verify; raises what aiohomekit raises and never reconnects.

        aiohomekit's own path (``_ensure_connected``) retries a failed pair-verify and re-opens a lost
        connection in the background; a misbehaving accessory makes both happen on purpose, and every
        retry would be one more TCP connection in the capture. Here a failure stays a failure: the caller
        closes the session, and a connection the accessory broke stays closed.
        """
        session = self.session(pairing, identity)
        session.connection.closing = True
        await session.connection._connect_once()
        return session

    async def plain_connection(self, discovery: IpDiscovery) -> HomeKitConnection:
        """A plaintext HAP connection to the accessory with no pair-verify at all (as after pair-setup M6)."""
        connection = HomeKitConnection(None, discovery.description.addresses, discovery.description.port)
        connection.closing = True
        await connection._connect_once()
        return connection

    @staticmethod
    def client_of(connection: HomeKitConnection) -> str:
        """The controller's ``ip:port`` of a connection, as the truth names connections."""
        return endpoint_text(connection.transport.get_extra_info("sockname"))

    def new_identity(self, purpose: str, upper_case: bool) -> ControllerIdentity:
        """A seeded controller identity (UUID pairing id and Ed25519 key) for /pairings requests."""
        pairing_id = str(seeded_uuid4(self.randomness, f"{purpose}-id")())
        key = seeded_ed25519_key(self.randomness, f"{purpose}-ltsk")
        public = key.public_key().public_bytes(
            encoding=serialization.Encoding.Raw, format=serialization.PublicFormat.Raw
        )
        identity = ControllerIdentity(
            pairing_id=pairing_id.upper() if upper_case else pairing_id,
            ltsk_hex=key.private_bytes_raw().hex(),
            ltpk_hex=public.hex(),
        )
        self.journal.key("CONTROLLER_LTPK", identity.pairing_id, public)
        return identity

    @staticmethod
    def sorted_ids(ids: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        # aiohomekit sends one subscription PUT per run of equal aids; sorted input means one per aid.
        return sorted(set(ids))
