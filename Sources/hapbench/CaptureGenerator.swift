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
        /// The first sessions, already running when the capture starts (`home`).
        var sessionsRunningAtStart = 0
        /// Frames each direction of a running session sent before the capture.
        var priorFrames = 0...0
        /// Exchanges of a session already running, drawn uniformly from this range.
        var exchangesPerRunningSession = 0...0
        /// The pause after each exchange, in microseconds.
        var pause = 200...3_000

        /// A home hub's day: one long session per accessory, pair-verified days before the
        /// capture started (frame counters in the tens of thousands, named in the key log by
        /// SESSION_ENDPOINTS, no `/accessories` in the capture), events every few seconds,
        /// and a phone's short sessions that pair-verify and fetch `/accessories`. 30 MB span
        /// about a day.
        static func home(targetByteCount: Int) -> Configuration {
            var configuration = Configuration(targetByteCount: targetByteCount)
            configuration.accessoryCount = 30
            configuration.controllerCount = 2
            configuration.concurrentSessions = 32
            configuration.sessionsRunningAtStart = 30
            configuration.priorFrames = 10_000...60_000
            configuration.exchangesPerRunningSession = 1_000_000...2_000_000
            configuration.exchangesPerSession = 20...200
            configuration.pairSetupEvery = .max
            configuration.pause = 110_000...1_800_000
            return configuration
        }
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
                let runningAtStart = summary.connections < configuration.sessionsRunningAtStart
                // The hub (the first controller) holds the sessions already running.
                let controllerIndex = runningAtStart ? 0 : random.int(in: 0...(controllers.count - 1))
                let port = nextPorts[controllerIndex]
                nextPorts[controllerIndex] = port == UInt16.max ? 49_152 : port + 1
                let isPairSetup = summary.connections % configuration.pairSetupEvery == configuration.pairSetupEvery - 1
                let kind: GeneratedSession.Kind = if runningAtStart {
                    .alreadyRunning(exchanges: random.int(in: configuration.exchangesPerRunningSession), priorFrames: configuration.priorFrames)
                } else if isPairSetup {
                    .pairSetup
                } else {
                    .encrypted(exchanges: random.int(in: configuration.exchangesPerSession))
                }
                let accessory = runningAtStart ? accessories[summary.connections % accessories.count]
                    : accessories[random.int(in: 0...(accessories.count - 1))]
                active.append(try GeneratedSession(
                    kind: kind, accessory: accessory, controller: controllers[controllerIndex], clientPort: port,
                    pause: configuration.pause, keyLog: &keyLog, random: &random))
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
