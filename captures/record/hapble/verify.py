"""End-to-end check of BLE scenarios: the truth against the capture files and the key log.

``python -m hapble.verify [scenario ...]`` checks captures/ble/. For each scenario: the truth's shape;
pcap link type 201 and btsnoop header (version 1, datalink 1002 = H4); that pcap and btsnoop hold the
same HCI packets (bytes and direction, timestamps within 50 ms); that the ATT PDUs reassembled from
the capture's ACL data are exactly the truth's `att[]`; that every truth PDU's fragments are those
GATT values and decrypt with the logged session keys (counters from 0 per direction) to the
fragments that make the truth's PDU; that every broadcast decrypts with the logged BROADCAST_KEY; that
the advertisements in the capture are the truth's; and that a reference check of the four BLE audit
rules finds exactly the (rule, connection) pairs the truth's `misbehaviours` declare.
"""

from __future__ import annotations

import base64
import json
import struct
import sys
from pathlib import Path

from cryptography.exceptions import InvalidTag

from . import crypto, pdu

CORPUS = Path(__file__).resolve().parents[2] / "ble"
BTSNOOP_EPOCH_DELTA = 0x00E03AB44A676000  # microseconds from 0000-01-01 to 2000-01-01 (Bumble snoop.py)
Y2K = 946684800
REQUIRED = {"schema": int, "transport": str, "scenario": str, "accessory": dict, "controllers": list, "connections": list,
            "sessions": list, "advertisements": list, "broadcasts": list, "gatt": list, "att": list, "pdus": list,
            "pairings": list, "misbehaviours": list, "notes": list}
RULES = {"transaction-id-mismatch", "nonce-skip", "plaintext-after-encryption", "secure-access-without-session", "gsn-not-bumped",
         "config-number-unchanged", "broadcast-key-expired"}
# HomeKitADK HAPBLEAccessoryServer+Broadcast.c (HAP R14 §7.4.7.4): the broadcast key expires after 32,767 GSN increments.
BROADCAST_KEY_LIFETIME = 32767


def read_pcap(path: Path) -> tuple[int, list[tuple[float, int, bytes]]]:
    data = path.read_bytes()
    magic, _, _, _, _, _, linktype = struct.unpack_from("<IHHIIII", data)
    if magic != 0xA1B2C3D4:
        raise ValueError(f"{path.name}: not a little-endian microsecond pcap")
    records, offset = [], 24
    while offset < len(data):
        seconds, micros, included, _ = struct.unpack_from("<IIII", data, offset)
        body = data[offset + 16 : offset + 16 + included]
        if len(body) != included:
            raise ValueError(f"{path.name}: record at byte {offset} cut off")
        records.append((seconds + micros / 1e6, struct.unpack(">I", body[:4])[0], body[4:]))
        offset += 16 + included
    return linktype, records


def read_btsnoop(path: Path) -> tuple[tuple[bytes, int, int], list[tuple[float, int, bytes]]]:
    data = path.read_bytes()
    header = (data[:8], *struct.unpack_from(">II", data, 8))
    records, offset = [], 16
    while offset < len(data):
        _, included, flags, _, stamp = struct.unpack_from(">IIIIQ", data, offset)
        body = data[offset + 24 : offset + 24 + included]
        if len(body) != included:
            raise ValueError(f"{path.name}: record at byte {offset} cut off")
        records.append(((stamp - BTSNOOP_EPOCH_DELTA) / 1e6 + Y2K, flags & 1, body))
        offset += 24 + included
    return header, records


def manufacturer_data(advertising_data: bytes) -> bytes | None:
    offset = 0
    while offset + 1 < len(advertising_data):
        length = advertising_data[offset]
        if length == 0:
            break
        if advertising_data[offset + 1] == 0xFF and advertising_data[offset + 2 : offset + 4] == b"\x4c\x00":
            return advertising_data[offset + 4 : offset + 1 + length]
        offset += 1 + length
    return None


