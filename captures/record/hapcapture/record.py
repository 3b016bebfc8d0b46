"""Recording one scenario: namespaces up, capture on, accessory, controller, everything down again.

The capture runs in the accessory's namespace (on its side of the relay in ``lossy-link``); it starts
before the peers, or, for a scenario with ``capture_on_request``, when the story asks for it
(``Story.start_capture``: the story writes ``capture.request`` into the work directory, the recorder starts
the capture and answers with ``capture.started``). Every process this module starts runs in a session of
its own and is stopped by its own id when the scenario ends, however it ends; the namespaces are deleted
afterwards.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable

from .journal import read_journal
from .netns import INTERFACE, RELAY_TO_ACCESSORY, RELAY_TO_CONTROLLER, Topology
from .peerfacts import PeerFacts
from .peers import Peer
from .scenarios import DUMPCAP, TCPDUMP_ANY, Scenario
from .srpsearch import choose_seed
from .story import CAPTURE_REQUEST, CAPTURE_STARTED

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
READY_TIMEOUT = 30.0
STOP_TIMEOUT = 20.0
CAPTURE_DRAIN_SECONDS = 1.5
CAPTURE_ATTEMPTS = 3
PYTHON_HASH_SEED = 0
CAPTURE_BUFFER_MIB = 64


class ScenarioFailed(RuntimeError):
    """A peer failed, a process did not come up, or the capture stayed unusable."""


@dataclass
class Recording:
    scenario: Scenario
    seed: int
    relay_seed: int
    workdir: Path
    capture: Path


class Processes:
    """The processes of one scenario run, each in its own session, stopped by id on exit."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self._running: list[tuple[subprocess.Popen, BinaryIO]] = []

    def start(self, role: str, namespace: str, command: list[str]) -> subprocess.Popen:
        """Run ``command`` inside ``namespace``, output to ``<workdir>/<role>.log``."""
        log = (self.workdir / f"{role}.log").open("wb")
        process = subprocess.Popen(
            ["ip", "netns", "exec", namespace, *command],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=PACKAGE_ROOT,
            start_new_session=True,
        )
        self._running.append((process, log))
        return process

    def python(self, role: str, namespace: str, module: str, *arguments: str, python: str = sys.executable) -> subprocess.Popen:
        # A fixed hash seed fixes set iteration order, and with it the key order of some JSON that
        # HAP-python builds (characteristic properties in /accessories).
        command = ["env", f"PYTHONHASHSEED={PYTHON_HASH_SEED}", python, "-m", module, *arguments]
        return self.start(role, namespace, command)

    def peer(self, role: str, namespace: str, peer: Peer, *arguments: str) -> subprocess.Popen:
        """A peer process, in the peer's own venv if it has one (record.sh creates it)."""
        python = sys.executable if peer.venv is None else str(PACKAGE_ROOT / peer.venv / "bin" / "python")
        return self.python(role, namespace, peer.module, *arguments, python=python)

    def stop(self, process: subprocess.Popen, signum: int = signal.SIGTERM, timeout: float = STOP_TIMEOUT) -> int:
        if process.poll() is None:
            process.send_signal(signum)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)
        return process.returncode

    def __enter__(self) -> Processes:
        return self

    def __exit__(self, *exc_info: object) -> None:
        for process, log in reversed(self._running):
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait(5)
            log.close()


def wait_until(condition: Callable[[], bool], timeout: float, what: str, watched: subprocess.Popen) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if watched.poll() is not None:
            raise ScenarioFailed(f"{what}: the process exited early with status {watched.returncode}")
        if time.monotonic() > deadline:
            raise ScenarioFailed(f"{what}: not ready after {timeout:.0f} s")
        time.sleep(0.05)


def capture_command(scenario: Scenario, path: Path) -> list[str]:
    # In immediate mode every packet takes a whole ring-buffer block, and with the full snap length the
    # default 2 MB ring has only a handful of blocks: a burst of packets would be dropped. Hence -B.
    if scenario.capture == DUMPCAP:
        return ["dumpcap", "-q", "-i", INTERFACE, "-s", "0", "-B", str(CAPTURE_BUFFER_MIB), "-w", str(path)]
    interface = "any" if scenario.capture == TCPDUMP_ANY else INTERFACE
    return [
        "tcpdump",
        "-Z", "root",  # tcpdump otherwise drops to its own user before it can write into our work directory
        "--immediate-mode",  # packets still waiting in a ring block would be lost when tcpdump stops
        "-B", str(CAPTURE_BUFFER_MIB * 1024),
        "-U", "-n", "-s", "0", "-i", interface, "-w", str(path),
    ]  # fmt: skip


def packets_dropped(capture_log: Path) -> int:
    """What the capture tool reported as dropped by the kernel when it stopped."""
    text = capture_log.read_text(errors="replace")
    tcpdump = re.search(r"(\d+) packets? dropped by kernel", text)
    if tcpdump is not None:
        return int(tcpdump[1])
    dumpcap = re.search(r"Packets received/dropped on interface '[^']*': \d+/(\d+)", text)
    if dumpcap is not None:
        return int(dumpcap[1])
    raise ScenarioFailed(f"the capture tool reported no drop count: {text.strip()!r}")


