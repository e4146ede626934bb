import NFCCore

/// Flipper Zero `.nfc` files of `Device type: Mifare DESFire` (`FlipperDESFireFile`), both ways:
/// applications, files and their data become a `DESFireDump`; the card's state is saved back as
/// such a file, with the AES keys in nfctrace's `Key n AES` lines.
enum DESFireDumps {
    static func flipper(_ f: FlipperNFCFile) throws(DumpError) -> DESFireDump {
        let file = try FlipperDESFireFile(f)
        var notes: [String] = []
        let zero = [UInt8](repeating: 0, count: FlipperDESFireFile.keyLength)
        var applications: [DESFireApplication] = []
        for app in file.applications {
            let aid = UInt32(DESFire.littleEndian(app.aid[...]))
            let name = Hex.value(aid, digits: 6)
            let count = max(1, Int(app.maxKeys & 0x0F))
            let missing = (0..<count).filter { app.keys[$0] == nil }
            if !missing.isEmpty {
                notes.append("\(f.name): application \(name) has no AES key for key\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")): all-zero (a card as delivered); add \"Application \(Hex.string(app.aid, separator: "").lowercased()) Key n AES\" lines")
            }
            var files: [UInt8: DESFireFile] = [:]
            for fl in app.files {
                let content: DESFireFile.Content
                switch fl.kind {
                case .data(let size):
                    let data = fl.data ?? []
                    if data.count != size { notes.append("\(f.name): application \(name) file \(fl.id): \(data.count) of \(size) bytes in the file; the rest reads 00") }
                    content = .data(Array((data + [UInt8](repeating: 0, count: max(0, size - data.count))).prefix(size)))
                case .value(let lower, let upper, _, _):
                    let value = fl.data.map { Int32(truncatingIfNeeded: DESFire.littleEndian($0.prefix(4))) } ?? 0
                    content = .value(value, lower: lower, upper: upper)
                case .records(let size, let maxRecords, let current):
                    let data = fl.data ?? []
                    let records = size > 0 ? stride(from: 0, to: min(data.count, current * size), by: size).map { Array(data[$0..<min(data.count, $0 + size)]) } : []
                    content = .records(size: size, capacity: maxRecords, records)
                }
                if fl.communication & 0x03 != 0 {
                    notes.append("\(f.name): application \(name) file \(fl.id) is \(fl.communication & 0x03 == 0x01 ? "MACed" : "enciphered"); the emulator serves plain files only and answers PERMISSION DENIED to it")
                }
                files[fl.id] = DESFireFile(content, communication: fl.communication, accessRights: UInt16(fl.accessRights[0]) | UInt16(fl.accessRights[1]) << 8)
            }
            applications.append(DESFireApplication(aid: aid, keys: (0..<count).map { app.keys[$0] ?? zero }, files: files))
        }
        var dump = DESFireDump(uid: file.uid, version: file.version, piccKey: file.piccKey ?? zero, applications: applications, notes: notes)
        dump.atqa = file.atqa
        dump.sak = file.sak
        if let bytes = file.ats, let ats = try? ATS.decode(bytes) { dump.ats = ats }
        return dump
    }

    /// The card's state as a Flipper file: a data file's bytes, a value file's value (as GET VALUE
    /// sends it), a record file's records.
    static func file(uid: [UInt8], atqa: UInt16, sak: UInt8, ats: ATS, version: [UInt8], piccKey: [UInt8], applications: [DESFireApplication]) -> FlipperDESFireFile {
        let apps = applications.map { app in
            let files = app.files.keys.sorted().map { id -> FlipperDESFireFile.File in
                let f = app.files[id]!
                let access = [UInt8(f.accessRights & 0xFF), UInt8(f.accessRights >> 8)]
                switch f.content {
                case .data(let d):
                    return .init(id: id, type: 0, communication: f.communication, accessRights: access, kind: .data(size: d.count), data: d)
                case .value(let v, let lower, let upper):
                    return .init(id: id, type: 2, communication: f.communication, accessRights: access,
                                 kind: .value(lower: lower, upper: upper, limitedCreditValue: 0, limitedCreditEnabled: false),
                                 data: DESFire.littleEndian(Int(v), count: 4))
                case .records(let size, let capacity, let records):
                    return .init(id: id, type: 3, communication: f.communication, accessRights: access,
                                 kind: .records(size: size, max: capacity, current: records.count), data: records.flatMap { $0 })
                }
            }
            // Max Keys: the count, with b7 set for AES keys (GET KEY SETTINGS' second byte).
            return FlipperDESFireFile.Application(aid: DESFire.littleEndian(Int(app.aid), count: 3), maxKeys: UInt8(app.keys.count) | 0x80,
                                                  keys: Dictionary(uniqueKeysWithValues: app.keys.enumerated().map { ($0.offset, $0.element) }), files: files)
        }
        return FlipperDESFireFile(uid: uid, atqa: atqa, sak: sak, ats: ats.encode(), version: version, piccKey: piccKey, applications: apps)
    }
}
