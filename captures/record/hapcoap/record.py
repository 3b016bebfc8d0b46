"""Recording one scenario: namespaces up, capture on, relay, accessory, controller, everything down again.

The topology and its cleanup are the IP toolkit's (``hapcapture.netns``, IPv6 ``fd77::/64``); the capture
runs with tcpdump on the accessory's interface (on its side of the relay in ``lossy``). Every process runs
in a session of its own and is stopped by its own id when the scenario ends, however it ends.
"""

from __future__ import annotations

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

from hapcapture.journal import read_journal
from hapcapture.netns import INTERFACE, IPV6, RELAY_TO_ACCESSORY, RELAY_TO_CONTROLLER, Topology

from .scenarios import Scenario

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
READY_TIMEOUT = 30.0
STOP_TIMEOUT = 20.0
CAPTURE_DRAIN_SECONDS = 1.5
CAPTURE_ATTEMPTS = 3
PYTHON_HASH_SEED = 0
CAPTURE_BUFFER_KIB = 64 * 1024


class ScenarioFailed(RuntimeError):
    """A peer failed, a process did not come up, or the capture stayed unusable."""


@dataclass
class Recording:
    scenario: Scenario
    seed: int
    relay_seed: int | None
    workdir: Path
    capture: Path


class Processes:
    """The processes of one scenario run, each in its own session, stopped by id on exit."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self._running: list[tuple[subprocess.Popen, BinaryIO]] = []

    def start(self, role: str, namespace: str, command: list[str]) -> subprocess.Popen:
        log = (self.workdir / f"{role}.log").open("wb")
        process = subprocess.Popen(
            ["ip", "netns", "exec", namespace, *command],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, cwd=PACKAGE_ROOT, start_new_session=True,
        )  # fmt: skip
        self._running.append((process, log))
        return process

    def python(self, role: str, namespace: str, module: str, *arguments: str) -> subprocess.Popen:
        # Only the UDP transport: aiocoap would otherwise also open TCP and TLS listeners nobody uses.
        environment = [f"PYTHONHASHSEED={PYTHON_HASH_SEED}", "AIOCOAP_CLIENT_TRANSPORT=udp6", "AIOCOAP_SERVER_TRANSPORT=udp6"]
        return self.start(role, namespace, ["env", *environment, sys.executable, "-m", module, *arguments])

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


def capture_command(path: Path) -> list[str]:
    return [
        "tcpdump", "-Z", "root", "--immediate-mode", "-B", str(CAPTURE_BUFFER_KIB),
        "-U", "-n", "-s", "0", "-i", INTERFACE, "-w", str(path),
    ]  # fmt: skip


def packets_dropped(capture_log: Path) -> int:
    match = re.search(r"(\d+) packets? dropped by kernel", capture_log.read_text(errors="replace"))
    if match is None:
        raise ScenarioFailed(f"tcpdump reported no drop count: {capture_log.read_text(errors='replace').strip()!r}")
    return int(match[1])


def retransmitted(workdir: Path) -> bool:
    records = read_journal(workdir / "accessory.jsonl") + read_journal(workdir / "controller.jsonl")
    return any(r["kind"] == "coap" and r["retransmission"] for r in records)


def record_scenario(scenario: Scenario) -> Recording:
    """Record ``scenario``, again (up to ``CAPTURE_ATTEMPTS`` times) if the capture is unusable.

    Unusable means the kernel dropped packets before tcpdump read them, or a lossy scenario in which no
    datagram was retransmitted (the relay's draws are seeded, but which datagram meets which draw depends
    on the order frames arrive in).
    """
    for attempt in range(CAPTURE_ATTEMPTS):
        relay_seed = scenario.seed * 100 + attempt if scenario.lossy else None
        recording = record_once(scenario, scenario.seed, relay_seed)
        dropped = packets_dropped(recording.workdir / "capture.log")
        missing = scenario.lossy is not None and not retransmitted(recording.workdir)
        if not dropped and not missing:
            return recording
        problem = f"the kernel dropped {dropped} packets" if dropped else "no datagram was retransmitted"
        print(f"{scenario.name}: {problem}; recording again", flush=True)
        discard(recording)
    raise ScenarioFailed(f"{scenario.name}: {CAPTURE_ATTEMPTS} captures in a row were unusable ({problem})")


def record_once(scenario: Scenario, seed: int, relay_seed: int | None) -> Recording:
    workdir = Path(tempfile.mkdtemp(prefix=f"hapcoap-{scenario.name}-"))
    capture = workdir / f"{scenario.name}.pcap"
    peer_arguments = ["--scenario", scenario.name, "--seed", str(seed), "--workdir", str(workdir)]
    run_id = os.environ.get("HAPCAPTURE_RUN_ID", str(os.getpid()))
    with Topology(run_id, IPV6, relayed=scenario.lossy is not None) as topology, Processes(workdir) as processes:
        capturer = processes.start("capture", topology.accessory_ns, capture_command(capture))
        wait_until(lambda: capture.exists() and capture.stat().st_size > 0, READY_TIMEOUT, "capture", capturer)
        relay = None
        if scenario.lossy is not None:
            assert topology.relay_ns is not None and relay_seed is not None
            relay = processes.python(
                "relay", topology.relay_ns, "hapcoap.relay",
                "--ports", RELAY_TO_CONTROLLER, RELAY_TO_ACCESSORY, "--seed", str(relay_seed),
                "--drop", str(scenario.lossy.drop), "--duplicate", str(scenario.lossy.duplicate),
                "--coap-port", str(scenario.port), "--log", str(workdir / "relay.jsonl"),
                "--stats", str(workdir / "relay.json"), "--ready", str(workdir / "relay.ready"),
            )  # fmt: skip
            wait_until((workdir / "relay.ready").exists, READY_TIMEOUT, "relay", relay)
        accessory = processes.python("accessory", topology.accessory_ns, "hapcoap.accessory", *peer_arguments)
        wait_until((workdir / "accessory.ready").exists, READY_TIMEOUT, "accessory", accessory)
        controller = processes.python("controller", topology.controller_ns, "hapcoap.controller", *peer_arguments)
        try:
            controller_status = controller.wait(scenario.time_limit + 30)
        except subprocess.TimeoutExpired:
            controller_status = processes.stop(controller)
        accessory_status = processes.stop(accessory)
        time.sleep(CAPTURE_DRAIN_SECONDS)  # the mDNS goodbye and the last ACKs reach the file
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
