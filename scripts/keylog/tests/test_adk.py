"""The HomeKitADK converter, on logs laid out as ADK's POSIX platform writes them (adk_format.py)."""

from __future__ import annotations

import io
import json
import stat

import pytest

import harness
from adk_format import hex_dump, record, sensitive
from hapkeylog import adk
from hapkeylog.writer import KeyLog

VERIFY, SETUP = "PairingPairVerify", "PairingPairSetup"
CONTROLLER_KEY = bytes(range(1, 33))
ACCESSORY_KEY = bytes(range(101, 133))
ACCESSORY_SECRET = bytes(range(201, 233))
SHARED = bytes(range(51, 83))
LTSK = bytes([0xEE]) * 32


def convert(text: str, tmp_path) -> tuple[list[list[str]], list[str]]:
    warnings: list[str] = []
    keylog = KeyLog(tmp_path / "keys.txt")
    adk.convert(io.StringIO(text), keylog, warnings.append)
    return harness.keylog_lines(tmp_path / "keys.txt"), warnings


def pair_verify_log(controller_key=CONTROLLER_KEY, *, enabled=True) -> str:
    return "".join([
        record("Debug", VERIFY, "Pair Verify M1: Verify Start Request."),
        record("Debug", VERIFY, "Pair Verify M1: Controller_cv_PK.", controller_key),
        sensitive(VERIFY, "Pair Verify M2: cv_SK.", ACCESSORY_SECRET, enabled=enabled),
        record("Debug", VERIFY, "Pair Verify M2: cv_PK.", ACCESSORY_KEY),
        sensitive(VERIFY, "Pair Verify M2: cv_KEY.", SHARED, enabled=enabled),
        sensitive(VERIFY, "Pair Verify M2: SessionKey", bytes(32), enabled=enabled),
        sensitive(VERIFY, "Pair Verify M3: iOSDeviceInfo.", controller_key + b"E1C4-UUID" + ACCESSORY_KEY, enabled=enabled),
        sensitive(VERIFY, "Pair Verify Start Session: AccessoryToControllerKey", bytes([0xA2]) * 32, enabled=enabled),
        sensitive(VERIFY, "Pair Verify Start Session: ControllerToAccessoryKey", bytes([0xC2]) * 32, enabled=enabled),
        record("Info", VERIFY, "Pair Verify procedure completed (pairing ID 0)."),
    ])


def test_the_hex_dump_is_laid_out_as_adks_posix_platform_writes_it():
    # HAPPlatformLogCapture: offset, eight groups of four bytes, padding past the end, ASCII column.
    assert hex_dump(bytes(range(40))) == (
        "    0000  00010203 04050607 08090a0b 0c0d0e0f 10111213 14151617 18191a1b 1c1d1e1f    "
        "................................\n"
        "    0020  20212223 24252627" + " " * 9 * 6 + "    " + " !\"#$%&'\n"
    )


def test_a_pair_verify_becomes_its_secret_its_ephemeral_key_and_its_session_keys(tmp_path):
    lines, warnings = convert(pair_verify_log(), tmp_path)
    assert lines == [
        ["ACCESSORY_EPHEMERAL_SECRET", ACCESSORY_KEY.hex(), ACCESSORY_SECRET.hex()],
        ["PAIR_VERIFY_SHARED_SECRET", CONTROLLER_KEY.hex(), SHARED.hex()],
        ["CONTROL_READ_KEY", CONTROLLER_KEY.hex(), "a2" * 32],
        ["CONTROL_WRITE_KEY", CONTROLLER_KEY.hex(), "c2" * 32],
    ]
    assert warnings == []


def test_a_pair_setup_becomes_k_and_both_long_term_public_keys_but_never_the_secret_one(tmp_path):
    public_a = bytes([0x7A]) + bytes(range(1, 256)) + bytes(128)
    k, controller_ltpk, accessory_ltpk = bytes([0x4B]) * 64, bytes([0x11]) * 32, bytes([0x22]) * 32
    log = "".join([
        record("Debug", SETUP, "Pair Setup M3: A.", public_a),
        sensitive(SETUP, "Pair Setup M4: K.", k),
        sensitive(SETUP, "Pair Setup M5: iOSDeviceInfo.", bytes(32) + b"0C5A1F2E-UUID" + controller_ltpk),
        sensitive(SETUP, "Pair Setup M6: ed_LTSK.", LTSK),
        sensitive(SETUP, "Pair Setup M6: ed_LTPK.", accessory_ltpk),
        sensitive(SETUP, "Pair Setup M6: AccessoryDeviceInfo.", bytes(32) + b"1A:2B:3C:4D:5E:6F" + accessory_ltpk),
    ])
    lines, _ = convert(log, tmp_path)
    assert lines == [
        ["PAIR_SETUP_SESSION_KEY", public_a[:32].hex(), k.hex()],
        ["CONTROLLER_LTPK", "0C5A1F2E-UUID", controller_ltpk.hex()],
        ["ACCESSORY_LTPK", "1A:2B:3C:4D:5E:6F", accessory_ltpk.hex()],
    ]
    assert LTSK.hex() not in (tmp_path / "keys.txt").read_text()


