/// HID Seos as far as it is public (the Proxmark3's `hf seos` client, which reads it): its
/// applications, the proprietary SELECT ADF and SELECT GDF, and the ISO commands it sends under
/// secure messaging (GENERAL AUTHENTICATE, GET DATA odd INS), whose content stays encrypted.
public enum Seos {
    public static let applications: [([UInt8], String)] = [
        ([0xA0, 0x00, 0x00, 0x04, 0x40, 0x00, 0x01, 0x01, 0x00, 0x01], "HID Seos"),
        ([0xA0, 0x00, 0x00, 0x03, 0x82, 0x00, 0x2D, 0x00, 0x01, 0x01], "HID Seos mobile admin"),
    ]

    public static func application(_ aid: [UInt8]) -> String? { applications.first { aid.starts(with: $0.0) }?.1 }

    /// Instructions of Seos's own (CLA 80 / 00 INS A5), named when a Seos application is selected.
    public static func instructionName(cla: UInt8, ins: UInt8) -> String? {
        switch (cla, ins) {
        case (0x80, 0xA5): return "SELECT ADF (Seos)"
        case (0x00, 0xA5): return "SELECT GDF (Seos)"
        default: return nil
        }
    }
}

/// Applications named by their AID: the EMV schemes, then the others nfctrace knows.
public enum KnownApplications {
    public static func name(_ aid: [UInt8]) -> String? { EMV.scheme(aid) ?? Seos.application(aid) }
}
