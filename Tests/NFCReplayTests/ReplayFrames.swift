import Testing
import NFCCore
import NFCEmulator
@testable import NFCReplay

/// Replays recorded frames against `tag`, or against the tag rebuilt from the frames themselves
/// with `keys` (what `nfctrace replay` does by default).
func replayFrames(_ frames: [Frame], keys: KeyList, against tag: EmulatedTag?, trace: String) throws -> ReplayResult {
    var i = 0
    let next = { () -> Frame? in defer { i += 1 }; return i < frames.count ? frames[i] : nil }
    let target: ReplayTarget
    if let tag {
        target = EmulatorTarget(tag: tag)
    } else {
        let (field, _) = try #require(try TraceTag.field(next: next, keys: keys))
        target = EmulatorTarget(tag: field)
        i = 0
    }
    return Replayer(target: target, rules: ReplayRules()).replay(trace: trace, next: next)
}