def test_an_a_with_leading_zeros_names_the_session_both_ways_it_may_have_been_sent(tmp_path):
    public_a = bytes(2) + bytes(range(1, 255)) + bytes(range(128))
    log = record("Debug", SETUP, "Pair Setup M3: A.", public_a) + sensitive(SETUP, "Pair Setup M4: K.", bytes([9]) * 64)
    lines, _ = convert(log, tmp_path)
    assert [line[1] for line in lines] == [public_a[:32].hex(), public_a[2:34].hex()]


def test_interleaved_sessions_get_the_keys_of_the_exchange_they_follow(tmp_path):
    second_key = bytes([0x99]) * 32
    log = pair_verify_log() + pair_verify_log(second_key)
    lines, _ = convert(log, tmp_path)
    assert [line[1] for line in lines if line[0] == "CONTROL_WRITE_KEY"] == [CONTROLLER_KEY.hex(), second_key.hex()]


def test_records_of_other_subsystems_and_unrelated_lines_are_passed_over(tmp_path):
    log = ("some shell output\n"
           + record("Debug", VERIFY, "Pair Verify M2: cv_KEY.", SHARED, subsystem="com.example.App")
           + record("Info", "IPAccessoryServer", "Session accepted.")
           + pair_verify_log())
    lines, warnings = convert(log, tmp_path)
    assert len(lines) == 4 and warnings == []


def test_a_log_without_sensitive_logging_converts_to_nothing_and_says_why(tmp_path, capsys):
    path = tmp_path / "adk.log"
    path.write_text(pair_verify_log(enabled=False))
    assert adk.main([str(path), "--keylog", str(tmp_path / "keys.txt")]) == 1
    assert "HAP_LOG_SENSITIVE=1" in capsys.readouterr().err
    assert (tmp_path / "keys.txt").read_text() == ""


def test_a_damaged_record_is_reported_by_line_and_the_rest_converted(tmp_path):
    text = pair_verify_log()
    cut = record("Debug", VERIFY, "Pair Verify M2: cv_KEY.", SHARED).splitlines(keepends=True)
    damaged = cut[0] + cut[1]  # the last dump line is missing: 31 bytes of a 32-byte secret
    lines, warnings = convert(record("Debug", VERIFY, "Pair Verify M1: Controller_cv_PK.", CONTROLLER_KEY) + damaged.replace(
        hex_dump(SHARED).splitlines()[0], hex_dump(SHARED[:31]).splitlines()[0]) + text, tmp_path)
    assert len(lines) == 4
    assert len(warnings) == 1 and "line 3" in warnings[0] and "31 bytes" in warnings[0]


def test_a_log_that_starts_mid_pair_verify_skips_only_what_it_cannot_name(tmp_path):
    # From cv_SK on: the shared secret has no controller key before it; M3's iOSDeviceInfo names the
    # session again, so its keys are written.
    tail = pair_verify_log().split("Pair Verify M1: Controller_cv_PK.", 1)[1].split("\x1b[0m", 1)[1]
    lines, warnings = convert(tail, tmp_path)
    assert [line[0] for line in lines] == ["ACCESSORY_EPHEMERAL_SECRET", "CONTROL_READ_KEY", "CONTROL_WRITE_KEY"]
    assert len(warnings) == 1 and "cv_KEY" in warnings[0] and "before any Controller_cv_PK" in warnings[0]


def test_each_line_is_written_as_soon_as_its_record_is_read(tmp_path):
    keylog_path = tmp_path / "keys.txt"
    seen_before_the_next_record: list[str] = []

    def live() -> object:
        for line in record("Debug", VERIFY, "Pair Verify M1: Controller_cv_PK.", CONTROLLER_KEY).splitlines(keepends=True):
            yield line
        for line in sensitive(VERIFY, "Pair Verify M2: cv_KEY.", SHARED).splitlines(keepends=True):
            yield line
        seen_before_the_next_record.append(keylog_path.read_text())
        yield from record("Info", VERIFY, "Pair Verify procedure completed.").splitlines(keepends=True)

    adk.convert(live(), KeyLog(keylog_path), lambda message: None)
    assert seen_before_the_next_record == [f"PAIR_VERIFY_SHARED_SECRET {CONTROLLER_KEY.hex()} {SHARED.hex()}\n"]


