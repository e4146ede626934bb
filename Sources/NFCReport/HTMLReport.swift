import NFCCore
import NFCDissect

/// `nfctrace report`: one self-contained HTML file — style sheet, page script and data inline, no
/// network access — that shows one or several traces (a tab each): sessions, a timeline, the
/// frame list, each frame's field tree beside its bytes, the tag memory the sessions rebuilt.
///
/// Each trace is two inert script elements the page script reads: its `ReportRenderer` data
/// (`application/json`) and its frames' `dissect --format json` lines (`text/plain`, parsed one
/// line at a time when a frame is shown).
public struct HTMLReport {
    public struct Trace {
        public var data: [UInt8]
        public var detail: [UInt8]
        public init(data: [UInt8], detail: [UInt8]) {
            self.data = data
            self.detail = detail
        }

        /// The frames `next` delivers, dissected for a tab (`nfctrace report`, `replay --format
        /// html`); an error of `next` (a damaged capture) ends it with the frames before it and
        /// comes back beside it.
        public static func dissecting(_ next: () throws -> Frame?, name: String, source: String, keys: KeyList,
                                      detailLimit: Int) -> (Trace, damage: Error?) {
            let renderer = ReportRenderer(detailLimit: detailLimit)
            var damage: Error? = nil
            do {
                _ = try PipelinedDissection.run(Dissector(detail: .full, keys: keys), frames: next) { events in
                    PipelinedDissection.drain(&events) { renderer.render(pending: $0) }
                }
            } catch {
                damage = error
            }
            return (Trace(data: renderer.data(name: name, source: source), detail: renderer.detail), damage)
        }
    }

    public var title: String
    public var traces: [Trace] = []
    /// `replay --format html`: a JSON array of `ReplayReport.object(_:frames: true)`, shown as a
    /// first tab with each trace's verdict and, at a divergence, both answers side by side.
    public var replay: [UInt8]?

    public init(title: String) {
        self.title = title
    }

    /// The whole document, written piece by piece (a million-frame trace is tens of megabytes).
    public func write(_ emit: ([UInt8]) throws -> Void) throws {
        try emit(Array("""
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <meta name="generator" content="nfctrace report">
            <title>\(MarkupText.escaped(title))</title>
            <style>

            """.utf8))
        try emit(PackageResources.report_css)
        try emit(Array("</style>\n</head>\n<body>\n<noscript>This report needs JavaScript.</noscript>\n".utf8))
        if let replay {
            try emit(Array("<script type=\"application/json\" class=\"nfctrace-replay\">".utf8))
            try emit(Self.inert(replay))
            try emit(Array("</script>\n".utf8))
        }
        for (i, trace) in traces.enumerated() {
            try emit(Array("<script type=\"application/json\" class=\"nfctrace-data\" data-trace=\"\(i)\">".utf8))
            try emit(Self.inert(trace.data))
            try emit(Array("</script>\n<script type=\"text/plain\" class=\"nfctrace-detail\" data-trace=\"\(i)\">".utf8))
            try emit(Self.inert(trace.detail))
            try emit(Array("</script>\n".utf8))
        }
        try emit(Array("<script>\n".utf8))
        try emit(PackageResources.report_js)
        try emit(Array("</script>\n</body>\n</html>\n".utf8))
    }

    /// JSON made safe inside a script element: every `<` (only ever inside JSON strings) as the
    /// escape `\u003c`, so that no `</script>` or `<!--` in a tag's data ends the element.
    static func inert(_ json: [UInt8]) -> [UInt8] {
        guard json.contains(0x3C) else { return json }
        var out: [UInt8] = []
        out.reserveCapacity(json.count + 64)
        for b in json {
            if b == 0x3C { out += [0x5C, 0x75, 0x30, 0x30, 0x33, 0x63] } else { out.append(b) }
        }
        return out
    }
}
