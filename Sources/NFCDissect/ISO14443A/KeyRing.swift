import NFCCore

/// The keys a capture's authentications are tried with, across its sessions: keys that already
/// fit first, then the given and built-in ones. For MIFARE Classic also what is needed to
/// recover keys that no list holds — whole authentications (mfkey64) and pairs of a reader's
/// answers to the same card and sector that the card never accepted (mfkey32).
final class KeyRing {
    let given: KeyList
    private(set) var fitted: [MIFAREClassicKey] = []
    private var fittedUltralight: [UltralightKey] = []
    /// Reader answers that no key opened, by card and sector.
    private var partials: [PartialKey: [(frame: Int, answer: Crypto1Recovery.ReaderAnswer)]] = [:]

    struct PartialKey: Hashable {
        var uid: UInt32
        var block: UInt8
        var keyType: MIFAREClassicCommand.KeyType
    }

    init(_ given: KeyList) {
        self.given = given
        searchesLeft = max(0, given.keySearchBudget)
    }

    /// Key searches left of the capture's budget (`KeyList.keySearchBudget`), and whether the
    /// last one asked for was refused for want of it.
    private(set) var searchesLeft: Int
    private(set) var lastSearchRefused = false

    /// Spends one search; false when the budget is gone.
    func takeSearch() -> Bool {
        lastSearchRefused = searchesLeft == 0
        guard searchesLeft > 0 else { return false }
        searchesLeft -= 1
        return true
    }

    var candidates: [MIFAREClassicKey] { fitted + given.classic }

    /// Keys an {aT} proved, by card, sector and key type: tried first on that sector again.
    private var proven: [ProvenKey: MIFAREClassicKey] = [:]

    struct ProvenKey: Hashable {
        var uid: UInt32
        var sector: Int
        var keyType: MIFAREClassicCommand.KeyType
    }

    func proved(_ key: MIFAREClassicKey, uid: UInt32, sector: Int?, keyType: MIFAREClassicCommand.KeyType?) {
        fits(key)
        guard let sector, let keyType else { return }
        proven[ProvenKey(uid: uid, sector: sector, keyType: keyType)] = key
    }

    func provenKey(uid: UInt32, sector: Int?, keyType: MIFAREClassicCommand.KeyType?) -> MIFAREClassicKey? {
        guard let sector, let keyType else { return nil }
        return proven[ProvenKey(uid: uid, sector: sector, keyType: keyType)]
    }

    /// The candidates with the key the trace proved for this card's sector first.
    func candidates(uid: UInt32, sector: Int?, keyType: MIFAREClassicCommand.KeyType?) -> [MIFAREClassicKey] {
        guard let key = provenKey(uid: uid, sector: sector, keyType: keyType) else { return candidates }
        return [key] + candidates.filter { $0.value != key.value }
    }

    /// Nested candidates searched per unit of the capture's key-search budget, and the most one
    /// nested recovery may search (more are left when the parity bits cannot narrow them).
    static let nestedSearchesPerUnit = 32
    static let nestedSearchLimit = 128

    /// The key of a nested authentication from the card's weak generator and the parity bits
    /// (`Crypto1Recovery.nestedCandidates`), or why there is none.
    func recoverNested(_ a: Crypto1Recovery.NestedAuthentication, near previous: UInt32?, frames: ClosedRange<Int>) -> Result<(key: MIFAREClassicKey, nt: UInt32), NestedRefusal> {
        let candidates = Crypto1Recovery.nestedCandidates(a, near: previous)
        guard candidates.count <= Self.nestedSearchLimit else { return .failure(.tooManyCandidates(candidates.count)) }
        let units = max(1, (candidates.count + Self.nestedSearchesPerUnit - 1) / Self.nestedSearchesPerUnit)
        guard searchesLeft >= units else {
            lastSearchRefused = true
            return .failure(.budget)
        }
        searchesLeft -= units
        guard let found = Crypto1Recovery.nestedKey(a, candidates: candidates, limit: candidates.count) else { return .failure(.notFound(candidates.count)) }
        let key = MIFAREClassicKey(Crypto1.value(ofKey: found.key), source: "recovered from the nested authentication of frames \(frames.lowerBound)–\(frames.upperBound) (the card's 16-bit generator and the parity bits)", recovered: true)
        fits(key)
        return .success((key, found.nt))
    }

    enum NestedRefusal: Error {
        case tooManyCandidates(Int)
        case budget
        case notFound(Int)
    }

    func fits(_ key: MIFAREClassicKey) {
        if !fitted.contains(where: { $0.value == key.value }) { fitted.append(key) }
    }

    func fits(_ key: UltralightKey) {
        if !fittedUltralight.contains(where: { $0.bytes == key.bytes }) { fittedUltralight.append(key) }
    }

    /// The 16-byte keys to try on an Ultralight authentication: those that fitted before, then
    /// the given and built-in ones. For Ultralight C each key also in the byte order pages 2C–2F
    /// store it, since dictionaries (the Proxmark3's among them) list keys as a dump shows them.
    func ultralightCandidates(for kind: UltralightCipherKind) -> [UltralightKey] {
        var out = fittedUltralight
        for key in given.ultralight {
            out.append(key)
            if kind == .tripleDES {
                out.append(UltralightKey(key.pageOrder, source: key.source + ", read in the byte order of pages 2C–2F"))
            }
        }
        var seen = Set<[UInt8]>()
        return out.filter { seen.insert($0.bytes).inserted }
    }

    /// mfkey32: the key from this answer and an earlier one of the same card and sector.
    func recoverFromPartial(uid: UInt32, auth: MIFAREClassicSession.Authentication, frame: Int, answer: Crypto1Recovery.ReaderAnswer) -> MIFAREClassicKey? {
        guard let block = auth.block, let keyType = auth.keyType else { return nil }
        let key = PartialKey(uid: uid, block: block, keyType: keyType)
        defer { partials[key, default: []].append((frame, answer)) }
        for earlier in partials[key, default: []] where earlier.answer.encryptedNR != answer.encryptedNR {
            guard takeSearch() else { return nil }
            if let k = Crypto1Recovery.key(uid: uid, earlier.answer, answer) {
                let found = MIFAREClassicKey(Crypto1.value(ofKey: k), source: "recovered from frames \(earlier.frame) and \(frame) (mfkey32)", recovered: true)
                fits(found)
                return found
            }
        }
        return nil
    }

    /// mfkey64: the key from one whole authentication.
    func recoverFromWhole(uid: UInt32, nt: UInt32, encryptedNR: UInt32, encryptedAR: UInt32, encryptedAT: UInt32, frames: ClosedRange<Int>) -> MIFAREClassicKey? {
        guard takeSearch() else { return nil }
        guard let k = Crypto1Recovery.key(uid: uid, nt: nt, encryptedNR: encryptedNR, encryptedAR: encryptedAR, encryptedAT: encryptedAT) else { return nil }
        let found = MIFAREClassicKey(Crypto1.value(ofKey: k), source: "recovered from frames \(frames.lowerBound)–\(frames.upperBound) (mfkey64)", recovered: true)
        fits(found)
        return found
    }

    /// A key as the output shows it: a recovered key is a secret the user did not give, so it is
    /// masked unless asked for (`dissect --show-keys`).
    func text(_ key: MIFAREClassicKey) -> String {
        // A recovered key that is a published default is no secret.
        guard key.recovered, !given.revealRecovered, !MIFAREClassicKey.wellKnown.contains(where: { $0.value == key.value }) else { return key.hex }
        let hex = key.hex
        return String(hex.prefix(2)) + String(repeating: "•", count: 8) + String(hex.suffix(2))
    }
}
