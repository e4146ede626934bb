import NFCCore

/// An emulated NFC Forum Type 1 tag (Broadcom Topaz 96 / Topaz 512): answers REQA/WUPA with the
/// Type 1 ATQA and, with no anticollision or SELECT (T1T Operation §5.1, §5.5),
/// the `Type1Command`s in the READY state, decoded and answered through the same codec the
/// dissector reads. Frames carry CRC_B (see `Type1Command`).
public final class Type1Tag: EmulatedTag {
    public let technology = Technology.iso14443a
    public private(set) var memory: [UInt8]
    public let header: Type1HeaderROM
    /// ATQA `0C 00` as Topaz sends it: no bit-frame anticollision, proprietary coding 1100.
    public static let atqa = ATQA(value: 0x0C00)
    private var ready = false

    /// `memory`: blocks 0–E (120 bytes) for a static-memory tag, whole segments for a dynamic one.
    public init?(memory: [UInt8], header: Type1HeaderROM = .topaz96) {
        guard memory.count >= Type1Memory.staticSize, memory.count <= 16 * Type1Memory.segmentSize else { return nil }
        self.memory = memory
        self.header = header
    }

    /// UID0–6 of block 0.
    public var uid: [UInt8] { Array(memory[Type1Memory.HeaderLayout.uid.range]) }
    public var summary: String { "\(header.productName ?? "Type 1 Tag"), UID \(Hex.string(uid))" }
    public func savedDump() -> [UInt8]? { nil }
    public func fieldOn() { ready = false }
    public func fieldOff() { ready = false }

    public func respond(to frame: Frame) -> Frame? {
        guard case .data(.readerToTag) = frame.event, frame.technology == .iso14443a, let first = frame.bytes.first else { return nil }
        if frame.bytes.count == 1, first == ISO14443A.reqa || first == ISO14443A.wupa {
            ready = true
            return answer(Self.atqa.encode(), crc: false, to: frame)
        }
        guard ready, let payload = frame.payload(ifValidCRC: .b), let command = try? Type1Command.decode(Array(payload)) else { return nil }
        // Every command but RID names the tag by UID0–3; another UID means another tag: silence.
        guard command.code == .rid || command.uid == Array(uid.prefix(4)) else { return nil }
        guard let response = execute(command) else { return nil }
        return answer(response.encode(), crc: true, kind: .b, to: frame)
    }

    private var isStatic: Bool { header.isStaticOnly }

    /// Lock bits of static memory (T1T Operation §2.2: LOCK0/LOCK1 at bytes 0x70/0x71, one bit
    /// per block 0–E); the static reserved blocks D and E themselves are read-only but OTP.
    private func blockLocked(_ block: Int) -> Bool {
        guard block < 15 else { return false }
        let lock = UInt16(memory[0x70]) | UInt16(memory[0x71]) << 8
        return lock & (1 << UInt16(block)) != 0
    }

    private func execute(_ command: Type1Command) -> Type1Response? {
        switch command {
        case .readIdentification:
            return .identification(header: header, uid: Array(uid.prefix(4)))
        case .readAll:
            return .all(header: header, memory: Array(memory[0..<Type1Memory.staticSize]))
        case .read(let a, _):
            let offset = Type1Command.offset(ofAddress: a)
            guard offset < min(memory.count, 128) else { return nil }
            return .byte(address: a, data: memory[offset])
        case .writeErase(let a, let d, _), .writeNoErase(let a, let d, _):
            let offset = Type1Command.offset(ofAddress: a)
            guard offset < Type1Memory.staticReserved.lowerBound, offset >= Type1Memory.blockSize else {
                // Block 0 (UID) and blocks D–E are not writable this way here: the tag answers with what it holds.
                return offset < min(memory.count, 128) ? .byte(address: a, data: memory[offset]) : nil
            }
            if !blockLocked(offset / Type1Memory.blockSize) {
                memory[offset] = command.code == .writeErase ? d : memory[offset] | d
            }
            return .byte(address: a, data: memory[offset])
        case .readSegment(let s, _):
            guard !isStatic else { return nil }
            let start = Int(s) * Type1Memory.segmentSize
            guard start + Type1Memory.segmentSize <= memory.count else { return nil }
            return .segment(address: s << 4, data: Array(memory[start..<start + Type1Memory.segmentSize]))
        case .read8(let b, _):
            guard !isStatic else { return nil }
            let start = Int(b) * Type1Memory.blockSize
            guard start + Type1Memory.blockSize <= memory.count else { return nil }
            return .block(address: b, data: Array(memory[start..<start + Type1Memory.blockSize]))
        case .writeErase8(let b, let d, _), .writeNoErase8(let b, let d, _):
            guard !isStatic else { return nil }
            let start = Int(b) * Type1Memory.blockSize
            guard start + Type1Memory.blockSize <= memory.count, d.count == Type1Memory.blockSize else { return nil }
            if b > 0, !blockLocked(Int(b)) {
                for i in 0..<Type1Memory.blockSize {
                    memory[start + i] = command.code == .writeErase8 ? d[i] : memory[start + i] | d[i]
                }
            }
            return .block(address: b, data: Array(memory[start..<start + Type1Memory.blockSize]))
        }
    }
}

/// A Type 1 tag as a built-in configuration describes it.
public struct Type1Dump: TagDumpContent {
    public var memory: [UInt8]
    public var header: Type1HeaderROM
    public var notes: [String] = []

    public init(memory: [UInt8], header: Type1HeaderROM = .topaz96) {
        self.memory = memory
        self.header = header
    }

    public var summary: String { "\(header.productName ?? "Type 1 Tag"), UID \(Hex.string(memory.prefix(Type1Memory.HeaderLayout.uid.width)))" }
    public func makeTag() -> EmulatedTag? { Type1Tag(memory: memory, header: header) }

    /// UID0 is the manufacturer: 0x28 is Innovision/Broadcom (ISO/IEC 7816-6).
    public static let defaultUID: [UInt8] = [0x28, 0x5F, 0x12, 0x01, 0x00, 0x00, 0x00]
    public static let defaultURI = "https://nfctrace.example/tags/topaz96"

    static let builtIns: [BuiltInTag] = [
        BuiltInTag(name: "topaz96", description: "Topaz 96 (NFC Forum Type 1), NDEF formatted, one URI record (\(defaultURI)), UID \(Hex.string(defaultUID))") {
            // The message is a literal URI record that always encodes and fits the 92-byte data area.
            let message = (try? NDEFMessage([.uri(defaultURI)]).encode()) ?? []
            let image = (try? Type1Memory.topaz96Image(uid: defaultUID, message: message)) ?? [UInt8](repeating: 0, count: Type1Memory.staticSize)
            return TagDump(Type1Dump(memory: image))
        },
    ]
}
