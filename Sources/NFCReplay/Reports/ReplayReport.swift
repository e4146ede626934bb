import NFCCore
import NFCDissect

/// Replay results as text (people), JSON Lines (machines) and JUnit XML (CI systems).
public enum ReplayReport {
    // MARK: text

    public static func text(_ results: [ReplayResult]) -> String {
        var out = ""
        for r in results { out += text(r) }
        out += summaryLine(results) + "\n"
        return out
    }

    public static func text(_ r: ReplayResult) -> String {
        let counts = "\(r.exchanges) exchange\(r.exchanges == 1 ? "" : "s"), \(r.fieldCycles) field cycle\(r.fieldCycles == 1 ? "" : "s")"
        var out = ""
        switch r.outcome {
        case .passed:
            out += "PASS  \(r.trace)  (\(counts))\n"
            out += inferred(r)
            for (rule, n) in r.accepted.sorted(by: { $0.key < $1.key }) { out += "      accepted \(n)× by \(rule)\n" }
        case .unreadable(let why):
            out += "ERROR \(r.trace): unreadable after \(counts): \(why)\n"
        case .targetFailed(let why):
            out += "ERROR \(r.trace): target \(r.target) failed after \(counts): \(why)\n"
        case .noTarget(let why):
            out += "ERROR \(r.trace): \(why)\n"
        case .inexpressible(let frames):
            out += "SKIP  \(r.trace): \(frames.count) reader frame\(frames.count == 1 ? "" : "s") cannot be sent through \(r.target); nothing was sent\n"
            for f in frames.prefix(10) {
                out += "      #\(f.frame) \(Hex.string(f.bytes.prefix(8)))\(f.bytes.count > 8 ? " …" : ""): \(f.reason)\n"
            }
            if frames.count > 10 { out += "      … and \(frames.count - 10) more\n" }
        case .diverged(let d):
            out += "FAIL  \(r.trace): first divergence at frame \(d.frame) (\(counts) before it): \(d.reason)\n"
            out += inferred(r)
            out += divergence(d)
        }
        return out
    }

    /// What the replay inferred of a trace without field events (`ReplayResult.inferredFieldCycles`).
    static func inferred(_ r: ReplayResult) -> String {
        var out = ""
        if !r.inferredFieldCycles.isEmpty {
            out += "      field cycle\(r.inferredFieldCycles.count == 1 ? "" : "s") inferred before frame\(r.inferredFieldCycles.count == 1 ? "" : "s") "
                + r.inferredFieldCycles.map(String.init).joined(separator: ", ")
                + " (the trace has no field events; the tag answered there, which it does only after the field was off)\n"
        }
        if !r.cardAbsent.isEmpty {
            out += "      card not in the field at frame\(r.cardAbsent.count == 1 ? "" : "s") " + r.cardAbsent.map(String.init).joined(separator: ", ")
                + " (the trace has no field events; the recorded tag did not answer there, the target did)\n"
        }
        return out
    }

    static func line(_ d: FrameDissection) -> String {
        let src = d.frame.direction == .readerToTag ? "Rdr" : (d.frame.direction == .tagToReader ? "Tag" : "RF ")
        var bytes = Hex.string(d.frame.bytes.prefix(12), hiding: d.masked)
        if d.frame.bytes.count > 12 { bytes += " …" }
        return "#\(d.number) \(src) \(bytes)  \(d.summary)"
    }

