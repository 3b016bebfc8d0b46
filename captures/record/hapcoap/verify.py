"""Checking a recorded HAP-over-CoAP scenario end to end, against the capture itself.

For every scenario in ``captures/coap/``:

* the truth file has the schema's keys and types, and its link type is the capture's (file header and tcpdump);
* every key-log line parses, and the key log is self-consistent: each ephemeral secret yields its public key,
  the two ephemeral keys yield the shared secret, each shared secret yields the three CoAP keys, every session
  has its SESSION_ENDPOINTS, the LTPKs of the truth's accessory and controllers are there;
* the capture holds exactly as many mDNS responses from the accessory carrying its ``_hap._udp`` TXT record as
  the truth lists advertisements;
* per UDP flow, the captured CoAP datagrams are exactly the truth's messages, byte for byte and in order (a
  datagram the relay dropped before the capture point missing, one it duplicated there twice);
* every body (block-wise ones joined) that travels on ``/`` or as an event opens with the logged session keys
  under the counter the truth names, to exactly the truth's PDUs (plaintext ones verbatim);
* a reference check of the four CoAP rules, computed from the wire and the keys alone (counters tried from the
  expected one onwards, message IDs, capture times), finds exactly the (rule, connection) pairs the truth
  declares under ``misbehaviours``: none at all in the clean scenarios.

Usage: ``python -m hapcoap.verify [CAPTURES_DIR] [scenario ...]``; exits non-zero on any failure.
"""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import zeroconf
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric import x25519

from . import coapwire, hapcrypto, pdu
from .truth import assemble, link_type

MDNS_PORT = 5353
# aiohomekit 4.0.1 controller/coap/connection.py post_bytes: an encrypted request is given up after 16 s.
AIOHOMEKIT_REQUEST_TIMEOUT = 16.0
# How far past the expected counter the reference check looks for the one a body was sealed with.
COUNTER_SEARCH = 64
LABELS = {
    "PAIR_VERIFY_SHARED_SECRET", "CONTROLLER_EPHEMERAL_SECRET", "ACCESSORY_EPHEMERAL_SECRET", "CONTROL_WRITE_KEY",
    "CONTROL_READ_KEY", "EVENT_READ_KEY", "PAIR_SETUP_SESSION_KEY", "ACCESSORY_LTPK", "CONTROLLER_LTPK",
}  # fmt: skip
KEY_LINE = re.compile(r"^(?P<label>[A-Z_]+) (?P<id>\S+) (?P<secret>[0-9a-f]+)$")
ENDPOINTS_LINE = re.compile(r"^SESSION_ENDPOINTS (?P<id>[0-9a-f]{64}) (?P<controller>\[[0-9a-f:]+\]:\d+) (?P<accessory>\[[0-9a-f:]+\]:\d+)$")
TRUTH_KEYS = {
    "schema": int, "transport": str, "scenario": str, "description": str, "accessoryImplementation": str,
    "controllerImplementation": str, "capture": str, "linkType": str, "setupCode": str, "setupId": str,
    "accessories": list, "controllers": list, "advertisements": list, "coap": list, "pdus": list, "pairings": list,
    "misbehaviours": list, "notes": list,
}  # fmt: skip
COAP_KEYS = {
    "time", "sender", "direction", "source", "destination", "type", "code", "messageId", "token", "options", "payload",
    "retransmission", "droppedByRelay", "duplicatedByRelay",
}  # fmt: skip
PDU_KEYS = {"time", "direction", "coap", "encryption", "batchIndex", "kind", "control", "tid", "opcode", "iid", "status", "body"}
RULES = {"counter-drift", "retransmission-differs", "plaintext-after-encryption", "late-response"}


class VerificationError(Exception):
    pass


def require(condition: bool, message: str) -> None:
    if not condition:
        raise VerificationError(message)


