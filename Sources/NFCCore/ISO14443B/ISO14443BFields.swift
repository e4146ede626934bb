/// The fields of ISO 14443-3B (`iso14443b.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields iso14443b`).
public final class ISO14443BFields: FieldTable {
    public var name: String { "iso14443b" }
    public var title: String { "ISO 14443-3B" }

    public let adc = FieldSpec("iso14443b.adc", "ADC", .text)
    public let afi = FieldSpec("iso14443b.afi", "AFI", .hex)
    public let aidCrc = FieldSpec("iso14443b.aid_crc", "CRC_B(AID)", .hex)
    public let applications = FieldSpec("iso14443b.applications", "Applications", .text)
    public let atqb = FieldSpec("iso14443b.atqb", "ATQB", .text)
    public let attribCid = FieldSpec("iso14443b.attrib.cid", "CID", .text)
    public let attribEof = FieldSpec("iso14443b.attrib.eof", "EOF", .text)
    public let attribFsd = FieldSpec("iso14443b.attrib.fsd", "Reader frame size (FSD)", .text)
    public let attribInf = FieldSpec("iso14443b.attrib.inf", "Higher-layer INF", .hex)
    public let attribProtocolType = FieldSpec("iso14443b.attrib.protocol_type", "Protocol type", .text)
    public let attribRateReaderToTag = FieldSpec("iso14443b.attrib.rate_reader_to_tag", "Reader → card rate", .text)
    public let attribRateTagToReader = FieldSpec("iso14443b.attrib.rate_tag_to_reader", "Card → reader rate", .text)
    public let attribSof = FieldSpec("iso14443b.attrib.sof", "SOF", .text)
    public let attribTr0 = FieldSpec("iso14443b.attrib.tr0", "Minimum TR0", .text)
    public let attribTr1 = FieldSpec("iso14443b.attrib.tr1", "Minimum TR1", .text)
    public let attribAnswerInf = FieldSpec("iso14443b.attrib_answer.inf", "Higher-layer answer", .hex)
    public let bitRates = FieldSpec("iso14443b.bit_rates", "Bit rates", .text)
    public let cid = FieldSpec("iso14443b.cid", "CID", .text)
    public let command = FieldSpec("iso14443b.command", "Command", .text)
    public let crc = FieldSpec("iso14443b.crc", "CRC", .hex)
    public let data = FieldSpec("iso14443b.data", "Data", .hex)
    public let extendedAtqb = FieldSpec("iso14443b.extended_atqb", "Extended ATQB", .text)
    public let fo = FieldSpec("iso14443b.fo", "NAD / CID", .text)
    public let fsc = FieldSpec("iso14443b.fsc", "Card frame size (FSC)", .text)
    public let fwi = FieldSpec("iso14443b.fwi", "FWI", .text)
    public let haltAnswer = FieldSpec("iso14443b.halt_answer", "Answer", .text)
    public let mbli = FieldSpec("iso14443b.mbli", "MBLI", .text)
    public let proprietaryCommand = FieldSpec("iso14443b.proprietary.command", "Command", .text, layout: ISO14443BCommand.Layout.code)
    public let proprietaryData = FieldSpec("iso14443b.proprietary.data", "Data", .hex)
    public let protocolType = FieldSpec("iso14443b.protocol_type", "Protocol type", .text)
    public let pupi = FieldSpec("iso14443b.pupi", "PUPI", .hex)
    public let sfgi = FieldSpec("iso14443b.sfgi", "SFGI", .text)
    public let slot = FieldSpec("iso14443b.slot", "Slot", .text)
    public let slots = FieldSpec("iso14443b.slots", "Slots (N)", .text)
}

extension FieldSpec {
    /// `iso14443b.*`
    public static let iso14443b = ISO14443BFields()
}
