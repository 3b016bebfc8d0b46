import WireParsing

/// The type of an AD structure (Bluetooth Assigned Numbers §2.3, Core Supplement Part A).
public struct AdvertisingDataType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let flags = AdvertisingDataType(rawValue: 0x01)
    public static let incompleteServiceUUIDs16 = AdvertisingDataType(rawValue: 0x02)
    public static let completeServiceUUIDs16 = AdvertisingDataType(rawValue: 0x03)
    public static let incompleteServiceUUIDs32 = AdvertisingDataType(rawValue: 0x04)
    public static let completeServiceUUIDs32 = AdvertisingDataType(rawValue: 0x05)
    public static let incompleteServiceUUIDs128 = AdvertisingDataType(rawValue: 0x06)
    public static let completeServiceUUIDs128 = AdvertisingDataType(rawValue: 0x07)
    public static let shortenedLocalName = AdvertisingDataType(rawValue: 0x08)
    public static let completeLocalName = AdvertisingDataType(rawValue: 0x09)
    public static let txPowerLevel = AdvertisingDataType(rawValue: 0x0A)
    public static let serviceData16 = AdvertisingDataType(rawValue: 0x16)
    public static let serviceData32 = AdvertisingDataType(rawValue: 0x20)
    public static let serviceData128 = AdvertisingDataType(rawValue: 0x21)
    public static let manufacturerSpecificData = AdvertisingDataType(rawValue: 0xFF)

    /// The width of the UUIDs a UUID-list or service-data structure of this type holds.
    var uuidLength: Int? {
        switch self {
        case .incompleteServiceUUIDs16, .completeServiceUUIDs16, .serviceData16: 2
        case .incompleteServiceUUIDs32, .completeServiceUUIDs32, .serviceData32: 4
        case .incompleteServiceUUIDs128, .completeServiceUUIDs128, .serviceData128: 16
        default: nil
        }
    }

    public var name: String? {
        switch self {
        case .flags: "Flags"
        case .incompleteServiceUUIDs16: "Incomplete List of 16-bit Service UUIDs"
        case .completeServiceUUIDs16: "Complete List of 16-bit Service UUIDs"
        case .incompleteServiceUUIDs32: "Incomplete List of 32-bit Service UUIDs"
        case .completeServiceUUIDs32: "Complete List of 32-bit Service UUIDs"
        case .incompleteServiceUUIDs128: "Incomplete List of 128-bit Service UUIDs"
        case .completeServiceUUIDs128: "Complete List of 128-bit Service UUIDs"
        case .shortenedLocalName: "Shortened Local Name"
        case .completeLocalName: "Complete Local Name"
        case .txPowerLevel: "Tx Power Level"
        case .serviceData16: "Service Data - 16-bit UUID"
        case .serviceData32: "Service Data - 32-bit UUID"
        case .serviceData128: "Service Data - 128-bit UUID"
        case .manufacturerSpecificData: "Manufacturer Specific Data"
        default: nil
        }
    }

    public var description: String {
        name ?? "AD type 0x\(String(rawValue, radix: 16).leftPadded(to: 2))"
    }
}

/// One AD structure: length (1, counting the type), type (1), data.
public struct AdvertisingDataStructure: Hashable, Sendable {
    public var type: AdvertisingDataType
    public var data: [UInt8]
    /// The absolute offset of the length byte.
    public var offset: Int

    public init(type: AdvertisingDataType, data: [UInt8], offset: Int) {
        self.type = type
        self.data = data
        self.offset = offset
    }
}

/// Advertising or scan-response data: a sequence of AD structures (Core Vol 3 Part C §11).
///
/// A zero length byte ends the data early (the rest is padding, as the 31-byte field of LE Set
/// Advertising Data usually is). The strict decode throws at a structure that runs past the
/// data; the lenient one keeps the structures before it and records the error in `problem`.
public struct AdvertisingData: Hashable, Sendable {
    /// The most bytes legacy advertising (and LE Advertising Report) carries.
    public static let legacyMaximumLength = 31
    /// A bound on decoded structures: 1,650 bytes of extended advertising data could hold 825.
    public static let maximumStructureCount = 128

    public var structures: [AdvertisingDataStructure]
    /// Why the lenient decode stopped early; nil when every byte was read.
    public var problem: DecodeError?

    public init(structures: [AdvertisingDataStructure], problem: DecodeError? = nil) {
        self.structures = structures
        self.problem = problem
    }

