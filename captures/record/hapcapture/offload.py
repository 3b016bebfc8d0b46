"""Turn off segmentation and checksum offloads on interfaces of the current network namespace.

With offloads on, veth hands TCP segments up to 64 KB long with unfinished checksums to the capture
(and to the relay, which would forward them broken). With them off, every captured frame is what a
real NIC would put on the wire: MSS-sized segments with correct checksums.

Usage (inside a namespace): ``python -m hapcapture.offload IFNAME...``. Talks to the kernel through
the legacy ethtool ioctl so that no ``ethtool`` binary is needed.
"""

from __future__ import annotations

import ctypes
import fcntl
import socket
import struct
import sys

SIOCETHTOOL = 0x8946
# linux/ethtool.h: the "set" commands of the legacy per-feature interface, in the order that keeps
# the kernel from refusing one because another still depends on it.
ETHTOOL_SET_COMMANDS = {
    "tcp-segmentation-offload": 0x0000001F,  # ETHTOOL_STSO
    "generic-segmentation-offload": 0x00000024,  # ETHTOOL_SGSO
    "generic-receive-offload": 0x0000002C,  # ETHTOOL_SGRO
    "scatter-gather": 0x00000019,  # ETHTOOL_SSG
    "tx-checksumming": 0x00000017,  # ETHTOOL_STXCSUM
    "rx-checksumming": 0x00000015,  # ETHTOOL_SRXCSUM
}


def set_feature(interface: str, command: int, enabled: bool) -> None:
    value = ctypes.create_string_buffer(struct.pack("II", command, int(enabled)), 8)
    request = struct.pack("16sP16x", interface.encode("ascii"), ctypes.addressof(value))
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as control:
        fcntl.ioctl(control.fileno(), SIOCETHTOOL, request)


def disable_offloads(interface: str) -> None:
    for command in ETHTOOL_SET_COMMANDS.values():
        set_feature(interface, command, False)


if __name__ == "__main__":
    for name in sys.argv[1:]:
        disable_offloads(name)
