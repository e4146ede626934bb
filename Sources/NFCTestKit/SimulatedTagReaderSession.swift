import Foundation
import NFCCapture
import NFCCore
import NFCEmulator

/// `NFCTagReaderSession` in software: discovery as Core NFC does it on air (REQA, anticollision,
/// SELECT, GET_VERSION on Type 2 tags, RATS and the Info.plist AIDs on ISO-DEP cards; Polling for
/// the Info.plist system codes; Inventory), delegate calls on the session's queue, Core NFC's
/// time limits on a simulated clock, and every frame recorded: `frames`, and the file
/// `traceURL` names when the session ends.
public final class SimulatedTagReaderSession: NFCTagReaderSession {
    /// The technologies the session polls for, as Core NFC's `pollingOption`.
    public let pollingOption: PollingOption
    /// The app's delegate; held weakly, as Core NFC holds it.
    public weak var delegate: NFCTagReaderSessionDelegate?
    /// Where delegate calls and completion handlers run.
    public let queue: DispatchQueue
    /// The text Core NFC's scanning sheet would show; kept for tests to check.
    public var alertMessage = ""
    /// Whether the session has begun and not been invalidated.
    public private(set) var isReady = false
    /// The Info.plist lists discovery honours: FeliCa system codes to poll, AIDs to select.
    public let entitlements: ReaderEntitlements
    /// The time limits applied to the simulated clock.
    public let limits: SimulatedLimits
    /// Written (as a text trace) when the session ends, so a failing test leaves a trace to dissect.
    public var traceURL: URL?
    /// Why the session ended, once it has.
    public private(set) var invalidationError: NFCReaderError?
    /// The message the app gave `invalidate(errorMessage:)`.
    public private(set) var invalidationMessage: String?

    let air: SimulatedAir?
    private var began = false
    private var detected: SimulatedTag?
    private(set) var connectedObject: SimulatedTag?
    private var connectedAt: Int64 = 0
    /// The app's last command got a NAK or silence: a Type 2 tag is back in IDLE then.
    var lastAnswerFailed = false
    /// Discovery's own exchanges do not count for the fault rules.
    private(set) var discovering = false

    /// - Parameters:
    ///   - tag: the tag in the field (nil: an empty field, the session times out).
    ///   - queue: where delegate calls and completion handlers run; nil gives a private serial
    ///     queue (Core NFC uses the main queue; tests rarely want that).
    public init(pollingOption: PollingOption, delegate: NFCTagReaderSessionDelegate, queue: DispatchQueue? = nil,
                tag: EmulatedTag?, entitlements: ReaderEntitlements = ReaderEntitlements(),
                limits: SimulatedLimits = SimulatedLimits(), removal: TagRemoval = .never, traceURL: URL? = nil) {
        self.pollingOption = pollingOption
        self.delegate = delegate
        self.queue = queue ?? DispatchQueue(label: "NFCTestKit.session")
        self.entitlements = entitlements
        self.limits = limits
        self.traceURL = traceURL
        air = tag.map { SimulatedAir(tag: $0, removal: removal) }
    }

    /// Every frame so far, both ways, with field events.
    public var frames: [Frame] { air?.frames ?? [] }

    /// The tag the app connected to, nil before `connect(to:)` and after `restartPolling()`.
    public var connectedTag: NFCTag? { connectedObject.map(Self.wrap) }

    static func wrap(_ tag: SimulatedTag) -> NFCTag {
        switch tag {
        case let t as SimulatedFeliCaTag: return .feliCa(t)
        case let t as SimulatedISO15693Tag: return .iso15693(t)
        case let t as SimulatedISO7816Tag: return .iso7816(t)
        default: return .miFare(tag as! SimulatedMiFareTag)
        }
    }

    // MARK: Session

    /// Starts the session on its queue: the delegate is told it is active, then the field is polled
    /// as Core NFC would.
    public func begin() {
        queue.async { [self] in
            guard !began else { return }
            began = true
            isReady = true
            delegate?.tagReaderSessionDidBecomeActive(self)
            poll()
        }
    }

    /// Ends the session as the app does; the delegate gets
    /// `readerSessionInvalidationErrorUserCanceled`.
    public func invalidate() { invalidate(errorMessage: "") }

    /// Core NFC reports an app's own invalidation to the delegate as "user canceled" (200).
    public func invalidate(errorMessage: String) {
        queue.async { [self] in
            invalidationMessage = errorMessage.isEmpty ? nil : errorMessage
            end(NFCReaderError(.readerSessionInvalidationErrorUserCanceled, message: "the session was invalidated"))
        }
    }