    /// Decodes every remaining byte of `cursor` (layer `advertisingData`), throwing at the first problem.
    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        structures = []
        try Self.read(&cursor, into: &structures)
    }

    /// Decodes every remaining byte of `cursor`, keeping what precedes a problem.
    public init(parsingLeniently cursor: inout ByteCursor) {
        structures = []
        do {
            try Self.read(&cursor, into: &structures)
        } catch {
            problem = error
            _ = cursor.readRemaining()
        }
    }

    /// Reads `count` bytes of `cursor` as advertising data whose length a container gave:
    /// running past them is the sender's error, so a truncation inside is malformed.
    init(leniently cursor: inout ByteCursor, count: Int) throws(DecodeError) {
        let start = cursor.offset
        let span = try cursor.read(count: count, "\(count) bytes of advertising data")
        var dataCursor = ByteCursor(span, layer: .advertisingData, baseOffset: start)
        self.init(parsingLeniently: &dataCursor)
        if problem?.code == .truncated {
            problem?.code = .malformed
            problem?.expected += ", within the \(count) bytes of advertising data"
        }
    }

    private static func read(_ cursor: inout ByteCursor, into structures: inout [AdvertisingDataStructure]) throws(DecodeError) {
        while !cursor.isAtEnd {
            let offset = cursor.offset
            let length = Int(try cursor.readUInt8("an AD structure length"))
            if length == 0 {
                // Early termination: what follows is padding.
                _ = cursor.readRemaining()
                return
            }
            guard structures.count < maximumStructureCount else {
                throw DecodeError(.limitExceeded, layer: cursor.layer, offset: offset, expected: "at most \(maximumStructureCount) AD structures")
            }
            let type = AdvertisingDataType(rawValue: try cursor.readUInt8("an AD type"))
            let data = try cursor.readBytes(count: length - 1, "the \(length - 1) data bytes of \(type)")
            structures.append(AdvertisingDataStructure(type: type, data: data, offset: offset))
        }
    }

    // MARK: What the structures say

    /// The Flags structure's first byte: bit 0 LE Limited Discoverable, 1 LE General
    /// Discoverable, 2 BR/EDR Not Supported.
    public var flags: UInt8? {
        structures.first { $0.type == .flags }?.data.first
    }

    /// The local name, complete or shortened, with which of the two it is.
    public var localName: (name: String, isComplete: Bool)? {
        guard let structure = structures.first(where: { $0.type == .completeLocalName || $0.type == .shortenedLocalName }) else {
            return nil
        }
        return (String(decoding: structure.data, as: UTF8.self), structure.type == .completeLocalName)
    }

    /// The service UUIDs of every UUID-list structure, in order; a list whose length is not a
    /// multiple of its UUID width contributes the whole UUIDs it holds.
    public var serviceUUIDs: [BluetoothUUID] {
        var uuids: [BluetoothUUID] = []
        for structure in structures {
            guard let width = structure.type.uuidLength, structure.type.rawValue <= 0x07 else { continue }
            var start = 0
            while start + width <= structure.data.count {
                if let uuid = try? BluetoothUUID(littleEndianBytes: Array(structure.data[start ..< start + width])) {
                    uuids.append(uuid)
                }
                start += width
            }
        }
        return uuids
    }

    /// Manufacturer Specific Data structures: the company identifier (2, little-endian) and
    /// the rest. A structure shorter than the identifier is left out.
    public var manufacturerData: [(companyID: UInt16, data: [UInt8])] {
        structures.compactMap { structure in
            guard structure.type == .manufacturerSpecificData, structure.data.count >= 2 else { return nil }
            return (UInt16(structure.data[0]) | UInt16(structure.data[1]) << 8, Array(structure.data[2...]))
        }
    }

    /// Service Data structures: the service UUID and the data after it.
    public var serviceData: [(uuid: BluetoothUUID, data: [UInt8])] {
        structures.compactMap { structure in
            guard structure.type.rawValue > 0x07, let width = structure.type.uuidLength, structure.data.count >= width,
                  let uuid = try? BluetoothUUID(littleEndianBytes: Array(structure.data[..<width]))
            else { return nil }
            return (uuid, Array(structure.data[width...]))
        }
    }

    /// The Tx Power Level in dBm.
    public var txPowerLevel: Int8? {
        structures.first { $0.type == .txPowerLevel }?.data.first.map { Int8(bitPattern: $0) }
    }
}
