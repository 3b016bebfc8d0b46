import Foundation
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// The HTML report opened in a real headless Chromium: it must render without a single console
/// message (no script error, no policy violation, no blocked fetch), show its key elements in
/// the rendered DOM, and leave screenshots for a human in `.build/artifacts/html-report/`.
///
/// Chromium is a test dependency (`make test` installs it); without it these tests fail, they
/// do not skip.
@Suite(.serialized) struct HTMLReportBrowserTests {
    private let workDirectory: URL

    init() throws {
        workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: HTMLReportFixtures.artifactsDirectory, withIntermediateDirectories: true)
    }

    private func write(_ document: String, named name: String) throws -> URL {
        let url = workDirectory.appendingPathComponent(name)
        try document.write(to: url, atomically: true, encoding: .utf8)
        // A copy beside the screenshots, for a human to open.
        let artifact = HTMLReportFixtures.artifactsDirectory.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: artifact)
        try FileManager.default.copyItem(at: url, to: artifact)
        return url
    }

    @Test func theBridgeReportRendersWithoutConsoleMessagesAndShowsEverySection() throws {
        let browser = try HTMLBrowser.locate()
        let report = try HTMLReportFixtures.builder(capture: "bridge").render(findings: HTMLReportFixtures.findings, title: "bridge.pcap")
        let page = try write(report, named: "bridge.html")

        let load = try browser.dumpDOM(of: page, workDirectory: workDirectory)
        #expect(load.consoleMessages.isEmpty, "console: \(load.consoleMessages)")
        let dom = load.dom
        for id in ["summary", "accessories", "pairing", "timeline", "mdns", "findings"] {
            #expect(dom.contains("<section id=\"\(id)\">"), "section #\(id) is missing from the rendered DOM")
        }
        #expect(!dom.contains("<script"))
        #expect(HTMLReportFixtures.count("<svg class=\"ladder\"", in: dom) == 2)
        #expect(HTMLReportFixtures.count("<g class=\"message\"", in: dom) == 10, "pair-setup M1…M6 and pair-verify M1…M4")
        let temperature = try #require(dom.components(separatedBy: "<div class=\"plot-block\">").dropFirst().first { $0.contains("Current Temperature") })
        #expect(temperature.contains("<svg class=\"plot\""))
        #expect(HTMLReportFixtures.count("<circle class=\"plot-point\"", in: temperature) == 5, "21.5, 22.0, 22.5, 23.0 and 23.0 °C")
        #expect(dom.contains("TXT value &lt;b&gt;not&lt;/b&gt; \"quoted\""), "a finding's markup is shown as text")

        let screenshot = HTMLReportFixtures.artifactsDirectory.appendingPathComponent("bridge.png")
        let darkScreenshot = HTMLReportFixtures.artifactsDirectory.appendingPathComponent("bridge-dark.png")
        let light = try browser.screenshot(of: page, to: screenshot, height: 7200, workDirectory: workDirectory)
        let dark = try browser.screenshot(of: page, to: darkScreenshot, height: 7200, dark: true, workDirectory: workDirectory)
        #expect(light.consoleMessages.isEmpty && dark.consoleMessages.isEmpty, "console: \(light.consoleMessages + dark.consoleMessages)")
        try expectPNG(screenshot)
        try expectPNG(darkScreenshot)
        print("HTML report of bridge.pcap: \(HTMLReportFixtures.artifactsDirectory.path)/bridge.html; screenshots: \(screenshot.path), \(darkScreenshot.path)")
    }

    @Test func aHostileCaptureRendersAsTextAndRunsNothing() throws {
        let browser = try HTMLBrowser.locate()
        let capture = workDirectory.appendingPathComponent("hostile.pcap")
        try HTMLHostileCapture.write(to: capture)
        let report = try HTMLReportFixtures.builder(files: [capture.path]).render(findings: HTMLReportFixtures.findings, title: "hostile.pcap")
        let page = try write(report, named: "hostile.html")

        let load = try browser.dumpDOM(of: page, workDirectory: workDirectory)
        #expect(load.consoleMessages.isEmpty, "console: \(load.consoleMessages)")
        let dom = load.dom
        #expect(!dom.contains("<script"))
        #expect(!dom.contains("<img"))
        // An injected attribute would be serialized quoted; the hostile text has no quote there.
        for handler in ["onerror=\"", "onload=\"", "onmouseover=\""] {
            #expect(!dom.contains(handler), "an event handler attribute was injected: \(handler)")
        }
        #expect(dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(dom.contains("&lt;img src=x onerror=alert(2)&gt;"))
        #expect(dom.contains("x=\"'&amp;&lt;&gt;"), "the TXT value with quotes and angle brackets, as text")

        let screenshot = HTMLReportFixtures.artifactsDirectory.appendingPathComponent("hostile.png")
        let shot = try browser.screenshot(of: page, to: screenshot, height: 2400, workDirectory: workDirectory)
        #expect(shot.consoleMessages.isEmpty, "console: \(shot.consoleMessages)")
        try expectPNG(screenshot)
        print("HTML report of a hostile capture: screenshot \(screenshot.path)")
    }

    /// The control: a page that breaks the rules the report keeps must produce console messages,
    /// or the tests above would pass without looking.
    @Test func theBrowserReportsScriptErrorsAndBlockedFetches() throws {
        let browser = try HTMLBrowser.locate()
        let page = try write("""
            <!DOCTYPE html><html><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'"><title>control</title></head>
            <body><img src="http://example.invalid/pixel.png"><script>throw new Error("control")</script></body></html>
            """, named: "control.html")
        let load = try browser.dumpDOM(of: page, workDirectory: workDirectory)
        #expect(load.consoleMessages.contains { $0.contains("example.invalid") }, "the blocked image fetch is reported")
        #expect(load.consoleMessages.contains { $0.contains("script") }, "the blocked inline script is reported")
    }

    private func expectPNG(_ url: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(bytes.count > 20_000, "a rendered page, not a blank one")
    }
}
