import Foundation
import NFCCore
import NFCEmulator

/// An ISO-DEP card one of the app's Info.plist AIDs selected during discovery, as Core NFC
/// hands it to the app as `NFCISO7816Tag`.
public final class SimulatedISO7816Tag: SimulatedTag, NFCISO7816Tag {
    /// The Info.plist AID the card answered SELECT for during discovery, as upper-case hex.
    public let initialSelectedAID: String
    /// The card's UID from ISO 14443-3 anticollision.
    public let identifier: Data
    /// The historical bytes of the card's ATS (ISO 14443-4), nil when there are none.
    public let historicalBytes: Data?
    /// 14443-B application data: none on the 14443-A cards the kit simulates.
    public let applicationData: Data? = nil
    /// Whether the ATQB's application data is coded in a proprietary way: false, the kit simulates
    /// 14443-A cards only.
    public let proprietaryApplicationDataCoding = false
    var link: ISODEPLink

    init(session: SimulatedTagReaderSession, air: SimulatedAir, activation: ISO14443AActivation, link: ISODEPLink, aid: String) {
        identifier = Data(activation.uid)
        historicalBytes = activation.ats.map { Data($0.historicalBytes) }
        initialSelectedAID = aid
        self.link = link
        super.init(session: session, air: air)
    }

    /// One ISO 7816-4 command APDU over ISO-DEP (ISO/IEC 14443-4), chaining and WTX handled by the
    /// link: the response data, SW1 and SW2.
    public func sendCommand(apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8) { try self.apdu(apdu) }

    func apdu(_ apdu: NFCISO7816APDU) throws -> (Data, UInt8, UInt8) {
        try ready()
        return try link.send(apdu, with: self)
    }

    /// The NFC Forum Type 4 status: NDEF application and CC file selected and read (write access
    /// byte, maximum NDEF file size).
    public func queryNDEFStatus() async throws -> (NFCNDEFStatus, Int) { try Type4NDEF(tag: self).status() }
    /// The NDEF message of the Type 4 NDEF file: NLEN, then the message, in READ BINARY steps no
    /// longer than the CC's MLe.
    public func readNDEF() async throws -> NFCNDEFMessage { try Type4NDEF(tag: self).read() }
    /// Writes `ndefMessage` by the Type 4 procedure: NLEN 0, the message in UPDATE BINARY steps no
    /// longer than MLc, then the real NLEN.
    public func writeNDEF(_ ndefMessage: NFCNDEFMessage) async throws { try Type4NDEF(tag: self).write(ndefMessage) }
    /// Not simulated for ISO 7816 tags (the NFC Forum has no lock procedure for them): throws
    /// `readerErrorUnsupportedFeature`.
    public func writeLock() async throws {
        throw NFCReaderError(.readerErrorUnsupportedFeature, message: "writeLock is not simulated for ISO 7816 tags")
    }
}
