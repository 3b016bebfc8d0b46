import Testing
import JUnitXML

@Suite struct JUnitReportTests {
    @Test func aReportIsOneSuiteOfCasesWithTheirCounts() {
        let report = JUnitReport(name: "hapscope check", testCases: [
            .init(name: "captures/bridge.pcap", className: "hapscope.check", outcome: .passed),
            .init(name: "captures/ipv6.pcap", className: "hapscope.check",
                  outcome: .failed(.init(message: "1 difference", type: "differences", text: "line 3: x\n  changed a: 1 → 2"))),
            .init(name: "missing.pcap", className: "hapscope.check", outcome: .error(.init(message: "no such file", type: "input", text: "no such file"))),
        ])
        #expect(report.xml == """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="hapscope check" tests="3" failures="1" errors="1">
              <testsuite name="hapscope check" tests="3" failures="1" errors="1" skipped="0">
                <testcase name="captures/bridge.pcap" classname="hapscope.check"/>
                <testcase name="captures/ipv6.pcap" classname="hapscope.check">
                  <failure message="1 difference" type="differences">line 3: x
              changed a: 1 → 2</failure>
                </testcase>
                <testcase name="missing.pcap" classname="hapscope.check">
                  <error message="no such file" type="input">no such file</error>
                </testcase>
              </testsuite>
            </testsuites>

            """)
    }

    @Test func markupAndCharactersXMLCannotHoldAreEscaped() {
        let report = JUnitReport(name: "a\"b", testCases: [
            .init(name: "<&>", className: "c", outcome: .failed(.init(message: "line\nbreak\t\"q\"", type: "t", text: "<tag> & \u{1B}[31m"))),
        ])
        #expect(report.xml.contains(#"<testsuites name="a&quot;b""#))
        #expect(report.xml.contains(#"<testcase name="&lt;&amp;&gt;""#))
        #expect(report.xml.contains(#"message="line&#10;break&#9;&quot;q&quot;""#))
        #expect(report.xml.contains(#">&lt;tag&gt; &amp; \u{1b}[31m</failure>"#))
    }

    @Test func anEmptyReportIsValid() {
        #expect(JUnitReport(name: "x").xml.contains(#"<testsuite name="x" tests="0" failures="0" errors="0" skipped="0">"#))
    }
}
