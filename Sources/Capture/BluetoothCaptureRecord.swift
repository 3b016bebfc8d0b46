import Packets

/// What the btsnoop and PacketLogger readers share: a buffer they own, into which each record
/// is rewritten as a frame of LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR (a 4-byte direction, then the
/// H4 packet) or LINKTYPE_BLUETOOTH_LINUX_MONITOR, so that the `Bluetooth` module decodes every
/// input one way.
final class BluetoothFrameBuffer {
    /// Room for the pseudo-header and indicator the readers put in front of a record's data.
    static let headroom = 5

    let capacity: Int
    let storage: UnsafeMutableRawBufferPointer

    init(maximumRecordLength: Int) {
        capacity = maximumRecordLength + Self.headroom
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 8)
    }

    deinit {
        storage.deallocate()
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
