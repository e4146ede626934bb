import NFCCore

/// What an NFC Forum Type 4 Tag holds (protocols-wave2.md §4): the CC file and the NDEF file
/// (NLEN, then the message), and the identity it activates with.
public struct Type4TagMemory: Sendable, Equatable {
    public var uid: [UInt8]
    public var capabilityContainer: Type4CapabilityContainer
    /// The whole NDEF file: NLEN (2 bytes, or 4 with the extended TLV) and the message, padded
    /// to the size the CC gives.
    public var ndefFile: [UInt8]
    /// The ATS after RATS: FSCI 8 (FSC 256), FWI 8, SFGI 0, no CID or NAD, no historical bytes.
    public var ats: ATS

    public init(uid: [UInt8], capabilityContainer: Type4CapabilityContainer, message: [UInt8],
                ats: ATS = ATS(t0: 0x78, ta1: 0x00, tb1: 0x80, tc1: 0x00)) {
        self.uid = uid
        self.capabilityContainer = capabilityContainer
        self.ats = ats
        let size = Int(capabilityContainer.ndefFile.maxSize)
        let lengthSize = capabilityContainer.ndefFile.lengthFieldSize
        let nlen = (0..<lengthSize).map { UInt8(truncatingIfNeeded: message.count >> (8 * (lengthSize - 1 - $0))) }
        var file = nlen + message
        if file.count < size { file += [UInt8](repeating: 0, count: size - file.count) }
        self.ndefFile = file
    }

    /// A factory-fresh tag: mapping 2.0, an empty NDEF file of `size` bytes, read and write
    /// granted; MLe and MLc 255, so long reads and writes chain over ISO-DEP.
    public static func factory(uid: [UInt8], size: UInt32 = 2048) -> Type4TagMemory {
        let cc = Type4CapabilityContainer(mappingVersion: 0x20, maxReadLength: 0xFF, maxWriteLength: 0xFF,
                                          ndefFile: .init(fileID: Type4Tag.defaultNDEFFile, maxSize: size))
        return Type4TagMemory(uid: uid, capabilityContainer: cc, message: [])
    }

    /// NLEN as the file holds it.
    public var nlen: Int {
        let n = capabilityContainer.ndefFile.lengthFieldSize
        return ndefFile.prefix(n).reduce(0) { $0 << 8 | Int($1) }
    }

    /// The NDEF message NLEN announces (cut at the file's end).
    public var message: [UInt8] {
        let n = capabilityContainer.ndefFile.lengthFieldSize
        return Array(ndefFile.dropFirst(n).prefix(nlen))
    }
}

/// A Type 4 Tag to emulate (`emulate --model type4-ndef`, `--from-trace`).
public struct Type4Dump: TagDumpContent {
    public var memory: Type4TagMemory
    public var notes: [String]

    public init(memory: Type4TagMemory, notes: [String] = []) {
        self.memory = memory
        self.notes = notes
    }

    public var summary: String { "NFC Forum Type 4 Tag (mapping \(memory.capabilityContainer.versionText)), UID \(Hex.string(memory.uid))" }

    public func makeTag() -> EmulatedTag? { Type4NDEFApplication.card(memory)?.card }

    /// The tag a trace showed: its CC when the trace read it (else the factory one), the NDEF
    /// file as first read over zeros, its UID and ATS.
    public init(reconstruction: Type4Reconstruction) {
        var notes: [String] = []
        var memory = Type4TagMemory.factory(uid: reconstruction.uid)
        if let bytes = reconstruction.ccFile.knownPrefix(Type4CapabilityContainer.Layout.minimumLength), let cc = try? Type4CapabilityContainer.decode(bytes) {
            memory = Type4TagMemory(uid: reconstruction.uid, capabilityContainer: cc, message: [])
        } else {
            notes.append("the trace does not read the CC file: emulating a factory CC (mapping 2.0, a 2048-byte NDEF file)")
        }
        for i in 0..<min(reconstruction.ndefFile.count, memory.ndefFile.count) where reconstruction.ndefFile.isKnown(i) { memory.ndefFile[i] = reconstruction.ndefFile.bytes[i] }
        if let ats = reconstruction.ats, let decoded = try? ATS.decode(ats) { memory.ats = decoded }
        self.init(memory: memory, notes: notes)
    }

    static let builtIns: [BuiltInTag] = [
        BuiltInTag(name: "type4-ndef", description: "NFC Forum Type 4 Tag, mapping 2.0, empty 2048-byte NDEF file, UID \(Hex.string(Type2Dump.defaultUID))") {
            TagDump(Type4Dump(memory: .factory(uid: Type2Dump.defaultUID)))
        },
    ]
}
