import NFCCore

/// The non-volatile content of an NTAG21x / Ultralight EV1: pages, counters, signature,
/// and the failed-authentication counter (which survives power loss, datasheet §8.8.3).
public struct Type2TagMemory: Sendable, Equatable {
    public var model: Type2TagModel
    /// Every page, PWD and PACK included with their real values (a READ shows zeros instead).
    public var pages: [UInt8]
    public var version: [UInt8]
    public var signature: [UInt8]
    /// Counters 0…2, 24 bit (NTAG21x only use counter 2, the NFC counter).
    public var counters: [UInt32]
    /// Tearing flags 0…2 (`BD` = valid).
    public var tearing: [UInt8]
    public var failedAuthentications: Int
    /// Ultralight AES keys 0 (DataProtKey) and 1 (UIDRetrKey); all zero as delivered. An
    /// Ultralight C keeps its 3DES key in pages 2C–2F instead.
    public var aesKeys: [[UInt8]] = [[UInt8](repeating: 0, count: 16), [UInt8](repeating: 0, count: 16)]
    /// The Ultralight C / AES challenges a tag rebuilt from a trace answers with, in order, and
    /// the reader answers recorded after them (a real tag draws RndB at random).
    public var recordedChallenges: [UltralightExchange] = []

    public init(model: Type2TagModel, pages: [UInt8], version: [UInt8]? = nil, signature: [UInt8] = [UInt8](repeating: 0, count: 32),
                counters: [UInt32] = [0, 0, 0], tearing: [UInt8] = [0xBD, 0xBD, 0xBD], failedAuthentications: Int = 0) {
        let size = model.memoryMap.totalPages * 4
        self.model = model
        self.pages = Array((pages + [UInt8](repeating: 0, count: max(0, size - pages.count))).prefix(size))
        self.version = version ?? model.version ?? [0, 0, 0, 0, 0, 0, 0, 0]
        self.signature = signature
        self.counters = counters
        self.tearing = tearing
        self.failedAuthentications = failedAuthentications
    }

    /// A factory-fresh tag of `model` with `uid` (7 bytes): NFCCore's one factory image
    /// (`Type2FactoryImage`: CC and empty NDEF TLV as NXP ships them, default configuration).
    public static func factory(_ model: Type2TagModel, uid: [UInt8]) -> Type2TagMemory {
        Type2TagMemory(model: model, pages: Type2FactoryImage.pages(model, uid: uid))
    }

    public var map: Type2MemoryMap { model.memoryMap }

    /// UID from pages 0–1 (UID0–2, UID3–6).
    public var uid: [UInt8] { Array(pages[0..<3]) + Array(pages[4..<8]) }

    public func page(_ p: Int) -> [UInt8] {
        guard p >= 0, (p + 1) * 4 <= pages.count else { return [0, 0, 0, 0] }
        return Array(pages[p * 4..<p * 4 + 4])
    }

    public mutating func setPage(_ p: Int, _ data: [UInt8]) {
        guard p >= 0, (p + 1) * 4 <= pages.count, data.count == 4 else { return }
        pages.replaceSubrange(p * 4..<p * 4 + 4, with: data)
    }

    public var configuration: Type2Configuration? {
        guard let family = map.configFamily, let c0 = map.cfg0Page, let c1 = map.cfg1Page else { return nil }
        return Type2Configuration(family: family, cfg0: page(c0), cfg1: page(c1))
    }

    public var password: [UInt8]? { map.pwdPage.map { page($0) } }

    /// The Ultralight C 3DES key, from pages 2C–2F.
    public var ultralightCKey: [UInt8]? {
        guard model == .ultralightC, let keyPages = map.pages(of: .key) else { return nil }
        return UltralightKey.swapPageOrder(keyPages.flatMap { page($0) })
    }

    public mutating func setUltralightCKey(_ key: [UInt8]) {
        guard model == .ultralightC, key.count == 16, let first = map.pages(of: .key)?.lowerBound else { return }
        let stored = UltralightKey.swapPageOrder(key)
        for i in 0..<4 { setPage(first + i, Array(stored[4 * i..<4 * i + 4])) }
    }

    /// Ultralight C: the first page AUTHENTICATE protects (AUTH0, page 2A byte 0; 30h and above
    /// protect nothing) and whether reads are protected too (AUTH1 bit 0 clear).
    public var ultralightCProtection: (fromPage: Int, reads: Bool)? {
        guard model == .ultralightC, let auth0 = map.pages(of: .auth0)?.lowerBound, let auth1 = map.pages(of: .auth1)?.lowerBound else { return nil }
        let from = Int(page(auth0)[0])
        guard from < map.totalPages else { return nil }
        return (from, page(auth1)[0] & 0x01 == 0)
    }
    public var pack: [UInt8]? { map.packPage.map { Array(page($0).prefix(2)) } }

    /// Whether static or dynamic lock bits protect `p` against WRITE.
    /// Static lock bytes (page 2, bytes 2–3): byte 2 b3 locks page 3 (CC), b4…b7 pages 4–7;
    /// byte 3 b0…b7 pages 8–15 (NTAG21x datasheet §8.5.2).
    /// Dynamic lock bytes (NTAG213: 2 pages per bit from page 16; NTAG215/216: 16 pages per bit;
    /// Ultralight EV1 MF0UL21: 4 pages per bit) — datasheets §8.5.3.
    public func isLocked(_ p: Int) -> Bool {
        let staticLock = (page(2)[2], page(2)[3])
        switch p {
        case 3: return staticLock.0 & 0x08 != 0
        case 4...7: return staticLock.0 & (0x10 << UInt8(p - 4)) != 0
        case 8...15: return staticLock.1 & (1 << UInt8(p - 8)) != 0
        default: break
        }
        guard let dyn = map.dynamicLockPage, p >= 16, p <= map.lastUserPage else { return false }
        let pagesPerBit: Int
        switch model {
        case .ntag213, .ntag213F: pagesPerBit = 2
        case .ultralightEV1_21: pagesPerBit = 4
        default: pagesPerBit = 16
        }
        let bit = (p - 16) / pagesPerBit
        let bytes = page(dyn)
        guard bit < 16 else { return false }
        return bytes[bit / 8] & (1 << UInt8(bit % 8)) != 0
    }
}
