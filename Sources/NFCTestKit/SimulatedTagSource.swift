import Foundation
import NFCCapture
import NFCCore
import NFCEmulator
import NFCReplay

/// Where a simulated tag comes from: any tag nfctrace can emulate (`nfctrace emulate` takes the
/// same sources), or a recorded trace answering as a cassette.
public enum SimulatedTagSource {
    /// A built-in model (`nfctrace emulate --list-models`): `ntag215`, `felica-student-id` …
    case model(String)
    /// A dump file: Flipper `.nfc`, Proxmark3 JSON/`.eml`, raw `.bin`.
    case dump(URL)
    /// The tag a trace's dissection rebuilt (`emulate --from-trace`).
    case trace(URL, session: Int? = nil, keys: KeyList = .defaults)
    /// A trace answering the requests it recorded (`emulate --cassette`); what it never saw gets silence.
    case cassette(URL, order: CassetteTag.Order = .relaxed)

    /// A source that cannot become a tag: an unknown model, a dump or trace that cannot be read or
    /// holds no tag.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, naming the model or file.
        public var description: String
    }

    /// The largest dump or trace a test loads (the CLI's limits).
    static let dumpLimit = 4 << 20
    static let frameLimit = 200_000

    /// The emulated tag this source describes, as `nfctrace emulate` would build it.
    public func makeTag() throws -> EmulatedTag {
        switch self {
        case .model(let name):
            guard let builtIn = BuiltInTag.named(name), let tag = builtIn.make().makeTag() else {
                throw Failure(description: "unknown model \"\(name)\" (\(BuiltInTag.all.map(\.name).joined(separator: ", ")))")
            }
            return tag
        case .dump(let url):
            let input = try ByteInput.open(url.path)
            let bytes = try input.readAll(limit: Self.dumpLimit, what: "a tag dump")
            guard let tag = try TagDump.load(bytes, name: url.path).makeTag() else {
                throw Failure(description: "\(url.path): the dump holds no usable UID")
            }
            return tag
        case .trace(let url, let session, let keys):
            let reader = try Capture.open(url.path)
            guard let rebuilt = try TraceTag.rebuild(next: { try reader.next() }, session: session, keys: keys),
                  let tag = rebuilt.dump.makeTag() else {
                throw Failure(description: "\(url.path): no tag session in this trace can be emulated")
            }
            return tag
        case .cassette(let url, let order):
            let reader = try Capture.open(url.path)
            var frames: [Frame] = []
            while let f = try reader.next() {
                guard frames.count < Self.frameLimit else { throw Failure(description: "\(url.path): more than \(Self.frameLimit) frames") }
                frames.append(f)
            }
            guard let cassette = CassetteTag(frames: frames, order: order) else {
                throw Failure(description: "\(url.path): no reader frame to answer in this trace")
            }
            return cassette
        }
    }
}

extension SimulatedTagReaderSession {
    /// A session with a tag from `source` in the field.
    public convenience init(pollingOption: PollingOption, delegate: NFCTagReaderSessionDelegate, queue: DispatchQueue? = nil,
                            source: SimulatedTagSource, entitlements: ReaderEntitlements = ReaderEntitlements(),
                            limits: SimulatedLimits = SimulatedLimits(), removal: TagRemoval = .never, traceURL: URL? = nil) throws {
        self.init(pollingOption: pollingOption, delegate: delegate, queue: queue, tag: try source.makeTag(),
                  entitlements: entitlements, limits: limits, removal: removal, traceURL: traceURL)
    }
}
