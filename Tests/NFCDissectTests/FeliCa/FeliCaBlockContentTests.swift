import Testing
import NFCCore
@testable import NFCDissect

/// Which blocks are read as Type 3 Tag data or CJRC history depends on the service and the
/// system; both NDEF services need a Type 3 system (or an unnamed one).
@Suite struct FeliCaBlockContentTests {
    @Test func ndefServicesMeanType3DataOnlyInType3Systems() {
        for service in [FeliCaServiceCode.ndefRead, .ndefWrite] {
            #expect(FeliCaBlockContent.kind(service: service, systemCode: nil, family: nil) == .type3(lite: false))
            #expect(FeliCaBlockContent.kind(service: service, systemCode: FeliCaSystemCode.nfcForumType3, family: nil) == .type3(lite: false))
            #expect(FeliCaBlockContent.kind(service: service, systemCode: FeliCaSystemCode.feliCaLite, family: nil) == .type3(lite: true))
            #expect(FeliCaBlockContent.kind(service: service, systemCode: 0xFE00, family: nil) == .plain)
            #expect(FeliCaBlockContent.kind(service: service, systemCode: FeliCaSystemCode.cjrc, family: nil) == .plain)
        }
    }

    @Test func historyOnlyInTheCJRCSystem() {
        #expect(FeliCaBlockContent.kind(service: .cjrcHistory, systemCode: nil, family: nil) == .history)
        #expect(FeliCaBlockContent.kind(service: .cjrcHistory, systemCode: FeliCaSystemCode.cjrc, family: nil) == .history)
        #expect(FeliCaBlockContent.kind(service: .cjrcHistory, systemCode: 0xFE00, family: nil) == .plain)
    }
}
