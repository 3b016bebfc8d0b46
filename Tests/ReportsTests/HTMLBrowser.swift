import Foundation
import HAPCore
import HAPEvents
import TestSupport

/// Headless Chromium, driven from the command line: loads a file, and reports the serialized DOM
/// after rendering, a screenshot, and every message the page wrote to the console.
///
/// Chromium prints console messages (script errors, `console.*` calls, Content-Security-Policy
/// violations and the blocked fetches they cause) on stderr with `--enable-logging=stderr`, as
/// `[…:INFO:CONSOLE:12] "message", source: file:///… (12)`. The report runs no script, so any
/// such line is a fault.
struct HTMLBrowser {
    /// Where the browser was found.
    let executable: String

    enum Failure: Error, CustomStringConvertible {
        case notInstalled(searched: [String])
        case timedOut(seconds: Double, arguments: [String])
        case failed(status: Int32, stderr: String)

        var description: String {
            switch self {
            case .notInstalled(let searched):
                "Chromium was not found (looked for \(searched.joined(separator: ", ")) on PATH, and $HAPSCOPE_CHROMIUM). "
                    + "The HTML report is checked in a real browser: install it with `apt-get install -y chromium` "
                    + "or run `make test`, which installs the test packages."
            case .timedOut(let seconds, let arguments):
                "Chromium did not finish within \(seconds) s: \(arguments.joined(separator: " "))"
            case .failed(let status, let stderr):
                "Chromium exited with status \(status): \(stderr.suffix(2000))"
            }
        }
    }

    /// What one page load showed.
    struct PageLoad {
        /// `--dump-dom`: the DOM serialized after the page loaded; empty for a screenshot run.
        let dom: String
        /// Every console line, as Chromium logged it.
        let consoleMessages: [String]
    }

    static let candidateNames = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]

    /// Finds Chromium: `$HAPSCOPE_CHROMIUM`, else the first candidate on `PATH`.
    static func locate() throws(Failure) -> HTMLBrowser {
        let environment = ProcessInfo.processInfo.environment
        if let configured = environment["HAPSCOPE_CHROMIUM"], FileManager.default.isExecutableFile(atPath: configured) {
            return HTMLBrowser(executable: configured)
        }
        let directories = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for name in candidateNames {
            for directory in directories {
                let path = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: path) { return HTMLBrowser(executable: path) }
            }
        }
        throw .notInstalled(searched: candidateNames)
    }

    /// Loads `page` and returns its rendered DOM and console messages.
    func dumpDOM(of page: URL, workDirectory: URL) throws -> PageLoad {
        try run(["--dump-dom", page.absoluteString], workDirectory: workDirectory)
    }

    /// Loads `page` and saves a `width`×`height` screenshot of it to `screenshot`, in the dark
    /// colour scheme when `dark`.
    func screenshot(of page: URL, to screenshot: URL, width: Int = 1280, height: Int, dark: Bool = false, workDirectory: URL) throws -> PageLoad {
        var arguments = ["--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(screenshot.path)"]
        if dark { arguments.append("--force-dark-mode") }
        return try run(arguments + [page.absoluteString], workDirectory: workDirectory)
    }

    /// Runs one headless Chromium with a fresh profile, no network (every host name resolves to
    /// nothing, so even a fetch the policy let through would fail rather than leave the machine),
    /// and console logging on stderr.
    private func run(_ arguments: [String], workDirectory: URL, timeout: Double = 120) throws -> PageLoad {
        let profile = workDirectory.appendingPathComponent("profile-\(UUID().uuidString)")
        let stdoutFile = workDirectory.appendingPathComponent("stdout-\(UUID().uuidString)")
        let stderrFile = workDirectory.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: profile)
            try? FileManager.default.removeItem(at: stdoutFile)
            try? FileManager.default.removeItem(at: stderrFile)
        }
        var flags = [
            "--headless", "--disable-gpu", "--user-data-dir=\(profile.path)", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-default-apps", "--mute-audio", "--host-resolver-rules=MAP * ~NOTFOUND",
            "--enable-logging=stderr", "--v=0",
        ]
        // Chromium refuses to start as root with its sandbox on (containers, CI).
        if geteuid() == 0 { flags.append("--no-sandbox") }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = flags + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw Failure.timedOut(seconds: timeout, arguments: arguments)
        }
        let stderr = String(decoding: (try? Data(contentsOf: stderrFile)) ?? Data(), as: UTF8.self)
        guard process.terminationStatus == 0 else { throw Failure.failed(status: process.terminationStatus, stderr: stderr) }
        let dom = String(decoding: (try? Data(contentsOf: stdoutFile)) ?? Data(), as: UTF8.self)
        let console = stderr.split(separator: "\n").filter { $0.contains(":CONSOLE:") || $0.contains(":CONSOLE(") }.map(String.init)
        return PageLoad(dom: dom, consoleMessages: console)
    }
}
