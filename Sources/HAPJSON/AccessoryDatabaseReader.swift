import WireParsing

extension AccessoryDatabase {
    /// Parses and decodes an `/accessories` body filling the rest of the cursor, straight from its
    /// bytes: accessories, services and characteristics are decoded as their objects close, and
    /// only the members of the object being read are kept as values, so no tree of the whole body
    /// is built (it cost ~1.7 M instructions a body of hapbench's capture, a third of them to
    /// free it again). Diagnostics, limits and errors are those of `init(document:)`.
    public init(parsing cursor: inout ByteCursor, limits: JSONLimits) throws(DecodeError) {
        try self.init(parsing: &cursor, limits: limits, binaryValues: .base64)
    }

    /// Parses and decodes a body whose `tlv8` and `data` values are written in `binaryValues`.
    public init(parsing cursor: inout ByteCursor, limits: JSONLimits = JSONLimits(), binaryValues: BinaryValueEncoding) throws(DecodeError) {
        let start = cursor.position
        let bytes = cursor.bytes.extracting(start ..< cursor.bytes.byteCount)
        let baseOffset = cursor.baseOffset + start
        var reader = AccessoryDatabaseReader(limits: limits, baseOffset: baseOffset, binaryValues: binaryValues)
        let (accessories, form) = try reader.read(bytes)
        self.init(accessories: accessories, form: form, diagnostics: reader.diagnostics, binaryValues: binaryValues,
                  source: JSONSource(bytes: bytes, baseOffset: baseOffset, limits: limits))
        _ = cursor.readRemaining()
    }

    /// Parses and decodes a body; offsets count from its first byte.
    public init(bytes: [UInt8], limits: JSONLimits = JSONLimits(), binaryValues: BinaryValueEncoding = .base64) throws(DecodeError) {
        var cursor = ByteCursor(bytes.span.bytes, layer: .json)
        try self.init(parsing: &cursor, limits: limits, binaryValues: binaryValues)
    }
}

/// The body a database was decoded from, whose value (`AccessoryDatabase.json`) is made only when
/// asked for: only comparisons across captures and dumps read it.
struct JSONSource: Hashable, Sendable {
    private enum Storage: Sendable {
        case value(JSONValue)
        case text([UInt8], baseOffset: Int, limits: JSONLimits)
    }

    private let storage: Storage

    init(_ value: JSONValue) {
        storage = .value(value)
    }

    init(bytes: RawSpan, baseOffset: Int, limits: JSONLimits) {
        storage = .text(bytes.withUnsafeBytes { Array($0) }, baseOffset: baseOffset, limits: limits)
    }

    var json: JSONValue {
        switch storage {
        case .value(let value):
            return value
        case .text(let bytes, let baseOffset, let limits):
            return Self.parse(bytes, baseOffset: baseOffset, limits: limits)
        }
    }

    private static func parse(_ bytes: [UInt8], baseOffset: Int, limits: JSONLimits) -> JSONValue {
        var cursor = ByteCursor(bytes.span.bytes, layer: .json, baseOffset: baseOffset)
        do {
            return try JSONDocument(parsing: &cursor, limits: limits).root
        } catch {
            preconditionFailure("a body that was read once reads again: \(error)")
        }
    }

    static func == (lhs: JSONSource, rhs: JSONSource) -> Bool {
        if case .text(let left, let leftOffset, _) = lhs.storage, case .text(let right, let rightOffset, _) = rhs.storage,
           left == right, leftOffset == rightOffset {
            return true
        }
        return lhs.json == rhs.json
    }

    /// Nothing: equal sources may be stored differently, and the database hashes what was
    /// decoded from them.
    func hash(into hasher: inout Hasher) {}
}

/// Reads an `/accessories` body into accessories, with the `JSONReader` for its syntax, limits and
/// the values inside each characteristic. An object is decoded when it closes, by the same
/// member decoding as the tree's (`HAPAccessory(members:)`, …), since its keys may come in any
/// order. What its accessories, services and characteristics arrays record is dropped again
/// when the object is skipped or a later member of the same key replaces the array, as the tree
/// decoder never decodes them; the `aid` their diagnostics carry is set once the accessory
/// closes.
struct AccessoryDatabaseReader {
    private var reader: JSONReader
    private var recorder = DiagnosticRecorder()
    private let binaryValues: BinaryValueEncoding

    init(limits: JSONLimits, baseOffset: Int, binaryValues: BinaryValueEncoding) {
        reader = JSONReader(limits: limits, baseOffset: baseOffset)
        self.binaryValues = binaryValues
    }

