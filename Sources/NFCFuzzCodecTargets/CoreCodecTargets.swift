import NFCCore
import NFCFuzz

/// The targets whose code under test is NFCCore alone: strict NDEF and the frame codecs. A module
/// of their own, so that their executables link neither the dissector nor the emulator:
/// libFuzzer scans every coverage counter linked in after each execution, used or not.
public enum CoreCodecTargets {
    static let bodies: [(name: String, body: @Sendable ([UInt8]) -> FuzzCheck)] = [
        ("FuzzNDEFStrict", ndefStrict), ("FuzzFeliCaCodec", feliCa), ("FuzzISO15693Codec", iso15693),
        ("FuzzMIFAREClassicCodec", mifareClassic), ("FuzzISO7816Codec", iso7816),
    ]

    /// Their bodies by target name (`FuzzTargets.body` has these and all the others).
    public static func body(_ name: String) -> (@Sendable ([UInt8]) -> FuzzCheck)? {
        bodies.first { $0.name == name }?.body
    }

    /// The names `body` knows.
    public static let names = bodies.map(\.name)

    /// Strict decode; a valid message encodes back to the same records.
    static func ndefStrict(_ input: [UInt8]) -> FuzzCheck {
        let result = NDEFMessage.decode(input, mode: .strict)
        // What `NDEFMessage(strict:)` adds to the decode: the first rejection as a DecodeError.
        // Taken from this decode: calling it would decode the input a second time.
        _ = result.firstRejection?.decodeError
        guard result.isValid, !result.records.isEmpty else { return .ok }
        return roundTrip(result, mode: .strict)
    }

    /// Whatever records were decoded encode back to themselves; a strictly valid message stays valid.
    package static func roundTrip(_ result: NDEFDecodeResult, mode: NDEFValidation) -> FuzzCheck {
        let message = result.message
        guard let encoded = try? message.encode() else { return .mismatch("decoded records do not encode — \(message.records.count) records") }
        let again = NDEFMessage.decode(encoded, mode: mode)
        return .all(.expect(again.message == message, "records differ after encode → decode — \(Hex.string(encoded.prefix(32)))"),
                    .expect(mode == .lenient || again.isValid, "a strictly valid message re-encodes to an invalid one — \(again.firstRejection?.message ?? "")"))
    }

    /// The input as a command and as a response: each re-encodes byte for byte; the response
    /// is also read as the answer to the command.
    static func feliCa(_ input: [UInt8]) -> FuzzCheck {
        var check = FuzzCheck.ok
        let command = try? FeliCaCommand.decode(input)
        if let command {
            check = .all(check, .expect(command.encode() == input, "the command re-encodes differently — \(Hex.string(command.encode()))"))
            _ = command.listProblems
            _ = try? FeliCaResponse.decode(input, answering: command)
        }
        if let loose = try? FeliCaCommand.decode(input, checkingLength: false) { _ = loose.encode() }
        if let response = try? FeliCaResponse.decode(input) {
            check = .all(check, .expect(response.encode() == input, "the response re-encodes differently — \(Hex.string(response.encode()))"))
        }
        _ = try? FeliCaResponse.decode(input, checkingLength: false)
        return check
    }

    /// ISO-DEP blocks, APDUs, BER-TLV trees and Type 4 CCs (byte 0 says which).
    static func iso7816(_ input: [UInt8]) -> FuzzCheck {
        guard let mode = input.first else { return .ok }
        let body = Array(input.dropFirst())
        switch mode {
        case 0:
            guard let f = try? ISODEPFrame.decode(body) else { return .ok }
            _ = f.waitingTimeExtension
            return .expect(f.encode() == body, "the ISO-DEP block re-encodes differently — \(Hex.string(f.encode().prefix(24)))")
        case 1:
            guard let apdu = try? CommandAPDU.decode(body) else { return .ok }
            _ = apdu.summary
            return .expect(apdu.encode() == body, "the APDU re-encodes differently — \(Hex.string(apdu.encode().prefix(24)))")
        case 2:
            guard let r = try? ResponseAPDU.decode(body) else { return .ok }
            _ = r.status.meaning
            // Every object's ranges lie in the data and its value is the bytes there.
            func consistent(_ objects: [BERTLV]) -> Bool {
                objects.allSatisfy { o in
                    o.valueRange.upperBound <= r.data.count && o.tagRange.upperBound == o.lengthRange.lowerBound
                        && o.lengthRange.upperBound == o.valueRange.lowerBound && Array(r.data[o.valueRange]) == o.value
                        && consistent(o.children ?? [])
                }
            }
            return .expect(consistent(BERTLV.parse(r.data).objects), "a BER-TLV object's ranges do not match its bytes")
        default:
            guard let cc = try? Type4CapabilityContainer.decode(body) else { return .ok }
            let again = cc.encode()
            return .expect(Array(body.prefix(again.count)) == again, "the CC re-encodes differently — \(Hex.string(again))")
        }
    }

