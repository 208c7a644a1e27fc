import CatalogCore
import Foundation

/// The report's timeline of the window, from the start of the report's day to the end of its last:
/// one lane per team and app (and one per team for certificates), each profile a circle and each
/// certificate a diamond at its effective expiry, coloured by status, superseded profiles greyed.
/// What has expired is not drawn. Inline SVG: no script, no font or image fetched.
struct TimelineSVG {
    var data: ReportData
    /// Lanes beyond this are summarised in one line, so a large catalogue stays readable.
    var maxLanes = 60

    static let labelWidth = 300.0
    static let plotWidth = 660.0
    static let laneHeight = 24.0
    static let axisHeight = 30.0

    func render() -> String {
        let items = data.timelineItems
        let start = DaysLeft.start(data.asOf)
        let end = data.end
        let span = end.timeIntervalSince(start)
        func x(_ date: Date) -> Double {
            let clamped = min(max(date, start), end)
            return Self.labelWidth + clamped.timeIntervalSince(start) / span * Self.plotWidth
        }
        // Lanes in order of their first expiry.
        var order: [String] = []
        var lanes: [String: [ReportData.Item]] = [:]
        for item in items {
            if lanes[item.lane] == nil { order.append(item.lane) }
            lanes[item.lane, default: []].append(item)
        }
        let shown = Array(order.prefix(maxLanes))
        let height = Self.axisHeight + Double(max(shown.count, 1)) * Self.laneHeight + (order.count > shown.count ? Self.laneHeight : 0) + 10
        let width = Self.labelWidth + Self.plotWidth + 20
        var svg = """
            <svg class="timeline" xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 \(Int(width)) \(Int(height))" \
            width="\(Int(width))" height="\(Int(height))" aria-label="Expiry timeline from \(ISO8601.format(start).prefix(10)) to \(ISO8601.format(end).prefix(10))">

            """
        // Axis: ticks weekly for short windows, else monthly.
        let tickDays = data.days <= 60 ? 7 : 30
        var tick = start
        while tick <= end {
            let position = x(tick)
            svg += "<line class=\"grid\" x1=\"\(f(position))\" y1=\"\(f(Self.axisHeight - 6))\" x2=\"\(f(position))\" y2=\"\(f(height - 10))\"/>"
            svg += "<text class=\"tick\" x=\"\(f(position))\" y=\"\(f(Self.axisHeight - 12))\">\(ISO8601.format(tick).dropFirst(5).prefix(5))</text>\n"
            tick = tick.addingTimeInterval(Double(tickDays) * 86_400)
        }
        let today = x(data.asOf)
        svg += "<line class=\"today\" x1=\"\(f(today))\" y1=\"\(f(Self.axisHeight - 6))\" x2=\"\(f(today))\" y2=\"\(f(height - 10))\"/>"
        svg += "<text class=\"today-label\" x=\"\(f(today + 3))\" y=\"\(f(height - 12))\">today</text>\n"
        for (index, lane) in shown.enumerated() {
            let y = Self.axisHeight + Double(index) * Self.laneHeight + Self.laneHeight / 2
            svg += "<g class=\"lane\" data-lane=\"\(HTMLEscape.text(lane))\">"
            svg += "<text class=\"lane-label\" x=\"\(f(Self.labelWidth - 8))\" y=\"\(f(y + 4))\">\(HTMLEscape.text(Self.shortened(lane, 44)))</text>"
            svg += "<line class=\"lane-line\" x1=\"\(f(Self.labelWidth))\" y1=\"\(f(y))\" x2=\"\(f(Self.labelWidth + Self.plotWidth))\" y2=\"\(f(y))\"/>"
            for item in lanes[lane] ?? [] {
                let cx = x(item.expires)
                let classes = "mark \(Self.statusClass(item.status))" + (item.supersededBy != nil ? " superseded" : "")
                let title = "<title>\(HTMLEscape.text(item.name)) — \(ISO8601.format(item.expires).prefix(10))\(item.supersededBy != nil ? " (superseded)" : "")</title>"
                if item.isCertificate {
                    svg += "<path class=\"\(classes) certificate\" d=\"M\(f(cx)) \(f(y - 7))l7 7l-7 7l-7 -7z\">\(title)</path>"
                } else {
                    svg += "<circle class=\"\(classes) profile\" cx=\"\(f(cx))\" cy=\"\(f(y))\" r=\"6\">\(title)</circle>"
                }
            }
            svg += "</g>\n"
        }
        if shown.isEmpty {
            svg += "<text class=\"lane-label empty\" x=\"\(f(Self.labelWidth + 10))\" y=\"\(f(Self.axisHeight + 16))\">Nothing expires in the window.</text>\n"
        }
        if order.count > shown.count {
            let y = Self.axisHeight + Double(shown.count) * Self.laneHeight + 16
            svg += "<text class=\"lane-label more\" x=\"\(f(Self.labelWidth - 8))\" y=\"\(f(y))\">… and \(order.count - shown.count) more lanes (see the tables)</text>\n"
        }
        return svg + "</svg>"
    }

    static func statusClass(_ status: ReportData.Status) -> String {
        switch status {
        case .expired: return "expired"
        case .week: return "week"
        case .window: return "window"
        case .later: return "later"
        }
    }

    static func shortened(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    private func f(_ value: Double) -> String { String(format: "%.1f", value) }
}
