import Bluetooth
import HAPCatalog

/// One difference between two readings of a HAP-BLE accessory's GATT database, where both
/// readings covered it (`UnannouncedDatabaseChange`).
public enum GATTDatabaseChange: Sendable, Hashable {
    /// Listed by the later reading only.
    case added(GATTAttribute)
    /// Listed by the earlier reading only.
    case removed(GATTAttribute)
    /// Listed by both, with another type or properties, or another instance ID both read.
    case redefined(from: GATTAttribute, to: GATTAttribute)
    /// The characteristic signature both read for this instance ID differs.
    case signatureChanged(instanceID: UInt16)

    /// `service 96 (Battery) at handles 0x004F–0x005D, iid 64 added`.
    public var summary: String {
        switch self {
        case .added(let attribute): "\(attribute.summary) added"
        case .removed(let attribute): "\(attribute.summary) removed"
        case .redefined(let before, let now): "\(before.summary) became \(now.summary)"
        case .signatureChanged(let iid): "the signature of characteristic \(iid) changed"
        }
    }
}

/// A service or characteristic as GATT discovery listed it, with its HAP instance ID once read.
public struct GATTAttribute: Sendable, Hashable {
    public enum Kind: String, Sendable {
        case service, characteristic
    }

    public let kind: Kind
    public let type: HAPUUID
    /// A service's handle range; a characteristic's value handle, alone.
    public let handles: ClosedRange<UInt16>
    public let instanceID: UInt16?

    public init(kind: Kind, type: HAPUUID, handles: ClosedRange<UInt16>, instanceID: UInt16?) {
        self.kind = kind
        self.type = type
        self.handles = handles
        self.instanceID = instanceID
    }

    /// `service 96 (Battery) at handles 0x004F–0x005D, iid 64`, `characteristic 8 (Brightness) at
    /// handle 0x0015`: the type with its catalogue name, where discovery listed it.
    public var summary: String {
        let name = switch kind {
        case .service: HAPCatalog.service(type)?.name
        case .characteristic: HAPCatalog.characteristic(type)?.name
        }
        let place = switch kind {
        case .service: "handles \(Self.handleText(handles.lowerBound))–\(Self.handleText(handles.upperBound))"
        case .characteristic: "handle \(Self.handleText(handles.lowerBound))"
        }
        let iid = instanceID.map { ", iid \($0)" } ?? ""
        return "\(kind.rawValue) \(type.displayString)\(name.map { " (\($0))" } ?? "") at \(place)\(iid)"
    }

    /// `0x004F`: a GATT handle as the Core specification writes it.
    private static func handleText(_ handle: UInt16) -> String {
        "0x" + String(handle, radix: 16, uppercase: true).leftPadded(to: 4)
    }
}
