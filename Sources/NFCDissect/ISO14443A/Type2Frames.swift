import NFCCore

/// NTAG21x / MIFARE Ultralight commands and their answers, read in the session's context.
enum Type2Frames {
    static func layer(_ s: ISO14443ASession) -> String {
        guard let model = s.model else { return "Type 2 Tag" }
        return model.isNTAG ? "NTAG" : "MIFARE Ultralight"
    }

    /// `0x04 (user memory)`.
    static func pageText(_ page: UInt8, _ s: ISO14443ASession) -> FieldValue {
        .byte(page, note: s.memoryMap.region(ofPage: Int(page)).rawValue)
    }

    // MARK: requests

    static func describeRequest(_ ctx: inout FrameContext, session s: inout ISO14443ASession, keys: KeyRing) {
        ctx.layer = layer(s)
        let split = CRCSplit(ctx.frame, expected: true, kind: .a)
        ctx.apply(split, field: .ntag.crc)
        let continuation = s.continuation
        s.continuation = .none
        if case .compatibilityWriteData(let page) = continuation { s.compatibilityWritePage = page }
        let command: Type2Command
        var cmac: FieldLayout?
        do {
            command = try Type2Command.decode(split.payload, continuation: continuation)
        } catch {
            if secureMessagingPossible(s), let c = Type2Command.decodeWithCMAC(split.payload) {
                command = c
                cmac = Type2Command.cmacLayout(payloadCount: split.payload.count)
                s.secureMessaging = true
            } else {
                unknownCommand(split, error, &ctx, &s)
                return
            }
        }
        describe(command, continuation: continuation, &ctx, &s, keys: keys)
        if let cmac {
            ctx.summary += " + CMAC (secure messaging)"
            ctx.sink.add(Field(.ntag.cmac, Hex.string(split.payload[cmac.range]), range: cmac.range))
        }
    }

    /// After an Ultralight AES authentication, commands may carry a CMAC.
    static func secureMessagingPossible(_ s: ISO14443ASession) -> Bool {
        guard s.model == .ultralightAES, case .mutuallyAuthenticated = s.authentication else { return false }
        return true
    }

    static func unknownCommand(_ split: CRCSplit, _ error: DecodeError, _ ctx: inout FrameContext, _ s: inout ISO14443ASession) {
        s.pending = (ctx.number, .unknown)
        if let first = split.payload.first, let code = Type2Command.Code(rawValue: first) {
            ctx.summary = "malformed \(code.name)"
            ctx.diagnostics.append(Diagnostic(.error, "\(code.name) \(error)"))
        } else {
            let first = split.payload.first.map(Hex.byte) ?? "(empty)"
            ctx.summary = "unknown command \(first)"
            ctx.warn("\(first) is no ISO 14443-3 or Type 2 command, and no ATS announced ISO-DEP")
        }
        ctx.sink.add(Field(.ntag.data, Hex.string(split.payload), range: split.payload.indices))
    }

