/// A plot of values over the capture's time, as every plot of the HTML report draws it: an SVG
/// of a fixed size, horizontal grid lines labelled with the values, time ticks labelled in
/// seconds since the first packet, and the time axis.
struct HTMLPlotFrame {
    let width: Double
    let height: Double
    let left: Double
    let right: Double
    let top: Double
    let bottom: Double
    let time: HTMLAxisScale
    let values: HTMLAxisScale

    func x(_ seconds: Double) -> String {
        HTMLReportBuilder.coordinate(time.position(of: seconds, from: left, to: right))
    }

    func y(_ value: Double, shiftedBy shift: Double = 0) -> String {
        HTMLReportBuilder.coordinate(values.position(of: value, from: bottom, to: top) + shift)
    }

    /// Opens the `svg` (the caller draws the series and closes it), with `summary` as its
    /// accessible name and title; value labels end in `unit`.
    func open(class className: String, summary: String, unit: String, _ html: inout HTMLWriter) {
        html.open("svg", ["class": className, "viewBox": "0 0 \(Int(width)) \(Int(height))", "width": "\(Int(width))",
                          "role": "img", "aria-label": summary])
        html.element("title", text: summary)
        for tick in values.ticks {
            html.open("line", ["class": "grid", "x1": x(time.lower), "y1": y(tick), "x2": x(time.upper), "y2": y(tick)])
            html.close("line")
            html.element("text", ["class": "muted", "x": HTMLReportBuilder.coordinate(left - 6), "y": y(tick, shiftedBy: 4), "text-anchor": "end"],
                         text: HTMLFormat.fixed(tick, decimals: values.decimals) + unit)
        }
        for tick in time.ticks {
            html.open("line", ["class": "axis", "x1": x(tick), "y1": y(values.lower), "x2": x(tick), "y2": y(values.lower, shiftedBy: 4)])
            html.close("line")
            html.element("text", ["class": "muted", "x": x(tick), "y": y(values.lower, shiftedBy: 18), "text-anchor": "middle"],
                         text: "+" + HTMLFormat.fixed(tick, decimals: time.decimals) + " s")
        }
        html.open("line", ["class": "axis", "x1": x(time.lower), "y1": y(values.lower), "x2": x(time.upper), "y2": y(values.lower)])
        html.close("line")
        html.element("text", ["class": "muted", "x": x(time.upper), "y": HTMLReportBuilder.coordinate(height - 2), "text-anchor": "end"],
                     text: "seconds since the first packet")
    }
}
