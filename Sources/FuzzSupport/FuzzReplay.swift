#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The plain-executable side of a fuzz target: in a normal build (no `-sanitize=fuzzer`) the
/// target runs its harness over the files and directories named on the command line, which is
/// how a crashing input is reproduced under a debugger and how the regression corpus is
/// replayed without a fuzzer toolchain.
public enum FuzzReplay {
    /// Runs `harness` once per input file; directories are read one level deep, in name order.
    /// Arguments that start with `-` are libFuzzer flags and are ignored, so the script can call
    /// both builds the same way. Exits with status 2 when an input cannot be read.
    public static func main(name: String, harness: (UnsafeRawBufferPointer) -> Void) -> Never {
        let paths = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("-") }
        guard !paths.isEmpty else {
            writeToStandardError("usage: \(name) FILE|DIRECTORY...  (replays each input through the \(name) harness)\n")
            exit(2)
        }
        var inputs = 0
        for path in paths {
            for file in files(at: path) {
                guard let bytes = readFile(file) else {
                    writeToStandardError("\(name): cannot read \(file)\n")
                    exit(2)
                }
                bytes.withUnsafeBytes(harness)
                inputs += 1
            }
        }
        print("\(name): replayed \(inputs) input\(inputs == 1 ? "" : "s") without a failure")
        exit(0)
    }

    /// The regular files of a directory, sorted; a file path is itself.
    private static func files(at path: String) -> [String] {
        guard let directory = opendir(path) else { return [path] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix(".") else { continue }
            names.append(path + "/" + name)
        }
        return names.sorted().filter { isRegularFile($0) }
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}

/// The bytes of the file at `path`; nil when it cannot be read.
public func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        bytes += buffer[..<count]
        if count < buffer.count { return ferror(file) == 0 ? bytes : nil }
    }
}

/// Writes to file descriptor 2 directly: the C `stderr` global is shared mutable state to Swift 6.
public func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
        var written = 0
        while written < utf8.count {
            let result = write(2, utf8.baseAddress! + written, utf8.count - written)
            guard result > 0 else { return }
            written += result
        }
    }
}

/// Stops the run when a harness finds the code under test breaking a promise it documents. A
/// failed invariant is a finding, exactly like a crash: libFuzzer saves the input.
@inline(never)
public func fuzzInvariant(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    guard !condition else { return }
    writeToStandardError("fuzz invariant broken at \(file):\(line): \(message())\n")
    abort()
}
