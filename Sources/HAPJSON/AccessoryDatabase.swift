import HAPCatalog
import WireParsing

/// The address of one characteristic: the `aid.iid` pair of `/characteristics?id=`.
public struct CharacteristicID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var aid: UInt64
    public var iid: UInt64

    public init(aid: UInt64, iid: UInt64) {
        self.aid = aid
        self.iid = iid
    }

    public static func < (lhs: CharacteristicID, rhs: CharacteristicID) -> Bool {
        (lhs.aid, lhs.iid) < (rhs.aid, rhs.iid)
    }

    /// `1.10`, as in the `id` query parameter.
    public var description: String { "\(aid).\(iid)" }
}

/// An accessory attribute database: the body of `GET /accessories` (HAP: attribute database).
///
/// Decoding is lenient: an accessory, service or characteristic that cannot be used is skipped and
/// recorded in `diagnostics` with its JSON Pointer and byte offset, and everything else is kept.
/// Keys HAP does not define (`stype` from dump tools, vendor extras) are ignored with a note.
/// Only a body that is not JSON, or has no accessory list at all, throws.
public struct AccessoryDatabase: HAPJSONBody, Hashable {
    /// How the accessories were wrapped.
    public enum Form: Hashable, Sendable {
        /// `{"accessories":[…]}`, as accessories send it.
        case accessoriesObject
        /// `[…]`, as aiohomekit and homekit_python save it.
        case accessoryList
    }

    public internal(set) var accessories: [HAPAccessory]
    public internal(set) var form: Form
    /// The body as parsed, for comparisons member by member (Differences'
    /// `AccessoryDatabaseComparison`, which `hapscope diff` and the audit's rules across captures
    /// use). A database read from bytes parses them again each time this is asked for.
    public var json: JSONValue { source.json }
    private let source: JSONSource
    /// What decoding noticed, in document order: duplicate keys, skipped elements, ignored fields,
    /// non-HAP keys.
    public internal(set) var diagnostics: [HAPJSONDiagnostic]
    /// Where each characteristic is, by address; the first one wins where addresses repeat.
    public private(set) var characteristics = CharacteristicIndex()

    /// How its `tlv8` and `data` values are written: base64 on the wire, hex in some dumps.
    public let binaryValues: BinaryValueEncoding

    /// Decodes a parsed `/accessories` body. Throws `hap-json` `malformed` when the root is neither
    /// an object with an `accessories` array nor an array.
    public init(document: JSONDocument) throws(DecodeError) {
        try self.init(document: document, binaryValues: .base64)
    }

