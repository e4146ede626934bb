import Foundation
import Testing
import NFCCapture

/// docs/limits.md, "What each format cannot carry", is `FormatLimits` — the table the writers
/// take their notes from — rendered: a kind a writer can lose that the page does not list fails
/// here, with the section as it should read.
@Suite struct LimitsDocTests {
    static let page = ConvertMatrixTests.root + "/docs/limits.md"

    /// Short column names for the matrix.
    static func column(_ output: FormatLimits.Output) -> String {
        switch output {
        case .pcap264: return "pcap 264"
        case .pcapUser3: return "pcap USER3"
        case .pcapng264: return "pcapng 264"
        case .pcapngUser3: return "pcapng USER3"
        case .nfctrace: return "nfctrace"
        case .proxmark3: return ".trace"
        case .nfcLaboratory: return "nfc-lab"
        }
    }

    /// The matrix (kind × output: kept, or noted where the output can lose it) and, per output,
    /// what it loses and how.
    static func rendered() -> String {
        let outputs = FormatLimits.Output.allCases
        var lines = ["| | " + outputs.map(column).joined(separator: " | ") + " |",
                     "|---|" + outputs.map { _ in "---|" }.joined()]
        for kind in FrameLoss.Kind.allCases {
            let cells = outputs.map { o in FormatLimits.losses(of: o).contains { $0.0 == kind } ? "noted" : "kept" }
            lines.append("| \(kind.noun) | " + cells.joined(separator: " | ") + " |")
        }
        for output in outputs {
            lines += ["", "**\(output.rawValue)**", ""]
            lines += FormatLimits.losses(of: output).map { "- \($0.0.noun): \($0.1)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func thePageListsWhatEveryWriterCanLose() throws {
        let text = try String(contentsOfFile: Self.page, encoding: .utf8)
        let section = Self.rendered()
        #expect(text.contains(section), "docs/limits.md should hold, under \"What each format cannot carry\":\n\(section)")
        // Every kind is lost somewhere or listed as kept everywhere; a writer records no kind its
        // row leaves out (`FormatLimits.undocumented`, checked by ConvertMatrixTests).
        #expect(FrameLoss.Kind.allCases.allSatisfy { section.contains("| \($0.noun) |") })
    }
}
