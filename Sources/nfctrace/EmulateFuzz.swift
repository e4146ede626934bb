import NFCCapture
import NFCCore
import NFCEmulator
import NFCFuzz

/// `nfctrace emulate --fuzz ndef|type2`: a Type 2 tag whose content is mutated afresh every
/// time the reader switches its field on, so that reader software talking to it (nfcpy over
/// UDP, say) is fuzzed through its real NFC stack. The activation (UID, ATQA, SAK) and the
/// configuration pages stay those of the tag being emulated; what changes is the user memory:
/// an NDEF message in a valid TLV (`ndef`), or the CC and the whole TLV area (`type2`).
final class FuzzedType2Tag: EmulatedTag {
    let technology = Technology.iso14443a
    let shape: FuzzShape
    private let base: Type2Dump
    private let mutator: StructuredMutator
    private var current: Type2Tag
    private var random: FuzzRandom
    private var parent: [UInt8]
    private(set) var sessions = 0
    /// Called with the session number and the memory it serves (to log and keep it).
    var onSession: ((Int, Type2TagMemory) -> Void)?

    init?(dump: Type2Dump, shape: FuzzShape, seed: UInt64) {
        guard shape == .ndef || shape == .type2, let tag = Type2Tag(memory: dump.memory, atqa: dump.atqa, sak: dump.sak) else { return nil }
        self.base = dump
        self.shape = shape
        self.mutator = StructuredMutator(shape: shape)
        self.current = tag
        self.random = FuzzRandom(seed: seed)
        self.parent = mutator.seeds().first ?? []
    }

    var summary: String { "\(base.memory.model.rawValue) with \(shape.rawValue) content fuzzed on every field-on, UID \(Hex.string(base.memory.uid))" }

    /// User memory bytes: from page 3 (the CC) to the last user page.
    private var userRange: Range<Int> { 12..<((base.memory.map.lastUserPage + 1) * 4) }

    /// The next session's memory: a child of the last content half the time (a walk), of a seed otherwise.
    func nextMemory() -> Type2TagMemory {
        if random.bool() { parent = random.element(mutator.seeds()) ?? parent }
        let capacity = userRange.count
        let child = mutator.mutate(parent, seed: random.next(), maxSize: shape == .ndef ? capacity - 8 : capacity + 12)
        parent = child
        var memory = base.memory
        switch shape {
        case .ndef:
            // A message that fits goes in a valid NDEF TLV; a longer one is cut (the TLV says so).
            let cc = Type2CapabilityContainer(size: UInt8(clamping: (capacity - 4) / 8))
            let message = Array(child.prefix(cc.dataAreaSize - 5))
            if let image = try? Type2Memory.image(capabilityContainer: cc, message: message, header: Array(memory.pages[0..<12])) {
                memory.pages.replaceSubrange(12..<min(memory.pages.count, image.count), with: image[12..<min(memory.pages.count, image.count)])
            }
        default:
            // The image from its CC on (its header would change the UID the reader just selected).
            let content = Array(child.dropFirst(12).prefix(capacity))
            memory.pages.replaceSubrange(12..<(12 + content.count), with: content)
        }
        return memory
    }

    func fieldOn() {
        sessions += 1
        let memory = nextMemory()
        if let tag = Type2Tag(memory: memory, atqa: base.atqa, sak: base.sak) { current = tag }
        onSession?(sessions, memory)
        current.fieldOn()
    }

    func fieldOff() { current.fieldOff() }
    func respond(to frame: Frame) -> Frame? { current.respond(to: frame) }
    func savedDump() -> [UInt8]? { current.savedDump() }
}
