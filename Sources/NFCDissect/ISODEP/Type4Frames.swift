import NFCCore

/// The NFC Forum Type 4 Tag on top of the APDUs (protocols-wave2.md §4): the NDEF application
/// and its files named, the CC decoded, and the CC and NDEF files rebuilt from READ BINARY and
/// UPDATE BINARY for the session summary.
enum Type4Frames {
    static let layer = "Type 4 Tag"
    static let fileLimit = Type4Reconstruction.fileLimit

    static func fileName(_ fid: UInt16, _ app: ISO7816Application) -> String? {
        if fid == Type4Tag.ccFile { return "CC file" }
        if fid == app.ndefFileID { return "NDEF file" }
        return nil
    }

    /// Names what a command does to the Type 4 application.
    static func command(_ apdu: CommandAPDU, _ ctx: inout FrameContext, _ s: inout some ISODEPCarrier) {
        let app = s.isoDEP.application
        guard apdu.isInterindustry else { return }
        switch apdu.ins {
        case ISO7816Instruction.select where apdu.p1 == Type4Command.selectByName:
            if apdu.data == Type4Tag.ndefApplication || apdu.data == Type4Tag.ndefApplicationV1 {
                ctx.layer = layer
                ctx.summary = "SELECT NDEF Tag Application (mapping \(apdu.data == Type4Tag.ndefApplication ? "2.0+" : "1.0"))"
            }
        case ISO7816Instruction.select where apdu.p1 == Type4Command.selectByFileID:
            if app.type4, let fid = try? Type4Command.fileID(apdu.data), let name = fileName(fid, app) {
                ctx.layer = layer
                ctx.summary = "SELECT \(name) \(Hex.value(fid, digits: 4))"
            }
        case ISO7816Instruction.readBinary, ISO7816Instruction.updateBinary:
            guard app.type4, let fid = app.selectedFile, let name = fileName(fid, app),
                  let (sfi, offset) = ISO7816Instruction.binaryOffset(p1: apdu.p1, p2: apdu.p2), sfi == nil else { return }
            ctx.layer = layer
            let n = apdu.ins == ISO7816Instruction.readBinary ? (apdu.le ?? 0) : apdu.data.count
            ctx.summary = "\(apdu.ins == ISO7816Instruction.readBinary ? "READ" : "UPDATE") BINARY \(name), offset \(offset), \(n) bytes"
            if name == "NDEF file", apdu.ins == ISO7816Instruction.updateBinary, offset == 0, let nlen = try? Type4Command.nlen(apdu.data) {
                ctx.summary += nlen == 0 ? ": NLEN 0 (message being written)" : ": NLEN \(nlen)"
            }
        default:
            break
        }
    }

    /// What a successful answer does: selection, the files' bytes, the CC decoded.
    static func response(to apdu: CommandAPDU, _ response: ResponseAPDU, _ ctx: inout FrameContext, _ s: inout some ISODEPCarrier,
                         fields: inout [Field], _ placement: APDUFrames.Placement) {
        guard response.status.isSuccess || response.status == .endOfFile, apdu.isInterindustry else { return }
        // Moved out and back: a copy left in the session made each write below copy the
        // application's files whole (copy on write).
        var app = ISO7816Application()
        swap(&app, &s.isoDEP.application)
        defer { s.isoDEP.application = app }
        switch apdu.ins {
        case ISO7816Instruction.select where apdu.p1 == Type4Command.selectByName:
            app.selectedApplication = apdu.data
            app.selectedFile = nil
            if apdu.data == Type4Tag.ndefApplication || apdu.data == Type4Tag.ndefApplicationV1 {
                app.type4 = true
                ctx.layer = layer
                ctx.summary = "NDEF Tag Application selected, SW \(response.status)"
            } else {
                app.type4 = false
            }
        case ISO7816Instruction.select where apdu.p1 == Type4Command.selectByFileID:
            if let fid = try? Type4Command.fileID(apdu.data) { app.selectedFile = fid }
        case ISO7816Instruction.readBinary:
            guard app.type4, let fid = app.selectedFile, let (sfi, offset) = ISO7816Instruction.binaryOffset(p1: apdu.p1, p2: apdu.p2), sfi == nil else { return }
            ctx.layer = layer
            if fid == Type4Tag.ccFile {
                app.ccFile.store(response.data, at: offset, limit: fileLimit)
                if offset == 0, let cc = try? Type4CapabilityContainer.decode(response.data) {
                    fields.append(ccField(cc, range: placement.place(ResponseAPDU.Layout.data(count: response.data.count))))
                    ctx.summary = "CC: mapping \(cc.versionText), MLe \(cc.maxReadLength), MLc \(cc.maxWriteLength), NDEF file \(Hex.value(cc.ndefFile.fileID, digits: 4)) (\(cc.ndefFile.maxSize) bytes), SW \(response.status)"
                }
            } else if fid == app.ndefFileID {
                app.ndefFile.store(response.data, at: offset, limit: fileLimit)
                // Bytes read before any write of theirs are the tag's starting state.
                for (i, b) in response.data.enumerated() where !app.ndefFileAsFound.isKnown(offset + i) && !app.ndefWrittenBytes.contains(offset + i) {
                    app.ndefFileAsFound.store([b], at: offset + i, limit: fileLimit)
                }
                let size = app.capabilityContainer?.ndefFile.lengthFieldSize ?? 2
                if offset == 0, response.data.count == size {
                    let nlen = response.data.reduce(0) { $0 << 8 | Int($1) }
                    ctx.summary = "NLEN \(nlen), SW \(response.status)"
                }
            }
        case ISO7816Instruction.updateBinary:
            guard app.type4, let fid = app.selectedFile, fid == app.ndefFileID,
                  let (sfi, offset) = ISO7816Instruction.binaryOffset(p1: apdu.p1, p2: apdu.p2), sfi == nil else { return }
            app.ndefFile.store(apdu.data, at: offset, limit: fileLimit)
            app.ndefWrittenBytes.formUnion(offset..<min(offset + apdu.data.count, fileLimit))
        default:
            break
        }
    }