def check_truth_schema(truth: dict[str, Any]) -> None:
    require(set(truth) == set(TRUTH_KEYS), f"truth keys differ from the schema: {sorted(set(truth) ^ set(TRUTH_KEYS))}")
    for key, kind in TRUTH_KEYS.items():
        require(isinstance(truth[key], kind), f"truth field {key} is not a {kind.__name__}")
    require(truth["schema"] == 1 and truth["transport"] == "coap", "schema is not 1 or transport is not coap")
    for entry in truth["coap"]:
        require(set(entry) == COAP_KEYS, f"coap entry keys {sorted(entry)}")
        require(entry["type"] in coapwire.TYPES.values(), f"coap type {entry['type']}")
    for entry in truth["pdus"]:
        require(set(entry) == PDU_KEYS, f"pdu entry keys {sorted(entry)}")
        require(entry["kind"] in {"request", "response", "event"}, f"pdu kind {entry['kind']}")
        encryption = entry["encryption"]
        require(encryption is None or (set(encryption) == {"keyKind", "counter"} and encryption["keyKind"] in {"control", "event"}),
                f"pdu encryption {encryption}")  # fmt: skip
    for entry in truth["pairings"]:
        require(set(entry) == {"kind", "client", "outcome", "error", "note"}, f"pairing keys {sorted(entry)}")
        require(entry["outcome"] in {"success", "error"}, f"pairing outcome {entry['outcome']}")
    for entry in truth["misbehaviours"]:
        require(set(entry) == {"rule", "connection", "detail"} and entry["rule"] in RULES, f"misbehaviour {entry}")


# --- key log ------------------------------------------------------------------------------------------


@dataclass
class Keys:
    secrets: dict[str, dict[str, bytes]]
    sessions: dict[tuple[str, str], str]  # (controller endpoint, accessory endpoint) → session id


def read_key_log(path: Path) -> Keys:
    secrets: dict[str, dict[str, bytes]] = {}
    sessions: dict[tuple[str, str], str] = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        endpoints = ENDPOINTS_LINE.match(line)
        if endpoints is not None:
            sessions[(endpoints["controller"], endpoints["accessory"])] = endpoints["id"]
            continue
        match = KEY_LINE.match(line)
        require(match is not None and match["label"] in LABELS, f"{path.name}:{number}: not a key-log line: {line!r}")
        secret = bytes.fromhex(match["secret"])
        expected = 64 if match["label"] == "PAIR_SETUP_SESSION_KEY" else 32
        require(len(secret) == expected, f"{path.name}:{number}: {match['label']} secret is {len(secret)} bytes")
        secrets.setdefault(match["label"], {})[match["id"]] = secret
    return Keys(secrets, sessions)


def check_key_log(keys: Keys, truth: dict[str, Any]) -> None:
    secrets = keys.secrets
    for label in ("CONTROLLER_EPHEMERAL_SECRET", "ACCESSORY_EPHEMERAL_SECRET"):
        for public, secret in secrets.get(label, {}).items():
            derived = x25519.X25519PrivateKey.from_private_bytes(secret).public_key().public_bytes_raw()
            require(derived.hex() == public, f"{label} {public} does not yield its public key")
    for session, shared in secrets.get("PAIR_VERIFY_SHARED_SECRET", {}).items():
        for label, key in hapcrypto.session_keys(shared).items():
            require(secrets.get(label, {}).get(session) == key, f"{label} {session} is not derived from its shared secret")
        controller_secret = secrets["CONTROLLER_EPHEMERAL_SECRET"][session]
        require(
            any(
                x25519.X25519PrivateKey.from_private_bytes(controller_secret).exchange(
                    x25519.X25519PublicKey.from_public_bytes(bytes.fromhex(accessory_public))) == shared
                for accessory_public in secrets.get("ACCESSORY_EPHEMERAL_SECRET", {})
            ),
            f"no accessory ephemeral key gives the shared secret of {session}",
        )  # fmt: skip
        require(session in keys.sessions.values(), f"session {session} has no SESSION_ENDPOINTS line")
    for accessory in truth["accessories"]:
        logged = secrets.get("ACCESSORY_LTPK", {}).get(accessory["deviceId"])
        require(logged is not None and logged.hex() == accessory["ltpk"], f"ACCESSORY_LTPK {accessory['deviceId']}")
    for controller in truth["controllers"]:
        logged = secrets.get("CONTROLLER_LTPK", {}).get(controller["pairingId"])
        require(logged is not None and logged.hex() == controller["ltpk"], f"CONTROLLER_LTPK {controller['pairingId']}")


# --- capture ------------------------------------------------------------------------------------------


