import WireParsing

extension PacketDecoder {
    /// Decodes the upper layer of an IP packet.
    ///
    /// - Parameters:
    ///   - payload: the captured part of the IP payload from the upper-layer header on.
    ///   - declaredLength: that payload's length as the IP header(s) announce it.
    ///   - payloadOffset: where `payload` starts in the frame, for error offsets.
    ///   - checksumDestinationKnown: false after an IPv6 routing header, whose final
    ///     destination, not the packet's, enters the checksum (RFC 8200 §8.1).
    ///   - networkHeaderOffset: where the IP header starts in the frame; nil when the payload was
    ///     reassembled from fragments and so lies in no single frame.
    func decodeTransport(
        _ ipProtocol: IPProtocol, source: IPAddress, destination: IPAddress, payload: UnsafeRawBufferPointer,
        declaredLength: Int, payloadOffset: Int, info: PacketInfo, checksumDestinationKnown: Bool = true,
        networkHeaderOffset: Int? = nil
    ) throws(DecodeError) -> DecodedPacket {
        let isWhole = payload.count == declaredLength
        switch ipProtocol {
        case .tcp:
            let span = unsafe RawSpan(_unsafeBytes: payload)
            var cursor = ByteCursor(span, layer: .tcp, baseOffset: payloadOffset)
            let header = try TCPHeader(parsing: &cursor, segmentLength: declaredLength)
            if configuration.verifiesChecksums && isWhole && checksumDestinationKnown
                && !Self.checksumIsValid(payload, ipProtocol: .tcp, source: source, destination: destination) {
                statistics.badTCPChecksums += 1
            }
            return .tcp(TCPSegment(
                packet: info,
                source: Endpoint(address: source, port: header.sourcePort),
                destination: Endpoint(address: destination, port: header.destinationPort),
                sequenceNumber: header.sequenceNumber, acknowledgmentNumber: header.acknowledgmentNumber,
                flags: header.flags, window: header.window,
                payload: UnsafeRawBufferPointer(rebasing: payload[header.headerLength...]),
                missingPayloadCount: declaredLength - payload.count,
                frameLayout: networkHeaderOffset.map {
                    TCPSegment.FrameLayout(networkHeaderOffset: $0, transportHeaderOffset: payloadOffset, payloadOffset: payloadOffset + header.headerLength)
                }))

        case .udp:
            let span = unsafe RawSpan(_unsafeBytes: payload)
            var cursor = ByteCursor(span, layer: .udp, baseOffset: payloadOffset)
            let header = try UDPHeader(parsing: &cursor, ipPayloadLength: declaredLength)
            let capturedEnd = min(payload.count, header.datagramLength)
            if configuration.verifiesChecksums && capturedEnd == header.datagramLength && checksumDestinationKnown {
                countUDPChecksum(header, datagram: UnsafeRawBufferPointer(rebasing: payload[..<capturedEnd]), source: source, destination: destination)
            }
            return .udp(UDPDatagram(
                packet: info,
                source: Endpoint(address: source, port: header.sourcePort),
                destination: Endpoint(address: destination, port: header.destinationPort),
                payload: UnsafeRawBufferPointer(rebasing: payload[UDPHeader.length ..< capturedEnd]),
                missingPayloadCount: header.datagramLength - capturedEnd))

        default:
            return .otherIPProtocol(OtherIPPacket(packet: info, source: source, destination: destination, ipProtocol: ipProtocol))
        }
    }

    private func countUDPChecksum(_ header: UDPHeader, datagram: UnsafeRawBufferPointer, source: IPAddress, destination: IPAddress) {
        if header.checksum == 0 {
            // RFC 768: zero means "not computed" over IPv4; RFC 8200 §8.1 forbids it over IPv6.
            if case .v6 = source { statistics.badUDPChecksums += 1 }
            return
        }
        if !Self.checksumIsValid(datagram, ipProtocol: .udp, source: source, destination: destination) {
            statistics.badUDPChecksums += 1
        }
    }

    /// Checks a TCP or UDP checksum over the pseudo-header (RFC 9293 §3.1, RFC 768, RFC 8200 §8.1)
    /// and `segment`, checksum field included.
    private static func checksumIsValid(
        _ segment: UnsafeRawBufferPointer, ipProtocol: IPProtocol, source: IPAddress, destination: IPAddress
    ) -> Bool {
        var checksum = InternetChecksum()
        checksum.add(source)
        checksum.add(destination)
        checksum.add(UInt32(ipProtocol.rawValue))
        checksum.add(UInt32(segment.count))
        checksum.add(segment)
        return checksum.isValid
    }
}