    /// MIFARE Classic structures (byte 0 says which, `MIFAREClassicShape`): a command re-encodes
    /// byte for byte, consistent access bits rebuild from their conditions, a value block
    /// re-encodes, a MAD's CRC is its own; the NDEF area the MAD names is walked.
    static func mifareClassic(_ input: [UInt8]) -> FuzzCheck {
        guard let mode = input.first else { return .ok }
        let body = Array(input.dropFirst())
        switch mode {
        case 0:
            guard let selector = body.first else { return .ok }
            let payload = Array(body.dropFirst())
            guard let command = try? MIFAREClassicCommand.decode(payload, continuation: MIFAREClassicShape.continuation(selector)) else { return .ok }
            _ = command.name
            return .expect(command.encode() == payload, "the command re-encodes differently — \(Hex.string(command.encode()))")
        case 1:
            guard body.count >= 9 else { return .ok }
            let bits = MIFAREClassicAccessBits(Array(body[6..<9]))
            _ = bits.inconsistency
            for j in 0..<4 {
                _ = MIFAREClassicAccessBits.dataBlockRights(bits.condition(j))
                _ = MIFAREClassicAccessBits.trailerRights(bits.condition(j))
            }
            guard bits.isConsistent else { return .ok }
            let rebuilt = MIFAREClassicAccessBits(conditions: (0..<4).map { bits.condition($0) })
            return .expect(rebuilt.bytes == bits.bytes, "consistent access bits rebuild differently — \(Hex.string(rebuilt.bytes))")
        case 2:
            guard let v = MIFAREClassicValueBlock(body) else { return .ok }
            return .expect(v.encode() == body, "the value block re-encodes differently")
        default:
            guard body.count >= 32, let mad = MIFAREApplicationDirectory(Array(body[0..<32])) else { return .ok }
            let sectors = mad.aids.enumerated().filter { $0.element == MIFAREApplicationDirectory.ndefAID }.map { mad.firstSector + $0.offset }
            var blocks: [Int: [UInt8]] = [:]
            let data = Array(body.dropFirst(32))
            var at = 0
            for s in sectors {
                for b in MIFAREClassicLayout.firstBlock(ofSector: s)..<MIFAREClassicLayout.trailer(ofSector: s) where at + 16 <= data.count {
                    blocks[b] = Array(data[at..<at + 16])
                    at += 16
                }
            }
            _ = MIFAREClassicNDEF.area(sectors: sectors, blocks: blocks)
            return .expect(mad.crcIsValid == (MIFAREApplicationDirectory.crc(of: body[1..<32]) == body[0]), "the MAD's CRC check disagrees with its CRC-8")
        }
    }

    /// The input as a request (re-encodes byte for byte, and its summary), then as the answer to it.
    static func iso15693(_ input: [UInt8]) -> FuzzCheck {
        guard let request = try? ISO15693Request.decode(input) else { return .ok }
        _ = request.summary
        _ = request.command.blockRange
        let tail = Array(input.dropFirst(2))
        for size in [nil, 4, 32] as [Int?] { _ = try? ISO15693Response.decode(tail, answering: request, blockSize: size) }
        return .expect(request.encode() == input, "the request re-encodes differently — \(Hex.string(request.encode()))")
    }
}
