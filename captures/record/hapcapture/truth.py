"""Merging the two peers' journals into ``<name>.truth.json`` and ``<name>.keylog``.

Everything here comes from what the libraries themselves did; nothing is read back from the capture.
Pairing outcomes are read from the recorded pairing messages (TLV State/Error), so they hold for every
exchange on every connection, including the pair-verify aiohomekit runs on each new session.
"""

from __future__ import annotations

import base64
import heapq
import json
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import capturestart, http, tlv8
from .journal import CONTROLLER_TO_ACCESSORY, read_journal
from .peers import AIOHOMEKIT, HAP_PYTHON
from .record import Recording
from .scenarios import DUMPCAP, TCPDUMP_ANY, Scenario

SCHEMA_VERSION = 1
SESSION_LABEL_ORDER = [
    "CONTROLLER_EPHEMERAL_SECRET",
    "ACCESSORY_EPHEMERAL_SECRET",
    "PAIR_VERIFY_SHARED_SECRET",
    "CONTROL_WRITE_KEY",
    "CONTROL_READ_KEY",
    "SESSION_ENDPOINTS",
]
SRP_PUBLIC_KEY_BYTES = 384
SRP_KEY_BYTES = 64
PCAP_LINK_TYPES = {0: "NULL", 1: "EN10MB", 101: "RAW", 113: "LINUX_SLL", 228: "IPV4", 229: "IPV6", 276: "LINUX_SLL2"}
PAIRING_ERRORS = {1: "Unknown", 2: "Authentication", 3: "Backoff", 4: "MaxPeers", 5: "MaxTries", 6: "Unavailable", 7: "Busy"}


def link_type(capture: Path) -> str:
    """The link-layer header type of a pcap file, or of the first interface of a pcapng file."""
    header = capture.read_bytes()[:64]
    magic = header[:4]
    if magic == b"\x0a\x0d\x0d\x0a":  # pcapng Section Header Block
        order = "<" if header[8:12] == b"\x4d\x3c\x2b\x1a" else ">"
        (section_length,) = struct.unpack(order + "I", header[4:8])
        block = capture.read_bytes()[section_length : section_length + 12]
        (block_type,) = struct.unpack(order + "I", block[:4])
        if block_type != 1:
            raise ValueError(f"{capture}: the block after the section header is not an interface description")
        (code,) = struct.unpack(order + "H", block[8:10])
    elif magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        (code,) = struct.unpack("<I", header[20:24])
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        (code,) = struct.unpack(">I", header[20:24])
    else:
        raise ValueError(f"{capture}: neither pcap nor pcapng")
    return PCAP_LINK_TYPES[code & 0x0FFFFFFF]


@dataclass
class Message:
    time: float
    client: str
    server: str
    direction: str
    encrypted: bool
    data: bytes
    note: str | None
    counter: int | None = None  # the sender's nonce counter for the message's first frame, when encrypted

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Message:
        return cls(
            time=record["t"],
            client=record["client"],
            server=record["server"],
            direction=record["direction"],
            encrypted=record["encrypted"],
            data=base64.b64decode(record["data"]),
            note=record.get("note"),
            counter=record.get("counter"),
        )


@dataclass
class Connection:
    client: str
    server: str
    opened: float
    messages: list[Message] = field(default_factory=list)


def merge_connections(accessory: list[dict], controller: list[dict]) -> list[Connection]:
    """Connections in the order they opened, each with both directions' messages interleaved by time.

    Each journal lists its own writes in the order they happened; heapq.merge keeps that order within
    a direction whatever the timestamps say, and uses the (shared) clock only to interleave directions.
    """
    connections: dict[tuple[str, str], Connection] = {}
    for record in sorted(
        (r for r in accessory + controller if r["kind"] in ("connection", "message")), key=lambda r: r["t"]
    ):
        endpoints = (record["client"], record["server"])
        if endpoints not in connections:
            connections[endpoints] = Connection(client=endpoints[0], server=endpoints[1], opened=record["t"])
    sent_by_accessory = [Message.from_record(r) for r in accessory if r["kind"] == "message"]
    sent_by_controller = [Message.from_record(r) for r in controller if r["kind"] == "message"]
    for message in heapq.merge(sent_by_controller, sent_by_accessory, key=lambda m: m.time):
        connections[(message.client, message.server)].messages.append(message)
    return sorted(connections.values(), key=lambda c: c.opened)


