/// Status flags SF1/SF2 of Read/Write and other list responses. protocols.md §5.6.
public struct FeliCaStatusFlags: Sendable, Hashable, CustomStringConvertible {
    public var sf1: UInt8
    public var sf2: UInt8

    public init(sf1: UInt8, sf2: UInt8) {
        self.sf1 = sf1
        self.sf2 = sf2
    }

    public static let success = FeliCaStatusFlags(sf1: 0, sf2: 0)

    /// How a card writes the failing list element into SF1 (§9 #12, DISAGREE).
    public enum LocationConvention: Sendable, Hashable {
        /// Sony's FeliCa OS text: the element's number in the list, 1-based.
        case listNumber
        /// FeliCa Lite-S, nfcpy's and Flipper's emulators: bit `i % 8` (PM3: bit 0 = 1st or 9th element).
        case bitMask
    }

    /// SF1 `FF`: an error of the whole command (too many services or blocks).
    public static func command(sf2: UInt8) -> FeliCaStatusFlags { FeliCaStatusFlags(sf1: 0xFF, sf2: sf2) }

    /// An error at list element `index` (0-based), located the way `convention` says.
    public static func element(_ index: Int, sf2: UInt8, _ convention: LocationConvention) -> FeliCaStatusFlags {
        switch convention {
        case .listNumber: return FeliCaStatusFlags(sf1: UInt8(clamping: min(max(index + 1, 1), 0xFE)), sf2: sf2)
        case .bitMask: return FeliCaStatusFlags(sf1: 1 << UInt8(max(index, 0) % 8), sf2: sf2)
        }
    }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> FeliCaStatusFlags {
        FeliCaStatusFlags(sf1: try c.readUInt8("status flag 1"), sf2: try c.readUInt8("status flag 2"))
    }

    public var bytes: [UInt8] { [sf1, sf2] }

    /// SF1 `00`: the command was carried out (SF2 `71` may still warn about the rewrite count).
    public var isSuccess: Bool { sf1 == 0 }
    /// SF2 `71` is a warning, not a failure: the write was done.
    public var isWarning: Bool { sf2 == 0x71 }

    public var description: String { "\(Hex.value(sf1, digits: 2)) \(Hex.value(sf2, digits: 2))" }

    /// Where SF1 places the error.
    ///
    /// §9 #12 (DISAGREE): Sony's text calls SF1 "a number in the list" (1-based); FeliCa Lite-S and
    /// nfcpy's emulator set bit `1 << (i % 8)`; PM3's simulator can do either. Both readings are kept:
    /// `listNumber` is the primary one (Sony, the card OS most traces come from), `maskElements` the other.
    public enum Location: Sendable, Hashable {
        case none
        /// `FF`: an error not tied to a list element.
        case command
        /// 1-based position in the list (Sony), and the elements a bit-mask reading names (0-based).
        case listElement(number: Int, maskElements: [Int])
    }

    public var location: Location {
        switch sf1 {
        case 0x00: return .none
        case 0xFF: return .command
        default:
            let mask = (0..<8).filter { sf1 >> $0 & 1 == 1 }
            return .listElement(number: Int(sf1), maskElements: mask)
        }
    }

    /// `list element 3 (or, read as a bit mask: elements 1 and 2)`.
    public var locationDescription: String? {
        switch location {
        case .none: return nil
        case .command: return "not tied to a list element"
        case .listElement(let n, let mask):
            let maskNumbers = mask.map { $0 + 1 }
            if maskNumbers == [n] { return "list element \(n)" }
            let listed = maskNumbers.map(String.init)
            let joined = listed.count <= 1 ? listed.joined()
                : listed.dropLast().joined(separator: ", ") + " and " + (listed.last ?? "")
            return "list element \(n) (read as a bit mask: element\(listed.count == 1 ? "" : "s") \(joined))"
        }
    }

    /// SF2 meaning, §5.6 (Sony; `B1`/`B2` from nfcpy/PM3 for Lite-S).
    public static func meaning(sf2: UInt8) -> String? {
        switch sf2 {
        case 0x00: return "success"
        case 0x01: return "purse underflow or overflow"
        case 0x02: return "cash-back exceeds the purse"
        case 0x70: return "memory error (fatal)"
        case 0x71: return "rewrite count exceeded (warning; the write was done)"
        case 0xA1: return "illegal number of services or nodes"
        case 0xA2: return "illegal number of blocks"
        case 0xA3: return "block list names a service beyond the service code list"
        case 0xA4: return "illegal service type or attribute"
        case 0xA5: return "access not allowed"
        case 0xA6: return "illegal service code list (service not present)"
        case 0xA7: return "illegal block list access mode"
        case 0xA8: return "illegal block number (beyond the service's size)"
        case 0xA9: return "data write failure"
        case 0xAA: return "key change failure"
        case 0xAB: return "illegal package parity or MAC"
        case 0xAC: return "illegal parameter"
        case 0xAD: return "service already exists"
        case 0xAE: return "illegal system code"
        case 0xAF: return "too many simultaneous cyclic writes"
        case 0xB1: return "Lite-S: MAC authentication required for this block"
        case 0xB2: return "Lite-S: MAC verification failed"
        case 0xC0: return "illegal package ID"
        case 0xC1: return "inside/outside parameter mismatch"
        case 0xC2: return "command disabled"
        default: return nil
        }
    }

    public var meaning: String { Self.meaning(sf2: sf2) ?? "undefined SF2 \(Hex.byte(sf2))" }

    /// Whether SF2 points into the service code list (rather than the block list).
    public var concernsServiceList: Bool { [0xA1, 0xA4, 0xA5, 0xA6].contains(sf2) }
}