    /// The reader's and the decoding's diagnostics in document order.
    var diagnostics: [HAPJSONDiagnostic] {
        (reader.diagnostics + recorder.diagnostics).inDocumentOrder
    }

    mutating func read(_ bytes: RawSpan) throws(DecodeError) -> ([HAPAccessory], AccessoryDatabase.Form) {
        var position = 0
        try reader.beginDocument(bytes, &position)
        let rootOffset = reader.baseOffset + position
        switch next(bytes, position) {
        case UInt8(ascii: "{"):
            let accessories = try readMembers(bytes, &position, decoding: "accessories") { (this: inout Self, position: inout Int) throws(DecodeError) in
                try this.readElements(bytes, &position, path: { "/accessories" }, { (this: inout Self, bytes, position: inout Int, index, list) throws(DecodeError) in
                try this.readAccessory(bytes, &position, index: index, in: list)
            })
            }
            let members = reader.openMembers
            for member in members where member.key != "accessories" {
                recorder.recordNonHAPKey(member, path: "", in: "attribute database")
            }
            let accessoriesOffset = members.last { $0.key == "accessories" }?.value.offset
            reader.closeCallersContainer()
            try reader.endDocument(bytes, &position)
            guard let accessories else {
                throw DecodeError(.malformed, layer: .hapJSON, offset: accessoriesOffset ?? rootOffset, expected: "an \"accessories\" array")
            }
            return (accessories, .accessoriesObject)
        case UInt8(ascii: "["):
            let accessories = try readElements(bytes, &position, path: { "" }, { (this: inout Self, bytes, position: inout Int, index, list) throws(DecodeError) in
                try this.readAccessory(bytes, &position, index: index, in: list)
            })
            try reader.endDocument(bytes, &position)
            return (accessories, .accessoryList)
        default:
            _ = try reader.readValue(bytes, &position)
            try reader.endDocument(bytes, &position)
            throw DecodeError(.malformed, layer: .hapJSON, offset: rootOffset,
                              expected: "an object with an \"accessories\" array, or an array of accessories")
        }
    }

    /// The byte at `position`, or 0 at the end (where `readValue` then reports what is missing).
    private func next(_ bytes: RawSpan, _ position: Int) -> UInt8 {
        position < bytes.byteCount ? JSONReader.byte(bytes, position) : 0
    }

    /// Reads the array at `position`, decoding each element with `readElement` (given the
    /// element's index and the array's path, made only when a diagnostic needs it) and keeping
    /// those it returns.
    private mutating func readElements<Element>(
        _ bytes: RawSpan, _ position: inout Int, path: () -> String,
        _ readElement: (inout Self, RawSpan, inout Int, Int, () -> String) throws(DecodeError) -> Element?
    ) throws(DecodeError) -> [Element] {
        var elements: [Element] = []
        if try !reader.openContainer(bytes, &position) {
            // Each element's reader gets the path to pass on, not to keep.
            try withoutActuallyEscaping(path) { (path) throws(DecodeError) in
                var index = 0
                repeat {
                    if let element = try readElement(&self, bytes, &position, index, path) { elements.append(element) }
                    index += 1
                } while try reader.finishElement(nil, bytes, &position)
            }
        }
        reader.closeCallersContainer()
        return elements
    }

    /// Opens the object at `position` and reads its members as values, but for the member `key`
    /// (if any), which `readArray` decodes when it is an array; returns what the last such member
    /// decoded to, or nil when it is missing or not an array. What an earlier member of `key`
    /// recorded is dropped. The object stays open for its members to be decoded.
    private mutating func readMembers<Decoded>(
        _ bytes: RawSpan, _ position: inout Int, decoding key: String?,
        _ readArray: (inout Self, inout Int) throws(DecodeError) -> Decoded
    ) throws(DecodeError) -> Decoded? {
        let first = recorder.diagnostics.count
        var decoded: Decoded?
        if try !reader.openContainer(bytes, &position) {
            var more = true
            while more {
                let member: JSONValue
                if reader.pendingKey.key == key {
                    if next(bytes, position) == UInt8(ascii: "[") {
                        recorder.diagnostics.removeSubrange(first...)
                        // Stands for the array among the object's members.
                        member = JSONValue(.array([]), offset: reader.baseOffset + position)
                        decoded = try readArray(&self, &position)
                    } else {
                        decoded = nil
                        member = try reader.readValue(bytes, &position)
                    }
                } else {
                    member = try reader.readValue(bytes, &position)
                }
                more = try reader.finishElement(member, bytes, &position)
            }
        }
        return decoded
    }