    static func describe(_ command: Type2Command, continuation: Type2Command.Continuation, _ ctx: inout FrameContext, _ s: inout ISO14443ASession, keys: KeyRing) {
        s.pending = (ctx.number, .type2(command))
        ctx.summary = command.summary
        if command.code != .compatibilityWrite || continuation == .none {
            ctx.sink.add(Field(.ntag.command, .named(command.code.name, code: command.code.rawValue)))
        }
        let map = s.memoryMap
        let known = s.model != nil
        switch command {
        case .read(let page):
            ctx.sink.add(Field(.ntag.page, pageText(page, s)))
            if known, Int(page) > map.lastPage {
                ctx.note("page \(Hex.byte(page)) is beyond the last page \(Hex.byte(UInt8(map.lastPage))) of the \(s.model?.rawValue ?? ""); the tag answers NAK")
            }
        case .fastRead(let start, let end):
            ctx.sink.add(Field(.ntag.startPage, pageText(start, s)))
            ctx.sink.add(Field(.ntag.endPage, pageText(end, s)))
            if end < start { ctx.note("end page before start page; the tag answers NAK") }
            if known, Int(end) > map.lastPage { ctx.note("end page beyond the last page \(Hex.byte(UInt8(map.lastPage))); the tag answers NAK") }
        case .write(let page, let data):
            ctx.sink.add(Field(.ntag.page, pageText(page, s)))
            ctx.sink.add(Field(.ntag.data, .hex(data), range: Type2Command.Layout.writeData.range))
            switch page {
            case 0, 1: ctx.note("pages 0–1 hold the UID and are read-only; the tag answers NAK")
            case 2: ctx.note("page 2: only the lock bits are written, OR-ed into the current value")
            case 3: ctx.note("page 3 (CC) is one-time programmable: bits are OR-ed in")
            default: break
            }
        case .compatibilityWrite(let page):
            ctx.sink.add(Field(.ntag.page, pageText(page, s)))
        case .compatibilityWriteData(let data):
            ctx.sink.add(Field(.ntag.data, "\(Hex.string(data[Type2Command.Layout.compatibilityData.range.clamped(to: data.indices)])) (only these 4 bytes are written)", range: Type2Command.Layout.compatibilityData.range))
            ctx.sink.add(Field(.ntag.padding, Hex.string(data.dropFirst(Type2Command.Layout.compatibilityData.width))))
        case .readCounter(let n), .checkTearingEvent(let n):
            ctx.sink.add(Field(.ntag.counterNumber, "\(n)"))
            if s.model?.isNTAG == true, case .readCounter = command, n != 2 { ctx.note("NTAG21x only has counter 2 (the NFC counter); the tag answers NAK") }
        case .incrementCounter(let n, let v, let ignored):
            ctx.sink.add(Field(.ntag.counterNumber, "\(n)"))
            ctx.sink.add(Field(.ntag.increment, "\(v)"))
            ctx.sink.add(Field(.ntag.ignored, Hex.byte(ignored)))
        case .pwdAuth(let pwd):
            ctx.sink.add(Field(.ntag.pwd, .hex(pwd)))
        case .readSignature(let a):
            ctx.sink.add(Field(.ntag.address, Hex.byte(a)))
        case .writeSignature(let block, let data):
            ctx.sink.add(Field(.ntag.signatureBlock, "\(block)"))
            ctx.sink.add(Field(.ntag.data, Hex.string(data), range: Type2Command.Layout.signatureData.range))
        case .lockSignature(let a):
            ctx.sink.add(Field(.ntag.lockArgument, Hex.byte(a)))
        case .vcsl(let iid, let caps):
            ctx.sink.add(Field(.ntag.iid, Hex.string(iid)))
            ctx.sink.add(Field(.ntag.pcdCaps, Hex.string(caps)))
        case .sectorSelectSector(let sector, _):
            ctx.sink.add(Field(.ntag.sector, "\(sector)"))
        case .authenticate(let key):
            // An Ultralight C has key 0 only; which tag it is shows in the challenge's length.
            let name = s.model == .ultralightAES || key != 0 ? Type2Command.aesKeyName(key).map { " (\($0) on an Ultralight AES)" } : nil
            ctx.sink.add(Field(.ntag.keyNumber, "\(key)" + (name ?? "")))
            UltralightAuthenticationFrames.request(keyNumber: key, &ctx, &s)
        case .authenticateContinue(let data):
            let range = (Type2Command.Layout.authenticationData(payloadCount: data.count + 1) ?? Type2Command.Layout.authenticationData).range
            ctx.sink.add(Field(.ntag.authData, Hex.string(data), range: range))
            UltralightAuthenticationFrames.readerAnswer(data, range: range, keys: keys, &ctx, &s)
        case .getVersion, .sectorSelect:
            break
        }
    }

    // MARK: answers