    /// The user taps Cancel on the NFC sheet.
    public func cancelByUser() {
        queue.async { [self] in end(NFCReaderError(.readerSessionInvalidationErrorUserCanceled, message: "the user canceled")) }
    }

    /// Simulated time passes (the user waits, the app works): the limits apply to it.
    public func advanceClock(seconds: Double) { air?.advance(seconds: seconds) }

    /// Drops the detected tag, turns the field off and polls again; the delegate gets the tags
    /// found anew.
    public func restartPolling() {
        queue.async { [self] in
            guard isReady else { return }
            connectedObject = nil
            detected = nil
            air?.fieldOff()
            poll()
        }
    }

    /// Connects to `tag`, the one discovery handed the delegate; fails when the session is over or
    /// the tag has left the field.
    public func connect(to tag: NFCTag) async throws {
        guard isReady else { throw NFCReaderError(.readerTransceiveErrorSessionInvalidated, message: "the session was invalidated") }
        guard let object = tag.base as? SimulatedTag, object === detected else {
            throw NFCReaderError(.readerErrorInvalidParameter, message: "not a tag this session detected")
        }
        guard object.air.present else { throw NFCReaderError(.readerTransceiveErrorTagConnectionLost, message: "the tag left the field") }
        connectedObject = object
        connectedAt = object.air.clock
    }

    /// Completion-handler form of `connect(to:)`: the handler runs on the session's queue with nil
    /// or the error.
    public func connect(to tag: NFCTag, completionHandler: @escaping (Error?) -> Void) {
        let queue = self.queue
        let box = Delivered(value: (tag, completionHandler))
        Task {
            var failure: Error? = nil
            do { try await self.connect(to: box.value.0) } catch { failure = error }
            let result = Delivered(value: failure)
            queue.async { box.value.1(result.value) }
        }
    }

    private func end(_ error: NFCReaderError) {
        guard began, isReady || invalidationError == nil else { return }
        isReady = false
        invalidationError = error
        if let air {
            // A 14443-A tag still active is halted before the field goes, as Core NFC does;
            // one that just NAKed is back in IDLE and gets no HLTA.
            if air.technology == .iso14443a, let tag = connectedObject, air.present, !lastAnswerFailed {
                // An ISO-DEP card is left with S(DESELECT), a Type 2 tag with HLTA.
                let isoDEP = (tag as? SimulatedMiFareTag)?.isoDEP != nil || tag is SimulatedISO7816Tag
                let goodbye = isoDEP ? ISODEPReaderLink.deselect : ISO14443ACommand.hlta.encode().bytes
                _ = try? air.transceive(goodbye, fromApp: false)
            }
            air.fieldOff()
        }
        connectedObject = nil
        writeTrace()
        delegate?.tagReaderSession(self, didInvalidateWithError: error)
    }

    /// Called by the tags before each command: the session's and the connection's time left.
    func checkTime() throws {
        guard let air else { return }
        if Double(air.clock) / 1e6 > limits.session {
            queue.async { [self] in end(NFCReaderError(.readerSessionInvalidationErrorSessionTimeout, message: "the session's \(limits.session) s are over")) }
            isReady = false
            throw NFCReaderError(.readerTransceiveErrorSessionInvalidated, message: "the session timed out")
        }
        if let limit = limits.connection, Double(air.clock - connectedAt) / 1e6 > limit {
            throw NFCReaderError(.readerTransceiveErrorTagConnectionLost, message: "the connection's \(limit) s are over")
        }
    }

    private func writeTrace() {
        guard let traceURL, let air else { return }
        var metadata = TraceMetadata()
        metadata["source"] = "NFCTestKit simulated Core NFC session"
        metadata["tech"] = air.technology.rawValue
        do {
            let writer = try Capture.create(traceURL.path, format: .nfctrace, metadata: metadata)
            for f in air.frames { try writer.write(f) }
            try writer.finish()
        } catch {
            // The trace is a by-product: a test must not fail because its directory is read-only.
        }
    }

    // MARK: Discovery

    private func poll() {
        guard let air, isReady else { return }
        air.fieldOn()
        if air.present, let tag = discover(air) {
            detected = tag
            delegate?.tagReaderSession(self, didDetect: [Self.wrap(tag)])
            return
        }
        // Nothing Core NFC would report: the sheet stays up until the session's time is over.
        air.advance(seconds: max(0, limits.session - Double(air.clock) / 1e6))
        end(NFCReaderError(.readerSessionInvalidationErrorSessionTimeout, message: "no tag this session can read was found"))
    }

