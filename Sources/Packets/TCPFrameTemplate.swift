/// Builds new TCP frames in the image of a captured one: the same link header, IP header fields
/// and TCP options, with new sequence numbers, flags and payload, and the lengths and checksums
/// made right (RFC 791 §3.1, RFC 8200 §3, RFC 9293 §3.1). The decrypted-capture export writes
/// plaintext this way so that Wireshark dissects it as ordinary TCP.
public struct TCPFrameTemplate: Sendable {
    /// The frame up to the TCP payload.
    private var headers: [UInt8]
    private let layout: TCPSegment.FrameLayout
    private let isIPv6: Bool

    /// Copies the headers of `frame`; nil when the layout does not describe an IPv4 or IPv6
    /// header followed by a TCP header inside the frame.
    public init?(frame: UnsafeRawBufferPointer, layout: TCPSegment.FrameLayout) {
        guard layout.networkHeaderOffset >= 0, layout.networkHeaderOffset < layout.transportHeaderOffset,
              layout.transportHeaderOffset + 20 <= layout.payloadOffset, layout.payloadOffset <= frame.count
        else { return nil }
        let version = frame[layout.networkHeaderOffset] >> 4
        guard version == 4 || (version == 6 && layout.transportHeaderOffset - layout.networkHeaderOffset >= 40) else { return nil }
        headers = Array(frame[..<layout.payloadOffset])
        self.layout = layout
        isIPv6 = version == 6
    }

    /// A frame carrying `payload` with the given TCP fields.
    public func frame(sequenceNumber: UInt32, acknowledgmentNumber: UInt32, flags: TCPFlags, payload: UnsafeRawBufferPointer) -> [UInt8] {
        var frame = headers
        frame.append(contentsOf: payload)
        let network = layout.networkHeaderOffset, transport = layout.transportHeaderOffset
        let segmentLength = frame.count - transport
        var pseudoHeader = InternetChecksum()
        if isIPv6 {
            storeUInt16(UInt16(frame.count - network - 40), into: &frame, at: network + 4)
            frame.withUnsafeBytes { pseudoHeader.add(UnsafeRawBufferPointer(rebasing: $0[(network + 8) ..< (network + 40)])) }
            pseudoHeader.add(UInt32(segmentLength))
        } else {
            let headerLength = Int(frame[network] & 0x0F) * 4
            storeUInt16(UInt16(frame.count - network), into: &frame, at: network + 2)
            storeUInt16(0, into: &frame, at: network + 10)
            var header = InternetChecksum()
            frame.withUnsafeBytes { header.add(UnsafeRawBufferPointer(rebasing: $0[network ..< network + headerLength])) }
            storeUInt16(header.value, into: &frame, at: network + 10)
            frame.withUnsafeBytes { pseudoHeader.add(UnsafeRawBufferPointer(rebasing: $0[(network + 12) ..< (network + 20)])) }
            pseudoHeader.add(UInt16(segmentLength))
        }
        pseudoHeader.add(UInt16(IPProtocol.tcp.rawValue))
        storeUInt32(sequenceNumber, into: &frame, at: transport + 4)
        storeUInt32(acknowledgmentNumber, into: &frame, at: transport + 8)
        frame[transport + 13] = flags.rawValue
        storeUInt16(0, into: &frame, at: transport + 16)
        frame.withUnsafeBytes { pseudoHeader.add(UnsafeRawBufferPointer(rebasing: $0[transport...])) }
        storeUInt16(pseudoHeader.value, into: &frame, at: transport + 16)
        return frame
    }

    private func storeUInt16(_ value: UInt16, into frame: inout [UInt8], at offset: Int) {
        frame[offset] = UInt8(value >> 8)
        frame[offset + 1] = UInt8(value & 0xFF)
    }

    private func storeUInt32(_ value: UInt32, into frame: inout [UInt8], at offset: Int) {
        storeUInt16(UInt16(value >> 16), into: &frame, at: offset)
        storeUInt16(UInt16(value & 0xFFFF), into: &frame, at: offset + 2)
    }
}
