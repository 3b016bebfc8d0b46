/// How `hapscope` ends (docs/cli.md, "Exit status").
enum ExitStatus: Int32 {
    /// The command did what was asked.
    case success = 0
    /// The command found what it was asked to look for: findings, or a check that failed
    /// (each command's help says when).
    case findings = 1
    /// A usage or input error: an unknown option, a missing or unreadable file, a damaged
    /// capture, a bad key-log line.
    case usageOrInput = 2
}

/// Why a command could not run or finish: one line for standard error, and the exit status.
struct CommandFailure: Error {
    let message: String
    let status: ExitStatus

    init(_ message: String, status: ExitStatus = .usageOrInput) {
        self.message = message
        self.status = status
    }
}
