import NFCCore
import NFCEmulator

/// What an emulated tag's answers must satisfy whatever the reader sends: the properties the
/// emulator tests check on random frames, applied to fuzzed sessions.
enum EmulatorInvariants {
    static func check(request: Frame, answer: Frame, tag: EmulatedTag, quietInventory: Bool) -> FuzzCheck {
        let kind = request.technology.crcKind
        let requestCRC = !request.crcStripped && request.bytes.count > 2 && CRC.check(kind, request.bytes) == .ok
        let payload = requestCRC ? Array(request.bytes.dropLast(2)) : request.bytes
        switch request.technology {
        case .iso15693:
            if !request.crcStripped && !requestCRC { return .mismatch("a frame with a wrong CRC is answered") }
            if quietInventory { return .mismatch("a quiet VICC answers an inventory") }
            if !request.crcStripped && CRC.check(.b, answer.bytes) != .ok { return .mismatch("the answer's CRC is wrong") }
            let body = request.crcStripped ? answer.bytes : Array(answer.bytes.dropLast(2))
            guard let decoded = try? ISO15693Request.decode(payload) else {
                return .expect(body == [0x01, 0x02] || body == [0x01, 0x0F], "a request that does not decode gets no format error — \(Hex.string(body))")
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
            guard CRC.check(.felica, answer.bytes) == .ok else { return .mismatch("the answer's CRC_F is wrong") }
            guard let command = try? FeliCaCommand.decode(payload) else { return .ok }
            do {
                _ = try FeliCaResponse.decode(Array(answer.bytes.dropLast(2)), answering: command)
                return .ok
            } catch {
                return .mismatch("an answer does not decode against its command — \(command.code.name): \(error)")
            }
        case .iso14443a, .iso14443b:
            // 4-bit ACK/NAK and the activation answers (ATQA, UID CLn) carry no CRC.
            guard answer.lastByteBits == 8, answer.bytes.count > 2, !request.crcStripped, requestCRC,
                  let command = try? Type2Command.decode(payload) else { return .ok }
            guard CRC.check(.a, answer.bytes) == .ok else { return .mismatch("an answer has a wrong CRC_A — \(command.summary)") }
            do {
                _ = try Type2Response.decode(Array(answer.bytes.dropLast(2)), answering: command)
                return .ok
            } catch {
                return .mismatch("an answer does not decode against its command — \(command.summary): \(error)")
            }
        }
    }
}