def test_the_command_appends_a_private_file_and_can_pass_the_log_on(tmp_path, capsys):
    path = tmp_path / "adk.log"
    path.write_text(pair_verify_log())
    assert adk.main([str(path), "--keylog", str(tmp_path / "keys.txt"), "--tee"]) == 0
    assert capsys.readouterr().out == pair_verify_log()
    assert stat.S_IMODE((tmp_path / "keys.txt").stat().st_mode) == 0o600
    assert len(harness.keylog_lines(tmp_path / "keys.txt")) == 4


# A real session's secrets, logged the way ADK logs them ---------------------------------------


@pytest.fixture(scope="module")
def real_session(tmp_path_factory) -> harness.Session:
    work = tmp_path_factory.mktemp("adk-values")
    return harness.run_session(work, "pyhap", "aiohomekit", accessory_keylog=work / "accessory.keylog")


def test_a_real_sessions_secrets_in_adks_log_format_convert_to_a_key_log_that_opens_it(real_session, tmp_path):
    """The accessory's values of a HAP-python session, written as ADK's accessory would log them."""
    keys = {}
    for fields in harness.keylog_lines(real_session.work / "accessory.keylog"):
        keys.setdefault(fields[0], []).append(fields[1:])
    events, _ = harness.hapscope_events(real_session.capture, [])
    public_keys = {(event["procedure"], event["state"]): bytes.fromhex(item["hex"])
                   for event in events if event["type"] == "pairing-message"
                   for item in event["items"] if item["field"] == "publicKey"}
    public_a = public_keys[("pair-setup", "M3")].rjust(384, b"\0")
    controller_key = public_keys[("pair-verify", "M1")]
    (accessory_public, accessory_secret), = keys["ACCESSORY_EPHEMERAL_SECRET"]
    (_, k), = keys["PAIR_SETUP_SESSION_KEY"]
    state = json.loads((real_session.work / "accessory.state").read_text())

    def key(label):
        return bytes.fromhex(keys[label][0][1])

    log = "".join([
        record("Info", "IPAccessoryServer", "Accepted connection."),
        record("Debug", SETUP, "Pair Setup M3: A.", public_a),
        sensitive(SETUP, "Pair Setup M4: K.", bytes.fromhex(k)),
        sensitive(SETUP, "Pair Setup M6: ed_LTSK.", bytes.fromhex(state["private_key"])),
        record("Debug", VERIFY, "Pair Verify M1: Controller_cv_PK.", controller_key),
        sensitive(VERIFY, "Pair Verify M2: cv_SK.", bytes.fromhex(accessory_secret)),
        record("Debug", VERIFY, "Pair Verify M2: cv_PK.", bytes.fromhex(accessory_public)),
        sensitive(VERIFY, "Pair Verify M2: cv_KEY.", key("PAIR_VERIFY_SHARED_SECRET")),
        sensitive(VERIFY, "Pair Verify M3: iOSDeviceInfo.", controller_key + b"pairing-id" + bytes.fromhex(accessory_public)),
        sensitive(VERIFY, "Pair Verify Start Session: AccessoryToControllerKey", key("CONTROL_READ_KEY")),
        sensitive(VERIFY, "Pair Verify Start Session: ControllerToAccessoryKey", key("CONTROL_WRITE_KEY")),
    ])
    (tmp_path / "adk.log").write_text(log)
    assert adk.main([str(tmp_path / "adk.log"), "--keylog", str(tmp_path / "converted.keylog")]) == 0
    assert state["private_key"] not in (tmp_path / "converted.keylog").read_text()

    analysis = harness.analyse(real_session.capture, [tmp_path / "converted.keylog"])
    assert analysis.encrypted_messages > 0 and analysis.undecrypted_messages == 0
    assert harness.differences(harness.sent_messages(real_session.records), analysis.messages) == []
    # Each secret alone opens the session too: the converter's lines are each right.
    for label in ("PAIR_VERIFY_SHARED_SECRET", "ACCESSORY_EPHEMERAL_SECRET", "CONTROL_WRITE_KEY"):
        single = tmp_path / f"{label}.keylog"
        single.write_text("".join(line for line in (tmp_path / "converted.keylog").read_text().splitlines(keepends=True)
                                  if line.startswith((label, "CONTROL_READ_KEY") if label == "CONTROL_WRITE_KEY" else label)))
        assert harness.analyse(real_session.capture, [single]).undecrypted_messages == 0
