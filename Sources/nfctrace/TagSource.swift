import NFCCore
import NFCCapture
import NFCEmulator
import NFCReplay

/// Where a tag to emulate comes from. `emulate` and `replay --against emulator:…` resolve it
/// here, so a dump, a model name or a trace means the same in both.
enum TagSource {
    case dump(String)
    case model(String)
    /// The tag a trace's dissection rebuilt (one session, or the tag seen most).
    case trace(String, session: Int?)

    /// `emulator:model:NAME` or `emulator:DUMP` of `replay --against`; nil for other targets.
    init?(replayTarget: String) {
        if replayTarget.hasPrefix("emulator:model:") {
            self = .model(String(replayTarget.dropFirst("emulator:model:".count)))
        } else if replayTarget.hasPrefix("emulator:") {
            self = .dump(String(replayTarget.dropFirst("emulator:".count)))
        } else {
            return nil
        }
    }

    /// The tag's dump and, for a trace, which part of it the tag came from. A missing file is
    /// 74, a dump or trace that holds no tag 65, an unknown model a usage error.
    func resolve(keys: KeyList = .defaults) throws -> (dump: TagDump, from: String?) {
        switch self {
        case .dump(let path):
            return (try InputLimit.loadDump(path), nil)
        case .model(let name):
            guard let builtIn = BuiltInTag.named(name) else {
                throw CLIFailure.usage("unknown model \"\(name)\" (\(BuiltInTag.all.map(\.name).joined(separator: ", ")))")
            }
            return (builtIn.make(), nil)
        case .trace(let path, let session):
            let reader = try Capture.open(path)
            guard let rebuilt = try TraceTag.rebuild(next: { try reader.next() }, session: session, keys: keys) else {
                throw CLIFailure(message: "\(path): no tag session\(session.map { " \($0)" } ?? "") in this trace can be emulated", code: .dataError)
            }
            return (rebuilt.dump, rebuilt.from)
        }
    }
}
