import NFCCore

/// ISO 15693 dumps: Flipper Zero `.nfc` (`ISO15693-3`, legacy `ISO15693`, `SLIX`; protocols.md
/// §7.4) and Proxmark3 `"FileType": "15693 v4"` JSON (§7.5), read and written.
enum ISO15693Dumps {
    // MARK: Flipper

    /// Flipper `.nfc`: `Block Count` decimal, `Block Size` hex, UID MSB first (§7.4). Like
    /// Flipper's loader (`iso15693_3_load`), Get System Information reports the fields the file has.
    static func flipper(_ f: FlipperNFCFile) throws(DumpError) -> ISO15693Dump {
        let name = f.name
        let uidBytes = try f.requiredBytes("UID", count: 8)
        guard let uid = ISO15693UID(msbFirst: uidBytes) else { throw DumpError(file: name, field: "UID", message: "expected 8 bytes") }
        var notes: [String] = []
        if !uid.hasE0Prefix {
            notes.append("\(name): the UID starts with \(Hex.byte(uid.prefix)), not E0 as every ISO 15693 UID does (protocols.md §6.3)")
        }
        let dsfid = try f.bytes("DSFID", count: 1)?.first
        let afi = try f.bytes("AFI", count: 1)?.first
        let icReference = try f.bytes("IC Reference", count: 1)?.first
        guard let count = try f.int("Block Count") else {
            throw DumpError(file: name, field: "Block Count", message: "missing: a tag without memory cannot be emulated")
        }
        guard (1...65536).contains(count) else {
            throw DumpError(file: name, line: f.entry("Block Count")?.line, field: "Block Count", message: "\(count) blocks: expected 1…65536, written in decimal")
        }
        if count > 256 { notes.append("\(name): \(count) blocks; Flipper Zero itself reads 1…256") }
        guard let sizeByte = try f.bytes("Block Size", count: 1)?.first else {
            throw DumpError(file: name, field: "Block Size", message: "missing")
        }
        guard (1...32).contains(sizeByte) else {
            throw DumpError(file: name, line: f.entry("Block Size")?.line, field: "Block Size", message: "\(Hex.byte(sizeByte)): expected 01…20 (hex)")
        }
        let size = Int(sizeByte)
        let data = try f.requiredBytes("Data Content", count: count * size)
        let lockDSFID = try bool(f, "Lock DSFID")
        let lockAFI = try bool(f, "Lock AFI")
        var locks: (dsfid: Bool, afi: Bool) = (lockDSFID ?? false, lockAFI ?? false)
        var security = [UInt8](repeating: 0, count: count)
        if let status = try f.bytes("Security Status") {
            // Files without the Lock keys put the DSFID/AFI lock bits before the block statuses
            // (Flipper's iso15693_3_load_security_legacy: b1 DSFID, b2 AFI).
            let legacy = lockDSFID == nil || lockAFI == nil
            guard status.count == count + (legacy ? 1 : 0) else {
                throw DumpError(file: name, line: f.entry("Security Status")?.line, field: "Security Status",
                                message: "expected \(count + (legacy ? 1 : 0)) bytes (one per block\(legacy ? ", after the lock bits byte" : "")), found \(status.count)")
            }
            if legacy, let lockByte = status.first {
                locks = (lockByte & 0x01 != 0, lockByte & 0x02 != 0)
            }
            security = Array(status.suffix(count))
        }
        var flags: UInt8 = ISO15693SystemInformation.memorySizeFlag
        if dsfid != nil { flags |= ISO15693SystemInformation.dsfidFlag }
        if afi != nil { flags |= ISO15693SystemInformation.afiFlag }
        if icReference != nil { flags |= ISO15693SystemInformation.icReferenceFlag }
        let device = f.string("Device type") ?? ""
        var icode: ICODEData? = nil
        if device == FlipperISO15693File.slixDeviceType {
            icode = try slix(f, notes: &notes)
        }
        var configuration = configurationFor(uid: uid, blockCount: count, blockSize: size, slix: device == FlipperISO15693File.slixDeviceType, notes: &notes, file: name)
        configuration.icReference = icReference ?? 0
        configuration.systemInformationFlags = flags
        let memory = ISO15693TagMemory(uid: uid, blockCount: count, blockSize: size, data: data, locked: security.map { $0 & 0x01 != 0 },
                                       dsfid: dsfid ?? 0, afi: afi ?? 0, dsfidLocked: locks.dsfid, afiLocked: locks.afi, icode: icode)
        return ISO15693Dump(configuration: configuration, memory: memory, notes: notes)
    }

