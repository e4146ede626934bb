import Foundation
import Testing
import NFCCapture
import NFCCore
import NFCDissect

/// Issue 51, point 1: every output survives every time the capture readers accept. Readers
/// deliver only times whose nanoseconds fit 64 bits (`Timestamp.checkedNanoseconds`), so the
/// times here are that range's edges, in each unit, as starts and ends, in order and reversed,
/// next to ordinary times. A trap in any renderer or writer ends the test process, so this test
/// fails by crashing; the outputs are the ones the masking invariant checks (text, -V, JSON, the
/// report's two parts, every convert target).
@Suite struct ExtremeTimeTests {
    static let edges: [Timestamp] = {
        var out: [Timestamp] = []
        for (unit, guess) in [(TimeUnit.nanoseconds, Int64.max), (.microseconds, Int64.max / 1000),
                              (.carrierCycles, Int64.max / 1_000_000_000 * 13_560_000)] {
            // The largest value of this unit that still has 64-bit nanoseconds.
            var top = guess
            while Timestamp(top, unit).checkedNanoseconds == nil { top -= 1 + top / 1_000_000_000 }
            for v in [top, top - 1, -top, -top + 1, 0, 1, -1] where Timestamp(v, unit).checkedNanoseconds != nil {
                out.append(Timestamp(v, unit))
            }
        }
        out.append(Timestamp(Int64.min, .nanoseconds))
        return out
    }()

    static func frame(_ bytes: [UInt8], _ direction: Direction, start: Timestamp?, end: Timestamp?) -> Frame {
        Frame(.data(direction), bytes: bytes, lastByteBits: bytes.count == 1 ? 7 : 8, start: start, end: end)
    }

    /// A REQA/ATQA/anticollision start, each frame given one pair of edge times, and frames
    /// without times between them.
    static func variants() -> [(String, [Frame])] {
        let e = edges
        var out: [(String, [Frame])] = []
        for (i, a) in e.enumerated() {
            for b in [e[(i + 1) % e.count], e[(i + e.count / 2) % e.count], Timestamp(0, .microseconds)] {
                out.append(("\(a) .. \(b)", [
                    frame([0x26], .readerToTag, start: a, end: b),
                    frame([0x44, 0x00], .tagToReader, start: b, end: a),
                    frame([0x93, 0x20], .readerToTag, start: a, end: nil),
                    frame([0x88, 0x04, 0x12, 0x34, 0xAE], .tagToReader, start: nil, end: b),
                    frame([0x26], .readerToTag, start: b, end: b),
                ]))
            }
        }
        return out
    }

    @Test func everyOutputSurvivesTheEdgesOfTheTimeRange() throws {
        let folder = try MaskingInvariantTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var refused = 0, converted = 0
        for (name, frames) in Self.variants() {
            let outputs = try MaskingInvariantTests.outputs(frames, folder: folder) { error in
                // Refused with a reason, not trapped: the text trace's times are offsets from one @origin.
                #expect("\(error)".contains("64 bits"), "\(name): \(error)")
                refused += 1
            }
            #expect(outputs.count >= 5, "\(name)")
            if outputs.contains(where: { $0.0.hasPrefix("convert") }) { converted += 1 }
        }
        #expect(converted > 0 && refused > 0, "converted \(converted), refused \(refused)")
    }

    /// The repro of the issue, through the CLI's path: a frame whose span is past 2⁶³ ns.
    @Test func aSpanPastTheNanosecondRange() throws {
        let f = Self.frame([0x44, 0x00], .tagToReader, start: Timestamp(-9_223_372_036_854_775, .microseconds),
                           end: Timestamp(9_223_372_036_854_775, .microseconds))
        let folder = try MaskingInvariantTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outputs = try MaskingInvariantTests.outputs([f], folder: folder)
        let data = try #require(outputs.first { $0.0 == "report data" })
        #expect(String(decoding: data.1, as: UTF8.self).contains("-1"), "the span has no duration the report can show")
    }
}
