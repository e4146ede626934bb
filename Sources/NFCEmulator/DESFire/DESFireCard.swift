import NFCCore
import NFCCrypto

/// One file of a DESFire application (protocols-wave2.md §5.4).
public struct DESFireFile: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        case data([UInt8])
        case value(Int32, lower: Int32, upper: Int32)
        case records(size: Int, capacity: Int, [[UInt8]])
    }

    public var content: Content
    /// 0 plain, 1 MACed, 3 fully enciphered: only plain files are served.
    public var communication: UInt8
    /// Read, write, read&write and change key numbers, a nibble each (E free, F never).
    public var accessRights: UInt16

    public init(_ content: Content, communication: UInt8 = 0, read: UInt8, write: UInt8, readWrite: UInt8, change: UInt8) {
        self.content = content
        self.communication = communication
        accessRights = UInt16(read & 0xF) << 12 | UInt16(write & 0xF) << 8 | UInt16(readWrite & 0xF) << 4 | UInt16(change & 0xF)
    }

    /// `accessRights` as GET FILE SETTINGS sends them (two bytes, least significant first).
    public init(_ content: Content, communication: UInt8, accessRights: UInt16) {
        self.content = content
        self.communication = communication
        self.accessRights = accessRights
    }

    var read: UInt8 { UInt8(accessRights >> 12 & 0xF) }
    var write: UInt8 { UInt8(accessRights >> 8 & 0xF) }
    var readWrite: UInt8 { UInt8(accessRights >> 4 & 0xF) }

    /// GET FILE SETTINGS' answer: type, communication, access rights, then the type's sizes.
    var settings: [UInt8] {
        let head = [communication, UInt8(accessRights & 0xFF), UInt8(accessRights >> 8)]
        switch content {
        case .data(let d): return [0x00] + head + DESFire.littleEndian(d.count, count: 3)
        case .value(_, let lower, let upper): return [0x02] + head + DESFire.littleEndian(Int(lower), count: 4) + DESFire.littleEndian(Int(upper), count: 4) + DESFire.littleEndian(0, count: 4) + [0x00]
        case .records(let size, let capacity, let records): return [0x03] + head + DESFire.littleEndian(size, count: 3) + DESFire.littleEndian(capacity, count: 3) + DESFire.littleEndian(records.count, count: 3)
        }
    }
}

public struct DESFireApplication: Sendable, Equatable {
    public var aid: UInt32
    public var keySettings: UInt8
    /// AES-128 keys, key 0 the application master key.
    public var keys: [[UInt8]]
    public var files: [UInt8: DESFireFile]

    public init(aid: UInt32, keySettings: UInt8 = 0x0F, keys: [[UInt8]], files: [UInt8: DESFireFile]) {
        self.aid = aid
        self.keySettings = keySettings
        self.keys = keys
        self.files = files
    }
}

/// A MIFARE DESFire EV1 as an ISO-DEP application (MF3ICD81 behaviour as protocols-wave2.md §5
/// describes it): native commands and their ISO-wrapped form (`90 CMD 00 00 [Lc data] 00` →
/// `data 91 status`), GET VERSION in three frames, answers over 59 bytes continued with
/// ADDITIONAL FRAME, applications and plain files (standard data, value, linear record) with
/// their access rights, transactions committed or aborted, and AUTHENTICATE AES — the three
/// passes of `UltralightAuthentication` with AES-128 and the IV chained. Codes and names are
/// NFCCore's `DESFire`.
///
/// Not served: MACed and enciphered files (no CMAC or session encryption; they answer
/// PERMISSION DENIED), DES/3DES keys, creating or deleting applications and files, EV2/EV3
/// commands.
public final class DESFireCard: APDUApplication {
    public var applications: [DESFireApplication]
    public let piccKey: [UInt8]
    public let version: [UInt8]
    private var selected: UInt32 = 0
    private var authenticatedKey: Int?
    private var pendingAuthentication: (key: Int, rndB: [UInt8], ekRndB: [UInt8], auth: UltralightAuthentication)?
    private var pendingFrames: [[UInt8]] = []
    /// Credits, debits and record writes wait for COMMIT TRANSACTION.
    private var transaction: [UInt8: DESFireFile] = [:]
    private var random: SplitMix64