    static func bool(_ f: FlipperNFCFile, _ key: String) throws(DumpError) -> Bool? {
        guard let e = f.entry(key) else { return nil }
        switch e.value {
        case "true": return true
        case "false": return false
        default: throw DumpError(file: f.name, line: e.line, field: key, message: "expected true or false, found \"\(e.value.prefix(20))\"")
        }
    }

    /// The SLIX keys (§7.4): capabilities, passwords, signature, privacy, page protection, locks.
    static func slix(_ f: FlipperNFCFile, notes: inout [String]) throws(DumpError) -> ICODEData {
        var passwords: [ICODEData.PasswordID: [UInt8]] = [:]
        for id in ICODEData.PasswordID.allCases {
            if let p = try f.bytes(FlipperISO15693File.passwordKey(id.rawValue), count: 4) { passwords[id] = p }
        }
        var acceptsAll = false
        if let e = f.entry("Capabilities") {
            switch e.value {
            case "Default": acceptsAll = false
            case "Accept all passwords": acceptsAll = true
            default:
                throw DumpError(file: f.name, line: e.line, field: "Capabilities", message: "expected Default or Accept all passwords, found \"\(e.value.prefix(30))\"")
            }
        }
        let pointer = try f.int("Protection Pointer") ?? 0
        guard (0...255).contains(pointer) else {
            throw DumpError(file: f.name, line: f.entry("Protection Pointer")?.line, field: "Protection Pointer", message: "expected a block number 0…255")
        }
        let data = ICODEData(signature: try f.bytes("Signature", count: 32) ?? [UInt8](repeating: 0, count: 32), passwords: passwords,
                             protectionPointer: UInt8(pointer), protectionCondition: try f.bytes("Protection Condition", count: 1)?.first ?? 0,
                             easLocked: try bool(f, "Lock EAS") ?? false, protectionLocked: try bool(f, "Lock PPL") ?? false,
                             privacyMode: try bool(f, "Privacy Mode") ?? false, acceptsAllPasswords: acceptsAll)
        if data.privacyMode {
            notes.append("\(f.name): the tag is in privacy mode; nfctrace does not emulate privacy mode and answers every command")
        }
        if data.protectionCondition != 0 {
            notes.append("\(f.name): protection condition \(Hex.byte(data.protectionCondition)) from block \(pointer) on; nfctrace keeps it but does not enforce SLIX passwords")
        }
        return data
    }

    /// An ICODE SLIX2 (by its UID, protocols.md §6.3) with the SLIX2 geometry gets the SLIX2
    /// configuration; other tags the generic one named after their maker.
    static func configurationFor(uid: ISO15693UID, blockCount: Int, blockSize: Int, slix: Bool, notes: inout [String],
                                 file: String) -> ISO15693TagConfiguration {
        let slix2 = ISO15693TagConfiguration.slix2
        if uid.nxpICODEType == "ICODE SLIX2" && blockCount == slix2.blockCount && blockSize == slix2.blockSize { return slix2 }
        let maker = uid.manufacturerName.map { "\($0) ISO 15693 tag" } ?? "ISO 15693 tag"
        var configuration = ISO15693TagConfiguration.generic(blockCount: blockCount, blockSize: blockSize, name: uid.nxpICODEType ?? maker)
        if slix || uid.nxpICODEType != nil {
            // The ICODE SLIX family has no Write Multiple Blocks (see ISO15693TagConfiguration.slix2).
            configuration.writeMultipleBlocks = false
            notes.append("\(file): \(configuration.name): NXP custom commands are emulated for the ICODE SLIX2 only; they answer 01 here")
        }
        return configuration
    }

