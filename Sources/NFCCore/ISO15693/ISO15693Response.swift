/// One block of a read answer: the security status byte (present when the request had the
/// option flag) and the block's bytes.
public struct ISO15693Block: Sendable, Hashable {
    public var securityStatus: UInt8?
    public var data: [UInt8]

    public init(securityStatus: UInt8? = nil, data: [UInt8]) {
        self.securityStatus = securityStatus
        self.data = data
    }

    /// Security status b1: the block is locked (b2–b8 RFU, protocols.md §6.4).
    public var isLocked: Bool? { securityStatus.map { $0 & 0x01 != 0 } }
}

/// A VICC's answer: `flags [error code | data]` (CRC excluded), decoded in the context of the
/// request it answers, because nothing in the answer says what it carries (protocols.md §6.2, §6.4).
public struct ISO15693Response: Sendable, Hashable {
    public enum Body: Sendable, Hashable {
        /// The error flag is set: one error code follows.
        case error(ISO15693ErrorCode)
        /// Writes, locks, Select, Reset to Ready …: the flags byte alone.
        case done
        case inventory(dsfid: UInt8, uid: ISO15693UID)
        /// Block reads: `first` comes from the request.
        case blocks(first: Int, [ISO15693Block])
        case systemInformation(ISO15693SystemInformation)
        /// One security status byte per block (`01` = locked).
        case securityStatus(first: Int, [UInt8])
        /// Custom, proprietary, RFU and security commands: the bytes after the flags, raw.
        case data([UInt8])
    }

    public var flags: ISO15693ResponseFlags
    public var body: Body

    public init(flags: ISO15693ResponseFlags = .ok, body: Body) {
        self.flags = flags
        self.body = body
    }

    /// Where the parts of an answer sit (ISO/IEC 15693-3 §7.4): the flags, then an error code,
    /// or the Inventory answer's DSFID and UID, or the Get System Information answer's
    /// information flags and UID, or the data (blocks, security status) right after the flags.
    public enum Layout {
        public static let flags = FieldLayout(0, 1, "response flags")
        public static let errorCode = FieldLayout(1, 1, "error code (the error flag is set)")
        public static let dsfid = FieldLayout(1, 1, "DSFID")
        public static let infoFlags = FieldLayout(1, 1, "information flags")
        public static let uid = FieldLayout(2, 8, "UID (8 bytes, LSB first)")
        /// `count` bytes of data after the flags.
        public static func data(_ count: Int) -> Range<Int> { flags.end..<flags.end + count }
        /// Byte `k` of the data (the security status of block `k` of a status answer).
        public static func dataByte(_ k: Int) -> Range<Int> { flags.end + k..<flags.end + k + 1 }
    }

    /// `01 code`.
    public static func error(_ code: ISO15693ErrorCode) -> ISO15693Response {
        ISO15693Response(flags: .error, body: .error(code))
    }

    /// `00`: a write, lock or state change succeeded.
    public static let done = ISO15693Response(body: .done)