    /// `seed` draws the card's RndB: a fixed seed makes a session repeatable (traces, tests).
    public init(version: [UInt8], piccKey: [UInt8], applications: [DESFireApplication], seed: UInt64) {
        self.version = version
        self.piccKey = piccKey
        self.applications = applications
        random = SplitMix64(seed: seed)
    }

    public func reset() {
        selected = 0
        authenticatedKey = nil
        pendingAuthentication = nil
        pendingFrames = []
        transaction = [:]
    }

    // Native status codes (protocols-wave2.md §5.3; named in `DESFire.statusNames`).
    static let ok: UInt8 = 0x00, illegalCommand: UInt8 = 0x1C, lengthError: UInt8 = 0x7E, noSuchKey: UInt8 = 0x40,
               permissionDenied: UInt8 = 0x9D, parameterError: UInt8 = 0x9E, applicationNotFound: UInt8 = 0xA0,
               authenticationError: UInt8 = 0xAE, boundaryError: UInt8 = 0xBE, fileNotFound: UInt8 = 0xF0
    /// The most data one native frame carries before ADDITIONAL FRAME.
    static let frameData = 59

    public func execute(_ command: [UInt8]) -> [UInt8] {
        // ISO-wrapped: the native command is INS, its data the APDU's; the status goes in SW2.
        if command.first == DESFire.wrappedClass, let apdu = try? CommandAPDU.decode(command), apdu.p1 == 0, apdu.p2 == 0 {
            let (status, data) = run(apdu.ins, apdu.data)
            return data + [DESFire.statusSW1, status]
        }
        guard let code = command.first else { return [Self.lengthError] }
        let (status, data) = run(code, Array(command.dropFirst()))
        return [status] + data
    }

    private var application: DESFireApplication? { applications.first { $0.aid == selected } }
    private var keys: [[UInt8]] { selected == 0 ? [piccKey] : application?.keys ?? [] }

    private func run(_ code: UInt8, _ data: [UInt8]) -> (UInt8, [UInt8]) {
        if code == DESFire.additionalFrame { return additionalFrame(data) }
        pendingFrames = []
        pendingAuthentication = nil
        switch code {
        case 0x60:
            // Hardware version, software version, then UID, batch and production date.
            return frames([Array(version.prefix(7)), Array(version.dropFirst(7).prefix(7)), Array(version.dropFirst(14))])
        case 0x6A:
            guard selected == 0 else { return (Self.permissionDenied, []) }
            return reply(applications.flatMap { DESFire.littleEndian(Int($0.aid), count: 3) })
        case 0x5A:
            guard let aid = DESFire.aid(data), data.count == DESFire.Layout.aid.width else { return (Self.lengthError, []) }
            guard aid == 0 || applications.contains(where: { $0.aid == aid }) else { return (Self.applicationNotFound, []) }
            selected = aid
            authenticatedKey = nil
            transaction = [:]
            return (Self.ok, [])
        case 0x45:
            let settings = selected == 0 ? 0x0F : application?.keySettings ?? 0x0F
            return (Self.ok, [settings, UInt8(keys.count) | 0x80])
        case 0x6F:
            return (Self.ok, application.map { $0.files.keys.sorted() } ?? [])
        case 0xF5:
            guard let (_, file) = file(data) else { return (Self.fileNotFound, []) }
            return (Self.ok, file.settings)
        case 0xAA:
            return authenticate(data)
        case 0xBD:
            return readData(data)
        case 0x3D:
            return writeData(data)
        case 0x6C:
            guard let (_, file) = file(data), case .value(let v, _, _) = file.content else { return (Self.fileNotFound, []) }
            guard allowed(file, file.read, file.write, file.readWrite) else { return (Self.permissionDenied, []) }
            return (Self.ok, DESFire.littleEndian(Int(v), count: 4))
        case 0x0C, 0xDC:
            return changeValue(data, credit: code == 0x0C)
        case 0xBB:
            return readRecords(data)
        case 0x3B:
            return writeRecord(data)
        case 0xC7:
            guard var app = application else { return (Self.permissionDenied, []) }
            for (n, f) in transaction { app.files[n] = f }
            applications = applications.map { $0.aid == app.aid ? app : $0 }
            transaction = [:]
            return (Self.ok, [])
        case 0xA7:
            transaction = [:]
            return (Self.ok, [])
        case 0x6E:
            return (Self.ok, DESFire.littleEndian(4096, count: 3))
        default:
            return (Self.illegalCommand, [])
        }
    }

