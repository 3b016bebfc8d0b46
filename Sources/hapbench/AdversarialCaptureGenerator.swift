import Capture

/// Writes a capture built to make an analyzer hold memory: a flood of connections that each
/// leave a request head unfinished, connections whose message never ends (an endless chunked
/// body, an endless header block), and connections that send data beyond a hole that never
/// fills. Every byte is plaintext HAP-looking HTTP, so the analyzer treats each connection as
/// HAP and buffers what a real analyzer would.
struct AdversarialCaptureGenerator {
    struct Configuration {
        var targetByteCount: Int
        var seed: UInt64 = 0x4144_5645_5253_4152
        /// Connections that keep sending an endless chunked body.
        var endlessBodyConnections = 48
        /// Connections that keep sending header lines without ending the header block.
        var endlessHeaderConnections = 48
        /// Connections that keep sending data beyond a one-byte hole.
        var outOfOrderConnections = 48
        /// A new never-finished connection is opened every this many segments.
        var floodEvery = 4
    }

    struct Summary: Codable {
        var captureBytes = 0
        var packets = 0
        var connections = 0
    }

    private enum Behaviour {
        case endlessBody, endlessHeaders, outOfOrder
    }

    private struct Stream {
        var connection: GeneratedTCPConnection
        let behaviour: Behaviour
        /// Bytes sent ahead of the hole, for out-of-order streams.
        var aheadOffset: UInt32 = 1
    }

    let configuration: Configuration

    func generate(to path: String) throws -> Summary {
        var random = SeededRandom(seed: configuration.seed)
        let writer = try FrameWriter(file: path, start: CaptureGenerator.startTime)
        let accessory = GeneratedEndpoint(address: 0x0A00_0101, port: 51_826)
        var summary = Summary()
        var nextClient: UInt32 = 0
        func newConnection() -> GeneratedTCPConnection {
            // Clients spread over 10.1.0.0/16 and all ephemeral ports: every connection is new.
            let client = GeneratedEndpoint(address: 0x0A01_0000 + (nextClient / 16_000), port: UInt16(49_152 + nextClient % 16_000))
            nextClient += 1
            var connection = GeneratedTCPConnection(client: client, server: accessory, random: &random)
            connection.open(writer)
            summary.connections += 1
            return connection
        }

        var streams: [Stream] = []
        let behaviours = Array(repeating: Behaviour.endlessBody, count: configuration.endlessBodyConnections)
            + Array(repeating: .endlessHeaders, count: configuration.endlessHeaderConnections)
            + Array(repeating: .outOfOrder, count: configuration.outOfOrderConnections)
        for behaviour in behaviours {
            var connection = newConnection()
            let head = switch behaviour {
            case .endlessBody: "POST /pair-setup HTTP/1.1\r\nHost: victim\r\nTransfer-Encoding: chunked\r\n\r\n"
            case .endlessHeaders, .outOfOrder: "GET /accessories HTTP/1.1\r\nHost: victim\r\n"
            }
            connection.send(Array(head.utf8), from: .client, writer)
            streams.append(Stream(connection: connection, behaviour: behaviour))
        }

        let chunk = Array("400\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 0x400) + [0x0D, 0x0A]
        let headerLines = Array(String(repeating: "X-Filler: " + String(repeating: "b", count: 80) + "\r\n", count: 15).utf8)
        let filler = [UInt8](repeating: UInt8(ascii: "c"), count: FrameWriter.maximumSegmentSize)
        var segments = 0
        while writer.bytesWritten < configuration.targetByteCount {
            segments += 1
            if segments % configuration.floodEvery == 0 {
                var connection = newConnection()
                connection.send(Array("GET /accessories HTTP/1.1\r\nHost: victim\r\n".utf8), from: .client, writer)
                continue
            }
            let index = random.int(in: 0...(streams.count - 1))
            switch streams[index].behaviour {
            case .endlessBody:
                streams[index].connection.send(chunk, from: .client, writer)
            case .endlessHeaders:
                streams[index].connection.send(headerLines, from: .client, writer)
            case .outOfOrder:
                streams[index].connection.sendAhead(filler, from: .client, skipping: streams[index].aheadOffset, writer)
                streams[index].aheadOffset &+= UInt32(filler.count)
            }
            writer.advance(microseconds: 50)
        }
        try writer.close()
        summary.captureBytes = writer.bytesWritten + 24
        summary.packets = writer.framesWritten
        return summary
    }
}
