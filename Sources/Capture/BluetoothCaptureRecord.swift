import Packets

/// What the btsnoop and PacketLogger readers share: the file, read one record at a time into a
/// buffer they own, in which each record is rewritten as a frame of
/// LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR (a 4-byte direction, then the H4 packet) or
/// LINKTYPE_BLUETOOTH_LINUX_MONITOR, so that the `Bluetooth` module decodes every input one way;
/// and the end of the file at the first record that cannot be read.
final class BluetoothRecordFile {
    /// Room for the pseudo-header and indicator the readers put in front of a record's data.
    static let headroom = 5

    let maximumRecordLength: Int
    /// Packets handed out, which a damaged file's error counts.
    var packetsRead = 0
    /// Whether the last record has been read, or one that could not be.
    private(set) var ended = false

    private let source: CaptureByteSource
    private let storage: UnsafeMutableRawBufferPointer

    init(source: CaptureByteSource, maximumRecordLength: Int, recordHeaderLength: Int) {
        self.source = source
        self.maximumRecordLength = maximumRecordLength
        storage = UnsafeMutableRawBufferPointer.allocate(
            byteCount: max(maximumRecordLength, recordHeaderLength) + Self.headroom, alignment: 8)
    }

    deinit {
        storage.deallocate()
    }

    /// The file's name, as errors give it.
    var name: String { source.name }

    /// Bytes consumed so far.
    var offset: Int { source.offset }

    /// Reads up to `count` bytes to the front of the buffer: fewer where the file ends.
    func read(upTo count: Int) throws(CaptureError) -> UnsafeRawBufferPointer {
        bytes(count: try source.fill(storage.baseAddress!, count: count))
    }

    /// The next record's header, read to the front of the buffer, or nil where the file ends
    /// between records.
    func recordHeader(length: Int, recordOffset: Int) throws(CaptureError) -> UnsafeRawBufferPointer? {
        let header = try read(upTo: length)
        if header.isEmpty {
            ended = true
            return nil
        }
        guard header.count == length else {
            throw damaged(at: recordOffset, "the file ends inside a \(length)-byte record header (\(header.count) bytes)")
        }
        return header
    }

    /// Rejects a record whose data would not fit the buffer.
    func checkDataLength(_ count: Int, recordOffset: Int) throws(CaptureError) {
        guard count <= maximumRecordLength else {
            throw damaged(at: recordOffset, "a record of at most \(maximumRecordLength) bytes, found \(count)")
        }
    }

    /// Reads a record's `count` bytes of data to `position`, behind the pseudo-header its frame
    /// gets.
    func readData(count: Int, to position: Int, recordOffset: Int) throws(CaptureError) {
        let read = try source.fill(storage.baseAddress! + position, count: count)
        guard read == count else {
            throw damaged(at: recordOffset, "the file ends inside the \(count) bytes of a record (\(read) present)")
        }
    }

    /// Ends the file at the record at `offset`.
    func damaged(at offset: Int, _ reason: String) -> CaptureError {
        ended = true
        return .damagedFile(file: name, offset: offset, packetsRead: packetsRead, reason: reason)
    }

    /// Writes a big-endian word at `offset`.
    func writeBigEndian(_ value: UInt32, at offset: Int) {
        storage.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt32.self)
    }

    func writeBigEndian(_ value: UInt16, at offset: Int) {
        storage.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt16.self)
    }

    func write(_ byte: UInt8, at offset: Int) {
        storage[offset] = byte
    }

    subscript(offset: Int) -> UInt8 {
        storage[offset]
    }

    func bytes(count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: storage[0 ..< count])
    }
}

/// The H4 pseudo-header's direction word (libpcap `pcap/bluetooth.h`): 0 sent by the host, 1 received.
enum H4Direction {
    static let sent: UInt32 = 0
    static let received: UInt32 = 1
}

extension Timestamp {
    /// A timestamp from signed microseconds since the Unix epoch.
    init(unixMicroseconds: Int64) {
        let (seconds, remainder) = unixMicroseconds.quotientAndRemainder(dividingBy: 1_000_000)
        if remainder < 0 {
            self.init(seconds: seconds - 1, nanoseconds: UInt32(remainder + 1_000_000) * 1000)
        } else {
            self.init(seconds: seconds, nanoseconds: UInt32(remainder) * 1000)
        }
    }
}
