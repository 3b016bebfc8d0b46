import HAPEvents
import HAPJSON
import Packets

/// "No Response", diagnosed: each timed response plotted against the capture's time with the slow
/// mark drawn across, the distribution per characteristic and per controller, the requests never
/// answered, the HAP statuses answered and the EVENT problems (`Responsiveness`).
extension HTMLReportBuilder {
    private enum ResponsePlot {
        static let width = 560.0
        static let height = 188.0
        static let left = 64.0
        static let right = 528.0
        static let top = 12.0
        static let bottom = 154.0
    }

    func writeResponses(_ html: inout HTMLWriter) {
        html.section(id: "responses", title: "Responses and events") { html in
            let facts = responsiveness
            guard facts.all.count > 0 || !facts.unanswered.isEmpty || !facts.events.isEmpty else {
                html.element("p", ["class": "muted"], text: "No response was timed and no EVENT seen in a readable session.")
                return
            }
            html.element("p", ["class": "muted"], text: "The accessory's time: from the request's last packet to the response's "
                + "first. Slow past \(HTMLFormat.number(ResponseTiming.slowResponseSeconds)) s (HAP-NodeJS warns); past "
                + "\(HTMLFormat.number(ResponseTiming.abandonedResponseSeconds)) s HAP-NodeJS gives up on its handler.")
            writeResponsePlot(facts.responses, &html)
            html.omissionNote(facts.unlistedResponses, "later response", "later responses",
                              reason: "the report plots the first \(HTMLFormat.count(facts.limits.listed))")
            html.markup("<h3>By characteristic</h3>\n")
            html.table(headers: ["Accessory", "Characteristic", "Kind", "Count", "Median", "95th percentile", "Maximum", "Slow"],
                       numericColumns: [3, 4, 5, 6, 7]) { html in
                for times in facts.characteristics.values.sorted(by: { $0.key < $1.key }) {
                    for (kind, distribution) in [("read", times.reads), ("write", times.writes)] where distribution.count > 0 {
                        html.markup("<tr>")
                        html.cell(limits.clipped(times.key.accessory))
                        html.cell("\(times.key.id)" + (times.name.map { " " + limits.clipped($0) } ?? ""))
                        html.cell(kind)
                        writeDistributionCells(distribution, &html)
                        html.markup("</tr>\n")
                    }
                }
            }
            html.markup("<h3>By controller</h3>\n")
            html.table(headers: ["Controller", "Count", "Median", "95th percentile", "Maximum", "Slow"], numericColumns: [1, 2, 3, 4, 5]) { html in
                for (controller, distribution) in facts.controllers.sorted(by: { $0.key < $1.key }) {
                    html.markup("<tr>")
                    html.cell(controller)
                    writeDistributionCells(distribution, &html)
                    html.markup("</tr>\n")
                }
            }
            if !facts.unanswered.isEmpty {
                html.markup("<h3>Requests unanswered when their connection ended</h3>\n")
                html.table(headers: ["Packet", "Conn.", "Request", "Waited", "Connection", "Verdict"], numericColumns: [1, 3]) { html in
                    for entry in facts.unanswered {
                        html.markup("<tr>")
                        html.packetCell(entry.outstanding.request.packet.number)
                        html.numberCell(String(entry.connection.id))
                        html.cell("\(entry.outstanding.request.method) \(limits.clipped(entry.outstanding.request.target))")
                        html.numberCell(CaptureClock.durationText(entry.outstanding.waitedSeconds))
                        html.cell(entry.reason.wording + (entry.closedAt.map { " at #\($0.number)" } ?? ""))
                        html.element("td") { html in
                            if entry.outstanding.isNeverAnswered(closedBy: entry.reason) {
                                html.span("bad", "never answered")
                            } else {
                                html.span("muted", "not known to be unanswered")
                            }
                        }
                        html.markup("</tr>\n")
                    }
                }
            }
            if !facts.statuses.isEmpty {
                html.markup("<h3>HAP statuses answered</h3>\n")
                html.table(headers: ["Status", "Count", "First", "Characteristic"], numericColumns: [1]) { html in
                    for count in facts.statuses.values.sorted(by: { $0.status.rawValue > $1.status.rawValue }) {
                        html.markup("<tr>")
                        html.element("td") { html in html.span("bad", count.status.description) }
                        html.numberCell(String(count.count))
                        html.packetCell(count.first?.number)
                        html.cell("\(count.characteristic)" + (count.name.map { " " + limits.clipped($0) } ?? ""))
                        html.markup("</tr>\n")
                    }
                }
            }
            if !facts.events.isEmpty {
                html.markup("<h3>EVENTs by characteristic</h3>\n")
                writeEventStrips(facts.events.values.sorted(by: { $0.key < $1.key }), &html)
                html.table(headers: ["Accessory", "Characteristic", "EVENTs", "First", "Last", "Shortest gap", "Bursts"],
                           numericColumns: [2, 3, 4, 5, 6]) { html in
                    for times in facts.events.values.sorted(by: { $0.key < $1.key }) {
                        html.markup("<tr>")
                        html.cell(limits.clipped(times.key.accessory))
                        html.cell("\(times.key.id)" + (times.name.map { " " + limits.clipped($0) } ?? ""))
                        html.numberCell(String(times.count))
                        html.numberCell(times.first.map { HTMLFormat.offset(offset($0)) } ?? "—")
                        html.numberCell(times.last.map { HTMLFormat.offset(offset($0)) } ?? "—")
                        html.numberCell(times.shortestGap.map(CaptureClock.durationText) ?? "—")
                        html.numberCell(String(times.bursts))
                        html.markup("</tr>\n")
                    }
                }
            }
            if !facts.notificationFindings.isEmpty {
                html.markup("<h3>EVENT problems</h3>\n")
                html.table(headers: ["Packet", "Conn.", "Problem"], numericColumns: [1]) { html in
                    for finding in facts.notificationFindings {
                        html.markup("<tr>")
                        html.packetCell(finding.packet.number)
                        html.numberCell(String(finding.connection.id))
                        html.element("td") { html in html.span("warn", ResponsesReport.describe(finding.problem)) }
                        html.markup("</tr>\n")
                    }
                }
            }
        }
    }

