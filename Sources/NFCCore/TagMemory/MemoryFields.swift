/// The fields of tag memory in session summaries (`memory.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields memory`).
public final class MemoryFields: FieldTable {
    public var name: String { "memory" }
    public var title: String { "tag memory in session summaries" }

    public let block = FieldSpec("memory.block", "Block", .hex)
    public let blocks = FieldSpec("memory.blocks", "Blocks seen", .text)
    public let config = FieldSpec("memory.config", "Configuration", .text)
    public let lock = FieldSpec("memory.lock", "Lock bits", .text)
    public let page = FieldSpec("memory.page", "Page", .hex)
    public let region = FieldSpec("memory.region", "Region", .text)
}

extension FieldSpec {
    /// `memory.*`
    public static let memory = MemoryFields()
}
