import HAPEvents
import HAPCatalog
import HAPJSON
import Packets

/// The characteristic timeline: a line plot of every numeric characteristic's values over the
/// capture, then a table of every read, write, event and subscription.
extension HTMLReportBuilder {
    /// One read, write, event or subscription, reduced to what its row shows.
    struct TimelineEntry {
        enum Outcome {
            case success
            case status(HAPStatus)
            case unanswered
        }

        /// The packet that completed it (for a write, the response).
        let packet: PacketInfo?
        /// For a write, the request.
        let requestPacket: Int?
        let connection: Int
        let accessory: AccessoryKey
        let characteristic: CharacteristicID
        let name: String
        let kind: CharacteristicActivity.Kind
        let timedWrite: Bool
        /// The value as a reader sees it, with unit and enumeration name, clipped.
        let value: String?
        let issues: [ValueIssue]
        let outcome: Outcome

        init(_ activity: CharacteristicActivity, packet: PacketInfo?, limits: HTMLReportLimits) {
            self.packet = packet
            requestPacket = activity.requestPacket?.number
            connection = activity.connection.id
            accessory = AccessoryKey(activity)
            characteristic = activity.id
            name = limits.clipped(activity.name ?? "unknown")
            kind = activity.kind
            timedWrite = activity.timedWrite
            value = activity.value.map { limits.clipped(HTMLFormat.value($0.value, type: activity.type, unit: activity.unit)) }
            issues = Array(activity.value?.issues.prefix(limits.itemsPerList) ?? [])
            outcome = if !activity.answered {
                .unanswered
            } else if let status = activity.status, !status.isSuccess {
                .status(status)
            } else {
                .success
            }
        }
    }

    /// The numeric values one characteristic of one accessory took over time.
    struct PlotSeries {
        struct Point {
            let time: Timestamp
            let value: Double
            let packet: Int
            let kind: CharacteristicActivity.Kind
        }

        let accessory: AccessoryKey
        let id: CharacteristicID
        var name: String?
        var unit: CharacteristicUnit?
        var points: [Point] = []
        var droppedPoints = 0
    }

    func writeTimeline(_ html: inout HTMLWriter) {
        html.section(id: "timeline", title: "Characteristic timeline") { html in
            if timeline.isEmpty {
                html.element("p", ["class": "muted"], text: "No characteristic was read, written or notified in a readable session.")
                return
            }
            let names = accessoryNames()
            writePlots(&html, names: names)
            html.markup("<h3>Reads, writes and events</h3>\n")
            html.table(class: "timeline", headers: ["Packet", "Time", "Conn.", "Accessory", "Characteristic", "Kind", "Value", "Status"],
                       numericColumns: [1, 2]) { html in
                for entry in timeline {
                    writeRow(entry, names: names, &html)
                }
            }
            html.omissionNote(droppedTimelineEntries, "read, write or event", "reads, writes and events",
                              reason: "the table lists the first \(HTMLFormat.count(limits.timelineEntries)); the summary counts every one")
        }
    }

    private func writeRow(_ entry: TimelineEntry, names: [AccessoryKey: String], _ html: inout HTMLWriter) {
        html.markup(entry.kind == .write ? "<tr class=\"write\">" : "<tr>")
        html.element("td", ["class": "pkt"], text: (entry.packet.map { "#\($0.number)" } ?? "—")
            + (entry.requestPacket.map { " (request #\($0))" } ?? ""))
        html.numberCell(entry.packet.map { HTMLFormat.offset(offset($0.timestamp)) } ?? "—")
        html.numberCell(String(entry.connection))
        html.cell(names[entry.accessory] ?? "aid \(entry.accessory.aid)")
        html.element("td") { html in
            html.element("span", ["class": "mono"], text: entry.characteristic.description)
            html.text(" " + entry.name)
        }
        html.cell(entry.kind.rawValue + (entry.timedWrite ? " (timed)" : ""))
        html.element("td") { html in
            if let value = entry.value { html.text(value) }
            for issue in entry.issues {
                html.markup("<br>")
                html.span(issue.severity == .error ? "bad" : "warn", issue.description)
            }
        }
        html.element("td") { html in
            switch entry.outcome {
            case .success: html.span("ok", "OK")
            case .status(let status): html.span("bad", status.description)
            case .unanswered: html.span("bad", "no response")
            }
        }
        html.markup("</tr>\n")
    }