    /// Reads an element that is not an object, and records that `what` must be one.
    private mutating func skipNonObject(
        _ bytes: RawSpan, _ position: inout Int, _ code: HAPJSONDiagnostic.Code, _ what: String, path: () -> String
    ) throws(DecodeError) {
        let value = try reader.readValue(bytes, &position)
        recorder.record(code, .error, value, path: path(), "\(what) must be an object, found a \(value.kindName); skipped")
    }

    private mutating func readAccessory(_ bytes: RawSpan, _ position: inout Int, index: Int, in list: () -> String) throws(DecodeError) -> HAPAccessory? {
        let offset = reader.baseOffset + position
        func path() -> String { JSONPointer.appending(index, to: list()) }
        guard next(bytes, position) == UInt8(ascii: "{") else {
            try skipNonObject(bytes, &position, .malformedAccessory, "an accessory", path: path)
            return nil
        }
        let first = recorder.diagnostics.count
        let services = try readMembers(bytes, &position, decoding: "services") { (this: inout Self, position: inout Int) throws(DecodeError) in
            try this.readElements(bytes, &position, path: { JSONPointer.appending("services", to: path()) }, { (this: inout Self, bytes, position: inout Int, index, list) throws(DecodeError) in
                try this.readService(bytes, &position, index: index, in: list)
            })
        }
        defer { reader.closeCallersContainer() }
        let last = recorder.diagnostics.count
        guard var accessory = HAPAccessory(members: reader.openMembers, offset: offset, sourceIndex: index, path: path(),
                                           hasServices: services != nil, recorder: &recorder) else {
            recorder.diagnostics.removeSubrange(first ..< last)
            return nil
        }
        for diagnostic in first ..< last {
            recorder.diagnostics[diagnostic].aid = accessory.aid
        }
        accessory.services = services ?? []
        return accessory
    }

    private mutating func readService(_ bytes: RawSpan, _ position: inout Int, index: Int, in list: () -> String) throws(DecodeError) -> HAPService? {
        let offset = reader.baseOffset + position
        func path() -> String { JSONPointer.appending(index, to: list()) }
        guard next(bytes, position) == UInt8(ascii: "{") else {
            try skipNonObject(bytes, &position, .malformedService, "a service", path: path)
            return nil
        }
        let first = recorder.diagnostics.count
        let characteristics = try readMembers(bytes, &position, decoding: "characteristics") {
            (this: inout Self, position: inout Int) throws(DecodeError) in
            try this.readElements(bytes, &position, path: { JSONPointer.appending("characteristics", to: path()) }, { (this: inout Self, bytes, position: inout Int, index, list) throws(DecodeError) in
                try this.readCharacteristic(bytes, &position, index: index, in: list)
            })
        }
        defer { reader.closeCallersContainer() }
        let last = recorder.diagnostics.count
        guard var service = HAPService(members: reader.openMembers, offset: offset, sourceIndex: index, path: path(), aid: nil,
                                       hasCharacteristics: characteristics != nil, recorder: &recorder) else {
            recorder.diagnostics.removeSubrange(first ..< last)
            return nil
        }
        service.characteristics = characteristics ?? []
        return service
    }

    private mutating func readCharacteristic(
        _ bytes: RawSpan, _ position: inout Int, index: Int, in list: () -> String
    ) throws(DecodeError) -> HAPCharacteristic? {
        let offset = reader.baseOffset + position
        func path() -> String { JSONPointer.appending(index, to: list()) }
        guard next(bytes, position) == UInt8(ascii: "{") else {
            try skipNonObject(bytes, &position, .malformedCharacteristic, "a characteristic", path: path)
            return nil
        }
        // No member is an array this reader decodes itself (not even one named "", which a
        // sentinel key once took for one, leaving its array unread).
        _ = try readMembers(bytes, &position, decoding: nil) { (_: inout Self, _: inout Int) throws(DecodeError) in }
        defer { reader.closeCallersContainer() }
        return HAPCharacteristic(members: reader.openMembers, offset: offset, sourceIndex: index, path: path(), aid: nil,
                                 binaryValues: binaryValues, recorder: &recorder)
    }
}

extension DiagnosticRecorder {
    /// Records a diagnostic about the value at `offset`.
    mutating func record(
        _ code: HAPJSONDiagnostic.Code, _ severity: HAPJSONDiagnostic.Severity, at offset: Int,
        path: @autoclosure () -> String, _ message: String, aid: UInt64? = nil, iid: UInt64? = nil
    ) {
        diagnostics.append(HAPJSONDiagnostic(code, severity, path: path(), offset: offset, message: message, aid: aid, iid: iid))
    }
}
