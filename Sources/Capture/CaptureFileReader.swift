import CPcap
import Packets
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads pcap and pcapng files, one after another, as one packet sequence; btsnoop and
/// PacketLogger files among them (told apart by `CaptureFormat`) are read by their own readers
/// as frames of a Bluetooth link type.
///
/// Packets are numbered from 1 across all files in order, as Wireshark numbers frames when
/// files are merged by concatenation, and each knows which file it came from. Timestamps keep
/// nanoseconds when the file has them. `-` reads standard input.
///
/// With a filter, libpcap drops non-matching packets before the reader sees them, so packet
/// numbers then count the packets that passed the filter, not the packets in the file.
///
/// ```swift
/// let reader = try CaptureFileReader(files: ["a.pcapng", "b.pcap"], filter: "tcp port 51826")
/// while let packet = try reader.next() { … }
/// ```
///
/// Errors about one file (damage, a bad magic number, an unsupported link type, a filter
/// that does not compile for its link type) are thrown by `next()` after that file's good
/// packets; calling `next()` again continues with the following file. Errors about the first
/// file, and missing files, are thrown by `init`.
public final class CaptureFileReader {
    /// The files, as given; `-` is standard input.
    public let files: [String]
    public let filter: String?
    /// Whether a file whose link type `PacketDecoder` cannot decode is refused before its
    /// first packet, with one `CaptureError.unsupportedLinkType` for the whole file.
    public let requiresDecodableLinkType: Bool
    /// Packets delivered so far, over all files.
    public private(set) var packetsRead = 0

    /// The sizes of the regular files, nil for standard input or another non-regular file.
    private let fileSizes: [Int?]
    private let standardInput: Int32
    private var nextFileIndex = 0
    /// Owns the file being read.
    private var currentHandle: PcapHandle?
    /// The file being read, in plain values: the per-packet path reads these rather than the
    /// handle, so that it touches no reference count.
    private var current: OpenFile?
    /// Bytes of the files finished so far, for `progress`.
    private var finishedBytes = 0
    /// The btsnoop or PacketLogger file being read, with its index, instead of `current`.
    private var currentBluetooth: (reader: BluetoothFileReader, index: Int)?

    /// The readers of hapscope's own for the Bluetooth formats libpcap does not read.
    private enum BluetoothFileReader {
        case btsnoop(BTSnoopFileReader)
        case packetLogger(PacketLoggerFileReader)

        func next() throws(CaptureError) -> CapturedPacket? {
            switch self {
            case .btsnoop(let reader): try reader.next()
            case .packetLogger(let reader): try reader.next()
            }
        }

        var linkType: LinkType {
            switch self {
            case .btsnoop(let reader): reader.linkType
            case .packetLogger(let reader): reader.linkType
            }
        }
    }

    private struct OpenFile {
        let pointer: OpaquePointer
        let stream: CFile.Stream
        let index: Int
        let linkType: LinkType
        let hasNanosecondTimestamps: Bool
        var packetsRead = 0
    }

    /// Opens the first file and checks that the others exist.
    ///
    /// - Parameters:
    ///   - files: paths in reading order; `-` reads standard input (at most once).
    ///   - filter: a BPF expression in libpcap's syntax (`pcap-filter(7)`), compiled for each
    ///     file's link type.
    ///   - requiresDecodableLinkType: refuse files the analysis cannot decode (the default):
    ///     neither `PacketDecoder` nor HAP over Bluetooth LE; pass false to read any link type.
    public convenience init(files: [String], filter: String? = nil, requiresDecodableLinkType: Bool = true) throws(CaptureError) {
        try self.init(
            files: files, filter: filter, requiresDecodableLinkType: requiresDecodableLinkType,
            standardInput: CFile.standardInput)
    }

    /// As the public initializer, reading `-` from a duplicate of `standardInput`.
    init(files: [String], filter: String?, requiresDecodableLinkType: Bool, standardInput: Int32) throws(CaptureError) {
        self.files = files
        self.filter = filter
        self.requiresDecodableLinkType = requiresDecodableLinkType
        self.standardInput = standardInput
        var sizes: [Int?] = []
        var readsStandardInput = false
        for file in files {
            if file == "-" {
                guard !readsStandardInput else {
                    throw .unreadableFile(file: file, reason: "standard input can be read only once")
                }
                readsStandardInput = true
                sizes.append(nil)
                continue
            }
            switch CFile.size(of: file) {
            case .success(let size): sizes.append(size)
            case .failure(let failure) where failure.isFileNotFound: throw .fileNotFound(file: file)
            case .failure(let failure): throw .unreadableFile(file: file, reason: failure.description)
            }
        }
        fileSizes = sizes
        if !files.isEmpty { try openNextFile() }
    }

