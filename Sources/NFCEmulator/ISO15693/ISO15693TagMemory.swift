import NFCCore

/// The NXP ICODE settings a Flipper SLIX dump carries (protocols.md §7.4). The emulator answers
/// READ SIGNATURE and GET NXP SYSTEM INFORMATION from them and saves them back; the passwords,
/// privacy mode and page protection are kept but not enforced (docs/iso15693.md, "Emulator").
public struct ICODEData: Sendable, Equatable {
    public enum PasswordID: String, Sendable, CaseIterable {
        case read = "Read", write = "Write", privacy = "Privacy", destroy = "Destroy", eas = "EAS"
    }

    /// The 32-byte originality signature (secp128r1), as READ SIGNATURE returns it.
    public var signature: [UInt8]
    /// 4 bytes per password.
    public var passwords: [PasswordID: [UInt8]]
    public var protectionPointer: UInt8
    public var protectionCondition: UInt8
    public var easLocked: Bool
    /// PPL: protection pointer and condition locked.
    public var protectionLocked: Bool
    public var privacyMode: Bool
    /// Flipper's "Capabilities: Accept all passwords" emulation mode.
    public var acceptsAllPasswords: Bool

    /// Flipper's defaults for passwords a dump omits: privacy and destroy `0F 0F 0F 0F`, the
    /// others zero (protocols.md §7.4).
    public static func defaultPassword(_ id: PasswordID) -> [UInt8] {
        id == .privacy || id == .destroy ? [0x0F, 0x0F, 0x0F, 0x0F] : [0, 0, 0, 0]
    }

    public init(signature: [UInt8] = [UInt8](repeating: 0, count: 32), passwords: [PasswordID: [UInt8]] = [:],
                protectionPointer: UInt8 = 0, protectionCondition: UInt8 = 0, easLocked: Bool = false,
                protectionLocked: Bool = false, privacyMode: Bool = false, acceptsAllPasswords: Bool = false) {
        self.signature = Array((signature + [UInt8](repeating: 0, count: 32)).prefix(32))
        var all: [PasswordID: [UInt8]] = [:]
        for id in PasswordID.allCases {
            let p = passwords[id] ?? Self.defaultPassword(id)
            all[id] = p.count == 4 ? p : Self.defaultPassword(id)
        }
        self.passwords = all
        self.protectionPointer = protectionPointer
        self.protectionCondition = protectionCondition
        self.easLocked = easLocked
        self.protectionLocked = protectionLocked
        self.privacyMode = privacyMode
        self.acceptsAllPasswords = acceptsAllPasswords
    }
}

/// The non-volatile content of an ISO 15693 VICC: UID, DSFID and AFI with their lock bits,
/// blocks with their security status (b1 = locked), and the NXP ICODE settings of NXP tags.
public struct ISO15693TagMemory: Sendable, Equatable {
    public var uid: ISO15693UID
    public var dsfid: UInt8
    public var afi: UInt8
    public var dsfidLocked: Bool
    public var afiLocked: Bool
    public private(set) var blockSize: Int
    /// `blockCount × blockSize` bytes, block 0 first.
    public private(set) var data: [UInt8]
    /// One entry per block.
    public private(set) var locked: [Bool]
    /// Blocks whose EEPROM fails: writing them answers `13`, locking them `14` (ISO/IEC
    /// 15693-3 Table 7). A fault to inject, so that readers can be tested against worn-out tags;
    /// dumps do not carry it.
    public var failingBlocks: Set<Int>
    public var icode: ICODEData?

    /// `data` is cut or zero-padded to `blockCount × blockSize`, `locked` to `blockCount`.
    public init(uid: ISO15693UID, blockCount: Int, blockSize: Int, data: [UInt8] = [], locked: [Bool] = [], dsfid: UInt8 = 0,
                afi: UInt8 = 0, dsfidLocked: Bool = false, afiLocked: Bool = false, failingBlocks: Set<Int> = [],
                icode: ICODEData? = nil) {
        let count = max(0, blockCount)
        let size = max(0, blockSize)
        self.uid = uid
        self.blockSize = size
        self.data = Array((data + [UInt8](repeating: 0, count: max(0, count * size - data.count))).prefix(count * size))
        self.locked = Array((locked + [Bool](repeating: false, count: max(0, count - locked.count))).prefix(count))
        self.dsfid = dsfid
        self.afi = afi
        self.dsfidLocked = dsfidLocked
        self.afiLocked = afiLocked
        self.failingBlocks = failingBlocks
        self.icode = icode
    }

    public var blockCount: Int { locked.count }

    public func contains(_ block: Int) -> Bool { block >= 0 && block < blockCount }

    /// The block's bytes; zeros outside the memory.
    public func block(_ n: Int) -> [UInt8] {
        guard contains(n) else { return [UInt8](repeating: 0, count: blockSize) }
        return Array(data[n * blockSize..<(n + 1) * blockSize])
    }

    /// Writes one block; data of another size or a block outside the memory is ignored.
    public mutating func setBlock(_ n: Int, _ bytes: some Collection<UInt8>) {
        guard contains(n), bytes.count == blockSize else { return }
        data.replaceSubrange(n * blockSize..<(n + 1) * blockSize, with: bytes)
    }

    public func isLocked(_ n: Int) -> Bool { contains(n) && locked[n] }

    public mutating func setLocked(_ n: Int, _ value: Bool = true) {
        guard contains(n) else { return }
        locked[n] = value
    }

    /// The security status byte of a block: b1 lock bit, b2–b8 RFU (ISO/IEC 15693-3, protocols.md §6.4).
    public func securityStatus(_ n: Int) -> UInt8 { isLocked(n) ? 0x01 : 0x00 }
}