def read_keylog(path: Path) -> dict:
    """Labels → id → value; every BROADCAST_KEY (one id, rotated keys) also in order under "broadcast"."""
    keys: dict = {"broadcast": []}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if len(fields) < 3:
            raise ValueError(f"{path.name}:{number}: too few fields")
        if fields[0] != "SESSION_ENDPOINTS":
            bytes.fromhex(fields[2])
        keys.setdefault(fields[0], {})[fields[1]] = " ".join(fields[2:])
        if fields[0] == "BROADCAST_KEY":
            keys["broadcast"].append(bytes.fromhex(fields[2]))
    return keys


def verify_scenario(directory: Path, name: str) -> list[str]:
    problems: list[str] = []
    truth = json.loads((directory / f"{name}.truth.json").read_text())
    for key, kind in REQUIRED.items():
        if not isinstance(truth.get(key), kind):
            problems.append(f"truth: {key} missing or not {kind.__name__}")
    if truth.get("schema") != 1 or truth.get("transport") != "ble":
        problems.append("truth: schema must be 1 and transport ble")
    for m in truth["misbehaviours"]:
        if set(m) != {"rule", "connection", "detail"} or m["rule"] not in RULES:
            problems.append(f"truth: bad misbehaviour {m}")
    linktype, pcap = read_pcap(directory / f"{name}.pcap")
    if linktype != 201:
        problems.append(f"pcap link type {linktype}, expected 201")
    header, btsnoop = read_btsnoop(directory / f"{name}.btsnoop")
    if header != (b"btsnoop\0", 1, 1002):
        problems.append(f"btsnoop header {header}")
    if len(pcap) != len(btsnoop):
        problems.append(f"pcap has {len(pcap)} packets, btsnoop {len(btsnoop)}")
    for number, (a, b) in enumerate(zip(pcap, btsnoop)):
        if a[1:] != b[1:] or abs(a[0] - b[0]) > 0.05:
            problems.append(f"packet {number}: pcap and btsnoop differ")
            break
    att_raw, adverts = _att_and_adverts(pcap)
    expected = [(op["connection"], op["direction"], op["pdu"]) for op in truth["att"]]
    if [(c, d, p.hex()) for c, d, p in att_raw] != expected:
        problems.append(f"capture ATT ({len(att_raw)} PDUs) differs from truth att ({len(expected)})")
    keys = read_keylog(directory / f"{name}.keylog")
    anomalies = _check_pdus(truth, keys, problems)
    anomalies |= _unauthenticated_reads(truth)
    anomalies |= _unannounced_changes(truth)
    anomalies |= _unannounced_database_changes(truth)
    anomalies |= _expired_broadcast_keys(truth)
    declared = {(m["rule"], m["connection"]) for m in truth["misbehaviours"]}
    if anomalies != declared:
        problems.append(f"reference rule check found {sorted(anomalies)}, truth declares {sorted(declared)}")
    _check_advertisements(truth, keys, adverts, problems)
    return problems


