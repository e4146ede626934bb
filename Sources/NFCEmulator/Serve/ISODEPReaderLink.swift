import NFCCore

/// Why an ISO-DEP exchange failed on the reader's side.
public struct ISODEPLinkError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The reader's ISO-DEP block protocol (ISO/IEC 14443-4): I-blocks with the block number
/// toggled, commands chained when they do not fit the tag's frame size, the tag's chaining
/// acknowledged with R(ACK), its WTX requests granted.
public struct ISODEPReaderLink: Sendable {
    public var blockNumber: UInt8 = 0
    /// The largest frame the tag accepts (FSC), CRC included.
    public var frameSize: Int

    public init(frameSize: Int) { self.frameSize = frameSize }

    /// One block out, the tag's block back (CRC handled by `send`).
    public typealias SendBlock = ([UInt8]) throws -> [UInt8]

    /// A whole INF (an APDU, a native command) out, the whole answer back.
    public mutating func exchange(_ inf: [UInt8], send: SendBlock) throws -> [UInt8] {
        let room = max(1, frameSize - 3)
        var rest = inf[...]
        var answer: ISODEPFrame
        repeat {
            let part = Array(rest.prefix(room))
            rest = rest.dropFirst(part.count)
            answer = try block(ISODEPFrame(.i(chaining: !rest.isEmpty, cidFollows: false, nadFollows: false, blockNumber: blockNumber), inf: part), send)
            if !rest.isEmpty {
                guard case .r(false, _, _) = answer.block else { throw ISODEPLinkError("the tag did not acknowledge a chained block") }
                blockNumber ^= 1
            }
        } while !rest.isEmpty
        var out: [UInt8] = []
        while true {
            guard case .i(let chaining, _, _, _) = answer.block else { throw ISODEPLinkError("the tag answered with no I-block") }
            out += answer.inf
            blockNumber ^= 1
            guard chaining else { return out }
            answer = try block(ISODEPFrame(.r(nak: false, cidFollows: false, blockNumber: blockNumber)), send)
        }
    }

    /// Sends one block; answers the tag's WTX requests until it answers for real.
    private func block(_ frame: ISODEPFrame, _ send: SendBlock) throws -> ISODEPFrame {
        var reply = try Self.decode(send(frame.encode()))
        while case .s(.wtx, _) = reply.block {
            reply = try Self.decode(send(ISODEPFrame(.s(kind: .wtx, cidFollows: false), inf: reply.inf).encode()))
        }
        return reply
    }

    static func decode(_ bytes: [UInt8]) throws -> ISODEPFrame {
        do { return try ISODEPFrame.decode(bytes) } catch { throw ISODEPLinkError("the tag's block is malformed: \(error)") }
    }

    /// The S(DESELECT) a reader ends an ISO-DEP session with.
    public static var deselect: [UInt8] { ISODEPFrame(.s(kind: .deselect, cidFollows: false)).encode() }
}
