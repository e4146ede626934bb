import Foundation
import Testing
import NFCCapture
import NFCCore
import NFCDissect
@testable import NFCEmulator

/// Traces of the repository and the sessions in them.
enum FeliCaTraces {
    static let root: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    static func frames(_ name: String) throws -> [Frame] {
        let reader = try Capture.open(root + "/Traces/" + name)
        var frames: [Frame] = []
        while let f = try reader.next() { frames.append(f) }
        return frames
    }

    /// Field-on … field-off stretches (one card each in the project's FeliCa traces).
    static func sessions(_ frames: [Frame]) -> [[Frame]] {
        var out: [[Frame]] = []
        var current: [Frame] = []
        for f in frames {
            switch f.event {
            case .fieldOn: current = [f]
            case .fieldOff: out.append(current + [f]); current = []
            default: current.append(f)
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// The reconstruction of every session of a trace, by session number.
    static func reconstructions(_ frames: [Frame]) -> [Int: TagReconstruction] {
        let d = Dissector(detail: .summary)
        var out: [Int: TagReconstruction] = [:]
        let collect: (DissectionEvent) -> Void = { e in
            if case .session(let s) = e, let r = s.reconstruction { out[s.number] = r }
        }
        for f in frames { d.process(f, emit: collect) }
        d.finish(emit: collect)
        return out
    }

    /// Sends every reader frame of `session` to `card` and compares its answer with the recorded
    /// one: the same bytes, or silence where the trace has none. A recorded answer with a damaged
    /// CRC_F (damage on air, not the card's doing) is compared without its CRC.
    static func replay(_ session: [Frame], against card: EmulatedTag) -> [String] {
        var problems: [String] = []
        card.fieldOn()
        for (i, f) in session.enumerated() {
            guard case .data(.readerToTag) = f.event else { continue }
            let answer = card.respond(to: f)
            let recorded = session.dropFirst(i + 1).first.flatMap { next -> Frame? in
                if case .data(.tagToReader) = next.event { return next }
                return nil
            }
            switch (answer, recorded) {
            case (nil, nil): continue
            case (let a?, nil): problems.append("frame \(i): answered \(Hex.string(a.bytes)), the trace has no answer to \(Hex.string(f.bytes))")
            case (nil, let r?): problems.append("frame \(i): silent, the trace answers \(Hex.string(r.bytes))")
            case (let a?, let r?):
                if a.bytes == r.bytes { continue }
                let damaged = CRC.check(.felica, r.bytes) != .ok
                if damaged && a.bytes.dropLast(2) == r.bytes.dropLast(2) && CRC.check(.felica, a.bytes) == .ok { continue }
                problems.append("frame \(i): answered \(Hex.string(a.bytes)), the trace has \(Hex.string(r.bytes))")
            }
        }
        card.fieldOff()
        return problems
    }
}
