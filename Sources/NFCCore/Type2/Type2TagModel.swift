/// NXP Type 2 tag models and their memory maps (protocols.md §2.3, §2.4).
public enum Type2TagModel: String, Sendable, CaseIterable, Hashable {
    case ultralight = "MIFARE Ultralight"
    case ultralightC = "MIFARE Ultralight C"
    case ultralightEV1_11 = "MIFARE Ultralight EV1 (MF0UL11)"
    case ultralightEV1_21 = "MIFARE Ultralight EV1 (MF0UL21)"
    case ultralightAES = "MIFARE Ultralight AES"
    case ntag203 = "NTAG203"
    case ntag210 = "NTAG210"
    case ntag212 = "NTAG212"
    case ntag213 = "NTAG213"
    case ntag215 = "NTAG215"
    case ntag216 = "NTAG216"
    case ntag213F = "NTAG213F"
    case ntag216F = "NTAG216F"
    case ntagI2C1K = "NTAG I2C 1K"
    case ntagI2C2K = "NTAG I2C 2K"
    case ntagI2CPlus1K = "NTAG I2C plus 1K"
    case ntagI2CPlus2K = "NTAG I2C plus 2K"

    /// Identifies a model from its 8 GET_VERSION bytes (product type, subtype, versions, size).
    public init?(version: [UInt8]) {
        guard version.count == 8 else { return nil }
        let (type, subtype, major, size) = (version[2], version[3], version[4], version[6])
        switch (type, subtype, major, size) {
        case (0x04, 0x01...0x02, 0x01, 0x0B): self = .ntag210
        case (0x04, 0x01...0x02, 0x01, 0x0E): self = .ntag212
        case (0x04, 0x01...0x02, 0x01, 0x0F): self = .ntag213
        case (0x04, 0x01...0x02, 0x01, 0x11): self = .ntag215
        case (0x04, 0x01...0x02, 0x01, 0x13): self = .ntag216
        case (0x04, 0x04, 0x01, 0x0F): self = .ntag213F
        case (0x04, 0x04, 0x01, 0x12...0x13): self = .ntag216F   // §9 #7: early datasheets say 0x12
        case (0x04, 0x05, 0x01, 0x13): self = .ntagI2C1K
        case (0x04, 0x05, 0x01, 0x15): self = .ntagI2C2K
        case (0x04, 0x05, 0x02, 0x13): self = .ntagI2CPlus1K
        case (0x04, 0x05, 0x02, 0x15): self = .ntagI2CPlus2K
        case (0x03, 0x01...0x02, 0x01, 0x0B): self = .ultralightEV1_11
        case (0x03, 0x01...0x02, 0x01, 0x0E): self = .ultralightEV1_21
        case (0x03, _, 0x04, _): self = .ultralightAES
        default: return nil
        }
    }

    /// The GET_VERSION answer of the 50 pF variant of this model (17 pF for Ultralight EV1).
    public var version: [UInt8]? {
        switch self {
        case .ntag210: return [0x00, 0x04, 0x04, 0x01, 0x01, 0x00, 0x0B, 0x03]
        case .ntag212: return [0x00, 0x04, 0x04, 0x01, 0x01, 0x00, 0x0E, 0x03]
        case .ntag213: return [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03]
        case .ntag215: return [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03]
        case .ntag216: return [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03]
        case .ntag213F: return [0x00, 0x04, 0x04, 0x04, 0x01, 0x00, 0x0F, 0x03]
        case .ntag216F: return [0x00, 0x04, 0x04, 0x04, 0x01, 0x00, 0x13, 0x03]
        case .ntagI2C1K: return [0x00, 0x04, 0x04, 0x05, 0x02, 0x01, 0x13, 0x03]
        case .ntagI2C2K: return [0x00, 0x04, 0x04, 0x05, 0x02, 0x01, 0x15, 0x03]
        case .ntagI2CPlus1K: return [0x00, 0x04, 0x04, 0x05, 0x02, 0x02, 0x13, 0x03]
        case .ntagI2CPlus2K: return [0x00, 0x04, 0x04, 0x05, 0x02, 0x02, 0x15, 0x03]
        case .ultralightEV1_11: return [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0B, 0x03]
        case .ultralightEV1_21: return [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0E, 0x03]
        case .ultralightAES: return [0x00, 0x04, 0x03, 0x01, 0x04, 0x00, 0x0F, 0x03]
        case .ultralight, .ultralightC, .ntag203: return nil
        }
    }

    public var isNTAG: Bool {
        switch self {
        case .ntag203, .ntag210, .ntag212, .ntag213, .ntag215, .ntag216, .ntag213F, .ntag216F,
             .ntagI2C1K, .ntagI2C2K, .ntagI2CPlus1K, .ntagI2CPlus2K: return true
        default: return false
        }
    }

    /// NTAG21x / Ultralight EV1: the tags with CFG0/CFG1/PWD/PACK pages and PWD_AUTH.
    public var hasPasswordProtection: Bool { memoryMap.pwdPage != nil }

