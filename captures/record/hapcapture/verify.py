"""Checking a recorded scenario end to end, against the capture itself.

For every scenario in ``captures/``:

* the truth file has the schema's keys and types, and its link type is the capture's;
* every key-log line parses, and the key log is self-consistent (each ephemeral secret yields its
  public key, each shared secret yields the logged control keys, each SRP session key opens the M5
  and M6 of its pair-setup);
* the capture holds exactly as many mDNS responses from the accessory carrying its TXT record as the
  truth lists advertisements, and tshark finds exactly as many TCP conversations as it lists connections;
* each connection's reassembled TCP byte streams (tshark ``follow,tcp,raw``) are exactly the truth's
  messages: plaintext messages verbatim, encrypted ones as frames that decrypt with the logged control
  keys (``frames.walk``, which recognises deliberate frame faults and reports them);
* the reference rule check (``rules.check``, fed with those messages timed by the capture, the key log,
  the mDNS packets and the frame faults) finds exactly the (rule, connection) pairs the truth declares
  under ``misbehaviours``: all of them in a misbehaving capture, none at all in a clean one.

Usage: ``python -m hapcapture.verify [CAPTURES_DIR] [scenario ...]``; exits non-zero on any failure.
"""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import zeroconf
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import x25519
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from . import frames, http, rules, tlv8
from .journal import ACCESSORY_TO_CONTROLLER, CONTROLLER_TO_ACCESSORY
from .truth import link_type

MDNS_PORT = 5353
KEYLOG_LINE = re.compile(
    r"^(?P<label>PAIR_VERIFY_SHARED_SECRET|CONTROLLER_EPHEMERAL_SECRET|ACCESSORY_EPHEMERAL_SECRET|CONTROL_WRITE_KEY|"
    r"CONTROL_READ_KEY|PAIR_SETUP_SESSION_KEY|ACCESSORY_LTPK|CONTROLLER_LTPK) (?P<id>\S+) (?P<secret>[0-9a-f]+)$"
)
SECRET_BYTES = {"PAIR_SETUP_SESSION_KEY": 64}
HEX_ID_BYTES = {
    "PAIR_VERIFY_SHARED_SECRET": 32,
    "CONTROLLER_EPHEMERAL_SECRET": 32,
    "ACCESSORY_EPHEMERAL_SECRET": 32,
    "CONTROL_WRITE_KEY": 32,
    "CONTROL_READ_KEY": 32,
    "PAIR_SETUP_SESSION_KEY": 32,
}
TRUTH_KEYS = {
    "schema": int, "scenario": str, "description": str, "accessoryImplementation": str,
    "controllerImplementation": str, "capture": str, "linkType": str, "setupCode": str, "setupId": str,
    "accessories": list, "controllers": list, "advertisements": list, "pairings": list, "connections": list,
    "accessoriesBody": dict, "notes": list, "misbehaviours": list,
}  # fmt: skip


class VerificationError(Exception):
    pass


def require(condition: bool, message: str) -> None:
    if not condition:
        raise VerificationError(message)


def hkdf(key: bytes, salt: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA512(), length=32, salt=salt, info=info).derive(key)


def padded_nonce(text: bytes) -> bytes:
    return text.rjust(12, b"\0")


# --- truth ----------------------------------------------------------------------------------------


