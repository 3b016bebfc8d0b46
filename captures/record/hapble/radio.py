"""Two Bumble devices on one LocalLink in user space, each host's HCI traffic snooped.

Bumble (PyPI `bumble`): `Controller` objects exchange link-layer PDUs over a `LocalLink`; a `Host`
talks HCI to its controller through an in-process pipe; `Host.snooper` sees every HCI packet in both
directions. The capture files are written by Bumble's own `PcapSnooper` (LINKTYPE 201,
BLUETOOTH_HCI_H4_WITH_PHDR) and `BtSnooper` (btsnoop version 1, datalink 1002 = H4).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from bumble.controller import Controller
from bumble.device import Device
from bumble.hci import Address
from bumble.host import Host
from bumble.link import LocalLink
from bumble.snoop import BtSnooper, PcapSnooper, Snooper
from bumble.transport.common import AsyncPipeSink


class TeeSnooper(Snooper):
    """Hands every HCI packet to several snoopers (one capture per container format)."""

    def __init__(self, snoopers: list[Snooper]) -> None:
        self.snoopers = snoopers

    def snoop(self, hci_packet: bytes, direction: Snooper.Direction) -> None:
        for snooper in self.snoopers:
            snooper.snoop(hci_packet, direction)


@dataclass
class Station:
    name: str
    address: str
    device: Device
    files: list[BinaryIO]


def address_text(address: Address) -> str:
    """`XX:XX:XX:XX:XX:XX` upper-case, `/random` appended for a random address (key-log format)."""
    text = address.to_string(with_type_qualifier=False).upper()
    return text + ("/random" if address.is_random else "")


class Radio:
    """The link and its two stations; `close()` flushes and closes the capture files."""

    def __init__(self) -> None:
        self.link = LocalLink()
        self.stations: list[Station] = []

    def add_station(self, name: str, address: str, pcap: Path | None, btsnoop: Path | None) -> Station:
        controller = Controller(name, link=self.link, public_address=address)
        host = Host(controller, AsyncPipeSink(controller))
        files: list[BinaryIO] = []
        snoopers: list[Snooper] = []
        if pcap is not None:
            files.append(pcap.open("wb"))
            snoopers.append(PcapSnooper(files[-1]))
        if btsnoop is not None:
            files.append(btsnoop.open("wb"))
            snoopers.append(BtSnooper(files[-1]))
        if snoopers:
            host.snooper = TeeSnooper(snoopers)
        device = Device(name=name, address=Address(address), host=host)
        station = Station(name, address, device, files)
        self.stations.append(station)
        return station

    def close(self) -> None:
        for station in self.stations:
            station.device.host.snooper = None
            for handle in station.files:
                handle.flush()
                handle.close()
            station.files.clear()