    /// The next packet, or nil after the last one of the last file.
    ///
    /// The packet's bytes are valid until the next call. Never allocates on the way.
    public func next() throws(CaptureError) -> CapturedPacket? {
        while true {
            if let bluetooth = currentBluetooth {
                let packet: CapturedPacket?
                do {
                    packet = try bluetooth.reader.next()
                } catch {
                    finishedBytes += fileSizes[bluetooth.index] ?? 0
                    currentBluetooth = nil
                    throw error
                }
                guard var packet else {
                    finishedBytes += fileSizes[bluetooth.index] ?? 0
                    currentBluetooth = nil
                    continue
                }
                packetsRead += 1
                packet.fileIndex = bluetooth.index
                return packet
            }
            guard let file = current else {
                guard nextFileIndex < files.count else { return nil }
                try openNextFile()
                continue
            }
            var header: UnsafeMutablePointer<pcap_pkthdr>?
            var data: UnsafePointer<UInt8>?
            let status = pcap_next_ex(file.pointer, &header, &data)
            if status == 1, let header, let data {
                packetsRead += 1
                current?.packetsRead += 1
                return CapturedPacket(
                    header: header, data: data, number: packetsRead, hasNanosecondTimestamps: file.hasNanosecondTimestamps,
                    linkType: file.linkType, fileIndex: file.index)
            }
            let offset = CFile.position(of: file.stream)
            let reason = currentHandle?.errorText ?? ""
            finishedBytes += fileSizes[file.index] ?? 0
            current = nil
            currentHandle = nil
            if status != PCAP_ERROR_BREAK {
                // -1: libpcap met a short or corrupt record. It never times out on a file (0).
                throw .damagedFile(file: files[file.index], offset: offset, packetsRead: file.packetsRead, reason: reason)
            }
        }
    }

    /// How far reading has come, in bytes of the files.
    public var progress: CaptureProgress {
        let currentPosition = current.flatMap { CFile.position(of: $0.stream) } ?? 0
        let total = fileSizes.contains(nil) ? nil : fileSizes.reduce(0) { $0 + ($1 ?? 0) }
        return CaptureProgress(bytesRead: finishedBytes + currentPosition, totalBytes: total)
    }

    /// The link type of the file being read, nil between files and after the last.
    public var currentLinkType: LinkType? { current?.linkType ?? currentBluetooth?.reader.linkType }

    private func openNextFile() throws(CaptureError) {
        let index = nextFileIndex
        nextFileIndex += 1
        let path = files[index]
        if path != "-", let bluetooth = try openBluetoothFile(path) {
            currentBluetooth = (bluetooth, index)
            return
        }
        let stream: CFile.Stream
        switch CFile.openForReading(path, standardInput: standardInput) {
        case .success(let opened): stream = opened
        case .failure(let failure) where failure.isFileNotFound: throw .fileNotFound(file: path)
        case .failure(let failure): throw .unreadableFile(file: path, reason: failure.description)
        }
        switch CFile.kind(of: stream) {
        case .directory:
            fclose(stream)
            throw .unreadableFile(file: path, reason: "it is a directory")
        case .regular(size: 0):
            fclose(stream)
            throw .notACaptureFile(file: path, reason: "the file is empty")
        case .regular, .other:
            break
        }

        let (opened, reason) = PcapHandle.withErrorBuffer { errorBuffer in
            pcap_fopen_offline_with_tstamp_precision(stream, UInt32(PCAP_TSTAMP_PRECISION_NANO), errorBuffer)
        }
        guard let pointer = opened else {
            let offset = CFile.position(of: stream)
            fclose(stream)
            // libpcap's words (savefile.c) when no reader recognises the magic number, and when
            // not even a magic number could be read: an empty pipe.
            if reason == "unknown file format" {
                throw .notACaptureFile(file: path, reason: "no pcap or pcapng magic number")
            }
            if reason.hasSuffix("tried to read 4 file header bytes, only got 0") {
                throw .notACaptureFile(file: path, reason: "the input is empty")
            }
            throw .damagedFile(file: path, offset: offset, packetsRead: 0, reason: reason)
        }
        // From here libpcap owns the stream: pcap_close closes it.
        let handle = PcapHandle(pointer)
        let linkType = handle.linkType
        if requiresDecodableLinkType && !linkType.isDecodable && !linkType.isBluetoothHCI {
            throw .unsupportedLinkType(file: path, linkType: linkType)
        }
        if let filter { try handle.setFilter(filter) }
        currentHandle = handle
        current = OpenFile(
            pointer: pointer, stream: stream, index: index, linkType: linkType,
            hasNanosecondTimestamps: handle.hasNanosecondTimestamps)
    }

    /// A btsnoop or PacketLogger file's reader, numbering its packets on from the files before;
    /// nil for any other file (libpcap's to read or refuse). A capture filter is compiled by
    /// libpcap, so it cannot be applied to these.
    private func openBluetoothFile(_ path: String) throws(CaptureError) -> BluetoothFileReader? {
        let format = try? CaptureFormat.detect(file: path)
        guard format == .btsnoop || format == .packetLogger else { return nil }
        if filter != nil {
            throw .unreadableFile(file: path, reason: "a capture filter (-f) cannot be applied to a \(format == .btsnoop ? "btsnoop" : "PacketLogger") file")
        }
        if format == .btsnoop { return .btsnoop(try BTSnoopFileReader(file: path, firstPacketNumber: packetsRead + 1)) }
        return .packetLogger(try PacketLoggerFileReader(file: path, firstPacketNumber: packetsRead + 1))
    }
}

/// How much of the input has been read, for a progress bar.
public struct CaptureProgress: Hashable, Sendable {
    /// Bytes of the files read so far (standard input does not count).
    public var bytesRead: Int
    /// The files' total size; nil when one of them is standard input or another pipe.
    public var totalBytes: Int?

    public init(bytesRead: Int, totalBytes: Int?) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
    }

    /// Between 0 and 1, when the total is known.
    public var fractionCompleted: Double? {
        guard let totalBytes else { return nil }
        return totalBytes == 0 ? 1 : min(1, Double(bytesRead) / Double(totalBytes))
    }
}
