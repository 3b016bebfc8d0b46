import Reports
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a report to standard output or a file, through a buffer.
///
/// A report for a pipe or a file leaves in 64 KiB writes; one that a person watches (a
/// terminal, `live`) leaves after every record, so each event shows as it happens.
final class FileOutput: ReportOutput {
    let name: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let flushesEveryRecord: Bool
    private var buffer: [UInt8] = []
    /// The first write error; the command reports it when it ends.
    private(set) var failure: String?

    private static let bufferSize = 65_536

    /// Standard output.
    convenience init(flushesEveryRecord: Bool) {
        self.init(descriptor: STDOUT_FILENO, name: "standard output", flushesEveryRecord: flushesEveryRecord)
    }

    /// Standard error: for what must not mix with data written to standard output.
    static var standardError: FileOutput {
        FileOutput(descriptor: STDERR_FILENO, name: "standard error", flushesEveryRecord: true)
    }

    private init(descriptor: Int32, name: String, flushesEveryRecord: Bool) {
        self.name = name
        self.descriptor = descriptor
        ownsDescriptor = false
        self.flushesEveryRecord = flushesEveryRecord
        buffer.reserveCapacity(Self.bufferSize)
    }

    /// `path`, created or truncated.
    init(path: String, flushesEveryRecord: Bool) throws(CommandFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CommandFailure("\(path): cannot write: \(SystemInterface.errorText(errno))")
        }
        name = path
        self.descriptor = descriptor
        ownsDescriptor = true
        self.flushesEveryRecord = flushesEveryRecord
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit {
        flush()
        if ownsDescriptor { close(descriptor) }
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.bufferSize { flush() }
    }

    func endOfRecord() {
        if flushesEveryRecord { flush() }
    }

    func flush() {
        var written = 0
        while written < buffer.count, failure == nil {
            let count = buffer.withUnsafeBytes { bytes in
                systemWrite(descriptor, bytes.baseAddress! + written, bytes.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                failure = "\(name): cannot write: \(SystemInterface.errorText(errno))"
            } else {
                written += count
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// One line on standard error, unbuffered: errors, warnings and the progress bar.
enum StandardError {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeMutableBytes { systemWrite(STDERR_FILENO, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }

    static func line(_ text: String) {
        write(text + "\n")
    }
}

/// write(2), named apart from the `write` methods of the types above.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

extension FileOutput {
    /// Writes help or version text to standard output at once.
    static func writeToStandardOutput(_ text: String) {
        let output = FileOutput(flushesEveryRecord: true)
        output.write(text)
        output.flush()
    }
}
