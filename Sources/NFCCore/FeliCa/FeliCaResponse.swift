/// Card → reader frames, decoded in the context of the command they answer. protocols.md §5.3.
///
/// Like `FeliCaCommand`, `decode` takes and `encode` returns `LEN code …` without CRC_F.
public enum FeliCaResponse: Sendable, Hashable {
    /// `requestData`: RD, present when the Polling asked for it (RC `01` system code, `02` performance).
    case polling(idm: FeliCaIDm, pmm: FeliCaPMm, requestData: UInt16?)
    /// One key version per node asked (LE on air); `FFFF` = the node does not exist.
    case requestService(idm: FeliCaIDm, keyVersions: [UInt16])
    /// Mode 0…3 (0 after Polling or Reset Mode).
    case requestResponse(idm: FeliCaIDm, mode: UInt8)
    /// `blocks`: 16 bytes each, present only when SF1 is `00`.
    case readWithoutEncryption(idm: FeliCaIDm, status: FeliCaStatusFlags, blocks: [[UInt8]])
    case writeWithoutEncryption(idm: FeliCaIDm, status: FeliCaStatusFlags)
    case searchServiceCode(idm: FeliCaIDm, result: FeliCaSearchResult)
    /// System codes, **big endian** on air (unlike service codes).
    case requestSystemCode(idm: FeliCaIDm, systemCodes: [UInt16])
    case requestSpecificationVersion(idm: FeliCaIDm, status: FeliCaStatusFlags, version: FeliCaSpecificationVersion?)
    /// After the status flags: a flag byte and data whose layout no source publishes (kormax/felicatool).
    case getSystemStatus(idm: FeliCaIDm, status: FeliCaStatusFlags, flag: UInt8?, data: [UInt8])
    case resetMode(idm: FeliCaIDm, status: FeliCaStatusFlags)
    case other(code: FeliCaCode, idm: FeliCaIDm?, parameters: [UInt8])

    public var code: FeliCaCode {
        switch self {
        case .polling: return FeliCaCode.polling.response
        case .requestService: return FeliCaCode.requestService.response
        case .requestResponse: return FeliCaCode.requestResponse.response
        case .readWithoutEncryption: return FeliCaCode.readWithoutEncryption.response
        case .writeWithoutEncryption: return FeliCaCode.writeWithoutEncryption.response
        case .searchServiceCode: return FeliCaCode.searchServiceCode.response
        case .requestSystemCode: return FeliCaCode.requestSystemCode.response
        case .requestSpecificationVersion: return FeliCaCode.requestSpecificationVersion.response
        case .getSystemStatus: return FeliCaCode.getSystemStatus.response
        case .resetMode: return FeliCaCode.resetMode.response
        case .other(let code, _, _): return code
        }
    }

    public var idm: FeliCaIDm? {
        switch self {
        case .polling(let idm, _, _), .requestService(let idm, _), .requestResponse(let idm, _),
             .readWithoutEncryption(let idm, _, _), .writeWithoutEncryption(let idm, _), .searchServiceCode(let idm, _),
             .requestSystemCode(let idm, _), .requestSpecificationVersion(let idm, _, _), .getSystemStatus(let idm, _, _, _),
             .resetMode(let idm, _):
            return idm
        case .other(_, let idm, _): return idm
        }
    }

    public var status: FeliCaStatusFlags? {
        switch self {
        case .readWithoutEncryption(_, let s, _), .writeWithoutEncryption(_, let s), .requestSpecificationVersion(_, let s, _),
             .getSystemStatus(_, let s, _, _), .resetMode(_, let s):
            return s
        default:
            return nil
        }
    }

    /// Decodes `LEN code …`. With a `command`, the code must be the one that answers it

    /// Where the values of the answers sit, from LEN. LEN, code and IDm are placed as in
    /// commands (`FeliCaCommand.Layout`); after the IDm come the status flags, or a count and
    /// its list (protocols.md §5.4).
    public enum Layout {
        public static let statusFlag1 = FieldLayout(10, 1, "status flag 1")
        public static let statusFlag2 = FieldLayout(11, 1, "status flag 2")
        public static let status = FieldLayout(10, 2, "status flags")
        /// Request Response: the mode after the IDm.
        public static let mode = FieldLayout(10, 1, "mode")
        /// Read Without Encryption: number of blocks after the status flags, then 16 bytes each.
        public static let blockCount = FieldLayout(12, 1, "number of blocks")
        public static func blocks(_ n: Int) -> Range<Int> { blockCount.end..<blockCount.end + FeliCaBlockListElement.blockSize * n }
        public static func block(_ i: Int) -> Range<Int> { blocks(i).upperBound..<blocks(i + 1).upperBound }
        /// Search Service Code: the node found, right after the IDm.
        public static func searchResult(_ count: Int) -> Range<Int> { FeliCaCommand.Layout.idm.end..<FeliCaCommand.Layout.idm.end + count }
        /// Request Specification Version, after the status flags.
        public static let formatVersion = FieldLayout(12, 1, "format version")
        public static let basicVersion = FieldLayout(13, 2, "basic version (2 bytes BCD, little endian)")
        /// The option count and `n` option versions of 2 bytes.
        public static func optionVersions(_ n: Int) -> Range<Int> { basicVersion.end..<basicVersion.end + 1 + 2 * n }
        /// Polling answer: PMm after the IDm (byte 0 ROM type, 1 IC type, 2–6 the maximum
        /// response times, 7 reserved), then the request data the request code asked for.
        public static let pmm = FieldLayout(10, 8, "PMm (8 bytes)")
        public static func pmmByte(_ i: Int) -> Range<Int> { pmm.offset + i..<pmm.offset + i + 1 }
        public static let requestData = FieldLayout(18, 2, "2-byte request data")
        /// The system number: the upper nibble of the IDm's first byte.
        public static let idmSystem = FieldLayout(2, 1, "IDm byte 0")