    /// Decodes a parsed body whose `tlv8` and `data` values are written in `binaryValues`.
    public init(document: JSONDocument, binaryValues: BinaryValueEncoding) throws(DecodeError) {
        self.binaryValues = binaryValues
        var recorder = DiagnosticRecorder(diagnostics: document.diagnostics)
        let root = document.root
        source = JSONSource(root)
        let elements: [JSONValue]
        let path: String
        switch root.content {
        case .object(let members):
            guard let list = root["accessories"]?.arrayValue else {
                throw DecodeError(.malformed, layer: .hapJSON, offset: root["accessories"]?.offset ?? root.offset,
                                  expected: "an \"accessories\" array")
            }
            for member in members where member.key != "accessories" {
                recorder.recordNonHAPKey(member, path: "", in: "attribute database")
            }
            (elements, path, form) = (list, "/accessories", .accessoriesObject)
        case .array(let list):
            (elements, path, form) = (list, "", .accessoryList)
        default:
            throw DecodeError(.malformed, layer: .hapJSON, offset: root.offset,
                              expected: "an object with an \"accessories\" array, or an array of accessories")
        }
        accessories = []
        accessories.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            if let accessory = HAPAccessory(decoding: element, sourceIndex: index, path: JSONPointer.appending(index, to: path),
                                            binaryValues: binaryValues, recorder: &recorder) {
                accessories.append(accessory)
            }
        }
        diagnostics = recorder.inDocumentOrder
        characteristics = CharacteristicIndex(accessories)
    }

    init(
        accessories: [HAPAccessory], form: Form, diagnostics: [HAPJSONDiagnostic], binaryValues: BinaryValueEncoding, source: JSONSource
    ) {
        self.accessories = accessories
        self.form = form
        self.diagnostics = diagnostics
        self.binaryValues = binaryValues
        self.source = source
        characteristics = CharacteristicIndex(accessories)
    }

    // MARK: Lookups

    /// The first accessory with `aid`.
    public func accessory(aid: UInt64) -> HAPAccessory? {
        accessories.first { $0.aid == aid }
    }

    /// The characteristic at an address.
    public func characteristic(_ id: CharacteristicID) -> HAPCharacteristic? {
        characteristics[id]
    }

    /// The address of the characteristic with `iid` in the first accessory holding one: HAP-BLE
    /// and HAP over CoAP PDUs name a characteristic by its IID alone. One lookup per accessory.
    public func characteristicID(iid: UInt64) -> CharacteristicID? {
        accessories.lazy.map { CharacteristicID(aid: $0.aid, iid: iid) }.first { characteristics[$0] != nil }
    }

    /// The service holding the characteristic at an address.
    public func service(containing id: CharacteristicID) -> HAPService? {
        characteristics.location(of: id).map { accessories[$0.accessory].services[$0.service] }
    }

    // MARK: Paths

    /// The JSON Pointer of an accessory in the body this database was decoded from.
    func path(of accessory: HAPAccessory) -> String {
        JSONPointer.appending(accessory.sourceIndex, to: form == .accessoriesObject ? "/accessories" : "")
    }

    func path(of service: HAPService, in accessory: HAPAccessory) -> String {
        JSONPointer.appending(service.sourceIndex, to: path(of: accessory) + "/services")
    }

    func path(of characteristic: HAPCharacteristic, in service: HAPService, of accessory: HAPAccessory) -> String {
        JSONPointer.appending(characteristic.sourceIndex, to: path(of: service, in: accessory) + "/characteristics")
    }
}

/// A database's characteristics by address, sorted and searched by halves, behind one reference:
/// the analyzer looks a characteristic up for every read, write and event. A dictionary hashed the
/// address with SipHash each time (~270 instructions a lookup), and reaching the characteristic
/// through its accessory and service copied both out of their arrays; a holder of the index (a
/// connection's found database) looks up without copying the database either.
public final class CharacteristicIndex: Hashable, Sendable {
    /// Where a characteristic sits in `AccessoryDatabase.accessories`.
    struct Location: Hashable, Sendable {
        let accessory: Int
        let service: Int
        let characteristic: Int
    }

    private struct Entry: Hashable, Sendable {
        let id: CharacteristicID
        let location: Location
        let characteristic: HAPCharacteristic
    }

    /// Sorted by address, one entry per address.
    private let entries: [Entry]

    init() {
        entries = []
    }

    /// The characteristics of `accessories`; where an address repeats, the first in document
    /// order wins.
    init(_ accessories: [HAPAccessory]) {
        var all: [(entry: Entry, order: Int)] = []
        for (a, accessory) in accessories.enumerated() {
            for (s, service) in accessory.services.enumerated() {
                for (c, characteristic) in service.characteristics.enumerated() {
                    let id = CharacteristicID(aid: accessory.aid, iid: characteristic.iid)
                    let location = Location(accessory: a, service: s, characteristic: c)
                    all.append((Entry(id: id, location: location, characteristic: characteristic), all.count))
                }
            }
        }
        all.sort { ($0.entry.id, $0.order) < ($1.entry.id, $1.order) }
        var entries: [Entry] = []
        entries.reserveCapacity(all.count)
        for (entry, _) in all where entries.last?.id != entry.id {
            entries.append(entry)
        }
        self.entries = entries
    }

    /// The characteristic at an address.
    public subscript(id: CharacteristicID) -> HAPCharacteristic? {
        position(of: id).map { entries[$0].characteristic }
    }

    func location(of id: CharacteristicID) -> Location? {
        position(of: id).map { entries[$0].location }
    }

    private func position(of id: CharacteristicID) -> Int? {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = low + (high - low) / 2
            if entries[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < entries.count && entries[low].id == id ? low : nil
    }

    public static func == (lhs: CharacteristicIndex, rhs: CharacteristicIndex) -> Bool {
        lhs === rhs || lhs.entries == rhs.entries
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries)
    }
}