def record_scenario(scenario: Scenario) -> Recording:
    """Record ``scenario``, again (up to ``CAPTURE_ATTEMPTS`` times) if the capture is unusable.

    Unusable means the kernel dropped packets before the capture tool read them, the capture lacks
    what the scenario must show (the lossy relay's decisions are seeded, but whether a held-back frame
    is overtaken depends on what else is in flight at that moment), or a peer sent something while a
    capture on request was starting, so that nobody can say whether the capture holds it.
    """
    seed = choose_seed(
        scenario.seed, scenario.setup_code, scenario.pair_setups, (scenario.accessory_peer.name, scenario.controller_peer.name)
    )
    for attempt in range(CAPTURE_ATTEMPTS):
        recording = record_once(scenario, seed, relay_seed=seed * 100 + attempt)
        dropped = packets_dropped(recording.workdir / "capture.log")
        missing = [f for f in scenario.capture_must_show if not capture_shows(recording.capture, f)]
        straddling = sent_while_capture_started(recording.workdir)
        if not missing and not dropped and not straddling:
            return recording
        if dropped:
            problem = f"the kernel dropped {dropped} packets"
        elif missing:
            problem = f"capture shows no {', '.join(missing)}"
        else:
            problem = f"sent while the capture was starting, so maybe captured, maybe not: {'; '.join(straddling)}"
        print(f"{scenario.name}: {problem}; recording again", flush=True)
        discard(recording)
    raise ScenarioFailed(f"{scenario.name}: {CAPTURE_ATTEMPTS} captures in a row were unusable ({problem})")


def sent_while_capture_started(workdir: Path) -> list[str]:
    """What a peer sent between the story's capture request and the capture running (an empty list without one).

    A packet sent in that window may or may not be in the file, and the truth must say exactly which are; the
    stories keep their own traffic out of it, but mDNS answers and announcements follow no story.
    """
    controller = read_journal(workdir / "controller.jsonl")
    start = next((r for r in controller if r["kind"] == "capture-start"), None)
    if start is None:
        return []
    accessory = read_journal(workdir / "accessory.jsonl")
    sent = [(r["t"], f"{r['direction']} message on {r['client']}") for r in accessory + controller if r["kind"] == "message"]
    sent += [(r["sent_at"], "an mDNS advertisement") for r in accessory if r["kind"] == "advertisement"]
    return [f"{what} at {when:.3f}" for when, what in sent if start["requested"] <= when <= start["opened"]]


def capture_shows(capture: Path, display_filter: str) -> bool:
    result = subprocess.run(
        ["tshark", "-r", str(capture), "-o", "tcp.reassemble_out_of_order:TRUE", "-Y", display_filter],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return bool(result.stdout.strip())


def record_once(scenario: Scenario, seed: int, relay_seed: int) -> Recording:
    workdir = Path(tempfile.mkdtemp(prefix=f"hapcapture-{scenario.name}-"))
    capture = workdir / f"{scenario.name}{scenario.capture_suffix}"
    peer_arguments = ["--scenario", scenario.name, "--seed", str(seed), "--workdir", str(workdir)]
    PeerFacts.of(scenario).write(workdir)
    # record.sh passes its own pid so that it can find and remove the namespaces should we die.
    run_id = os.environ.get("HAPCAPTURE_RUN_ID", str(os.getpid()))

    with Topology(run_id, scenario.addressing, relayed=scenario.impairment is not None) as topology, Processes(
        workdir
    ) as processes:

        def start_capture() -> subprocess.Popen:
            capturer = processes.start("capture", topology.accessory_ns, capture_command(scenario, capture))
            # Both tools write the file header as soon as the capture is open.
            wait_until(lambda: capture.exists() and capture.stat().st_size > 0, READY_TIMEOUT, "capture", capturer)
            return capturer

        capturer = None if scenario.capture_on_request else start_capture()

        relay = None
        if scenario.impairment is not None:
            assert topology.relay_ns is not None
            impairment = scenario.impairment
            relay = processes.python(
                "relay", topology.relay_ns, "hapcapture.relay",
                "--ports", RELAY_TO_CONTROLLER, RELAY_TO_ACCESSORY,
                "--seed", str(relay_seed),
                "--drop", str(impairment.drop),
                "--duplicate", str(impairment.duplicate),
                "--reorder", str(impairment.reorder),
                "--hold-ms", str(impairment.hold_seconds * 1000),
                "--stats", str(workdir / "relay.json"),
                "--ready", str(workdir / "relay.ready"),
            )  # fmt: skip
            wait_until((workdir / "relay.ready").exists, READY_TIMEOUT, "relay", relay)

        accessory = processes.peer("accessory", topology.accessory_ns, scenario.accessory_peer, *peer_arguments)
        wait_until((workdir / "accessory.ready").exists, READY_TIMEOUT, "accessory", accessory)
        controller = processes.peer("controller", topology.controller_ns, scenario.controller_peer, *peer_arguments)
        deadline = time.monotonic() + scenario.time_limit + 30
        if capturer is None:
            wait_until((workdir / CAPTURE_REQUEST).exists, scenario.time_limit, "capture request", controller)
            capturer = start_capture()
            (workdir / CAPTURE_STARTED).write_text(json.dumps({"opened": time.time()}) + "\n")
        try:
            controller_status = controller.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            controller_status = processes.stop(controller)
        accessory_status = processes.stop(accessory)
        time.sleep(CAPTURE_DRAIN_SECONDS)  # let the last FIN/ACKs and the mDNS goodbye reach the file
        processes.stop(capturer, signal.SIGINT)
        if relay is not None:
            processes.stop(relay)

    if controller_status != 0 or accessory_status != 0:
        raise ScenarioFailed(
            f"{scenario.name}: controller exited {controller_status}, accessory {accessory_status}; logs in {workdir}"
        )
    return Recording(scenario=scenario, seed=seed, relay_seed=relay_seed, workdir=workdir, capture=capture)


def discard(recording: Recording) -> None:
    shutil.rmtree(recording.workdir, ignore_errors=True)
