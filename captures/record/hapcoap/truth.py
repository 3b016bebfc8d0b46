"""Merging the peers' journals (and the relay's) into ``<name>.truth.json`` and ``<name>.keylog``.

Everything here comes from what the peers themselves did: the CoAP datagrams each one's aiocoap handed to
its socket, the plaintext each one sealed, the keys each one computed. Nothing is read back from the capture.
"""

from __future__ import annotations

import base64
import heapq
import json
import struct
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable

from hapcapture import tlv8
from hapcapture.journal import ACCESSORY_TO_CONTROLLER, CONTROLLER_TO_ACCESSORY, read_journal

from . import coapwire, pdu
from .record import Recording

SCHEMA_VERSION = 1
SESSION_LABEL_ORDER = [
    "CONTROLLER_EPHEMERAL_SECRET", "ACCESSORY_EPHEMERAL_SECRET", "PAIR_VERIFY_SHARED_SECRET",
    "CONTROL_WRITE_KEY", "CONTROL_READ_KEY", "EVENT_READ_KEY", "SESSION_ENDPOINTS",
]  # fmt: skip
PCAP_LINK_TYPES = {1: "EN10MB", 101: "RAW", 113: "LINUX_SLL", 276: "LINUX_SLL2"}
PAIRING_PATHS = {"/1": "pair-setup", "/2": "pair-verify"}
PAIRING_ERRORS = {1: "Unknown", 2: "Authentication", 3: "Backoff", 4: "MaxPeers", 5: "MaxTries", 6: "Unavailable", 7: "Busy"}
STATE, ERROR = 0x06, 0x07


def accessory_implementation() -> str:
    return f"hapscope toolkit accessory (captures/record/hapcoap) on aiocoap {metadata.version('aiocoap')}"


def controller_implementation() -> str:
    return f"aiohomekit {metadata.version('aiohomekit')} (CoAP controller) on aiocoap {metadata.version('aiocoap')}"


