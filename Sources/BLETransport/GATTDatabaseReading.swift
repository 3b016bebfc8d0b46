import Bluetooth
import HAPCatalog
import HAPEvents
import HAPPDU

/// Handle ranges a GATT discovery has listed, joined where they touch; at most `maximumRanges`
/// of them (a range past the bound is not kept, so less is claimed as read, never more).
struct HandleCoverage: Equatable {
    let maximumRanges: Int
    private(set) var ranges: [ClosedRange<UInt16>] = []

    init(maximumRanges: Int) {
        self.maximumRanges = maximumRanges
    }

    mutating func insert(_ start: UInt16, _ end: UInt16) {
        guard start <= end else { return }
        // The ranges that overlap or sit side by side with the new one become one with it.
        let first = ranges.firstIndex { Int($0.upperBound) + 1 >= Int(start) } ?? ranges.endIndex
        var last = first
        while last < ranges.endIndex, Int(ranges[last].lowerBound) <= Int(end) + 1 { last += 1 }
        guard first < last || ranges.count < maximumRanges else { return }
        let joined = first < last ? min(ranges[first].lowerBound, start)...max(ranges[last - 1].upperBound, end) : start...end
        ranges.replaceSubrange(first..<last, with: [joined])
    }

    mutating func formUnion(_ other: HandleCoverage) {
        for range in other.ranges { insert(range.lowerBound, range.upperBound) }
    }

    /// Whether a discovery listed `handle`: a binary search of the sorted, disjoint ranges.
    func contains(_ handle: UInt16) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < handle { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].contains(handle)
    }
}

/// What one LE connection (or several, merged) read of an accessory's GATT database: the
/// primary services and characteristic declarations in the handle ranges its discovery listed,
/// the instance IDs it read, and the characteristic signatures.
///
/// HAP: an accessory whose attribute database changes (services or characteristics added or
/// removed, instance IDs changed) increments its configuration number (HomeKitADK HAP.h,
/// `HAPAccessoryServerIncrementCN`: called "when an accessory, service or characteristic is
/// added or removed"; HAPAccessoryServer.c increments it on start when the configuration
/// changed; HAPBLEAccessoryServer+Advertising.c advertises it as CN), and a controller that
/// cached the database reads it again only then. Two readings are compared only where both
/// read: a controller that cached the database discovers and reads less.
struct GATTDatabaseReading: Equatable {
    private(set) var services: [UInt16: GATTTable.Service] = [:]
    private(set) var characteristics: [UInt16: GATTTable.Characteristic] = [:]
    private(set) var serviceCoverage: HandleCoverage
    private(set) var characteristicCoverage: HandleCoverage
    private(set) var signatures: [UInt16: HAPCharacteristicSignature]

    init(table: GATTTable, signatures: [UInt16: HAPCharacteristicSignature]) {
        for service in table.services { services[service.handle] = service }
        for characteristic in table.characteristics { characteristics[characteristic.declarationHandle] = characteristic }
        serviceCoverage = table.serviceCoverage
        characteristicCoverage = table.characteristicCoverage
        self.signatures = signatures
    }

    /// Whether nothing was read to compare.
    var isEmpty: Bool { serviceCoverage.ranges.isEmpty && characteristicCoverage.ranges.isEmpty && signatures.isEmpty }

    /// How this reading differs from `earlier` where both read, handle by handle (services and
    /// characteristic declarations), instance ID by instance ID (signatures).
    func changes(since earlier: GATTDatabaseReading) -> [GATTDatabaseChange] {
        var changes: [GATTDatabaseChange] = []
        visitChanges(since: earlier, inOrder: true) { change in
            changes.append(change)
            return true
        }
        return changes
    }

    /// Whether this reading differs from `earlier` where both read: `changes(since:)` stopped at
    /// the first, in no order, so that a connection can ask after every response.
    func differs(from earlier: GATTDatabaseReading) -> Bool {
        var found = false
        visitChanges(since: earlier, inOrder: false) { _ in
            found = true
            return false
        }
        return found
    }

