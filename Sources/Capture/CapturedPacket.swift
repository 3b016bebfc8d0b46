import CPcap
import Packets

/// One packet as a capture source hands it out.
///
/// `bytes` points into libpcap's buffer and is valid only until the source reads the next
/// packet (or is released): copy what must live longer.
public struct CapturedPacket {
    public var info: PacketInfo
    /// The captured bytes, `info.capturedLength` of them, link-layer header first.
    public var bytes: UnsafeRawBufferPointer
    public var linkType: LinkType
    /// Which of the reader's files the packet came from (an index into
    /// `CaptureFileReader.files`); 0 for a live capture.
    public var fileIndex: Int

    public init(info: PacketInfo, bytes: UnsafeRawBufferPointer, linkType: LinkType, fileIndex: Int) {
        self.info = info
        self.bytes = bytes
        self.linkType = linkType
        self.fileIndex = fileIndex
    }
}

extension CapturedPacket {
    /// The packet `pcap_next_ex` handed out: its header and `header.caplen` bytes at `data`.
    init(
        header: UnsafePointer<pcap_pkthdr>, data: UnsafePointer<UInt8>, number: Int, hasNanosecondTimestamps: Bool,
        linkType: LinkType, fileIndex: Int
    ) {
        let capturedLength = Int(header.pointee.caplen)
        let timestamp = Timestamp(
            pcapSeconds: header.pointee.ts.tv_sec, fraction: header.pointee.ts.tv_usec, isNanoseconds: hasNanosecondTimestamps)
        self.init(
            info: PacketInfo(
                number: number, timestamp: timestamp, capturedLength: capturedLength, originalLength: Int(header.pointee.len)),
            bytes: UnsafeRawBufferPointer(start: data, count: capturedLength), linkType: linkType, fileIndex: fileIndex)
    }
}
