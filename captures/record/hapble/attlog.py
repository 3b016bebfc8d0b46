"""Every ATT PDU a Bumble device sends or receives, journalled with its handle (Core Spec Vol 3 Part F
§3.4): wraps the device's ATT fixed channel (CID 4) for incoming PDUs and `send_l2cap_pdu` for outgoing
ones, so that nothing in between (GATT server or client) can hide one.
"""

from __future__ import annotations

import struct


from hapcapture.journal import Journal

ATT_CID = 0x0004
NAMES = {
    0x01: "Error-Response", 0x02: "Exchange-MTU-Request", 0x03: "Exchange-MTU-Response",
    0x04: "Find-Information-Request", 0x05: "Find-Information-Response",
    0x06: "Find-By-Type-Value-Request", 0x07: "Find-By-Type-Value-Response",
    0x08: "Read-By-Type-Request", 0x09: "Read-By-Type-Response", 0x0A: "Read-Request", 0x0B: "Read-Response",
    0x0C: "Read-Blob-Request", 0x0D: "Read-Blob-Response", 0x10: "Read-By-Group-Type-Request",
    0x11: "Read-By-Group-Type-Response", 0x12: "Write-Request", 0x13: "Write-Response",
    0x16: "Prepare-Write-Request", 0x17: "Prepare-Write-Response", 0x18: "Execute-Write-Request",
    0x19: "Execute-Write-Response", 0x1B: "Handle-Value-Notification", 0x1D: "Handle-Value-Indication",
    0x1E: "Handle-Value-Confirmation", 0x52: "Write-Command",
}
REQUESTS_WITH_HANDLE = {0x0A, 0x0C, 0x12, 0x16, 0x52, 0x1B, 0x1D}
RESPONSES = {0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x11, 0x13, 0x17, 0x19, 0x01}


def describe(pdu: bytes) -> dict:
    """Opcode, name, handle (where the PDU names one), offset and value of one ATT PDU."""
    opcode = pdu[0]
    out: dict = {"opcode": opcode, "name": NAMES.get(opcode, f"0x{opcode:02x}"), "handle": None, "offset": None, "value": None}
    if opcode in REQUESTS_WITH_HANDLE and len(pdu) >= 3:
        out["handle"] = struct.unpack_from("<H", pdu, 1)[0]
        if opcode in (0x0C, 0x16) and len(pdu) >= 5:
            out["offset"] = struct.unpack_from("<H", pdu, 3)[0]
            out["value"] = pdu[5:].hex() if opcode == 0x16 else None
        else:
            out["value"] = pdu[3:].hex() if opcode != 0x0A else None
    elif opcode == 0x17 and len(pdu) >= 5:
        out["handle"], out["offset"] = struct.unpack_from("<HH", pdu, 1)
        out["value"] = pdu[5:].hex()
    elif opcode in (0x0B, 0x0D):
        out["value"] = pdu[1:].hex()
    elif opcode == 0x01 and len(pdu) >= 5:
        out["handle"] = struct.unpack_from("<H", pdu, 2)[0]
        out["error"] = {"requestOpcode": pdu[1], "code": pdu[4]}
    elif opcode in (0x02, 0x03) and len(pdu) >= 3:
        out["mtu"] = struct.unpack_from("<H", pdu, 1)[0]
    elif opcode == 0x18 and len(pdu) >= 2:
        out["flags"] = pdu[1]
    return out


class AttRecorder:
    """Journals ATT PDUs of one device as `att` events; `connection_index(handle)` names connections
    1, 2, … in the order they opened."""

    def __init__(self, device, journal: Journal, side: str, inbound_direction: str, outbound_direction: str) -> None:
        self.device = device
        self.journal = journal
        self.side = side
        self.inbound = inbound_direction
        self.outbound = outbound_direction
        self.indices: dict[int, int] = {}
        # Counted apart from `indices`: a reused handle replaces its entry there, so its length
        # stops counting connections at the first reuse.
        self.opened = 0
        self.pending_handle: dict[tuple[int, str], int | None] = {}
        self.listeners: list = []
        original_channel = device.l2cap_channel_manager.fixed_channels[ATT_CID]
        original_send = device.send_l2cap_pdu

        def on_att(connection_handle: int, pdu: bytes):
            self.record(connection_handle, self.inbound, bytes(pdu))
            return original_channel(connection_handle, pdu)

        def send_l2cap_pdu(connection_handle: int, cid: int, pdu: bytes) -> None:
            if cid == ATT_CID:
                self.record(connection_handle, self.outbound, bytes(pdu))
            return original_send(connection_handle, cid, pdu)

        device.l2cap_channel_manager.register_fixed_channel(ATT_CID, on_att)
        device.send_l2cap_pdu = send_l2cap_pdu
        # A new connection may reuse an HCI handle: number it afresh when it opens.
        device.on("connection", lambda connection: self.open_connection(connection.handle))

    @property
    def next_connection_index(self) -> int:
        """The number the next connection to open will have: a hook acting between connections
        names the connection that will see the result."""
        return self.opened + 1

    def open_connection(self, connection_handle: int) -> int:
        self.opened += 1
        self.indices[connection_handle] = self.opened
        return self.opened

    def connection_index(self, connection_handle: int) -> int:
        if connection_handle not in self.indices:
            return self.open_connection(connection_handle)
        return self.indices[connection_handle]

    def record(self, connection_handle: int, direction: str, pdu: bytes) -> None:
        if not pdu:
            return
        fields = describe(pdu)
        index = self.connection_index(connection_handle)
        # A response carries no handle: take the request's (one outstanding request per direction).
        request_direction = self.outbound if direction == self.inbound else self.inbound
        if fields["opcode"] in (0x0A, 0x0C, 0x12, 0x16, 0x18):
            self.pending_handle[(index, direction)] = fields["handle"]
        elif fields["opcode"] in RESPONSES and fields["handle"] is None:
            fields["handle"] = self.pending_handle.get((index, request_direction))
        self.journal.write("att", side=self.side, connection=index, direction=direction, pdu=pdu.hex(), **fields)
        for listener in self.listeners:
            listener(index, direction, fields)

