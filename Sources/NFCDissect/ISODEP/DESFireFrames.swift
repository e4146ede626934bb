import NFCCore

/// MIFARE DESFire native commands, ISO-wrapped (`90 CMD 00 00 [Lc data] 00` → `data 91 STATUS`)
/// or native (`CMD data` → `STATUS data`, told from APDUs by the card and the command code;
/// protocols-wave2.md §5): named with their parameters as the Proxmark3 names them, statuses
/// named, answers in parts (`AF`) joined, GET VERSION and GET FILE SETTINGS decoded. Parameter
/// ranges come from `DESFire.Layout`, placed after the command code (native) or the APDU's Lc.
enum DESFireFrames {
    static let layer = "MIFARE DESFire"

    /// A command as either framing carries it: the code, its data and where they sit.
    struct Command {
        var code: UInt8
        var data: [UInt8]
        var codeRange: Range<Int>
        /// Where the data starts in the APDU or INF; nil when there is none.
        var dataBase: Int?
    }

    static func command(_ apdu: CommandAPDU, _ placement: APDUFrames.Placement, _ ctx: inout FrameContext, _ s: inout some ISODEPCarrier, fields: inout [Field]) {
        guard apdu.cla == DESFire.wrappedClass else { return }
        command(Command(code: apdu.ins, data: apdu.data, codeRange: CommandAPDU.Layout.ins.range, dataBase: apdu.layout.data?.offset), placement, &ctx, &s, fields: &fields)
    }

    // MARK: native framing

    /// Whether a whole INF from the reader is a native DESFire command: its first byte is a
    /// command code, and either the card is a DESFire (ATQA 0344, SAK 20 — NXP's values) and
    /// the byte is no CLA an APDU to it would use (00 interindustry, 90 wrapped), or the bytes
    /// are no APDU at all.
    static func isNative(_ inf: [UInt8], _ s: some ISODEPCarrier) -> Bool {
        guard let code = inf.first, DESFire.commandNames[code] != nil, code != 0x00, code != DESFire.wrappedClass else { return false }
        if s.announcesDESFire { return true }
        return (try? CommandAPDU.decode(inf)) == nil
    }

    static func nativeCommand(_ inf: [UInt8], _ placement: APDUFrames.Placement, _ ctx: inout FrameContext, _ s: inout some ISODEPCarrier) {
        s.isoDEP.commandBytes = inf
        s.isoDEP.timeAsked = false
        s.isoDEP.command = nil
        let c = Command(code: inf[0], data: Array(inf.dropFirst()), codeRange: 0..<1, dataBase: inf.count > 1 ? 1 : nil)
        s.isoDEP.nativeDESFire = (c.code, c.data)
        var fields: [Field] = []
        command(c, placement, &ctx, &s, fields: &fields)
        fields.append(Field(.desfire.framing, "native (not ISO-wrapped)"))
        APDUFrames.add(fields, placement, "DESFire command", inf.count, &ctx)
    }

    static func nativeResponse(_ inf: [UInt8], to command: (code: UInt8, data: [UInt8]), _ placement: APDUFrames.Placement, _ ctx: inout FrameContext, _ s: inout some ISODEPCarrier) {
        ctx.layer = layer
        s.isoDEP.recordAnswer(inf)
        let status = inf[0]
        let data = Array(inf.dropFirst())
        var fields = [Field(.desfire.status, .named(DESFire.statusName(status), code: status), range: placement.place(0..<1))]
        if !data.isEmpty { fields.append(Field(.desfire.responseData, Hex.string(data), range: placement.place(1..<inf.count))) }
        response(code: command.code, commandData: command.data, status: status, data: data, &ctx, &s, fields: &fields)
        APDUFrames.add(fields, placement, "DESFire answer", inf.count, &ctx)
    }

    // MARK: both framings

