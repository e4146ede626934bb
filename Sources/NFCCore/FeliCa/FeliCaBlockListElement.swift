/// One element of a Read/Write block list: which block of which listed service. protocols.md §5.5.
///
///     2-byte form: 1 MMM OOOO  NNNNNNNN            (block number 0…255)
///     3-byte form: 0 MMM OOOO  NNNNNNNN NNNNNNNN   (block number LE, 0…65535)
///
/// M = access mode, O = order in the command's service code list.
public struct FeliCaBlockListElement: Sendable, Hashable, CustomStringConvertible {
    public enum Form: Sendable, Hashable {
        case twoByte
        case threeByte

        public var length: Int { self == .twoByte ? 2 : 3 }
    }

    /// Bits 6–4 of byte 0: `000` normal (the only T3T value); `001` purse cash-back in FeliCa OS.
    public var accessMode: UInt8
    /// Bits 3–0 of byte 0: index into the service code list of the same command.
    public var serviceOrder: UInt8
    public var blockNumber: UInt16
    /// The form as sent, kept so that a decoded element encodes back to the same bytes.
    public var form: Form

    /// Where its values sit, from the element's first byte.
    public enum Layout {
        /// Form (b7), access mode (b6–b4) and service order (b3–b0).
        public static let header = FieldLayout(0, 1, "block list element")
        /// The block number: 1 byte in the 2-byte form, 2 (little endian) in the 3-byte form.
        public static func blockNumber(_ form: Form) -> FieldLayout { FieldLayout(1, form.length - 1, "block number") }
    }

    /// The block data of a Read/Write Without Encryption: 16 bytes a block (protocols.md §5.5).
    public static let blockSize = 16

    /// `form` defaults to the 2-byte form when the block number fits in one byte.
    public init(serviceOrder: UInt8, blockNumber: UInt16, accessMode: UInt8 = 0, form: Form? = nil) {
        self.accessMode = accessMode & 0x07
        self.serviceOrder = serviceOrder & 0x0F
        self.blockNumber = blockNumber
        self.form = form ?? (blockNumber <= 0xFF ? .twoByte : .threeByte)
    }

    static func read(_ c: inout ByteCursor, index: Int) throws(DecodeError) -> FeliCaBlockListElement {
        let b0 = try c.readUInt8("block list element \(index + 1)")
        let mode = b0 >> 4 & 0x07, order = b0 & 0x0F
        if b0 & 0x80 != 0 {
            let n = try c.readUInt8("block number of block list element \(index + 1) (2-byte form)")
            return FeliCaBlockListElement(serviceOrder: order, blockNumber: UInt16(n), accessMode: mode, form: .twoByte)
        }
        let n = try c.readUInt16LE("2-byte block number of block list element \(index + 1) (3-byte form)")
        return FeliCaBlockListElement(serviceOrder: order, blockNumber: n, accessMode: mode, form: .threeByte)
    }

    /// One element from its bytes as an app hands them over (Core NFC's `blockList`): nil unless
    /// they are exactly one 2- or 3-byte element.
    public init?(bytes: some Collection<UInt8>) {
        var c = ByteCursor(Array(bytes))
        guard let e = try? FeliCaBlockListElement.read(&c, index: 0), c.isAtEnd else { return nil }
        self = e
    }

    /// The element's bytes; a 2-byte form keeps only the low byte of a block number above 255.
    public var bytes: [UInt8] {
        let head = accessMode << 4 | serviceOrder
        switch form {
        case .twoByte: return [0x80 | head, UInt8(truncatingIfNeeded: blockNumber)]
        case .threeByte: return [head, UInt8(truncatingIfNeeded: blockNumber), UInt8(truncatingIfNeeded: blockNumber >> 8)]
        }
    }

    public var accessModeMeaning: String {
        switch accessMode {
        case 0: return "normal"
        case 1: return "purse cash-back"
        default: return "undefined access mode \(accessMode)"
        }
    }

    /// `block 5 of service #0` (2-byte form).
    public var description: String {
        "block \(blockNumber) of service #\(serviceOrder)" + (accessMode == 0 ? "" : ", \(accessModeMeaning)")
    }
}

/// What a card would object to in a Read/Write command's lists, with the SF2 it answers
/// (Sony semantics as PM3's simulator follows them; §5.5, §5.6). The dissector shows these as
/// warnings, the emulator answers with them.
public struct FeliCaListProblem: Sendable, Hashable {
    public var statusFlag2: UInt8
    /// 0-based index of the offending list element, nil for whole-command errors (SF1 `FF`).
    public var element: Int?
    public var message: String

    public init(statusFlag2: UInt8, element: Int?, message: String) {
        self.statusFlag2 = statusFlag2
        self.element = element
        self.message = message
    }

    /// Sony / PM3: 1…16 services (§9 #14: T3T readers only need 1…15), 1…15 blocks.
    public static let maximumServices = 16
    public static let maximumBlocks = 15

    public static func check(services: [FeliCaServiceCode], blocks: [FeliCaBlockListElement]) -> [FeliCaListProblem] {
        var out: [FeliCaListProblem] = []
        if services.isEmpty || services.count > maximumServices {
            out.append(FeliCaListProblem(statusFlag2: 0xA1, element: nil,
                                         message: "\(services.count) services; a card takes 1…\(maximumServices)"))
        }
        if blocks.isEmpty || blocks.count > maximumBlocks {
            out.append(FeliCaListProblem(statusFlag2: 0xA2, element: nil,
                                         message: "\(blocks.count) blocks; a card takes 1…\(maximumBlocks)"))
        }
        for (i, b) in blocks.enumerated() {
            // With no services at all, A1 already says it; A3 would only repeat it per element.
            if !services.isEmpty, Int(b.serviceOrder) >= services.count {
                out.append(FeliCaListProblem(statusFlag2: 0xA3, element: i,
                                             message: "block list element \(i + 1) names service #\(b.serviceOrder), the list has \(services.count)"))
            }
            if b.accessMode > 1 {
                out.append(FeliCaListProblem(statusFlag2: 0xA7, element: i,
                                             message: "block list element \(i + 1) uses \(b.accessModeMeaning)"))
            }
        }
        return out
    }
}
