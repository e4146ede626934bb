/// The fields of NTAG / MIFARE Ultralight commands (`ntag.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields ntag`).
public final class NTAGFields: FieldTable {
    public var name: String { "ntag" }
    public var title: String { "NTAG / MIFARE Ultralight commands" }

    public let ack = FieldSpec("ntag.ack", "ACK", .text, layout: Type2Response.Layout.acknowledgement)
    public let address = FieldSpec("ntag.address", "Address", .byte, layout: Type2Command.Layout.signatureAddress)
    public let authCipher = FieldSpec("ntag.auth_cipher", "Cipher", .text)
    public let authData = FieldSpec("ntag.auth_data", "ek(RndA ‖ RndB')", .hex)
    public let authKey = FieldSpec("ntag.auth_key", "Key", .hex)
    public let cmac = FieldSpec("ntag.cmac", "CMAC", .hex)
    public let command = FieldSpec("ntag.command", "Command", .code, layout: Type2Command.Layout.code,
                                    values: FieldSpec.names(Type2Command.Code.self, \.name))
    public let counter = FieldSpec("ntag.counter", "Counter value", .text, layout: Type2Response.Layout.counter)
    public let counterNumber = FieldSpec("ntag.counter_number", "Counter", .text, layout: Type2Command.Layout.counter)
    public let crc = FieldSpec("ntag.crc", "CRC", .hex)
    public let data = FieldSpec("ntag.data", "Data", .hex)
    public let endPage = FieldSpec("ntag.end_page", "End page", .byte, layout: Type2Command.Layout.endPage)
    public let ignored = FieldSpec("ntag.ignored", "Ignored byte", .byte, layout: Type2Command.Layout.ignored)
    public let iid = FieldSpec("ntag.iid", "Installation identifier", .hex, layout: Type2Command.Layout.installationIdentifier)
    public let increment = FieldSpec("ntag.increment", "Increment", .text, layout: Type2Command.Layout.increment)
    public let keyNumber = FieldSpec("ntag.key_number", "Key number", .text, layout: Type2Command.Layout.keyNumber)
    public let lockArgument = FieldSpec("ntag.lock_argument", "Argument", .byte, layout: Type2Command.Layout.lockArgument)
    public let model = FieldSpec("ntag.model", "Model", .text)
    public let nak = FieldSpec("ntag.nak", "NAK", .text, layout: Type2Response.Layout.acknowledgement)
    public let pack = FieldSpec("ntag.pack", "PACK", .hex, layout: Type2Response.Layout.pack)
    public let padding = FieldSpec("ntag.padding", "Ignored", .hex, layout: Type2Command.Layout.compatibilityPadding)
    public let page = FieldSpec("ntag.page", "Page", .byte, layout: Type2Command.Layout.page)
    public let pageData = FieldSpec("ntag.page_data", "Page data", .hex)
    public let pcdCaps = FieldSpec("ntag.pcd_caps", "PCD capabilities", .hex, layout: Type2Command.Layout.pcdCapabilities)
    public let pwd = FieldSpec("ntag.pwd", "Password", .hex, layout: Type2Command.Layout.password)
    public let rndA = FieldSpec("ntag.rnd_a", "RndA", .hex)
    public let rndARotated = FieldSpec("ntag.rnd_a_rotated", "RndA′", .hex)
    public let rndB = FieldSpec("ntag.rnd_b", "RndB (from ek(RndB))", .hex)
    public let sector = FieldSpec("ntag.sector", "Sector", .text, layout: Type2Command.Layout.sector)
    public let signature = FieldSpec("ntag.signature", "Originality signature", .hex)
    public let signatureBlock = FieldSpec("ntag.signature_block", "Signature block", .text, layout: Type2Command.Layout.signatureBlock)
    public let startPage = FieldSpec("ntag.start_page", "Start page", .byte, layout: Type2Command.Layout.startPage)
    public let tearingFlag = FieldSpec("ntag.tearing_flag", "Tearing flag", .byte, layout: Type2Response.Layout.tearingFlag)
    public let vctid = FieldSpec("ntag.vctid", "VCTID", .byte, layout: Type2Response.Layout.vctid)
    public let version = FieldSpec("ntag.version", "Version", .hex, layout: Type2Version.Layout.all)
    public let versionHeader = FieldSpec("ntag.version.header", "Fixed header", .byte, layout: Type2Version.Layout.fixedHeader)
    public let versionMajor = FieldSpec("ntag.version.major", "Major version", .byte, layout: Type2Version.Layout.majorVersion)
    public let versionMinor = FieldSpec("ntag.version.minor", "Minor version", .byte, layout: Type2Version.Layout.minorVersion)
    public let versionProtocol = FieldSpec("ntag.version.protocol", "Protocol", .byte, layout: Type2Version.Layout.protocolType)
    public let versionStorage = FieldSpec("ntag.version.storage", "Storage size", .byte, layout: Type2Version.Layout.storageSize)
    public let versionSubtype = FieldSpec("ntag.version.subtype", "Product subtype", .byte, layout: Type2Version.Layout.productSubtype)
    public let versionType = FieldSpec("ntag.version.type", "Product type", .byte, layout: Type2Version.Layout.productType)
    public let versionVendor = FieldSpec("ntag.version.vendor", "Vendor", .byte, layout: Type2Version.Layout.vendor)
}

extension FieldSpec {
    /// `ntag.*`
    public static let ntag = NTAGFields()
}
