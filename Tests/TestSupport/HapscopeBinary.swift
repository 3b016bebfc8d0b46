import Foundation
import Testing

/// The built `hapscope` executable, run as a user runs it.
///
/// The test bundle and the executable are built into the same directory (`swift build
/// --build-tests` builds both; the Makefile's `make test` runs that first).
public enum HapscopeBinary {
    public static var url: URL {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // The test runner may live inside an .xctest bundle directory.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "Contents" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("hapscope")
    }

    public struct Result: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
        public let outputBytes: Data

        /// The lines written to standard error.
        public var errorLines: [String] { standardError.split(separator: "\n").map(String.init) }
    }

    /// Runs `hapscope arguments` (or `executable`, which runs hapscope) in the package directory
    /// with `environment` added, stdin from `input` (empty by default).
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], input: Data = Data(), executable: URL? = nil
    ) throws -> Result {
        let binary = url
        try #require(FileManager.default.isExecutableFile(atPath: binary.path),
                     "hapscope is not built at \(binary.path): run 'swift build --build-tests' first")
        let process = Process()
        process.executableURL = executable ?? binary
        process.arguments = arguments
        process.currentDirectoryURL = RecordedCapture.packageDirectory
        var variables = ProcessInfo.processInfo.environment
        variables.removeValue(forKey: "HAPKEYLOGFILE")
        variables.removeValue(forKey: "NO_COLOR")
        for (key, value) in environment { variables[key] = value }
        process.environment = variables
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a large report cannot fill a pipe and block.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = stderr.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self), outputBytes: outputData)
    }
}
