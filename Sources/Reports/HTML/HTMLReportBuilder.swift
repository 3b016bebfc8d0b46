import TLV8
import HAPEvents
import HAPModel
import HAPJSON
import Packets

/// Builds the self-contained HTML report (`--format html`): a consumer of the event stream that
/// keeps what the report shows, then renders one document with no external assets.
///
/// Feed it every event of the analysis, then call `render(findings:title:)`. It keeps rows already
/// reduced to what the report shows, bounded by `limits`, and the report says what was left out.
/// The summary and the accessory tree come from a `CaptureModel` the builder feeds itself.
///
/// ```swift
/// let report = HTMLReportBuilder()
/// let analyzer = CaptureAnalyzer(configuration: configuration) { event in
///     report.consume(event)
///     audit.consume(event)
/// }
/// analyzer.analyze(reader)
/// let document = report.render(findings: findings, title: "bridge.pcap")
/// ```
///
/// The document is deterministic for a given event stream: no wall clock, no randomness, every
/// dictionary walked in a fixed order. Everything from the capture is escaped (`HTMLWriter`), and
/// a Content-Security-Policy allows nothing but the document's own style sheet: no script, no fetch.
public final class HTMLReportBuilder: HAPEventConsumer {
    public let limits: HTMLReportLimits
    let model = CaptureModel()

    private(set) var ladders: [PairingLadder] = []
    private(set) var droppedLadders = 0
    /// Messages of exchanges still running.
    private var openLadders: PairingLadderCollector

    /// Response times, unanswered requests, statuses and EVENTs, for "Responses and events".
    private(set) var responsiveness = Responsiveness()

    private(set) var timeline: [TimelineEntry] = []
    private(set) var droppedTimelineEntries = 0

    private(set) var plots: [PlotSeries] = []
    private var plotIndex: [PlotKey: Int] = [:]
    /// Numeric values of characteristics that found no plot once `plottedCharacteristics` was reached.
    private(set) var unplottedValues = 0

    private(set) var discovery: [DiscoveryEntry] = []
    private(set) var droppedDiscoveryEntries = 0
    /// The last advertisement of each instance, in the order instances were first seen.
    private(set) var instances: [DiscoveredInstance] = []
    private var instanceIndex: [String: Int] = [:]
    /// Advertisements of instances beyond `discoveryInstances`.
    private(set) var droppedInstanceAdvertisements = 0

    /// The first packet any event pointed at: the time origin until the input's summary arrives.
    private(set) var firstEventTime: Timestamp?

    public init(limits: HTMLReportLimits = HTMLReportLimits()) {
        self.limits = limits
        openLadders = PairingLadderCollector(maximumSteps: limits.messagesPerLadder)
    }

    public func consume(_ event: HAPEvent) {
        model.consume(event)
        responsiveness.take(event)
        if firstEventTime == nil, let packet = event.packet { firstEventTime = packet.timestamp }
        switch event.kind {
        case .advertisement(let advertisement):
            record(advertisement, packet: event.packet)
        case .mdnsQuery(let query):
            recordDiscovery { DiscoveryEntry(query, packet: event.packet, limits: limits) }
        case .pairingMessage:
            // Once the ladders are full, later exchanges are only counted: keep none of their steps.
            guard ladders.count < limits.pairingLadders else { return }
            _ = openLadders.take(event)
        case .pairingExchange:
            guard let ladder = openLadders.take(event) else { return }
            guard ladders.count < limits.pairingLadders else {
                droppedLadders += 1
                return
            }
            ladders.append(PairingLadder(ladder, limits: limits))
        case .characteristic(let activity):
            if timeline.count < limits.timelineEntries {
                timeline.append(TimelineEntry(activity, packet: event.packet, limits: limits))
            } else {
                droppedTimelineEntries += 1
            }
            if let packet = event.packet, let number = activity.value?.value.numericValue {
                recordPlotPoint(activity, value: number, packet: packet)
            }
        case .inputOpened, .problem, .bleAdvertisement, .connectionOpened, .httpMessage, .sessionStarted, .sessionJoined,
             .sessionProblem, .decryptedData, .accessoryDatabase, .databaseDump, .connectionClosed, .inputEnded:
            break
        }
    }