def link_type(capture: Path) -> str:
    header = capture.read_bytes()[:24]
    if header[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        (code,) = struct.unpack("<I", header[20:24])
    elif header[:4] in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        (code,) = struct.unpack(">I", header[20:24])
    else:
        raise ValueError(f"{capture}: not a classic pcap file")
    return PCAP_LINK_TYPES[code & 0x0FFFFFFF]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


# --- CoAP messages ----------------------------------------------------------------------------------


@dataclass
class Datagram:
    """One CoAP message as its sender handed it to the socket."""

    time: float
    sender: str
    source: str
    destination: str
    data: bytes
    retransmission: bool

    @property
    def direction(self) -> str:
        return CONTROLLER_TO_ACCESSORY if self.sender == "controller" else ACCESSORY_TO_CONTROLLER

    @property
    def message(self) -> coapwire.Message:
        return coapwire.decode(self.data)


def datagrams(accessory: list[dict], controller: list[dict]) -> list[Datagram]:
    """Both peers' datagrams, each peer's in its own order, interleaved by the (shared) clock."""

    def of(records: list[dict]) -> Iterable[Datagram]:
        for r in records:
            if r["kind"] == "coap":
                yield Datagram(r["t"], r["sender"], r["source"], r["destination"], base64.b64decode(r["data"]), r["retransmission"])

    return list(heapq.merge(of(controller), of(accessory), key=lambda d: d.time))


def relay_decisions(relay_log: list[dict], sent: list[Datagram]) -> list[str | None]:
    """Per datagram, what the relay did with it: the k-th identical datagram of a direction is its k-th entry."""
    pending: dict[tuple[str, bytes], list[str]] = {}
    for entry in relay_log:
        pending.setdefault((entry["direction"], bytes.fromhex(entry["data"])), []).append(entry["decision"])
    decisions: list[str | None] = []
    for datagram in sent:
        queue = pending.get((datagram.direction, datagram.data))
        decisions.append(queue.pop(0) if queue else None)
    return decisions


@dataclass
class Payload:
    """A whole CoAP body: one message's payload, or the blocks of a block-wise transfer joined."""

    first: int  # index of the message that carries its first (or only) block
    sender: str
    data: bytes
    blocks: int


def assemble(messages: list[tuple[str, str, str, coapwire.Message]]) -> list[Payload]:
    """Bodies in the order they completed; ``messages`` are (sender, source, destination, message), retransmissions included.

    A copy of a message already seen (same sender socket, peer, type and message ID) is skipped, whatever its
    payload. Block1 (RFC 7959 §2.3) joins a requester's blocks to one server, Block2 (§2.4) a server's
    response blocks to one requester; a block-wise body is complete at its block with M = 0.
    """
    seen: set[tuple[str, str, str, int]] = set()
    open_bodies: dict[tuple[str, str, int], Payload] = {}
    bodies: list[Payload] = []
    for index, (sender, source, destination, message) in enumerate(messages):
        key = (source, destination, message.type, message.message_id)
        if key in seen:
            continue
        seen.add(key)
        option = coapwire.OPTION_BLOCK1 if message.is_request else coapwire.OPTION_BLOCK2
        block = message.block(option) if message.payload else None
        if not message.payload:
            continue
        if block is None:
            bodies.append(Payload(index, sender, message.payload, 1))
            continue
        chain = (source, destination, option)
        if block.number == 0:
            open_bodies[chain] = Payload(index, sender, b"", 0)
        body = open_bodies.get(chain)
        if body is None or len(body.data) != block.number * block.size:
            raise ValueError(f"message {index}: block {block.number} does not continue a block-wise body")
        body.data += message.payload
        body.blocks += 1
        if not block.more:
            bodies.append(open_bodies.pop(chain))
    return bodies


def coap_entries(sent: list[Datagram], decisions: list[str | None]) -> list[dict[str, Any]]:
    entries = []
    for datagram, decision in zip(sent, decisions):
        message = datagram.message
        entries.append({
            "time": datagram.time,
            "sender": datagram.sender,
            "direction": datagram.direction,
            "source": datagram.source,
            "destination": datagram.destination,
            "type": message.type,
            "code": message.code_text,
            "messageId": message.message_id,
            "token": message.token.hex(),
            "options": [{"number": o.number, "name": o.name, "value": o.value.hex()} for o in message.options],
            "payload": b64(message.payload),
            "retransmission": datagram.retransmission,
            "droppedByRelay": None if decision is None else decision == "drop",
            "duplicatedByRelay": None if decision is None else decision == "duplicate",
        })  # fmt: skip
    return entries


# --- PDUs ---------------------------------------------------------------------------------------------


def pdu_entries(accessory: list[dict], controller: list[dict], sent: list[Datagram]) -> list[dict[str, Any]]:
    """Every PDU each sender sealed (or sent in plaintext), with the message that carried it."""
    bodies = assemble([(d.sender, d.source, d.destination, d.message) for d in sent])
    sealed = heapq.merge(
        (r for r in controller if r["kind"] == "pdus-sealed"),
        (r for r in accessory if r["kind"] == "pdus-sealed"),
        key=lambda r: r["t"],
    )
    used: set[int] = set()
    entries: list[dict[str, Any]] = []
    for record in sealed:
        payload = base64.b64decode(record["payload"])
        sender = "controller" if record["direction"] == CONTROLLER_TO_ACCESSORY else "accessory"
        carrier = next((b for b in bodies if b.sender == sender and b.data == payload and b.first not in used), None)
        if carrier is None:
            # A copy sent on purpose under an old message ID is skipped by assemble(); find it directly.
            carrier_index = next(
                (i for i, d in enumerate(sent) if d.sender == sender and d.message.payload == payload and i not in used), None
            )
        else:
            carrier_index = carrier.first
        if carrier_index is not None:
            used.add(carrier_index)
        plaintext = base64.b64decode(record["plaintext"])
        encryption = None if record["counter"] is None else {"keyKind": record["key_kind"], "counter": record["counter"]}
        base = {"time": record["t"], "direction": record["direction"], "coap": carrier_index, "encryption": encryption}
        if record["pdu_kind"] == "request":
            items = [{"kind": "request", "control": r.control, "tid": r.tid, "opcode": r.opcode, "iid": r.iid,
                      "status": None, "body": b64(r.body)} for r in pdu.split_requests(plaintext)]  # fmt: skip
        elif record["pdu_kind"] == "response":
            items = [{"kind": "response", "control": r.control, "tid": r.tid, "opcode": None, "iid": None,
                      "status": r.status, "body": b64(r.body)} for r in pdu.split_responses(plaintext)]  # fmt: skip
        else:
            items = [{"kind": "event", "control": r.control, "tid": None, "opcode": None, "iid": r.iid,
                      "status": None, "body": b64(r.body)} for r in pdu.split_event_records(plaintext)]  # fmt: skip
        for position, item in enumerate(items):
            entries.append({**base, "batchIndex": position, **item})
    return entries


# --- pairings -----------------------------------------------------------------------------------------


def pairing_entries(sent: list[Datagram]) -> list[dict[str, Any]]:
    """Pair-setup (/1) and pair-verify (/2) exchanges, from the TLV State and Error items of their messages."""
    requests: dict[tuple[str, bytes], tuple[str, int | None]] = {}
    entries: list[dict[str, Any]] = []
    current: dict[str, dict[str, Any]] = {}
    for datagram in sent:
        if datagram.retransmission:
            continue
        message = datagram.message
        if message.is_request and message.path in PAIRING_PATHS:
            kind = PAIRING_PATHS[message.path]
            state = tlv8.integer(tlv8.decode(message.payload), STATE)
            requests[(datagram.source, message.token)] = (kind, state)
            if state == 1:
                current[datagram.source + kind] = {"kind": kind, "client": datagram.source, "outcome": None, "error": None, "note": None}
                entries.append(current[datagram.source + kind])
        elif message.is_response and (datagram.destination, message.token) in requests and message.payload:
            kind, request_state = requests.pop((datagram.destination, message.token))
            entry = current.get(datagram.destination + kind)
            if entry is None:
                continue
            items = tlv8.decode(message.payload)
            error = tlv8.integer(items, ERROR)
            if error is not None:
                entry.update(outcome="error", error=error,
                             note=f"M{tlv8.integer(items, STATE)} Error={PAIRING_ERRORS.get(error, error)}")  # fmt: skip
            elif request_state == {"pair-setup": 5, "pair-verify": 3}[kind]:
                entry["outcome"] = "success"
    for entry in entries:
        if entry["outcome"] is None:
            entry.update(outcome="error", note="the exchange stopped before its last message")
    return entries


# --- key log ------------------------------------------------------------------------------------------


@dataclass
class KeyLog:
    lines: list[str]
    conflicts: list[str]


def key_log(name: str, accessory: list[dict], controller: list[dict]) -> KeyLog:
    """One line per distinct entry, each pair-verify's lines together, in the order the sessions began."""
    entries = [r for r in accessory + controller if r["kind"] == "key"]
    entries += [
        {"t": r["t"], "label": "SESSION_ENDPOINTS", "id": r["session"], "secret": f"{r['controller']} {r['accessory']}",
         "session": r["session"]}
        for r in accessory if r["kind"] == "session-endpoints"
    ]  # fmt: skip
    session_start: dict[str, float] = {}
    for entry in entries:
        if entry.get("session"):
            session_start[entry["session"]] = min(entry["t"], session_start.get(entry["session"], entry["t"]))
    entries.sort(
        key=lambda e: (session_start[e["session"]], SESSION_LABEL_ORDER.index(e["label"])) if e.get("session") else (e["t"], -1)
    )
    lines = [
        f"# hapscope key log for {name}.pcap (HAP over CoAP)",
        f"# accessory: {accessory_implementation()}; controller: {controller_implementation()}",
        "# LABEL <id> <secret>, lower-case hex; LTPK ids are pairing identifiers; SESSION_ENDPOINTS: controller accessory",
    ]
    seen: dict[tuple[str, str], str] = {}
    conflicts: list[str] = []
    for entry in entries:
        key = (entry["label"], entry["id"])
        if key in seen:
            if seen[key] != entry["secret"]:
                conflicts.append(f"{entry['label']} {entry['id']}: {seen[key]} vs {entry['secret']}")
            continue
        seen[key] = entry["secret"]
        lines.append(f"{entry['label']} {entry['id']} {entry['secret']}")
    return KeyLog(lines, conflicts)


# --- notes on how aiohomekit reacted -------------------------------------------------------------------


def controller_reactions(controller: list[dict]) -> list[str]:
    """aiohomekit's counter recovery, as its own decrypt calls show it."""
    notes: list[str] = []
    failed: dict[str, list[int]] = {}
    for record in controller:
        if record["kind"] == "open-failed":
            failed.setdefault(record["payload"], []).append(record["counter"])
        elif record["kind"] == "opened" and record["payload"] in failed:
            tried = failed.pop(record["payload"])
            notes.append(
                f"observed: aiohomekit could not open a {record['pdu_kind']} with counter {tried[0]}; its recovery search "
                f"tried {', '.join(map(str, tried[1:]))} and opened it with counter {record['counter']}"
            )
        elif record["kind"] == "response-rejected" and record["payload"] in failed:
            tried = failed.pop(record["payload"])
            notes.append(
                f"observed: aiohomekit could not open a response with counter {tried[0]}; its recovery search tried "
                f"{', '.join(map(str, tried[1:]))} (the last after zeroing both counters), then gave up with "
                f"{record['error']} and shut the session's CoAP context"
            )
    for payload, tried in failed.items():
        notes.append(f"observed: aiohomekit could not open an event with counter {tried[0]} and answered it 4.04")
    return notes


def retransmission_notes(sent: list[Datagram], controller: list[dict]) -> list[str]:
    """What each peer sent again, and what became of a copy whose payload differs from the original."""
    notes: list[str] = []
    for sender in ("controller", "accessory"):
        copies = [d for d in sent if d.sender == sender and d.retransmission]
        if copies:
            confirmable = sum(1 for d in copies if d.message.type == "CON")
            notes.append(
                f"{sender}: {confirmable} confirmable messages sent again after the acknowledgement timeout (or on purpose), "
                f"{len(copies) - confirmable} acknowledgements sent again from the deduplication cache for a duplicate"
            )
    originals: dict[tuple[str, str, str, int], bytes] = {}
    opened = {r["payload"] for r in controller if r["kind"] in ("opened", "open-failed")}
    for index, datagram in enumerate(sent):
        message = datagram.message
        key = (datagram.source, datagram.destination, message.type, message.message_id)
        if key not in originals:
            originals[key] = message.payload
            continue
        if originals[key] == message.payload:
            continue
        answer = next((d for d in sent[index + 1 :] if d.source == datagram.destination and d.message.message_id == message.message_id), None)
        reaction = "its aiocoap treated it as a duplicate and did not pass it on: aiohomekit never opened it"
        if b64(message.payload) in opened:
            reaction = "aiohomekit opened it"
        if answer is not None:
            reaction += f"; the answer was the stored {answer.message.type} {answer.message.code_text} sent again"
        notes.append(f"observed: message {index} repeats message ID {message.message_id} with another payload; {reaction}")
    return notes


def build_truth(recording: Recording, capture_name: str) -> tuple[dict[str, Any], KeyLog]:
    scenario = recording.scenario
    accessory = read_journal(recording.workdir / "accessory.jsonl")
    controller = read_journal(recording.workdir / "controller.jsonl")
    relay_log = read_journal(recording.workdir / "relay.jsonl")
    identity = next(r for r in accessory if r["kind"] == "accessory")
    sent = datagrams(accessory, controller)
    decisions = relay_decisions(relay_log, sent) if relay_log else [None] * len(sent)
    misbehaviours = [
        {"rule": r["rule"], "connection": r["connection"], "detail": r["detail"]}
        for r in sorted((r for r in accessory + controller if r["kind"] == "misbehaviour"), key=lambda r: r["t"])
    ]
    notes = list(scenario.notes) + generated_notes(recording, sent, decisions)
    notes += [f"deliberate misbehaviour [{m['rule']}] on {m['connection']}: {m['detail']}" for m in misbehaviours]
    notes += [
        f"observed: {r['text']}" for r in sorted((r for r in accessory + controller if r["kind"] == "observation"), key=lambda r: r["t"])
    ]
    notes += controller_reactions(controller)
    notes += retransmission_notes(sent, controller)
    truth = {
        "schema": SCHEMA_VERSION,
        "transport": "coap",
        "scenario": scenario.name,
        "description": scenario.description,
        "accessoryImplementation": accessory_implementation(),
        "controllerImplementation": controller_implementation(),
        "capture": capture_name,
        "linkType": link_type(recording.capture),
        "setupCode": identity["setup_code"],
        "setupId": identity["setup_id"],
        "accessories": [{k: identity[j] for k, j in (("name", "name"), ("deviceId", "device_id"), ("address", "address"),
                         ("port", "port"), ("category", "category"), ("ltpk", "ltpk"))}],  # fmt: skip
        "controllers": [
            {"pairingId": r["pairing_id"], "ltpk": r["ltpk"], "admin": r["admin"]} for r in accessory if r["kind"] == "pairing-stored"
        ],
        "advertisements": [
            {"time": r["sent_at"], "instance": r["instance"], "service": "_hap._udp", "port": r["port"], "txt": r["txt"]}
            for r in accessory if r["kind"] == "advertisement"
        ],  # fmt: skip
        "coap": coap_entries(sent, decisions),
        "pdus": pdu_entries(accessory, controller, sent),
        "pairings": pairing_entries(sent),
        "misbehaviours": misbehaviours,
        "notes": notes,
    }
    return truth, key_log(scenario.name, accessory, controller)


def generated_notes(recording: Recording, sent: list[Datagram], decisions: list[str | None]) -> list[str]:
    scenario = recording.scenario
    side = "on the accessory's side of the relay " if scenario.lossy else ""
    notes = [
        f"captured with tcpdump on the accessory's interface hap0 {side}in the accessory's network namespace (Ethernet)",
        "accessory fd77::2 (the toolkit's aiocoap accessory, CoAP port 5683), controller fd77::1 (aiohomekit), each in "
        "its own network namespace; the controller's sockets are numbered from 49201 (pair-setup, then one per "
        "pair-verify and one per identify)",
        "coap lists every CoAP message each peer's aiocoap handed to its UDP socket, encoded; a retransmission is a "
        "message of the same type and message ID that the same socket already sent to the same peer",
        "pdus lists every PDU its sender sealed (or, if encryption is null, sent in plaintext), split from the plaintext "
        "the sender passed to ChaCha20-Poly1305; coap is the index of the message carrying the body's first block",
        "messages of one sender are in exact order; the two senders are interleaved by their timestamps (same clock)",
        f"randomness seeded with {recording.seed}: keys, SRP secrets, pairing ids, PDU transaction ids, CoAP message "
        "ids and tokens repeat on every run",
    ]
    if recording.relay_seed is not None:
        dropped = sum(1 for d in decisions if d == "drop")
        duplicated = sum(1 for d in decisions if d == "duplicate")
        lost_before = sum(1 for d, x in zip(sent, decisions) if x == "drop" and d.direction == CONTROLLER_TO_ACCESSORY)
        notes.append(
            f"relay seed {recording.relay_seed}: the relay dropped {dropped} and duplicated {duplicated} of {len(sent)} "
            f"CoAP datagrams (each datagram at most once; mDNS and neighbour discovery untouched); the {lost_before} "
            "dropped controller-to-accessory datagrams are not in the capture, the others are"
        )
    return notes


def write_outputs(recording: Recording, out_dir: Path) -> tuple[Path, Path, Path]:
    name = recording.scenario.name
    capture_path = out_dir / f"{name}.pcap"
    truth, keys = build_truth(recording, capture_path.name)
    if keys.conflicts:
        raise ValueError("the two peers logged different secrets under one key-log entry: " + "; ".join(keys.conflicts))
    capture_path.write_bytes(recording.capture.read_bytes())
    keylog_path = out_dir / f"{name}.keylog"
    keylog_path.write_text("\n".join(keys.lines) + "\n")
    truth_path = out_dir / f"{name}.truth.json"
    truth_path.write_text(json.dumps(truth, indent=2) + "\n")
    return capture_path, keylog_path, truth_path