    // MARK: Plots

    private func writePlots(_ html: inout HTMLWriter, names: [AccessoryKey: String]) {
        guard !plots.isEmpty else { return }
        html.markup("<h3>Numeric values over time</h3>\n")
        html.element("p", ["class": "muted"], text: "Every plot spans the whole capture. The line holds each value "
            + "until the next one seen: HAP reports states, not samples. Dots are reads and events; writes are purple.")
        let end = timeOrigin.flatMap { origin in model.summary?.lastPacketTime.map { $0 - origin } } ?? 0
        let lastPoint = plots.lazy.compactMap { $0.points.last.map { self.offset($0.time) } }.max() ?? 0
        guard let time = HTMLAxisScale(minimum: 0, maximum: max(end, lastPoint, 0.001), tickCount: 6) else { return }
        html.markup("<div class=\"plots\">\n")
        for series in plots {
            let accessory = names[series.accessory] ?? series.accessory.device
            html.open("div", ["class": "plot-block"])
            html.element("h3") { html in
                html.text((series.name ?? "Characteristic") + " ")
                html.span("muted mono", series.id.description)
                html.text(" · " + accessory)
            }
            writePlot(series, time: time, title: "\(series.name ?? "Characteristic") \(series.id) of \(accessory)", &html)
            html.omissionNote(series.droppedPoints, "later value", "later values",
                              reason: "a plot draws the first \(HTMLFormat.count(limits.pointsPerPlot)) values of a characteristic")
            html.close("div")
            html.markup("\n")
        }
        html.markup("</div>\n")
        html.omissionNote(unplottedValues, "value of further characteristics", "values of further characteristics",
                          reason: "the report plots the first \(HTMLFormat.count(limits.plottedCharacteristics)) numeric characteristics")
    }

    /// A step line through the values (each holds until the next), a dot per value with its
    /// packet, time and kind as a tooltip, and axes: time on a scale shared by every plot.
    private func writePlot(_ series: PlotSeries, time: HTMLAxisScale, title: String, _ html: inout HTMLWriter) {
        let values = series.points.map(\.value)
        let unit = series.unit.map { " " + ValueText.unitSymbol($0) } ?? ""
        let integral = values.allSatisfy { $0 == $0.rounded() }
        guard let low = values.min(), let high = values.max(),
              let scale = HTMLAxisScale(minimum: low, maximum: high, tickCount: 4, integral: integral) else {
            html.element("p", ["class": "muted"], text: "The values cannot be drawn on one scale.")
            return
        }
        let summary = "\(title): \(HTMLFormat.count(values.count, "value")) from \(HTMLFormat.number(low))\(unit) "
            + "to \(HTMLFormat.number(high))\(unit)"
        let frame = HTMLPlotFrame(width: 560, height: 168, left: 64, right: 528, top: 12, bottom: 134, time: time, values: scale)
        frame.open(class: "plot", summary: summary, unit: unit, &html)
        let x = frame.x, y = { frame.y($0) }

        var path = ""
        for (index, point) in series.points.enumerated() {
            let pointX = x(offset(point.time))
            path += index == 0 ? "M\(pointX) \(y(point.value))" : " H\(pointX) V\(y(point.value))"
        }
        html.open("path", ["class": "series", "d": path])
        html.close("path")
        for point in series.points {
            html.open("circle", ["class": point.kind == .write ? "plot-point write" : "plot-point",
                                 "cx": x(offset(point.time)), "cy": y(point.value), "r": "4"])
            html.element("title", text: "#\(point.packet) \(HTMLFormat.offset(offset(point.time))) \(point.kind.rawValue): "
                + HTMLFormat.number(point.value) + unit)
            html.close("circle")
        }
        html.close("svg")
        html.markup("\n")
    }

    // MARK: Names

    /// The name each accessory of each database gives itself, for labelling activity by `aid`.
    func accessoryNames() -> [AccessoryKey: String] {
        var names: [AccessoryKey: String] = [:]
        for device in model.accessories {
            for accessory in device.database?.accessories ?? [] {
                guard let name = accessory.name else { continue }
                let key = AccessoryKey(device: device.key, aid: accessory.aid)
                if names[key] == nil { names[key] = limits.clipped(name) }
            }
        }
        return names
    }
}
