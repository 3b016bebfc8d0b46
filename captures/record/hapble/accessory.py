"""A HAP-over-Bluetooth-LE accessory on Bumble's GATT server, following HAP R14 chapter 7 as
HomeKitADK implements it (HAP/HAPBLE*.c, HAPPairing*.c), with its own crypto (crypto.py).

GATT layout per HAP service (HAP R14 §7.4.4): the service, a read-only Service Instance ID
characteristic (value: IID uint16 LE), and per HAP characteristic one GATT characteristic (read, write,
indicate when it has events) with a Characteristic Instance ID descriptor (IID uint16 LE) and a CCCD.
HAP PDUs are written to and read from the characteristic's value handle: a GATT write carries one
request fragment, the GATT read that follows returns one response fragment (HomeKitADK
HAPBLEProcedure.c). After pair-verify every fragment is sealed on its own with ChaCha20-Poly1305,
no AAD, nonce = per-direction counter from 0 (HAP R14 §7.4.7.2; aiohomekit controller/ble/key.py).
"""

from __future__ import annotations

import asyncio
import base64
import struct
import time
from dataclasses import dataclass, field

from bumble import gatt
from bumble.device import Device
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric import ed25519, x25519

from hapcapture.journal import Journal
from hapcapture.seeded import SeededRandomness

from . import adv, crypto, pdu, tlv
from .attlog import AttRecorder
from .database import (
    CHARACTERISTIC_INSTANCE_ID_UUID,
    SERVICE_INSTANCE_ID_UUID,
    Characteristic,
    Database,
    Service,
)

C2A = "controller-to-accessory"
A2C = "accessory-to-controller"
TAG_BYTES = 16


def raw_public(key) -> bytes:
    return key.public_key().public_bytes_raw()


@dataclass
class Identity:
    device_id: str
    setup_code: str
    setup_id: str
    category: int
    name: str
    ltsk: ed25519.Ed25519PrivateKey
    config_number: int = 1

    @property
    def ltpk(self) -> bytes:
        return raw_public(self.ltsk)


@dataclass
class Procedure:
    """One characteristic's transaction on one connection: request reassembly, then response fragments."""

    reassembler: pdu.Reassembler = field(default_factory=lambda: pdu.Reassembler(pdu.TYPE_REQUEST))
    request_fragments: list[dict] = field(default_factory=list)
    pending: list[bytes] = field(default_factory=list)  # plaintext response fragments not yet read
    current_wire: bytes | None = None  # the fragment a Read Blob continues
    response_record: dict | None = None


@dataclass
class Session:
    index: int
    connection: object
    controller_address: str
    accessory_address: str
    procedures: dict[int, Procedure] = field(default_factory=dict)
    secured: bool = False
    secure_after_response: tuple | None = None
    c2a_key: bytes | None = None
    a2c_key: bytes | None = None
    c2a_counter: int = 0
    a2c_counter: int = 0
    shared_secret: bytes | None = None
    session_name: str | None = None  # the controller's ephemeral public key (hex) of its pair-verify
    pairing_id: str | None = None
    setup: dict = field(default_factory=dict)
    verify: dict = field(default_factory=dict)
    last_att_opcode: int | None = None
    notified: bool = False


class Misbehaviour:
    """Run-time hooks for the audit scenarios; the defaults are a conforming accessory."""

    def response_tid(self, accessory: "Accessory", session: Session, request: pdu.Request) -> int:
        return request.tid

    def a2c_nonce(self, accessory: "Accessory", session: Session, counter: int) -> int:
        return counter

    def seal_response(self, accessory: "Accessory", session: Session, request: pdu.Request) -> bool:
        return True

    def allow_read(self, accessory: "Accessory", session: Session, characteristic: Characteristic) -> bool:
        return False

    def disconnected_event(self, accessory: "Accessory", characteristic: Characteristic) -> bool:
        """Whether a change while disconnected bumps the GSN and is announced (HAP R14 §7.4.6.3)."""
        return True

    def bump_configuration_number(self, accessory: "Accessory", service: "Service") -> bool:
        """Whether a change of the attribute database increments the configuration number."""
        return True

    def discard_expired_broadcast_key(self, accessory: "Accessory") -> bool:
        """Whether the GSN increment from the key's expiration GSN discards the broadcast key
        (HomeKitADK HAPBLEAccessoryServerIncrementGSN, HAP R14 §7.4.7.4)."""
        return True


