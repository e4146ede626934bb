/// A service (or area) code: 10-bit number and 6-bit attribute, **little endian on air**
/// (`0x090F` goes out as `0F 09`). Area codes and node codes share the layout. protocols.md §5.4.
public struct FeliCaServiceCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The numeric value, as FZ and metrodroid print it (§9 #11: PM3 prints the on-air bytes).
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }
    public init(number: UInt16, attribute: UInt8) {
        rawValue = (number & 0x3FF) << 6 | UInt16(attribute & 0x3F)
    }

    static func read(_ c: inout ByteCursor, _ expected: @autoclosure () -> String) throws(DecodeError) -> FeliCaServiceCode {
        FeliCaServiceCode(try c.readUInt16LE(expected()))
    }

    /// The two bytes as sent (low byte first).
    public var onAir: [UInt8] { [UInt8(truncatingIfNeeded: rawValue), UInt8(truncatingIfNeeded: rawValue >> 8)] }

    /// Bits 15–6.
    public var number: UInt16 { rawValue >> 6 }
    /// Bits 5–0.
    public var attribute: UInt8 { UInt8(truncatingIfNeeded: rawValue) & 0x3F }

    /// `FFFF` in Request Service asks for the system key version instead of a node's.
    public static let systemKeyVersionRequest = FeliCaServiceCode(0xFFFF)
    public static let ndefRead = FeliCaServiceCode(0x000B)
    public static let ndefWrite = FeliCaServiceCode(0x0009)
    public static let cjrcHistory = FeliCaServiceCode(0x090F)

    public var description: String { Hex.value(rawValue, digits: 4) }

    /// Attribute `000000`/`000001`: an area node (answers Search Service Code with an end code).
    public var isArea: Bool { attribute & 0x3E == 0 }

    public enum Organisation: String, Sendable {
        case area, random, cyclic, purse
    }

    /// Random / cyclic / purse service or area; nil for attribute values §5.4 leaves undefined.
    public var organisation: Organisation? {
        switch attribute {
        case 0x00, 0x01: return .area
        case 0x08...0x0B: return .random
        case 0x0C...0x0F: return .cyclic
        case 0x10...0x17: return .purse
        default: return nil
        }
    }

    /// Odd attributes of services are readable (or usable) without a key: Read Without Encryption works.
    public var needsKey: Bool { attribute & 1 == 0 }

    /// Whether the attribute allows writing (random/cyclic read/write, purse direct/cashback/decrement).
    public var isWritable: Bool {
        switch attribute {
        case 0x08, 0x09, 0x0C, 0x0D, 0x10...0x15: return true
        default: return false
        }
    }

    /// The attribute's meaning, as in §5.4: `random, read-only, without key`.
    public var attributeMeaning: String {
        let key = needsKey ? "with key" : "without key"
        switch attribute {
        case 0x00: return "area (can contain sub-areas)"
        case 0x01: return "area (cannot contain sub-areas)"
        case 0x08, 0x09: return "random, read/write, \(key)"
        case 0x0A, 0x0B: return "random, read-only, \(key)"
        case 0x0C, 0x0D: return "cyclic, read/write, \(key)"
        case 0x0E, 0x0F: return "cyclic, read-only, \(key)"
        case 0x10, 0x11: return "purse, direct, \(key)"
        case 0x12, 0x13: return "purse, cashback, \(key)"
        case 0x14, 0x15: return "purse, decrement, \(key)"
        case 0x16, 0x17: return "purse, read-only, \(key)"
        default: return "undefined attribute \(Hex.value(attribute, digits: 2))"
        }
    }

    /// The community-known use of a service in a system (§5.4 table; only where the system fits).
    public func knownUse(inSystem systemCode: UInt16?) -> String? {
        let t3t = systemCode == nil || systemCode == FeliCaSystemCode.nfcForumType3 || systemCode == FeliCaSystemCode.feliCaLite
        let cjrc = systemCode == nil || systemCode == FeliCaSystemCode.cjrc
        switch rawValue {
        case 0x000B where t3t: return "NDEF / user blocks, read"
        case 0x0009 where t3t: return "NDEF / user blocks, write"
        case 0x008B where cjrc: return "CJRC card information"
        case 0x090F where cjrc: return "CJRC transit history"
        case 0x108F where cjrc: return "CJRC gate in/out log"
        case 0x10CB where cjrc: return "CJRC admission"
        default: return nil
        }
    }

    /// `090F (number 36, cyclic, read-only, without key)`.
    public var detailedDescription: String {
        if self == .systemKeyVersionRequest { return "FFFF (system key version)" }
        return "\(description) (number \(number), \(attributeMeaning))"
    }
}
