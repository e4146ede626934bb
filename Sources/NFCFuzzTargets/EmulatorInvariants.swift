import NFCCore
import NFCEmulator

/// What an emulated tag's answers must satisfy whatever the reader sends: the properties the
/// emulator tests check on random frames, applied to fuzzed sessions.
enum EmulatorInvariants {
    /// `encryptedBefore`: a MIFARE Classic card was in a Crypto1 session when the request came
    /// (its frames are then ciphertext: nothing of their content can be checked from outside).
    static func check(request: Frame, answer: Frame, tag: EmulatedTag, quietInventory: Bool, encryptedBefore: Bool = false) -> FuzzCheck {
        if let classic = tag as? MIFAREClassicTag {
            // In clear, a Classic card answers with an ATQA/UID, a nonce, a 4-bit ACK/NAK or data
            // with a correct CRC_A; a request with a wrong CRC never gets data.
            guard !encryptedBefore, !classic.isEncrypting, answer.lastByteBits == 8, answer.bytes.count > 4,
                  !ISO14443ACommand.recognises(request.bytes, lastByteBits: request.lastByteBits) else { return .ok }
            if request.lastByteBits == 8, !request.crcStripped, !request.hasValidCRC() { return .mismatch("a Classic frame with a wrong CRC_A gets data") }
            return .expect(answer.hasValidCRC(.a), "a Classic answer in clear has a wrong CRC_A — \(Hex.string(answer.bytes))")
        }
        if tag is ISODEPCard {
            // Activation answers are the listener's (checked with the Type 2 tags); after them an
            // ISO-DEP card answers RATS with an ATS and everything else with ISO-DEP blocks, each
            // with a correct CRC_A; a frame with a wrong CRC gets nothing.
            guard answer.lastByteBits == 8, !request.crcStripped else { return .ok }
            let command = try? ISO14443ACommand.decode(Array(request.payloadDroppingValidCRC()), lastByteBits: request.lastByteBits)
            if case .rats? = command, request.hasValidCRC() {
                guard let body = answer.payload(ifValidCRC: .a) else { return .mismatch("the ATS has a wrong CRC_A") }
                return .expect((try? ATS.decode(Array(body))) != nil, "the answer to RATS is no ATS — \(Hex.string(body))")
            }
            if ISO14443ACommand.recognises(request.bytes, lastByteBits: request.lastByteBits) { return .ok }
            // The listener (shared with the Type 2 tags) takes a REQA or WUPA sent as a whole
            // byte, as captures without bit counts record it, even with a CRC after it; the
            // answer is the ATQA, which has none.
            let payload = Array(request.payloadDroppingValidCRC())
            if payload.count == 1, payload[0] == ISO14443A.reqa || payload[0] == ISO14443A.wupa { return .ok }
            if !request.hasValidCRC() { return .mismatch("an ISO-DEP card answers a frame with a wrong CRC_A") }
            guard let body = answer.payload(ifValidCRC: .a) else { return .mismatch("an ISO-DEP card's answer has a wrong CRC_A — \(Hex.string(answer.bytes.prefix(24)))") }
            return .expect((try? ISODEPFrame.decode(Array(body))) != nil, "an ISO-DEP card's answer is no ISO-DEP block — \(Hex.string(body.prefix(24)))")
        }
        if tag is Type1Tag {
            // Type 1 (T1T Operation §5): every answer but the ATQA carries CRC_B and decodes as
            // the answer to its command; a frame with a wrong CRC_B, or no command, gets nothing.
            guard answer.lastByteBits == 8, answer.bytes.count > 2, !request.crcStripped else { return .ok }
            guard let body = request.payload(ifValidCRC: .b), let command = try? Type1Command.decode(Array(body)) else {
                return .mismatch("a Type 1 tag answers a frame that is no command with a right CRC_B")
            }
            guard let answered = answer.payload(ifValidCRC: .b) else { return .mismatch("a Type 1 answer has a wrong CRC_B — \(command.summary)") }
            do {
                _ = try Type1Response.decode(Array(answered), to: command)
                return .ok
            } catch {
                return .mismatch("an answer does not decode against its command — \(command.summary): \(error)")
            }
        }
        let requestCRC = request.hasValidCRC()
        let payload = Array(request.payloadDroppingValidCRC())
        switch request.technology {
        case .iso15693:
            if !request.crcStripped && !requestCRC { return .mismatch("a frame with a wrong CRC is answered") }
            if quietInventory { return .mismatch("a quiet VICC answers an inventory") }
            guard let body = answer.payload(ifValidCRC: .b).map(Array.init) else { return .mismatch("the answer's CRC is wrong") }
            guard let decoded = try? ISO15693Request.decode(payload) else {
                let formatErrors = [ISO15693ErrorCode.commandNotRecognised, .unknownError].map { ISO15693Response.error($0).encode() }
                return .expect(formatErrors.contains(body), "a request that does not decode gets no format error — \(Hex.string(body))")
            }
            let blockSize = (tag as? ISO15693Tag)?.memory.blockSize
            do {
                _ = try ISO15693Response.decode(body, answering: decoded, blockSize: blockSize)
                return .ok
            } catch {
                return .mismatch("an answer does not decode against its request — \(Hex.string(body)) to \(decoded.summary): \(error)")
            }
        case .felica:
            guard !request.crcStripped else { return .ok }
            if !requestCRC { return .mismatch("a frame with a wrong CRC_F is answered") }
            guard let body = answer.payload(ifValidCRC: .felica) else { return .mismatch("the answer's CRC_F is wrong") }
            guard let command = try? FeliCaCommand.decode(payload) else { return .ok }
            do {
                _ = try FeliCaResponse.decode(Array(body), answering: command)
                return .ok
            } catch {
                return .mismatch("an answer does not decode against its command — \(command.code.name): \(error)")
            }
        case .iclass:
            return .ok   // no iClass emulator yet: nothing to check
        case .iso14443a, .iso14443b:
            // 4-bit ACK/NAK and the activation answers (ATQA, UID CLn) carry no CRC.
            guard answer.lastByteBits == 8, answer.bytes.count > 2, !request.crcStripped, requestCRC,
                  let command = try? Type2Command.decode(payload) else { return .ok }
            guard let body = answer.payload(ifValidCRC: .a) else { return .mismatch("an answer has a wrong CRC_A — \(command.summary)") }
            do {
                _ = try Type2Response.decode(Array(body), answering: command)
                return .ok
            } catch {
                return .mismatch("an answer does not decode against its command — \(command.summary): \(error)")
            }
        }
    }
}
