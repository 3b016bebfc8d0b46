import Capture
import HAPAnalysis
import Foundation

var keyLog = KeyLog()
var files: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "--keylog", let path = arguments.popFirst() {
        try keyLog.add(parsing: String(contentsOfFile: path, encoding: .utf8), source: path)
    } else {
        files.append(argument)
    }
}
let reader = try CaptureFileReader(files: files)
let analyzer = CaptureAnalyzer(configuration: AnalysisConfiguration(keyLog: keyLog)) { event in
    let packet = event.packet.map { "#\($0.number)" } ?? "-"
    switch event.kind {
    case .httpMessage(let m):
        let line = m.message.requestLine.map { "\($0.method) \($0.target)" } ?? m.message.statusLine.map { "\($0.version) \($0.status)" } ?? "?"
        print(packet, "HTTP", m.connection.id, m.direction, m.encrypted ? "enc" : "plain", line, m.message.body.count)
    default:
        print(packet, event.kind)
    }
}
analyzer.analyze(reader)