    /// An answer of any length: 59 bytes a frame, ADDITIONAL FRAME until the last.
    private func reply(_ data: [UInt8]) -> (UInt8, [UInt8]) {
        frames(stride(from: 0, to: max(1, data.count), by: Self.frameData).map { Array(data[$0..<min(data.count, $0 + Self.frameData)]) })
    }

    private func frames(_ parts: [[UInt8]]) -> (UInt8, [UInt8]) {
        guard let first = parts.first else { return (Self.ok, []) }
        pendingFrames = Array(parts.dropFirst())
        return (pendingFrames.isEmpty ? Self.ok : DESFire.additionalFrame, first)
    }

    private func additionalFrame(_ data: [UInt8]) -> (UInt8, [UInt8]) {
        if let pending = pendingAuthentication {
            pendingAuthentication = nil
            guard let rndA = pending.auth.readerRndA(data, rndB: pending.rndB, ekRndB: pending.ekRndB) else {
                authenticatedKey = nil
                return (Self.authenticationError, [])
            }
            authenticatedKey = pending.key
            return (Self.ok, pending.auth.answer(rndA: rndA, readerMessage: data))
        }
        guard !pendingFrames.isEmpty else { return (Self.illegalCommand, []) }
        let next = pendingFrames.removeFirst()
        return (pendingFrames.isEmpty ? Self.ok : DESFire.additionalFrame, next)
    }

    private func authenticate(_ data: [UInt8]) -> (UInt8, [UInt8]) {
        guard data.count == DESFire.Layout.keyNumber.width else { return (Self.lengthError, []) }
        let n = Int(data[DESFire.Layout.keyNumber.offset])
        guard keys.indices.contains(n), let aes = AES128(key: keys[n]) else { return (Self.noSuchKey, []) }
        authenticatedKey = nil
        let auth = UltralightAuthentication(kind: .aes, cipher: aes, chainsIV: true)
        let rndB = (0..<2).flatMap { _ in DESFire.littleEndian(Int(truncatingIfNeeded: random.next()), count: 8) }
        let ekRndB = auth.challenge(rndB: rndB)
        pendingAuthentication = (n, rndB, ekRndB, auth)
        return (DESFire.additionalFrame, ekRndB)
    }

    /// The file `data` names, with its number.
    private func file(_ data: [UInt8]) -> (UInt8, DESFireFile)? {
        guard let n = data.first, let f = transaction[n] ?? application?.files[n] else { return nil }
        return (n, f)
    }

    /// Free (E), or the session authenticated with one of the keys; plain files only.
    private func allowed(_ file: DESFireFile, _ keys: UInt8...) -> Bool {
        guard file.communication & 0x01 == 0 else { return false }
        return keys.contains { key in key == 0xE || authenticatedKey == Int(key) }
    }

    private func number(_ data: [UInt8], _ f: FieldLayout) -> Int? {
        data.count >= f.end ? DESFire.littleEndian(data[f.range]) : nil
    }

