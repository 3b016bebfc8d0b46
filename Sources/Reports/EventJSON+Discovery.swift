import DNS
import HAPEvents
import HAPJSON
import WireParsing

extension EventJSON {
    /// A HomeKit advertisement of HAP over Bluetooth LE (docs/json.md, `ble-advertisement`).
    static func writeBLEAdvertisement(_ event: BLEAdvertisementEvent, into writer: inout JSONWriter) {
        writer.member("advertiser", event.advertiser.description)
        switch event.advertisement {
        case .regular(let regular):
            writer.member("kind", "regular")
            writer.member("firstSighting", event.isFirstSighting)
            writer.member("deviceID", regular.deviceIDText)
            writer.member("statusFlags", Int(regular.statusFlags))
            writer.member("paired", regular.isPaired)
            writer.member("category", Int(regular.category))
            writer.member("globalStateNumber", Int(regular.globalStateNumber))
            writer.member("configurationNumber", Int(regular.configurationNumber))
            writer.member("compatibleVersion", Int(regular.compatibleVersion))
            writer.member("setupHash", regular.setupHash.map { Hex.encode($0) })
            if let previous = event.previous {
                writer.objects("changes", event.changedFields) { writer, field in
                    writer.member("field", field.rawValue)
                    writer.member("old", previous.value(of: field))
                    writer.member("new", regular.value(of: field))
                }
            }
            writer.member("setupHashMatches", event.setupHash?.matches)
        case .encryptedNotification(let notification):
            writer.member("kind", "encrypted-notification")
            writer.member("advertisingID", Hex.encode(notification.advertisingID))
            writer.member("encryptedPayload", Hex.encode(notification.encryptedPayload))
            writer.member("truncatedTag", Hex.encode(notification.truncatedTag))
            switch event.broadcast {
            case .opened(let deviceID, let gsn, let iid, let value)?:
                writer.member("broadcast", "opened")
                writer.member("deviceID", deviceID)
                writer.member("globalStateNumber", Int(gsn))
                writer.member("iid", Int(iid))
                writer.member("value", Hex.encode(value))
                if let lifetime = event.broadcastKeyLifetime { writeBroadcastKeyLifetime(lifetime, into: &writer) }
            case .noKey?: writer.member("broadcast", "no-key")
            case .notOpened?: writer.member("broadcast", "not-opened")
            case nil: break
            }
        }
    }

    /// The age of the broadcast key an opened notification was sealed under (docs/json.md,
    /// `broadcastKey`).
    private static func writeBroadcastKeyLifetime(_ lifetime: BLEBroadcastKeyLifetime, into writer: inout JSONWriter) {
        writer.object("broadcastKey") { writer in
            switch lifetime.verdict {
            case .judged(let increments, let expirationGSN, let expired):
                writer.member("verdict", expired ? "expired" : "within-lifetime")
                writer.member("increments", increments)
                writer.member("expirationGSN", Int(expirationGSN))
            case .generationNotInCapture:
                writer.member("verdict", "generation-not-in-capture")
            case .generationGSNUnknown:
                writer.member("verdict", "generation-gsn-unknown")
            }
            if let generation = lifetime.generation {
                writer.member("generatedOnConnection", generation.connection.id)
                writer.member("generatedPacket", generation.packet.number)
                writer.member("generationGSN", generation.globalStateNumber.map(Int.init))
                writer.member("generationGSNPacket", generation.statedIn?.number)
            }
        }
    }

    static func writeAdvertisement(_ event: AdvertisementEvent, into writer: inout JSONWriter) {
        let service = event.service
        writer.member("sender", event.sender.description)
        writer.member("instance", service.instance.instanceText)
        writer.member("serviceType", service.serviceType.serviceAndTransport)
        writer.member("name", service.name.escapedText)
        writer.member("response", event.isResponse)
        writer.member("goodbye", service.isGoodbye)
        writer.member("firstSighting", event.isFirstSighting)
        if let location = service.location {
            writer.member("host", location.target.displayText)
            writer.member("port", Int(location.port))
        }
        writer.member("addresses", strings: service.addresses.map { $0.address.description })
        if !service.subtypes.isEmpty {
            writer.member("subtypes", strings: service.subtypes.map { DNSName.displayText(ofLabel: $0) })
        }
        let presentation = AdvertisementPresentation(event)
        if let fields = presentation.fields {
            writer.objects("txt", fields.map(\.explanation)) { writer, field in
                writer.member("key", field.key)
                writer.member("value", field.value)
                writer.member("explanation", field.explanation)
            }
        }
        if let hap = service.hap {
            writer.object("hap") { writer in writeHAP(hap, into: &writer) }
        }
        if let matter = service.matter {
            writer.object("matter") { writer in writeMatter(matter, into: &writer) }
        }
        writer.objects("changes", event.changes) { writer, change in
            writer.member("key", change.key)
            writer.member("old", change.old)
            writer.member("new", change.new)
            writer.member("significant", change.isSignificant)
        }
        writer.member("setupHashMatches", event.setupHashMatches)
        writer.objects("diagnostics", presentation.diagnostics) { writer, diagnostic in
            writer.member("source", diagnostic.source)
            writer.member("offset", diagnostic.offset)
            writer.member("message", diagnostic.message)
        }
    }

    private static func writeHAP(_ hap: HAPServiceTXT, into writer: inout JSONWriter) {
        writer.member("deviceID", hap.deviceID)
        writer.member("model", hap.model)
        writer.member("category", hap.categoryIdentifier)
        writer.member("categoryName", hap.categoryName)
        writer.member("configurationNumber", hap.configurationNumber)
        writer.member("stateNumber", hap.stateNumber)
        writer.member("statusFlags", hap.statusFlags?.rawValue)
        writer.member("paired", hap.statusFlags.map { !$0.contains(.notPaired) })
        writer.member("featureFlags", hap.featureFlags?.rawValue)
        writer.member("protocolVersion", hap.protocolVersion?.description)
        writer.member("setupHash", hex: hap.setupHash)
    }

    private static func writeMatter(_ matter: MatterAdvertisement, into writer: inout JSONWriter) {
        writer.member("role", matter.role.rawValue)
        writer.member("compressedFabricID", matter.compressedFabricID.map { hex64($0) })
        writer.member("nodeID", matter.nodeID.map { hex64($0) })
        writer.member("subtypes", strings: matter.subtypes.map { "\($0)" })
        guard let txt = matter.txt else { return }
        writer.member("longDiscriminator", txt.longDiscriminator.map(Int.init))
        writer.member("vendorID", txt.vendorID.map(Int.init))
        writer.member("productID", txt.productID.map(Int.init))
        writer.member("commissioningMode", txt.commissioningMode.map { Int($0.rawValue) })
        writer.member("deviceType", txt.deviceType.map(Int.init))
        writer.member("deviceName", txt.deviceName)
    }

    private static func hex64(_ value: UInt64) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    static func writeQuery(_ query: DiscoveryQueryEvent, into writer: inout JSONWriter) {
        writer.member("sender", query.sender.description)
        writer.objects("queries", query.queries) { writer, question in
            writer.member("name", question.name.displayText)
            writer.member("recordType", question.type.description)
            writer.member("unicastResponse", question.prefersUnicastResponse)
        }
    }
}
