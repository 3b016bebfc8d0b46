/// A JUnit XML report: one `<testsuite>` of `<testcase>`s, each passed, failed or in error, as CI
/// systems (GitLab, Jenkins, GitHub test reporters) read them.
///
/// The format is the one Ant's JUnit task writes and every reader accepts: `testsuites` →
/// `testsuite` (`name`, `tests`, `failures`, `errors`, `skipped`) → `testcase` (`name`,
/// `classname`) holding at most one `failure` or `error` (`message`, `type`, and text). No
/// `time` or `timestamp` attribute is written, so the same results give the same file.
public struct JUnitReport: Hashable, Sendable {
    public struct TestCase: Hashable, Sendable {
        public enum Outcome: Hashable, Sendable {
            case passed
            /// The test ran and what it checks does not hold.
            case failed(Problem)
            /// The test could not run (an input that cannot be read).
            case error(Problem)
        }

        public var name: String
        public var className: String
        public var outcome: Outcome

        public init(name: String, className: String, outcome: Outcome) {
            self.name = name
            self.className = className
            self.outcome = outcome
        }
    }

    /// A failure or an error: one line for the summary, a type, and the full text.
    public struct Problem: Hashable, Sendable {
        public var message: String
        public var type: String
        public var text: String

        public init(message: String, type: String, text: String) {
            self.message = message
            self.type = type
            self.text = text
        }
    }

    public var name: String
    public var testCases: [TestCase]

    public init(name: String, testCases: [TestCase] = []) {
        self.name = name
        self.testCases = testCases
    }

    public var failureCount: Int {
        testCases.count { if case .failed = $0.outcome { true } else { false } }
    }

    public var errorCount: Int {
        testCases.count { if case .error = $0.outcome { true } else { false } }
    }

    /// The XML document, with a final line break.
    public var xml: String {
        let counts = "tests=\"\(testCases.count)\" failures=\"\(failureCount)\" errors=\"\(errorCount)\""
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            "<testsuites name=\"\(XMLText.attribute(name))\" \(counts)>",
            "  <testsuite name=\"\(XMLText.attribute(name))\" \(counts) skipped=\"0\">",
        ]
        for testCase in testCases {
            let opening = "    <testcase name=\"\(XMLText.attribute(testCase.name))\" classname=\"\(XMLText.attribute(testCase.className))\""
            switch testCase.outcome {
            case .passed:
                lines.append(opening + "/>")
            case .failed(let problem), .error(let problem):
                let element = if case .failed = testCase.outcome { "failure" } else { "error" }
                lines.append(opening + ">")
                lines.append("      <\(element) message=\"\(XMLText.attribute(problem.message))\" type=\"\(XMLText.attribute(problem.type))\">"
                    + XMLText.content(problem.text) + "</\(element)>")
                lines.append("    </testcase>")
            }
        }
        lines.append("  </testsuite>")
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Text made safe for XML 1.0.
enum XMLText {
    /// Character content: `&`, `<` and `>` escaped.
    static func content(_ text: String) -> String {
        escaped(text, quotes: false)
    }

    /// An attribute value in double quotes: also `"` escaped, and line breaks and tabs as
    /// character references, which attribute-value normalisation would otherwise turn into spaces
    /// (XML 1.0 §3.3.3).
    static func attribute(_ text: String) -> String {
        escaped(text, quotes: true)
    }

    private static func escaped(_ text: String, quotes: Bool) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            case "\n" where quotes: result += "&#10;"
            case "\r": result += "&#13;"
            case "\t" where quotes: result += "&#9;"
            case "\n", "\t": result.unicodeScalars.append(scalar)
            default:
                if isAllowed(scalar) {
                    result.unicodeScalars.append(scalar)
                } else {
                    // XML 1.0 §2.2 has no way to write these, not even as references: show the code.
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                }
            }
        }
        return result
    }

    /// XML 1.0 §2.2 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20 ... 0xD7FF, 0xE000 ... 0xFFFD, 0x10000 ... 0x10FFFF: true
        default: false
        }
    }
}
