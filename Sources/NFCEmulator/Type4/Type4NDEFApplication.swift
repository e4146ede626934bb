import NFCCore

/// The NFC Forum Type 4 Tag's NDEF application (protocols-wave2.md §4): SELECT by name and file
/// id, READ BINARY, UPDATE BINARY, with the CC's access bytes and MLe/MLc honoured. It runs on an
/// `ISODEPCard`, which does the activation and the block protocol; APDUs are decoded and encoded
/// with the codecs the dissector uses.
public final class Type4NDEFApplication: APDUApplication {
    public private(set) var memory: Type4TagMemory
    private var application = Application()

    struct Application {
        var ndefSelected = false
        var file: UInt16?
    }

    public init(memory: Type4TagMemory) { self.memory = memory }

    public func reset() { application = Application() }

    /// The card that carries this application: UID, ATQA 0344, SAK 20 and the memory's ATS.
    public static func card(_ memory: Type4TagMemory) -> (card: ISODEPCard, application: Type4NDEFApplication)? {
        let app = Type4NDEFApplication(memory: memory)
        guard let card = ISODEPCard(uid: memory.uid, ats: memory.ats, application: app,
                                    summary: "NFC Forum Type 4 Tag (mapping \(memory.capabilityContainer.versionText)), UID \(Hex.string(memory.uid))") else { return nil }
        return (card, app)
    }

    public func execute(_ command: [UInt8]) -> [UInt8] { execute(apdu: command).encode() }

    private func execute(apdu bytes: [UInt8]) -> ResponseAPDU {
        guard let apdu = try? CommandAPDU.decode(bytes) else { return ResponseAPDU(status: .wrongLength) }
        guard apdu.cla == 0x00 else { return ResponseAPDU(status: .classNotSupported) }
        switch apdu.ins {
        case ISO7816Instruction.select:
            return select(apdu)
        case ISO7816Instruction.readBinary:
            return readBinary(apdu)
        case ISO7816Instruction.updateBinary:
            return updateBinary(apdu)
        default:
            return ResponseAPDU(status: .instructionNotSupported)
        }
    }

    private func select(_ apdu: CommandAPDU) -> ResponseAPDU {
        switch try? Type4Command.decode(apdu) {
        case .selectApplication(let asked)?:
            // Mapping 2.0 answers the 2.0 name; the 1.0 name only a 1.0 tag (T4T 2.0 §5.5).
            let name = memory.capabilityContainer.mappingVersion >> 4 >= 2 ? Type4Tag.ndefApplication : Type4Tag.ndefApplicationV1
            guard asked == name else {
                application = Application()
                return ResponseAPDU(status: .fileNotFound)
            }
            application = Application(ndefSelected: true, file: nil)
            return ResponseAPDU(status: .success)
        case .selectFile(let fid)?:
            guard application.ndefSelected, fid == Type4Tag.ccFile || fid == memory.capabilityContainer.ndefFile.fileID else {
                return ResponseAPDU(status: .fileNotFound)
            }
            application.file = fid
            return ResponseAPDU(status: .success)
        default:
            // A file identifier of another length than two bytes names no file.
            return apdu.p1 == Type4Command.selectByFileID ? ResponseAPDU(status: .fileNotFound) : ResponseAPDU(status: .incorrectP1P2)
        }
    }

    /// The selected file's bytes and whether it is the NDEF file.
    private var selectedFile: (bytes: [UInt8], ndef: Bool)? {
        switch application.file {
        case Type4Tag.ccFile?: return (memory.capabilityContainer.encode(), false)
        case memory.capabilityContainer.ndefFile.fileID?: return (memory.ndefFile, true)
        default: return nil
        }
    }

    private func readBinary(_ apdu: CommandAPDU) -> ResponseAPDU {
        guard let (file, ndef) = selectedFile else { return ResponseAPDU(status: .commandNotAllowed) }
        guard let (sfi, offset) = ISO7816Instruction.binaryOffset(p1: apdu.p1, p2: apdu.p2), sfi == nil else { return ResponseAPDU(status: .incorrectP1P2) }
        if ndef, memory.capabilityContainer.ndefFile.readAccess != 0 { return ResponseAPDU(status: .securityNotSatisfied) }
        guard offset < file.count else { return ResponseAPDU(status: .wrongP1P2) }
        let asked = apdu.le ?? 256
        let n = min(asked, Int(memory.capabilityContainer.maxReadLength), file.count - offset)
        return ResponseAPDU(data: Array(file[offset..<offset + n]), status: n < asked && offset + n == file.count ? .endOfFile : .success)
    }

    private func updateBinary(_ apdu: CommandAPDU) -> ResponseAPDU {
        guard let (file, ndef) = selectedFile else { return ResponseAPDU(status: .commandNotAllowed) }
        guard ndef else { return ResponseAPDU(status: .securityNotSatisfied) }   // the CC file is read-only
        guard memory.capabilityContainer.ndefFile.writeAccess == 0 else { return ResponseAPDU(status: .securityNotSatisfied) }
        guard let (sfi, offset) = ISO7816Instruction.binaryOffset(p1: apdu.p1, p2: apdu.p2), sfi == nil else { return ResponseAPDU(status: .incorrectP1P2) }
        guard !apdu.data.isEmpty, apdu.data.count <= Int(memory.capabilityContainer.maxWriteLength) else { return ResponseAPDU(status: .wrongLength) }
        guard offset + apdu.data.count <= file.count else { return ResponseAPDU(status: .wrongP1P2) }
        memory.ndefFile.replaceSubrange(offset..<offset + apdu.data.count, with: apdu.data)
        return ResponseAPDU(status: .success)
    }
}
