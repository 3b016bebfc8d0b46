import Packets
import WireParsing

/// What a decode produced, copied out of the frame so that tests can compare it after the
/// frame's bytes are gone.
enum DecodeSummary: Equatable {
    case tcp(source: String, destination: String, sequence: UInt32, acknowledgment: UInt32, flags: TCPFlags, window: UInt16, payload: [UInt8], missing: Int)
    case udp(source: String, destination: String, payload: [UInt8], missing: Int)
    case notIP(LinkProtocol)
    case other(source: String, destination: String, IPProtocol)
    case fragmentBuffered

    init(_ decoded: DecodedPacket) {
        switch decoded {
        case .tcp(let segment):
            self = .tcp(
                source: segment.source.description, destination: segment.destination.description,
                sequence: segment.sequenceNumber, acknowledgment: segment.acknowledgmentNumber, flags: segment.flags,
                window: segment.window, payload: Array(segment.payload), missing: segment.missingPayloadCount)
        case .udp(let datagram):
            self = .udp(
                source: datagram.source.description, destination: datagram.destination.description,
                payload: Array(datagram.payload), missing: datagram.missingPayloadCount)
        case .notIP(let linkProtocol):
            self = .notIP(linkProtocol)
        case .otherIPProtocol(let packet):
            self = .other(source: packet.source.description, destination: packet.destination.description, packet.ipProtocol)
        case .fragmentBuffered:
            self = .fragmentBuffered
        }
    }

    /// The payload of a TCP or UDP result.
    var payload: [UInt8]? {
        switch self {
        case .tcp(_, _, _, _, _, _, let payload, _), .udp(_, _, let payload, _): payload
        default: nil
        }
    }

    var missing: Int? {
        switch self {
        case .tcp(_, _, _, _, _, _, _, let missing), .udp(_, _, _, let missing): missing
        default: nil
        }
    }

    /// The HAP request fixture as the decoder should report it.
    static let hapRequest = DecodeSummary.tcp(
        source: "127.0.0.1:50070", destination: "127.0.0.1:51826", sequence: 0x916C_606F, acknowledgment: 0xE8D9_BD66,
        flags: [.psh, .ack], window: 64, payload: Fixtures.hapRequestPayload, missing: 0)
}

extension PacketDecoder {
    /// Decodes `frame` as captured with `capturedLength` of its `originalLength` bytes (both
    /// default to the whole frame) at `seconds` after the epoch.
    func summary(
        of frame: [UInt8], linkType: LinkType, capturedLength: Int? = nil, originalLength: Int? = nil,
        seconds: Int64 = 1_700_000_000, number: Int = 1
    ) throws(DecodeError) -> DecodeSummary {
        let captured = Array(frame.prefix(capturedLength ?? frame.count))
        let info = PacketInfo(
            number: number, timestamp: Timestamp(seconds: seconds, nanoseconds: 0), capturedLength: captured.count,
            originalLength: originalLength ?? frame.count)
        let result = captured.withUnsafeBytes { bytes in
            Result { () throws(DecodeError) in DecodeSummary(try decode(linkType: linkType, packet: bytes, info: info)) }
        }
        return try result.get()
    }

    /// The error decoding `frame` throws, or nil when it decodes.
    func error(
        decoding frame: [UInt8], linkType: LinkType, capturedLength: Int? = nil, originalLength: Int? = nil,
        seconds: Int64 = 1_700_000_000
    ) -> DecodeError? {
        do {
            _ = try summary(of: frame, linkType: linkType, capturedLength: capturedLength, originalLength: originalLength, seconds: seconds)
            return nil
        } catch {
            return error
        }
    }
}
