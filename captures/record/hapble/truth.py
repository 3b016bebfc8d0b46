"""Merging both peers' journals into the truth file and the key log of one BLE scenario."""

from __future__ import annotations

import json
from pathlib import Path

from hapcapture.journal import read_journal

from . import adv, pdu

C2A = "controller-to-accessory"
A2C = "accessory-to-controller"
PAIRING_PROCEDURES = ("pair-setup", "pair-verify", "pair-resume", "pairings")


class TruthError(Exception):
    pass


def gatt_values(att: list[dict]) -> dict[tuple[int, int, str], list[tuple[bytes, list[int]]]]:
    """The GATT values of HAP characteristic value handles, per (connection, handle, direction), each
    with the indices of the ATT operations that carried it: a Write Request; Prepare Writes up to
    their Execute Write; a Read Response and the Read Blob Responses after it."""
    values: dict[tuple[int, int, str], list[tuple[bytes, list[int]]]] = {}
    prepared: dict[int, list[int]] = {}
    reading: dict[int, tuple[int, int]] = {}  # connection → (handle, position in its value list)
    for index, op in enumerate(att):
        connection, opcode = op["connection"], op["opcode"]
        if opcode == 0x12:
            values.setdefault((connection, op["handle"], C2A), []).append((bytes.fromhex(op["value"]), [index]))
        elif opcode == 0x16:
            prepared.setdefault(connection, []).append(index)
        elif opcode == 0x18:
            parts = prepared.pop(connection, [])
            if op.get("flags") == 1 and parts:
                handle = att[parts[0]]["handle"]
                joined = b"".join(bytes.fromhex(att[i]["value"]) for i in parts)
                values.setdefault((connection, handle, C2A), []).append((joined, parts + [index]))
        elif opcode == 0x0B and op["handle"] is not None:
            key = (connection, op["handle"], A2C)
            values.setdefault(key, []).append((bytes.fromhex(op["value"]), [index]))
            reading[connection] = (op["handle"], len(values[key]) - 1)
        elif opcode == 0x0D and connection in reading:
            handle, position = reading[connection]
            key = (connection, handle, A2C)
            value, carriers = values[key][position]
            values[key][position] = (value + bytes.fromhex(op["value"]), carriers + [index])
        elif opcode == 0x0A:
            reading.pop(connection, None)
    return values


def attach_carriers(pdus: list[dict], att: list[dict]) -> None:
    """Adds to each PDU fragment the indices of the ATT operations that carried it."""
    queues = gatt_values(att)
    for record in pdus:
        for fragment in record["fragments"]:
            key = (record["connection"], fragment["handle"], record["direction"])
            queue = queues.get(key, [])
            wire = bytes.fromhex(fragment["wire"])
            while queue and queue[0][0] != wire:
                if queue[0][0]:
                    raise TruthError(f"connection {key[0]} handle {key[1]}: GATT value {queue[0][0].hex()} is no fragment of the truth")
                queue.pop(0)  # a read with no response pending
            if not queue:
                raise TruthError(f"PDU fragment {fragment['wire']} on connection {key[0]} handle {key[1]} was never carried by ATT")
            fragment["att"] = queue.pop(0)[1]


def pairings_from(events: list[dict]) -> list[dict]:
    attempts: list[dict] = []
    current: dict[tuple[int, str], dict] = {}
    for event in events:
        procedure = event["procedure"]
        family = "pair-verify" if procedure == "pair-resume" else procedure
        key = (event["connection"], family)
        if event["state"] == 1:
            attempt = {"connection": event["connection"], "procedure": procedure, "method": event.get("method"),
                       "states": [1], "outcome": "incomplete", "error": None, "time": event["t"], "detail": {}}
            if family == "pair-verify" and event.get("method") == 6:
                attempt["procedure"] = "pair-resume"
            current[key] = attempt
            attempts.append(attempt)
            if "controllerPublicKey" in event:
                attempt["detail"]["controllerPublicKey"] = event["controllerPublicKey"]
            continue
        attempt = current.get(key)
        if attempt is None:
            continue
        if procedure == "pair-resume":
            attempt["procedure"] = "pair-resume"
        elif family == "pair-verify" and attempt["procedure"] == "pair-resume" and event["state"] == 2:
            attempt["procedure"] = "pair-verify"
            attempt["detail"]["note"] = "pair-resume requested, accessory fell back to pair-verify"
        attempt["states"].append(event["state"])
        for field in ("salt", "accessoryPublicKey", "sessionId", "newSessionId", "controller", "note", "count"):
            if field in event:
                attempt["detail"][field] = event[field]
        if event.get("error") is not None:
            attempt["outcome"], attempt["error"] = "error", event["error"]
        else:
            last = {"pair-setup": 6, "pair-verify": 4, "pair-resume": 2, "pairings": 2}[attempt["procedure"]]
            if event["state"] == last:
                attempt["outcome"] = "success"
    return attempts