    /// One row per characteristic (the first `eventStripRows`), a tick at each of its EVENTs on
    /// the capture's time axis: bursts show as dense clusters.
    private func writeEventStrips(_ events: [Responsiveness.EventTimes], _ html: inout HTMLWriter) {
        let rows = Array(events.prefix(Self.eventStripRows))
        let end = timeOrigin.flatMap { origin in model.summary?.lastPacketTime.map { $0 - origin } } ?? 0
        let lastEvent = rows.compactMap { $0.last.map(offset) }.max() ?? 0
        guard let time = HTMLAxisScale(minimum: 0, maximum: max(end, lastEvent, 0.001), tickCount: 6) else { return }
        let rowHeight = 18.0
        let height = ResponsePlot.top + rowHeight * Double(rows.count) + 40
        let bottom = ResponsePlot.top + rowHeight * Double(rows.count)
        let left = 200.0
        let summary = "EVENTs over time: \(HTMLFormat.count(rows.count, "characteristic"))"
        html.open("svg", ["class": "event-strips plot", "viewBox": "0 0 \(Int(ResponsePlot.width)) \(Int(height))",
                          "width": "\(Int(ResponsePlot.width))", "role": "img", "aria-label": summary])
        html.element("title", text: summary)
        func x(_ seconds: Double) -> String { Self.coordinate(time.position(of: seconds, from: left, to: ResponsePlot.right)) }
        for tick in time.ticks {
            html.open("line", ["class": "grid", "x1": x(tick), "y1": Self.coordinate(ResponsePlot.top), "x2": x(tick), "y2": Self.coordinate(bottom)])
            html.close("line")
            html.element("text", ["class": "muted", "x": x(tick), "y": Self.coordinate(bottom + 16), "text-anchor": "middle"],
                         text: "+" + HTMLFormat.fixed(tick, decimals: time.decimals) + " s")
        }
        for (index, row) in rows.enumerated() {
            let middle = ResponsePlot.top + rowHeight * (Double(index) + 0.5)
            let label = "\(row.key.id)" + (row.name.map { " " + limits.clipped($0) } ?? "")
            html.element("text", ["x": Self.coordinate(left - 8), "y": Self.coordinate(middle + 4), "text-anchor": "end"], text: label)
            for event in row.times {
                html.open("line", ["class": row.bursts > 0 ? "event-tick burst" : "event-tick", "x1": x(offset(event)),
                                   "y1": Self.coordinate(middle - 6), "x2": x(offset(event)), "y2": Self.coordinate(middle + 6)])
                html.close("line")
            }
        }
        html.element("text", ["class": "muted", "x": Self.coordinate(ResponsePlot.right), "y": Self.coordinate(height - 2), "text-anchor": "end"],
                     text: "seconds since the first packet")
        html.close("svg")
        html.markup("\n")
        html.omissionNote(events.count - rows.count, "further characteristic", "further characteristics",
                          reason: "the strips show the first \(Self.eventStripRows); the table lists every one")
    }