        /// Get System Status, after the status flags.
        public static let flag = FieldLayout(12, 1, "flag")
        public static func statusData(_ n: Int) -> Range<Int> { flag.end..<flag.end + n }
    }

    /// (command + 1; Echo answers with its own code); without one the frame is read on its own.
    public static func decode(_ payload: [UInt8], answering command: FeliCaCommand? = nil,
                              checkingLength: Bool = true) throws(DecodeError) -> FeliCaResponse {
        var c = ByteCursor(payload)
        try FeliCaLength.read(&c, payloadCount: payload.count, checking: checkingLength)
        let code = FeliCaCode(try c.readUInt8("response code"))
        if let command {
            let expected = command.code == FeliCaCode(0xF0) ? command.code : command.code.response
            guard code == expected else {
                throw DecodeError(offset: 1, expected: "response code \(Hex.byte(expected.rawValue)) (\(expected.name))",
                                  found: "\(Hex.byte(code.rawValue)) (\(code.name))")
            }
        }
        let response: FeliCaResponse
        switch code {
        case FeliCaCode.polling.response:
            let idm = try FeliCaIDm.read(&c)
            let pmm = try FeliCaPMm.read(&c)
            var rd: UInt16? = nil
            if !c.isAtEnd { rd = try c.readUInt16BE(Layout.requestData.expected) }
            response = .polling(idm: idm, pmm: pmm, requestData: rd)
        case FeliCaCode.requestService.response:
            let idm = try FeliCaIDm.read(&c)
            let n = Int(try c.readUInt8("number of nodes"))
            var versions: [UInt16] = []
            for i in 0..<n { versions.append(try c.readUInt16LE("key version \(i + 1) of \(n) (2 bytes, little endian)")) }
            response = .requestService(idm: idm, keyVersions: versions)
        case FeliCaCode.requestResponse.response:
            response = .requestResponse(idm: try FeliCaIDm.read(&c), mode: try c.readUInt8("mode"))
        case FeliCaCode.readWithoutEncryption.response:
            let idm = try FeliCaIDm.read(&c)
            let status = try FeliCaStatusFlags.read(&c)
            var blocks: [[UInt8]] = []
            // §5.3: block data only follows a successful status.
            if status.isSuccess {
                let n = Int(try c.readUInt8("number of blocks"))
                blocks.reserveCapacity(n)
                for i in 0..<n { blocks.append(try c.readBytes(16, "16 bytes of block \(i + 1) of \(n)")) }
            }
            response = .readWithoutEncryption(idm: idm, status: status, blocks: blocks)
        case FeliCaCode.writeWithoutEncryption.response:
            response = .writeWithoutEncryption(idm: try FeliCaIDm.read(&c), status: try FeliCaStatusFlags.read(&c))
        case FeliCaCode.searchServiceCode.response:
            response = .searchServiceCode(idm: try FeliCaIDm.read(&c), result: try FeliCaSearchResult.read(&c))
        case FeliCaCode.requestSystemCode.response:
            let idm = try FeliCaIDm.read(&c)
            let n = Int(try c.readUInt8("number of systems"))
            var codes: [UInt16] = []
            for i in 0..<n { codes.append(try c.readUInt16BE("system code \(i + 1) of \(n) (2 bytes, big endian)")) }
            response = .requestSystemCode(idm: idm, systemCodes: codes)
        case FeliCaCode.requestSpecificationVersion.response:
            let idm = try FeliCaIDm.read(&c)
            let status = try FeliCaStatusFlags.read(&c)
            var version: FeliCaSpecificationVersion? = nil
            if status.isSuccess { version = try FeliCaSpecificationVersion.read(&c) }
            response = .requestSpecificationVersion(idm: idm, status: status, version: version)
        case FeliCaCode.getSystemStatus.response:
            let idm = try FeliCaIDm.read(&c)
            let status = try FeliCaStatusFlags.read(&c)
            var flag: UInt8? = nil
            if !c.isAtEnd { flag = try c.readUInt8("flag") }
            response = .getSystemStatus(idm: idm, status: status, flag: flag, data: c.readRest())
        case FeliCaCode.resetMode.response:
            response = .resetMode(idm: try FeliCaIDm.read(&c), status: try FeliCaStatusFlags.read(&c))
        default:
            var idm: FeliCaIDm? = nil
            if code.carriesIDm == true, c.remaining >= 8 { idm = try FeliCaIDm.read(&c) }
            response = .other(code: code, idm: idm, parameters: c.readRest())
        }
        try c.expectEnd(code.name)
        return response
    }