    private func readData(_ data: [UInt8]) -> (UInt8, [UInt8]) {
        guard let (_, file) = file(data), case .data(let bytes) = file.content else { return (Self.fileNotFound, []) }
        guard let offset = number(data, DESFire.Layout.offset), let length = number(data, DESFire.Layout.length) else { return (Self.lengthError, []) }
        guard allowed(file, file.read, file.readWrite) else { return (Self.permissionDenied, []) }
        let end = length == 0 ? bytes.count : offset + length
        guard offset <= bytes.count, end <= bytes.count else { return (Self.boundaryError, []) }
        return reply(Array(bytes[offset..<end]))
    }

    private func writeData(_ data: [UInt8]) -> (UInt8, [UInt8]) {
        guard let (n, file) = file(data), case .data(var bytes) = file.content else { return (Self.fileNotFound, []) }
        guard let offset = number(data, DESFire.Layout.offset), let length = number(data, DESFire.Layout.length),
              data.count == DESFire.Layout.length.end + length else { return (Self.lengthError, []) }
        guard allowed(file, file.write, file.readWrite) else { return (Self.permissionDenied, []) }
        guard offset + length <= bytes.count else { return (Self.boundaryError, []) }
        bytes.replaceSubrange(offset..<offset + length, with: data[DESFire.Layout.length.end...])
        update(n) { $0.content = .data(bytes) }
        return (Self.ok, [])
    }

    private func changeValue(_ data: [UInt8], credit: Bool) -> (UInt8, [UInt8]) {
        guard let (n, file) = file(data), case .value(let v, let lower, let upper) = file.content else { return (Self.fileNotFound, []) }
        guard let amount = number(data, DESFire.Layout.value), data.count == DESFire.Layout.value.end else { return (Self.lengthError, []) }
        // Debit with read, write or read&write; credit needs read&write (MF3ICD81 §9).
        guard credit ? allowed(file, file.readWrite) : allowed(file, file.read, file.write, file.readWrite) else { return (Self.permissionDenied, []) }
        let next = Int64(v) + (credit ? Int64(amount) : -Int64(amount))
        guard next >= Int64(lower), next <= Int64(upper) else { return (Self.boundaryError, []) }
        transaction[n] = DESFireFile(.value(Int32(next), lower: lower, upper: upper), communication: file.communication, read: file.read,
                                     write: file.write, readWrite: file.readWrite, change: UInt8(file.accessRights & 0xF))
        return (Self.ok, [])
    }

    private func readRecords(_ data: [UInt8]) -> (UInt8, [UInt8]) {
        guard let (_, file) = file(data), case .records(_, _, let records) = file.content else { return (Self.fileNotFound, []) }
        guard let first = number(data, DESFire.Layout.firstRecord), let count = number(data, DESFire.Layout.recordCount) else { return (Self.lengthError, []) }
        guard allowed(file, file.read, file.readWrite) else { return (Self.permissionDenied, []) }
        // Record 0 is the newest (linear files: the last written).
        let newestFirst = Array(records.reversed())
        let end = count == 0 ? newestFirst.count : first + count
        guard first < newestFirst.count, end <= newestFirst.count else { return (Self.boundaryError, []) }
        return reply(newestFirst[first..<end].flatMap { $0 })
    }

    private func writeRecord(_ data: [UInt8]) -> (UInt8, [UInt8]) {
        guard let (n, file) = file(data), case .records(let size, let capacity, var records) = file.content else { return (Self.fileNotFound, []) }
        guard let offset = number(data, DESFire.Layout.offset), let length = number(data, DESFire.Layout.length),
              data.count == DESFire.Layout.length.end + length else { return (Self.lengthError, []) }
        guard allowed(file, file.write, file.readWrite) else { return (Self.permissionDenied, []) }
        guard offset + length <= size, records.count < capacity else { return (Self.boundaryError, []) }
        var record = [UInt8](repeating: 0, count: size)
        record.replaceSubrange(offset..<offset + length, with: data[DESFire.Layout.length.end...])
        records.append(record)
        var f = file
        f.content = .records(size: size, capacity: capacity, records)
        transaction[n] = f
        return (Self.ok, [])
    }

