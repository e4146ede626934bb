import Foundation
import Testing

/// Headless Chromium (Debian's chromium + chromium-driver) driven by selenium from .build-venv.
enum Browser {
    static let chromium = ProcessInfo.processInfo.environment["NFCTRACE_CHROMIUM"] ?? "/usr/bin/chromium"
    static let driver = ProcessInfo.processInfo.environment["NFCTRACE_CHROMEDRIVER"] ?? "/usr/bin/chromedriver"
    static let python: String? = {
        let candidates = [ProcessInfo.processInfo.environment["NFCTRACE_PYTHON"], CLI.root + "/.build-venv/bin/python"].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) && Python.hasModule($0, "selenium") }
    }()
    static var available: Bool {
        python != nil && FileManager.default.isExecutableFile(atPath: chromium) && FileManager.default.isExecutableFile(atPath: driver)
    }
    static let script = CLI.root + "/Tests/NFCTraceCLITests/Python/report_browser.py"

    /// One JSON object per report, as report_browser.py prints them.
    static func open(_ reports: [String], screenshots: String? = nil, only: [String] = [], scrollEnd: Bool = false,
                     replay: Bool = false, printing: Bool = false, seconds: Double = 900) throws -> [[String: Any]] {
        guard let python else { return [] }
        var arguments = [script]
        if replay { arguments.append("--replay") }
        if printing { arguments.append("--print") }
        if let screenshots { arguments += ["--screenshots", screenshots] }
        if !only.isEmpty { arguments += ["--only", only.joined(separator: ",")] }
        if scrollEnd { arguments.append("--scroll-end") }
        let r = try ChildProcess.run(python, arguments + reports, seconds: seconds)
        #expect(r.status == 0, "report_browser.py: \(String(decoding: r.stderr, as: UTF8.self).suffix(3000))")
        return String(decoding: r.stdout, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func skipped() -> Bool {
        if available { return false }
        if Python.required { Issue.record("chromium, chromium-driver or selenium missing: run scripts/setup") }
        return true
    }
}

@Suite struct ReportTests {
    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "nfctrace-report-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static var traces: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: CLI.root + "/Traces")) ?? [])
            .filter { $0.hasSuffix(".nfctrace") || $0.hasSuffix(".pcap") || $0.hasSuffix(".pcapng") }.sorted()
    }

    /// Frames of a trace as `dissect --format json` counts them.
    static func frameCount(_ trace: String) throws -> Int {
        let r = try CLI.run(["dissect", "Traces/" + trace, "--format", "json"])
        return r.stdout.split(separator: "\n").filter { $0.hasPrefix("{\"type\":\"frame\"") }.count
    }

    /// Every trace of Traces/ as a report, opened in Chromium: no console message, the frame
    /// count shown is the trace's, clicking a frame shows its fields, clicking a field highlights
    /// exactly its byte range and clicking a byte selects a field that holds it, the filters
    /// narrow the list; the NTAG report's memory map shows the NDEF URI. Screenshots of the NTAG
    /// and FeliCa reports go to .build/report-screenshots/ (CI artifacts; the README's come from there).
    @Test func everyTraceReportWorksInChromium() throws {
        if Browser.skipped() { return }
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var expected: [String: Int] = [:]
        var reports: [String] = []
        for trace in Self.traces {
            let path = dir + "/" + trace + ".html"
            let r = try CLI.run(["report", "Traces/" + trace, "-o", path])
            #expect(r.status == 0, "\(trace): \(r.stderr)")
            expected[trace + ".html"] = try Self.frameCount(trace)
            reports.append(path)
        }
        #expect(reports.count >= 50, "Traces/ holds \(reports.count) traces")
        let results = try Browser.open(reports, screenshots: CLI.root + "/.build/report-screenshots",
                                       only: ["ntag215-password-read.nfctrace.html", "felica-student-id.nfctrace.html"])
        #expect(results.count == reports.count, "the browser script reported \(results.count) of \(reports.count)")
        for o in results {
            let name = o["report"] as? String ?? "?"
            let console = o["console"] as? [[String: Any]] ?? []
            #expect(console.isEmpty, "\(name): console \(console)")
            #expect(o["total"] as? Int == expected[name], "\(name): the page shows \(o["total"] ?? "nil") frames, the trace has \(expected[name] ?? -1)")
            #expect(o["shown"] as? Int == o["total"] as? Int)
            #expect((o["rows_drawn"] as? Int ?? 0) > 0, "\(name): no row drawn")
            guard let checks = o["field_checks"] as? [[String: Any]] else {
                Issue.record("\(name): no data frame with fields could be clicked")
                continue
            }
            #expect((o["fields_shown"] as? Int ?? 0) > 0 && !checks.isEmpty, "\(name)")
            if let native = o["native_field_highlight"] as? [Int], let first = checks.first, let r = first["range"] as? [Int], r.count == 2 {
                #expect(native == Array(r[0]..<r[1]), "\(name): a pointer click on \(first["key"] ?? "") highlighted \(native)")
            }
            for c in checks {
                let range = c["range"] as? [Int] ?? []
                let highlighted = c["highlighted"] as? [Int] ?? []
                #expect(range.count == 2 && highlighted == Array(range[0]..<range[1]), "\(name): field \(c["key"] ?? "") \(range) highlighted \(highlighted)")
            }
            for b in o["byte_checks"] as? [[String: Any]] ?? [] {
                let byte = b["byte"] as? Int ?? -1
                let range = b["field_range"] as? [Int]
                #expect(range.map { $0[0] <= byte && byte < $0[1] } ?? false, "\(name): byte \(byte) selected the field at \(range ?? [])")
            }
            let filters = o["filters"] as? [String: Int] ?? [:]
            let total = o["total"] as? Int ?? 0
            #expect(filters.count == 3, "\(name): \(filters)")
            // Every trace has reader frames: "tag" narrows the list.
            #expect((1..<total).contains(filters["tag"] ?? -1), "\(name): tag shows \(filters["tag"] ?? -1) of \(total)")
            for (expression, shown) in filters {
                #expect(shown <= total, "\(name): \(expression) shows \(shown) of \(total)")
            }
            if let key = o["filter_key"] as? String, let shown = filters[key] {
                // The clicked frame's own field matches.
                #expect(shown >= 1, "\(name): \(key) shows \(shown) of \(total)")
            }
        }
        // The memory map names, for a byte, the frames that read or wrote it (Type 2, Classic,
        // ISO 15693, ST SRx, iClass, FeliCa).
        for name in ["ntag215-password-read.nfctrace.html", "mifare-classic-1k-default-keys.nfctrace.html", "libnfc-mfultralight-read-write.pcap.html",
                     "iso15693-format-and-write.nfctrace.html", "sri512-read.nfctrace.html", "iclass-read.pcap.html",
                     "felica-student-id.nfctrace.html", "suica-history.pcap.html"] {
            let link = results.first { $0["report"] as? String == name }?["memory_link"] as? [String: Any]
            let offset = link?["offset"] as? Int ?? -1
            let memory = link?["memory"] as? [String: Any]
            let start = memory?["offset"] as? Int ?? -1, count = memory?["count"] as? Int ?? 0
            #expect(link?["frame"] as? Int != nil && start <= offset && offset < start + count, "\(name): \(link ?? [:])")
            if name.hasPrefix("libnfc-mfultralight-read-write") || name.hasPrefix("iso15693-format-and-write") {
                // Pages or blocks were written: a written byte names the answer to its WRITE.
                #expect(link?["written"] as? Bool == true && memory?["access"] as? String == "write", "\(name): \(link ?? [:])")
            }
        }
        let ntag = results.first { $0["report"] as? String == "ntag215-password-read.nfctrace.html" }
        #expect((ntag?["memory_text"] as? String ?? "").contains("https://nfctrace.example/tags/ntag215?id=42"), "\(ntag?["memory_text"] ?? "no NTAG report")")
        // Its map: 13 pages read (CC and 12 of user memory), the 114 other user pages never seen.
        let cells = ntag?["memory_cells"] as? [String: Int]
        #expect(cells?["read"] == 13 * 4 && cells?["never"] == 114 * 4, "\(cells ?? [:])")
        // Never-seen cells where the summary says how far memory reaches: a Classic 1K whose
        // sector 2 had 2 of 4 blocks read (2 blocks, and the 15 other sectors' 60, never seen);
        // ISO 15693 with 5 of 128 blocks; FeliCa blocks below the highest one read.
        let never = ["mifare-classic-value-block.nfctrace.html": (2 + 15 * 4) * 16, "iso15693-format-and-write.nfctrace.html": 123 * 4,
                     "felica-student-id.nfctrace.html": 0, "suica-history.pcap.html": 0]
        for (name, count) in never {
            let cells = results.first { $0["report"] as? String == name }?["memory_cells"] as? [String: Int]
            #expect(cells?["never"] == count, "\(name): \(cells ?? [:])")
        }
    }

    /// `replay --format html`: the verdict of each trace, and at a divergence the recorded and
    /// the target's answers side by side, differing bytes and fields marked; the trace's name
    /// opens its tab at the diverging frame.
    @Test func replayHTMLShowsVerdictsAndDivergences() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let html = dir + "/replay.html"
        // The NTAG215 trace against a factory NTAG215 (another password): frame 5 diverges.
        let r = try CLI.run(["replay", "Traces/ntag215-password-read.nfctrace", "Traces/felica-student-id.nfctrace",
                             "--against", "emulator:model:ntag215", "--format", "html", "-o", html])
        #expect(r.status == 1, "\(r.stderr)")
        let text = try String(contentsOfFile: html, encoding: .utf8)
        #expect(text.contains("class=\"nfctrace-replay\"") && text.contains("\"recorded_frame\":{") && text.contains("\"actual_frame\":{"))
        #expect(text.components(separatedBy: "class=\"nfctrace-data\"").count == 3, "a tab per trace")
        if Browser.skipped() { return }
        guard let o = try Browser.open([html], replay: true).first else { Issue.record("no result"); return }
        #expect(o["replay_active"] as? Bool == true)
        let verdicts = o["verdicts"] as? [[String]] ?? []
        #expect(verdicts.first == ["FAIL", "Traces/ntag215-password-read.nfctrace"], "\(verdicts)")
        #expect(verdicts.count == 2)
        #expect(o["divergences"] as? Int == verdicts.filter { $0.first == "FAIL" }.count, "one block per divergence")
        #expect((o["diff_bytes"] as? Int ?? 0) > 0, "differing bytes marked")
        #expect(!(o["diff_fields"] as? [String] ?? []).isEmpty, "differing fields marked")
        #expect((o["difference_rows"] as? Int ?? 0) > 0)
        let after = o["after_click"] as? [String: Any]
        #expect((after?["tab"] as? String)?.hasPrefix("ntag215-password-read.nfctrace") == true, "\(after ?? [:])")
        #expect(after?["selected_frame"] as? Int == 5, "\(after ?? [:])")
        #expect((o["console"] as? [Any])?.isEmpty == true, "\(o["console"] ?? "")")
    }

    /// Printing lays every frame shown out as rows (the screen holds only those in view), and
    /// Chromium prints a PDF of it.
    @Test func printingLaysOutTheFrames() throws {
        if Browser.skipped() { return }
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let html = dir + "/ntag.html"
        #expect(try CLI.run(["report", "Traces/ntag215-password-read.nfctrace", "-o", html]).status == 0)
        guard let o = try Browser.open([html], printing: true).first else { Issue.record("no result"); return }
        #expect(o["print_rows"] as? Int == 62, "\(o)")
        #expect((o["pdf_bytes"] as? Int ?? 0) > 10_000, "\(o)")
        #expect(o["rows_after"] as? Int == 0)
        #expect((o["console"] as? [Any])?.isEmpty == true, "\(o["console"] ?? "")")
    }

    /// Data that could end the page's script elements (a trace comment "</script>…") stays data.
    @Test func scriptEndInTraceDataStaysData() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let trace = dir + "/hostile.nfctrace"
        let text = """
            nfctrace 1
            @tech 14443a
            @timebase us
                     0  field-on
                   100  R  93 20  # </script><script>document.title="pwned"</script><!--
                   300  T  88 04 A2 2C 02
                  1000  field-off

            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: trace))
        let report = dir + "/hostile.html"
        let r = try CLI.run(["report", trace, "-o", report, "--title", "<b>&</b>"])
        #expect(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(!html.contains("</script><script>document.title"))
        #expect(html.contains("<title>&lt;b&gt;&amp;&lt;/b&gt;</title>"))
        if Browser.skipped() { return }
        let o = try Browser.open([report]).first
        #expect(o?["total"] as? Int == 4 && (o?["console"] as? [Any])?.isEmpty == true, "\(o ?? [:])")
    }

    /// Usage errors, standard output, several traces in one file, and a damaged trace: the
    /// report holds the frames before the damage and the exit is 65; an existing report is
    /// replaced only by a complete one.
    @Test func reportCommandLine() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let two = try CLI.run(["report", "Traces/ntag215-password-read.nfctrace", "Traces/felica-student-id.pcap", "-o", "-"])
        #expect(two.status == 0)
        #expect(two.stdout.hasPrefix("<!DOCTYPE html>") && two.stdout.components(separatedBy: "class=\"nfctrace-data\"").count == 3)
        #expect(two.stdout.contains("<title>2 traces</title>"))
        #expect(!two.stdout.contains("http://") && !two.stdout.contains("https://cdn"), "no network resources")
        #expect(try CLI.run(["report", "-", "-", "-o", dir + "/x.html"]).status == 2)
        #expect(try CLI.run(["report", "Traces/ntag215-password-read.nfctrace", "--detail-limit", "-1", "-o", dir + "/x.html"]).status == 2)
        // Damage: the first 300 bytes of a pcap.
        let pcap = try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/Traces/ntag215-password-read.pcap"))
        let cut = dir + "/cut.pcap"
        try pcap.prefix(300).write(to: URL(fileURLWithPath: cut))
        let damaged = try CLI.run(["report", cut, "-o", dir + "/cut.html"])
        #expect(damaged.status == 65, "\(damaged.stderr)")
        #expect(damaged.stderr.contains("cut.pcap"))
        let html = try String(contentsOfFile: dir + "/cut.html", encoding: .utf8)
        #expect(html.contains("\"frames\":") && !html.contains("\"frames\":0,"), "frames before the damage are in the report")
        // A missing input leaves the previous report as it was.
        let keep = dir + "/keep.html"
        try Data("previous".utf8).write(to: URL(fileURLWithPath: keep))
        #expect(try CLI.run(["report", dir + "/missing.pcap", "-o", keep]).status != 0)
        #expect(try String(contentsOfFile: keep, encoding: .utf8) == "previous")
        // Fields past --detail-limit are left out; rows stay.
        let limited = try CLI.run(["report", "Traces/ntag215-password-read.nfctrace", "--detail-limit", "5", "-o", "-"])
        #expect(limited.stdout.contains("\"detail_frames\":5,") && limited.stdout.contains("\"frames\":62,"))
    }

    /// Issue 51, point 1: a frame whose span is past 2⁶³ ns trapped the report (SIGILL).
    @Test func aSpanPastTheNanosecondRange() throws {
        let dir = Self.temporaryDirectory()
        let trace = dir + "/c.nfctrace"
        try Data("nfctrace 1\n-9223372036854775..9223372036854775 T 44 00\n".utf8).write(to: URL(fileURLWithPath: trace))
        let r = try CLI.run(["report", trace, "-o", dir + "/c.html"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: dir + "/c.html", encoding: .utf8).contains("\"frames\":1,"))
    }

    /// Issue 51, point 14: an endless standard input grew until memory ran out. The report
    /// takes at most --frame-limit frames (1,000,000 by default and at most), then stops with 65
    /// and writes what it took; the budget is shared by all the traces of one report.
    @Test func aFrameLimitForEndlessInput() throws {
        let dir = Self.temporaryDirectory()
        let script = "(echo 'nfctrace 1'; yes '0 R 26/7') | exec \"$0\" report - --frame-limit 1000 -o \"$1\""
        let r = try ChildProcess.run("/bin/sh", ["-c", script, CLI.binary, dir + "/endless.html"], seconds: 60)
        let stderr = String(decoding: r.stderr, as: UTF8.self)
        #expect(r.status == 65 && stderr.contains("more than 1000 frames") && stderr.contains("--frame-limit"), "\(r.status) \(stderr)")
        #expect(try String(contentsOfFile: dir + "/endless.html", encoding: .utf8).contains("\"frames\":1000,"))
        let two = try CLI.run(["report", "--frame-limit", "100", "Traces/ntag215-password-read.nfctrace", "Traces/ntag215-password-read.nfctrace", "-o", "-"])
        #expect(two.status == 65 && two.stdout.contains("\"frames\":62,") && two.stdout.contains("\"frames\":38,"), "\(two.stderr)")
        for bad in ["0", "1000001"] { #expect(try CLI.run(["report", "--frame-limit", bad, "Traces/sri512-read.nfctrace", "-o", "-"]).status == 2) }
    }
}
