import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "generate" {
    let size = Int(arguments[1])!
    let summary = try CaptureGenerator(configuration: .init(targetByteCount: size)).generate(to: arguments[3])
    print(summary)
}