def check_truth_schema(truth: dict[str, Any]) -> None:
    require(set(truth) == set(TRUTH_KEYS), f"truth keys differ from the schema: {sorted(set(truth) ^ set(TRUTH_KEYS))}")
    for key, kind in TRUTH_KEYS.items():
        require(isinstance(truth[key], kind), f"truth field {key} is not a {kind.__name__}")
    require(truth["schema"] == 1, "schema is not 1")
    for accessory in truth["accessories"]:
        require(set(accessory) == {"name", "deviceId", "address", "port", "category", "ltpk"}, f"accessory keys {sorted(accessory)}")
    for controller in truth["controllers"]:
        require(set(controller) == {"pairingId", "ltpk", "admin"}, f"controller keys {sorted(controller)}")
    for advertisement in truth["advertisements"]:
        require(set(advertisement) == {"time", "instance", "service", "port", "txt"}, f"advertisement keys {sorted(advertisement)}")
        require(isinstance(advertisement["time"], float), "advertisement time is not a float")
    for pairing in truth["pairings"]:
        require(set(pairing) == {"kind", "client", "outcome", "error", "note"}, f"pairing keys {sorted(pairing)}")
        require(
            pairing["kind"] in {"pair-setup", "pair-verify", "add-pairing", "remove-pairing", "list-pairings"},
            f"pairing kind {pairing['kind']}",
        )
        require(pairing["outcome"] in {"success", "error"}, f"pairing outcome {pairing['outcome']}")
        # An exchange can fail without an Error item (abandoned after a wrong proof or signature); never the reverse.
        require(pairing["error"] is None or pairing["outcome"] == "error", "a pairing with an error code succeeded")
        require(pairing["outcome"] == "error" or pairing["error"] is None, "pairing error does not match outcome")
    for misbehaviour in truth["misbehaviours"]:
        require(set(misbehaviour) == {"rule", "connection", "detail"}, f"misbehaviour keys {sorted(misbehaviour)}")
    for connection in truth["connections"]:
        require(set(connection) == {"client", "server", "messages"}, f"connection keys {sorted(connection)}")
        for message in connection["messages"]:
            require(set(message) == {"direction", "encrypted", "data"}, f"message keys {sorted(message)}")
            require(message["direction"] in {CONTROLLER_TO_ACCESSORY, ACCESSORY_TO_CONTROLLER}, "message direction")
            http.parse(base64.b64decode(message["data"]))


# --- key log --------------------------------------------------------------------------------------


def read_key_log(path: Path) -> dict[str, dict[str, bytes]]:
    keys: dict[str, dict[str, bytes]] = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        match = KEYLOG_LINE.match(line)
        require(match is not None, f"{path.name}:{number}: not a key-log line: {line!r}")
        label, ident, secret = match["label"], match["id"], bytes.fromhex(match["secret"])
        require(len(secret) == SECRET_BYTES.get(label, 32), f"{path.name}:{number}: {label} secret is {len(secret)} bytes")
        if label in HEX_ID_BYTES:
            require(re.fullmatch(r"[0-9a-f]{64}", ident) is not None, f"{path.name}:{number}: {label} id is not 32 hex bytes")
        keys.setdefault(label, {})[ident] = secret
    return keys


def check_key_log_consistency(keys: dict[str, dict[str, bytes]]) -> None:
    for label in ("CONTROLLER_EPHEMERAL_SECRET", "ACCESSORY_EPHEMERAL_SECRET"):
        for public, secret in keys.get(label, {}).items():
            derived = x25519.X25519PrivateKey.from_private_bytes(secret).public_key().public_bytes_raw()
            require(derived.hex() == public, f"{label} {public} does not yield its public key")
    for controller_public, shared in keys.get("PAIR_VERIFY_SHARED_SECRET", {}).items():
        # A pair-verify that failed at M4 has a shared secret but never derived session keys.
        for label, info in (("CONTROL_WRITE_KEY", b"Control-Write-Encryption-Key"), ("CONTROL_READ_KEY", b"Control-Read-Encryption-Key")):
            logged = keys.get(label, {}).get(controller_public)
            require(
                logged is None or logged == hkdf(shared, b"Control-Salt", info),
                f"{label} {controller_public} is not derived from its shared secret",
            )
        controller_secret = keys["CONTROLLER_EPHEMERAL_SECRET"].get(controller_public)
        if controller_secret is not None:
            require(
                any(
                    x25519.X25519PrivateKey.from_private_bytes(controller_secret).exchange(
                        x25519.X25519PublicKey.from_public_bytes(bytes.fromhex(accessory_public))
                    )
                    == shared
                    for accessory_public in keys.get("ACCESSORY_EPHEMERAL_SECRET", {})
                ),
                f"no accessory ephemeral key gives the shared secret of {controller_public}",
            )


# --- capture --------------------------------------------------------------------------------------