    /// The divergence: the exchanges that led there, then both answers dissected side by side.
    static func divergence(_ d: ReplayDivergence) -> String {
        var out = ""
        if !d.history.isEmpty {
            out += "      exchanges before it (as recorded):\n"
            for h in d.history { out += "        \(line(h))\n" }
        }
        out += "      request:   \(line(d.request))\n"
        if d.sent.bytes != d.request.frame.bytes { out += "      sent:      \(Hex.string(d.sent.bytes)) (after substitutions)\n" }
        let left = column(d.recorded, title: "recorded answer")
        let right = column(d.actual, title: "target's answer")
        let width = max(40, (left.map(\.count).max() ?? 0) + 2)
        for i in 0..<max(left.count, right.count) {
            let l = i < left.count ? left[i] : ""
            let r = i < right.count ? right[i] : ""
            out += "      " + l + String(repeating: " ", count: max(1, width - l.count)) + "| " + r + "\n"
        }
        let unaccepted = d.differences.filter { $0.acceptedBy == nil }
        if !unaccepted.isEmpty {
            out += "      fields that differ:\n"
            for f in unaccepted {
                out += "        \(f.key) (\(f.label)): recorded \(f.recorded.map { "\"\($0)\"" } ?? "absent"), target \(f.actual.map { "\"\($0)\"" } ?? "absent")\n"
            }
        }
        return out
    }

    /// One side: summary, bytes, then the top-level fields.
    static func column(_ d: FrameDissection?, title: String) -> [String] {
        guard let d else { return [title + ": (silence)"] }
        var lines = [title + ": " + d.summary, "  bytes \(Hex.string(d.frame.bytes.prefix(16), hiding: d.masked))" + (d.frame.bytes.count > 16 ? " …" : "")]
        func add(_ f: Field, depth: Int) {
            guard lines.count < 24 else { return }
            lines.append(String(repeating: "  ", count: depth + 1) + "\(f.label): \(f.value)")
            for c in f.children { add(c, depth: depth + 1) }
        }
        for f in d.fields where !f.key.hasSuffix(".crc") { add(f, depth: 0) }
        return lines
    }

    public static func summaryLine(_ results: [ReplayResult]) -> String {
        let passed = results.filter(\.passed).count
        let diverged = results.filter { if case .diverged = $0.outcome { return true } else { return false } }.count
        let skipped = results.filter { if case .inexpressible = $0.outcome { return true } else { return false } }.count
        let errors = results.count - passed - diverged - skipped
        let exchanges = results.reduce(0) { $0 + $1.exchanges }
        let seconds = results.reduce(0) { $0 + $1.seconds }
        return "\(results.count) trace\(results.count == 1 ? "" : "s"): \(passed) passed, \(diverged) diverged, "
            + (skipped > 0 ? "\(skipped) not expressible through the target, " : "") + "\(errors) unreadable or failed; "
            + "\(exchanges) exchanges in \(formatSeconds(seconds)) s"
    }

    static func formatSeconds(_ s: Double) -> String {
        let ms = Int((s * 1000).rounded())
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - String(ms % 1000).count))\(ms % 1000)"
    }

    // MARK: JSON Lines

    public static func json(_ results: [ReplayResult]) -> String {
        var out = ""
        for r in results { out += object(r) + "\n" }
        let passed = results.filter(\.passed).count
        out += "{\"type\":\"summary\",\"traces\":\(results.count),\"passed\":\(passed),\"failed\":\(results.count - passed)}\n"
        return out
    }

    /// One result as a JSON object (a line of `json`); `frames` adds, at a divergence, the
    /// recorded and the target's answers dissected (`"recorded_frame"`, `"actual_frame"`: their
    /// `dissect --format json` objects) for `replay --format html`.
    public static func object(_ r: ReplayResult, frames: Bool = false) -> String {
        var o = "{\"type\":\"replay\",\"trace\":\(quote(r.trace)),\"target\":\(quote(r.target))"
        o += ",\"exchanges\":\(r.exchanges),\"field_cycles\":\(r.fieldCycles),\"seconds\":\(formatSeconds(r.seconds))"
        if !r.inferredFieldCycles.isEmpty { o += ",\"inferred_field_cycles\":[" + r.inferredFieldCycles.map(String.init).joined(separator: ",") + "]" }
        if !r.cardAbsent.isEmpty { o += ",\"card_absent\":[" + r.cardAbsent.map(String.init).joined(separator: ",") + "]" }
        switch r.outcome {
        case .passed: o += ",\"result\":\"pass\""
        case .unreadable(let why): o += ",\"result\":\"unreadable\",\"error\":\(quote(why))"
        case .targetFailed(let why): o += ",\"result\":\"target-failed\",\"error\":\(quote(why))"
        case .noTarget(let why): o += ",\"result\":\"no-target\",\"error\":\(quote(why))"
        case .inexpressible(let frames):
            o += ",\"result\":\"inexpressible\",\"frames\":[" + frames.map {
                "{\"frame\":\($0.frame),\"bytes\":\(quote(Hex.string($0.bytes, separator: ""))),\"reason\":\(quote($0.reason))}"
            }.joined(separator: ",") + "]"
        case .diverged(let d):
            o += ",\"result\":\"diverged\",\"frame\":\(d.frame),\"reason\":\(quote(d.reason))"
            o += ",\"request\":\(quote(Hex.string(d.request.frame.bytes, separator: ""))),\"request_summary\":\(quote(d.request.summary))"
            o += ",\"sent\":\(quote(Hex.string(d.sent.bytes, separator: "")))"
            // Card data as the dissect JSON writes it: `**` for a masked byte.
            if let rec = d.recorded { o += ",\"recorded\":\(quote(Hex.string(rec.frame.bytes[...], hiding: rec.masked, separator: "", mask: "**"))),\"recorded_summary\":\(quote(rec.summary))" }
            if let act = d.actual { o += ",\"actual\":\(quote(Hex.string(act.frame.bytes[...], hiding: act.masked, separator: "", mask: "**"))),\"actual_summary\":\(quote(act.summary))" }
            o += ",\"differences\":[" + d.differences.map { f in
                "{\"key\":\(quote(f.key)),\"recorded\":\(f.recorded.map(quote) ?? "null"),\"actual\":\(f.actual.map(quote) ?? "null")"
                    + (f.acceptedBy.map { ",\"accepted_by\":\(quote($0))" } ?? "") + "}"
            }.joined(separator: ",") + "]"
            if frames {
                let renderer = JSONRenderer()
                for (key, frame) in [("request_frame", d.request), ("recorded_frame", d.recorded), ("actual_frame", d.actual)] {
                    guard let frame else { continue }
                    var line: [UInt8] = []
                    renderer.render(.frame(frame), into: &line)
                    if line.last == 0x0A { line.removeLast() }
                    o += ",\"\(key)\":" + String(decoding: line, as: UTF8.self)
                }
            }
        }
        o += ",\"accepted\":{" + r.accepted.sorted(by: { $0.key < $1.key }).map { "\(quote($0.key)):\($0.value)" }.joined(separator: ",") + "}}"
        return o
    }

    static func quote(_ s: String) -> String { JSONText.quoted(s) }

    // MARK: JUnit XML

    /// One test case per trace, so that CI systems show each trace as a test.
    public static func junit(_ results: [ReplayResult], suite: String = "nfctrace replay") -> String {
        let failures = results.filter { if case .diverged = $0.outcome { return true } else { return false } }.count
        let skipped = results.filter { if case .inexpressible = $0.outcome { return true } else { return false } }.count
        let errors = results.count - results.filter(\.passed).count - failures - skipped
        let total = results.reduce(0) { $0 + $1.seconds }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(formatSeconds(total))\">\n"
        out += "  <testsuite name=\(xml(suite)) tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(formatSeconds(total))\">\n"
        for r in results {
            out += "    <testcase name=\(xml(r.trace)) classname=\(xml("replay against " + r.target)) time=\"\(formatSeconds(r.seconds))\""
            switch r.outcome {
            case .passed:
                out += "/>\n"
            case .diverged(let d):
                out += ">\n      <failure message=\(xml("frame \(d.frame): \(d.reason)")) type=\"divergence\">"
                out += xmlText(text(r)) + "</failure>\n    </testcase>\n"
            case .unreadable(let why), .targetFailed(let why), .noTarget(let why):
                out += ">\n      <error message=\(xml(why)) type=\"error\"/>\n    </testcase>\n"
            case .inexpressible(let frames):
                out += ">\n      <skipped message=\(xml("\(frames.count) frame(s) cannot be sent through \(r.target), first #\(frames.first?.frame ?? 0): \(frames.first?.reason ?? "")"))/>\n    </testcase>\n"
            }
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    static func xmlText(_ s: String) -> String { MarkupText.escaped(s) }

    static func xml(_ s: String) -> String { "\"" + xmlText(s) + "\"" }
}