    public var memoryMap: Type2MemoryMap {
        switch self {
        case .ultralight: return Type2MemoryMap(totalPages: 16, lastUserPage: 0x0F)
        case .ultralightC:
            return Type2MemoryMap(totalPages: 48, lastUserPage: 0x27, dynamicLockPage: 0x28, ulcCounterPage: 0x29)
        case .ultralightEV1_11: return Type2MemoryMap(totalPages: 20, lastUserPage: 0x0F, configStart: 0x10, configFamily: .ultralightEV1)
        case .ultralightEV1_21:
            return Type2MemoryMap(totalPages: 41, lastUserPage: 0x23, dynamicLockPage: 0x24, configStart: 0x25, configFamily: .ultralightEV1)
        case .ultralightAES: return Type2MemoryMap(totalPages: 60, lastUserPage: 0x27)
        case .ntag203: return Type2MemoryMap(totalPages: 42, lastUserPage: 0x27, dynamicLockPage: 0x28, ulcCounterPage: 0x29)
        case .ntag210: return Type2MemoryMap(totalPages: 20, lastUserPage: 0x0F, configStart: 0x10, configFamily: .ntag21x)
        case .ntag212: return Type2MemoryMap(totalPages: 41, lastUserPage: 0x23, dynamicLockPage: 0x24, configStart: 0x25, configFamily: .ntag21x)
        case .ntag213, .ntag213F:
            return Type2MemoryMap(totalPages: 45, lastUserPage: 0x27, dynamicLockPage: 0x28, configStart: 0x29, configFamily: .ntag21x)
        case .ntag215: return Type2MemoryMap(totalPages: 135, lastUserPage: 0x81, dynamicLockPage: 0x82, configStart: 0x83, configFamily: .ntag21x)
        case .ntag216, .ntag216F:
            return Type2MemoryMap(totalPages: 231, lastUserPage: 0xE1, dynamicLockPage: 0xE2, configStart: 0xE3, configFamily: .ntag21x)
        // NTAG I2C: sector 0 only (pages beyond need SECTOR_SELECT and are not mapped here).
        case .ntagI2C1K: return Type2MemoryMap(totalPages: 231, lastUserPage: 0xE1, dynamicLockPage: 0xE2)
        case .ntagI2C2K: return Type2MemoryMap(totalPages: 256, lastUserPage: 0xFF)
        case .ntagI2CPlus1K: return Type2MemoryMap(totalPages: 236, lastUserPage: 0xE1, dynamicLockPage: 0xE2)
        case .ntagI2CPlus2K: return Type2MemoryMap(totalPages: 256, lastUserPage: 0xFF)
        }
    }

    /// "NTAG215, 504 bytes user memory".
    public var summary: String {
        "\(rawValue), \(memoryMap.userBytes) bytes user memory"
    }
}

/// Where things live in a Type 2 tag's pages.
public struct Type2MemoryMap: Sendable, Hashable {
    public enum ConfigFamily: Sendable, Hashable { case ntag21x, ultralightEV1 }

    public var totalPages: Int
    public var lastUserPage: Int
    public var dynamicLockPage: Int?
    public var cfg0Page: Int?
    public var configFamily: ConfigFamily?
    /// Ultralight C: 16-bit counter page; AUTH0/AUTH1/key follow it.
    public var ulcCounterPage: Int?

    public init(totalPages: Int, lastUserPage: Int, dynamicLockPage: Int? = nil, configStart: Int? = nil,
                configFamily: ConfigFamily? = nil, ulcCounterPage: Int? = nil) {
        self.totalPages = totalPages
        self.lastUserPage = lastUserPage
        self.dynamicLockPage = dynamicLockPage
        self.cfg0Page = configStart
        self.configFamily = configFamily
        self.ulcCounterPage = ulcCounterPage
    }

    /// A map for a Type 2 tag whose model is unknown: header pages and user memory from page 4.
    public static func generic(totalPages: Int = 256) -> Type2MemoryMap {
        Type2MemoryMap(totalPages: totalPages, lastUserPage: totalPages - 1)
    }

    public var firstUserPage: Int { 4 }
    public var userBytes: Int { (lastUserPage - firstUserPage + 1) * 4 }
    public var lastPage: Int { totalPages - 1 }
    public var cfg1Page: Int? { cfg0Page.map { $0 + 1 } }
    public var pwdPage: Int? { cfg0Page.map { $0 + 2 } }
    public var packPage: Int? { cfg0Page.map { $0 + 3 } }

    public enum Region: String, Sendable, Hashable, CaseIterable {
        case uid = "UID/BCC"
        case staticLock = "serial/lock bytes"
        case capabilityContainer = "CC"
        case user = "user memory"
        case dynamicLock = "dynamic lock"
        case cfg0 = "CFG0"
        case cfg1 = "CFG1"
        case pwd = "PWD"
        case pack = "PACK"
        case counter = "counter"
        case auth0 = "AUTH0"
        case auth1 = "AUTH1"
        case key = "3DES key"
        case beyond = "beyond memory"
    }

