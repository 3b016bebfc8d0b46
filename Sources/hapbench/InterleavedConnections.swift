/// What a transport's generator wrote, counted by kind and added up over its connections.
struct GeneratedCounts<Kind: Hashable & CaseIterable & RawRepresentable<String>>: CustomStringConvertible {
    private var values: [Kind: Int] = [:]

    subscript(kind: Kind) -> Int {
        get { values[kind, default: 0] }
        set { values[kind] = newValue }
    }

    mutating func add(_ other: Self) {
        values.merge(other.values, uniquingKeysWith: +)
    }

    /// `12 ATT PDUs, 4 HAP PDUs, …`, in the order the kinds are declared.
    var description: String {
        Kind.allCases.map { "\(self[$0]) \($0.rawValue)" }.joined(separator: ", ")
    }
}

/// One connection of a generated capture, played a step at a time.
protocol GeneratedConnection {
    associatedtype Counted: Hashable & CaseIterable & RawRepresentable<String>
    var isFinished: Bool { get }
    var counts: GeneratedCounts<Counted> { get }
    /// Plays the next step; with `stopping`, the connection ends at this step or the next.
    mutating func advance(_ writer: FrameWriter, stopping: Bool, keyLog: inout KeyLogText, random: inout SeededRandom) throws
}

/// A generated capture of one transport's connections and what they hold.
struct GeneratedCaptureSummary<Counted: Hashable & CaseIterable & RawRepresentable<String>>: CustomStringConvertible {
    var captureBytes = 0
    var packets = 0
    var connections = 0
    var counts = GeneratedCounts<Counted>()

    var description: String { "\(captureBytes) bytes, \(packets) packets, \(connections) connections: \(counts)" }
}

/// What a generated capture of HAP-BLE or HAP-over-CoAP connections holds; each generator
/// starts from defaults of its own.
struct ConnectionMix {
    /// The capture stops growing once its file reaches this size.
    var targetByteCount: Int
    var seed: UInt64
    var accessoryCount: Int
    /// Zones (a lightbulb and a temperature sensor each) per accessory, drawn uniformly.
    var zonesPerAccessory: ClosedRange<Int>
    /// Connections open at the same time.
    var concurrentConnections: Int
    /// Exchanges per connection once it is set up, drawn uniformly.
    var exchangesPerConnection: ClosedRange<Int>
    /// The pause after each step, in microseconds.
    var pause: ClosedRange<Int>
}

/// Plays many connections into one capture as a busy network interleaves them: while the file
/// is below its target and fewer than `concurrentConnections` are open, another opens; otherwise a random
/// open one takes its next step. Once the target is reached every connection ends at its next
/// steps; then the capture and its key log (beside it) are written out.
struct InterleavedConnections {
    let mix: ConnectionMix

    func play<Connection: GeneratedConnection>(
        into writer: FrameWriter, capture path: String, keyLog: inout KeyLogText, random: inout SeededRandom,
        open: (inout KeyLogText, inout SeededRandom) throws -> Connection, closed: (Connection) -> Void = { _ in }
    ) throws -> GeneratedCaptureSummary<Connection.Counted> {
        var summary = GeneratedCaptureSummary<Connection.Counted>()
        var active: [Connection] = []
        while writer.bytesWritten < mix.targetByteCount || !active.isEmpty {
            let reachedTarget = writer.bytesWritten >= mix.targetByteCount
            if !reachedTarget, active.count < mix.concurrentConnections {
                active.append(try open(&keyLog, &random))
                summary.connections += 1
                continue
            }
            let index = random.int(in: 0...(active.count - 1))
            try active[index].advance(writer, stopping: reachedTarget, keyLog: &keyLog, random: &random)
            if active[index].isFinished {
                summary.counts.add(active[index].counts)
                closed(active[index])
                active.swapAt(index, active.count - 1)
                active.removeLast()
            }
        }
        try writer.close()
        try writeText(keyLog.text, to: CaptureGenerator.keyLogPath(forCapture: path))
        summary.captureBytes = writer.bytesWritten + 24
        summary.packets = writer.framesWritten
        return summary
    }
}
