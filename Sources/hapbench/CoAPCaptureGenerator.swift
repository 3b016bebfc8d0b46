/// Writes a deterministic HAP-over-CoAP capture and its key log: many interleaved sessions of
/// controllers with Thread accessories on UDP port 5683 (as a border router forwards them to the
/// LAN, here over IPv4), each pair-verified before the capture started and opened by the key
/// log alone. The same seed and size give the same bytes.
struct CoAPCaptureGenerator {
    /// Zones per accessory go up to 49: 99 services, within the 100 HAP-NodeJS accepts (the audit's
    /// `database/too-many-services`), and the first count at which a scene write (On and
    /// Brightness of every zone, 1,143 sealed bytes) travels in Block1 blocks. Sessions are long
    /// (about 170 kB each) because a CoAP session never closes: the analysis holds every one
    /// until the capture ends, and beyond `coap.sessions` (256, about 40 MB of this capture) it
    /// closes the longest silent and reports that the limit was reached.
    init(targetByteCount: Int) {
        configuration = ConnectionMix(
            targetByteCount: targetByteCount, seed: 0x4841_5043_4F41_5030, accessoryCount: 24, zonesPerAccessory: 1...49,
            concurrentConnections: 16, exchangesPerConnection: 400...1_200, pause: 1_000...20_000)
    }

    var configuration: ConnectionMix
    var controllerCount = 3

    typealias Summary = GeneratedCaptureSummary<GeneratedCoAPSession.Counted>

    /// RFC 7252 §6.1: the CoAP port, which Nanoleaf Essentials use (docs/coap.md "Discovery").
    static let accessoryPort: UInt16 = 5683

    func generate(to path: String) throws -> Summary {
        var random = SeededRandom(seed: configuration.seed)
        let writer = try FrameWriter(file: path, start: CaptureGenerator.startTime)
        var keyLog = KeyLogText()
        let accessories = (0..<configuration.accessoryCount).map { index in
            (endpoint: GeneratedEndpoint(address: 0x0A00_0200 + UInt32(index + 10), port: Self.accessoryPort),
             // The first is the largest, so that every capture holds Block1 scene writes.
             device: GeneratedPDUAccessory(zoneCount: index == 0 ? configuration.zonesPerAccessory.upperBound : random.int(in: configuration.zonesPerAccessory)))
        }
        let controllerAddresses = (0..<controllerCount).map { 0x0A00_0000 + UInt32($0 + 2) }
        var nextPorts = [UInt16](repeating: 49_152, count: controllerAddresses.count)
        return try InterleavedConnections(mix: configuration).play(
            into: writer, capture: path, keyLog: &keyLog, random: &random
        ) { keyLog, random in
            // aiohomekit gives each pair-verify and the session after it a port of its own.
            let controllerIndex = random.int(in: 0...(controllerAddresses.count - 1))
            let port = nextPorts[controllerIndex]
            nextPorts[controllerIndex] = port == UInt16.max ? 49_152 : port + 1
            let accessory = accessories[random.int(in: 0...(accessories.count - 1))]
            return try GeneratedCoAPSession(
                controller: GeneratedEndpoint(address: controllerAddresses[controllerIndex], port: port), accessory: accessory.endpoint,
                device: accessory.device, exchanges: random.int(in: configuration.exchangesPerConnection), pause: configuration.pause,
                keyLog: &keyLog, random: &random)
        }
    }
}
