"""The accessory peer: a HAP-over-CoAP accessory on aiocoap, inside its namespace.

Usage: ``python -m hapcoap.accessory --scenario NAME --seed N --workdir DIR``. Writes ``DIR/accessory.jsonl``,
creates ``DIR/accessory.ready`` once the CoAP server listens and ``_hap._udp`` is registered, and stops
cleanly (mDNS goodbye) on SIGTERM.

Resources (roysjosh/nanoleaf-ltpdu README.rst "/, /0, /1, /2 endpoints"; aiohomekit 4.0.1
controller/coap/connection.py): ``/0`` identify, ``/1`` pair-setup, ``/2`` pair-verify (TLV8 bodies as in HAP
over IP), ``/`` encrypted PDUs. Events go to the controller as a confirmable PUT to the address and port its
pair-verify came from, path ``/`` (roysjosh/nanoleaf-ltpdu issue #1: "the border router doing a CoAP PUT to
the iPhone"; aiohomekit EventResource). Block-wise transfer is aiocoap's own (its Resource assembles Block1
requests and serves Block2 responses from a cache, so one request is decrypted and answered once).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import logging
import signal
import socket
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import aiocoap
import aiocoap.numbers.constants
from aiocoap import Code, Message, resource
from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives.asymmetric import ed25519, x25519
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from zeroconf import IPVersion, ServiceInfo
from zeroconf.asyncio import AsyncZeroconf

from hapcapture import tlv8
from hapcapture.journal import ACCESSORY_TO_CONTROLLER, Journal
from hapcapture.seeded import SeededRandomness, seeded_ed25519_key, seeded_x25519_key

from . import database, hapcrypto, instrument, pdu
from .scenarios import ACCESSORY_ADDRESS, CATEGORY_LIGHTBULB, SCENARIOS, FaultPoint, Scenario

HAP_UDP = "_hap._udp.local."
EVENT_TIMEOUT = 20.0
# HAP TLV8 pairing item types and values (HAP: TLV8 types; HomeKitADK HAPPairing.h).
T_METHOD, T_IDENTIFIER, T_SALT, T_PUBLIC_KEY, T_PROOF, T_ENCRYPTED, T_STATE, T_ERROR, T_SIGNATURE = 0, 1, 2, 3, 4, 5, 6, 7, 10
ERROR_AUTHENTICATION, ERROR_UNAVAILABLE = 2, 6
# The accessory's aiocoap waits this long before an empty ACK, so that every answer it prepares in time is
# piggybacked (aiocoap's default of 0.1 s is shorter than an SRP step on a busy machine).
EMPTY_ACK_DELAY = 1.0


def pairing_tlv(*items: tuple[int, bytes | int]) -> bytes:
    return b"".join(pdu.tlv(t, bytes([v]) if isinstance(v, int) else v) for t, v in items)


def raw_public(key) -> bytes:
    return key.public_key().public_bytes_raw()


@dataclass
class Session:
    """One pair-verified controller, known by the address and port its requests come from."""

    controller: str
    controller_public: bytes
    keys: dict[str, bytes]
    receive_counter: int = 0
    send_counter: int = 0
    event_counter: int = 0
    subscriptions: set[int] = field(default_factory=set)


@dataclass
class PendingVerify:
    controller_public: bytes
    accessory_public: bytes
    shared_secret: bytes
    session_key: bytes


class ThreadAccessory:
    def __init__(self, scenario: Scenario, seed: int, workdir: Path) -> None:
        self.scenario = scenario
        self.journal = Journal(workdir / "accessory.jsonl")
        self.randomness = SeededRandomness(seed, "accessory")
        instrument.seed_aiocoap(self.randomness)
        instrument.record_coap_datagrams(self.journal, "accessory", ACCESSORY_ADDRESS)
        instrument.record_advertisements(self.journal, "." + HAP_UDP, ACCESSORY_ADDRESS)
        instrument.SEND_LISTENERS.append(self._after_send)
        aiocoap.numbers.constants.TransportTuning.EMPTY_ACK_DELAY = EMPTY_ACK_DELAY
        self.ltsk = seeded_ed25519_key(self.randomness, "accessory-ltsk")
        self.accessory = scenario.build_database(scenario.accessory_name)
        self.pairings: dict[str, bytes] = {}
        self.srp: hapcrypto.SrpServer | None = None
        self.pending: dict[str, PendingVerify] = {}
        self.sessions: dict[str, Session] = {}
        self.fault_counts: Counter[tuple[int, int]] = Counter()
        self.event_messages = 0
        self.differing_copy_of: bytes | None = None
        self.context: aiocoap.Context | None = None
        self.zeroconf: AsyncZeroconf | None = None
        self.service_info: ServiceInfo | None = None
        self.tasks: set[asyncio.Task] = set()
        self.sensor_started = False

    @property
    def endpoint(self) -> str:
        return instrument.endpoint(ACCESSORY_ADDRESS, self.scenario.port)

    # --- discovery ------------------------------------------------------------------------------

    def txt(self) -> dict[str, str]:
        setup_hash = hashlib.sha512((self.scenario.setup_id + self.scenario.device_id).encode()).digest()[:4]
        return {
            "c#": "1", "ff": "0", "id": self.scenario.device_id, "md": self.accessory_model(), "pv": "1.1",
            "s#": "1", "sf": "0" if self.pairings else "1", "ci": str(CATEGORY_LIGHTBULB),
            "sh": base64.b64encode(setup_hash).decode("ascii"),
        }  # fmt: skip

    def accessory_model(self) -> str:
        return str(self.accessory.characteristic(0x21).value)

    async def advertise(self) -> None:
        suffix = self.scenario.device_id.replace(":", "")[-6:]
        self.zeroconf = AsyncZeroconf(interfaces=[ACCESSORY_ADDRESS], ip_version=IPVersion.V6Only)
        self.service_info = ServiceInfo(
            HAP_UDP,
            f"{self.scenario.accessory_name} {suffix}.{HAP_UDP}",
            addresses=[socket.inet_pton(socket.AF_INET6, ACCESSORY_ADDRESS)],
            port=self.scenario.port,
            properties=self.txt(),
            server=f"hapscope-thread-{suffix}.local.",
        )
        await self.zeroconf.async_register_service(self.service_info)

    async def readvertise(self) -> None:
        assert self.zeroconf is not None and self.service_info is not None
        self.service_info = ServiceInfo(
            # `addresses` holds the IPv4 ones only: the IPv6 address must be carried over explicitly,
            # or the update's SRV goes out without its AAAA record (RFC 6763 §12.2).
            HAP_UDP, self.service_info.name, addresses=self.service_info.addresses_by_version(IPVersion.All), port=self.service_info.port,
            properties=self.txt(), server=self.service_info.server,
        )  # fmt: skip
        await self.zeroconf.async_update_service(self.service_info)

    # --- pair-setup (/1) ------------------------------------------------------------------------

    def pair_setup(self, body: bytes) -> bytes:
        items = tlv8.decode(body)
        state = tlv8.integer(items, T_STATE)
        if state == 1:
            if self.pairings:
                return pairing_tlv((T_STATE, 2), (T_ERROR, ERROR_UNAVAILABLE))
            self.srp = hapcrypto.SrpServer(
                self.scenario.setup_code, self.randomness.bytes("srp-salt", 16), self.randomness.bytes("srp-b", 32)
            )
            return pairing_tlv((T_STATE, 2), (T_SALT, self.srp.salt), (T_PUBLIC_KEY, self.srp.public_b))
        if state == 3 and self.srp is not None:
            proof = self.srp.verify_client(items[T_PUBLIC_KEY], items[T_PROOF])
            if proof is None:
                return pairing_tlv((T_STATE, 4), (T_ERROR, ERROR_AUTHENTICATION))
            self.journal.key("PAIR_SETUP_SESSION_KEY", items[T_PUBLIC_KEY][:32].hex(), self.srp.session_key)
            return pairing_tlv((T_STATE, 4), (T_PROOF, proof))
        if state == 5 and self.srp is not None and self.srp.session_key is not None:
            return self.pair_setup_exchange(items[T_ENCRYPTED], self.srp.session_key)
        return pairing_tlv((T_STATE, (state or 0) + 1), (T_ERROR, ERROR_AUTHENTICATION))

    def pair_setup_exchange(self, sealed: bytes, session_key: bytes) -> bytes:
        """HAP: Pair Setup M5 → M6: store the controller's LTPK, answer with the accessory's, both signed."""
        encrypt_key = hapcrypto.hkdf(session_key, b"Pair-Setup-Encrypt-Salt", b"Pair-Setup-Encrypt-Info")
        cipher = ChaCha20Poly1305(encrypt_key)
        try:
            inner = tlv8.decode(cipher.decrypt(hapcrypto.pairing_nonce(b"PS-Msg05"), sealed, None))
            controller_x = hapcrypto.hkdf(session_key, b"Pair-Setup-Controller-Sign-Salt", b"Pair-Setup-Controller-Sign-Info")
            pairing_id, ltpk = inner[T_IDENTIFIER], inner[T_PUBLIC_KEY]
            ed25519.Ed25519PublicKey.from_public_bytes(ltpk).verify(inner[T_SIGNATURE], controller_x + pairing_id + ltpk)
        except (InvalidTag, InvalidSignature, KeyError):
            return pairing_tlv((T_STATE, 6), (T_ERROR, ERROR_AUTHENTICATION))
        identifier = pairing_id.decode("utf-8")
        self.pairings[identifier] = ltpk
        self.journal.write("pairing-stored", pairing_id=identifier, ltpk=ltpk.hex(), admin=True)
        self.journal.key("CONTROLLER_LTPK", identifier, ltpk)
        accessory_x = hapcrypto.hkdf(session_key, b"Pair-Setup-Accessory-Sign-Salt", b"Pair-Setup-Accessory-Sign-Info")
        device_id = self.scenario.device_id.encode("ascii")
        accessory_ltpk = raw_public(self.ltsk)
        signature = self.ltsk.sign(accessory_x + device_id + accessory_ltpk)
        sub = pairing_tlv((T_IDENTIFIER, device_id), (T_PUBLIC_KEY, accessory_ltpk), (T_SIGNATURE, signature))
        sealed_reply = cipher.encrypt(hapcrypto.pairing_nonce(b"PS-Msg06"), sub, None)
        self.spawn(self.readvertise())
        return pairing_tlv((T_STATE, 6), (T_ENCRYPTED, sealed_reply))

    # --- pair-verify (/2) -----------------------------------------------------------------------

    def pair_verify(self, body: bytes, controller: str) -> bytes:
        items = tlv8.decode(body)
        state = tlv8.integer(items, T_STATE)
        if state == 1:
            controller_public = items[T_PUBLIC_KEY]
            ephemeral = seeded_x25519_key(self.randomness, "pair-verify-ephemeral")
            accessory_public = raw_public(ephemeral)
            shared = ephemeral.exchange(x25519.X25519PublicKey.from_public_bytes(controller_public))
            session = controller_public.hex()
            self.journal.key("ACCESSORY_EPHEMERAL_SECRET", accessory_public.hex(), ephemeral.private_bytes_raw(), session)
            self.journal.key("PAIR_VERIFY_SHARED_SECRET", session, shared, session)
            session_key = hapcrypto.hkdf(shared, b"Pair-Verify-Encrypt-Salt", b"Pair-Verify-Encrypt-Info")
            device_id = self.scenario.device_id.encode("ascii")
            signature = self.ltsk.sign(accessory_public + device_id + controller_public)
            sub = pairing_tlv((T_IDENTIFIER, device_id), (T_SIGNATURE, signature))
            sealed = ChaCha20Poly1305(session_key).encrypt(hapcrypto.pairing_nonce(b"PV-Msg02"), sub, None)
            self.pending[controller] = PendingVerify(controller_public, accessory_public, shared, session_key)
            return pairing_tlv((T_STATE, 2), (T_PUBLIC_KEY, accessory_public), (T_ENCRYPTED, sealed))
        pending = self.pending.pop(controller, None)
        if state == 3 and pending is not None:
            try:
                cipher = ChaCha20Poly1305(pending.session_key)
                inner = tlv8.decode(cipher.decrypt(hapcrypto.pairing_nonce(b"PV-Msg03"), items[T_ENCRYPTED], None))
                pairing_id = inner[T_IDENTIFIER]
                ltpk = self.pairings[pairing_id.decode("utf-8")]
                info = pending.controller_public + pairing_id + pending.accessory_public
                ed25519.Ed25519PublicKey.from_public_bytes(ltpk).verify(inner[T_SIGNATURE], info)
            except (InvalidTag, InvalidSignature, KeyError, UnicodeDecodeError):
                return pairing_tlv((T_STATE, 4), (T_ERROR, ERROR_AUTHENTICATION))
            keys = hapcrypto.session_keys(pending.shared_secret)
            session = pending.controller_public.hex()
            for label, key in keys.items():
                self.journal.key(label, session, key, session)
            self.journal.write("session-endpoints", session=session, controller=controller, accessory=self.endpoint)
            self.sessions[controller] = Session(controller, pending.controller_public, keys)
            return pairing_tlv((T_STATE, 4))
        return pairing_tlv((T_STATE, (state or 0) + 1), (T_ERROR, ERROR_AUTHENTICATION))

    # --- encrypted PDUs (/) ---------------------------------------------------------------------

    async def encrypted_request(self, request: Message, controller: str) -> Message:
        session = self.sessions.get(controller)
        if session is None:
            self.journal.observation(f"an encrypted request from {controller}, which has no session: answered 4.04")
            return Message(code=Code.NOT_FOUND)
        try:
            plaintext = hapcrypto.open_sealed(session.keys["CONTROL_WRITE_KEY"], session.receive_counter, request.payload)
        except InvalidTag:
            self.journal.observation(
                f"a request from {controller} does not open with counter {session.receive_counter}: answered 4.04"
            )
            return Message(code=Code.NOT_FOUND)
        self.journal.write("pdus-opened", controller=controller, counter=session.receive_counter,
                           plaintext=base64.b64encode(plaintext).decode("ascii"))  # fmt: skip
        session.receive_counter += 1
        requests = pdu.split_requests(plaintext)
        faults = self.scenario.faults
        point = self.fault_point(requests)
        late = next((f for f in faults.late if f.at == point), None)
        drift = next((f for f in faults.drifts if f.at == point), None)
        in_plaintext = point is not None and point in faults.plaintext_at
        responses = b"".join(self.answer(session, r).encode() for r in requests)
        if late is not None:
            self.journal.misbehaviour(
                "late-response", controller,
                f"the response to the read of iid {point.iid} (message ID {request.mid}, token {request.token.hex()}) is "
                f"sent {late.delay:.0f} s after the request; aiohomekit waits 16 s",
            )  # fmt: skip
            await asyncio.sleep(late.delay)
        if in_plaintext:
            self.journal.misbehaviour(
                "plaintext-after-encryption", controller,
                f"the response to the read of iid {point.iid} is sent unencrypted ({len(responses)} bytes) after "
                f"{session.send_counter} encrypted responses",
            )  # fmt: skip
            self.journal_pdus("response", controller, responses, responses, None, None)
            return Message(code=Code.CHANGED, payload=responses)
        counter = session.send_counter + (drift.skip if drift else 0)
        if drift is not None:
            self.journal.misbehaviour(
                "counter-drift", controller,
                f"the response to the read of iid {point.iid} is sealed with counter {counter} where "
                f"{session.send_counter} was due (skips {drift.skip})",
            )  # fmt: skip
        session.send_counter = counter + 1
        sealed = hapcrypto.seal(session.keys["CONTROL_READ_KEY"], counter, responses)
        self.journal_pdus("response", controller, responses, sealed, counter, "control")
        return Message(code=Code.CHANGED, payload=sealed)

    def fault_point(self, requests: list[pdu.Request]) -> FaultPoint | None:
        """Single-PDU requests are counted per (opcode, iid); scenario faults name one of them."""
        if len(requests) != 1:
            return None
        key = (requests[0].opcode, requests[0].iid)
        self.fault_counts[key] += 1
        return FaultPoint(key[0], key[1], self.fault_counts[key])

    def journal_pdus(self, kind: str, controller: str, plaintext: bytes, payload: bytes,
                     counter: int | None, key_kind: str | None) -> None:  # fmt: skip
        self.journal.write(
            "pdus-sealed", direction=ACCESSORY_TO_CONTROLLER, pdu_kind=kind, controller=controller, counter=counter,
            key_kind=key_kind, plaintext=base64.b64encode(plaintext).decode("ascii"),
            payload=base64.b64encode(payload).decode("ascii"),
        )  # fmt: skip

    def answer(self, session: Session, request: pdu.Request) -> pdu.Response:
        if request.opcode == pdu.OPCODE_DATABASE and request.iid == 0:
            return pdu.Response(request.tid, pdu.STATUS_SUCCESS, self.accessory.encode_database())
        characteristic = self.accessory.by_iid.get(request.iid)
        if request.opcode not in (pdu.OPCODE_READ, pdu.OPCODE_WRITE, pdu.OPCODE_SUBSCRIBE, pdu.OPCODE_UNSUBSCRIBE):
            return pdu.Response(request.tid, pdu.STATUS_UNSUPPORTED_PDU)
        if characteristic is None:
            return pdu.Response(request.tid, pdu.STATUS_INVALID_INSTANCE_ID)
        if request.opcode == pdu.OPCODE_READ:
            if not characteristic.readable or characteristic.value is None:
                return pdu.Response(request.tid, pdu.STATUS_INVALID_REQUEST)
            value = database.encode_value(characteristic.format, characteristic.value)
            return pdu.Response(request.tid, pdu.STATUS_SUCCESS, pdu.value_body(value))
        if request.opcode == pdu.OPCODE_WRITE:
            raw = pdu.value_of(request.body)
            if not characteristic.writable or raw is None:
                return pdu.Response(request.tid, pdu.STATUS_INVALID_REQUEST)
            self.write(characteristic, database.decode_value(characteristic.format, raw))
            return pdu.Response(request.tid, pdu.STATUS_SUCCESS)
        if request.opcode == pdu.OPCODE_SUBSCRIBE:
            if not characteristic.notifies:
                return pdu.Response(request.tid, pdu.STATUS_INVALID_REQUEST)
            session.subscriptions.add(request.iid)
            if characteristic.type in (database.apple_uuid(0x11), database.apple_uuid(0x10)) and not self.sensor_started:
                self.sensor_started = True
                self.spawn(self.step_sensor())
            return pdu.Response(request.tid, pdu.STATUS_SUCCESS)
        session.subscriptions.discard(request.iid)
        return pdu.Response(request.tid, pdu.STATUS_SUCCESS)

    def write(self, characteristic: database.Characteristic, value: object) -> None:
        characteristic.value = value
        if characteristic.type == database.apple_uuid(0x14):
            self.journal.write("identify", via="identify characteristic")
        if characteristic.type == database.apple_uuid(0x1E):
            self.spawn(self.settle_lock(value))

    async def settle_lock(self, target: object) -> None:
        """The lock reaches its target 0.3 s after the write and notifies its current state."""
        await asyncio.sleep(0.3)
        current = self.accessory.characteristic(0x1D)
        current.value = target
        await self.notify([current.iid])

    async def step_sensor(self) -> None:
        """Three steps of temperature and humidity, one a second from 0.5 s after the first subscription."""
        temperature, humidity = self.accessory.characteristic(0x11), self.accessory.characteristic(0x10)
        await asyncio.sleep(0.5)
        for _ in range(3):
            temperature.value = round(float(temperature.value) + 0.1, 1)
            humidity.value = float(humidity.value) + 1.0  # whole steps: the declared minimum step is 1.0
            await self.notify([temperature.iid, humidity.iid])
            await asyncio.sleep(self.scenario.event_interval)

    async def notify(self, iids: list[int]) -> None:
        for session in list(self.sessions.values()):
            wanted = [iid for iid in iids if iid in session.subscriptions]
            if not wanted:
                continue
            records = b"".join(self.event_record(iid).encode() for iid in wanted)
            counter = session.event_counter
            session.event_counter += 1
            sealed = hapcrypto.seal(session.keys["EVENT_READ_KEY"], counter, records)
            self.journal_pdus("event", session.controller, records, sealed, counter, "event")
            self.event_messages += 1
            if self.event_messages == self.scenario.faults.differing_event_copy:
                self.differing_copy_of = sealed
                self.prepare_differing_copy(session, wanted, counter)
            self.spawn(self.put_event(session.controller, sealed))

    def event_record(self, iid: int, value: object | None = None) -> pdu.EventRecord:
        characteristic = self.accessory.by_iid[iid]
        value = characteristic.value if value is None else value
        return pdu.EventRecord(iid, pdu.value_body(database.encode_value(characteristic.format, value)))

    def prepare_differing_copy(self, session: Session, iids: list[int], counter: int) -> None:
        temperature = self.accessory.characteristic(0x11)
        records = b"".join(
            self.event_record(iid, float(temperature.value) + 5.0 if iid == temperature.iid else None).encode()
            for iid in iids
        )
        self.differing_payload = hapcrypto.seal(session.keys["EVENT_READ_KEY"], counter, records)
        self.differing_plaintext = records
        self.differing_controller = session.controller
        self.differing_counter = counter

    def _after_send(self, interface, message) -> None:
        """Send the scenario's differing copy of an event 0.3 s after the original went out."""
        if self.differing_copy_of is None or message.code != Code.PUT or message.payload != self.differing_copy_of:
            return
        self.differing_copy_of = None
        copy = message.copy(payload=self.differing_payload)
        self.journal.misbehaviour(
            "retransmission-differs", self.differing_controller,
            f"event PUT message ID {message.mid} token {message.token.hex()} is sent again 0.3 s later with the same "
            f"message ID and token but a temperature 5.0 higher, sealed under the same event counter",
        )  # fmt: skip
        self.journal_pdus("event", self.differing_controller, self.differing_plaintext, self.differing_payload,
                          self.differing_counter, "event")  # fmt: skip
        asyncio.get_running_loop().call_later(0.3, interface.send, copy)

    async def put_event(self, controller: str, sealed: bytes) -> None:
        assert self.context is not None
        request = Message(code=Code.PUT, uri=f"coap://{controller}/", payload=sealed)
        try:
            async with asyncio.timeout(EVENT_TIMEOUT):
                response = await self.context.request(request).response
            self.journal.write("event-answered", controller=controller, code=str(response.code))
        except (aiocoap.error.Error, TimeoutError) as error:
            self.journal.observation(f"the event PUT to {controller} got no answer: {type(error).__name__} {error}")

    def spawn(self, coroutine) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # --- the server ------------------------------------------------------------------------------

    def site(self) -> resource.Site:
        site = resource.Site()
        site.add_resource([], Handler(self.encrypted_request))
        site.add_resource(["0"], Handler(self.identify))
        site.add_resource(["1"], Handler(lambda request, _: self.tlv_response(self.pair_setup(request.payload))))
        site.add_resource(["2"], Handler(lambda request, c: self.tlv_response(self.pair_verify(request.payload, c))))
        return site

    @staticmethod
    async def tlv_response(body: bytes) -> Message:
        return Message(code=Code.CHANGED, payload=body)

    async def identify(self, request: Message, controller: str) -> Message:
        self.journal.write("identify", via="/0", controller=controller)
        return Message(code=Code.CHANGED)

    async def serve(self) -> None:
        self.context = await aiocoap.Context.create_server_context(self.site(), bind=(ACCESSORY_ADDRESS, self.scenario.port))
        await self.advertise()
        ltpk = raw_public(self.ltsk)
        self.journal.write(
            "accessory", name=self.scenario.accessory_name, device_id=self.scenario.device_id, address=ACCESSORY_ADDRESS,
            port=self.scenario.port, category=CATEGORY_LIGHTBULB, ltpk=ltpk.hex(), setup_code=self.scenario.setup_code,
            setup_id=self.scenario.setup_id,
        )  # fmt: skip
        self.journal.key("ACCESSORY_LTPK", self.scenario.device_id, ltpk)

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        if self.zeroconf is not None:
            await self.zeroconf.async_unregister_all_services()
            await self.zeroconf.async_close()
        if self.context is not None:
            await self.context.shutdown()
        self.journal.write("stopped")
        self.journal.close()


class Handler(resource.Resource):
    """Routes a POST (or PUT) to one of the accessory's handlers with the requester's endpoint."""

    def __init__(self, handle) -> None:
        super().__init__()
        self.handle = handle

    async def render_post(self, request: Message) -> Message:
        host, port = request.remote.sockaddr[:2]
        return await self.handle(request, instrument.endpoint(host, port))


async def run(scenario: Scenario, seed: int, workdir: Path) -> None:
    accessory = ThreadAccessory(scenario, seed, workdir)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await accessory.serve()
    (workdir / "accessory.ready").write_text("ready\n")
    await stop.wait()
    await accessory.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenario", required=True, choices=sorted(SCENARIOS))
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--workdir", type=Path, required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s accessory %(name)s: %(message)s")
    asyncio.run(run(SCENARIOS[args.scenario], args.seed, args.workdir))


if __name__ == "__main__":
    main()
