import HAPJSON
import Packets

/// State shared by every connection of one analysis: the user's keys and settings, what earlier
/// connections taught (long-term keys, accessory databases), and the event sink.
final class AnalysisContext {
    let configuration: AnalysisConfiguration
    var discovery: DiscoveryTracker
    /// Long-term public keys learned from decrypted pair-setups in this run, by pairing id
    /// (lower-cased: HAP compares identifiers without regard to case).
    var accessoryLTPKs: [String: [UInt8]] = [:]
    var controllerLTPKs: [String: [UInt8]] = [:]
    /// The latest accessory database per accessory (device id, else the accessory endpoint), with
    /// the body it was read from.
    var databases: [String: (database: AccessoryDatabase, body: [UInt8])] = [:]
    var summary = InputSummary()
    /// The decrypted-capture export, when one is being written.
    let export: DecryptedCaptureExport?
    private let sink: (HAPEvent) -> Void

    init(configuration: AnalysisConfiguration, export: DecryptedCaptureExport?, sink: @escaping (HAPEvent) -> Void) {
        self.configuration = configuration
        self.export = export
        self.discovery = DiscoveryTracker(setupID: configuration.setupID, maximumInstances: configuration.limits.maximumMDNSInstances)
        self.sink = sink
    }

    var keyLog: KeyLog { configuration.keyLog }

    func emit(_ kind: HAPEvent.Kind, _ packet: PacketInfo?) {
        sink(HAPEvent(packet: packet, kind: kind))
    }

    func accessoryLTPK(_ pairingID: String) -> [UInt8]? {
        keyLog.accessoryLongTermPublicKey(pairingID) ?? accessoryLTPKs[pairingID.lowercased()]
    }

    func controllerLTPK(_ pairingID: String) -> [UInt8]? {
        keyLog.controllerLongTermPublicKey(pairingID) ?? controllerLTPKs[pairingID.lowercased()]
    }

    func limitReached(_ name: String, _ message: String, _ packet: PacketInfo?) {
        summary.limitsReached[name, default: 0] += 1
        if summary.limitsReached[name] == 1 {
            emit(.problem(CaptureProblem(.limitReached, message)), packet)
        }
    }
}
