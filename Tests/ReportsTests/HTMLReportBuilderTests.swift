import Foundation
import HAPCore
import HAPCrypto
import HAPEvents
import HAPJSON
@testable import Reports
import Testing
import TestSupport

@Suite struct HTMLReportBuilderTests {
    private func report(_ capture: String, withKeys: Bool = true, limits: HTMLReportLimits = HTMLReportLimits(),
                        findings: [Finding] = HTMLReportFixtures.findings) throws -> String {
        try HTMLReportFixtures.builder(capture: capture, withKeys: withKeys, limits: limits).render(findings: findings, title: capture)
    }

    private func count(_ needle: String, in text: String) -> Int {
        HTMLReportFixtures.count(needle, in: text)
    }

    // MARK: The document

    @Test func theSectionsComeInReadingOrder() throws {
        let html = try report("bridge")
        let positions = ["summary", "accessories", "pairing", "timeline", "mdns", "findings"].map { id in
            html.range(of: "<section id=\"\(id)\">")?.lowerBound
        }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }

    @Test func theStyleSheetIsTheOnlyResourceAndThePolicyNamesItByHash() throws {
        let html = try report("bridge")
        let start = try #require(html.range(of: "<style>"))
        let end = try #require(html.range(of: "</style>"))
        let css = Array(html[start.upperBound ..< end.lowerBound].utf8)
        let hash = "sha512-" + Base64.encode(css.withUnsafeBytes { bytes in
            var hasher = SHA512()
            hasher.update(bytes)
            return hasher.finalize()
        })
        // Apostrophes are escaped in attribute values like every other markup character.
        #expect(html.contains(#"content="default-src &#39;none&#39;; style-src &#39;\#(hash)&#39;; base-uri &#39;none&#39;; form-action &#39;none&#39;""#))
        #expect(count("<style", in: html) == 1)
    }

    @Test func nothingOutsideTheDocumentIsReferenced() throws {
        for html in [try report("bridge", findings: []), try report("pairings", findings: [])] {
            for reference in ["http:", "https:", "src=", "url(", "<script", "<link", "<iframe", "<object", "<img", "style=\"", "@import"] {
                #expect(!html.contains(reference), "found \(reference)")
            }
            let links = html.components(separatedBy: "href=\"").dropFirst()
            #expect(links.allSatisfy { $0.hasPrefix("#") }, "every link is to a part of the page")
        }
    }

    @Test func theSameEventsGiveTheSameBytes() throws {
        #expect(try report("bridge") == report("bridge"))
        #expect(try report("multi-connection") == report("multi-connection"))
    }