    /// The whole document: summary, accessory tree, pairing ladders, characteristic timeline with
    /// plots, mDNS table and `findings`. `title` names the report (e.g. the capture's file name).
    public func render(findings: [Finding], title: String) -> String {
        var html = HTMLWriter()
        html.markup("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        html.open("meta", ["http-equiv": "Content-Security-Policy", "content": HTMLStyleSheet.contentSecurityPolicy])
        html.markup("\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        html.markup("<meta name=\"color-scheme\" content=\"light dark\">\n<meta name=\"generator\" content=\"hapscope\">\n")
        html.element("title", text: limits.clipped(title) + " — hapscope report")
        html.markup("\n<style>")
        html.markup(HTMLStyleSheet.css)
        html.markup("</style>\n</head>\n<body>\n")
        writeHeader(&html, title: limits.clipped(title))
        html.markup("<main>\n")
        writeSummary(&html, findings: findings)
        writeAccessoryTree(&html)
        writePairingLadders(&html)
        writeTimeline(&html)
        writeResponses(&html)
        writeDiscovery(&html)
        writeFindings(&html, findings: findings)
        html.markup("""
            </main>
            <footer><p>Generated by hapscope from the capture alone: times are capture times, and packet numbers \
            (#123) are those of Wireshark’s “Go to packet”.</p></footer>
            </body>
            </html>

            """)
        return html.output
    }

    // MARK: Recording

    private func recordDiscovery(_ entry: () -> DiscoveryEntry) {
        if discovery.count < limits.discoveryEntries {
            discovery.append(entry())
        } else {
            droppedDiscoveryEntries += 1
        }
    }

    private func record(_ advertisement: AdvertisementEvent, packet: PacketInfo?) {
        recordDiscovery { DiscoveryEntry(advertisement, packet: packet, limits: limits) }
        guard !advertisement.service.isGoodbye else { return }
        let key = advertisement.service.name.escapedText.lowercased()
        if let index = instanceIndex[key] {
            instances[index] = DiscoveredInstance(advertisement, packet: packet, limits: limits)
        } else if instances.count < limits.discoveryInstances {
            instanceIndex[key] = instances.count
            instances.append(DiscoveredInstance(advertisement, packet: packet, limits: limits))
        } else {
            droppedInstanceAdvertisements += 1
        }
    }

    private func recordPlotPoint(_ activity: CharacteristicActivity, value: Double, packet: PacketInfo) {
        let key = PlotKey(accessory: AccessoryKey(activity), id: activity.id)
        let index: Int
        if let existing = plotIndex[key] {
            index = existing
        } else {
            guard plots.count < limits.plottedCharacteristics else {
                unplottedValues += 1
                return
            }
            index = plots.count
            plotIndex[key] = index
            plots.append(PlotSeries(accessory: key.accessory, id: activity.id))
        }
        if let name = activity.name { plots[index].name = limits.clipped(name) }
        plots[index].unit = activity.unit ?? plots[index].unit
        if plots[index].points.count < limits.pointsPerPlot {
            plots[index].points.append(PlotSeries.Point(time: packet.timestamp, value: value, packet: packet.number, kind: activity.kind))
        } else {
            plots[index].droppedPoints += 1
        }
    }

    // MARK: Time

    /// The capture's first packet: every offset in the report counts from it.
    var timeOrigin: Timestamp? {
        model.summary?.firstPacketTime ?? firstEventTime
    }

    /// Seconds from the capture's first packet.
    func offset(_ time: Timestamp) -> Double {
        timeOrigin.map { time - $0 } ?? 0
    }

    // MARK: Keys

    /// One accessory of one device: the device as the model keys it (its device id, or its
    /// endpoint when no id was learned) and the accessory's `aid` behind it.
    struct AccessoryKey: Hashable {
        let device: String
        let aid: UInt64

        init(device: String, aid: UInt64) {
            self.device = device
            self.aid = aid
        }

        init(_ activity: CharacteristicActivity) {
            self.init(device: activity.deviceID ?? activity.connection.accessory.description, aid: activity.id.aid)
        }
    }

    private struct PlotKey: Hashable {
        let accessory: AccessoryKey
        let id: CharacteristicID
    }
}