class Accessory:
    def __init__(
        self,
        device: Device,
        database: Database,
        identity: Identity,
        journal: Journal,
        randomness: SeededRandomness,
        *,
        response_fragment_limit: int = 512,
        pairing_fragment_limit: int | None = None,
        misbehaviour: Misbehaviour | None = None,
        advertising_interval_ms: float = 50,
    ) -> None:
        self.device = device
        self.database = database
        self.identity = identity
        self.journal = journal
        self.randomness = randomness
        self.response_fragment_limit = response_fragment_limit
        self.pairing_fragment_limit = pairing_fragment_limit
        self.misbehaviour = misbehaviour or Misbehaviour()
        self.advertising_interval_ms = advertising_interval_ms
        self.pairings: dict[str, tuple[bytes, bool]] = {}
        self.sessions: dict[int, Session] = {}
        self.session_cache: dict[bytes, tuple[bytes, str]] = {}  # HAPPairingBLESessionCache.c
        self.gsn = 1
        self.gsn_incremented_this_connection = False
        self.broadcast: dict | None = None
        self.broadcast_enabled: dict[int, int] = {}
        self.connected = False
        self.advertising = False
        self.current_advertisement: bytes | None = None
        self.advertising_lock = asyncio.Lock()
        self.tasks: set[asyncio.Task] = set()
        self.failures: list[BaseException] = []
        self.gatt_characteristics: dict[int, gatt.Characteristic] = {}
        self.by_value_handle: dict[int, Characteristic] = {}
        self.att = AttRecorder(device, journal, "accessory", C2A, A2C)
        self.att.listeners.append(self._on_att)
        self._build_gatt()
        device.on("connection", self._on_connection)

    # ----------------------------------------------------------------------------------------- GATT
    def _build_gatt(self) -> None:
        self.device.add_services([self._gatt_service(service) for service in self.database.services])
        self._index_value_handles(self.database.services)

    def _gatt_service(self, service: Service) -> gatt.Service:
        characteristics = [
            gatt.Characteristic(
                SERVICE_INSTANCE_ID_UUID, gatt.Characteristic.Properties.READ, gatt.Characteristic.READABLE,
                struct.pack("<H", service.iid),
            )
        ]
        for characteristic in service.characteristics:
            properties = gatt.Characteristic.Properties.READ | gatt.Characteristic.Properties.WRITE
            if characteristic.has("ev") or characteristic.has("de") or characteristic.has("be"):
                properties |= gatt.Characteristic.Properties.INDICATE
            gatt_characteristic = gatt.Characteristic(
                characteristic.uuid,
                properties,
                gatt.Characteristic.READABLE | gatt.Characteristic.WRITEABLE,
                gatt.CharacteristicValue(
                    read=lambda connection, c=characteristic: self._gatt_read(connection, c),
                    write=lambda connection, value, c=characteristic: self._gatt_write(connection, c, value),
                ),
                descriptors=[
                    gatt.Descriptor(CHARACTERISTIC_INSTANCE_ID_UUID, gatt.Descriptor.READABLE, struct.pack("<H", characteristic.iid))
                ],
            )
            characteristics.append(gatt_characteristic)
            self.gatt_characteristics[characteristic.iid] = gatt_characteristic
        return gatt.Service(service.uuid, characteristics)

    def _index_value_handles(self, services: list[Service]) -> None:
        for service in services:
            for characteristic in service.characteristics:
                characteristic.value_handle = self.gatt_characteristics[characteristic.iid].handle
                self.by_value_handle[characteristic.value_handle] = characteristic

    def add_service(self, service: Service) -> None:
        """A service added to the database at run time (a firmware update, a bridge gaining an accessory),
        after every existing attribute: HAP asks for a new configuration number (HomeKitADK HAP.h
        HAPAccessoryServerIncrementCN: "when an accessory, service or characteristic is added or removed"),
        which the misbehaviour hook may withhold."""
        self.database.add(service)
        self.device.add_service(self._gatt_service(service))
        self._index_value_handles([service])
        if self.misbehaviour.bump_configuration_number(self, service):
            self.identity.config_number += 1
        self.journal.write("database-change", serviceIid=service.iid, serviceType=service.uuid, configNumber=self.identity.config_number)

    def gatt_table(self) -> list[dict]:
        """Handle → attribute map for the truth file, read back from Bumble's server."""
        table = []
        iid_by_handle = {c.value_handle: c.iid for c in self.database.characteristics()}
        for attribute in self.device.gatt_server.attributes:
            entry = {"handle": attribute.handle, "type": str(attribute.type.to_hex_str("-")).upper()}
            if isinstance(attribute, gatt.Service):
                service_uuid = attribute.uuid.to_hex_str("-").upper()
                service = next((s for s in self.database.services if s.uuid == service_uuid), None)
                entry.update(kind="service", uuid=service_uuid, iid=service.iid if service else None,
                             endGroupHandle=attribute.end_group_handle)
            elif isinstance(attribute, gatt.CharacteristicDeclaration):
                entry.update(kind="characteristic-declaration", valueHandle=attribute.characteristic.handle,
                             uuid=attribute.characteristic.uuid.to_hex_str("-").upper(),
                             properties=int(attribute.characteristic.properties))
            elif attribute.handle in iid_by_handle:
                characteristic = self.by_value_handle[attribute.handle]
                entry.update(kind="characteristic-value", iid=characteristic.iid, serviceIid=characteristic.service.iid,
                             hapProperties=characteristic.properties, format=characteristic.format)
            elif entry["type"] == SERVICE_INSTANCE_ID_UUID:
                entry.update(kind="service-instance-id", value=attribute.value.hex())
            elif entry["type"] == CHARACTERISTIC_INSTANCE_ID_UUID:
                entry.update(kind="characteristic-instance-id", value=attribute.value.hex())
            elif entry["type"].startswith("00002902"):
                entry.update(kind="cccd")
            else:
                entry.update(kind="attribute")
            table.append(entry)
        return table

    # ---------------------------------------------------------------------------------- advertising
    async def advertise(self, manufacturer_data: bytes | None = None, reason: str = "regular") -> None:
        """(Re)starts advertising with the regular or an encrypted-notification advertisement."""
        async with self.advertising_lock:
            await self._advertise(manufacturer_data, reason)

    async def _advertise(self, manufacturer_data: bytes | None, reason: str) -> None:
        if self.connected:
            return  # HomeKitADK ...+Advertising.c: no advertising while a controller is connected
        data = manufacturer_data or adv.regular(
            paired=bool(self.pairings), device_id=self.identity.device_id, category=self.identity.category,
            gsn=self.gsn, config_number=self.identity.config_number, setup_id=self.identity.setup_id,
        )
        if self.advertising:
            await self.device.stop_advertising()
        payload = adv.ad_structures(data, self.identity.name)
        self.current_advertisement = data
        self.journal.write("advertisement", manufacturerData=data.hex(), reason=reason, advertisingData=payload.hex())
        await self.device.start_advertising(
            advertising_data=payload,
            advertising_interval_min=self.advertising_interval_ms,
            advertising_interval_max=self.advertising_interval_ms,
        )
        self.advertising = True

    # --------------------------------------------------------------------------------- connections
    def _on_connection(self, connection) -> None:
        from .radio import address_text

        index = self.att.connection_index(connection.handle)
        session = Session(index, connection, address_text(connection.peer_address), address_text(connection.self_address))
        self.sessions[connection.handle] = session
        self.connected = True
        self.advertising = False
        self.gsn_incremented_this_connection = False
        self.journal.write("connection", connection=index, event="connected", controller=session.controller_address,
                           accessory=session.accessory_address, handle=connection.handle)
        connection.on("disconnection", lambda reason, c=connection: self._on_disconnection(c, reason))

    def _on_disconnection(self, connection, reason: int) -> None:
        session = self.sessions.pop(connection.handle, None)
        if session is None:
            return
        for procedure in session.procedures.values():
            if procedure.response_record is not None:
                procedure.response_record["complete"] = False
                self.journal.write("pdu", **procedure.response_record)
        self.journal.write("connection", connection=session.index, event="disconnected", reason=reason)
        self.connected = bool(self.sessions)
        if not self.connected:
            self.spawn(self.advertise())

    def _on_att(self, index: int, direction: str, fields: dict) -> None:
        if direction == C2A:
            for session in self.sessions.values():
                if session.index == index:
                    session.last_att_opcode = fields["opcode"]

    def spawn(self, coroutine) -> None:
        """Runs `coroutine` in the background; a failure is kept and fails the recording."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)

        def done(task: asyncio.Task) -> None:
            self.tasks.discard(task)
            if not task.cancelled() and task.exception() is not None:
                self.failures.append(task.exception())

        task.add_done_callback(done)

    def session_for(self, connection) -> Session:
        return self.sessions[connection.handle]

    async def disconnect(self, session: Session) -> None:
        await session.connection.disconnect()

    # ------------------------------------------------------------------------------ GATT callbacks
    def _gatt_write(self, connection, characteristic: Characteristic, value: bytes) -> None:
        session = self.session_for(connection)
        wire = bytes(value)
        plaintext = wire
        if session.secured:
            try:
                plaintext = crypto.open_sealed(session.c2a_key, crypto.nonce_counter(session.c2a_counter), wire)
            except InvalidTag:
                self.journal.write("note", text=f"connection {session.index}: fragment failed to authenticate; link dropped")
                self.spawn(self.disconnect(session))
                return
            session.c2a_counter += 1
        procedure = session.procedures.setdefault(characteristic.iid, Procedure())
        if procedure.reassembler.complete or (plaintext and not plaintext[0] & pdu.CONTINUATION):
            procedure.reassembler = pdu.Reassembler(pdu.TYPE_REQUEST)
            procedure.request_fragments = []
        procedure.request_fragments.append({"handle": characteristic.value_handle, "wire": wire.hex(), "plaintext": plaintext.hex()})
        try:
            procedure.reassembler.add(plaintext)
        except pdu.ReassemblyError as error:
            self.journal.write("note", text=f"connection {session.index}: bad request fragment on IID {characteristic.iid}: {error}")
            procedure.reassembler = pdu.Reassembler(pdu.TYPE_REQUEST)
            return
        if not procedure.reassembler.complete:
            return
        request = procedure.reassembler.pdu()
        self.journal.write(
            "pdu", connection=session.index, direction=C2A, tid=request.tid, opcode=request.opcode, iid=request.iid,
            status=None, body=_b64(request.body), hasBody=request.body is not None, encrypted=session.secured,
            handle=characteristic.value_handle, fragments=procedure.request_fragments, complete=True,
        )
        response = self._process(session, characteristic, request)
        self._queue_response(session, characteristic, procedure, request, response)

    def _gatt_read(self, connection, characteristic: Characteristic) -> bytes:
        session = self.session_for(connection)
        procedure = session.procedures.setdefault(characteristic.iid, Procedure())
        if session.last_att_opcode == 0x0C and procedure.current_wire is not None:
            return procedure.current_wire  # Read Blob: the same GATT value, Bumble slices the offset
        if not procedure.pending:
            procedure.current_wire = b""
            return b""
        plaintext = procedure.pending.pop(0)
        record = procedure.response_record
        if record["encrypted"]:
            counter = self.misbehaviour.a2c_nonce(self, session, session.a2c_counter)
            wire = crypto.seal(session.a2c_key, crypto.nonce_counter(counter), plaintext)
            record["fragments"].append({"handle": characteristic.value_handle, "wire": wire.hex(), "plaintext": plaintext.hex(), "nonce": counter})
            session.a2c_counter = counter + 1
        else:
            wire = plaintext
            record["fragments"].append({"handle": characteristic.value_handle, "wire": wire.hex(), "plaintext": plaintext.hex()})
        procedure.current_wire = wire
        if not procedure.pending:
            self.journal.write("pdu", **record)
            procedure.response_record = None
            if session.secure_after_response is not None:
                self._start_session(session, *session.secure_after_response)
        return wire

    def _queue_response(self, session: Session, characteristic: Characteristic, procedure: Procedure,
                        request: pdu.Request, response: pdu.Response) -> None:
        response.tid = self.misbehaviour.response_tid(self, session, request)
        encrypted = session.secured and self.misbehaviour.seal_response(self, session, request)
        limit = self.response_fragment_limit - (TAG_BYTES if encrypted else 0)
        att_room = session.connection.att_mtu - 1
        fragments = pdu.fragment_response(response, limit)
        # Bumble's client reads on with Read Blob after a value of exactly MTU-1 bytes, and its server
        # answers a Read Blob at the end of such a value with an error: avoid exact multiples.
        while any((len(f) + (TAG_BYTES if encrypted else 0)) % att_room == 0 for f in fragments):
            limit -= 1
            fragments = pdu.fragment_response(response, limit)
        procedure.pending = fragments
        procedure.current_wire = None
        procedure.response_record = {
            "connection": session.index, "direction": A2C, "tid": response.tid, "opcode": request.opcode,
            "iid": request.iid, "status": response.status, "body": _b64(response.body),
            "hasBody": response.body is not None, "encrypted": encrypted, "handle": characteristic.value_handle,
            "fragments": [], "complete": True, "requestTid": request.tid,
        }

    # ---------------------------------------------------------------------------- HAP procedures
    def _process(self, session: Session, characteristic: Characteristic, request: pdu.Request) -> pdu.Response:
        """HomeKitADK HAPBLEProcedure.c HAPBLEProcedureProcessTransaction, the parts this accessory has."""
        service = characteristic.service
        service_operation = request.opcode in (pdu.OP_SERVICE_SIGNATURE_READ, pdu.OP_PROTOCOL_CONFIGURATION)
        expected_iid = service.iid if service_operation else characteristic.iid
        if request.opcode not in pdu.OPCODES:
            return pdu.Response(request.tid, pdu.STATUS_UNSUPPORTED_PDU)
        if request.iid != expected_iid and request.opcode != pdu.OP_SERVICE_SIGNATURE_READ:
            return pdu.Response(request.tid, pdu.STATUS_INVALID_INSTANCE_ID)
        body = request.body or b""
        if request.opcode == pdu.OP_SERVICE_SIGNATURE_READ:
            if characteristic.role != "service-signature":
                return pdu.Response(request.tid, pdu.STATUS_UNSUPPORTED_PDU)
            return pdu.Response(request.tid, pdu.STATUS_SUCCESS, service.signature())
        if request.opcode == pdu.OP_CHAR_SIGNATURE_READ:
            if session.secured and characteristic.role in ("pair-setup", "pair-verify", "pairing-features"):
                return pdu.Response(request.tid, pdu.STATUS_UNSUPPORTED_PDU)
            return pdu.Response(request.tid, pdu.STATUS_SUCCESS, characteristic.signature())
        if request.opcode == pdu.OP_PROTOCOL_CONFIGURATION:
            if not service.supports_configuration or not session.secured:
                return pdu.Response(request.tid, pdu.STATUS_UNSUPPORTED_PDU)
            return self._protocol_configuration(session, body, request)
        if request.opcode == pdu.OP_CHAR_CONFIGURATION:
            if not session.secured:
                return pdu.Response(request.tid, pdu.STATUS_UNSUPPORTED_PDU)
            return self._characteristic_configuration(characteristic, body, request)
        if request.opcode == pdu.OP_CHAR_TIMED_WRITE:
            if not session.secured:
                return pdu.Response(request.tid, pdu.STATUS_INSUFFICIENT_AUTHENTICATION)
            session.setup.setdefault("timed", {})[characteristic.iid] = (body, time.monotonic())
            return pdu.Response(request.tid, pdu.STATUS_SUCCESS)
        if request.opcode == pdu.OP_CHAR_EXECUTE_WRITE:
            pending = session.setup.get("timed", {}).pop(characteristic.iid, None)
            if pending is None:
                return pdu.Response(request.tid, pdu.STATUS_INVALID_REQUEST)
            return self._write(session, characteristic, pending[0], request, timed=True)
        if request.opcode == pdu.OP_CHAR_WRITE:
            return self._write(session, characteristic, body, request, timed=False)
        return self._read(session, characteristic, request)

    def _read(self, session: Session, characteristic: Characteristic, request: pdu.Request) -> pdu.Response:
        open_read = characteristic.has("open-read")
        if not session.secured and not open_read:
            if characteristic.has("pr") and self.misbehaviour.allow_read(self, session, characteristic):
                pass  # the misbehaving accessory answers anyway
            elif characteristic.has("pr"):
                return pdu.Response(request.tid, pdu.STATUS_INSUFFICIENT_AUTHENTICATION)
            else:
                return pdu.Response(request.tid, pdu.STATUS_UNSUPPORTED_PDU)
        if session.secured and not characteristic.has("pr"):
            return pdu.Response(request.tid, pdu.STATUS_UNSUPPORTED_PDU)
        if characteristic.role == "pairing-features":
            value = bytes([0])
        elif characteristic.role in ("pair-setup", "pair-verify", "pairings", "service-signature"):
            value = b""
        else:
            value = characteristic.encode_value()
        return pdu.Response(request.tid, pdu.STATUS_SUCCESS, tlv.encode([(tlv.PARAM_VALUE, value)]))

    def _write(self, session: Session, characteristic: Characteristic, body: bytes, request: pdu.Request, *, timed: bool) -> pdu.Response:
        try:
            params = tlv.decode(body)
        except ValueError:
            return pdu.Response(request.tid, pdu.STATUS_INVALID_REQUEST)
        open_write = characteristic.has("open-write") or (characteristic.role == "identify" and not self.pairings)
        if not session.secured and not open_write:
            status = pdu.STATUS_INSUFFICIENT_AUTHENTICATION if characteristic.has("pw") else pdu.STATUS_UNSUPPORTED_PDU
            return pdu.Response(request.tid, status)
        if session.secured and not characteristic.has("pw"):
            return pdu.Response(request.tid, pdu.STATUS_UNSUPPORTED_PDU)
        if characteristic.has("tw") and not timed:
            return pdu.Response(request.tid, pdu.STATUS_INVALID_REQUEST)
        if tlv.PARAM_VALUE not in params:
            return pdu.Response(request.tid, pdu.STATUS_INVALID_REQUEST)
        value = params[tlv.PARAM_VALUE]
        return_response = params.get(tlv.PARAM_RETURN_RESPONSE) == b"\x01"
        role = characteristic.role
        if role in ("pair-setup", "pair-verify", "pairings"):
            answer = self._pairing_write(session, characteristic, value)
            if answer is None:
                return pdu.Response(request.tid, pdu.STATUS_INVALID_REQUEST)
            return pdu.Response(request.tid, pdu.STATUS_SUCCESS, tlv.encode([(tlv.PARAM_VALUE, answer)]))
        if role == "identify":
            self.journal.write("identify", connection=session.index, secured=session.secured)
        else:
            try:
                new_value = characteristic.decode_value(value)
            except (ValueError, UnicodeDecodeError):
                return pdu.Response(request.tid, pdu.STATUS_INVALID_REQUEST)
            # HomeKitADK HAPBLEProcedure.c: a value the characteristic's constraints refuse fails the
            # write's handling, answered Invalid Request.
            if characteristic.valid_range is not None and not characteristic.valid_range[0] <= new_value <= characteristic.valid_range[1]:
                return pdu.Response(request.tid, pdu.STATUS_INVALID_REQUEST)
            old_value, characteristic.value = characteristic.value, new_value
            self.journal.write("write", connection=session.index, iid=characteristic.iid, value=value.hex(), timed=timed)
            if old_value != new_value:
                self.value_changed(characteristic, source=session)
        if return_response:
            # HomeKitADK HAPBLEProcedure.c: a write with response returns the value as a read would;
            # aiohomekit client.py needs a Value TLV even when it is empty (`01 00`).
            readable = characteristic.encode_value() if characteristic.has("pr") and role != "identify" else b""
            return pdu.Response(request.tid, pdu.STATUS_SUCCESS, tlv.encode([(tlv.PARAM_VALUE, readable)]))
        return pdu.Response(request.tid, pdu.STATUS_SUCCESS)

    def _characteristic_configuration(self, characteristic: Characteristic, body: bytes, request: pdu.Request) -> pdu.Response:
        # HAP R14 §7.3.5.8; aiohomekit structs.py: 0x01 properties (uint16, bit 0 = broadcast), 0x02 interval.
        params = tlv.decode(body)
        properties = int.from_bytes(params.get(0x01, b"\x00\x00"), "little")
        interval = params.get(0x02, b"\x01")[0]
        if properties & 0x0001:
            if not characteristic.has("be"):
                return pdu.Response(request.tid, pdu.STATUS_INVALID_REQUEST)
            self.broadcast_enabled[characteristic.iid] = interval
        else:
            self.broadcast_enabled.pop(characteristic.iid, None)
        self.journal.write("characteristic-configuration", iid=characteristic.iid, broadcast=bool(properties & 1), interval=interval)
        return pdu.Response(request.tid, pdu.STATUS_SUCCESS,
                            tlv.encode([(0x01, struct.pack("<H", properties & 1)), (0x02, bytes([interval]))]))

    def _protocol_configuration(self, session: Session, body: bytes, request: pdu.Request) -> pdu.Response:
        # HomeKitADK HAPBLEProtocol+Configuration.c: 0x01 Generate-Broadcast-Encryption-Key,
        # 0x02 Get-All-Params, 0x03 Set-Accessory-Advertising-Identifier; the response holds GSN (0x01,
        # uint16 LE), CN (0x02), advertising ID (0x03) and, while one is valid, the key (0x04).
        params = tlv.decode(body)
        if 0x01 in params:
            controller_ltpk = self.pairings[session.pairing_id][0]
            key = crypto.broadcast_key(session.shared_secret, controller_ltpk)
            advertising_id = params.get(0x03, adv.device_id_bytes(self.identity.device_id))
            # HomeKitADK HAPBLEAccessoryServerBroadcastGenerateKey: gsn + 32767 - 1, less 65535 above 65535.
            expires = self.gsn + 32767 - 1
            expires = expires - 65535 if expires > 65535 else expires
            self.broadcast = {"key": key, "advertisingId": advertising_id, "expiresAfterGsn": expires, "connection": session.index,
                              "gsn": self.gsn}
            self.journal.key("BROADCAST_KEY", self.identity.device_id, key)
            self.journal.write("broadcast-key", connection=session.index, session=session.session_name, key=key.hex(),
                               advertisingId=advertising_id.hex(), gsn=self.gsn, expiresAfterGsn=expires)
        if 0x02 not in params:
            return pdu.Response(request.tid, pdu.STATUS_SUCCESS)
        items = [
            (0x01, struct.pack("<H", self.gsn)),
            (0x02, bytes([(self.identity.config_number - 1) % 255 + 1])),
            (0x03, self.broadcast["advertisingId"] if self.broadcast else adv.device_id_bytes(self.identity.device_id)),
        ]
        if self.broadcast:
            items.append((0x04, self.broadcast["key"]))
        return pdu.Response(request.tid, pdu.STATUS_SUCCESS, tlv.encode(items))

    # ------------------------------------------------------------------------- events and GSN
    def increment_gsn(self) -> None:
        # HAP R14 §7.4.1.8: GSN wraps from 65535 to 1; once per connection while connected. The
        # increment from the broadcast key's expiration GSN discards the key (HomeKitADK
        # HAPBLEAccessoryServerIncrementGSN).
        if self.broadcast and self.gsn == self.broadcast["expiresAfterGsn"] and self.misbehaviour.discard_expired_broadcast_key(self):
            self.broadcast = None
            self.journal.write("note", text=f"broadcast key expired at GSN {self.gsn}: discarded")
        self.gsn = 1 if self.gsn >= 65535 else self.gsn + 1
        self.journal.write("gsn", gsn=self.gsn)

    def value_changed(self, characteristic: Characteristic, source: Session | None = None) -> None:
        """A value changed: indicate it (zero-length) to every other connected, subscribed session,
        or while disconnected bump the GSN and advertise (disconnected event, HAP R14 §7.4.6.3)."""
        if self.connected:
            if not self.gsn_incremented_this_connection:
                self.gsn_incremented_this_connection = True
                self.increment_gsn()
            for session in list(self.sessions.values()):
                if session is source or not characteristic.has("ev"):
                    continue
                self.spawn(self._indicate(session, characteristic))
            return
        if characteristic.has("de") or characteristic.has("be"):
            if not self.misbehaviour.disconnected_event(self, characteristic):
                return
            self.increment_gsn()
            if characteristic.has("be") and characteristic.iid in self.broadcast_enabled and self.broadcast:
                self.spawn(self.broadcast_notification(characteristic))
            else:
                self.spawn(self.advertise(reason="disconnected-event"))

    async def _indicate(self, session: Session, characteristic: Characteristic) -> None:
        gatt_characteristic = self.gatt_characteristics[characteristic.iid]
        self.journal.write("indication", connection=session.index, iid=characteristic.iid, handle=characteristic.value_handle)
        await self.device.indicate_subscriber(session.connection, gatt_characteristic, value=b"")

    async def broadcast_notification(self, characteristic: Characteristic) -> None:
        """HAP BLE encrypted notification advertisement with the current GSN (HAP R14 §7.4.2.2)."""
        assert self.broadcast is not None
        value = characteristic.encode_value()
        plaintext = adv.notification_plaintext(self.gsn, characteristic.iid, value)
        payload = crypto.seal_broadcast(self.broadcast["key"], self.gsn, self.broadcast["advertisingId"], plaintext)
        data = adv.encrypted_notification(self.broadcast["advertisingId"], payload)
        self.journal.write("broadcast", gsn=self.gsn, iid=characteristic.iid, value=value.hex(), plaintext=plaintext.hex(),
                           manufacturerData=data.hex())
        await self.advertise(data, reason="broadcast-notification")

    # --------------------------------------------------------------------------------- pairing
    def _pairing_write(self, session: Session, characteristic: Characteristic, value: bytes) -> bytes | None:
        """The pairing TLV exchange, with pairing-level FragmentData / FragmentLast for long answers
        (aiohomekit controller/ble/client.py _pairing_char_write acknowledges each with `0C 00`)."""
        items = tlv.decode(value)
        outgoing = session.setup.get("fragments")
        if outgoing is not None and tlv.FRAGMENT_DATA in items and not items[tlv.FRAGMENT_DATA]:
            return self._next_pairing_fragment(session)
        role = characteristic.role
        if role == "pair-setup":
            answer = self._pair_setup(session, items)
        elif role == "pair-verify":
            answer = self._pair_verify(session, items)
        else:
            answer = self._pairings(session, items)
        if answer is None:
            return None
        limit = self.pairing_fragment_limit
        if limit and len(answer) > limit:
            session.setup["fragments"] = [answer[i : i + limit] for i in range(0, len(answer), limit)]
            return self._next_pairing_fragment(session)
        return answer

    def _next_pairing_fragment(self, session: Session) -> bytes:
        chunks = session.setup["fragments"]
        chunk = chunks.pop(0)
        if chunks:
            return tlv.encode([(tlv.FRAGMENT_DATA, chunk)])
        del session.setup["fragments"]
        return tlv.encode([(tlv.FRAGMENT_LAST, chunk)])

    def _record_pairing(self, session: Session, kind: str, state: int, **fields) -> None:
        self.journal.write("pairing", connection=session.index, procedure=kind, state=state, **fields)

    def _pair_setup(self, session: Session, items: dict[int, bytes]) -> bytes | None:
        state = items.get(tlv.STATE, b"\x00")[0]
        if state == 1:
            method = items.get(tlv.METHOD, b"\x00")[0]
            self._record_pairing(session, "pair-setup", 1, method=method)
            if self.pairings:
                self._record_pairing(session, "pair-setup", 2, error=tlv.ERROR_UNAVAILABLE)
                return tlv.encode([(tlv.STATE, b"\x02"), (tlv.ERROR, bytes([tlv.ERROR_UNAVAILABLE]))])
            salt = self.randomness.bytes("srp-salt", 16)
            server = crypto.SrpServer(self.identity.setup_code, salt, self.randomness.bytes("srp-b", 32))
            session.setup["srp"] = server
            self._record_pairing(session, "pair-setup", 2, salt=salt.hex())
            return tlv.encode([(tlv.STATE, b"\x02"), (tlv.PUBLIC_KEY, server.public_b_bytes), (tlv.SALT, salt)])
        server: crypto.SrpServer | None = session.setup.get("srp")
        if state == 3 and server is not None:
            public_a = items.get(tlv.PUBLIC_KEY, b"")
            try:
                session_key = server.process_a(public_a)
            except ValueError:
                self._record_pairing(session, "pair-setup", 4, error=tlv.ERROR_AUTHENTICATION)
                return tlv.encode([(tlv.STATE, b"\x04"), (tlv.ERROR, bytes([tlv.ERROR_AUTHENTICATION]))])
            self.journal.key("PAIR_SETUP_SESSION_KEY", public_a[:32].hex(), session_key)
            proof = items.get(tlv.PROOF, b"")
            if not server.check_controller_proof(proof):
                self._record_pairing(session, "pair-setup", 4, error=tlv.ERROR_AUTHENTICATION, note="wrong setup code")
                session.setup.pop("srp", None)
                return tlv.encode([(tlv.STATE, b"\x04"), (tlv.ERROR, bytes([tlv.ERROR_AUTHENTICATION]))])
            session.setup["key"] = session_key
            self._record_pairing(session, "pair-setup", 4)
            return tlv.encode([(tlv.STATE, b"\x04"), (tlv.PROOF, server.accessory_proof(proof))])
        if state == 5 and "key" in session.setup:
            session_key = session.setup["key"]
            encrypt_key = crypto.hkdf(session_key, b"Pair-Setup-Encrypt-Salt", b"Pair-Setup-Encrypt-Info")
            try:
                sub = tlv.decode(crypto.open_sealed(encrypt_key, crypto.nonce_label(b"PS-Msg05"), items.get(tlv.ENCRYPTED_DATA, b"")))
            except InvalidTag:
                self._record_pairing(session, "pair-setup", 6, error=tlv.ERROR_AUTHENTICATION)
                return tlv.encode([(tlv.STATE, b"\x06"), (tlv.ERROR, bytes([tlv.ERROR_AUTHENTICATION]))])
            controller_id = sub[tlv.IDENTIFIER]
            controller_ltpk = sub[tlv.PUBLIC_KEY]
            controller_x = crypto.hkdf(session_key, b"Pair-Setup-Controller-Sign-Salt", b"Pair-Setup-Controller-Sign-Info")
            ed25519.Ed25519PublicKey.from_public_bytes(controller_ltpk).verify(sub[tlv.SIGNATURE], controller_x + controller_id + controller_ltpk)
            self.pairings[controller_id.decode()] = (controller_ltpk, True)
            self.journal.key("CONTROLLER_LTPK", controller_id.decode(), controller_ltpk)
            self.journal.write("controller-added", pairingId=controller_id.decode(), ltpk=controller_ltpk.hex(), admin=True)
            accessory_x = crypto.hkdf(session_key, b"Pair-Setup-Accessory-Sign-Salt", b"Pair-Setup-Accessory-Sign-Info")
            device_id = self.identity.device_id.encode()
            signature = self.identity.ltsk.sign(accessory_x + device_id + self.identity.ltpk)
            inner = tlv.encode([(tlv.IDENTIFIER, device_id), (tlv.PUBLIC_KEY, self.identity.ltpk), (tlv.SIGNATURE, signature)])
            sealed = crypto.seal(encrypt_key, crypto.nonce_label(b"PS-Msg06"), inner)
            self._record_pairing(session, "pair-setup", 6, controller=controller_id.decode())
            session.setup.clear()
            asyncio.get_running_loop().call_later(0.05, lambda: self.spawn(self.advertise(reason="paired")))
            return tlv.encode([(tlv.STATE, b"\x06"), (tlv.ENCRYPTED_DATA, sealed)])
        self._record_pairing(session, "pair-setup", state + 1, error="unexpected")
        return None

    def _pair_verify(self, session: Session, items: dict[int, bytes]) -> bytes | None:
        state = items.get(tlv.STATE, b"\x00")[0]
        if state == 1:
            controller_public = items[tlv.PUBLIC_KEY]
            session.verify = {"controller_public": controller_public}
            name = controller_public.hex()
            method = items.get(tlv.METHOD, bytes([tlv.METHOD_PAIR_VERIFY]))[0]
            self._record_pairing(session, "pair-verify", 1, method=method, controllerPublicKey=name)
            if method == tlv.METHOD_PAIR_RESUME:
                answer = self._pair_resume(session, items, controller_public)
                if answer is not None:
                    return answer
            secret = x25519.X25519PrivateKey.from_private_bytes(self.randomness.bytes("pair-verify-ephemeral", 32))
            accessory_public = raw_public(secret)
            shared = secret.exchange(x25519.X25519PublicKey.from_public_bytes(controller_public))
            session.verify.update(shared=shared, accessory_public=accessory_public)
            self.journal.key("ACCESSORY_EPHEMERAL_SECRET", accessory_public.hex(), secret.private_bytes_raw(), name)
            self.journal.key("PAIR_VERIFY_SHARED_SECRET", name, shared, name)
            device_id = self.identity.device_id.encode()
            signature = self.identity.ltsk.sign(accessory_public + device_id + controller_public)
            inner = tlv.encode([(tlv.IDENTIFIER, device_id), (tlv.SIGNATURE, signature)])
            key = crypto.hkdf(shared, b"Pair-Verify-Encrypt-Salt", b"Pair-Verify-Encrypt-Info")
            session.verify["key"] = key
            sealed = crypto.seal(key, crypto.nonce_label(b"PV-Msg02"), inner)
            self._record_pairing(session, "pair-verify", 2, accessoryPublicKey=accessory_public.hex())
            return tlv.encode([(tlv.STATE, b"\x02"), (tlv.PUBLIC_KEY, accessory_public), (tlv.ENCRYPTED_DATA, sealed)])
        if state == 3 and "key" in session.verify:
            verify = session.verify
            try:
                sub = tlv.decode(crypto.open_sealed(verify["key"], crypto.nonce_label(b"PV-Msg03"), items.get(tlv.ENCRYPTED_DATA, b"")))
                controller_id = sub[tlv.IDENTIFIER].decode()
                ltpk = self.pairings[controller_id][0]
                ed25519.Ed25519PublicKey.from_public_bytes(ltpk).verify(
                    sub[tlv.SIGNATURE], verify["controller_public"] + controller_id.encode() + verify["accessory_public"])
            except Exception as error:  # any failure of M3 is Authentication (HAP R14 §5.7.4)
                self._record_pairing(session, "pair-verify", 4, error=tlv.ERROR_AUTHENTICATION, note=type(error).__name__)
                return tlv.encode([(tlv.STATE, b"\x04"), (tlv.ERROR, bytes([tlv.ERROR_AUTHENTICATION]))])
            self._record_pairing(session, "pair-verify", 4, controller=controller_id)
            session.secure_after_response = (verify["shared"], verify["controller_public"].hex(), controller_id, "pair-verify")
            self.session_cache[crypto.resume_session_id(verify["shared"])] = (verify["shared"], controller_id)
            return tlv.encode([(tlv.STATE, b"\x04")])
        self._record_pairing(session, "pair-verify", state + 1, error="unexpected")
        return None

    def _pair_resume(self, session: Session, items: dict[int, bytes], controller_public: bytes) -> bytes | None:
        """HomeKitADK HAPPairingPairVerify.c Pair Resume M1/M2: falls back to pair-verify (None) when
        the session ID is unknown or the request's auth tag fails."""
        session_id = items.get(tlv.SESSION_ID, b"")
        cached = self.session_cache.pop(session_id, None)
        if cached is None:
            self.journal.write("note", text=f"connection {session.index}: pair-resume with unknown session ID, falling back to pair-verify")
            return None
        old_secret, controller_id = cached
        request_key = crypto.resume_request_key(old_secret, controller_public, session_id)
        try:
            crypto.open_sealed(request_key, crypto.nonce_label(b"PR-Msg01"), items.get(tlv.ENCRYPTED_DATA, b""))
        except InvalidTag:
            return None
        new_session_id = self.randomness.bytes("resume-session-id", 8)
        response_key = crypto.resume_response_key(old_secret, controller_public, new_session_id)
        tag = crypto.seal(response_key, crypto.nonce_label(b"PR-Msg02"), b"")
        shared = crypto.resumed_shared_secret(old_secret, controller_public, new_session_id)
        self.session_cache[new_session_id] = (shared, controller_id)
        name = controller_public.hex()
        self.journal.key("PAIR_VERIFY_SHARED_SECRET", name, shared, name)
        self._record_pairing(session, "pair-resume", 2, sessionId=session_id.hex(), newSessionId=new_session_id.hex(), controller=controller_id)
        session.secure_after_response = (shared, name, controller_id, "pair-resume")
        return tlv.encode([(tlv.STATE, b"\x02"), (tlv.METHOD, bytes([tlv.METHOD_PAIR_RESUME])),
                           (tlv.SESSION_ID, new_session_id), (tlv.ENCRYPTED_DATA, tag)])

    def _start_session(self, session: Session, shared: bytes, name: str, controller_id: str, how: str) -> None:
        session.secure_after_response = None
        session.c2a_key, session.a2c_key = crypto.control_keys(shared)
        session.c2a_counter = session.a2c_counter = 0
        session.shared_secret = shared
        session.session_name = name
        session.pairing_id = controller_id
        session.secured = True
        self.journal.key("CONTROL_WRITE_KEY", name, session.c2a_key, name)
        self.journal.key("CONTROL_READ_KEY", name, session.a2c_key, name)
        self.journal.write("session", connection=session.index, session=name, how=how, controller=session.controller_address,
                           accessory=session.accessory_address, pairingId=controller_id)

    def _pairings(self, session: Session, items: dict[int, bytes]) -> bytes | None:
        # HAP R14 §5.10-5.12 over the Pairings characteristic (secured session, admin only).
        method = items.get(tlv.METHOD, b"\xff")[0]
        admin = self.pairings.get(session.pairing_id or "", (b"", False))[1]
        self._record_pairing(session, "pairings", 1, method=method)
        if not admin:
            self._record_pairing(session, "pairings", 2, method=method, error=tlv.ERROR_AUTHENTICATION)
            return tlv.encode([(tlv.STATE, b"\x02"), (tlv.ERROR, bytes([tlv.ERROR_AUTHENTICATION]))])
        if method == tlv.METHOD_LIST_PAIRINGS:
            entries = []
            for number, (pairing_id, (ltpk, is_admin)) in enumerate(self.pairings.items()):
                if number:
                    entries.append((tlv.SEPARATOR, b""))
                entries += [(tlv.IDENTIFIER, pairing_id.encode()), (tlv.PUBLIC_KEY, ltpk), (tlv.PERMISSIONS, bytes([int(is_admin)]))]
            self._record_pairing(session, "pairings", 2, method=method, count=len(self.pairings))
            return tlv.encode([(tlv.STATE, b"\x02")] + entries)
        if method == tlv.METHOD_ADD_PAIRING:
            pairing_id = items[tlv.IDENTIFIER].decode()
            self.pairings[pairing_id] = (items[tlv.PUBLIC_KEY], items.get(tlv.PERMISSIONS, b"\x00") == b"\x01")
            self.journal.key("CONTROLLER_LTPK", pairing_id, items[tlv.PUBLIC_KEY])
            self.journal.write("controller-added", pairingId=pairing_id, ltpk=items[tlv.PUBLIC_KEY].hex(), admin=self.pairings[pairing_id][1])
        elif method == tlv.METHOD_REMOVE_PAIRING:
            pairing_id = items[tlv.IDENTIFIER].decode()
            self.pairings.pop(pairing_id, None)
            self.journal.write("controller-removed", pairingId=pairing_id)
        self._record_pairing(session, "pairings", 2, method=method)
        return tlv.encode([(tlv.STATE, b"\x02")])


def _b64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode("ascii")