    static func describeResponse(to command: Type2Command, _ ctx: inout FrameContext, session s: inout ISO14443ASession) {
        ctx.layer = layer(s)
        let isAck = Type2Acknowledgement.looksLike(ctx.frame.bytes, lastByteBits: ctx.frame.lastByteBits)
            || (ctx.frame.bytes.count == 1 && command.expectsAcknowledgement)
        let split = CRCSplit(ctx.frame, expected: !isAck, kind: .a)
        ctx.apply(split, field: .ntag.crc)
        let response: Type2Response
        var cmac: FieldLayout?
        do {
            response = try Type2Response.decode(split.payload, lastByteBits: ctx.frame.lastByteBits, answering: command)
        } catch {
            let n = split.payload.count, m = Type2Command.cmacLength
            if s.secureMessaging, n == m, command.expectsAcknowledgement {
                // Secure messaging answers a write with its CMAC instead of the ACK.
                ctx.summary = "ACK"
                ctx.sink.add(Field(.ntag.cmac, Hex.string(split.payload), range: Type2Command.cmacLayout(payloadCount: n).range))
                applyAcknowledged(command, &ctx, &s)
                ctx.summary = "CMAC (secure messaging) for " + ctx.summary
                return
            } else if s.secureMessaging, n > m, let r = try? Type2Response.decode(Array(split.payload.dropLast(m)), lastByteBits: 8, answering: command) {
                response = r
                cmac = Type2Command.cmacLayout(payloadCount: n)
            } else {
                ctx.summary = "malformed answer to \(command.code.name)"
                ctx.diagnostics.append(Diagnostic(.error, "answer to \(command.code.name) \(error)"))
                ctx.sink.add(Field(.ntag.data, Hex.string(split.payload), range: split.payload.indices))
                return
            }
        }
        defer {
            if let cmac {
                ctx.summary += " + CMAC"
                ctx.sink.add(Field(.ntag.cmac, Hex.string(split.payload[cmac.range]), range: cmac.range))
            }
        }
        switch response {
        case .acknowledgement(.ack):
            ctx.summary = "ACK"
            ctx.sink.add(Field(.ntag.ack, "A (acknowledged)"))
            applyAcknowledged(command, &ctx, &s)
        case .acknowledgement(.nak(let nak)):
            ctx.summary = "NAK \(nak.rawValue): \(nak.meaning)"
            ctx.sink.add(Field(.ntag.nak, "\(nak.rawValue): \(nak.meaning)"))
            if case .pwdAuth(let pwd) = command {
                s.authentication = .refused(password: pwd, nak: nak)
                ctx.summary = "NAK \(nak.rawValue): PWD_AUTH refused" + (nak == .authenticationCounterOverflow ? " (AUTHLIM reached)" : "")
            } else if case .authenticateContinue = command {
                s.authentication = .mutualAuthenticationRefused(nak: nak)
                s.ultralightAuthentication = nil
                ctx.summary = "NAK \(nak.rawValue): AUTHENTICATE refused (the reader's RndB′ is wrong)"
            } else if s.authentication.isInForce {
                // NXP datasheets: a NAK sends the tag back to IDLE/HALT and clears authentication.
                s.authentication = .none
                ctx.note("a NAK sends the tag back to IDLE/HALT and ends the authentication")
            }
        case .version(let v):
            s.version = v
            s.model = v.model
            let model = s.model?.summary
            var w = TextWriter(capacity: 48)
            w.write("VERSION ")
            if let model {
                w.write(model)
            } else {
                w.write(v.productTypeName)
                w.write(", storage ")
                w.write(v.storageSizeDescription)
            }
            ctx.summary = w.string
            describeVersion(v, model: model, &ctx)
            if s.model == nil { ctx.note("this version (\(Hex.string(v.bytes))) matches no known NXP model") }
        case .pages(let first, let data):
            let total = s.model?.memoryMap.totalPages
            let wraps: Bool
            if case .read = command { wraps = true } else { wraps = false }
            s.memory.storeRead(firstPage: Int(first), data: data, totalPages: wraps ? total : nil)
            ctx.memory = MemoryAccess(offset: Int(first) * 4, count: data.count / 4 * 4, wrap: wraps ? (total ?? 0) * 4 : 0, write: false)
            describePages(first: Int(first), data: data, wrapAt: wraps ? total : nil, &ctx, s)
        case .pack(let pack):
            if case .pwdAuth(let pwd) = command { s.authentication = .authenticated(password: pwd, pack: pack) }
            var w = TextWriter(capacity: 32)
            w.write("PACK ")
            w.hexBytes(pack)
            w.write(", authenticated")
            ctx.summary = w.string
            ctx.sink.add(Field(.ntag.pack, .hex(pack)))
        case .counter(let v):
            if case .readCounter(let n) = command { s.counters[Int(n)] = v }
            ctx.summary = "counter value \(v)"
            ctx.sink.add(Field(.ntag.counter, "\(v) (\(Hex.value(v, digits: 6)))"))
        case .signature(let sig):
            s.signature = sig
            ctx.summary = "signature (\(sig.count) bytes, ECC secp128r1)"
            ctx.sink.add(Field(.ntag.signature, Hex.string(sig), range: sig.indices))
        case .tearingFlag(let f):
            ctx.summary = "tearing flag \(Hex.byte(f))" + (f == 0xBD ? ": no tearing event" : ": tearing event happened")
            ctx.sink.add(Field(.ntag.tearingFlag, Hex.byte(f) + (f == 0xBD ? " (valid)" : " (torn)")))
        case .vctid(let v):
            ctx.summary = "VCTID \(Hex.byte(v))"
            ctx.sink.add(Field(.ntag.vctid, Hex.byte(v)))
        case .authenticationChallenge(let ek):
            ctx.summary = "AUTHENTICATE challenge ek(RndB) \(Hex.string(ek))"
            ctx.sink.add(Field(.ntag.authData, label: "ek(RndB)", Hex.string(ek), range: Type2Response.Layout.authenticationData(ek.count)))
            UltralightAuthenticationFrames.challenge(ek, &ctx, &s)
            s.continuation = .none
        case .authenticationResult(let ek):
            ctx.summary = "AUTHENTICATE done, ek(RndA') \(Hex.string(ek))"
            ctx.sink.add(Field(.ntag.authData, label: "ek(RndA')", Hex.string(ek), range: Type2Response.Layout.authenticationData(ek.count)))
            UltralightAuthenticationFrames.result(ek, &ctx, &s)
        }
    }