def tshark(capture: Path, *arguments: str) -> str:
    result = subprocess.run(
        ["tshark", "-r", str(capture), "-o", "tcp.reassemble_out_of_order:TRUE", *arguments],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return result.stdout


def link_type_by_tcpdump(capture: Path) -> str:
    """The link type as libpcap reports it, a second opinion on ``truth.link_type``."""
    result = subprocess.run(
        ["tcpdump", "-r", str(capture), "-c", "1", "-n"], capture_output=True, text=True, timeout=60, check=True
    )
    match = re.search(r"link-type (\S+)", result.stderr)
    require(match is not None, f"tcpdump did not report a link type for {capture.name}")
    return match[1]


def check_long_term_keys(truth: dict[str, Any], keys: dict[str, dict[str, bytes]]) -> None:
    for accessory in truth["accessories"]:
        logged = keys.get("ACCESSORY_LTPK", {}).get(accessory["deviceId"])
        require(logged is not None and logged.hex() == accessory["ltpk"], f"ACCESSORY_LTPK {accessory['deviceId']}")
    for controller in truth["controllers"]:
        logged = keys.get("CONTROLLER_LTPK", {}).get(controller["pairingId"])
        require(logged is not None and logged.hex() == controller["ltpk"], f"CONTROLLER_LTPK {controller['pairingId']}")


def mdns_responses(capture: Path, accessory_address: str) -> list[rules.MdnsResponse]:
    """Every mDNS response the accessory sent, parsed from the wire, with its capture time."""
    fields = ["-T", "fields", "-e", "frame.time_epoch", "-e", "ip.src", "-e", "ipv6.src", "-e", "udp.payload"]
    responses = []
    for line in tshark(capture, "-Y", f"udp.srcport == {MDNS_PORT}", *fields).splitlines():
        time, ipv4, ipv6, payload = line.split("\t")
        if accessory_address not in (ipv4, ipv6) or not payload:
            continue
        message = zeroconf.DNSIncoming(bytes.fromhex(payload))
        if message.is_response():
            responses.append(rules.MdnsResponse(float(time), message))
    return responses


def advertisement_count(responses: list[rules.MdnsResponse]) -> int:
    """Responses carrying a ``_hap._tcp`` TXT record with a non-zero TTL (what truth ``advertisements`` lists)."""
    return sum(
        1
        for response in responses
        if any(
            isinstance(record, zeroconf.DNSText) and record.name.endswith("._hap._tcp.local.") and record.ttl > 0
            for record in response.message.answers()
        )
    )


def tcp_conversations(capture: Path) -> int:
    output = tshark(capture, "-q", "-z", "conv,tcp")
    return sum(1 for line in output.splitlines() if "<->" in line)


def tcp_streams(capture: Path, count: int) -> dict[tuple[str, str], dict[str, bytes]]:
    """Per (node 0, node 1) endpoint pair, the reassembled bytes each node sent."""
    arguments = ["-q"]
    for stream in range(count):
        arguments += ["-z", f"follow,tcp,raw,{stream}"]
    streams: dict[tuple[str, str], dict[str, bytes]] = {}
    for block in tshark(capture, *arguments).split("=" * 67):
        nodes = re.findall(r"^Node (\d): (\S+)$", block, flags=re.MULTILINE)
        if len(nodes) != 2:
            continue
        sent = {nodes[0][1]: bytearray(), nodes[1][1]: bytearray()}
        for line in block.splitlines():
            if re.fullmatch(r"\t?[0-9a-f]+", line):
                sender = nodes[1][1] if line.startswith("\t") else nodes[0][1]
                sent[sender] += bytes.fromhex(line.strip())
        streams[(nodes[0][1], nodes[1][1])] = {endpoint: bytes(data) for endpoint, data in sent.items()}
    return streams


def session_keys(connection: dict[str, Any], keys: dict[str, dict[str, bytes]]) -> tuple[bytes, bytes] | None:
    """The control keys of the last pair-verify on the connection, found by its M1 public key."""
    controller_public = None
    for message in connection["messages"]:
        parsed = http.parse(base64.b64decode(message["data"]))
        if message["direction"] == CONTROLLER_TO_ACCESSORY and parsed.is_request and parsed.path == "/pair-verify":
            items = tlv8.decode(parsed.body)
            if tlv8.integer(items, tlv8.STATE) == 1:
                controller_public = items[0x03].hex()
    if controller_public is None or controller_public not in keys.get("CONTROL_WRITE_KEY", {}):
        return None
    return keys["CONTROL_WRITE_KEY"][controller_public], keys["CONTROL_READ_KEY"][controller_public]


def endpoint(address: str, port: str) -> str:
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


def segment_times(capture: Path) -> dict[tuple[str, str], list[tuple[int, int, float]]]:
    """Per (sender, receiver), every TCP segment with payload: (stream offset, length, capture time)."""
    names = ("frame.time_epoch", "ip.src", "ipv6.src", "tcp.srcport", "ip.dst", "ipv6.dst", "tcp.dstport", "tcp.seq", "tcp.len")
    fields = ["-T", "fields"] + [argument for name in names for argument in ("-e", name)]
    segments: dict[tuple[str, str], list[tuple[int, int, float]]] = {}
    for line in tshark(capture, "-Y", "tcp.len > 0", *fields).splitlines():
        time, src4, src6, sport, dst4, dst6, dport, seq, length = line.split("\t")
        key = (endpoint(src4 or src6, sport), endpoint(dst4 or dst6, dport))
        # tshark numbers sequence numbers relative to the SYN (0), so the first payload byte is 1.
        segments.setdefault(key, []).append((int(seq) - 1, int(length), float(time)))
    return segments


def time_of(segments: list[tuple[int, int, float]], end: int) -> float:
    """When the last byte before stream offset ``end`` was first on the wire."""
    times = [time for start, length, time in segments if start <= end - 1 < start + length]
    require(bool(times), f"no captured segment carries stream offset {end - 1}")
    return min(times)


def trace_connection(
    connection: dict[str, Any],
    sent: dict[str, bytes],
    keys: dict[str, dict[str, bytes]],
    segments: dict[tuple[str, str], list[tuple[int, int, float]]],
) -> tuple[rules.TracedConnection, list[rules.Finding], int]:
    """One connection's messages found in its captured streams and timed; its frame faults as findings."""
    control = session_keys(connection, keys)
    timed: dict[int, rules.TimedMessage] = {}
    findings: list[rules.Finding] = []
    decrypted_directions = 0
    client, server = connection["client"], connection["server"]
    for direction, sender, receiver in ((CONTROLLER_TO_ACCESSORY, client, server), (ACCESSORY_TO_CONTROLLER, server, client)):
        indices = [index for index, m in enumerate(connection["messages"]) if m["direction"] == direction]
        messages = [
            (connection["messages"][index]["encrypted"], base64.b64decode(connection["messages"][index]["data"]))
            for index in indices
        ]
        key = None if control is None else control[0 if direction == CONTROLLER_TO_ACCESSORY else 1]
        try:
            walked = frames.walk(messages, sent.get(sender, b""), key)
        except frames.FrameError as error:
            raise VerificationError(f"{client} {direction}: {error}") from error
        decrypted_directions += any(encrypted for encrypted, _ in messages)
        findings += [rules.Finding(a.rule, client, f"{direction}: {a.detail}") for a in walked.anomalies]
        for index, (encrypted, data), end in zip(indices, messages, walked.ends):
            timed[index] = rules.TimedMessage(direction, encrypted, data, time_of(segments.get((sender, receiver), []), end))
    traced = rules.TracedConnection(client, [timed[index] for index in range(len(connection["messages"]))])
    return traced, findings, decrypted_directions


def check_pair_setup_keys(truth: dict[str, Any], keys: dict[str, dict[str, bytes]]) -> int:
    """Each logged SRP session key must open the M5 (and M6) of the pair-setup it is logged for."""
    opened = 0
    for connection in truth["connections"]:
        session_key = None
        for message in connection["messages"]:
            parsed = http.parse(base64.b64decode(message["data"]))
            if not parsed.body or parsed.headers.get("content-type") != "application/pairing+tlv8":
                continue
            items = tlv8.decode(parsed.body)
            state = tlv8.integer(items, tlv8.STATE)
            if parsed.is_request and parsed.path == "/pair-setup" and state == 3:
                srp_key = keys.get("PAIR_SETUP_SESSION_KEY", {}).get(items[0x03][:32].hex())
                require(srp_key is not None, f"{connection['client']}: no PAIR_SETUP_SESSION_KEY for an M3")
                session_key = hkdf(srp_key, b"Pair-Setup-Encrypt-Salt", b"Pair-Setup-Encrypt-Info")
            elif state in (5, 6) and 0x05 in items and session_key is not None:
                try:
                    ChaCha20Poly1305(session_key).decrypt(padded_nonce(f"PS-Msg0{state}".encode()), items[0x05], b"")
                except InvalidTag as error:
                    raise VerificationError(f"{connection['client']}: M{state} does not open with its SRP key") from error
                opened += 1
    return opened


def compare_findings(truth: dict[str, Any], findings: list[rules.Finding]) -> None:
    declared = {(m["rule"], m["connection"]) for m in truth["misbehaviours"]}
    found = {(f.rule, f.connection) for f in findings}
    unexpected = found - declared
    missing = sorted(declared - found, key=str)
    details = [f"{f.rule} on {f.connection}: {f.detail}" for f in findings if (f.rule, f.connection) in unexpected]
    require(not unexpected, f"the rule check finds undeclared misbehaviour: {'; '.join(details)}")
    require(not missing, f"declared misbehaviours the rule check does not find: {missing}")


def capture_start(truth: dict[str, Any]) -> float | None:
    times = [ad["time"] for ad in truth["advertisements"]]
    return min(times) if times else None


def previous_capture(truth: dict[str, Any], directories: list[Path]) -> rules.PreviousCapture | None:
    """The capture of the same accessory recorded last before this one, if the corpus holds one.

    The same accessory is the same device id with the same long-term key (its pairing identity): the
    corpus's scenarios share the device id but each has its own key, except the pairs recorded as one
    accessory's history (config-a/config-b, config-c/config-d, renumbered-a/renumbered-b).
    """
    identity = {(a["deviceId"], a["ltpk"]) for a in truth["accessories"]}
    start = capture_start(truth)
    if start is None:
        return None
    best: tuple[float, dict[str, Any]] | None = None
    for directory in directories:
        for path in directory.glob("*.truth.json"):
            if path.name == f"{truth['scenario']}.truth.json":
                continue
            other = json.loads(path.read_text())
            other_start = capture_start(other)
            same = identity & {(a["deviceId"], a["ltpk"]) for a in other["accessories"]}
            if same and other_start is not None and other_start < start and (best is None or other_start > best[0]):
                best = (other_start, other)
    return rules.PreviousCapture.from_truth(best[1]) if best is not None else None


def verify_scenario(directory: Path, name: str, corpus: Path | None = None) -> str:
    """Verify one scenario in ``directory``; ``corpus`` is where earlier captures of its accessory may be."""
    truth_path = directory / f"{name}.truth.json"
    truth = json.loads(truth_path.read_text())
    check_truth_schema(truth)
    capture = directory / truth["capture"]
    require(capture.exists(), f"{capture.name} is missing")
    for reported in (link_type(capture), link_type_by_tcpdump(capture)):
        require(reported == truth["linkType"], f"link type {reported} but truth says {truth['linkType']}")
    keys = read_key_log(directory / f"{name}.keylog")
    check_key_log_consistency(keys)
    check_long_term_keys(truth, keys)
    mdns = mdns_responses(capture, truth["accessories"][0]["address"])
    advertisements = advertisement_count(mdns)
    require(
        advertisements == len(truth["advertisements"]),
        f"the capture has {advertisements} mDNS responses with the TXT record, truth lists {len(truth['advertisements'])}",
    )
    conversations = tcp_conversations(capture)
    require(
        conversations == len(truth["connections"]),
        f"tshark finds {conversations} TCP conversations, truth lists {len(truth['connections'])}",
    )
    streams = tcp_streams(capture, conversations)
    segments = segment_times(capture)
    encrypted_directions = 0
    traced: list[rules.TracedConnection] = []
    findings: list[rules.Finding] = []
    for connection in truth["connections"]:
        endpoints = (connection["client"], connection["server"])
        sent = streams.get(endpoints) or streams.get(endpoints[::-1])
        require(sent is not None, f"no TCP stream {endpoints[0]} <-> {endpoints[1]} in the capture")
        connection_trace, frame_findings, decrypted = trace_connection(connection, sent, keys, segments)
        traced.append(connection_trace)
        findings += frame_findings
        encrypted_directions += decrypted
    opened = check_pair_setup_keys(truth, keys)
    previous = previous_capture(truth, [directory] + ([corpus] if corpus is not None and corpus != directory else []))
    findings += rules.check(truth, keys, traced, mdns, previous)
    compare_findings(truth, findings)
    messages = sum(len(c["messages"]) for c in truth["connections"])
    found = sorted({f.rule for f in findings})
    return (
        f"{name}: {truth['linkType']}, {advertisements} advertisements, {conversations} connections, "
        f"{messages} messages match the capture, "
        f"{encrypted_directions} encrypted directions decrypted, {opened} M5/M6 opened with the SRP key, "
        f"rule check: {', '.join(found) if found else 'nothing found'}"
    )


def main() -> None:
    directory = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]
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
