import NFCCore

/// Several emulated tags in one reader field, as a trace with more than one tag shows them:
/// every reader frame reaches every tag of its technology that is in the field; the answer is the
/// one tag that answers. When several answer at once the first one's answer is returned (a real
/// reader would see a collision; nfctrace does not model collisions).
///
/// A trace may show different tags in different field cycles (cards swapped between two reads).
/// `presence` then names, per field cycle, which tags were there: cycle 0 is before the first
/// field-on, cycle n after the n-th. A cycle it does not name has every tag in the field.
public final class TagField: EmulatedTag {
    public let tags: [EmulatedTag]
    public let presence: [Int: Set<Int>]
    public private(set) var collisions = 0
    /// Field-ons seen so far: the current field cycle.
    public private(set) var cycle = 0

    public init?(_ tags: [EmulatedTag], presence: [Int: Set<Int>] = [:]) {
        guard !tags.isEmpty else { return nil }
        self.tags = tags
        self.presence = presence
    }

    public var technology: Technology { tags[0].technology }
    public var summary: String {
        tags.count == 1 ? tags[0].summary : "\(tags.count) tags: " + tags.map(\.summary).joined(separator: "; ")
    }

    public func fieldOn() {
        cycle += 1
        tags.forEach { $0.fieldOn() }
    }
    public func fieldOff() { tags.forEach { $0.fieldOff() } }
    public func savedDump() -> [UInt8]? { tags.count == 1 ? tags[0].savedDump() : nil }

    func isPresent(_ index: Int) -> Bool { presence[cycle]?.contains(index) ?? true }

    public func respond(to frame: Frame) -> Frame? {
        var answer: Frame?
        for (i, tag) in tags.enumerated() where tag.technology == frame.technology && isPresent(i) {
            guard let a = tag.respond(to: frame) else { continue }
            if answer == nil { answer = a } else { collisions += 1 }
        }
        return answer
    }
}