    /// Decodes `payload` as the answer to `request`. `blockSize` comes from Get System
    /// Information; without it a block read answer must split evenly into the requested blocks.
    public static func decode(_ payload: [UInt8], answering request: ISO15693Request, blockSize: Int? = nil) throws(DecodeError) -> ISO15693Response {
        var c = ByteCursor(payload)
        let flags = ISO15693ResponseFlags(rawValue: try c.readUInt8("response flags"))
        if flags.error {
            let code = try c.readUInt8("error code (the error flag is set)")
            try c.expectEnd("error response")
            return ISO15693Response(flags: flags, body: .error(ISO15693ErrorCode(rawValue: code)))
        }
        let command = request.command
        let body: Body
        switch command {
        case .inventory:
            let dsfid = try c.readUInt8("DSFID")
            let uid = try c.readBytes(8, "UID (8 bytes, LSB first)")
            try c.expectEnd("Inventory answer")
            body = .inventory(dsfid: dsfid, uid: ISO15693UID(onAir: uid) ?? ISO15693UID(value: 0))
        case .readSingleBlock, .readMultipleBlocks, .fastReadMultipleBlocks, .extendedReadSingleBlock,
             .extendedReadMultipleBlocks, .fastExtendedReadMultipleBlocks:
            let range = command.blockRange ?? (first: 0, count: 1)
            body = .blocks(first: range.first, try readBlocks(&c, count: range.count, option: request.flags.option,
                                                              blockSize: blockSize, command: command.name))
        case .getMultipleBlockSecurityStatus, .extendedGetMultipleBlockSecurityStatus:
            let range = command.blockRange ?? (first: 0, count: 1)
            let status = try c.readBytes(range.count, "\(range.count) block security status byte\(range.count == 1 ? "" : "s")")
            try c.expectEnd("\(command.name) answer")
            body = .securityStatus(first: range.first, status)
        case .getSystemInformation:
            body = .systemInformation(try ISO15693SystemInformation.decode(&c, layout: .standard))
        case .extendedGetSystemInformation:
            body = .systemInformation(try ISO15693SystemInformation.decode(&c, layout: .extended))
        case .writeSingleBlock, .lockBlock, .writeMultipleBlocks, .select, .resetToReady, .writeAFI, .lockAFI,
             .writeDSFID, .lockDSFID, .extendedWriteSingleBlock, .extendedLockBlock, .extendedWriteMultipleBlocks:
            try c.expectEnd("\(command.name) answer (the flags byte alone)")
            body = .done
        case .stayQuiet:
            // A VICC never answers Stay Quiet; whatever came is kept.
            let rest = c.readRest()
            body = rest.isEmpty ? .done : .data(rest)
        case .security, .custom, .proprietary, .rfu:
            body = .data(c.readRest())
        }
        return ISO15693Response(flags: flags, body: body)
    }

    /// `count` blocks of `[security status] data`; the block size is given or must divide evenly.
    static func readBlocks(_ c: inout ByteCursor, count: Int, option: Bool, blockSize: Int?, command: String) throws(DecodeError) -> [ISO15693Block] {
        let status = option ? 1 : 0
        let found = c.remaining == 0 ? "end of data" : "\(c.remaining) byte\(c.remaining == 1 ? "" : "s")"
        let perBlock: Int
        if let size = blockSize {
            perBlock = size + status
            let (total, overflow) = count.multipliedReportingOverflow(by: perBlock)
            guard size > 0, !overflow else { throw c.error("a block size of 1…32 bytes", found: "\(size)") }
            guard c.remaining == total else {
                throw c.error("\(count) block\(count == 1 ? "" : "s") of \(size) bytes" + (option ? " with a security status byte each" : ""),
                              found: found)
            }
        } else {
            guard count > 0, c.remaining % count == 0, c.remaining / count > status else {
                throw c.error("data of \(count) block\(count == 1 ? "" : "s")" + (option ? ", each after a security status byte" : "")
                              + " (block size unknown: the bytes must split evenly)", found: found)
            }
            perBlock = c.remaining / count
        }
        var blocks: [ISO15693Block] = []
        blocks.reserveCapacity(count)
        for i in 0..<count {
            let sec: UInt8? = option ? try c.readUInt8("security status of block \(i + 1)") : nil
            blocks.append(ISO15693Block(securityStatus: sec, data: try c.readBytes(perBlock - status, "data of block \(i + 1) (\(command))")))
        }
        return blocks
    }

    /// The payload (without CRC).
    public func encode() -> [UInt8] {
        var out: [UInt8] = [flags.rawValue]
        switch body {
        case .error(let code): out.append(code.rawValue)
        case .done: break
        case .inventory(let dsfid, let uid): out += [dsfid] + uid.onAir
        case .blocks(_, let blocks):
            for b in blocks {
                if let s = b.securityStatus { out.append(s) }
                out += b.data
            }
        case .systemInformation(let info): out += info.encode()
        case .securityStatus(_, let status): out += status
        case .data(let d): out += d
        }
        return out
    }

    /// The answer as sent: payload and CRC (ISO/IEC 13239, low byte first).
    public func frame() -> [UInt8] { CRCBytes(payload: encode(), kind: .b).bytes }
}
