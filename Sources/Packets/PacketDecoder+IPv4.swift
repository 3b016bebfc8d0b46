import WireParsing

extension PacketDecoder {
    /// The largest IPv4 datagram, header included (RFC 791 §3.1: a 16-bit total length).
    static let maximumIPv4DatagramLength = 65_535

    func decodeIPv4(packet: UnsafeRawBufferPointer, at start: Int, info: PacketInfo) throws(DecodeError) -> DecodedPacket {
        let span = unsafe RawSpan(_unsafeBytes: packet)
        var cursor = ByteCursor(span.extracting(start ..< packet.count), layer: .ipv4, baseOffset: start)
        let header = try IPv4Header(parsing: &cursor)
        let payloadStart = start + header.headerLength
        let capturedPayloadLength = min(header.payloadLength, packet.count - payloadStart)
        if capturedPayloadLength < header.payloadLength && info.originalLength <= packet.count {
            throw DecodeError(
                .malformed, layer: .ipv4, offset: start + 2,
                expected: "an IPv4 total length within the \(packet.count - start) bytes of the packet, found \(header.totalLength)")
        }
        if configuration.verifiesChecksums {
            var checksum = InternetChecksum()
            checksum.add(UnsafeRawBufferPointer(rebasing: packet[start ..< payloadStart]))
            if !checksum.isValid { statistics.badIPv4HeaderChecksums += 1 }
        }
        let payload = UnsafeRawBufferPointer(rebasing: packet[payloadStart ..< payloadStart + capturedPayloadLength])

        guard header.isFragment else {
            return try decodeTransport(
                header.ipProtocol, source: header.source, destination: header.destination, payload: payload,
                declaredLength: header.payloadLength, payloadOffset: payloadStart, info: info, networkHeaderOffset: start)
        }

        // RFC 791 §3.2: fragments are reassembled by (source, destination, protocol, identification).
        guard capturedPayloadLength == header.payloadLength else {
            throw DecodeError(
                .truncated, layer: .ipv4, offset: payloadStart + capturedPayloadLength,
                expected: "the whole payload of a fragment to reassemble (\(header.payloadLength) bytes, \(capturedPayloadLength) captured)")
        }
        guard !header.moreFragments || header.payloadLength % 8 == 0 else {
            throw DecodeError(
                .malformed, layer: .ipv4, offset: start + 2,
                expected: "a fragment payload of a multiple of 8 bytes when more fragments follow, found \(header.payloadLength)")
        }
        guard header.headerLength + header.fragmentOffset + header.payloadLength <= Self.maximumIPv4DatagramLength else {
            throw DecodeError(
                .malformed, layer: .ipv4, offset: start + 6,
                expected: "a fragment that ends within the largest IPv4 datagram (65,535 bytes), ending at \(header.headerLength + header.fragmentOffset + header.payloadLength)")
        }
        let key = FragmentKey(
            source: header.source, destination: header.destination, identification: UInt32(header.identification),
            ipv4Protocol: header.ipProtocol.rawValue)
        let outcome = try addFragment(
            payload, at: header.fragmentOffset, isLast: !header.moreFragments, key: key, firstHeader: header.ipProtocol,
            payloadOffset: payloadStart, layer: .ipv4, info: info)
        guard case .completed(let buffer, let length, _) = outcome else { return .fragmentBuffered }
        deliveredDatagram = buffer
        do {
            return try decodeTransport(
                header.ipProtocol, source: header.source, destination: header.destination, payload: buffer.bytes(0 ..< length),
                declaredLength: length, payloadOffset: 0, info: info)
        } catch {
            throw error.inReassembledDatagram(fragmentPayloadOffset: payloadStart)
        }
    }

    /// Hands a fragment to the reassembler, turning a refusal into a `DecodeError` at the
    /// fragment's payload.
    func addFragment(
        _ fragment: UnsafeRawBufferPointer, at fragmentOffset: Int, isLast: Bool, key: FragmentKey, firstHeader: IPProtocol?,
        payloadOffset: Int, layer: DecodeError.Layer, info: PacketInfo
    ) throws(DecodeError) -> FragmentReassembler.Outcome {
        do throws(FragmentReassembler.Rejection) {
            return try reassembler.add(
                fragment, at: fragmentOffset, isLast: isLast, key: key, firstHeader: firstHeader, time: info.timestamp,
                statistics: &statistics)
        } catch {
            switch error {
            case .conflict(.differentBytes(let datagramOffset)):
                throw DecodeError(
                    .malformed, layer: layer, offset: payloadOffset + datagramOffset - fragmentOffset,
                    expected: "overlapping fragments to agree, but byte \(datagramOffset) of the datagram differs (datagram discarded)")
            case .conflict(.differentEnd(let known, let claimed)):
                throw DecodeError(
                    .malformed, layer: layer, offset: payloadOffset,
                    expected: "one end for the datagram, but fragments end it at byte \(known) and at byte \(claimed) (datagram discarded)")
            case .conflict(.bytesBeyondEnd(let end)):
                throw DecodeError(
                    .malformed, layer: layer, offset: payloadOffset,
                    expected: "fragments within the datagram's \(end) bytes, but bytes lie beyond its last fragment (datagram discarded)")
            case .tooManyFragments(let limit):
                throw DecodeError(
                    .limitExceeded, layer: layer, offset: payloadOffset,
                    expected: "at most \(limit) fragments for one datagram (datagram dropped)", limit: .ipFragmentsPerDatagram)
            case .tooManyBytes(let limit):
                throw DecodeError(
                    .limitExceeded, layer: layer, offset: payloadOffset,
                    expected: "fragments to reassemble within \(limit) buffered bytes (datagram dropped)", limit: .ipFragmentBytes)
            }
        }
    }
}