def tshark_fields(capture: Path, display_filter: str, *fields: str) -> list[list[str]]:
    arguments = ["tshark", "-r", str(capture), "-Y", display_filter, "-T", "fields"]
    for name in fields:
        arguments += ["-e", name]
    result = subprocess.run(arguments, check=True, capture_output=True, text=True, timeout=120)
    return [line.split("\t") for line in result.stdout.splitlines()]


def link_type_by_tcpdump(capture: Path) -> str:
    result = subprocess.run(["tcpdump", "-r", str(capture), "-c", "1", "-n"], capture_output=True, text=True, timeout=60, check=True)
    match = re.search(r"link-type (\S+)", result.stderr)
    require(match is not None, f"tcpdump did not report a link type for {capture.name}")
    return match[1]


def advertisement_count(capture: Path, accessory_address: str) -> int:
    count = 0
    for source, payload in tshark_fields(capture, f"udp.srcport == {MDNS_PORT}", "ipv6.src", "udp.payload"):
        if source != accessory_address or not payload:
            continue
        message = zeroconf.DNSIncoming(bytes.fromhex(payload))
        if message.is_response() and any(
            isinstance(r, zeroconf.DNSText) and r.name.endswith("._hap._udp.local.") and r.ttl > 0 for r in message.answers()
        ):
            count += 1
    return count


def captured_datagrams(capture: Path, port: int) -> dict[tuple[str, str], list[tuple[float, bytes]]]:
    flows: dict[tuple[str, str], list[tuple[float, bytes]]] = {}
    fields = ("frame.time_epoch", "ipv6.src", "udp.srcport", "ipv6.dst", "udp.dstport", "udp.payload")
    # An ICMPv6 error quotes the datagram it is about; tshark would list the quoted UDP header too.
    for time, source, sport, destination, dport, payload in tshark_fields(capture, f"udp.port == {port} && !icmpv6", *fields):
        flows.setdefault((f"[{source}]:{sport}", f"[{destination}]:{dport}"), []).append((float(time), bytes.fromhex(payload)))
    return flows


def match_capture(truth: dict[str, Any], capture: Path, port: int) -> list[float | None]:
    """Each truth message's capture time; fails unless every flow on the wire is exactly the truth's."""
    captured = captured_datagrams(capture, port)
    times: list[float | None] = [None] * len(truth["coap"])
    expected: dict[tuple[str, str], list[tuple[int, bytes]]] = {}
    for index, entry in enumerate(truth["coap"]):
        data = coapwire_bytes(entry)
        toward_accessory = entry["direction"] == "controller-to-accessory"
        copies = 0 if toward_accessory and entry["droppedByRelay"] else 2 if toward_accessory and entry["duplicatedByRelay"] else 1
        expected.setdefault((entry["source"], entry["destination"]), []).extend([(index, data)] * copies)
    require(set(captured) <= set(expected), f"flows in the capture the truth does not list: {sorted(set(captured) - set(expected))}")
    for flow, messages in expected.items():
        wire = captured.get(flow, [])
        require(len(wire) == len(messages), f"{flow[0]} → {flow[1]}: {len(wire)} datagrams captured, truth expects {len(messages)}")
        for (index, data), (time, payload) in zip(messages, wire):
            require(payload == data, f"{flow[0]} → {flow[1]}: truth message {index} differs from the captured datagram")
            times[index] = time if times[index] is None else times[index]
    return times


def coapwire_bytes(entry: dict[str, Any]) -> bytes:
    """Re-encode a truth message (RFC 7252 §3) so that it can be compared with the wire byte for byte."""
    mtype = {v: k for k, v in coapwire.TYPES.items()}[entry["type"]]
    token = bytes.fromhex(entry["token"])
    code = next((c for c, name in coapwire.CODE_NAMES.items() if name == entry["code"]), None)
    if code is None:
        major, minor = entry["code"].split(".")
        code = int(major) << 5 | int(minor)
    out = bytearray([0x40 | mtype << 4 | len(token), code]) + entry["messageId"].to_bytes(2, "big") + token
    previous = 0
    for option in entry["options"]:
        value = bytes.fromhex(option["value"])
        delta, length = option["number"] - previous, len(value)
        previous = option["number"]
        nibbles, extension = [], b""
        for amount in (delta, length):
            if amount < 13:
                nibbles.append(amount)
            elif amount < 269:
                nibbles.append(13)
                extension += bytes([amount - 13])
            else:
                nibbles.append(14)
                extension += (amount - 269).to_bytes(2, "big")
        out += bytes([nibbles[0] << 4 | nibbles[1]]) + extension + value
    payload = base64.b64decode(entry["payload"])
    if payload:
        out += bytes([coapwire.PAYLOAD_MARKER]) + payload
    return bytes(out)