@dataclass
class Exchange:
    request: Message
    request_http: http.HttpMessage
    response_http: http.HttpMessage | None


def exchanges(connection: Connection) -> list[Exchange]:
    """Requests paired with their responses (HAP is strictly request/response, EVENTs aside)."""
    pending: list[tuple[Message, http.HttpMessage]] = []
    result: list[Exchange] = []
    for message in connection.messages:
        parsed = http.parse(message.data)
        if message.direction == CONTROLLER_TO_ACCESSORY:
            pending.append((message, parsed))
        elif not parsed.is_event and pending:
            request, request_http = pending.pop(0)
            result.append(Exchange(request, request_http, parsed))
    result.extend(Exchange(request, request_http, None) for request, request_http in pending)
    return result


@dataclass
class SrpRecords:
    """Both peers' view of one pair-setup's SRP, keyed by the first 32 bytes of A."""

    controller: dict[str, dict] = field(default_factory=dict)
    accessory: dict[str, dict] = field(default_factory=dict)

    @classmethod
    def collect(cls, accessory: list[dict], controller: list[dict]) -> SrpRecords:
        records = cls()
        for record in controller:
            if record["kind"] == "srp":
                records.controller[record["a_prefix"]] = record
        for record in accessory:
            if record["kind"] == "srp":
                records.accessory[record["a_prefix"]] = record
        return records

    def mismatch_cause(self, a_prefix: str, peers: tuple[str, str] = (HAP_PYTHON.name, AIOHOMEKIT.name)) -> str | None:
        """Why a pair-setup with the right code failed, from what the (accessory, controller) ``peers`` recorded."""
        accessory = self.accessory.get(a_prefix)
        controller = self.controller.get(a_prefix)
        if accessory is None or controller is None or accessory["proof_accepted"]:
            return None
        if peers != (HAP_PYTHON.name, AIOHOMEKIT.name):
            short = [
                f"{name} of {count} bytes"
                for name, count, full in (
                    ("B sent", accessory["b_bytes_sent"], SRP_PUBLIC_KEY_BYTES),
                    ("S hashed by the accessory", accessory["s_bytes_used"], SRP_PUBLIC_KEY_BYTES),
                    ("K used by the accessory", accessory["k_bytes_used"], SRP_KEY_BYTES),
                    ("A sent", controller["a_bytes_sent"], SRP_PUBLIC_KEY_BYTES),
                )
                if count < full
            ]
            return f"{peers[0]} and {peers[1]} pad these differently: {', '.join(short)}" if short else None
        causes = []
        if accessory["b_bytes_sent"] < SRP_PUBLIC_KEY_BYTES:
            causes.append(
                f"HAP-python sent a {accessory['b_bytes_sent']}-byte B and aiohomekit hashes B into u as received "
                "while HAP-python pads it to 384 bytes"
            )
        if accessory["s_bytes_used"] < SRP_PUBLIC_KEY_BYTES:
            causes.append(
                "the shared secret S starts with a zero byte: HAP-python hashes the minimal S into K, "
                "aiohomekit the 384-byte S"
            )
        if accessory["k_bytes_used"] < SRP_KEY_BYTES:
            causes.append(f"K starts with a zero byte and HAP-python uses a {accessory['k_bytes_used']}-byte K")
        return "; ".join(causes) if causes else None


