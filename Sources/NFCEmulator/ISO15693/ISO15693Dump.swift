import NFCCore

/// An ISO 15693 tag as a dump, a trace or a built-in describes it: what kind of VICC, and its content.
public struct ISO15693Dump: TagDumpContent, Equatable {
    public var configuration: ISO15693TagConfiguration
    public var memory: ISO15693TagMemory
    public var notes: [String]

    public init(configuration: ISO15693TagConfiguration, memory: ISO15693TagMemory, notes: [String] = []) {
        self.configuration = configuration
        self.memory = memory
        self.notes = notes
    }

    public var summary: String {
        "\(configuration.name), UID \(memory.uid), \(configuration.blockCount) blocks × \(configuration.blockSize) bytes"
    }

    public func makeTag() -> EmulatedTag? { ISO15693Tag(configuration: configuration, memory: memory) }

    /// UID of the built-in SLIX2: the protocols.md §6.3 vector (ICODE SLIX2 by its type bits).
    public static let slix2UID = ISO15693UID(value: 0xE004_0108_49D0_DC81)
    /// UID of the ST25DV04K-like tag of Traces/iso15693-format-and-write.nfctrace.
    public static let st25dv04kUID = ISO15693UID(value: 0xE002_2403_6A1B_5E42)

    /// A factory-fresh ICODE SLIX2-like tag, NDEF formatted with an empty NDEF message: a Type 5
    /// CC for the 316 bytes of blocks 0–78 (block 79 is the SLIX2's counter, ICODE SLIX2
    /// datasheet 9.5.3.21), MLEN `27` (312 bytes after the CC), MBREAD; DSFID and AFI `00`.
    /// The originality signature cannot be made without NXP's key: 32 zero bytes.
    public static func slix2(uid: ISO15693UID = slix2UID) -> ISO15693Dump {
        let configuration = ISO15693TagConfiguration.slix2
        let size = 79 * configuration.blockSize
        let image = (try? Type5Memory.image(message: [], memorySize: size)) ?? []
        let memory = ISO15693TagMemory(uid: uid, blockCount: configuration.blockCount, blockSize: configuration.blockSize,
                                       data: image, icode: ICODEData())
        return ISO15693Dump(configuration: configuration, memory: memory,
                            notes: ["the originality signature of a built-in SLIX2 is 32 zero bytes (a real one needs NXP's key)"])
    }

    /// A blank (all zero) ST25DV04K-like tag as in Traces/iso15693-format-and-write.nfctrace.
    public static func st25dv04k(uid: ISO15693UID = st25dv04kUID) -> ISO15693Dump {
        let configuration = ISO15693TagConfiguration.st25dv04k
        return ISO15693Dump(configuration: configuration,
                            memory: ISO15693TagMemory(uid: uid, blockCount: configuration.blockCount, blockSize: configuration.blockSize))
    }

    static let builtIns: [BuiltInTag] = [
        BuiltInTag(name: "slix2", description: "ICODE SLIX2-like, 80 × 4 bytes, NDEF formatted (empty message), UID \(slix2UID)") {
            TagDump(ISO15693Dump.slix2())
        },
        BuiltInTag(name: "iso15693-st25dv04k", description: "ST25DV04K-like, 128 × 4 bytes, IC reference 24, blank, UID \(st25dv04kUID)") {
            TagDump(ISO15693Dump.st25dv04k())
        },
    ]
}
