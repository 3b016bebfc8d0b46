/// Writes TLV8 items into a caller's buffer.
///
/// HAP: TLV8 fragmentation — a value longer than 255 bytes goes out as consecutive items of
/// the same type, every fragment but the last exactly 255 bytes; a value of 255·n bytes is n
/// full fragments with no empty trailer (HomeKitADK `HAPTLVWriter`, HAP-NodeJS). An empty
/// value is one zero-length item.
public enum TLV8Encoder {
    /// The bytes one item takes, headers included, for a value of `valueLength` bytes.
    public static func encodedByteCount(valueLength: Int) -> Int {
        let fragmentCount = max(1, valueLength / 255 + (valueLength % 255 == 0 ? 0 : 1))
        return valueLength + 2 * fragmentCount
    }

    /// Appends one item to `output`, or throws, writing nothing, when fewer than
    /// `encodedByteCount(valueLength:)` bytes are free.
    public static func append(
        _ type: TLV8Type, value: RawSpan, to output: inout OutputSpan<UInt8>
    ) throws(TLV8EncodingError) {
        let required = encodedByteCount(valueLength: value.byteCount)
        guard required <= output.freeCapacity else {
            throw TLV8EncodingError(requiredCapacity: required, freeCapacity: output.freeCapacity)
        }
        appendFragments(type, value: value, to: &output)
    }

    /// Appends one item; the caller has checked that `output` has room for it.
    static func appendFragments(_ type: TLV8Type, value: RawSpan, to output: inout OutputSpan<UInt8>) {
        var remaining = value
        repeat {
            let length = min(remaining.byteCount, 255)
            output.append(type.rawValue)
            output.append(UInt8(length))
            let fragment = remaining.extracting(first: length)
            output.withUnsafeMutableBufferPointer { buffer, initializedCount in
                fragment.withUnsafeBytes { source in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[initializedCount ..< initializedCount + length])
                        .initialize(fromContentsOf: source)
                }
                initializedCount += length
            }
            remaining = remaining.extracting(droppingFirst: length)
        } while remaining.byteCount > 0
    }
}

/// The caller's buffer was too small for the item.
public struct TLV8EncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes the item needs.
    public var requiredCapacity: Int
    /// The bytes that were free.
    public var freeCapacity: Int

    public init(requiredCapacity: Int, freeCapacity: Int) {
        self.requiredCapacity = requiredCapacity
        self.freeCapacity = freeCapacity
    }

    public var description: String {
        "TLV8 item needs \(requiredCapacity) bytes, \(freeCapacity) free"
    }
}

/// Builds a TLV8 body in a growing array: how tests and the capture generator make real
/// pairing bodies.
public struct TLV8Writer: Sendable {
    /// The body so far.
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// Appends one item, fragmenting the value as HAP requires.
    public mutating func append(_ type: TLV8Type, _ value: RawSpan) {
        bytes.append(addingCapacity: TLV8Encoder.encodedByteCount(valueLength: value.byteCount)) { output in
            TLV8Encoder.appendFragments(type, value: value, to: &output)
        }
    }

    public mutating func append(_ type: TLV8Type, _ value: [UInt8]) {
        append(type, value.span.bytes)
    }

    /// Appends an unsigned integer item, little-endian in as few bytes as hold it (HAP: TLV8
    /// integers) but at least `minimumByteCount` (0 writes an empty item for 0).
    public mutating func append(_ type: TLV8Type, integer: UInt64, minimumByteCount: Int = 1) {
        let significantBytes = (64 - integer.leadingZeroBitCount + 7) / 8
        let count = min(max(significantBytes, minimumByteCount), 8)
        withUnsafeBytes(of: integer.littleEndian) { raw in
            append(type, RawSpan(_unsafeBytes: UnsafeRawBufferPointer(rebasing: raw[..<count])))
        }
    }

    /// Appends the zero-length separator that ends one list entry.
    public mutating func appendSeparator() {
        append(.separator, [])
    }
}