    static func ccField(_ cc: Type4CapabilityContainer, range: Range<Int>?) -> Field {
        let f = cc.ndefFile
        return Field(.t4t.cc, "mapping \(cc.versionText)", range: range, children: [
            Field(.t4t.ccCclen, "\(cc.ccLength)"),
            Field(.t4t.ccVersion, "\(cc.versionText) (\(Hex.byte(cc.mappingVersion)))"),
            Field(.t4t.ccMle, "\(cc.maxReadLength): most bytes one READ BINARY answers"),
            Field(.t4t.ccMlc, "\(cc.maxWriteLength): most bytes one UPDATE BINARY takes"),
            Field(.t4t.ccNdefFile, label: f.isExtended ? "Extended NDEF File Control TLV" : "NDEF File Control TLV",
                  "file \(Hex.value(f.fileID, digits: 4)), \(f.maxSize) bytes", children: [
                Field(.t4t.ccFileId, Hex.value(f.fileID, digits: 4)),
                Field(.t4t.ccMaxSize, "\(f.maxSize) bytes (\(Int(f.maxSize) - f.lengthFieldSize) for the message)"),
                Field(.t4t.ccReadAccess, "\(Hex.byte(f.readAccess)): \(Type4CapabilityContainer.FileControl.accessName(f.readAccess))"),
                Field(.t4t.ccWriteAccess, "\(Hex.byte(f.writeAccess)): \(Type4CapabilityContainer.FileControl.accessName(f.writeAccess))"),
            ]),
        ])
    }

    /// The session summary's Type 4 part: the CC, and the NDEF message rebuilt from the NDEF
    /// file (ranges are offsets in that file).
    static func summaryFields(_ app: ISO7816Application, diagnostics: inout [Diagnostic]) -> [Field] {
        guard app.type4 else { return [] }
        var fields: [Field] = []
        let cc = app.capabilityContainer
        if let cc { fields.append(ccField(cc, range: nil)) }
        guard let (nlenRange, nlen, message, missing) = app.ndefContent else {
            if app.ndefFile.count > 0 { fields.append(Field(.t4t.ndefFile, "NLEN not read")) }
            return fields
        }
        let size = nlenRange.count
        var file = Field(.t4t.ndefFile, "NLEN \(nlen)" + (app.ndefWritten ? " (written in this session)" : ""))
        file.children.append(Field(.t4t.nlen, "\(nlen)", range: nlenRange))
        if let max = cc?.ndefFile.maxSize, nlen > Int(max) - size {
            diagnostics.append(Diagnostic(.warning, "NLEN \(nlen) is more than the NDEF file holds (\(max) bytes less the \(size)-byte NLEN)", range: nlenRange))
        }
        if nlen > 0 {
            if let missing {
                file.children.append(Field(.t4t.ndef, "\(nlen) bytes, not read from offset \(missing) on"))
            } else {
                let result = NDEFMessage.decode(Array(app.ndefFile.bytes[message]))
                let tree = NDEFDescriber.describe(result, placing: { $0.lowerBound + size..<$0.upperBound + size })
                file.children += tree.fields
                diagnostics += tree.diagnostics
            }
        }
        fields.append(file)
        return fields
    }
}
