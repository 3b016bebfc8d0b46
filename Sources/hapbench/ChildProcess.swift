import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended and the resources it used, from `wait4(2)`.
struct ChildProcessUsage {
    let exitStatus: Int32
    /// The child's peak resident set size, in bytes (`ru_maxrss` is in KiB on Linux).
    let peakResidentBytes: Int
    let wallSeconds: Double
    let userSeconds: Double
}

enum ChildProcess {
    /// Runs `executable` with `arguments` (standard output and error inherited), waits for it
    /// and returns its own resource usage: the child's alone, not the benchmark's.
    static func run(_ executable: String, _ arguments: [String]) throws -> ChildProcessUsage {
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let clock = ContinuousClock()
        let start = clock.now
        let spawnStatus = posix_spawn(&pid, executable, nil, nil, argv, environ)
        guard spawnStatus == 0 else {
            throw BenchmarkFailure("could not start \(executable): \(String(cString: strerror(spawnStatus)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else { throw BenchmarkFailure("waiting for \(executable): \(String(cString: strerror(errno)))") }
        }
        let wall = (clock.now - start).seconds
        // WEXITSTATUS, spelled out: the macro is not imported.
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ChildProcessUsage(
            exitStatus: exitStatus, peakResidentBytes: Int(usage.ru_maxrss) * 1_024, wallSeconds: wall,
            userSeconds: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6)
    }

    /// This process's executable, when it is hapbench itself (not a test runner hosting it).
    static var hapbenchExecutable: String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
              path.hasSuffix("/hapbench") else { return nil }
        return path
    }
}

/// A benchmark that could not be run, in words for the user.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
