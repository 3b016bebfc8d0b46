import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended and how long it ran, from `wait4(2)`.
///
/// Its peak memory is not taken from `ru_maxrss`: `posix_spawn` starts the child in the
/// parent's address space, and Linux carries that space's high-water mark into the child's
/// `maxrss` at `exec`, so the figure would include the benchmark itself. The child reports its
/// own `VmHWM` instead (`peakResidentBytesOfThisProcess`).
struct ChildProcessUsage {
    let exitStatus: Int32
    let wallSeconds: Double
    let userSeconds: Double
}

enum ChildProcess {
    /// Runs `executable` with `arguments`, its standard output discarded and standard error
    /// inherited, and waits for it.
    static func run(_ executable: String, _ arguments: [String]) throws -> ChildProcessUsage {
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let clock = ContinuousClock()
        let start = clock.now
        let spawnStatus = posix_spawn(&pid, executable, &actions, nil, argv, environ)
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
            exitStatus: exitStatus, wallSeconds: wall, userSeconds: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6)
    }

    /// This process's peak resident set size in bytes: `VmHWM` of /proc/self/status.
    static var peakResidentBytesOfThisProcess: Int? {
        guard let status = try? readText("/proc/self/status"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kibibytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        return kibibytes * 1_024
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