# --- decryption ---------------------------------------------------------------------------------------


def session_of(keys: Keys, controller: str, accessory: str) -> str | None:
    return keys.sessions.get((controller, accessory))


def key_for(keys: Keys, session: str, kind: str) -> bytes:
    label = {"request": "CONTROL_WRITE_KEY", "response": "CONTROL_READ_KEY", "event": "EVENT_READ_KEY"}[kind]
    return keys.secrets[label][session]


def encode_group(group: list[dict[str, Any]]) -> bytes:
    out = b""
    for entry in sorted(group, key=lambda e: e["batchIndex"]):
        body = base64.b64decode(entry["body"])
        if entry["kind"] == "request":
            out += pdu.Request(entry["opcode"], entry["tid"], entry["iid"], body, entry["control"]).encode()
        elif entry["kind"] == "response":
            out += pdu.Response(entry["tid"], entry["status"], body, entry["control"]).encode()
        else:
            out += pdu.EventRecord(entry["iid"], body, entry["control"]).encode()
    return out


def hap_bodies(truth: dict[str, Any]) -> dict[int, tuple[bytes, str, str, str]]:
    """The bodies on ``/`` and of events, by first message: (body, kind, controller endpoint, accessory endpoint)."""
    messages = [(e["sender"], e["source"], e["destination"], coapwire.decode(coapwire_bytes(e))) for e in truth["coap"]]
    request_paths: dict[tuple[str, str, bytes], tuple[str, int]] = {}
    for sender, source, destination, message in messages:
        if message.is_request:
            request_paths[(source, destination, message.token)] = (message.path, message.code)
    bodies: dict[int, tuple[bytes, str, str, str]] = {}
    for body in assemble(messages):
        sender, source, destination, message = messages[body.first]
        if message.is_request:
            path, code = message.path, message.code
        else:
            path, code = request_paths.get((destination, source, message.token), ("?", 0))
        if path != "/":
            continue
        if code == 0x03:  # PUT: an event, accessory → controller
            kind = "event" if message.is_request else "event-answer"
        else:
            kind = "request" if message.is_request else "response"
        controller, accessory = (source, destination) if sender == "controller" else (destination, source)
        bodies[body.first] = (body.data, kind, controller, accessory)
    return bodies


def check_pdus(truth: dict[str, Any], keys: Keys) -> int:
    groups: dict[int, list[dict[str, Any]]] = {}
    for entry in truth["pdus"]:
        require(entry["coap"] is not None, f"a {entry['kind']} PDU has no message carrying it")
        groups.setdefault(entry["coap"], []).append(entry)
    bodies = hap_bodies(truth)
    for index in bodies:
        if bodies[index][1] != "event-answer":
            require(index in groups, f"the body of message {index} is not in the truth's pdus")
    opened = 0
    for index, group in groups.items():
        first = group[0]
        body = bodies.get(index)
        data = body[0] if body is not None else base64.b64decode(truth["coap"][index]["payload"])
        entry = truth["coap"][index]
        controller, accessory = (
            (entry["source"], entry["destination"]) if entry["sender"] == "controller" else (entry["destination"], entry["source"])
        )
        expected = encode_group(group)
        if first["encryption"] is None:
            require(data == expected, f"message {index}: the plaintext body is not the truth's PDUs")
            continue
        session = session_of(keys, controller, accessory)
        require(session is not None, f"message {index}: no SESSION_ENDPOINTS for {controller} {accessory}")
        try:
            plaintext = hapcrypto.open_sealed(key_for(keys, session, first["kind"]), first["encryption"]["counter"], data)
        except InvalidTag as error:
            raise VerificationError(f"message {index}: does not open with counter {first['encryption']['counter']}") from error
        require(plaintext == expected, f"message {index}: opens to something other than the truth's PDUs")
        opened += 1
    return opened


# --- reference rule check -----------------------------------------------------------------------------


