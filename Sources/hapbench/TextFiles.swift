import Foundation

/// Writes `text` to `path`, replacing the file.
func writeText(_ text: String, to path: String) throws {
    try text.write(toFile: path, atomically: false, encoding: .utf8)
}

/// The text of the file at `path`.
func readText(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}
