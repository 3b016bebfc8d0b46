import Capture
import HAPCrypto
import WireParsing

/// Writes a deterministic HAP-over-Bluetooth-LE capture and its key log: a hub's Bluetooth
/// controller (LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR, as `hcidump`/libpcap record it on Linux)
/// connecting to many HAP-BLE accessories in turn, a few connections at a time, each
/// pair-verified in the capture. The same seed and size give the same bytes.
struct BLECaptureGenerator {
    var configuration: ConnectionMix
    /// One later connection to an accessory in this many reads the signatures again (the first
    /// connection to each always does).
    var signatureReadsEvery = 4

    init(targetByteCount: Int) {
        configuration = ConnectionMix(
            targetByteCount: targetByteCount, seed: 0x4841_5042_4C45_3031, accessoryCount: 16, zonesPerAccessory: 1...4,
            concurrentConnections: 4, exchangesPerConnection: 40...160, pause: 5_000...60_000)
    }

    typealias Summary = GeneratedCaptureSummary<GeneratedBLEConnection.Counted>

    /// The host's random static address, C0:77:00:00:00:01 (as in captures/ble).
    static let controllerAddress: [UInt8] = [0xC0, 0x77, 0x00, 0x00, 0x00, 0x01]
    /// Core Vol 4 Part E §5.4.2: connection handles run to 0x0EFF.
    static let handles: ClosedRange<UInt16> = 0x0040...0x0EFF

    func generate(to path: String) throws -> Summary {
        var random = SeededRandom(seed: configuration.seed)
        let writer = try FrameWriter(file: path, start: CaptureGenerator.startTime, linkType: .bluetoothHCIH4WithPseudoHeader)
        var keyLog = KeyLogText()

        var accessories: [GeneratedBLEAccessory] = []
        for index in 0..<configuration.accessoryCount {
            let accessory = try GeneratedBLEAccessory(index: index, zoneCount: random.int(in: configuration.zonesPerAccessory), random: &random)
            accessories.append(accessory)
            keyLog.add("ACCESSORY_LTPK", accessory.deviceID, Hex.encode(accessory.longTermKey.publicKey.bytes))
        }
        let controller = try GeneratedController(address: 0, random: &random)
        keyLog.add("CONTROLLER_LTPK", controller.pairingID, Hex.encode(controller.longTermKey.publicKey.bytes))
        writer.writeFrame(BluetoothPacketText.leSetRandomAddress(Self.controllerAddress.reversed()))

        var connected = Set<Int>()
        var signaturesRead = Set<Int>()
        var nextHandle = Self.handles.lowerBound
        return try InterleavedConnections(mix: configuration).play(
            into: writer, capture: path, keyLog: &keyLog, random: &random,
            open: { _, random in
                // One connection per accessory at a time, as a peripheral accepts.
                let free = (0..<accessories.count).filter { !connected.contains($0) }
                let index = free[random.int(in: 0...(free.count - 1))]
                let readsSignatures = !signaturesRead.contains(index) || random.chance(1, in: signatureReadsEvery)
                signaturesRead.insert(index)
                connected.insert(index)
                defer { nextHandle = nextHandle == Self.handles.upperBound ? Self.handles.lowerBound : nextHandle + 1 }
                return GeneratedBLEConnection(
                    handle: nextHandle, accessory: accessories[index], controller: controller, readsSignatures: readsSignatures,
                    exchanges: random.int(in: configuration.exchangesPerConnection), pause: configuration.pause, random: &random)
            },
            closed: { connected.remove($0.accessoryIndex) })
    }
}