def pairing_entries(
    connections: list[Connection], srp: SrpRecords, setup_code: str, peers: tuple[str, str] = (HAP_PYTHON.name, AIOHOMEKIT.name)
) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    for connection in connections:
        current: dict[str, Any] | None = None
        for exchange in exchanges(connection):
            request = exchange.request_http
            if request.method != "POST" or request.path not in ("/pair-setup", "/pair-verify", "/pairings"):
                continue
            items = tlv8.decode(request.body)
            state = tlv8.integer(items, tlv8.STATE)
            if request.path == "/pairings" or state == 1:
                if current is not None and current["outcome"] is None:
                    abandon(current, "a new exchange followed on the connection")
            if request.path == "/pairings":
                kind = {
                    tlv8.METHOD_ADD_PAIRING: "add-pairing",
                    tlv8.METHOD_REMOVE_PAIRING: "remove-pairing",
                    tlv8.METHOD_LIST_PAIRINGS: "list-pairings",
                }[tlv8.integer(items, tlv8.METHOD)]
                current = new_entry(kind, connection, exchange)
                entries.append(current)
            elif state == 1:
                current = new_entry(request.path.strip("/"), connection, exchange)
                entries.append(current)
            if current is None:
                continue
            if request.path == "/pair-setup" and state == 3:
                current["_a_prefix"] = items[0x03][:32].hex()
            finish_entry(current, exchange, request.path, state)
        if current is not None and current["outcome"] is None:
            abandon(current, "the connection closed")

    entries.sort(key=lambda entry: entry["_started"])
    for entry in entries:
        del entry["_started"], entry["_last_state"]
        a_prefix = entry.pop("_a_prefix", None)
        if entry["kind"] == "pair-setup" and entry["error"] == 2 and a_prefix is not None:
            cause = srp.mismatch_cause(a_prefix, peers)
            right_code = entry["note"] is not None and setup_code in entry["note"]
            if cause is not None and right_code:
                entry["note"] = join_notes(
                    entry["note"],
                    f"the code was right: {peers[0]}/{peers[1]} SRP leading-zero mismatch ({cause})",
                )
    return entries


def new_entry(kind: str, connection: Connection, exchange: Exchange) -> dict[str, Any]:
    return {
        "kind": kind,
        "client": connection.client,
        "outcome": None,
        "error": None,
        "note": exchange.request.note,
        "_started": exchange.request.time,
        "_last_state": None,
    }


def abandon(entry: dict[str, Any], then: str) -> None:
    """An exchange that ended without an Error item and without its final message: an error with no code."""
    last = entry["_last_state"]
    stopped = f"the exchange stopped after M{last}" if last is not None else "the exchange got no response"
    entry["outcome"] = "error"
    entry["note"] = join_notes(entry["note"], f"{stopped}, then {then}")


def finish_entry(entry: dict[str, Any], exchange: Exchange, path: str, request_state: int | None) -> None:
    if exchange.response_http is None:
        return
    items = tlv8.decode(exchange.response_http.body) if exchange.response_http.body else {}
    entry["_last_state"] = tlv8.integer(items, tlv8.STATE)
    error = tlv8.integer(items, tlv8.ERROR)
    if error is not None:
        entry["outcome"], entry["error"] = "error", error
        failure = f"M{tlv8.integer(items, tlv8.STATE)} Error={PAIRING_ERRORS.get(error, error)}"
        if failure not in (entry["note"] or ""):
            entry["note"] = join_notes(entry["note"], failure)
        return
    final_request_state = {"/pair-setup": 5, "/pair-verify": 3}.get(path)
    if final_request_state is None or request_state == final_request_state:
        entry["outcome"] = "success"


def join_notes(*notes: str | None) -> str | None:
    present = [note for note in notes if note]
    return "; ".join(present) if present else None


def accessories_body(connections: list[Connection]) -> dict[str, Any] | None:
    """The body of the first GET /accessories response that is valid JSON (bad-json sends some that are not)."""
    for connection in connections:
        for exchange in exchanges(connection):
            if exchange.request_http.path == "/accessories" and exchange.response_http is not None:
                try:
                    return json.loads(exchange.response_http.body)
                except ValueError:
                    continue
    return None


@dataclass
class KeyLog:
    lines: list[str]
    conflicts: list[str]