def _att_and_adverts(records):
    """ATT PDUs (connections numbered by LE Connection Complete, as handles may be reused) reassembled
    from ACL data, and the advertising data of every advertising report."""
    att, adverts = [], []
    partial: dict[tuple[int, int], bytearray] = {}
    by_handle: dict[int, int] = {}
    count = 0
    for stamp, direction, packet in records:
        kind = packet[0]
        if kind == 0x04 and len(packet) > 4 and packet[1] == 0x3E:
            sub = packet[3]
            if sub in (0x01, 0x0A) and packet[4] == 0:
                count += 1
                by_handle[struct.unpack_from("<H", packet, 5)[0]] = count
            elif sub == 0x0D:
                offset = 5
                for _ in range(packet[4]):
                    length = packet[offset + 23]
                    adverts.append((stamp, packet[offset + 24 : offset + 24 + length]))
                    offset += 24 + length
            elif sub == 0x02:
                offset = 5
                for _ in range(packet[4]):
                    length = packet[offset + 8]
                    adverts.append((stamp, packet[offset + 9 : offset + 9 + length]))
                    offset += 10 + length
        elif kind == 0x02:
            handle_flags, length = struct.unpack_from("<HH", packet, 1)
            handle, boundary = handle_flags & 0x0FFF, (handle_flags >> 12) & 0x3
            key = (handle, direction)
            if boundary in (0, 2):
                partial[key] = bytearray()
            partial.setdefault(key, bytearray()).extend(packet[5 : 5 + length])
            buffer = partial[key]
            if len(buffer) >= 4 and len(buffer) >= 4 + struct.unpack_from("<H", buffer)[0]:
                l2cap_length, cid = struct.unpack_from("<HH", buffer)
                if cid == 0x0004:
                    att.append((by_handle.get(handle, 0), "controller-to-accessory" if direction == 0 else "accessory-to-controller",
                                bytes(buffer[4 : 4 + l2cap_length])))
                del partial[key]
    return att, adverts


def _session_at(truth: dict, connection: int, time: float) -> dict | None:
    found = None
    for session in truth["sessions"]:
        if session["connection"] == connection and session["t"] <= time:
            found = session
    return found


def _check_pdus(truth: dict, keys: dict, problems: list[str]) -> set[tuple[str, int]]:
    anomalies: set[tuple[str, int]] = set()
    counters: dict[tuple[str, str], int] = {}
    last_request: dict[tuple[int, int], int] = {}
    att = truth["att"]
    for record in truth["pdus"]:
        connection, direction = record["connection"], record["direction"]
        session = _session_at(truth, connection, record["time"])
        reassembler = pdu.Reassembler(pdu.TYPE_REQUEST if direction == "controller-to-accessory" else pdu.TYPE_RESPONSE)
        for fragment in record["fragments"]:
            carried = _gatt_value(att, fragment["att"])
            wire = bytes.fromhex(fragment["wire"])
            if carried != wire:
                problems.append(f"connection {connection}: fragment {fragment['wire'][:16]}… is not the GATT value its ATT ops carry")
            plaintext = wire
            if record["encrypted"]:
                if session is None:
                    problems.append(f"connection {connection}: encrypted PDU before any session")
                    continue
                label = "CONTROL_WRITE_KEY" if direction == "controller-to-accessory" else "CONTROL_READ_KEY"
                key = bytes.fromhex(keys[label][session["session"]])
                counter_key = (session["session"], direction)
                expected = counters.get(counter_key, 0)
                for counter in range(expected, expected + 4):
                    try:
                        plaintext = crypto.open_sealed(key, crypto.nonce_counter(counter), wire)
                        break
                    except InvalidTag:
                        continue
                else:
                    problems.append(f"connection {connection}: fragment does not decrypt with the logged key")
                    continue
                if counter != expected:
                    anomalies.add(("nonce-skip", connection))
                counters[counter_key] = counter + 1
            elif session is not None:
                anomalies.add(("plaintext-after-encryption", connection))
            if plaintext.hex() != fragment["plaintext"]:
                problems.append(f"connection {connection}: decrypted fragment differs from the truth's plaintext")
            try:
                reassembler.add(plaintext)
            except pdu.ReassemblyError as error:
                problems.append(f"connection {connection}: {error}")
        if not record["complete"]:
            continue
        try:
            decoded = reassembler.pdu()
        except pdu.ReassemblyError as error:
            problems.append(f"connection {connection}: PDU does not reassemble: {error}")
            continue
        body = base64.b64decode(record["body"]) if record["body"] is not None else None
        if decoded.tid != record["tid"] or decoded.body != body:
            problems.append(f"connection {connection}: reassembled PDU differs from the truth (TID {decoded.tid})")
        handle = record["handle"]
        if direction == "controller-to-accessory":
            last_request[(connection, handle)] = decoded.tid
        elif last_request.get((connection, handle)) not in (None, decoded.tid):
            anomalies.add(("transaction-id-mismatch", connection))
    return anomalies