    /// Writes the tag's current state as a Flipper `.nfc` (version 4), `SLIX` for NXP ICODE tags
    /// with ICODE settings, `ISO15693-3` otherwise. The memory size is always written (a file
    /// without it has no memory); the other Get System Information fields as reported.
    static func flipperText(_ dump: ISO15693Dump) -> String {
        let m = dump.memory
        let flags = dump.configuration.systemInformationFlags
        let slix = m.icode.map { icode in
            FlipperISO15693File.SLIX(
                acceptsAllPasswords: icode.acceptsAllPasswords,
                passwords: ICODEData.PasswordID.allCases.map { ($0.rawValue, icode.passwords[$0] ?? ICODEData.defaultPassword($0)) },
                signature: icode.signature, privacyMode: icode.privacyMode, protectionPointer: icode.protectionPointer,
                protectionCondition: icode.protectionCondition, lockEAS: icode.easLocked, lockPPL: icode.protectionLocked)
        }
        return FlipperISO15693File(
            uid: m.uid.bytes,
            dsfid: flags & ISO15693SystemInformation.dsfidFlag != 0 ? m.dsfid : nil,
            afi: flags & ISO15693SystemInformation.afiFlag != 0 ? m.afi : nil,
            icReference: flags & ISO15693SystemInformation.icReferenceFlag != 0 ? dump.configuration.icReference : nil,
            lockDSFID: m.dsfidLocked, lockAFI: m.afiLocked, blockCount: m.blockCount, blockSize: m.blockSize, data: m.data,
            securityStatus: (0..<m.blockCount).map(m.securityStatus), slix: slix).text(comment: "Written by nfctrace emulate --save")
    }

    // MARK: Proxmark3

    /// Proxmark3 `"FileType": "15693 v4"` (PM3 `client/src/fileutils.c`, `iso15_tag_t` in
    /// `include/iso15.h`): every value a hex string; `Card.uid` as received on air, LSB first
    /// (protocols.md §9 #10); `pagescount` one byte; `locks` one byte per block; `blocks` by number.
    static func proxmark3(_ json: JSONValue, name: String) throws(DumpError) -> ISO15693Dump {
        guard let card = json[Proxmark3DumpKeys.card] else { throw DumpError(file: name, field: Proxmark3DumpKeys.card, message: "missing") }
        func hex(_ key: String, _ count: Int? = nil) throws(DumpError) -> [UInt8] {
            guard let v = card[key] else { throw DumpError(file: name, field: "Card.\(key)", message: "missing") }
            guard let s = v.string, let b = Hex.parse(s), count.map({ b.count == $0 }) ?? true else {
                throw DumpError(file: name, field: "Card.\(key)", message: count.map { "expected \($0) byte\($0 == 1 ? "" : "s") as a hex string" } ?? "expected a hex string")
            }
            return b
        }
        func byte(_ key: String) throws(DumpError) -> UInt8 { try hex(key, 1).first ?? 0 }
        var notes: [String] = []
        let raw = try hex("uid", 8)
        var uid = ISO15693UID(onAir: raw) ?? ISO15693UID(value: 0)
        if raw.first == 0xE0 && raw.last != 0xE0, let msb = ISO15693UID(msbFirst: raw) {
            uid = msb
            notes.append("\(name): Card.uid is written MSB first (E0 …); Proxmark3 writes it as received, LSB first")
        }
        let size = Int(try byte("bytesperpage"))
        let count = Int(try byte("pagescount"))
        guard (1...32).contains(size) else { throw DumpError(file: name, field: "Card.bytesperpage", message: "\(size): expected 1…32") }
        guard count >= 1 else { throw DumpError(file: name, field: "Card.pagescount", message: "0 blocks") }
        let locks = try hex("locks", count)
        var data = [UInt8](repeating: 0, count: count * size)
        var seen = Set<Int>()
        for (k, v) in json[Proxmark3DumpKeys.blocks]?.members ?? [] {
            guard let n = Int(k), n >= 0, n < count, let s = v.string, let b = Hex.parse(s), b.count == size else {
                throw DumpError(file: name, field: "blocks.\(k)", message: "expected a block number 0…\(count - 1) and \(size) bytes as hex")
            }
            data.replaceSubrange(n * size..<(n + 1) * size, with: b)
            seen.insert(n)
        }
        if seen.count < count { notes.append("\(name): \(count - seen.count) of \(count) blocks are missing from \"blocks\"; they read as zeros") }
        let configuration = configurationFor(uid: uid, blockCount: count, blockSize: size, slix: false, notes: &notes, file: name)
        var dump = ISO15693Dump(configuration: configuration, memory: ISO15693TagMemory(
            uid: uid, blockCount: count, blockSize: size, data: data, locked: locks.map { $0 & 0x01 != 0 },
            dsfid: try byte("dsfid"), afi: try byte("afi"), dsfidLocked: try byte("dsfidlock") != 0, afiLocked: try byte("afilock") != 0,
            icode: configuration.nxpCustomCommands ? ICODEData() : nil), notes: notes)
        dump.configuration.icReference = try byte("ic")
        if dump.configuration.nxpCustomCommands {
            dump.notes.append("\(name): a Proxmark3 dump has no originality signature; READ SIGNATURE answers 32 zero bytes")
        }
        return dump
    }
}