def build(workdir: Path, scenario, capture_stem: str) -> tuple[dict, list[str]]:
    accessory = read_journal(workdir / "accessory.jsonl")
    controller = read_journal(workdir / "controller.jsonl")
    of = lambda events, kind: [e for e in events if e["kind"] == kind]  # noqa: E731
    identity = of(accessory, "identity")[0]
    att = [{k: v for k, v in e.items() if k not in ("kind", "side")} for e in of(accessory, "att")]
    controller_att = [(e["connection"], e["direction"], e["pdu"]) for e in of(controller, "att")]
    if controller_att != [(e["connection"], e["direction"], e["pdu"]) for e in att]:
        raise TruthError("the two peers' ATT journals differ")
    for e in att:
        e["time"] = e.pop("t")
    pdus = []
    for e in of(accessory, "pdu"):
        record = {k: v for k, v in e.items() if k not in ("kind", "t")}
        record["time"] = e["t"]
        record["opcodeName"] = pdu.OPCODES.get(record["opcode"], "unknown")
        pdus.append(record)
    attach_carriers(pdus, att)
    _check_controller_fragments(pdus, of(controller, "fragment"))
    advertisements = []
    for e in of(accessory, "advertisement"):
        data = bytes.fromhex(e["manufacturerData"])
        advertisements.append({"time": e["t"], "reason": e["reason"], "manufacturerData": e["manufacturerData"],
                               "advertisingData": e["advertisingData"], "decoded": adv.decode(data)})
    connections = []
    for e in of(accessory, "connection"):
        if e["event"] == "connected":
            connections.append({"connection": e["connection"], "controller": e["controller"], "accessory": e["accessory"],
                                "hciHandle": e["handle"], "opened": e["t"], "closed": None, "reason": None})
        else:
            for c in connections:
                if c["connection"] == e["connection"] and c["closed"] is None:
                    c["closed"], c["reason"] = e["t"], e["reason"]
    controllers = [{"pairingId": e["pairingId"], "ltpk": e["ltpk"], "admin": e["admin"], "time": e["t"]} for e in of(accessory, "controller-added")]
    removed = {e["pairingId"] for e in of(accessory, "controller-removed")}
    notes = [f"capture point: the controller's (central's) HCI, as Bumble's snoopers wrote it; seed {scenario.seed}",
             f"ATT MTU requested by the controller: {scenario.request_mtu or 'none (23)'}; accessory response fragments "
             f"at most {scenario.response_fragment_limit} bytes; pairing-level fragments: {scenario.pairing_fragment_limit or 'none'}"]
    notes += [f"removed later: {p}" for p in removed]
    for source in (accessory, controller):
        notes += [e["text"] for e in source if e["kind"] == "note"]
        notes += [f"observed: {e['text']}" for e in source if e["kind"] == "observation"]
    misbehaviours = [{"rule": e["rule"], "connection": e["connection"], "detail": e["detail"]} for e in of(accessory, "misbehaviour") + of(controller, "misbehaviour")]
    notes += [f"deliberate misbehaviour [{m['rule']}] on connection {m['connection']}: {m['detail']}" for m in misbehaviours]
    truth = {
        "schema": 1,
        "transport": "ble",
        "scenario": scenario.name,
        "summary": scenario.summary,
        "capture": {"pcap": capture_stem + ".pcap", "btsnoop": capture_stem + ".btsnoop", "linkType": 201,
                    "vantage": "controller host (central)"},
        "accessory": {"deviceId": identity["deviceId"], "ltpk": identity["ltpk"], "setupCode": identity["setupCode"],
                      "setupId": identity["setupId"], "category": identity["category"], "name": identity["name"],
                      "address": identity["address"]},
        "controllers": controllers,
        "connections": connections,
        "sessions": [{k: v for k, v in e.items() if k not in ("kind",)} for e in of(accessory, "session")],
        "advertisements": advertisements,
        "broadcasts": [{"time": e["t"], "gsn": e["gsn"], "iid": e["iid"], "value": e["value"], "plaintext": e["plaintext"],
                        "manufacturerData": e["manufacturerData"]} for e in of(accessory, "broadcast")],
        "gsn": [{"time": e["t"], "gsn": e["gsn"]} for e in of(accessory, "gsn")],
        "databaseChanges": [{"time": e["t"], "serviceIid": e["serviceIid"], "serviceType": e["serviceType"],
                             "configNumber": e["configNumber"]} for e in of(accessory, "database-change")],
        "broadcastKeys": [{"time": e["t"], "connection": e["connection"], "gsn": e["gsn"], "expiresAfterGsn": e.get("expiresAfterGsn"),
                           "advertisingId": e["advertisingId"]} for e in of(accessory, "broadcast-key")],
        "gatt": of(accessory, "gatt-table")[0]["table"],
        "att": att,
        "pdus": pdus,
        "pairings": pairings_from(of(accessory, "pairing")),
        "misbehaviours": misbehaviours,
        "notes": notes,
    }
    return truth, key_log(accessory, controller, truth)