    static func command(_ c: Command, _ placement: APDUFrames.Placement, _ ctx: inout FrameContext, _ s: inout some ISODEPCarrier, fields: inout [Field]) {
        ctx.layer = layer
        let code = c.code
        if code == DESFire.additionalFrame, let chain = s.isoDEP.application.desfireChain {
            ctx.summary = "ADDITIONAL FRAME (\(DESFire.name(chain.code)), next part)"
        } else {
            ctx.summary = DESFire.summary(code: code, data: c.data)
            if code != DESFire.additionalFrame { s.isoDEP.application.desfireChain = nil }
        }
        fields.append(Field(.desfire.command, .named(DESFire.name(code), code: code), range: placement.place(c.codeRange)))
        guard let base = c.dataBase else { return }
        let data = c.data
        func place(_ f: FieldLayout) -> Range<Int>? { data.count >= f.end ? placement.place(f.range(at: base)) : nil }
        func le(_ f: FieldLayout) -> Int { DESFire.littleEndian(data[f.range]) }
        switch code {
        case 0x5A, 0xCA, 0xDA:
            if let a = DESFire.aid(data) {
                fields.append(Field(.desfire.aid, Hex.value(a, digits: 6) + (DESFire.knownApplications[a].map { " (\($0))" } ?? "") + ", sent LSB first",
                                    range: place(DESFire.Layout.aid)))
            }
        case 0x0A, 0x1A, 0xAA, 0x71, 0x77, 0x64, 0xC4, 0xC6:
            if let r = place(DESFire.Layout.keyNumber) { fields.append(Field(.desfire.key, "\(data[0])", range: r)) }
            if [0x0A, 0x1A, 0xAA].contains(code) { s.isoDEP.application.desfireAuthenticating = data.first }
        case 0xBD, 0xAD, 0x3D, 0x8D:
            if let r = place(DESFire.Layout.fileNumber) { fields.append(Field(.desfire.file, "\(data[0])", range: r)) }
            if let r = place(DESFire.Layout.offset) { fields.append(Field(.desfire.offset, "\(le(DESFire.Layout.offset))", range: r)) }
            if let r = place(DESFire.Layout.length) { fields.append(Field(.desfire.length, "\(le(DESFire.Layout.length))", range: r)) }
        case 0xF5, 0x5F, 0xDF, 0x6C, 0xEB:
            if let r = place(DESFire.Layout.fileNumber) { fields.append(Field(.desfire.file, "\(data[0])", range: r)) }
        case DESFire.additionalFrame where !data.isEmpty:
            fields.append(Field(.desfire.authData, Hex.string(data),
                                range: placement.place(base..<base + data.count)))
        default:
            break
        }
    }

    static func response(to apdu: CommandAPDU, _ response: ResponseAPDU, _ ctx: inout FrameContext, _ s: inout some ISODEPCarrier, fields: inout [Field]) {
        guard apdu.cla == DESFire.wrappedClass, response.status.sw1 == DESFire.statusSW1 else { return }
        self.response(code: apdu.ins, commandData: apdu.data, status: response.status.sw2, data: response.data, &ctx, &s, fields: &fields)
    }

