"""What a scenario's controller script works with: aiohomekit's own API plus a few helpers.

Every request a story makes goes through aiohomekit (``IpDiscovery``, ``IpPairing`` and its
``HomeKitConnection``); the helpers only choose what to ask for, retry the one known library
incompatibility, and label the messages for the ground truth.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Iterable

from aiohomekit.controller.ip.connection import HomeKitConnection
from aiohomekit.controller.ip.controller import IpController
from aiohomekit.controller.ip.discovery import IpDiscovery
from aiohomekit.controller.ip.pairing import IpPairing
from aiohomekit.exceptions import AuthenticationError
from aiohomekit.model.characteristics import CharacteristicsTypes
from aiohomekit.uuid import normalize_uuid
from cryptography.hazmat.primitives import serialization

from .journal import Journal, endpoint_text
from .seeded import SeededRandomness, seeded_ed25519_key, seeded_uuid4

# aiohomekit stores a pairing under an alias; one that is not the device id keeps the controller from
# re-reading /accessories on its own whenever the mDNS record changes, so the story alone drives requests.
PAIRING_ALIAS = "hapscope-story"
SRP_MISMATCH_ATTEMPTS = 4


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


class Story:
    """The controller side of one scenario run."""

    def __init__(
        self,
        controller: IpController,
        journal: Journal,
        randomness: SeededRandomness,
        device_id: str,
        setup_code: str,
    ) -> None:
        self.controller = controller
        self.journal = journal
        self.randomness = randomness
        self.device_id = device_id
        self.setup_code = setup_code

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
