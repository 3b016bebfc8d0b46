import HAPEvents
/// The pieces every section of the report is made of.
extension HTMLWriter {
    /// `<section id=…><h2>title</h2>…</section>`.
    mutating func section(id: StaticString, title: StaticString, _ content: (inout HTMLWriter) -> Void) {
        markup("<section id=\"")
        markup(id)
        markup("\">\n<h2>")
        markup(title)
        markup("</h2>\n")
        content(&self)
        markup("</section>\n")
    }

    /// A table whose header cells are fixed text; `rows` writes the `<tr>`s of its body.
    mutating func table(
        class className: StaticString? = nil, headers: [StaticString], numericColumns: Set<Int> = [],
        _ rows: (inout HTMLWriter) -> Void
    ) {
        if let className {
            markup("<table class=\"")
            markup(className)
            markup("\">")
        } else {
            markup("<table>")
        }
        markup("<thead><tr>")
        for (index, header) in headers.enumerated() {
            markup(numericColumns.contains(index) ? "<th class=\"num\">" : "<th>")
            markup(header)
            markup("</th>")
        }
        markup("</tr></thead>\n<tbody>\n")
        rows(&self)
        markup("</tbody></table>\n")
    }

    /// `<td>escaped text</td>`.
    mutating func cell(_ text: String) {
        element("td", text: text)
    }

    /// A right-aligned cell for a count or measurement.
    mutating func numberCell(_ text: String) {
        element("td", ["class": "num"], text: text)
    }

    /// The packet a user opens in Wireshark: `#123`, or a dash when there is none.
    mutating func packetCell(_ number: Int?) {
        element("td", ["class": "pkt"], text: number.map { "#\($0)" } ?? "—")
    }

    /// Tells the reader that a list is incomplete and why: `21 timeline entries not shown: the
    /// report lists the first 5,000.` Nothing when nothing was left out.
    mutating func omissionNote(_ count: Int, _ singular: String, _ plural: String, reason: String) {
        guard count > 0 else { return }
        element("p", ["class": "note"], text: "\(HTMLFormat.count(count, singular, plural)) not shown: \(reason).")
    }

    /// Text in a span of a fixed class, for colour and emphasis.
    mutating func span(_ className: String, _ text: String) {
        element("span", ["class": className], text: text)
    }
}
