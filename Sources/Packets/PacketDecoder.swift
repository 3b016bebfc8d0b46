import WireParsing

/// Decodes captured frames into TCP segments and UDP datagrams: the link layer, IPv4 and IPv6
/// (with extension headers and fragment reassembly), then TCP or UDP.
///
/// One decoder follows one packet sequence (fragments of a datagram are joined across calls),
/// from one thread at a time. The common path (a whole packet, not a fragment) allocates
/// nothing: results point into the frame.
///
/// Errors are `DecodeError`s in the layers `link`, `ipv4`, `ipv6`, `udp` and `tcp`, with
/// offsets counted from the first byte of the frame. `truncated` means the capture holds less
/// than the packet had (the snap length cut it); `malformed` means the packet contradicts
/// itself: a header length below the minimum, a total length smaller than the header, a
/// length that reaches past a packet that was captured whole. Checksums are not required to
/// be right, since captures on a sending host carry unfinished ones (offload); when
/// `Configuration.verifiesChecksums` is set, wrong ones are counted in `statistics`.
public final class PacketDecoder {
    public struct Configuration: Hashable, Sendable {
        /// Stacked 802.1Q / 802.1ad tags accepted in one frame.
        public var maximumVLANTags: Int
        /// IPv6 extension headers accepted in one packet, fragment header included.
        public var maximumIPv6ExtensionHeaders: Int
        public var fragmentReassembly: FragmentReassemblyLimits
        /// Whether to check IPv4 header, TCP and UDP checksums and count wrong ones.
        public var verifiesChecksums: Bool

        public init(
            maximumVLANTags: Int = 8, maximumIPv6ExtensionHeaders: Int = 16,
            fragmentReassembly: FragmentReassemblyLimits = FragmentReassemblyLimits(), verifiesChecksums: Bool = false
        ) {
            self.maximumVLANTags = maximumVLANTags
            self.maximumIPv6ExtensionHeaders = maximumIPv6ExtensionHeaders
            self.fragmentReassembly = fragmentReassembly
            self.verifiesChecksums = verifiesChecksums
        }
    }

    public let configuration: Configuration
    public internal(set) var statistics = PacketDecoderStatistics()
    var reassembler: FragmentReassembler
    /// The datagram the last call completed from fragments: its result points into it.
    var deliveredDatagram: ReassemblyBuffer?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        reassembler = FragmentReassembler(limits: configuration.fragmentReassembly)
    }

    /// Datagrams waiting for more fragments.
    public var pendingDatagramCount: Int { reassembler.pendingCount }

    /// Decodes one frame of `linkType`.
    ///
    /// - Parameters:
    ///   - packet: the captured bytes of the frame, link-layer header first.
    ///   - info: where the frame sits in the capture; its `originalLength` tells a frame cut by
    ///     the snap length from one captured whole, and its timestamp times out fragments.
    /// - Returns: the segment or datagram, or what else the frame held. Payload pointers are
    ///   valid until the next call on this decoder, and no longer than `packet`.
    /// - Throws: `DecodeError`; a link type `LinkType.isDecodable` rejects throws
    ///   `unsupported` in the `link` layer.
    public func decode(linkType: LinkType, packet: UnsafeRawBufferPointer, info: PacketInfo) throws(DecodeError) -> DecodedPacket {
        if deliveredDatagram != nil { deliveredDatagram = nil }
        do {
            let span = unsafe RawSpan(_unsafeBytes: packet)
            var cursor = ByteCursor(span, layer: .link)
            let link = try LinkHeader(parsing: &cursor, linkType: linkType, maximumVLANTags: configuration.maximumVLANTags)
            return try decodeNetwork(link.payload, packet: packet, at: cursor.offset, info: info)
        } catch where error.code == .truncated && info.originalLength <= packet.count {
            // Bytes ran out although the frame was captured whole: the frame itself is short.
            var error = error
            error.code = .malformed
            error.expected += ", but the \(packet.count)-byte packet was captured whole and ends first"
            throw error
        }
    }

    /// Drops the datagrams still waiting for fragments, counting them as expired. Call it when
    /// the input ends, so that `statistics` accounts for every fragment.
    public func finish() {
        reassembler.finish(statistics: &statistics)
    }

    private func decodeNetwork(
        _ payload: LinkPayload, packet: UnsafeRawBufferPointer, at start: Int, info: PacketInfo
    ) throws(DecodeError) -> DecodedPacket {
        switch payload {
        case .ipv4:
            return try decodeIPv4(packet: packet, at: start, info: info)
        case .ipv6:
            return try decodeIPv6(packet: packet, at: start, info: info)
        case .ipOfEitherVersion:
            guard start < packet.count else {
                throw DecodeError(.truncated, layer: .link, offset: start, expected: "an IP header")
            }
            switch packet[start] >> 4 {
            case 4: return try decodeIPv4(packet: packet, at: start, info: info)
            case 6: return try decodeIPv6(packet: packet, at: start, info: info)
            case let version:
                throw DecodeError(.malformed, layer: .link, offset: start, expected: "IP version 4 or 6 in a raw IP frame, found \(version)")
            }
        case .other(let linkProtocol):
            return .notIP(linkProtocol)
        }
    }
}

extension DecodeError {
    /// Moves an error found inside a datagram reassembled from fragments to `offset`, the
    /// payload of the fragment that completed it, keeping the position in the datagram in words.
    func inReassembledDatagram(fragmentPayloadOffset offset: Int) -> DecodeError {
        var moved = self
        moved.expected += " (at byte \(self.offset) of the datagram reassembled from fragments)"
        moved.offset = offset
        return moved
    }
}
