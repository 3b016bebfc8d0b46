"""The exporters in the ways users run them, and when things go wrong around them."""

from __future__ import annotations

import subprocess
import sys

import pytest

import harness


def exporter_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("hapkeylog")]


def test_the_one_import_line_form_reads_hapkeylogfile(tmp_path):
    session = harness.run_session(
        tmp_path, "pyhap", "aiohomekit",
        accessory_keylog=tmp_path / "accessory.keylog", controller_keylog=tmp_path / "controller.keylog",
        import_form=True,
    )
    sent = harness.sent_messages(session.records)
    for side in ("accessory", "controller"):
        analysis = harness.analyse(session.capture, [tmp_path / f"{side}.keylog"])
        assert analysis.undecrypted_messages == 0 and analysis.encrypted_messages > 0
        assert harness.differences(sent, analysis.messages) == []


def test_an_exporter_that_cannot_write_says_so_once_and_the_stacks_go_on(tmp_path):
    # Root may write anywhere, so: a directory for the controller's key log (cannot be opened) and
    # /dev/full for the accessory's (opens, then every write fails with ENOSPC).
    session = harness.run_session(
        tmp_path / "work", "pyhap", "aiohomekit",
        accessory_keylog="/dev/full", controller_keylog=tmp_path,
    )
    # run_session fails unless the controller got through the whole session: its last read was answered.
    sent = harness.sent_messages(session.records)
    requests = [message for (_, _, direction), messages in sent.items() if direction == "controller-to-accessory"
                for message in messages]
    answers = [message for (_, _, direction), messages in sent.items() if direction == "accessory-to-controller"
               for message in messages]
    assert requests[-1].startswith(b"GET /characteristics?id=") and answers[-1].startswith(b"HTTP/1.1 200 OK")
    assert any(message.startswith(b"EVENT/1.0") for message in answers)
    assert len(exporter_lines(session.accessory_stderr)) == 1
    assert "cannot write /dev/full" in session.accessory_stderr
    assert len(exporter_lines(session.controller_stderr)) == 1
    assert "cannot open" in session.controller_stderr


def test_a_restarted_exporter_appends_cleanly_after_a_half_line(tmp_path):
    keylog = tmp_path / "keys.txt"
    harness.run_session(tmp_path / "first", "pyhap", "aiohomekit", accessory_keylog=keylog)
    # The process was killed while it wrote its last line: half of it reached the file.
    lines = keylog.read_text().splitlines()
    half_line = lines[-1][: len(lines[-1]) // 2]
    keylog.write_text("\n".join(lines[:-1] + [half_line]))

    second = harness.run_session(tmp_path / "second", "homekit", "aiohomekit", accessory_keylog=keylog)
    after = keylog.read_text().splitlines()
    assert after[: len(lines)] == lines[:-1] + [half_line]
    appended = after[len(lines):]
    assert appended and all(len(line.split()) in (3, 4) for line in appended)

    # What was appended opens the second session completely.
    intact = tmp_path / "intact.txt"
    intact.write_text("\n".join(after[: len(lines) - 1] + appended) + "\n")
    analysis = harness.analyse(second.capture, [intact])
    assert analysis.undecrypted_messages == 0
    assert harness.differences(harness.sent_messages(second.records), analysis.messages) == []


def test_hapscope_reads_a_key_log_with_a_half_line_with_one_warning(tmp_path):
    keylog = tmp_path / "keys.txt"
    session = harness.run_session(tmp_path / "work", "pyhap", "aiohomekit", accessory_keylog=keylog)
    text = keylog.read_text()
    keylog.write_text(text + text.splitlines()[0][:40])
    events, run = harness.hapscope_events(session.capture, [keylog])
    assert run.returncode == 0
    assert run.stderr.count(f"{keylog}:{len(text.splitlines()) + 1}") == 1


def test_aiohomekitctl_runs_as_a_console_script_under_the_exporter(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "hapkeylog.aiohomekit", "--keylog", str(tmp_path / "keys.txt"), "aiohomekitctl", "--help"],
        capture_output=True, text=True, timeout=60, env=harness.peer_environment(),
    )
    assert run.returncode == 0, run.stderr
    assert "usage" in run.stdout.lower() and "pair" in run.stdout
    assert exporter_lines(run.stderr) == []


def test_without_a_named_file_the_runner_writes_nothing(tmp_path):
    script = tmp_path / "script.py"
    script.write_text("import sys; print('ran', sys.argv[1:])\n")
    run = subprocess.run(
        [sys.executable, "-m", "hapkeylog.pyhap", str(script), "one", "two"],
        capture_output=True, text=True, timeout=60, env=harness.peer_environment(), cwd=tmp_path,
    )
    assert run.returncode == 0 and run.stdout == "ran ['one', 'two']\n"
    assert "nothing is written" in run.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["script.py"]
