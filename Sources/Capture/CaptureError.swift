import Packets

/// Why capturing, reading or writing packets failed.
///
/// File errors name the file as the user gave it (`-` is shown as "standard input"). A
/// damaged file still delivers the packets before the damage; the error then says where
/// reading stopped.
public enum CaptureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file does not exist.
    case fileNotFound(file: String)
    /// The file exists but cannot be read: permissions, a directory, an I/O error.
    case unreadableFile(file: String, reason: String)
    /// The file is not a pcap or pcapng capture: it is empty, or it starts with no known
    /// magic number.
    case notACaptureFile(file: String, reason: String)
    /// The file ended inside a record or holds a corrupt one. `offset` is the byte offset in
    /// the file where libpcap stopped reading (unknown for a pipe); `packetsRead` counts the
    /// packets this file delivered before.
    case damagedFile(file: String, offset: Int?, packetsRead: Int, reason: String)
    /// The file's link type is one `PacketDecoder` cannot decode.
    case unsupportedLinkType(file: String, linkType: LinkType)
    /// libpcap could not compile the filter expression; `reason` is libpcap's text.
    case invalidFilter(expression: String, reason: String)
    /// The process may not capture on the interface (PCAP_ERROR_PERM_DENIED, or
    /// PCAP_ERROR_PROMISC_PERM_DENIED for promiscuous mode).
    case permissionDenied(interface: String, reason: String)
    /// There is no interface of that name (PCAP_ERROR_NO_SUCH_DEVICE).
    case noSuchDevice(interface: String, reason: String)
    /// The interface is down (PCAP_ERROR_IFACE_NOT_UP).
    case interfaceNotUp(interface: String)
    /// Any other failure to open or read an interface; `reason` is libpcap's text.
    case liveCaptureFailed(interface: String, reason: String)
    /// A capture file could not be created or written.
    case writeFailed(file: String, reason: String)

    public var description: String {
        switch self {
        case .fileNotFound(let file):
            "\(Self.displayName(file)): no such file"
        case .unreadableFile(let file, let reason):
            "\(Self.displayName(file)): cannot read: \(reason)"
        case .notACaptureFile(let file, let reason):
            "\(Self.displayName(file)): not a pcap or pcapng capture file (\(reason))"
        case .damagedFile(let file, let offset, let packetsRead, let reason):
            "\(Self.displayName(file)): damaged\(offset.map { " at byte \($0)" } ?? "") after \(packetsRead) packet\(packetsRead == 1 ? "" : "s"): \(reason)"
        case .unsupportedLinkType(let file, let linkType):
            "\(Self.displayName(file)): \(linkType) is not supported"
        case .invalidFilter(let expression, let reason):
            "invalid capture filter \"\(expression)\": \(reason)"
        case .permissionDenied(let interface, let reason):
            "permission denied: run as root or grant CAP_NET_RAW and CAP_NET_ADMIN (capturing on \(interface): \(reason))"
        case .noSuchDevice(let interface, let reason):
            "no such capture interface \"\(interface)\": \(reason)"
        case .interfaceNotUp(let interface):
            "capture interface \"\(interface)\" is not up"
        case .liveCaptureFailed(let interface, let reason) where interface.hasPrefix("bluetooth") && reason.contains("Address family not supported"):
            // libpcap opens bluetooth0 and bluetooth-monitor with socket(AF_BLUETOOTH, …), which
            // fails with EAFNOSUPPORT on a kernel without Bluetooth (a container, a VM).
            "capturing on \(interface) failed: \(reason) (this kernel has no Bluetooth sockets: load its bluetooth module, "
                + "or record elsewhere with btmon -w FILE or tcpdump -i \(interface) -w FILE and read the file)"
        case .liveCaptureFailed(let interface, let reason):
            "capturing on \(interface) failed: \(reason)"
        case .writeFailed(let file, let reason):
            "\(file == "-" ? "standard output" : file): cannot write: \(reason)"
        }
    }

    static func displayName(_ file: String) -> String {
        file == "-" ? "standard input" : file
    }
}

extension CaptureError {
    /// A path's last component, as reports and events name files so that what they show of an
    /// input does not depend on where it lives; `-` stays `-`.
    public static func fileName(_ path: String) -> String {
        guard path != "-", let slash = path.lastIndex(of: "/") else { return path }
        let name = path[path.index(after: slash)...]
        return name.isEmpty ? path : String(name)
    }

    /// The same error with file paths reduced to file names.
    public var withFileNamesShortened: CaptureError {
        switch self {
        case .fileNotFound(let file): .fileNotFound(file: Self.fileName(file))
        case .unreadableFile(let file, let reason): .unreadableFile(file: Self.fileName(file), reason: reason)
        case .notACaptureFile(let file, let reason): .notACaptureFile(file: Self.fileName(file), reason: reason)
        case .damagedFile(let file, let offset, let packetsRead, let reason):
            .damagedFile(file: Self.fileName(file), offset: offset, packetsRead: packetsRead, reason: reason)
        case .unsupportedLinkType(let file, let linkType): .unsupportedLinkType(file: Self.fileName(file), linkType: linkType)
        case .writeFailed(let file, let reason): .writeFailed(file: Self.fileName(file), reason: reason)
        case .invalidFilter, .permissionDenied, .noSuchDevice, .interfaceNotUp, .liveCaptureFailed: self
        }
    }
}
