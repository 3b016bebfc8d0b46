/// One TCP connection of the generated capture, from handshake to FIN: it keeps both
/// sequence numbers and cuts what each side sends into segments of at most one MSS.
struct GeneratedTCPConnection {
    enum Side {
        case client
        case server
    }

    let client: GeneratedEndpoint
    let server: GeneratedEndpoint
    private var clientSequence: UInt32
    private var serverSequence: UInt32

    init(client: GeneratedEndpoint, server: GeneratedEndpoint, random: inout SeededRandom) {
        self.client = client
        self.server = server
        clientSequence = UInt32(truncatingIfNeeded: random.next())
        serverSequence = UInt32(truncatingIfNeeded: random.next())
    }

    /// SYN, SYN-ACK, ACK (RFC 9293 §3.5).
    mutating func open(_ writer: FrameWriter) {
        controlExchange(client: .syn, server: [.syn, .ack], pause: 150, writer)
    }

    /// Sends `bytes` from `side`, one segment per MSS, the receiver acknowledging every
    /// second full segment as delayed ACKs do.
    mutating func send(_ bytes: [UInt8], from side: Side, _ writer: FrameWriter) {
        bytes.withUnsafeBytes { send($0, from: side, writer) }
    }

    mutating func send(_ bytes: UnsafeRawBufferPointer, from side: Side, _ writer: FrameWriter) {
        var offset = 0
        var segmentsSinceAcknowledgement = 0
        while offset < bytes.count {
            let end = min(offset + FrameWriter.maximumSegmentSize, bytes.count)
            let isLast = end == bytes.count
            segment(side, flags: isLast ? [.ack, .psh] : .ack, payload: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), writer)
            offset = end
            writer.advance(microseconds: 40)
            segmentsSinceAcknowledgement += 1
            if segmentsSinceAcknowledgement == 2, !isLast {
                segment(side == .client ? .server : .client, flags: .ack, writer)
                segmentsSinceAcknowledgement = 0
            }
        }
    }

    /// Sends raw segment payload at an explicit offset from the side's next sequence number,
    /// without moving it: the adversarial generator's out-of-order data.
    func sendAhead(_ bytes: [UInt8], from side: Side, skipping distance: UInt32, _ writer: FrameWriter) {
        let (source, destination, sequence, acknowledgement) = addressing(side)
        bytes.withUnsafeBytes {
            writer.writeTCP(from: source, to: destination, sequence: sequence &+ distance, acknowledgement: acknowledgement,
                            flags: .ack, payload: $0)
        }
    }

    /// The client's FIN, the server's FIN-ACK, the client's last ACK.
    mutating func close(_ writer: FrameWriter) {
        controlExchange(client: [.fin, .ack], server: [.fin, .ack], pause: 120, writer)
    }

    /// The client's segment with `client` flags, the server's with `server`, each taking one
    /// sequence number (SYN and FIN do, RFC 9293 §3.4), then the client's ACK, `pause` µs apart.
    private mutating func controlExchange(client: TCPFlags, server: TCPFlags, pause: Int, _ writer: FrameWriter) {
        segment(.client, flags: client, writer)
        clientSequence &+= 1
        writer.advance(microseconds: pause)
        segment(.server, flags: server, writer)
        serverSequence &+= 1
        writer.advance(microseconds: pause)
        segment(.client, flags: .ack, writer)
    }

    private mutating func segment(_ side: Side, flags: TCPFlags, payload: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0), _ writer: FrameWriter) {
        let (source, destination, sequence, acknowledgement) = addressing(side)
        writer.writeTCP(from: source, to: destination, sequence: sequence, acknowledgement: acknowledgement, flags: flags, payload: payload)
        switch side {
        case .client: clientSequence &+= UInt32(payload.count)
        case .server: serverSequence &+= UInt32(payload.count)
        }
    }

    private func addressing(_ side: Side) -> (GeneratedEndpoint, GeneratedEndpoint, UInt32, UInt32) {
        switch side {
        case .client: (client, server, clientSequence, serverSequence)
        case .server: (server, client, serverSequence, clientSequence)
        }
    }
}
