"""The isolated networks a scenario runs in: two (or, with the lossy relay, three) network namespaces.

Direct topology::

    [controller ns] hap0 ===veth=== hap0 [accessory ns]

Relayed topology (the relay bridges Ethernet frames in user space, see ``relay.py``)::

    [controller ns] hap0 ===veth=== toctl [relay ns] toacc ===veth=== hap0 [accessory ns]

Everything is created inside namespaces this run owns; the host's own interfaces, addresses and
routes are never touched, and ``destroy`` removes the namespaces (and with them every veth).
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass

INTERFACE = "hap0"
RELAY_TO_CONTROLLER = "toctl"
RELAY_TO_ACCESSORY = "toacc"
# Locally administered unicast MACs spelling "hap", so the captures are the same on every run.
CONTROLLER_MAC = "02:68:61:70:00:01"
ACCESSORY_MAC = "02:68:61:70:00:02"
LINK_LOCAL_TIMEOUT = 10.0


@dataclass(frozen=True)
class Addressing:
    family: int
    controller: str
    accessory: str
    prefix_length: int


IPV4 = Addressing(family=4, controller="10.77.0.1", accessory="10.77.0.2", prefix_length=24)
IPV6 = Addressing(family=6, controller="fd77::1", accessory="fd77::2", prefix_length=64)


def run(*command: str) -> None:
    subprocess.run(command, check=True, timeout=20, stdout=subprocess.DEVNULL)


class Topology:
    """Namespaces, veth pairs and addresses of one scenario run."""

    def __init__(self, run_id: str, addressing: Addressing, relayed: bool) -> None:
        self.addressing = addressing
        self.relayed = relayed
        self.controller_ns = f"hapcap-{run_id}-ctl"
        self.accessory_ns = f"hapcap-{run_id}-acc"
        self.relay_ns = f"hapcap-{run_id}-relay" if relayed else None
        self._created: list[str] = []

    @property
    def namespaces(self) -> list[str]:
        return [ns for ns in (self.controller_ns, self.accessory_ns, self.relay_ns) if ns]

    def create(self) -> None:
        for ns in self.namespaces:
            run("ip", "netns", "add", ns)
            self._created.append(ns)
            run("ip", "-n", ns, "link", "set", "lo", "up")
            self._set_sysctls(ns)
        if self.relayed:
            assert self.relay_ns is not None
            self._veth(self.accessory_ns, INTERFACE, ACCESSORY_MAC, self.relay_ns, RELAY_TO_ACCESSORY)
            self._veth(self.controller_ns, INTERFACE, CONTROLLER_MAC, self.relay_ns, RELAY_TO_CONTROLLER)
            for port in (RELAY_TO_ACCESSORY, RELAY_TO_CONTROLLER):
                # The relay forwards frames addressed to the other side, so it must see them all.
                run("ip", "-n", self.relay_ns, "link", "set", port, "up", "promisc", "on")
            self._disable_offloads(self.relay_ns, RELAY_TO_ACCESSORY, RELAY_TO_CONTROLLER)
        else:
            self._veth(self.accessory_ns, INTERFACE, ACCESSORY_MAC, self.controller_ns, INTERFACE, CONTROLLER_MAC)
        self._configure_host(self.controller_ns, self.addressing.controller)
        self._configure_host(self.accessory_ns, self.addressing.accessory)
        if self.addressing.family == 6:
            for ns in (self.controller_ns, self.accessory_ns):
                self._wait_for_link_local_address(ns)

    def destroy(self) -> None:
        for ns in reversed(self._created):
            subprocess.run(["ip", "netns", "del", ns], check=False, timeout=20, stderr=subprocess.DEVNULL)
        self._created.clear()

    def __enter__(self) -> Topology:
        try:
            self.create()
        except BaseException:
            self.destroy()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.destroy()

    def _set_sysctls(self, ns: str) -> None:
        if self.addressing.family == 4 or ns == self.relay_ns:
            # IPv4 captures stay free of IPv6 neighbour discovery and MLD chatter; the relay sends nothing.
            settings = ["net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1"]
        else:
            # No duplicate address detection: addresses are usable at once, and nothing else shares the link.
            settings = [
                "net.ipv6.conf.all.accept_dad=0",
                "net.ipv6.conf.default.accept_dad=0",
                "net.ipv6.conf.default.router_solicitations=0",
            ]
        run("ip", "netns", "exec", ns, "sysctl", "-q", "-w", *settings)

    def _veth(self, ns_a: str, name_a: str, mac_a: str, ns_b: str, name_b: str, mac_b: str | None = None) -> None:
        peer = ["peer", "name", name_b] + (["address", mac_b] if mac_b else []) + ["netns", ns_b]
        run("ip", "-n", ns_a, "link", "add", name_a, "address", mac_a, "type", "veth", *peer)

    def _configure_host(self, ns: str, address: str) -> None:
        family = f"-{self.addressing.family}"
        extra = ["nodad"] if self.addressing.family == 6 else []
        run("ip", "-n", ns, family, "addr", "add", f"{address}/{self.addressing.prefix_length}", "dev", INTERFACE, *extra)
        self._disable_offloads(ns, INTERFACE)
        run("ip", "-n", ns, "link", "set", INTERFACE, "up", "multicast", "on")
        if self.addressing.family == 4:
            # mDNS goes to 224.0.0.251; without a default route the namespace needs this one.
            run("ip", "-n", ns, "route", "add", "224.0.0.0/4", "dev", INTERFACE)

    @staticmethod
    def _wait_for_link_local_address(ns: str) -> None:
        """Wait until IPv6 multicast can leave: until then the kernel silently drops mDNS sends."""
        deadline = time.monotonic() + LINK_LOCAL_TIMEOUT
        while time.monotonic() < deadline:
            shown = subprocess.run(
                ["ip", "-n", ns, "-6", "addr", "show", "dev", INTERFACE, "scope", "link"],
                check=True, capture_output=True, text=True, timeout=20,
            ).stdout  # fmt: skip
            if "inet6 fe80:" in shown and "tentative" not in shown:
                return
            time.sleep(0.05)
        raise RuntimeError(f"{ns}: no usable IPv6 link-local address on {INTERFACE} after {LINK_LOCAL_TIMEOUT} s")

    @staticmethod
    def _disable_offloads(ns: str, *interfaces: str) -> None:
        run("ip", "netns", "exec", ns, sys.executable, "-m", "hapcapture.offload", *interfaces)
