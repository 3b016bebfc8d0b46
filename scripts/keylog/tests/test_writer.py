"""The key-log file: private, append-only, one whole line per write, never raising into a stack."""

from __future__ import annotations

import io
import os
import stat
import threading

from hapkeylog import hooks
from hapkeylog.runner import activate
from hapkeylog.writer import KeyLog, keylog_path_from_environment, left_padded

SESSION = bytes(range(32))
SECRET = bytes(range(32, 64))


def test_a_new_file_is_created_with_mode_0600(tmp_path):
    os.umask(0o022)
    KeyLog(tmp_path / "keys.txt").write("PAIR_VERIFY_SHARED_SECRET", SESSION, SECRET)
    assert stat.S_IMODE((tmp_path / "keys.txt").stat().st_mode) == 0o600


def test_lines_are_appended_to_what_the_file_holds(tmp_path):
    path = tmp_path / "keys.txt"
    path.write_text("# earlier run\n")
    path.chmod(0o600)
    KeyLog(path).write("CONTROL_READ_KEY", SESSION, SECRET)
    assert path.read_text() == f"# earlier run\nCONTROL_READ_KEY {SESSION.hex()} {SECRET.hex()}\n"


def test_each_line_is_on_disk_as_soon_as_it_is_written(tmp_path):
    keylog = KeyLog(tmp_path / "keys.txt")
    keylog.write("CONTROL_WRITE_KEY", SESSION, SECRET)
    # Read through another descriptor while the writer is still open: nothing is held in a buffer.
    assert (tmp_path / "keys.txt").read_text().endswith(SECRET.hex() + "\n")


def test_a_line_cut_off_by_a_killed_writer_stays_alone_on_its_line(tmp_path):
    path = tmp_path / "keys.txt"
    half_line = f"PAIR_VERIFY_SHARED_SECRET {SESSION.hex()} {SECRET.hex()[:20]}"
    path.write_text(half_line)
    KeyLog(path).write("CONTROL_READ_KEY", SESSION, SECRET)
    assert path.read_text().splitlines() == [half_line, f"CONTROL_READ_KEY {SESSION.hex()} {SECRET.hex()}"]


def test_an_unusable_file_is_reported_once_and_nothing_raises(tmp_path):
    errors = io.StringIO()
    keylog = KeyLog(tmp_path, error_stream=errors)  # a directory
    keylog.write("CONTROL_READ_KEY", SESSION, SECRET)
    keylog.write("CONTROL_WRITE_KEY", SESSION, SECRET)
    assert not keylog.active
    assert errors.getvalue().count("\n") == 1
    assert "cannot open" in errors.getvalue() and "key logging is off" in errors.getvalue()


def test_a_write_that_fails_is_reported_once(tmp_path):
    errors = io.StringIO()
    keylog = KeyLog("/dev/full", error_stream=errors)
    for _ in range(3):
        keylog.write("CONTROL_READ_KEY", SESSION, SECRET)
    assert errors.getvalue().count("\n") == 1 and "cannot write /dev/full" in errors.getvalue()


def test_only_the_labels_of_the_key_log_can_be_written(tmp_path):
    errors = io.StringIO()
    keylog = KeyLog(tmp_path / "keys.txt", error_stream=errors)
    keylog.write("ACCESSORY_LTSK", "1A:2B:3C:4D:5E:6F", SECRET)
    assert (tmp_path / "keys.txt").read_text() == ""
    assert "unknown label 'ACCESSORY_LTSK'" in errors.getvalue()


def test_a_value_of_the_wrong_length_is_refused(tmp_path):
    keylog = KeyLog(tmp_path / "keys.txt", error_stream=io.StringIO())
    keylog.write("PAIR_SETUP_SESSION_KEY", SESSION, SECRET)
    assert (tmp_path / "keys.txt").read_text() == ""


def test_long_term_public_keys_are_written_once_per_process(tmp_path):
    keylog = KeyLog(tmp_path / "keys.txt")
    for _ in range(3):
        keylog.write("ACCESSORY_LTPK", "1A:2B:3C:4D:5E:6F", SECRET, once=True)
    assert len((tmp_path / "keys.txt").read_text().splitlines()) == 1