    @Test func rendersAFullDocumentFromNoEventsAtAll() {
        let html = HTMLReportBuilder().render(findings: [], title: "empty")
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.hasSuffix("</html>\n"))
        #expect(html.contains("No HAP accessory was advertised or contacted."))
        #expect(html.contains("No pairing exchange in the capture."))
        #expect(html.contains("The audit found nothing to report."))
    }

    // MARK: Summary

    @Test func theSummaryNamesTheAccessoryAndHowItsSessionsWent() throws {
        let html = try report("bridge")
        let summary = try #require(html.components(separatedBy: "<section id=\"accessories\">").first)
        for fact in ["hapscope Bridge", "1A:2B:3C:4D:5E:6F", "Bridge (2)", "10.77.0.2:51826", "bridge.pcap",
                     "85 packets, 17,546 bytes", "decrypted</span> after pair-verify M4 with PAIR_VERIFY_SHARED_SECRET"] {
            #expect(summary.contains(fact), "summary lacks \(fact)")
        }
        #expect(summary.contains(#"<span class="badge sev-high">1 high</span>"#))
    }

    @Test func withoutTheKeyLogTheSummarySaysWhyNothingWasDecrypted() throws {
        let html = try report("bridge", withKeys: false)
        #expect(html.contains(#"<span class="bad">not decrypted</span>"#))
        #expect(html.contains("The capture holds no readable /accessories response"))
        #expect(html.contains("No characteristic was read, written or notified in a readable session."))
    }

    // MARK: Accessory tree

    @Test func theTreeGoesFromAccessoriesToServicesToCharacteristics() throws {
        let html = try report("bridge")
        #expect(count(#"<details class="accessory" open="">"#, in: html) == 6)
        #expect(html.contains("aid 3 · Living Room Sensor · Temperature Sensor"))
        #expect(html.contains(#"<span class="name">Temperature Sensor</span> (8A)"#))
        #expect(html.contains("Current Temperature <span class=\"muted mono\">11</span>"))
        #expect(html.contains("-273.1 … 1000; step 0.1"))
        #expect(html.contains("last: 23.0 °C"))
    }

    @Test func largeDatabasesStartFolded() throws {
        let html = try report("large-bridge")
        #expect(count(#"<details class="accessory">"#, in: html) == 65)
        #expect(!html.contains(#"<details class="accessory" open="">"#))
    }

    // MARK: Pairing ladders

    @Test func eachPairingExchangeIsALadderWithOneArrowPerMessage() throws {
        let html = try report("bridge")
        let ladders = html.components(separatedBy: #"<svg class="ladder""#).dropFirst()
        #expect(ladders.count == 2)
        #expect(count(#"<g class="message">"#, in: ladders.first ?? "") == 6)
        for step in ["M1 · PairSetup (0)", ">M2<", ">M3<", ">M4<", ">M5<", ">M6<"] {
            #expect(ladders.first?.contains(step) == true, "pair-setup ladder lacks \(step)")
        }
        #expect(html.contains("Salt 16 B · PublicKey 384 B"))
        #expect(html.contains("✓ srp-controller-proof"))
        #expect(html.contains("✓ m3-signature"))
    }

    @Test func aFailedStepIsDrawnInTheErrorStyleWithItsErrorCode() throws {
        let html = try report("wrong-code")
        #expect(count(#"<g class="message error">"#, in: html) == 1)
        #expect(html.contains("M4 · Error Authentication (2)"))
        #expect(html.contains("✗ Authentication (2) at M4"))
    }

    @Test func stepsShowTheirPacketTheirTimeAndHowLongTheAccessoryTook() throws {
        let html = try report("bridge")
        #expect(html.contains(#"<text x="8" y="#))
        #expect(html.contains(">#15</text>"))
        #expect(html.contains(">+1.455 s</text>"))
        #expect(html.contains(">took 66.9 ms</text>"))
    }

    // MARK: Timeline

    @Test func theTemperaturePlotHasOnePointPerValueSeen() throws {
        let html = try report("bridge")
        let plot = try #require(html.components(separatedBy: #"<div class="plot-block">"#).dropFirst().first { $0.contains("Current Temperature") })
        #expect(count(#"<circle class="plot-point""#, in: plot) == 5)
        #expect(plot.contains("5 values from 21.5 °C to 23 °C"))
        for tick in ["21.5 °C", "22.0 °C", "22.5 °C", "23.0 °C"] {
            #expect(plot.contains(">\(tick)</text>"))
        }
    }

    @Test func theTimelineListsEveryReadWriteAndEventWithItsPacket() throws {
        let html = try report("bridge")
        let table = try #require(html.components(separatedBy: #"<table class="timeline">"#).last?.components(separatedBy: "</table>").first)
        #expect(count("<tr", in: table) == 1 + 24)
        #expect(table.contains(#"<td class="pkt">#57 (request #56)</td>"#))
        #expect(table.contains("0 (UNSECURED)"))
    }

    // MARK: mDNS

    @Test func advertisementsShowTheirTXTAndHighlightWhatChanged() throws {
        let html = try report("bridge")
        #expect(html.contains("pairing feature flags 0x0: setup code only, no MFi authentication"))
        #expect(html.contains(#"<span class="chip changed" title="status flags 0x0: paired, no problem reported">sf=<span class="old">1</span> → 0</span>"#))
        #expect(count(">browse</td>", in: html) == 2)
    }

    @Test func discoveryProblemsAreListedWithTheAdvertisement() throws {
        let html = try report("bad-discovery")
        #expect(html.contains("ci=99"))
        let problems = count(#"<span class="bad">"#, in: try #require(html.components(separatedBy: #"<section id="mdns">"#).last))
        #expect(problems > 0)
    }

    // MARK: Findings

    @Test func findingsComeMostSevereFirstWithTheirEvidence() throws {
        let html = try report("bridge", findings: HTMLReportFixtures.findings.reversed())
        let section = try #require(html.components(separatedBy: #"<section id="findings">"#).last)
        let order = ["session/nonce-skip", "discovery/txt-malformed", "pairing/setup-no-backoff", "database/non-hap-key"]
            .map { section.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())
        #expect(section.contains(#"<td class="pkt">#64</td><td class="num">+2.474 s</td>"#))
    }

    @Test func findingsAreEscapedLikeEverythingElse() throws {
        let html = try report("bridge")
        #expect(html.contains("TXT value &lt;b&gt;not&lt;/b&gt; &quot;quoted&quot;"))
        #expect(html.contains("md=&lt;script&gt;alert(5)&lt;/script&gt;"))
    }

    // MARK: Hostile input

    @Test func aHostileCaptureCannotInjectMarkup() throws {
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-hostile-\(UUID().uuidString).pcap")
        defer { try? FileManager.default.removeItem(at: capture) }
        try HTMLHostileCapture.write(to: capture)
        let html = try HTMLReportFixtures.builder(files: [capture.path]).render(findings: [], title: "<script>alert(9)</script>")
        let escapedName = "&lt;script&gt;alert(1)&lt;/script&gt;"
        #expect(count(escapedName, in: html) >= 4, "the name is shown in the summary, the tree, the plot and the mDNS table")
        #expect(html.contains("<title>&lt;script&gt;alert(9)&lt;/script&gt; — hapscope report</title>"))
        #expect(html.contains("md=&lt;img src=x onerror=alert(2)&gt;"))
        #expect(html.contains("x=&quot;&#39;&amp;&lt;&gt;"))
        #expect(html.contains("&lt;/td&gt;&lt;/tr&gt;&lt;script&gt;alert(6)&lt;/script&gt;"))
        #expect(html.contains("&#39;onmouseover=&#39;alert(8)"))
        for markup in ["<script", "<img", "<svg onload", "<b>", "<i>", "</td></tr><script"] {
            #expect(!html.contains(markup), "\(markup) reached the document")
        }
    }

    // MARK: Limits

    @Test func shortListsAreCutToTheirLimitToo() throws {
        let html = try report("bridge", limits: HTMLReportLimits(discoveryInstances: 0, itemsPerList: 3))
        #expect(html.contains("3 characteristics not shown: the report lists the first 3."), "Accessory Information has six")
        #expect(html.contains(#"<span class="chip same">+6 more</span>"#), "the TXT record has nine keys")
        #expect(html.contains("7 advertisements of further instances not shown: the report explains the first 0 instances."))
        #expect(!html.contains("setup hash 6078bf94"), "no instance table")
    }

    @Test func longTextFromTheCaptureIsClippedWithWhatWasLeftOut() throws {
        let limits = HTMLReportLimits(textCharacters: 10)
        #expect(limits.clipped("Desk Lamp") == "Desk Lamp")
        #expect(limits.clipped("Living Room Sensor") == "Living Roo… (8 more bytes)")
        #expect(limits.clipped("Küche Küche Küche") == "Küche Küch… (8 more bytes)")
        #expect(HTMLReportLimits(textCharacters: 0).clipped("x") == "… (1 more byte)")
    }

    @Test func aTwentyKilobyteValueReachesTheReportClipped() throws {
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-long-\(UUID().uuidString).pcap")
        defer { try? FileManager.default.removeItem(at: capture) }
        try HTMLHostileCapture.write(to: capture)
        let html = try HTMLReportFixtures.builder(files: [capture.path]).render(findings: [], title: "long")
        #expect(!html.contains(String(repeating: "9", count: 300)))
        #expect(html.contains(String(repeating: "9", count: 200)))
        #expect(html.contains("more bytes)"))
    }

    @Test("the responses section plots each response time with the slow mark and lists what was never answered")
    func responsesSection() throws {
        let html = try report("slow-accessory")
        #expect(html.contains("<a href=\"#responses\">Responses</a>"))
        #expect(count(#"<svg class="response-plot plot""#, in: html) == 1)
        #expect(count(#"class="plot-point slow""#, in: html) == 2, "the 4 s and 9 s reads")
        #expect(count(#"<line class="threshold""#, in: html) == 1)
        #expect(html.contains("GET /characteristics?id=2.10"))
        #expect(html.contains("never answered"))
        #expect(html.contains("-70402 (unable to perform operation)"))
        let storm = try report("event-storm")
        #expect(storm.contains("EVENTs by characteristic") && storm.contains("EVENT problems"))
        // A strip per notified characteristic, a tick per EVENT: the light level's 25 in red (a burst), the motion's 2.
        #expect(count(#"<svg class="event-strips plot""#, in: storm) == 1)
        #expect(count(#"<line class="event-tick burst""#, in: storm) == 25)
        #expect(count(#"<line class="event-tick""#, in: storm) == 2)
    }

    @Test func whatTheLimitsLeaveOutIsCountedInTheReport() throws {
        let limits = HTMLReportLimits(timelineEntries: 3, plottedCharacteristics: 2, pointsPerPlot: 2, pairingLadders: 1,
                                      messagesPerLadder: 4, discoveryEntries: 2, evidencePerFinding: 0)
        let html = try report("bridge", limits: limits)
        #expect(html.contains("21 reads, writes and events not shown: the table lists the first 3; the summary counts every one."))
        #expect(html.contains("1 pairing exchange not shown: the report draws the first 1; the summary counts every one."))
        #expect(html.contains("2 later messages not shown: a ladder draws the first 4 messages of an exchange."))
        #expect(html.contains("7 advertisements and queries not shown: the table lists the first 2; the summary counts every one."))
        #expect(html.contains("3 later values not shown: a plot draws the first 2 values of a characteristic."))
        #expect(html.contains("values of further characteristics not shown: the report plots the first 2 numeric characteristics."))
        #expect(html.contains("1 piece of evidence not shown: a finding lists its first 0."))
        #expect(count(#"<svg class="plot""#, in: html) == 2, "brightness and temperature, the first two seen")
        #expect(count(#"<svg class="ladder""#, in: html) == 1)
    }
}