    private func discover(_ air: SimulatedAir) -> SimulatedTag? {
        switch air.technology {
        case .iso14443a where pollingOption.contains(.iso14443): return discover14443A(air)
        case .felica where pollingOption.contains(.iso18092): return discoverFeliCa(air)
        case .iso15693 where pollingOption.contains(.iso15693): return discover15693(air)
        default: return nil
        }
    }

    private func activate14443A(_ air: SimulatedAir) -> ISO14443AActivation? {
        ReaderActivation.activate14443A { payload, bits, crc, answerCRC in
            try? air.transceive(payload, bits: bits, crc: crc, answerCRC: answerCRC, fromApp: false)
        }
    }

    private func discover14443A(_ air: SimulatedAir) -> SimulatedTag? {
        guard var activation = activate14443A(air) else { return nil }
        // Core NFC does not read MIFARE Classic: such cards are never reported.
        if activation.sak.isMIFAREClassic && !activation.sak.supportsISODEP { return nil }
        if !activation.sak.supportsISODEP {
            // GET_VERSION tells the Ultralight family; a tag that NAKs it is back in IDLE and
            // is activated again.
            let version = try? air.transceive(Type2Command.getVersion.encode(), fromApp: false)
            if version?.lastByteBits != 8 {
                guard let again = activate14443A(air) else { return nil }
                activation = again
            } else {
                activation.version = version?.bytes
            }
            return SimulatedMiFareTag(session: self, air: air, activation: activation, family: .ultralight)
        }
        guard let ats = ReaderActivation.requestATS({ payload, bits, crc, answerCRC in
            try? air.transceive(payload, bits: bits, crc: crc, answerCRC: answerCRC, fromApp: false)
        }) else { return nil }
        activation.ats = ats
        var link = ISODEPLink(frameSize: activation.frameSize)
        let probe = SimulatedMiFareTag(session: self, air: air, activation: activation, family: .unknown)
        for aid in entitlements.aids {
            let select = NFCISO7816APDU(instructionClass: 0x00, instructionCode: ISO7816Instruction.select, p1Parameter: 0x04,
                                        p2Parameter: 0x00, data: Data(aid), expectedResponseLength: 256)
            guard let answer = try? discoveryExchange(&link, select.command.encode(), probe, air),
                  let response = try? ResponseAPDU.decode(answer) else { continue }
            if response.status == .success {
                return SimulatedISO7816Tag(session: self, air: air, activation: activation, link: link, aid: Hex.string(aid, separator: ""))
            }
        }
        let family: NFCMiFareFamily = activation.atqa.value == 0x0344 ? .desfire
            : (activation.atqa.value == 0x0004 || activation.atqa.value == 0x0044 || activation.atqa.value == 0x0042) ? .plus : .unknown
        let tag = SimulatedMiFareTag(session: self, air: air, activation: activation, family: family)
        tag.isoDEP = link
        return tag
    }

    /// An ISO-DEP exchange during discovery: the probe tag is not connected, so the link talks
    /// to the air directly.
    private func discoveryExchange(_ link: inout ISODEPLink, _ inf: [UInt8], _ probe: SimulatedTag, _ air: SimulatedAir) throws -> [UInt8] {
        let saved = connectedObject
        connectedObject = probe
        discovering = true
        defer {
            connectedObject = saved
            discovering = false
        }
        return try link.exchange(inf, with: probe)
    }

    private func discoverFeliCa(_ air: SimulatedAir) -> SimulatedTag? {
        for code in entitlements.systemCodes {
            let command = FeliCaCommand.polling(systemCode: code, requestCode: UInt8(PollingRequestCode.systemCode.rawValue),
                                                timeSlots: UInt8(PollingTimeSlot.max1.rawValue))
            guard let answer = try? air.transceive(command.encode(), fromApp: false),
                  case .polling(let idm, _, let requestData)? = try? FeliCaResponse.decode(answer.bytes, answering: command) else { continue }
            return SimulatedFeliCaTag(session: self, air: air, idm: idm, systemCode: requestData ?? code)
        }
        return nil
    }

    private func discover15693(_ air: SimulatedAir) -> SimulatedTag? {
        let inventory = ReaderActivation.inventory15693
        guard let answer = try? air.transceive(inventory.encode(), fromApp: false),
              let response = try? ISO15693Response.decode(answer.bytes, answering: inventory),
              case .inventory(_, let uid) = response.body else { return nil }
        return SimulatedISO15693Tag(session: self, air: air, uid: uid)
    }
}