def test_endpoints_are_written_controller_first(tmp_path):
    keylog = KeyLog(tmp_path / "keys.txt")
    keylog.write_endpoints(SESSION, "127.0.0.1:50000", "[fd77::2]:51826")
    assert (tmp_path / "keys.txt").read_text() == f"SESSION_ENDPOINTS {SESSION.hex()} 127.0.0.1:50000 [fd77::2]:51826\n"


def test_lines_from_many_threads_never_interleave(tmp_path):
    keylog = KeyLog(tmp_path / "keys.txt")

    def write_many(index: int) -> None:
        for _ in range(200):
            keylog.write("CONTROL_READ_KEY", bytes([index]) * 32, bytes([index]) * 32)

    threads = [threading.Thread(target=write_many, args=(index,)) for index in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines = (tmp_path / "keys.txt").read_text().splitlines()
    assert len(lines) == 1600
    assert all(line.split()[1] == line.split()[2] for line in lines)


def test_a_failing_hook_switches_the_exporter_off_and_the_stack_goes_on(tmp_path):
    errors = io.StringIO()
    keylog = KeyLog(tmp_path / "keys.txt", error_stream=errors)

    class Stack:
        def compute(self, value):
            return value * 2

    def broken_observer(result, stack, value):
        raise KeyError("a field this version of the stack does not have")

    hooks.after(keylog, Stack, "compute", broken_observer)
    assert [Stack().compute(21) for _ in range(3)] == [42, 42, 42]
    assert errors.getvalue().count("\n") == 1 and "exporter error" in errors.getvalue()


def test_a_hooked_generator_passes_requests_and_results_through(tmp_path):
    keylog = KeyLog(tmp_path / "keys.txt")
    seen = []

    class Module:
        @staticmethod
        def machine(start):
            answer = yield ("request", start)
            answer = yield ("request", answer)
            return answer * 10

    hooks.around_generator(keylog, Module, "machine",
                           on_yield=lambda state, value, start: seen.append(value),
                           on_return=lambda state, value, start: None)
    machine = Module.machine(1)
    assert machine.send(None) == ("request", 1)
    assert machine.send(2) == ("request", 2)
    try:
        machine.send(3)
    except StopIteration as stop:
        assert stop.value == 30
    assert seen == [("request", 1), ("request", 2)]


def test_a_stack_is_hooked_once_however_often_it_is_asked(tmp_path):
    keylog = KeyLog(tmp_path / "keys.txt")

    class Stack:
        def compute(self):
            return 1

    calls = []
    for _ in range(3):
        hooks.after(keylog, Stack, "compute", lambda result, stack: calls.append(result))
    Stack().compute()
    assert calls == [1]


def test_nothing_is_written_unless_a_file_is_named(tmp_path, monkeypatch):
    monkeypatch.delenv("HAPKEYLOGFILE", raising=False)
    assert keylog_path_from_environment() is None
    assert activate("anything", lambda keylog: [], None) is None


def test_the_exporters_write_the_first_file_hapscope_reads():
    assert keylog_path_from_environment({"HAPKEYLOGFILE": "a.keylog:b.keylog"}) == "a.keylog"


def test_endpoint_text_follows_the_key_log_format():
    assert hooks.endpoint_text(("127.0.0.1", 51826)) == "127.0.0.1:51826"
    assert hooks.endpoint_text(("fd77::2", 51826, 0, 0)) == "[fd77::2]:51826"
    assert hooks.endpoint_text(("::ffff:10.0.0.2", 80, 0, 0)) == "10.0.0.2:80"
    assert hooks.endpoint_text(("fe80::1%eth0", 80, 0, 2)) == "[fe80::1]:80"
    assert hooks.endpoint_text(None) is None


def test_srp_keys_kept_as_integers_get_their_leading_zeros_back():
    assert left_padded(1, 64) == bytes(63) + b"\x01"
    assert left_padded(b"\x02" * 63, 64) == b"\x00" + b"\x02" * 63