def key_log(recording: Recording, accessory: list[dict], controller: list[dict], srp: SrpRecords) -> KeyLog:
    """One line per distinct secret, in the order the peers first computed them.

    Both peers log what they can reach; where both computed the same entry it appears once. The SRP
    session key comes from the controller (its K as 64 bytes); when the accessory derived a different K
    for the same exchange, that one follows as a comment.
    """
    entries = [r for r in accessory + controller if r["kind"] == "key"]
    for record in controller:
        if record["kind"] == "srp":
            entries.append({"t": record["t"], "label": "PAIR_SETUP_SESSION_KEY", "id": record["a_prefix"], "secret": record["k"]})
    # The peers log a pair-verify's entries within microseconds of each other; listing each session's
    # entries together in a fixed label order keeps the file the same from run to run.
    session_start: dict[str, float] = {}
    for entry in entries:
        if entry.get("session"):
            session_start[entry["session"]] = min(entry["t"], session_start.get(entry["session"], entry["t"]))
    entries.sort(
        key=lambda e: (session_start[e["session"]], SESSION_LABEL_ORDER.index(e["label"]))
        if e.get("session")
        else (e["t"], -1)
    )

    scenario = recording.scenario
    lines = [
        f"# hapscope key log for {scenario.name}{scenario.capture_suffix}",
        f"# accessory: {scenario.accessory_peer.implementation}; controller: {scenario.controller_peer.implementation}",
        "# LABEL <id> <secret>, lower-case hex; the id of the two LTPK labels is the pairing identifier text",
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
        if entry["label"] == "PAIR_SETUP_SESSION_KEY":
            accessory_view = srp.accessory.get(entry["id"])
            if accessory_view is not None and accessory_view["k"] != entry["secret"]:
                lines.append(
                    f"# {scenario.accessory_peer.name} (accessory) derived a different K for this pair-setup: {accessory_view['k']}"
                )
    return KeyLog(lines=lines, conflicts=conflicts)


def capture_note(scenario: Scenario) -> str:
    where = "in the accessory's namespace"
    if scenario.capture == TCPDUMP_ANY:
        return f"captured with tcpdump -i any {where} (Linux cooked v2 headers)"
    tool = "dumpcap" if scenario.capture == DUMPCAP else "tcpdump"
    side = " on the accessory's side of the lossy relay" if scenario.impairment is not None else ""
    when = (
        ", started only when the story asked for it, in the middle of the traffic (captureStart says what it holds)"
        if scenario.capture_on_request
        else ""
    )
    return f"captured with {tool} on the accessory's interface hap0 {where}{side}{when}"


def build_truth(recording: Recording, capture_name: str) -> tuple[dict[str, Any], KeyLog]:
    scenario = recording.scenario
    accessory = read_journal(recording.workdir / "accessory.jsonl")
    controller = read_journal(recording.workdir / "controller.jsonl")
    identity = next(r for r in accessory if r["kind"] == "accessory")
    connections = merge_connections(accessory, controller)
    srp = SrpRecords.collect(accessory, controller)
    keys = key_log(recording, accessory, controller, srp)

    controllers: dict[str, dict[str, Any]] = {}
    for record in accessory:
        if record["kind"] == "pairing-stored":
            controllers.setdefault(
                record["pairing_id"], {"pairingId": record["pairing_id"], "ltpk": record["ltpk"], "admin": record["admin"]}
            )

    misbehaviours = [
        {"rule": record["rule"], "connection": record["connection"], "detail": record["detail"]}
        for record in sorted((r for r in accessory + controller if r["kind"] == "misbehaviour"), key=lambda r: r["t"])
    ]
    notes = list(scenario.notes) + generated_notes(recording, accessory, controller)
    notes += [
        f"deliberate misbehaviour [{m['rule']}] on {m['connection'] or 'no connection (mDNS / the accessory as a whole)'}: "
        f"{m['detail']}"
        for m in misbehaviours
    ]
    notes += [
        f"observed: {record['text']}"
        for record in sorted((r for r in accessory + controller if r["kind"] == "observation"), key=lambda r: r["t"])
    ]
    truth = {
        "schema": SCHEMA_VERSION,
        "scenario": scenario.name,
        "description": scenario.description,
        "accessoryImplementation": scenario.accessory_peer.implementation,
        "controllerImplementation": scenario.controller_peer.implementation,
        "capture": capture_name,
        "linkType": link_type(recording.capture),
        "setupCode": identity["setup_code"],
        "setupId": identity["setup_id"],
        "accessories": [
            {
                "name": identity["name"],
                "deviceId": identity["device_id"],
                "address": identity["address"],
                "port": identity["port"],
                "category": identity["category"],
                "ltpk": identity["ltpk"],
            }
        ],
        "controllers": list(controllers.values()),
        "advertisements": [
            {
                "time": record["sent_at"],
                "instance": record["instance"],
                "service": "_hap._tcp",
                "port": record["port"],
                "txt": record["txt"],
            }
            for record in accessory
            if record["kind"] == "advertisement"
        ],
        "pairings": pairing_entries(
            connections, srp, identity["setup_code"], (scenario.accessory_peer.name, scenario.controller_peer.name)
        ),
        "connections": [
            {
                "client": connection.client,
                "server": connection.server,
                "messages": [
                    {
                        "direction": message.direction,
                        "encrypted": message.encrypted,
                        "data": base64.b64encode(message.data).decode("ascii"),
                    }
                    for message in connection.messages
                ],
            }
            for connection in connections
        ],
        "accessoriesBody": accessories_body(connections),
        "notes": notes,
        "misbehaviours": misbehaviours,
    }
    capturestart.annotate(truth, connections, accessory, controller)
    return truth, keys


def generated_notes(recording: Recording, accessory: list[dict], controller: list[dict]) -> list[str]:
    scenario = recording.scenario
    accessory_name, controller_name = scenario.accessory_peer.name, scenario.controller_peer.name
    notes = [
        capture_note(scenario),
        f"accessory {scenario.addressing.accessory} ({accessory_name}), controller {scenario.addressing.controller} "
        f"({controller_name}), each in its own network namespace",
        f"messages were recorded where each sender wrote them: {scenario.accessory_peer.recorded_at} and "
        f"{scenario.controller_peer.recorded_at}; one message = one such write, in "
        "plaintext, before the sender split it into frames of at most 1024 bytes",
        "messages of one direction are in exact order; the two directions are interleaved by the senders' "
        "timestamps (same host clock)",
        f"advertisements lists every mDNS response {accessory_name}'s zeroconf sent carrying the accessory's _hap._tcp "
        "TXT record (announcements and answers to queries), timed when it was handed to the socket; the "
        "goodbye records (TTL 0) sent at shutdown are not listed",
        f"randomness seeded with {recording.seed} (scenario base seed {scenario.seed}): SRP secrets, ephemeral "
        "and long-term keys and pairing ids repeat on every run; controller source ports count up from 49201",
    ]
    removals = [r for r in accessory if r["kind"] == "pairing-removed"]
    if removals:
        emptied = any(not r["remaining"] for r in removals)
        notes.append(
            f"controllers lists every pairing {accessory_name} stored during the capture; removed again: "
            + ", ".join(r["pairing_id"] for r in removals)
            + (f" ({accessory_name} drops all pairings when the last admin is removed)" if emptied else "")
        )
    retries = [r for r in controller if r["kind"] == "srp-mismatch-retry"]
    if retries:
        notes.append(
            f"the toolkit retried pair-setup {len(retries)} time(s) after an SRP leading-zero mismatch "
            "(M4 Error=Authentication with the right setup code)"
        )
    relay_stats = recording.workdir / "relay.json"
    if relay_stats.exists():
        stats = json.loads(relay_stats.read_text())
        counters, impairment = stats["counters"], stats["impairment"]
        notes.append(
            f"relay seed {recording.relay_seed}: "
            "a seeded relay between the namespaces drops {drop:.0%}, duplicates {duplicate:.0%} and holds back "
            "{reorder:.0%} of the Ethernet frames in both directions, mDNS included (a held frame leaves right after "
            "the next one, or after {hold_seconds} s); this run: {received} frames in, {dropped} dropped, "
            "{duplicated} duplicated, {overtaken} overtaken, {delayed} only delayed; the capture sees "
            "controller-to-accessory frames after the relay and accessory-to-controller frames before "
            "it".format(**impairment, **counters)
        )
    return notes


def write_outputs(recording: Recording, out_dir: Path) -> tuple[Path, Path, Path]:
    scenario = recording.scenario
    capture_path = out_dir / f"{scenario.name}{scenario.capture_suffix}"
    truth, keys = build_truth(recording, capture_path.name)
    if keys.conflicts:
        raise ValueError("the two peers logged different secrets under one key-log entry: " + "; ".join(keys.conflicts))
    capture_path.write_bytes(recording.capture.read_bytes())
    keylog_path = out_dir / f"{scenario.name}.keylog"
    keylog_path.write_text("\n".join(keys.lines) + "\n")
    truth_path = out_dir / f"{scenario.name}.truth.json"
    truth_path.write_text(json.dumps(truth, indent=2) + "\n")
    return capture_path, keylog_path, truth_path
