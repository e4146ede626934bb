import NFCCore

/// The ISO/IEC 14443-3 type A side of an emulated PICC: REQA/WUPA, anticollision and SELECT at
/// every cascade level, HLTA (protocols.md §1.7). It answers activation frames itself and hands
/// everything that arrives in the ACTIVE state to the tag's command set.
public struct ISO14443AListener: Sendable {
    public enum State: Sendable, Equatable {
        case idle
        /// Anticollision at cascade level `level` (1-based).
        case ready(level: Int)
        case active
        case halt
    }

    public private(set) var state: State = .idle
    /// READY*/ACTIVE*: woken by WUPA from HALT, so an error sends the tag back to HALT, not IDLE.
    public private(set) var wokenFromHalt = false
    public let uid: [UInt8]
    public let atqa: ATQA
    /// SAK once the UID is complete (intermediate levels answer with the cascade bit set).
    public let finalSAK: SAK
    let levels: [UIDLevelData]

    public init?(uid: [UInt8], atqa: ATQA, sak: SAK) {
        guard let levels = UIDLevelData.levels(forUID: uid) else { return nil }
        self.uid = uid
        self.atqa = atqa
        self.finalSAK = sak
        self.levels = levels
    }

    public enum Outcome: Sendable, Equatable {
        /// Answer with these bytes (CRC_A added when `crc`).
        case answer([UInt8], crc: Bool)
        case silence
        /// The tag is ACTIVE and the frame is none of the activation commands: the command set decides.
        case command
    }

    /// Field loss: POWER-OFF, then IDLE when the field returns.
    public mutating func reset() {
        state = .idle
        wokenFromHalt = false
    }

    /// Any error in READY or ACTIVE sends the tag to IDLE, or to HALT when it came from there
    /// (NTAG21x datasheet §8.4: "Depending on its previous state … returns to either the IDLE state or HALT state").
    public mutating func fail() {
        state = wokenFromHalt ? .halt : .idle
    }

    /// S(DESELECT) of ISO/IEC 14443-4: the PICC goes to HALT.
    public mutating func halt() {
        state = .halt
    }

    /// Handles one reader frame whose CRC (if any) was already checked by the caller.
    public mutating func handle(_ bytes: [UInt8], lastByteBits: UInt8) -> Outcome {
        guard let first = bytes.first else { return .silence }
        if bytes.count == 1 && (first == ISO14443A.reqa || first == ISO14443A.wupa) {
            switch (state, first) {
            case (.idle, ISO14443A.reqa), (.idle, ISO14443A.wupa):
                wokenFromHalt = false
                state = .ready(level: 1)
                return .answer(atqa.encode(), crc: false)
            case (.halt, ISO14443A.wupa):
                wokenFromHalt = true
                state = .ready(level: 1)
                return .answer(atqa.encode(), crc: false)
            case (.halt, _):
                return .silence   // REQA does not wake a halted tag
            default:
                // REQA/WUPA in READY or ACTIVE is an error (§1.7): back to IDLE/HALT, no answer.
                fail()
                return .silence
            }
        }
        switch state {
        case .idle, .halt:
            return .silence
        case .ready(let level):
            return anticollision(bytes, level: level)
        case .active:
            if (try? ISO14443ACommand.decode(bytes)) == .hlta {
                state = .halt   // HLTA: no answer
                return .silence
            }
            return .command
        }
    }

    private mutating func anticollision(_ bytes: [UInt8], level: Int) -> Outcome {
        guard let command = try? ISO14443ACommand.decode(bytes), level >= 1, level <= levels.count else {
            fail()
            return .silence
        }
        let data = levels[level - 1]
        switch command {
        case .anticollision(let l, let nvb, let known) where l.rawValue == level:
            // Bit-oriented anticollision: answer only if the known bits match ours, with the rest.
            let full = data.bytes + [data.bcc]
            let knownBits = nvb.uidBitCount
            guard knownBits <= 40, Self.bitsMatch(known, full, count: knownBits) else { return .silence }
            if knownBits % 8 == 0 { return .answer(Array(full[(knownBits / 8)...]), crc: false) }
            return .answer(Array(full[(knownBits / 8)...]), crc: false)   // the partial first byte is resent whole
        case .select(let l, let uid) where l.rawValue == level:
            guard uid.bytes == data.bytes, uid.bcc == data.bcc else {
                fail()
                return .silence
            }
            if level < levels.count {
                state = .ready(level: level + 1)
                return .answer(SAK.cascade(finalSAK).encode(), crc: true)
            }
            state = .active
            return .answer(finalSAK.encode(), crc: true)
        default:
            fail()
            return .silence
        }
    }

    static func bitsMatch(_ known: [UInt8], _ full: [UInt8], count: Int) -> Bool {
        for i in 0..<count {
            let byte = i / 8, bit = i % 8
            guard byte < known.count, byte < full.count else { return false }
            if (known[byte] >> bit) & 1 != (full[byte] >> bit) & 1 { return false }
        }
        return true
    }
}
