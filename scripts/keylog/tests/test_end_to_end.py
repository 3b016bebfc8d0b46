"""Each exporter, on in a real loopback session, writes a key log that opens every message of it.

For every Python stack pair the session runs once with the exporters of both ends on, each writing
its own file; hapscope then reads the capture with the accessory's file alone and with the
controller's file alone, and each time every HTTP message it decodes must be, byte for byte, one
the peers sent, with none missing.
"""

from __future__ import annotations

import stat
import subprocess

import pytest

import harness

PAIRS = [("pyhap", "aiohomekit"), ("homekit", "homekit"), ("homekit", "aiohomekit")]
# The session each pair runs (peers/session_plan.py): at least pair-verify M1–M4, /accessories, a
# read, a write, a subscription and the events.
MINIMUM_ENCRYPTED_MESSAGES = 9
SIDES = ("accessory", "controller")
# editcap wants a closed packet range; no test session comes near this many packets.
MAX_PACKETS = 1_000_000


@pytest.fixture(scope="module", params=PAIRS, ids=lambda pair: f"{pair[0]}-accessory+{pair[1]}-controller")
def session(request, tmp_path_factory) -> harness.Session:
    accessory, controller = request.param
    work = tmp_path_factory.mktemp(f"{accessory}-{controller}")
    return harness.run_session(
        work, accessory, controller,
        accessory_keylog=work / "accessory.keylog", controller_keylog=work / "controller.keylog",
    )


@pytest.mark.parametrize("side", SIDES)
def test_the_key_log_of_one_side_decrypts_every_message_exactly(session, side):
    sent = harness.sent_messages(session.records)
    analysis = harness.analyse(session.capture, [session.work / f"{side}.keylog"])

    assert analysis.encrypted_messages >= MINIMUM_ENCRYPTED_MESSAGES
    assert analysis.undecrypted_messages == 0
    assert harness.differences(sent, analysis.messages) == []
    harness.report(f"{session.work.name} {side} key log: {sum(map(len, sent.values()))} messages compared "
                   f"byte for byte, {analysis.encrypted_messages} of them decrypted")


@pytest.mark.parametrize("side", SIDES)
def test_the_key_log_names_each_verified_session_by_its_endpoints(session, side):
    analysis = harness.analyse(session.capture, [])
    logged = {
        bytes.fromhex(fields[1]): (fields[2], fields[3])
        for fields in harness.keylog_lines(session.work / f"{side}.keylog")
        if fields[0] == "SESSION_ENDPOINTS"
    }
    assert analysis.pair_verify_keys, "the capture holds no pair-verify"
    assert logged == {key: endpoints for endpoints, key in analysis.pair_verify_keys.items()}


@pytest.mark.parametrize("side", SIDES)
def test_the_key_log_is_private_and_holds_no_long_term_secret(session, side):
    path = session.work / f"{side}.keylog"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    labels = {fields[0] for fields in harness.keylog_lines(path)}
    assert labels <= set(harness_labels())
    assert {"PAIR_SETUP_SESSION_KEY", "PAIR_VERIFY_SHARED_SECRET", "CONTROL_WRITE_KEY", "CONTROL_READ_KEY",
            "ACCESSORY_LTPK", "CONTROLLER_LTPK", "SESSION_ENDPOINTS"} <= labels
    for secret in long_term_secrets(session):
        assert secret not in path.read_text().lower()


def test_the_peers_said_nothing_about_the_exporters(session):
    # An exporter that works is silent: its only output is the key log.
    assert "hapkeylog" not in session.accessory_stderr
    assert "hapkeylog" not in session.controller_stderr


def test_a_capture_started_after_pair_verify_decrypts_with_the_endpoints(session, tmp_path):
    whole = harness.analyse(session.capture, [])
    late = tmp_path / "late.pcap"
    subprocess.run(["editcap", "-r", str(session.capture), str(late), f"{first_encrypted_packet(session)}-{MAX_PACKETS}"],
                   check=True, capture_output=True, timeout=30)
    analysis = harness.analyse(late, [session.work / "accessory.keylog"])
    # On a verified connection the first two messages each way are pair-verify M1–M4, before the capture.
    expected = {key: messages[2:] for key, messages in harness.sent_messages(session.records).items()
                if (key[0], key[1]) in whole.pair_verify_keys}
    assert harness.differences(expected, {key: analysis.messages.get(key, []) for key in expected}) == []


def harness_labels() -> list[str]:
    from hapkeylog.writer import ENDPOINTS_LABEL, SECRET_LABELS

    return [*SECRET_LABELS, ENDPOINTS_LABEL]


def long_term_secrets(session: harness.Session) -> list[str]:
    """The long-term secret keys the peers stored, as hex, to make sure none reached a key log."""
    import json

    secrets = []
    for name in ("accessory.state", "accessory.json"):
        path = session.work / name
        if path.exists():
            data = json.loads(path.read_text())
            for key in ("private_key", "accessory_ltsk"):
                if data.get(key):
                    value = data[key]
                    secrets.append(value.lower() if all(c in "0123456789abcdefABCDEF" for c in value) else value)
    assert secrets, "the accessory's long-term secret key was not found in its state"
    return secrets


def first_encrypted_packet(session: harness.Session) -> int:
    """The packet that carries the first encrypted frame (the capture is read with no key log)."""
    events, _ = harness.hapscope_events(session.capture, [])
    verify_done = max(event["packet"] for event in events
                      if event["type"] == "pairing-message" and event.get("procedure") == "pair-verify")
    return int(verify_done) + 1
