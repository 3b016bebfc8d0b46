import Capture
import HAPCrypto
import Packets
import WireParsing

/// Writes a deterministic HAP capture and its key log: many interleaved TCP connections of
/// pair-verified encrypted sessions (`/accessories`, reads, writes, EVENTs), some plaintext
/// pair-setups, and mDNS announcements and browse queries. The same seed and size give the
/// same bytes.
struct CaptureGenerator {
    struct Configuration {
        /// The capture stops growing once its file reaches this size.
        var targetByteCount: Int
        var seed: UInt64 = 0x4841_5053_434F_5045
        var accessoryCount = 48
        var controllerCount = 4
        /// Connections open at the same time.
        var concurrentSessions = 24
        /// Encrypted exchanges per session, drawn uniformly from this range.
        var exchangesPerSession = 150...450
        /// One session in this many is a plaintext pair-setup.
        var pairSetupEvery = 25
    }

    struct Summary: Codable {
        var captureBytes = 0
        var packets = 0
        var connections = 0
        var encryptedSessions = 0
        var pairSetups = 0
        var mdnsMessages = 0
    }

    /// The key log's path for a capture: its name with `.keylog` in place of the extension.
    static func keyLogPath(forCapture path: String) -> String {
        for suffix in [".pcap", ".pcapng"] where path.hasSuffix(suffix) {
            return String(path.dropLast(suffix.count)) + ".keylog"
        }
        return path + ".keylog"
    }

    static let startTime = Timestamp(seconds: 1_735_689_600, nanoseconds: 0)
    /// Every accessory listens on HAP's customary port, each on its own address, so that
    /// `tshark -d tcp.port==51826,http` decodes all of them.
    static let accessoryPort: UInt16 = 51_826

    let configuration: Configuration

    func generate(to path: String) throws -> Summary {
        var random = SeededRandom(seed: configuration.seed)
        let writer = try FrameWriter(file: path, start: Self.startTime)
        var keyLog = KeyLogText()
        var summary = Summary()

        var accessories: [GeneratedAccessory] = []
        for index in 0..<configuration.accessoryCount {
            let endpoint = GeneratedEndpoint(address: 0x0A00_0100 + UInt32(index + 10), port: Self.accessoryPort)
            let accessory = try GeneratedAccessory(index: index, endpoint: endpoint, random: &random)
            accessories.append(accessory)
            keyLog.add("ACCESSORY_LTPK", accessory.deviceID, Hex.encode(accessory.longTermKey.publicKey.bytes))
        }
        var controllers: [GeneratedController] = []
        for index in 0..<configuration.controllerCount {
            let controller = try GeneratedController(address: 0x0A00_0000 + UInt32(index + 2), random: &random)
            controllers.append(controller)
            keyLog.add("CONTROLLER_LTPK", controller.pairingID, Hex.encode(controller.longTermKey.publicKey.bytes))
        }
        var nextPorts = [UInt16](repeating: 49_152, count: controllers.count)

        func announce(_ accessory: GeneratedAccessory) {
            writer.writeUDP(from: GeneratedEndpoint(address: accessory.endpoint.address, port: MDNSMessageText.port),
                            to: GeneratedEndpoint(address: MDNSMessageText.groupAddress, port: MDNSMessageText.port),
                            payload: MDNSMessageText.announcement(of: accessory))
            summary.mdnsMessages += 1
        }
        for accessory in accessories {
            announce(accessory)
            writer.advance(microseconds: 500)
        }

        var active: [GeneratedSession] = []
        var steps = 0
        while writer.bytesWritten < configuration.targetByteCount || !active.isEmpty {
            let reachedTarget = writer.bytesWritten >= configuration.targetByteCount
            if !reachedTarget, active.count < configuration.concurrentSessions {
                let controllerIndex = random.int(in: 0...(controllers.count - 1))
                let port = nextPorts[controllerIndex]
                nextPorts[controllerIndex] = port == UInt16.max ? 49_152 : port + 1
                let isPairSetup = summary.connections % configuration.pairSetupEvery == configuration.pairSetupEvery - 1
                let kind: GeneratedSession.Kind = isPairSetup
                    ? .pairSetup : .encrypted(exchanges: random.int(in: configuration.exchangesPerSession))
                active.append(GeneratedSession(
                    kind: kind, accessory: accessories[random.int(in: 0...(accessories.count - 1))],
                    controller: controllers[controllerIndex], clientPort: port, random: &random))
                summary.connections += 1
                if isPairSetup { summary.pairSetups += 1 } else { summary.encryptedSessions += 1 }
                continue
            }
            let index = random.int(in: 0...(active.count - 1))
            if reachedTarget { active[index].wrapUp() }
            try active[index].advance(writer, keyLog: &keyLog, random: &random)
            if active[index].isFinished { active.swapAt(index, active.count - 1); active.removeLast() }
            steps += 1
            // Accessories re-announce now and then, and controllers browse (RFC 6762 §8.3, §5.2).
            if steps % 400 == 0 { announce(accessories[random.int(in: 0...(accessories.count - 1))]) }
            if steps % 1_000 == 0 {
                writer.writeUDP(from: GeneratedEndpoint(address: controllers[0].address, port: MDNSMessageText.port),
                                to: GeneratedEndpoint(address: MDNSMessageText.groupAddress, port: MDNSMessageText.port),
                                payload: MDNSMessageText.browseQuery)
                summary.mdnsMessages += 1
            }
        }
        try writer.close()
        try writeText(keyLog.text, to: Self.keyLogPath(forCapture: path))
        summary.captureBytes = writer.bytesWritten + 24
        summary.packets = writer.framesWritten
        return summary
    }
}
