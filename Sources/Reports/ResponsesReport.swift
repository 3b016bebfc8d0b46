import HAPEvents
import HAPJSON
import Packets

/// `hapscope responses`: "No Response", diagnosed. How long the accessory took to answer, per
/// characteristic and per controller (median, 95th percentile, maximum); the slow responses, the
/// requests never answered and the connections that ended with requests outstanding; the HAP
/// statuses answered; and each characteristic's EVENTs with what breaks HAP's notification rules.
/// Every judgement comes from the analysis (docs/audit-rules.md, "No Response" and "Events").
public final class ResponsesReport: EndOfRunReport {
    public var clock = CaptureClock()
    let output: ReportOutput
    let settings: ReportSettings
    private var facts: Responsiveness

    public init(output: ReportOutput, settings: ReportSettings, limits: Responsiveness.Limits = Responsiveness.Limits()) {
        self.output = output
        self.settings = settings
        facts = Responsiveness(limits: limits)
    }

    public func take(_ event: HAPEvent) {
        facts.take(event)
    }

    /// `findings` have no place in it.
    func writeJSON(findings _: [Finding]?) {
        writeJSONDocument(command: "responses", to: output) { writeMembers(into: &$0) }
    }

    func writeNDJSON(findings _: [Finding]?) {
        let lines = NDJSONLines(output: output)
        lines.header(command: "responses")
        lines.line("responses") { writeMembers(into: &$0) }
    }

    // MARK: Text

    private func seconds(_ value: Double?) -> String { value.map(CaptureClock.durationText) ?? "–" }

    private func at(_ packet: PacketInfo?) -> String {
        packet.map { "#\($0.number) +\(clock.relativeText($0.timestamp))" } ?? "–"
    }

    private func characteristicName(_ key: Responsiveness.CharacteristicKey, _ name: String?) -> String {
        "\(key.id)" + (name.map { " \($0)" } ?? "")
    }