    /// What an ACK does to the session: writes land in the rebuilt memory, two-part commands
    /// announce their second packet.
    static func applyAcknowledged(_ command: Type2Command, _ ctx: inout FrameContext, _ s: inout ISO14443ASession) {
        switch command {
        case .write(let page, let data):
            s.memory.store(page: Int(page), data: data[...])
            s.writtenPages.insert(Int(page))
            ctx.memory = MemoryAccess(offset: Int(page) * 4, count: 4, write: true)
            ctx.summary = "ACK, page \(Hex.byte(page)) written"
        case .compatibilityWrite(let page):
            s.continuation = .compatibilityWriteData(page: page)
            ctx.summary = "ACK, send the 16 data bytes next"
        case .compatibilityWriteData(let data):
            if let p = s.compatibilityWritePage {
                s.memory.store(page: Int(p), data: data[Type2Command.Layout.compatibilityData.range.clamped(to: data.indices)])
                s.writtenPages.insert(Int(p))
                ctx.memory = MemoryAccess(offset: Int(p) * 4, count: 4, write: true)
                ctx.summary = "ACK, page \(Hex.byte(p)) written"
            }
            s.compatibilityWritePage = nil
        case .sectorSelect:
            s.continuation = .sectorSelectSector
            ctx.summary = "ACK, send the sector next"
        default:
            break
        }
    }

    /// `model` is `v.model?.summary`, which the caller has already made.
    static func describeVersion(_ v: Type2Version, model: String?, _ ctx: inout FrameContext) {
        ctx.sink.add(Field(.ntag.version, .hex(v.bytes), children: [
            Field(.ntag.versionHeader, .byte(v.fixedHeader)),
            Field(.ntag.versionVendor, .byte(v.vendorID, note: v.vendorName)),
            Field(.ntag.versionType, .byte(v.productType, note: v.productTypeName)),
            Field(.ntag.versionSubtype, .byte(v.productSubtype)),
            Field(.ntag.versionMajor, .byte(v.majorVersion)),
            Field(.ntag.versionMinor, .byte(v.minorVersion)),
            Field(.ntag.versionStorage, .byte(v.storageSize, note: v.storageSizeDescription)),
            Field(.ntag.versionProtocol, .byte(v.protocolType, suffix: v.protocolType == 3 ? " (ISO/IEC 14443-3)" : "")),
            Field(.ntag.model, model ?? "unknown"),
        ]))
    }

