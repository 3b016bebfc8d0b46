import HAPCore
import HAPEvents

extension AnalysisContext {
    /// A context whose events go to a recorder, for tests that drive one piece of the analysis
    /// (a pairing follower, a connection, a tracker) with built values.
    ///
    /// - Parameters:
    ///   - keyLog: key-log lines, as a `--keylog` file holds them.
    ///   - configure: changes to the configuration (limits, setup ID, revealed keys).
    package static func recording(
        keyLog lines: [String] = [], configure: (inout AnalysisConfiguration) -> Void = { _ in }
    ) throws -> (context: AnalysisContext, recorder: EventRecorder) {
        let recorder = EventRecorder()
        var configuration = AnalysisConfiguration(keyLog: try KeyLog(parsing: lines.joined(separator: "\n"), source: "test.keylog"))
        configure(&configuration)
        return (AnalysisContext(configuration: configuration, sink: recorder.consume), recorder)
    }
}
