import Foundation

/// A directory of its own for one test's files, removed when the test is done with it.
public final class ScratchDirectory {
    public let path: String

    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    public var url: URL { URL(fileURLWithPath: path) }

    public func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    public func write(_ bytes: [UInt8], to name: String) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: file(name)))
        return file(name)
    }

    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        try write(Array(text.utf8), to: name)
    }

    public func read(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: file(name))))
    }
}
