import WireParsing

extension PacketDecoder {
    /// The largest IPv6 payload without jumbograms, which is also the limit on a reassembled
    /// fragmentable part (RFC 8200 §4.5).
    static let maximumIPv6PayloadLength = 65_535

    func decodeIPv6(packet: UnsafeRawBufferPointer, at start: Int, info: PacketInfo) throws(DecodeError) -> DecodedPacket {
        let span = unsafe RawSpan(_unsafeBytes: packet)
        var cursor = ByteCursor(span.extracting(start ..< packet.count), layer: .ipv6, baseOffset: start)
        let header = try IPv6Header(parsing: &cursor)
        if header.payloadLength == 0 && header.nextHeader == .hopByHopOptions {
            throw DecodeError(
                .unsupported, layer: .ipv6, offset: start + 4,
                expected: "a non-zero payload length: jumbograms (RFC 2675) are not supported")
        }
        let payloadStart = start + IPv6Header.length
        let capturedPayloadLength = min(header.payloadLength, packet.count - payloadStart)
        if capturedPayloadLength < header.payloadLength && info.originalLength <= packet.count {
            throw DecodeError(
                .malformed, layer: .ipv6, offset: start + 4,
                expected: "an IPv6 payload length within the \(packet.count - payloadStart) bytes after the header, found \(header.payloadLength)")
        }
        return try decodeIPv6Payload(
            UnsafeRawBufferPointer(rebasing: packet[payloadStart ..< payloadStart + capturedPayloadLength]),
            declaredLength: header.payloadLength, payloadOffset: payloadStart, firstHeader: header.nextHeader,
            source: header.source, destination: header.destination, info: info, isReassembled: false,
            followsRoutingHeader: false)
    }

    /// Walks the extension headers of an IPv6 payload (or of a fragmentable part reassembled
    /// from fragments) and decodes what follows them.
    ///
    /// RFC 8200 §4: headers skipped by their length are walked; a fragment header sends the
    /// rest to reassembly; ESP, No Next Header and upper layers end the walk.
    /// `followsRoutingHeader` carries a routing header seen before a fragment header into the
    /// walk of the reassembled payload.
    private func decodeIPv6Payload(
        _ payload: UnsafeRawBufferPointer, declaredLength: Int, payloadOffset: Int, firstHeader: IPProtocol,
        source: IPAddress, destination: IPAddress, info: PacketInfo, isReassembled: Bool, followsRoutingHeader: Bool
    ) throws(DecodeError) -> DecodedPacket {
        let span = unsafe RawSpan(_unsafeBytes: payload)
        var cursor = ByteCursor(span, layer: .ipv6, baseOffset: payloadOffset)
        var nextHeader = firstHeader
        var headerCount = 0
        var hasRoutingHeader = followsRoutingHeader
        while IPv6ExtensionHeader.isSkippable(nextHeader) || nextHeader == .ipv6Fragment {
            guard headerCount < configuration.maximumIPv6ExtensionHeaders else {
                throw cursor.limitExceeded("at most \(configuration.maximumIPv6ExtensionHeaders) IPv6 extension headers")
            }
            headerCount += 1
            // RFC 8200 §4.1: hop-by-hop options, when present, come first.
            if nextHeader == .hopByHopOptions && (headerCount > 1 || isReassembled) {
                throw cursor.malformed("hop-by-hop options only right after the IPv6 header")
            }
            guard nextHeader == .ipv6Fragment else {
                hasRoutingHeader = hasRoutingHeader || nextHeader == .ipv6Routing
                let header = try IPv6ExtensionHeader(
                    parsing: &cursor, kind: nextHeader, payloadRemaining: declaredLength - cursor.position)
                nextHeader = header.nextHeader
                continue
            }

            let fragmentHeaderPosition = cursor.position
            let fragment = try IPv6FragmentHeader(parsing: &cursor, payloadRemaining: declaredLength - cursor.position)
            // RFC 6946: an atomic fragment is a whole packet.
            if fragment.isAtomic {
                nextHeader = fragment.nextHeader
                continue
            }
            guard !isReassembled else {
                throw cursor.malformed("no second fragment header inside a reassembled datagram", at: fragmentHeaderPosition)
            }
            let fragmentStart = cursor.position
            let fragmentLength = declaredLength - fragmentStart
            guard payload.count == declaredLength else {
                throw DecodeError(
                    .truncated, layer: .ipv6, offset: payloadOffset + payload.count,
                    expected: "the whole payload of a fragment to reassemble (\(fragmentLength) bytes, \(payload.count - fragmentStart) captured)")
            }
            // RFC 8200 §4.5: both rules make the receiver discard the fragment.
            guard !fragment.moreFragments || fragmentLength % 8 == 0 else {
                throw cursor.malformed(
                    "a fragment of a multiple of 8 bytes when more fragments follow, found \(fragmentLength)",
                    at: fragmentHeaderPosition)
            }
            guard fragment.fragmentOffset + fragmentLength <= Self.maximumIPv6PayloadLength else {
                throw cursor.malformed(
                    "a fragment that ends within 65,535 bytes, ending at \(fragment.fragmentOffset + fragmentLength)",
                    at: fragmentHeaderPosition + 2)
            }
            let key = FragmentKey(source: source, destination: destination, identification: fragment.identification, ipv4Protocol: 0)
            let outcome = try addFragment(
                UnsafeRawBufferPointer(rebasing: payload[fragmentStart ..< declaredLength]), at: fragment.fragmentOffset,
                isLast: !fragment.moreFragments, key: key, firstHeader: fragment.nextHeader,
                payloadOffset: payloadOffset + fragmentStart, layer: .ipv6, info: info)
            guard case .completed(let buffer, let length, let reassembledFirstHeader) = outcome else { return .fragmentBuffered }
            deliveredDatagram = buffer
            do {
                return try decodeIPv6Payload(
                    buffer.bytes(0 ..< length), declaredLength: length, payloadOffset: 0, firstHeader: reassembledFirstHeader,
                    source: source, destination: destination, info: info, isReassembled: true,
                    followsRoutingHeader: hasRoutingHeader)
            } catch {
                throw error.inReassembledDatagram(fragmentPayloadOffset: payloadOffset + fragmentStart)
            }
        }

        let transportStart = cursor.position
        return try decodeTransport(
            nextHeader, source: source, destination: destination,
            payload: UnsafeRawBufferPointer(rebasing: payload[transportStart...]),
            declaredLength: declaredLength - transportStart, payloadOffset: payloadOffset + transportStart, info: info,
            checksumDestinationKnown: !hasRoutingHeader, networkHeaderOffset: isReassembled ? nil : payloadOffset - IPv6Header.length)
    }
}
