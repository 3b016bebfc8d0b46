/// One field line as sent: name and value with their original case, the value without the
/// whitespace around it.
public struct HTTPHeaderField: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var value: String
    /// The absolute stream offset of the first byte of the name.
    public var offset: Int

    public init(name: String, value: String, offset: Int) {
        self.name = name
        self.value = value
        self.offset = offset
    }

    public var description: String { "\(name): \(value)" }
}

/// The field lines of a header block or a trailer section, in wire order.
///
/// The fields stay in the message's bytes; names and values become strings only when read.
/// Lookups by name ignore case (RFC 9110 §5.1) without building strings.
public struct HTTPHeaders: RandomAccessCollection, Sendable {
    private let storage: [UInt8]
    private let lines: [HTTPFieldLine]
    /// The stream offset of storage index 0, were the block's bytes laid out from there.
    private let offsetOfStorageStart: Int

    /// The field lines of `storage[block]`, a block the parser has accepted.
    init(storage: [UInt8], block: Range<Int>, offsetOfStorageStart: Int) {
        self.storage = storage
        self.offsetOfStorageStart = offsetOfStorageStart
        var lines: [HTTPFieldLine] = []
        storage.withUnsafeBytes { bytes in
            HTTPFieldLine.forEach(in: bytes, block) { line in
                lines.append(line)
                return true
            }
        }
        self.lines = lines
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { lines.count }

    /// The field at `position`, its name and value made into strings.
    public subscript(position: Int) -> HTTPHeaderField {
        let line = lines[position]
        return HTTPHeaderField(
            name: String(decoding: storage[line.name], as: UTF8.self),
            value: String(decoding: storage[line.value], as: UTF8.self),
            offset: offsetOfStorageStart + line.name.lowerBound)
    }

    /// The value of the first field called `name`, in any case; nil when there is none.
    public subscript(name: String) -> String? {
        firstIndex(named: name).map { String(decoding: storage[lines[$0].value], as: UTF8.self) }
    }

    /// The values of every field called `name`, in wire order.
    public func values(named name: String) -> [String] {
        withName(name) { bytes, nameBytes in
            lines.filter { ASCII.equalsIgnoringCase(bytes, $0.name, nameBytes) }
                .map { String(decoding: storage[$0.value], as: UTF8.self) }
        }
    }

    /// Whether a field called `name`, in any case, is present.
    public func contains(named name: String) -> Bool {
        firstIndex(named: name) != nil
    }

    /// The position of the first field called `name`, in any case.
    public func firstIndex(named name: String) -> Int? {
        withName(name) { bytes, nameBytes in
            lines.firstIndex { ASCII.equalsIgnoringCase(bytes, $0.name, nameBytes) }
        }
    }

    /// The value of the field at `position` as bytes of the message, without copying.
    public func valueBytes(at position: Int) -> ArraySlice<UInt8> {
        storage[lines[position].value]
    }

    private func withName<Result>(
        _ name: String, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Result
    ) -> Result {
        var name = name
        return name.withUTF8 { nameBytes in
            storage.withUnsafeBytes { bytes in body(bytes, UnsafeRawBufferPointer(nameBytes)) }
        }
    }
}
