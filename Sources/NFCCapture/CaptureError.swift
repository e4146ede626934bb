import NFCCore

/// nfctrace's exit codes (DESIGN.md; 65 and 74 as in sysexits.h), named once.
public enum ExitStatus: Int32, Sendable {
    case success = 0
    /// Findings the user asked to fail on: diagnostics, a replay divergence, a fuzz crash.
    case findings = 1
    case usage = 2
    /// Bad input data (EX_DATAERR).
    case dataError = 65
    /// An I/O error (EX_IOERR).
    case ioError = 74
}

/// Why a capture could not be read or written. Every case names the file; `exitCode` follows
/// DESIGN.md (65 bad input data, 74 I/O error).
public enum CaptureError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case empty(path: String)
    /// The content is no capture format nfctrace knows.
    case unrecognized(path: String, detail: String)
    /// A pcap/pcapng whose link type carries no NFC frames nfctrace can read.
    case unsupportedLinkType(path: String, linkType: Int, name: String?)
    /// The file is damaged at `offset`; every frame before it was delivered. `frame` is the
    /// 1-based number of the frame that could not be read.
    case damaged(path: String, offset: Int, frame: Int, reason: String)
    case io(path: String, reason: String)
    /// A frame that the output format cannot represent.
    case unrepresentable(path: String, frame: Int, reason: String)
    /// An input read whole (a dump, an NDEF message, a cassette) is longer than its documented
    /// limit (docs/limits.md); `what` says what it was read as.
    case tooLarge(path: String, what: String, limit: String)

    public var description: String {
        switch self {
        case .cannotOpen(let p, let r): return "\(p): cannot open: \(r)"
        case .empty(let p): return "\(p): empty file, no capture in it"
        case .unrecognized(let p, let d): return "\(p): not a capture nfctrace can read (\(d)); expected pcap, pcapng, an nfctrace text trace, a Proxmark3 .trace or listing, or an nfc-laboratory export"
        case .unsupportedLinkType(let p, let lt, let name):
            let n = name.map { " (\($0))" } ?? ""
            return "\(p): pcap link type \(lt)\(n) carries no NFC frames; nfctrace reads LINKTYPE_ISO_14443 (264) and its own LINKTYPE_USER encapsulation"
        case .damaged(let p, let off, let f, let r): return "\(p): damaged at byte \(off) (frame \(f)): \(r)"
        case .io(let p, let r): return "\(p): I/O error: \(r)"
        case .unrepresentable(let p, let f, let r): return "\(p): frame \(f) cannot be written: \(r)"
        case .tooLarge(let p, let w, let l): return "\(p): more than \(l), the limit for \(w) (docs/limits.md); stopped reading"
        }
    }

    public var exitCode: ExitStatus {
        switch self {
        case .cannotOpen, .io: return .ioError
        case .empty, .unrecognized, .unsupportedLinkType, .damaged, .unrepresentable, .tooLarge: return .dataError
        }
    }
}
