import NFCCore

/// Several emulated tags in one reader field, as a trace with more than one tag shows them:
/// every reader frame reaches every tag of its technology; the answer is the one tag that
/// answers. When several answer at once the first one's answer is returned (a real reader would
/// see a collision; nfctrace does not model collisions).
public final class TagField: EmulatedTag {
    public let tags: [EmulatedTag]
    public private(set) var collisions = 0

    public init?(_ tags: [EmulatedTag]) {
        guard !tags.isEmpty else { return nil }
        self.tags = tags
    }

    public var technology: Technology { tags[0].technology }
    public var summary: String {
        tags.count == 1 ? tags[0].summary : "\(tags.count) tags: " + tags.map(\.summary).joined(separator: "; ")
    }

    public func fieldOn() { tags.forEach { $0.fieldOn() } }
    public func fieldOff() { tags.forEach { $0.fieldOff() } }
    public func savedDump() -> [UInt8]? { tags.count == 1 ? tags[0].savedDump() : nil }

    public func respond(to frame: Frame) -> Frame? {
        var answer: Frame?
        for tag in tags where tag.technology == frame.technology {
            guard let a = tag.respond(to: frame) else { continue }
            if answer == nil { answer = a } else { collisions += 1 }
        }
        return answer
    }
}