    /// The answer to the command `code` with `commandData`: the native status and its data.
    static func response(code sent: UInt8, commandData: [UInt8], status: UInt8, data: [UInt8], _ ctx: inout FrameContext, _ s: inout some ISODEPCarrier, fields: inout [Field]) {
        ctx.layer = layer
        // Moved out and back: a copy left in the session made each write below copy the
        // application's files whole (copy on write).
        var app = ISO7816Application()
        swap(&app, &s.isoDEP.application)
        defer { s.isoDEP.application = app }
        let code = sent == DESFire.additionalFrame ? (app.desfireChain?.code ?? sent) : sent
        let joined = (sent == DESFire.additionalFrame ? app.desfireChain?.data ?? [] : []) + data
        ctx.summary = (data.isEmpty ? "" : "\(data.count) bytes, ") + DESFire.statusName(status)
        if status == DESFire.additionalFrame {
            app.desfireChain = (code, joined)
            if [0x0A, 0x1A, 0xAA].contains(code) { ctx.summary = "ek(RndB) \(data.count) bytes, \(DESFire.statusName(status))" }
            return
        }
        app.desfireChain = nil
        if DESFire.statusNames[status] != nil { app.desfireAnswered = true }
        guard status == 0x00 else { return }
        // After an EV1 authentication (ISO or AES) a plain answer carries an 8-byte CMAC at its end.
        let macFollows = app.desfireAuthentication.map { $0.code == 0x1A || $0.code == 0xAA } ?? false
        switch code {
        case 0x5A:
            app.desfireApplication = DESFire.aid(commandData)
            app.desfireAuthentication = nil
            // The NDEF application of a Type 4 DESFire is left for another one.
            app.type4 = false
        case 0x60:
            if let v = DESFire.Version(joined) {
                app.desfireVersion = v.generation
                ctx.summary = "VERSION \(v.generation), \(v.storageText), UID \(Hex.string(v.uid)), produced week \(Hex.value(v.productionWeek, digits: 2)) of 20\(Hex.value(v.productionYear, digits: 2))"
                fields.append(Field(.desfire.version, v.generation, children: [
                    Field(.desfire.versionStorage, v.storageText),
                    Field(.desfire.versionUid, .hex(v.uid)),
                    Field(.desfire.versionProduction, "week \(Hex.value(v.productionWeek, digits: 2)), year 20\(Hex.value(v.productionYear, digits: 2))"),
                ]))
            }
        case 0xF5:
            let settings = macFollows && joined.count > DESFire.macLength ? Array(joined.dropLast(DESFire.macLength)) : joined
            if let f = DESFire.FileSettings(settings) {
                if let n = commandData.first { app.desfireFiles[n] = f }
                ctx.summary = "\(f.typeName) file, \(f.communicationName), \(f.accessText)" + (f.size.map { ", \($0) bytes" } ?? "")
                fields.append(Field(.desfire.fileSettings, "\(f.typeName), \(f.communicationName)", children: [
                    Field(.desfire.fileSettingsAccess, "\(Hex.value(f.accessRights, digits: 4)): \(f.accessText)"),
                ] + (f.size.map { [Field(.desfire.fileSettingsSize, "\($0) bytes")] } ?? [])))
                if settings.count < joined.count {
                    ctx.summary += " + 8-byte MAC"
                    fields.append(Field(.desfire.mac, Hex.string(joined.suffix(DESFire.macLength)) + " (CMAC after the authentication; not checked: no session key)"))
                }
            }
        case 0x6A:
            let aids = stride(from: 0, to: joined.count - joined.count % 3, by: 3).compactMap { DESFire.aid(Array(joined[$0..<$0 + 3])) }
            ctx.summary = "applications " + aids.map { Hex.value($0, digits: 6) }.joined(separator: ", ")
        case 0x0A, 0x1A, 0xAA:
            ctx.summary = "ek(RndA′) \(data.count) bytes, authenticated"
            if let key = app.desfireAuthenticating { app.desfireAuthentication = (code, key) }
        case 0xBD, 0xAD:
            // A MACed file's data comes with a MAC: 8 bytes (CMAC) after EV1 authentication.
            if let n = commandData.first, let f = app.desfireFiles[n], f.communication & 0x03 == 0x01, joined.count > DESFire.macLength {
                ctx.summary = "\(joined.count - DESFire.macLength) bytes of data + 8-byte MAC, \(DESFire.statusName(status))"
                fields.append(Field(.desfire.mac, Hex.string(joined.suffix(DESFire.macLength)) + " (the file is MACed; not checked: no session key)"))
            } else if let n = commandData.first, let f = app.desfireFiles[n], f.communication & 0x03 == 0x03 {
                ctx.summary = "\(joined.count) bytes enciphered, \(DESFire.statusName(status))"
            } else {
                plainData(joined, status, &ctx, &fields)
            }
        case 0xBB, 0xAB:
            plainData(joined, status, &ctx, &fields)
        case 0x6C where joined.count == DESFire.Layout.value.width:
            let value = Int32(bitPattern: UInt32(DESFire.littleEndian(joined[...])))
            ctx.summary = "value \(value), \(DESFire.statusName(status))"
            fields.append(Field(.desfire.value, "\(value)"))
        default:
            break
        }
    }

    /// Data of a plain file: its bytes, and the text they hold when they read as text (the
    /// Shift_JIS reading FeliCa blocks get, which covers ASCII).
    static func plainData(_ data: [UInt8], _ status: UInt8, _ ctx: inout FrameContext, _ fields: inout [Field]) {
        guard !data.isEmpty else { return }
        let text = ShiftJIS.text(inBlock: data)
        if let text { ctx.summary = "\(data.count) bytes \(JSONText.quoted(text)), \(DESFire.statusName(status))" }
        fields.append(Field(.desfire.data, text.map(JSONText.quoted) ?? Hex.string(data)))
    }
}