def _gatt_value(att: list[dict], indices: list[int]) -> bytes:
    return b"".join(bytes.fromhex(att[i]["value"]) for i in indices if att[i]["value"] is not None and att[i]["opcode"] != 0x18)


def _unauthenticated_reads(truth: dict) -> set[tuple[str, int]]:
    """A successful Char-Read of a characteristic whose HAP properties allow secure reads only,
    answered on a connection before any session (HomeKitADK HAPBLEProcedure.c answers status 5)."""
    properties = {entry["handle"]: entry["hapProperties"] for entry in truth["gatt"] if entry.get("kind") == "characteristic-value"}
    found = set()
    pending: dict[tuple[int, int], dict] = {}
    for record in truth["pdus"]:
        key = (record["connection"], record["handle"])
        if record["direction"] == "controller-to-accessory":
            pending[key] = record
            continue
        request = pending.pop(key, None)
        if request is None or request["opcode"] != pdu.OP_CHAR_READ or record["status"] != pdu.STATUS_SUCCESS:
            continue
        bits = properties.get(record["handle"], 0)
        if bits & 0x0010 and not bits & 0x0001 and _session_at(truth, record["connection"], record["time"]) is None:
            found.add(("secure-access-without-session", record["connection"]))
    return found


def _unannounced_changes(truth: dict) -> set[tuple[str, int]]:
    """The first successful Char-Read, on a new connection, of a characteristic that notifies in the
    disconnected state (HAP properties 0x0100) giving another value than the previous connection saw,
    with no GSN change in the truth since that connection opened (HomeKitADK
    HAPBLEAccessoryServer+Advertising.c increments the GSN on such a change once per connected or
    disconnected period)."""
    properties = {entry["handle"]: entry["hapProperties"] for entry in truth["gatt"] if entry.get("kind") == "characteristic-value"}
    opened = {c["connection"]: c["opened"] for c in truth["connections"]}
    gsn_times = [change["time"] for change in truth["gsn"]]
    found = set()
    seen: dict[int, dict[int, tuple[int, bytes]]] = {}  # connection -> iid -> value
    pending: dict[tuple[int, int], dict] = {}
    for record in truth["pdus"]:
        connection, handle = record["connection"], record["handle"]
        if record["direction"] == "controller-to-accessory":
            pending[(connection, handle)] = record
            continue
        request = pending.pop((connection, handle), None)
        if request is None or record["status"] != pdu.STATUS_SUCCESS or not properties.get(handle, 0) & 0x0100:
            continue
        if request["opcode"] == pdu.OP_CHAR_READ and record["body"] is not None:
            value = _value_parameter(base64.b64decode(record["body"]))
        elif request["opcode"] == pdu.OP_CHAR_WRITE and request["body"] is not None:
            value = _value_parameter(base64.b64decode(request["body"]))
        else:
            continue
        on_this = seen.setdefault(connection, {})
        if request["iid"] in on_this or value is None:
            continue
        on_this[request["iid"]] = value
        earlier = max((c for c in seen if c < connection and request["iid"] in seen[c]), default=None)
        if (request["opcode"] == pdu.OP_CHAR_READ and earlier is not None and seen[earlier][request["iid"]] != value
                and not any(opened[earlier] <= t <= record["time"] for t in gsn_times)):
            found.add(("gsn-not-bumped", connection))
    return found