    func writeText(findings _: [Finding]?) {
        let style = settings.style
        var lines: [String] = []
        let slowMark = CaptureClock.durationText(ResponseTiming.slowResponseSeconds)
        lines.append(style.paint("responses", .heading) + "  \(facts.all.count) timed, \(facts.all.slow) slower than \(slowMark); "
            + "median \(seconds(facts.all.median)), 95th percentile \(seconds(facts.all.percentile95)), maximum "
            + "\(facts.all.count > 0 ? seconds(facts.all.maximum) : "–")")
        lines.append(style.paint("  slow past \(slowMark) (HAP-NodeJS warns), past-timeout past "
            + "\(CaptureClock.durationText(ResponseTiming.abandonedResponseSeconds)) (HAP-NodeJS gives up): docs/audit-rules.md", .dim))

        lines.append("")
        lines.append(style.paint("by characteristic", .heading))
        var rows: [[String]] = [["accessory", "characteristic", "kind", "count", "median", "p95", "max", "slow"]]
        for times in facts.characteristics.values.sorted(by: { $0.key < $1.key }) {
            for (kind, distribution) in [("read", times.reads), ("write", times.writes)] where distribution.count > 0 {
                rows.append([times.key.accessory, characteristicName(times.key, times.name), kind, "\(distribution.count)",
                             seconds(distribution.median), seconds(distribution.percentile95), seconds(distribution.maximum),
                             "\(distribution.slow)"])
            }
        }
        lines += table(rows, style: style, empty: "no characteristic was read or written in a readable session")

        lines.append("")
        lines.append(style.paint("by controller", .heading))
        rows = [["controller", "count", "median", "p95", "max", "slow"]]
        for (controller, distribution) in facts.controllers.sorted(by: { $0.key < $1.key }) {
            rows.append([controller, "\(distribution.count)", seconds(distribution.median), seconds(distribution.percentile95),
                         seconds(distribution.maximum), "\(distribution.slow)"])
        }
        lines += table(rows, style: style, empty: "no response was timed", numbersFrom: 1)

        let slow = facts.responses.filter { $0.timing.verdict != .prompt }
        lines.append("")
        lines.append(style.paint("slow responses", .heading) + " \(slow.count)")
        for response in slow {
            lines.append("  " + style.paint("\(at(response.packet))", .dim) + " #\(response.connection.id) "
                + "\(response.request.method) \(response.request.target) (request #\(response.request.packet.number)) "
                + style.paint("\(response.status) after \(CaptureClock.durationText(response.timing.seconds)), \(response.timing.verdict.rawValue)", .warning))
        }

        let never = facts.unanswered.filter { $0.outstanding.isNeverAnswered(closedBy: $0.reason) }
        lines.append("")
        lines.append(style.paint("requests never answered", .heading) + " \(never.count)")
        for entry in facts.unanswered {
            let request = entry.outstanding.request
            let verdict = entry.outstanding.isNeverAnswered(closedBy: entry.reason)
                ? style.paint("never answered", .bad)
                : style.paint(entry.outstanding.accessoryDirectionSeenWhole ? "not answered before the capture ended" : "answer may be in what could not be read", .dim)
            lines.append("  \(at(request.packet)) #\(entry.connection.id) \(request.method) \(request.target): \(verdict); "
                + "connection \(entry.reason.wording) \(CaptureClock.durationText(entry.outstanding.waitedSeconds)) later at \(at(entry.closedAt))")
        }

        let closings = Dictionary(grouping: never.filter { $0.reason == .closed || $0.reason == .reset }, by: \.connection.id)
        lines.append("")
        lines.append(style.paint("connections closed with requests outstanding", .heading) + " \(closings.count)")
        for (_, entries) in closings.sorted(by: { $0.key < $1.key }) {
            let first = entries[0]
            lines.append("  #\(first.connection.id) \(first.connection.controller) → \(first.connection.accessory): "
                + "\(first.reason.wording) at \(at(first.closedAt)) with \(entries.count) outstanding")
        }

        lines.append("")
        lines.append(style.paint("HAP statuses answered", .heading) + " \(facts.statuses.count)")
        for count in facts.statuses.values.sorted(by: { $0.status.rawValue > $1.status.rawValue }) {
            let status = count.pduStatus.map { "PDU status \($0), read as \(count.status)" } ?? count.status.description
            lines.append("  " + style.paint(status, .bad) + "  \(count.count)×, first \(at(count.first)) for "
                + "\(count.characteristic)" + (count.name.map { " \($0)" } ?? ""))
        }

        lines.append("")
        lines.append(style.paint("events by characteristic", .heading))
        rows = [["accessory", "characteristic", "events", "first", "last", "shortest gap", "bursts"]]
        for times in facts.events.values.sorted(by: { $0.key < $1.key }) {
            rows.append([times.key.accessory, characteristicName(times.key, times.name), "\(times.count)",
                         times.first.map { "+" + clock.relativeText($0) } ?? "–", times.last.map { "+" + clock.relativeText($0) } ?? "–",
                         seconds(times.shortestGap), "\(times.bursts)"])
        }
        lines += table(rows, style: style, empty: "no EVENT in a readable session")
        lines.append("")
        lines.append(style.paint("event problems", .heading) + " \(facts.notificationFindings.count)")
        for finding in facts.notificationFindings {
            lines.append("  \(at(finding.packet)) #\(finding.connection.id) " + style.paint(Self.describe(finding.problem), .warning))
        }
        if facts.droppedGroups > 0 || facts.unlistedResponses > 0 {
            lines.append("")
            lines.append(style.paint("not listed: \(facts.unlistedResponses) responses beyond the first \(facts.limits.listed); "
                + "\(facts.droppedGroups) observations of characteristics or controllers beyond the first \(facts.limits.groups)", .dim))
        }
        output.write(lines.joined(separator: "\n") + "\n")
    }

    private func table(_ rows: [[String]], style: TextStyle, empty: String, numbersFrom firstNumber: Int = 3) -> [String] {
        guard rows.count > 1 else { return ["  " + style.paint(empty, .dim)] }
        let aligned = SummaryText.aligned(rows, indent: "  ", rightAligned: Set(firstNumber ..< rows[0].count))
        return [style.paint(aligned[0], .dim)] + aligned.dropFirst()
    }

    static func describe(_ problem: NotificationProblem) -> String {
        switch problem {
        case .burst(let id, let seconds):
            "burst: \(NotificationProblem.eventsInABurst) EVENTs for \(id) within \(CaptureClock.durationText(seconds))"
        case .insideResponse(let request, let seconds):
            "EVENT \(CaptureClock.durationText(seconds)) into \(request.method) \(request.target) (request #\(request.packet.number)), before its response"
        case .afterUnsubscribe(let id, let unsubscribedAt):
            "EVENT for \(id) after its \"ev\": false was answered in #\(unsubscribedAt.number)"
        }
    }