    /// Hands each change to `visit` until it returns false.
    private func visitChanges(since earlier: GATTDatabaseReading, inOrder: Bool, _ visit: (GATTDatabaseChange) -> Bool) {
        guard Self.compare(earlier.services, services, earlierCoverage: earlier.serviceCoverage, laterCoverage: serviceCoverage,
                           inOrder: inOrder, visit),
              Self.compare(earlier.characteristics, characteristics, earlierCoverage: earlier.characteristicCoverage,
                           laterCoverage: characteristicCoverage, inOrder: inOrder, visit) else { return }
        let iids = inOrder ? signatures.keys.sorted() : Array(signatures.keys)
        for iid in iids {
            guard let before = earlier.signatures[iid], let now = signatures[iid], before != now else { continue }
            guard visit(.signatureChanged(instanceID: iid)) else { return }
        }
    }

    /// The attributes at handles both readings covered: one only the later lists was added, one
    /// only the earlier lists removed, one both list differently redefined. An instance ID is
    /// compared only when both read it. False when `visit` asked to stop.
    private static func compare<Attribute: DiscoveredAttribute>(
        _ earlier: [UInt16: Attribute], _ later: [UInt16: Attribute], earlierCoverage: HandleCoverage, laterCoverage: HandleCoverage,
        inOrder: Bool, _ visit: (GATTDatabaseChange) -> Bool
    ) -> Bool {
        let handles = inOrder ? Set(earlier.keys).union(later.keys).sorted() : Array(later.keys) + earlier.keys.filter { later[$0] == nil }
        for handle in handles where earlierCoverage.contains(handle) && laterCoverage.contains(handle) {
            let goOn = switch (earlier[handle], later[handle]) {
            case (nil, let now?): visit(.added(now.attribute))
            case (let before?, nil): visit(.removed(before.attribute))
            case (let before?, let now?) where before.withoutInstanceID != now.withoutInstanceID
                || (before.instanceID != nil && now.instanceID != nil && before.instanceID != now.instanceID):
                visit(.redefined(from: before.attribute, to: now.attribute))
            default: true
            }
            if !goOn { return false }
        }
        return true
    }

    /// This reading with `later`'s taking over what `later` read: the accessory's database as
    /// last read, attribute by attribute (an instance ID `later` did not read is kept).
    mutating func merge(_ later: GATTDatabaseReading) {
        services = Self.merged(services, later.services, laterCoverage: later.serviceCoverage)
        characteristics = Self.merged(characteristics, later.characteristics, laterCoverage: later.characteristicCoverage)
        serviceCoverage.formUnion(later.serviceCoverage)
        characteristicCoverage.formUnion(later.characteristicCoverage)
        signatures.merge(later.signatures) { _, new in new }
    }

    private static func merged<Attribute: DiscoveredAttribute>(
        _ earlier: [UInt16: Attribute], _ later: [UInt16: Attribute], laterCoverage: HandleCoverage
    ) -> [UInt16: Attribute] {
        var result = earlier.filter { !laterCoverage.contains($0.key) }
        for (handle, var attribute) in later {
            if attribute.instanceID == nil, let before = earlier[handle], before.withoutInstanceID == attribute.withoutInstanceID {
                attribute.instanceID = before.instanceID
            }
            result[handle] = attribute
        }
        return result
    }
}

/// A service or characteristic a GATT discovery listed, which carries a HAP instance ID once it
/// was read.
private protocol DiscoveredAttribute: Equatable {
    var instanceID: UInt16? { get set }
    /// The attribute as a change names it.
    var attribute: GATTAttribute { get }
}

extension DiscoveredAttribute {
    /// The attribute as GATT discovery alone shows it.
    var withoutInstanceID: Self {
        var copy = self
        copy.instanceID = nil
        return copy
    }
}

extension GATTTable.Service: DiscoveredAttribute {
    fileprivate var attribute: GATTAttribute {
        GATTAttribute(kind: .service, type: HAPUUID(type), handles: handle...max(handle, endHandle), instanceID: instanceID)
    }
}

extension GATTTable.Characteristic: DiscoveredAttribute {
    fileprivate var attribute: GATTAttribute {
        GATTAttribute(kind: .characteristic, type: HAPUUID(type), handles: valueHandle...valueHandle, instanceID: instanceID)
    }
}
