import NFCCore

/// The MIFARE Classic part of a session summary, as fields only: the keys that opened each
/// sector and the blocks seen in clear, by sector. The text renderer prints them in both views.
enum MIFAREClassicSummary {
    /// `keys: sector 0 A A0A1A2A3A4A5, sector 2 A 3B7E4FD575AD` for the headline.
    static func headline(_ c: MIFAREClassicSession) -> String? {
        guard !c.keys.isEmpty else { return nil }
        return "keys: " + c.keys.map { k in "\(k.sector.map { "sector \($0)" } ?? "sector ?") \(k.keyType?.rawValue ?? "?") \(k.shown)" }.joined(separator: ", ")
    }

    static func fields(_ c: MIFAREClassicSession) -> [Field] {
        var out: [Field] = []
        for k in c.keys {
            let where_ = "\(k.sector.map { "sector \($0)" } ?? "sector unknown"), key \(k.keyType?.rawValue ?? "?")"
            out.append(Field("mfc.key", "Key (\(where_))", "\(k.shown) (\(k.key.source), frame \(k.frame))"))
        }
        var failed = c.failedAuthentications
        // An authentication the card never answered before the session ended failed too.
        if let a = c.authentication, a.readerAnswered { failed.append((a.frame, a.sector, a.keyType)) }
        for f in failed {
            let where_ = "\(f.sector.map { "sector \($0)" } ?? "sector unknown"), key \(f.keyType?.rawValue ?? "?")"
            out.append(Field("mfc.failed_auth", "Failed authentication", "frame \(f.frame) (\(where_)): the card did not answer {nR}{aR}"))
        }
        let bySector = Dictionary(grouping: c.blocks.keys, by: { MIFAREClassicLayout.sector(ofBlock: $0) })
        for sector in bySector.keys.sorted() {
            let blocks = bySector[sector, default: []].sorted()
            let total = MIFAREClassicLayout.blockCount(ofSector: sector)
            let children = blocks.map { b in
                Field("mfc.memory.block", "Block \(Hex.byte(UInt8(truncatingIfNeeded: b)))\(MIFAREClassicLayout.isTrailer(b) ? " (trailer)" : "")",
                      Hex.string(c.blocks[b] ?? []) + (c.written.contains(b) ? " (written)" : ""))
            }
            out.append(Field("mfc.memory.sector", "Sector \(sector)", "\(blocks.count) of \(total) blocks known", children: children))
        }
        return out
    }
}