    // MARK: JSON

    private func writeDistribution(_ distribution: Responsiveness.Distribution, into writer: inout JSONWriter) {
        writer.member("count", distribution.count)
        writer.member("slow", distribution.slow)
        writer.member("median", seconds: distribution.median)
        writer.member("p95", seconds: distribution.percentile95)
        writer.member("max", seconds: distribution.count > 0 ? distribution.maximum : nil)
    }

    private func writeMembers(into writer: inout JSONWriter) {
        writer.object("thresholds") { writer in
            writer.member("slow", seconds: ResponseTiming.slowResponseSeconds)
            writer.member("pastTimeout", seconds: ResponseTiming.abandonedResponseSeconds)
            writer.member("eventCoalescing", seconds: NotificationProblem.coalescingSeconds)
        }
        writer.object("all") { writeDistribution(facts.all, into: &$0) }
        writer.objects("characteristics", facts.characteristics.values.sorted(by: { $0.key < $1.key })) { writer, times in
            writer.member("accessory", times.key.accessory)
            writer.member("characteristic", times.key.id.description)
            writer.member("name", times.name)
            if times.reads.count > 0 { writer.object("reads") { writeDistribution(times.reads, into: &$0) } }
            if times.writes.count > 0 { writer.object("writes") { writeDistribution(times.writes, into: &$0) } }
        }
        writer.objects("controllers", facts.controllers.sorted(by: { $0.key < $1.key })) { writer, entry in
            writer.member("controller", entry.key)
            writeDistribution(entry.value, into: &writer)
        }
        writer.objects("responses", facts.responses) { writer, response in
            writer.packetMembers(response.packet, clock: clock)
            EventJSON.writeConnection(response.connection, into: &writer)
            writer.member("method", response.request.method)
            writer.member("target", response.request.target)
            writer.member("requestPacket", response.request.packet.number)
            writer.member("status", response.status)
            writer.member("seconds", seconds: response.timing.seconds)
            writer.member("verdict", response.timing.verdict.rawValue)
        }
        writer.member("responsesNotListed", facts.unlistedResponses)
        writer.objects("unansweredRequests", facts.unanswered) { writer, entry in
            EventJSON.writeConnection(entry.connection, into: &writer)
            writer.member("method", entry.outstanding.request.method)
            writer.member("target", entry.outstanding.request.target)
            writer.member("packet", entry.outstanding.request.packet.number)
            writer.member("waited", seconds: entry.outstanding.waitedSeconds)
            writer.member("neverAnswered", entry.outstanding.isNeverAnswered(closedBy: entry.reason))
            writer.member("reason", entry.reason.wording)
            writer.member("closedPacket", entry.closedAt?.number)
        }
        writer.objects("statuses", facts.statuses.values.sorted(by: { $0.status.rawValue > $1.status.rawValue })) { writer, count in
            writer.member("status", count.status.rawValue)
            writer.member("name", count.status.name)
            writer.member("pduStatus", count.pduStatus.map { Int($0.rawValue) })
            writer.member("pduStatusName", count.pduStatus?.name)
            writer.member("count", count.count)
            writer.member("firstPacket", count.first?.number)
            writer.member("characteristic", count.characteristic.description)
        }
        writer.objects("events", facts.events.values.sorted(by: { $0.key < $1.key })) { writer, times in
            writer.member("accessory", times.key.accessory)
            writer.member("characteristic", times.key.id.description)
            writer.member("name", times.name)
            writer.member("count", times.count)
            writer.member("firstTime", seconds: times.first.flatMap(clock.relativeSeconds))
            writer.member("lastTime", seconds: times.last.flatMap(clock.relativeSeconds))
            writer.member("shortestGap", seconds: times.shortestGap)
            writer.member("bursts", times.bursts)
        }
        writer.objects("eventProblems", facts.notificationFindings) { writer, finding in
            writer.packetMembers(finding.packet, clock: clock)
            EventJSON.writeConnection(finding.connection, into: &writer)
            EventJSON.writeNotificationProblem(finding.problem, into: &writer)
        }
    }
}