    /// The region a page belongs to.
    public func region(ofPage page: Int) -> Region {
        switch page {
        case 0, 1: return .uid
        case 2: return .staticLock
        case 3: return .capabilityContainer
        case _ where page > lastPage || page < 0: return .beyond
        case firstUserPage...lastUserPage: return .user
        case dynamicLockPage: return .dynamicLock
        case cfg0Page: return .cfg0
        case cfg1Page: return .cfg1
        case pwdPage: return .pwd
        case packPage: return .pack
        default:
            if let c = ulcCounterPage {
                switch page - c {
                case 0: return .counter
                case 1: return .auth0
                case 2: return .auth1
                case 3...6: return .key
                default: break
                }
            }
            return .user
        }
    }

    /// The pages of `region` (nil for regions this map does not have).
    public func pages(of region: Region) -> ClosedRange<Int>? {
        switch region {
        case .uid: return 0...1
        case .staticLock: return 2...2
        case .capabilityContainer: return 3...3
        case .user: return firstUserPage...lastUserPage
        case .dynamicLock: return dynamicLockPage.map { $0...$0 }
        case .cfg0: return cfg0Page.map { $0...$0 }
        case .cfg1: return cfg1Page.map { $0...$0 }
        case .pwd: return pwdPage.map { $0...$0 }
        case .pack: return packPage.map { $0...$0 }
        case .counter: return ulcCounterPage.map { $0...$0 }
        case .auth0: return ulcCounterPage.map { ($0 + 1)...($0 + 1) }
        case .auth1: return ulcCounterPage.map { ($0 + 2)...($0 + 2) }
        case .key: return ulcCounterPage.map { ($0 + 3)...($0 + 6) }
        case .beyond: return totalPages <= 255 ? totalPages...255 : nil
        }
    }

    /// The regions in page order, each with its first and last page.
    public var regions: [(region: Region, pages: ClosedRange<Int>)] {
        var out: [(Region, ClosedRange<Int>)] = []
        var page = 0
        while page <= lastPage {
            let r = region(ofPage: page)
            var end = page
            while end + 1 <= lastPage && region(ofPage: end + 1) == r && r != .uid { end += 1 }
            if r == .uid && page == 0 { end = 1 }
            out.append((r, page...end))
            page = end + 1
        }
        return out
    }
}

/// The configuration pages of NTAG21x and Ultralight EV1 (NXP datasheets §8.5.7).
public struct Type2Configuration: Sendable, Hashable {
    public var family: Type2MemoryMap.ConfigFamily
    public var cfg0: [UInt8]
    public var cfg1: [UInt8]

    public init?(family: Type2MemoryMap.ConfigFamily, cfg0: [UInt8], cfg1: [UInt8]) {
        guard cfg0.count == 4, cfg1.count == 4 else { return nil }
        self.family = family
        self.cfg0 = cfg0
        self.cfg1 = cfg1
    }

    /// First page protected by the password; beyond the last page means "no protection".
    public var auth0: UInt8 { cfg0[3] }
    /// ACCESS b8: reads need the password too (otherwise only writes).
    public var readProtected: Bool { cfg1[0] & 0x80 != 0 }
    /// ACCESS b7: configuration locked.
    public var configLocked: Bool { cfg1[0] & 0x40 != 0 }
    /// ACCESS b3…b1: wrong attempts allowed before lock-out, 0 = unlimited.
    public var authenticationLimit: UInt8 { cfg1[0] & 0x07 }
    /// NTAG21x ACCESS b5: NFC counter enabled.
    public var nfcCounterEnabled: Bool { family == .ntag21x && cfg1[0] & 0x10 != 0 }
    /// NTAG21x ACCESS b4: NFC counter protected by the password.
    public var nfcCounterPasswordProtected: Bool { family == .ntag21x && cfg1[0] & 0x08 != 0 }
    /// CFG0 byte 0 b3: strong modulation.
    public var strongModulation: Bool { cfg0[0] & 0x04 != 0 }
    /// NTAG21x CFG0 byte 0 b8…b7: ASCII mirror of UID and/or NFC counter.
    public var mirror: String? {
        guard family == .ntag21x else { return nil }
        switch cfg0[0] >> 6 {
        case 0: return nil
        case 1: return "UID mirror"
        case 2: return "NFC counter mirror"
        default: return "UID and NFC counter mirror"
        }
    }
    public var mirrorByte: UInt8 { (cfg0[0] >> 4) & 0x3 }
    public var mirrorPage: UInt8 { cfg0[2] }
    /// Ultralight EV1 CFG1 byte 1.
    public var vctid: UInt8? { family == .ultralightEV1 ? cfg1[1] : nil }
}
