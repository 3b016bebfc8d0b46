import CPcap
import Packets
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes packets to a pcap file (`pcap_open_dead_with_tstamp_precision`, `pcap_dump_fopen`).
///
/// ```swift
/// let writer = try PcapWriter(file: "out.pcap", linkType: .ethernet)
/// frame.withUnsafeBytes { writer.write($0, timestamp: time) }
/// try writer.close()
/// ```
///
/// `write` buffers and cannot fail on its own: a write error (a full disk) surfaces from
/// `flush()` or `close()`. The pcap format stores seconds in 32 bits, so times outside
/// 1970–2106 do not survive the trip.
public final class PcapWriter {
    /// How finely the file records time: nanosecond files use the magic number 0xA1B23C4D.
    public enum TimestampPrecision: Hashable, Sendable {
        case microseconds
        case nanoseconds
    }

    /// The path as given; `-` is standard output.
    public let file: String
    public let linkType: LinkType
    /// Bytes kept of each packet; longer packets are cut, their original length kept.
    public let snapLength: Int
    public let precision: TimestampPrecision

    private var dumper: OpaquePointer?

    /// Creates (or truncates) `file` and writes the file header.
    ///
    /// - Parameters:
    ///   - file: the path; `-` writes to standard output, which stays open after `close()`.
    ///   - snapLength: between 1 and 2³¹ − 1.
    public convenience init(
        file: String, linkType: LinkType, snapLength: Int = 262_144, precision: TimestampPrecision = .nanoseconds
    ) throws(CaptureError) {
        try self.init(
            file: file, linkType: linkType, snapLength: snapLength, precision: precision, standardOutput: CFile.standardOutput)
    }

    /// As the public initializer, writing `-` to a duplicate of `standardOutput`.
    init(
        file: String, linkType: LinkType, snapLength: Int, precision: TimestampPrecision, standardOutput: Int32
    ) throws(CaptureError) {
        guard (1 ... Int(Int32.max)).contains(snapLength) else {
            throw .writeFailed(file: file, reason: "a snap length between 1 and \(Int32.max) is needed, not \(snapLength)")
        }
        let precisionCode = precision == .nanoseconds ? PCAP_TSTAMP_PRECISION_NANO : PCAP_TSTAMP_PRECISION_MICRO
        guard
            let pointer = pcap_open_dead_with_tstamp_precision(
                Int32(bitPattern: linkType.rawValue), Int32(snapLength), UInt32(precisionCode))
        else {
            throw .writeFailed(file: file, reason: "libpcap could not create a handle for \(linkType)")
        }
        // The dumper needs the handle only to write the file header.
        let handle = PcapHandle(pointer)
        let stream: CFile.Stream
        switch CFile.openForWriting(file, standardOutput: standardOutput) {
        case .success(let opened): stream = opened
        case .failure(let failure): throw .writeFailed(file: file, reason: failure.description)
        }
        guard let dumper = pcap_dump_fopen(pointer, stream) else {
            let reason = handle.errorText
            fclose(stream)
            throw .writeFailed(file: file, reason: reason)
        }
        self.file = file
        self.linkType = linkType
        self.snapLength = snapLength
        self.precision = precision
        self.dumper = dumper
    }

    deinit {
        if let dumper { pcap_dump_close(dumper) }
    }

    /// Appends one packet.
    ///
    /// - Parameters:
    ///   - packet: the frame, link-layer header first; cut to the snap length.
    ///   - originalLength: the length the packet had on the wire; by default, and at least,
    ///     the number of bytes given.
    /// Does nothing after `close()`.
    public func write(_ packet: UnsafeRawBufferPointer, timestamp: Timestamp, originalLength: Int? = nil) {
        guard let dumper else { return }
        let capturedLength = min(packet.count, snapLength)
        var header = pcap_pkthdr()
        header.ts.tv_sec = Int(truncatingIfNeeded: timestamp.seconds)
        header.ts.tv_usec = Int(precision == .nanoseconds ? timestamp.nanoseconds : timestamp.nanoseconds / 1_000)
        header.caplen = UInt32(capturedLength)
        header.len = UInt32(clamping: max(originalLength ?? packet.count, capturedLength))
        let bytes = packet.baseAddress?.assumingMemoryBound(to: UInt8.self)
        withUnsafePointer(to: &header) { header in
            // libpcap's callback signature takes the dumper as its user pointer.
            pcap_dump(UnsafeMutableRawPointer(dumper).assumingMemoryBound(to: UInt8.self), header, bytes)
        }
    }

    /// Writes buffered packets out (`pcap_dump_flush`).
    public func flush() throws(CaptureError) {
        guard let dumper else { return }
        guard pcap_dump_flush(dumper) == 0, ferror(pcap_dump_file(dumper)) == 0 else {
            throw .writeFailed(file: file, reason: CFile.Failure(code: errno).description)
        }
    }

    /// Flushes and closes the file; later writes are ignored. Reports a write error the
    /// buffered packets met.
    public func close() throws(CaptureError) {
        guard let dumper else { return }
        defer {
            pcap_dump_close(dumper)
            self.dumper = nil
        }
        try flush()
    }
}
