import NFCCore
import NFCDissect

/// A recorded MIFARE Classic session as a reader that runs Crypto1 itself needs it (a PC/SC
/// reader's LOAD KEYS and GENERAL AUTHENTICATE; issue 21): every frame the dissector decrypted, in
/// clear, and the keys the session authenticated with (known or recovered from the trace).
public struct ClassicClearView: Sendable {
    /// Trace frame number (1-based) → the frame in clear, CRC included as it was encrypted.
    public private(set) var decrypted: [Int: [UInt8]] = [:]
    public private(set) var keys: [MIFAREClassicReconstruction.Key] = []
    /// Frame numbers of the reader's {nR}{aR}: the second step of an authentication, which a
    /// reader running Crypto1 makes itself.
    public private(set) var readerAuthentications: Set<Int> = []

    public init() {}

    /// Dissects `frames` (the whole trace) once.
    public init(frames: [Frame], keys keyList: KeyList = .defaults) {
        for event in Dissector.dissect(frames, detail: .full, keys: keyList) {
            switch event {
            case .frame(let f):
                if let clear = f.decrypted { decrypted[f.number] = clear }
                if f.fields.first(FieldSpec.mfc.authNr) != nil { readerAuthentications.insert(f.number) }
            case .session(let s):
                if case .mifareClassic(let r)? = s.reconstruction {
                    for k in r.keys where !keys.contains(k) { keys.append(k) }
                }
            }
        }
    }

    public var isEmpty: Bool { decrypted.isEmpty && keys.isEmpty }

    /// The key of `type` that opened the sector holding `block`.
    public func key(block: UInt8, type: MIFAREClassicCommand.KeyType) -> UInt64? {
        let sector = MIFAREClassicLayout.sector(ofBlock: Int(block))
        return keys.first { $0.sector == sector && $0.keyType == type.rawValue }?.value
    }
}