    private func update(_ n: UInt8, _ change: (inout DESFireFile) -> Void) {
        applications = applications.map { app in
            guard app.aid == selected, var f = app.files[n] else { return app }
            change(&f)
            var a = app
            a.files[n] = f
            return a
        }
    }
}

/// A DESFire EV1 as a tag source (`emulate --model desfire-ev1`).
public struct DESFireDump: TagDumpContent {
    public var uid: [UInt8]
    public var version: [UInt8]
    public var piccKey: [UInt8]
    public var applications: [DESFireApplication]
    public var notes: [String] = []
    /// The activation a dump file gives (an EV1's by default).
    public var atqa: UInt16 = 0x0344
    public var sak: UInt8 = 0x20
    public var ats = ATS(t0: 0x75, ta1: 0x77, tb1: 0x81, tc1: 0x02, historicalBytes: [0x80])

    public var summary: String {
        "MIFARE DESFire EV1, \(applications.count) application\(applications.count == 1 ? "" : "s"), UID \(Hex.string(uid))"
    }

    public func makeTag() -> EmulatedTag? {
        let seed = uid.reduce(UInt64(0x44_45_53_46)) { $0 << 8 ^ UInt64($1) }
        let card = DESFireCard(version: version, piccKey: piccKey, applications: applications, seed: seed)
        // The default ATS is an EV1's: FSCI 5 (64 bytes), TA/TB/TC present, historical byte 80
        // (protocols-wave2.md §5.1).
        let (uid, atqa, sak, ats, version, piccKey) = (uid, atqa, sak, ats, version, piccKey)
        return ISODEPCard(uid: uid, atqa: ATQA(value: atqa), sak: SAK(sak), ats: ats, application: card, summary: summary) {
            let file = DESFireDumps.file(uid: uid, atqa: atqa, sak: sak, ats: ats, version: version, piccKey: piccKey, applications: card.applications)
            return Array(file.text(comment: "Written by nfctrace (DESFire AES keys in the Key n AES lines)").utf8)
        }
    }

    /// The application of the built-in card and the key that opens its protected file.
    public static let demoAID: UInt32 = 0x5A4E54
    public static let demoKey: [UInt8] = Array("nfctrace-desfire".utf8)

    static let builtIns: [BuiltInTag] = [
        BuiltInTag(name: "desfire-ev1", description: "MIFARE DESFire EV1, application 5A4E54 (AES keys: 0 all-zero, 1 \"nfctrace-desfire\"), plain data, value and record files") {
            let uid: [UInt8] = [0x04, 0x5A, 0x4E, 0x54, 0x01, 0x02, 0x80]
            let version: [UInt8] = [0x04, 0x01, 0x01, 0x01, 0x00, 0x18, 0x05, 0x04, 0x01, 0x01, 0x01, 0x04, 0x18, 0x05] + uid
                + [0xBA, 0x44, 0x12, 0x34, 0x56, 0x47, 0x25]
            let zero = [UInt8](repeating: 0, count: 16)
            let files: [UInt8: DESFireFile] = [
                1: DESFireFile(.data(Array("Hello from a DESFire EV1 emulated by nfctrace.".utf8) + [0x00, 0x00]), read: 0xE, write: 1, readWrite: 1, change: 0),
                2: DESFireFile(.data(Array("student 2024A1234, valid 2027-03".utf8)), read: 1, write: 1, readWrite: 1, change: 0),
                3: DESFireFile(.value(1000, lower: 0, upper: 100_000), read: 0xE, write: 1, readWrite: 1, change: 0),
                4: DESFireFile(.records(size: 16, capacity: 10, [Array("2026-11-20 gate".utf8) + [0], Array("2026-11-24 lab ".utf8) + [0]]),
                               read: 1, write: 1, readWrite: 1, change: 0),
            ]
            return TagDump(DESFireDump(uid: uid, version: version, piccKey: zero,
                                       applications: [DESFireApplication(aid: demoAID, keys: [zero, demoKey], files: files)]))
        },
    ]
}
