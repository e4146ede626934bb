import NFCCore
import NFCDissect
import NFCEmulator

/// The tag a trace shows: what `replay --against emulator` and `emulate --from-trace` run.
public enum TraceTag {
    /// The tag sessions of a trace that reconstruct a tag, by session number.
    public static func sessions(next: () throws -> Frame?, keys: KeyList = .defaults) throws -> [(session: Int, reconstruction: TagReconstruction)] {
        try sessionsWithCycles(next: next, keys: keys).map { ($0.session, $0.reconstruction) }
    }

    /// The same, each with the field cycle it began in (0 before the first field-on, n after the n-th).
    /// `keys`: what MIFARE Classic authentications are opened with, so that the rebuilt card
    /// holds them.
    static func sessionsWithCycles(next: () throws -> Frame?, keys: KeyList = .defaults) throws -> [(session: Int, cycle: Int, reconstruction: TagReconstruction)] {
        let dissector = Dissector(detail: .summary, keys: keys)
        var found: [(session: Int, cycle: Int, reconstruction: TagReconstruction)] = []
        var fieldOns: [Int] = []   // frame numbers of the field-ons, ascending
        var number = 0
        let collect: (DissectionEvent) -> Void = { event in
            guard case .session(let s) = event, let r = s.reconstruction else { return }
            found.append((s.number, fieldOns.prefix { $0 <= s.firstFrame }.count, r))
        }
        while let frame = try next() {
            number += 1
            if frame.event == .fieldOn { fieldOns.append(number) }
            dissector.process(frame, emit: collect)
        }
        dissector.finish(emit: collect)
        return found
    }

    /// Every tag of the trace, one per identity (UID, IDm), most seen first: what a replay
    /// against the trace's own tags needs when a trace shows more than one. `cycles`: the field
    /// cycles the tag was seen in (see `TagField.presence`).
    public static func rebuildAll(next: () throws -> Frame?, keys: KeyList = .defaults) throws -> [(dump: TagDump, from: String, cycles: Set<Int>)] {
        let found = try sessionsWithCycles(next: next, keys: keys)
        var identities: [[UInt8]] = []
        for s in found where !identities.contains(s.reconstruction.identity) { identities.append(s.reconstruction.identity) }
        var out: [(dump: TagDump, from: String, weight: Int, cycles: Set<Int>)] = []
        for identity in identities {
            let mine = found.filter { $0.reconstruction.identity == identity }
            if let merged = merge(mine.map { ($0.session, $0.reconstruction) }) {
                out.append((merged.dump, merged.from, merged.weight, Set(mine.map(\.cycle))))
            }
        }
        return out.sorted { $0.weight > $1.weight }.map { ($0.dump, $0.from, $0.cycles) }
    }

    /// The trace's tags in one field, each present in the field cycles the trace showed it in.
    public static func field(next: () throws -> Frame?, keys: KeyList = .defaults) throws -> (field: TagField, from: [String])? {
        let rebuilt = try rebuildAll(next: next, keys: keys)
        var tags: [EmulatedTag] = []
        var from: [String] = []
        var presence: [Int: Set<Int>] = [:]
        for r in rebuilt {
            guard let tag = r.dump.makeTag() else { continue }
            for c in r.cycles { presence[c, default: []].insert(tags.count) }
            tags.append(tag)
            from.append(r.from)
        }
        return TagField(tags, presence: presence).map { ($0, from) }
    }

    /// The sessions of one tag merged (Type 2: a page keeps the value first seen), or its best session.
    static func merge(_ sessions: [(session: Int, reconstruction: TagReconstruction)]) -> (dump: TagDump, from: String, weight: Int)? {
        guard let best = sessions.max(by: { $0.reconstruction.knownUnits < $1.reconstruction.knownUnits }) else { return nil }
        // Kinds that merge take every session of the tag in order (TagReconstruction.followed(by:));
        // the others the session that showed most.
        var merged = best.reconstruction
        var used = [best.session]
        if best.reconstruction.followed(by: best.reconstruction) != nil {
            let ordered = sessions.sorted(by: { $0.session < $1.session })
            guard let first = ordered.first(where: { $0.reconstruction.followed(by: best.reconstruction) != nil }) else { return nil }
            merged = first.reconstruction
            used = [first.session]
            for s in ordered where s.session != first.session {
                guard let m = merged.followed(by: s.reconstruction) else { continue }
                merged = m
                used.append(s.session)
            }
        }
        let from = used.count == 1 ? "session \(used[0])" : "sessions \(used.map(String.init).joined(separator: ", "))"
        return (TagDump(reconstruction: merged), from, merged.knownUnits)
    }

    /// The trace's tag: the sessions of the tag seen most are merged (a page keeps the value
    /// its first session saw, so later writes do not rewrite the starting state), or one session
    /// when `session` names it.
    public static func rebuild(next: () throws -> Frame?, session wanted: Int? = nil, keys: KeyList = .defaults) throws -> (dump: TagDump, from: String)? {
        let found = try sessions(next: next, keys: keys)
        if let wanted {
            guard let s = found.first(where: { $0.session == wanted }) else { return nil }
            return (TagDump(reconstruction: s.reconstruction), "session \(wanted)")
        }
        guard let best = found.max(by: { $0.reconstruction.knownUnits < $1.reconstruction.knownUnits }) else { return nil }
        let identity = best.reconstruction.identity
        return merge(found.filter { $0.reconstruction.identity == identity }).map { ($0.dump, $0.from) }
    }
}