    /// `Page 0x04 (user memory)`. Without a known model a READ near page FF does not wrap, so
    /// pages can pass 0xFF (three digits then).
    static func pageLabel(_ page: Int, _ region: Type2MemoryMap.Region) -> String {
        "Page 0x\(Hex.value(page, digits: page > 0xFF ? 3 : 2)) (\(region.rawValue))"
    }

    /// `pageLabel` of pages 0x00…0xFF in every region, made once: READ and FAST_READ answers
    /// name each page they carry.
    private static let pageLabelTable: [[FieldName]] = Type2MemoryMap.Region.allCases.map { region in
        (0..<256).map { FieldName(pageLabel($0, region)) }
    }

    static func pageLabelName(_ page: Int, _ region: Type2MemoryMap.Region) -> FieldName {
        guard page >= 0, page < 256 else { return FieldName(pageLabel(page, region)) }
        return pageLabelTable[region.ordinal][page]
    }

    static func describePages(first: Int, data: [UInt8], wrapAt total: Int?, _ ctx: inout FrameContext, _ s: ISO14443ASession) {
        let count = data.count / 4
        let map = s.memoryMap
        let modulus = total.map { $0 > 0 ? $0 : Int.max } ?? Int.max
        let last = count > 0 ? (first + count - 1) % modulus : first
        var summary = TextWriter(capacity: 80)
        summary.write(count == 1 ? "DATA page " : "DATA pages ")
        summary.hexByte(UInt8(truncatingIfNeeded: first))
        if count != 1 {
            summary.write("…")
            summary.hexByte(UInt8(truncatingIfNeeded: last))
        }
        summary.write(" (")
        // Region names in order, a run of pages in one region named once.
        var previous: Type2MemoryMap.Region?
        for i in 0..<count {
            let region = map.region(ofPage: (first + i) % modulus)
            if region == previous { continue }
            if previous != nil { summary.write(", ") }
            summary.write(region.rawValue)
            previous = region
        }
        summary.write(")")
        if let t = total, first + count > t { summary.write(", wrapped to page 0x00") }
        ctx.summary = summary.string
        guard ctx.sink.enabled else { return }
        var children: [Field] = []
        children.reserveCapacity(count)
        for i in 0..<count {
            let p = (first + i) % modulus
            let region = map.region(ofPage: p)
            let bytes = data[i * 4..<i * 4 + 4]
            var value = FieldValue.hex(bytes)
            if region == .pwd || region == .pack { value = .hex(bytes, suffix: " (PWD and PACK always read as zeros)") }
            if region == .capabilityContainer, let cc = try? Type2CapabilityContainer.decode(bytes), cc.isNDEF {
                var note = TextWriter(capacity: 64)
                note.write(" (NDEF magic, mapping ")
                note.decimal(Int(cc.majorVersion))
                note.write(".")
                note.decimal(Int(cc.minorVersion))
                note.write(", data area ")
                note.decimal(cc.dataAreaSize)
                note.write(" bytes)")
                value = .hex(bytes, suffix: note.string)
            }
            children.append(Field(.ntag.pageData, label: pageLabelName(p, region), value, range: Type2Response.Layout.page(i)))
        }
        var size = TextWriter(capacity: 40)
        size.decimal(count)
        size.write(count == 1 ? " page, " : " pages, ")
        size.decimal(data.count)
        size.write(" bytes")
        ctx.sink.add(Field(.ntag.data, size.string, range: data.indices, children: children))
    }
}

extension Type2MemoryMap.Region {
    /// The region's position in `allCases`, without building `allCases`.
    var ordinal: Int {
        switch self {
        case .uid: 0
        case .staticLock: 1
        case .capabilityContainer: 2
        case .user: 3
        case .dynamicLock: 4
        case .cfg0: 5
        case .cfg1: 6
        case .pwd: 7
        case .pack: 8
        case .counter: 9
        case .auth0: 10
        case .auth1: 11
        case .key: 12
        case .beyond: 13
        }
    }
}