def rule_findings(truth: dict[str, Any], keys: Keys, times: list[float | None]) -> set[tuple[str, str]]:
    findings: set[tuple[str, str]] = set()
    seen: dict[tuple[str, str, str, int], bytes] = {}
    requests: dict[tuple[str, str, bytes], float] = {}
    for index, entry in enumerate(truth["coap"]):
        controller = entry["source"] if entry["sender"] == "controller" else entry["destination"]
        key = (entry["source"], entry["destination"], entry["type"], entry["messageId"])
        payload = base64.b64decode(entry["payload"])
        if key in seen and seen[key] != payload and entry["type"] in ("CON", "NON"):
            findings.add(("retransmission-differs", controller))
        seen.setdefault(key, payload)
        message = coapwire.decode(coapwire_bytes(entry))
        time = times[index] if times[index] is not None else entry["time"]
        if message.is_request and not entry["retransmission"]:
            requests[(entry["source"], entry["destination"], message.token)] = time
        elif message.is_response:
            asked = requests.get((entry["destination"], entry["source"], message.token))
            if asked is not None and entry["sender"] == "accessory" and time - asked > AIOHOMEKIT_REQUEST_TIMEOUT:
                findings.add(("late-response", controller))
    expected_counter: dict[tuple[str, str], int] = {}
    for index, (data, kind, controller, accessory) in sorted(hap_bodies(truth).items()):
        if kind == "event-answer":
            continue
        session = session_of(keys, controller, accessory)
        if session is None:
            continue
        slot = (session, kind)
        due = expected_counter.get(slot, 0)
        key = key_for(keys, session, kind)
        found = next((c for c in range(due, due + COUNTER_SEARCH) if opens(key, c, data)), None)
        if found is None:
            if plaintext_pdus(data, kind):
                findings.add(("plaintext-after-encryption", controller))
            continue
        if found != due:
            findings.add(("counter-drift", controller))
        expected_counter[slot] = found + 1
    return findings


def opens(key: bytes, counter: int, data: bytes) -> bool:
    try:
        hapcrypto.open_sealed(key, counter, data)
    except InvalidTag:
        return False
    return True


def plaintext_pdus(data: bytes, kind: str) -> bool:
    split = {"request": pdu.split_requests, "response": pdu.split_responses, "event": pdu.split_event_records}[kind]
    try:
        split(data)
    except pdu.PduError:
        return False
    return True


def verify_scenario(directory: Path, name: str) -> str:
    truth = json.loads((directory / f"{name}.truth.json").read_text())
    check_truth_schema(truth)
    capture = directory / truth["capture"]
    require(capture.exists(), f"{capture.name} is missing")
    for reported in (link_type(capture), link_type_by_tcpdump(capture)):
        require(reported == truth["linkType"], f"link type {reported} but truth says {truth['linkType']}")
    keys = read_key_log(directory / f"{name}.keylog")
    check_key_log(keys, truth)
    accessory = truth["accessories"][0]
    advertisements = advertisement_count(capture, accessory["address"])
    require(advertisements == len(truth["advertisements"]),
            f"the capture has {advertisements} mDNS responses with the TXT record, truth lists {len(truth['advertisements'])}")  # fmt: skip
    times = match_capture(truth, capture, accessory["port"])
    opened = check_pdus(truth, keys)
    found = rule_findings(truth, keys, times)
    declared = {(m["rule"], m["connection"]) for m in truth["misbehaviours"]}
    require(found == declared, f"the rule check finds {sorted(found)}, the truth declares {sorted(declared)}")
    on_wire = sum(1 for t in times if t is not None)
    return (
        f"{name}: {truth['linkType']}, {advertisements} advertisements, {len(truth['coap'])} CoAP messages "
        f"({on_wire} on the wire at the capture point) match, {len(truth['pdus'])} PDUs, {opened} encrypted bodies opened, "
        f"rule check: {', '.join(sorted(r for r, _ in found)) or 'nothing found'}"
    )


def main() -> None:
    directory = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "coap"
    names = sys.argv[2:] or sorted(p.name.removesuffix(".truth.json") for p in directory.glob("*.truth.json"))
    failures = 0
    for name in names:
        try:
            print(verify_scenario(directory, name))
        except (VerificationError, ValueError, KeyError, subprocess.SubprocessError) as error:
            failures += 1
            print(f"{name}: FAILED: {error}")
    print(f"{len(names) - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
