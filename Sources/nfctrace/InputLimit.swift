import NFCCapture
import NFCEmulator

/// The size limits of inputs that are read whole (docs/limits.md). Capture readers stream and
/// need none; these inputs are held in memory, so a stream that never ends must stop somewhere.
enum InputLimit {
    /// A tag dump (Flipper .nfc, Proxmark3 JSON, .bin): the largest real ones (MIFARE 4K as JSON,
    /// an ISO 15693 tag of 8 KiB as Flipper text) are under 100 KiB.
    static let dump = 4 << 20
    /// An NDEF message or memory image for `ndef decode`: NDEF lengths are 32-bit, but no tag
    /// holds more than a few KiB. Hex text may be three times as long (digits and separators).
    static let ndef = 1 << 20
    static let ndefHex = 4 << 20
    /// A MIME payload for `ndef encode --mime`.
    static let mimePayload = 1 << 20
    /// A MIFARE Classic key dictionary (`dissect --keys`): the Proxmark3's largest is about
    /// 5,000 keys, 70 KiB.
    static let keyFile = 4 << 20
    /// A rules file for `replay`.
    static let rules = 1 << 20
    /// A seed for `fuzz --exec`, a trace taken into the fuzz corpus.
    static let corpusFile = 16 << 20
    /// Frames of a trace held in memory: a cassette (answered from memory), a trace replayed
    /// against the tag rebuilt from it (read once). About 100 bytes each.
    static let heldFrames = 200_000
    /// Frames of one `report` (all its traces together): the report holds every frame's row in
    /// memory and in the file. A million frames make 70–105 MB of HTML and take 330–390 MB
    /// while written (docs/limits.md); without a limit an endless standard input grew until
    /// memory ran out.
    static let reportFrames = 1_000_000

    /// Reads `path` (`-` for standard input) whole, at most `limit` bytes.
    static func read(_ path: String, limit: Int, what: String) throws(CaptureError) -> [UInt8] {
        try ByteInput.open(path).readAll(limit: limit, what: what)
    }

    /// Loads a tag dump: a missing or unreadable file is an I/O error (74), a dump that cannot be
    /// understood is bad input (65); both name the dump.
    static func loadDump(_ path: String) throws -> TagDump {
        let bytes = try read(path, limit: dump, what: "a tag dump")
        do {
            return try TagDump.load(bytes, name: path)
        } catch {
            throw CLIFailure(message: error.description, code: .dataError)
        }
    }
}
