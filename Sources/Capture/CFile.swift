#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C standard I/O calls the capture types need, kept in one place.
enum CFile {
    typealias Stream = UnsafeMutablePointer<FILE>

    /// A failed call's `errno`.
    struct Failure: Error {
        let code: Int32
        var isFileNotFound: Bool { code == ENOENT }
        var description: String { String(cString: strerror(code)) }
    }

    static let standardInput = STDIN_FILENO
    static let standardOutput = STDOUT_FILENO

    /// Opens `path` for reading, or a duplicate of `descriptor` when `path` is `-`, so that
    /// closing the stream leaves the process's own standard input open.
    static func openForReading(_ path: String, standardInput descriptor: Int32) -> Result<Stream, Failure> {
        path == "-" ? openDuplicate(of: descriptor, mode: "rb") : open(path, mode: "rb")
    }

    /// Creates or truncates `path` for writing, or duplicates `descriptor` when `path` is `-`.
    static func openForWriting(_ path: String, standardOutput descriptor: Int32) -> Result<Stream, Failure> {
        path == "-" ? openDuplicate(of: descriptor, mode: "wb") : open(path, mode: "wb")
    }

    private static func open(_ path: String, mode: String) -> Result<Stream, Failure> {
        guard let stream = fopen(path, mode) else { return .failure(Failure(code: errno)) }
        return .success(stream)
    }

    private static func openDuplicate(of descriptor: Int32, mode: String) -> Result<Stream, Failure> {
        let duplicate = dup(descriptor)
        guard duplicate >= 0 else { return .failure(Failure(code: errno)) }
        guard let stream = fdopen(duplicate, mode) else {
            let failure = Failure(code: errno)
            close(duplicate)
            return .failure(failure)
        }
        return .success(stream)
    }

    /// What kind of file a stream reads, and its size when it is a regular file.
    enum Kind {
        case regular(size: Int)
        case directory
        case other
    }

    static func kind(of stream: Stream) -> Kind {
        var status = stat()
        guard fstat(fileno(stream), &status) == 0 else { return .other }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int(status.st_size))
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// The size of the regular file at `path`, nil for anything else; `errno` on failure.
    static func size(of path: String) -> Result<Int?, Failure> {
        var status = stat()
        guard stat(path, &status) == 0 else { return .failure(Failure(code: errno)) }
        return .success(status.st_mode & S_IFMT == S_IFREG ? Int(status.st_size) : nil)
    }

    /// The stream's position, nil when it has none (a pipe).
    static func position(of stream: Stream) -> Int? {
        let position = ftell(stream)
        return position >= 0 ? position : nil
    }
}