    /// Characteristics drawn in the EVENT strips.
    static let eventStripRows = 16

    private func writeDistributionCells(_ distribution: Responsiveness.Distribution, _ html: inout HTMLWriter) {
        html.numberCell(String(distribution.count))
        html.numberCell(distribution.median.map(CaptureClock.durationText) ?? "—")
        html.numberCell(distribution.percentile95.map(CaptureClock.durationText) ?? "—")
        html.numberCell(CaptureClock.durationText(distribution.maximum))
        html.numberCell(String(distribution.slow))
    }

    /// A dot per timed response at its time and response time, the slow mark as a dashed line.
    private func writeResponsePlot(_ responses: [Responsiveness.TimedResponse], _ html: inout HTMLWriter) {
        guard !responses.isEmpty else { return }
        let end = timeOrigin.flatMap { origin in model.summary?.lastPacketTime.map { $0 - origin } } ?? 0
        let lastPoint = responses.map { offset($0.packet.timestamp) }.max() ?? 0
        let slowest = responses.map(\.timing.seconds).max() ?? 0
        guard let time = HTMLAxisScale(minimum: 0, maximum: max(end, lastPoint, 0.001), tickCount: 6),
              let scale = HTMLAxisScale(minimum: 0, maximum: max(slowest, ResponseTiming.slowResponseSeconds * 1.2), tickCount: 4)
        else { return }
        let slow = responses.filter { $0.timing.verdict != .prompt }.count
        let summary = "Response times: \(HTMLFormat.count(responses.count, "response")), \(slow) slower than "
            + "\(HTMLFormat.number(ResponseTiming.slowResponseSeconds)) s, the slowest \(CaptureClock.durationText(slowest))"
        let frame = HTMLPlotFrame(
            width: ResponsePlot.width, height: ResponsePlot.height, left: ResponsePlot.left, right: ResponsePlot.right, top: ResponsePlot.top,
            bottom: ResponsePlot.bottom, time: time, values: scale)
        frame.open(class: "response-plot plot", summary: summary, unit: " s", &html)
        let x = frame.x, y = { frame.y($0) }
        html.open("line", ["class": "threshold", "x1": x(time.lower), "y1": y(ResponseTiming.slowResponseSeconds),
                           "x2": x(time.upper), "y2": y(ResponseTiming.slowResponseSeconds)])
        html.close("line")
        html.element("text", ["class": "muted", "x": x(time.upper), "y": frame.y(ResponseTiming.slowResponseSeconds, shiftedBy: -4), "text-anchor": "end"],
                     text: "slow")
        for response in responses {
            html.open("circle", ["class": response.timing.verdict == .prompt ? "plot-point" : "plot-point slow",
                                 "cx": x(offset(response.packet.timestamp)), "cy": y(response.timing.seconds), "r": "4"])
            html.element("title", text: "#\(response.packet.number) \(HTMLFormat.offset(offset(response.packet.timestamp))) "
                + "\(response.request.method) \(limits.clipped(response.request.target)): \(CaptureClock.durationText(response.timing.seconds))")
            html.close("circle")
        }
        html.close("svg")
        html.markup("\n")
    }
}
