#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few things `hapscope` asks of the operating system besides capturing: environment
/// variables, whether a descriptor is a terminal, and whole files.
enum SystemInterface {
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The processors online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1: `--jobs`' default.
    static var availableCores: Int {
        max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The last path component, so that outputs do not depend on where the input lives.
    static func baseName(_ path: String) -> String {
        guard path != "-", let slash = path.lastIndex(of: "/") else { return path }
        let name = path[path.index(after: slash)...]
        return name.isEmpty ? path : String(name)
    }

    /// The text of `errno` for `code`.
    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Reads a whole file (`-` is standard input), refusing one larger than `limit` bytes so a
    /// mistaken argument cannot exhaust memory.
    static func readFile(_ path: String, limit: Int) throws(CommandFailure) -> [UInt8] {
        let name = path == "-" ? "standard input" : path
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandFailure(errno == ENOENT ? "\(name): no such file" : "\(name): cannot read: \(errorText(errno))")
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandFailure(errno == EISDIR ? "\(name): cannot read: it is a directory" : "\(name): cannot read: \(errorText(errno))")
            }
            guard bytes.count + count <= limit else {
                throw CommandFailure("\(name): larger than \(limit) bytes; not read")
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Whether anything (file, directory, device) exists at `path`.
    /// The path with symbolic links and `.`/`..` resolved, so that two spellings of one file
    /// compare equal; the path itself when it does not resolve.
    static func canonicalPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func fileExists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The first bytes of a regular file, for telling a JSON dump from a capture; nil when the
    /// file cannot be opened (the reader that follows names the problem).
    static func firstBytes(of path: String, count: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        let received = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return received < 0 ? nil : Array(bytes.prefix(received))
    }
}