def _check_controller_fragments(pdus: list[dict], fragments: list[dict]) -> None:
    """Every encrypted fragment aiohomekit sealed or opened is one the accessory journalled, in order."""
    accessory_side = [(r["direction"], f["wire"]) for r in pdus if r["encrypted"] for f in r["fragments"]]
    controller_side = [(f["direction"], f["wire"]) for f in fragments if not f.get("failed")]
    missing = [f for f in controller_side if f not in accessory_side]
    if missing:
        raise TruthError(f"aiohomekit handled {len(missing)} encrypted fragments the accessory did not journal")


def key_log(accessory: list[dict], controller: list[dict], truth: dict) -> list[str]:
    """Key-log lines in the order the peers first computed them, each value once. Where the peers
    derived different SRP session keys (a wrong setup code) aiohomekit's K is the line and the
    accessory's follows as a comment; any other disagreement fails the recording."""
    keys = sorted([dict(e, peer="accessory") for e in accessory if e["kind"] == "key"]
                  + [dict(e, peer="controller") for e in controller if e["kind"] == "key"], key=lambda e: e["t"])
    lines = ["# hapscope key log (docs/keylog.md): HAP over Bluetooth LE, recorded by captures/record/hapble",
             f"# scenario {truth['scenario']}; accessory {truth['accessory']['deviceId']} at {truth['accessory']['address']}"]
    endpoints = {s["session"]: s for s in truth["sessions"]}
    written: dict[tuple[str, str], tuple[str, int, str]] = {}
    for e in keys:
        key = (e["label"], e["id"])
        if key in written and e["label"] != "BROADCAST_KEY":
            secret, line_number, peer = written[key]
            if secret == e["secret"] or peer == e["peer"]:
                continue
            if e["label"] != "PAIR_SETUP_SESSION_KEY":
                raise TruthError(f"the peers disagree on {e['label']} {e['id']}")
            controller_secret, accessory_secret = (secret, e["secret"]) if peer == "controller" else (e["secret"], secret)
            lines[line_number] = f"PAIR_SETUP_SESSION_KEY {e['id']} {controller_secret}"
            lines.insert(line_number + 1, f"# the accessory derived a different K for this pair-setup: {accessory_secret}")
            written = {k: (v[0], v[1] + (1 if v[1] > line_number else 0), v[2]) for k, v in written.items()}
            written[key] = (controller_secret, line_number, "both")
            continue
        if key in written and written[key][0] == e["secret"]:
            continue
        written[key] = (e["secret"], len(lines), e["peer"])
        lines.append(f"{e['label']} {e['id']} {e['secret']}")
        session = endpoints.get(e["id"])
        if e["label"] == "CONTROL_READ_KEY" and session:
            lines.append(f"SESSION_ENDPOINTS {e['id']} {session['controller']} {session['accessory']}")
            written[("SESSION_ENDPOINTS", e["id"])] = ("", len(lines) - 1, "both")
    return lines


def write(truth: dict, lines: list[str], stem: Path) -> None:
    stem.with_suffix(".truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    keylog = stem.with_suffix(".keylog")
    keylog.touch(mode=0o600)
    keylog.write_text("\n".join(lines) + "\n")