def gatt_declarations(att: list[dict], connection: int) -> set[tuple]:
    """The primary services (Read By Group Type Responses: handle, end group handle, UUID) and the
    characteristic declarations (Read By Type Responses: handle, properties, value handle, UUID) a
    connection's GATT discovery listed (Core Vol 3 Part F §3.4.4.2, §3.4.4.10)."""
    found = set()
    for op in att:
        if op["connection"] != connection or op["opcode"] not in (0x09, 0x11):
            continue
        data = bytes.fromhex(op["pdu"])
        length = data[1]
        for start in range(2, len(data) - length + 1, length):
            entry = data[start:start + length]
            found.add((op["opcode"], entry.hex()))
    return found


def _unannounced_database_changes(truth: dict) -> set[tuple[str, int]]:
    """A connection whose GATT discovery lists other services or characteristic declarations than the
    previous connection's did, while the accessory advertised the same configuration number before both
    (HAP: the configuration number is incremented whenever the attribute database changes; HomeKitADK
    HAPBLEAccessoryServer+Advertising.c advertises it). Connections that discovered nothing are skipped."""
    def number_before(time: float) -> int | None:
        earlier = [a for a in truth["advertisements"] if a["time"] < time and a["decoded"].get("type") == "regular"]
        return earlier[-1]["decoded"]["configNumber"] if earlier else None

    found = set()
    previous = None
    for connection in sorted(truth["connections"], key=lambda c: c["opened"]):
        declarations = gatt_declarations(truth["att"], connection["connection"])
        if not declarations:
            continue
        number = number_before(connection["opened"])
        if previous is not None and number is not None and previous[1] == number and previous[2] != declarations:
            found.add(("config-number-unchanged", connection["connection"]))
        previous = (connection["connection"], number, declarations)
    return found


def _expired_broadcast_keys(truth: dict) -> set[tuple[str, int]]:
    """Broadcasts sealed 32,767 or more GSN increments (65535 wraps to 1) after the accessory's latest key generation."""
    found = set()
    for broadcast in truth["broadcasts"]:
        keys = [k for k in truth.get("broadcastKeys", []) if k["time"] <= broadcast["time"]]
        if keys and (broadcast["gsn"] - keys[-1]["gsn"]) % 65535 >= BROADCAST_KEY_LIFETIME:
            found.add(("broadcast-key-expired", keys[-1]["connection"]))
    return found


def _value_parameter(body: bytes) -> bytes | None:
    """The Value (0x01) TLV of a HAP-BLE PDU body."""
    offset, value = 0, None
    while offset + 2 <= len(body):
        kind, length = body[offset], body[offset + 1]
        if kind == 0x01:
            value = (value or b"") + body[offset + 2 : offset + 2 + length]
        offset += 2 + length
    return value


def _check_advertisements(truth: dict, keys: dict, adverts, problems: list[str]) -> None:
    seen = {manufacturer_data(data) for _, data in adverts} - {None}
    declared = {bytes.fromhex(a["manufacturerData"]) for a in truth["advertisements"]}
    if seen - declared:
        problems.append(f"{len(seen - declared)} HAP advertisements in the capture are not in the truth")
    for broadcast in truth["broadcasts"]:
        data = bytes.fromhex(broadcast["manufacturerData"])
        if data not in seen:
            problems.append(f"broadcast with GSN {broadcast['gsn']} not in the capture")
        opened = None
        for line_key in keys.get("broadcast", []):
            opened = crypto.open_broadcast(line_key, broadcast["gsn"], data[2:8], data[8:])
            if opened is not None:
                break
        if opened is None or opened.hex() != broadcast["plaintext"]:
            problems.append(f"broadcast with GSN {broadcast['gsn']} does not decrypt with a logged BROADCAST_KEY")


def main() -> int:
    names = sys.argv[1:] or sorted(p.name[: -len(".truth.json")] for p in CORPUS.glob("*.truth.json"))
    failed = 0
    for name in names:
        problems = verify_scenario(CORPUS, name)
        print(f"{name}: {'ok' if not problems else 'FAILED'}")
        for problem in problems:
            print(f"  {problem}")
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
