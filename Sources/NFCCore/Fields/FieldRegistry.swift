/// Every field table: the keys a dissection can carry. A protocol registers by adding its table
/// here (docs/adding-a-protocol.md).
public enum FieldRegistry {
    public static let tables: [any FieldTable] = [
        FieldSpec.capture,
        FieldSpec.iso14443a, FieldSpec.ecp, FieldSpec.type1, FieldSpec.ntag, FieldSpec.t2t, FieldSpec.mfc, FieldSpec.isodep, FieldSpec.apdu,
        FieldSpec.emv, FieldSpec.t4t, FieldSpec.desfire, FieldSpec.mfp,
        FieldSpec.iso14443b, FieldSpec.srx, FieldSpec.xerox,
        FieldSpec.felica, FieldSpec.t3t, FieldSpec.suica,
        FieldSpec.iso15693, FieldSpec.t5t,
        FieldSpec.iclass,
        FieldSpec.ndef, FieldSpec.tag, FieldSpec.memory,
    ]

    /// Every spec by key.
    public static let byKey: [String: FieldSpec] = {
        var out: [String: FieldSpec] = [:]
        for table in tables { for spec in table.specs { out[spec.key] = spec } }
        return out
    }()

    public static func spec(forKey key: String) -> FieldSpec? { byKey[key] }

    /// The known key closest to `key` by edit distance (for "did you mean" in usage errors).
    public static func closestKey(to key: String) -> String? {
        var best: (key: String, distance: Int)?
        for candidate in byKey.keys.sorted() {
            let d = editDistance(Array(key.utf8), Array(candidate.utf8))
            if let b = best, b.distance <= d { continue }
            best = (candidate, d)
        }
        return best?.key
    }

    /// Levenshtein distance, two rows.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
