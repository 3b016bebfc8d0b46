#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of one capture file for the readers that do not go through libpcap (btsnoop,
/// PacketLogger): a file descriptor the source owns, or bytes in memory (tests, fuzzing).
final class CaptureByteSource {
    /// The file as the user named it, for errors.
    let name: String
    /// Bytes consumed so far: the offset errors report.
    private(set) var offset = 0
    private let descriptor: Int32
    private let memory: [UInt8]

    /// Opens `path` for reading; `-` reads a duplicate of standard input.
    init(file path: String) throws(CaptureError) {
        name = path
        memory = []
        let opened = path == "-" ? dup(CFile.standardInput) : open(path, O_RDONLY)
        guard opened >= 0 else {
            let code = errno
            if code == ENOENT { throw .fileNotFound(file: path) }
            throw .unreadableFile(file: path, reason: String(cString: strerror(code)))
        }
        var status = stat()
        if fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            close(opened)
            throw .unreadableFile(file: path, reason: "it is a directory")
        }
        descriptor = opened
    }

    init(bytes: [UInt8], name: String) {
        self.name = name
        memory = bytes
        descriptor = -1
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Reads up to `count` bytes into `buffer`, fewer only at the end of the file.
    func fill(_ buffer: UnsafeMutableRawPointer, count: Int) throws(CaptureError) -> Int {
        var total = 0
        if descriptor < 0 {
            total = min(count, memory.count - offset)
            guard total > 0 else { return 0 }
            memory.withUnsafeBytes { source in
                buffer.copyMemory(from: source.baseAddress! + offset, byteCount: total)
            }
        } else {
            while total < count {
                let result = read(descriptor, buffer + total, count - total)
                if result == 0 { break }
                if result < 0 {
                    if errno == EINTR { continue }
                    throw .unreadableFile(file: name, reason: String(cString: strerror(errno)))
                }
                total += result
            }
        }
        offset += total
        return total
    }
}