    /// `LEN code …` without CRC_F.
    public func encode() -> [UInt8] {
        var body: [UInt8] = [code.rawValue]
        switch self {
        case .polling(let idm, let pmm, let rd):
            body += idm.bytes + pmm.bytes
            if let rd { body += [UInt8(rd >> 8), UInt8(truncatingIfNeeded: rd)] }
        case .requestService(let idm, let versions):
            body += idm.bytes + [UInt8(truncatingIfNeeded: versions.count)]
            for v in versions { body += [UInt8(truncatingIfNeeded: v), UInt8(v >> 8)] }
        case .requestResponse(let idm, let mode):
            body += idm.bytes + [mode]
        case .readWithoutEncryption(let idm, let status, let blocks):
            body += idm.bytes + status.bytes
            if status.isSuccess { body += [UInt8(truncatingIfNeeded: blocks.count)] + blocks.flatMap { $0 } }
        case .writeWithoutEncryption(let idm, let status), .resetMode(let idm, let status):
            body += idm.bytes + status.bytes
        case .searchServiceCode(let idm, let result):
            body += idm.bytes + result.bytes
        case .requestSystemCode(let idm, let codes):
            body += idm.bytes + [UInt8(truncatingIfNeeded: codes.count)]
            for sc in codes { body += [UInt8(sc >> 8), UInt8(truncatingIfNeeded: sc)] }
        case .requestSpecificationVersion(let idm, let status, let version):
            body += idm.bytes + status.bytes + (version?.bytes ?? [])
        case .getSystemStatus(let idm, let status, let flag, let data):
            body += idm.bytes + status.bytes + (flag.map { [$0] } ?? []) + data
        case .other(_, let idm, let parameters):
            body += (idm?.bytes ?? []) + parameters
        }
        return FeliCaLength.prefixed(body)
    }
}

/// Search Service Code answer: a service, an area with its end code, or the end of the list.
public enum FeliCaSearchResult: Sendable, Hashable {
    case service(FeliCaServiceCode)
    case area(FeliCaServiceCode, end: FeliCaServiceCode)
    /// `FF FF`: no node at this index.
    case end

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> FeliCaSearchResult {
        let code = try FeliCaServiceCode.read(&c, "node code (2 bytes, little endian)")
        if code.rawValue == 0xFFFF { return .end }
        // nfcpy tt3_sony.py: areas come with their end code, services alone.
        if code.isArea { return .area(code, end: try FeliCaServiceCode.read(&c, "area end code (2 bytes, little endian)")) }
        return .service(code)
    }

    public var bytes: [UInt8] {
        switch self {
        case .service(let s): return s.onAir
        case .area(let a, let e): return a.onAir + e.onAir
        case .end: return [0xFF, 0xFF]
        }
    }
}

/// Request Specification Version answer (§5.3; PM3 `iso18.h`): format version, basic version and
/// option versions, BCD, little endian on air.
public struct FeliCaSpecificationVersion: Sendable, Hashable {
    public var formatVersion: UInt8
    public var basicVersion: UInt16
    public var optionVersions: [UInt16]

    public init(formatVersion: UInt8 = 0, basicVersion: UInt16, optionVersions: [UInt16] = []) {
        self.formatVersion = formatVersion
        self.basicVersion = basicVersion
        self.optionVersions = optionVersions
    }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> FeliCaSpecificationVersion {
        let format = try c.readUInt8("format version")
        let basic = try c.readUInt16LE("basic version (2 bytes BCD, little endian)")
        let n = Int(try c.readUInt8("number of options"))
        var options: [UInt16] = []
        for i in 0..<n { options.append(try c.readUInt16LE("option version \(i + 1) of \(n)")) }
        return FeliCaSpecificationVersion(formatVersion: format, basicVersion: basic, optionVersions: options)
    }

    public var bytes: [UInt8] {
        var out = [formatVersion, UInt8(truncatingIfNeeded: basicVersion), UInt8(basicVersion >> 8),
                   UInt8(truncatingIfNeeded: optionVersions.count)]
        for v in optionVersions { out += [UInt8(truncatingIfNeeded: v), UInt8(v >> 8)] }
        return out
    }

    /// BCD `0x0110` → `1.10`.
    public static func text(_ bcd: UInt16) -> String {
        "\(String(bcd >> 8, radix: 16, uppercase: true)).\(Hex.value(bcd & 0xFF, digits: 2))"
    }
}
