import NFCCore

/// What a session's headline says of the card behind ISO-DEP, over Type A or B: the family its
/// answers proved (a DESFire that answered DESFire statuses, a MIFARE Plus in SL3, a payment
/// card whose application was selected, a Seos), and what the session did with it.
enum ISODEPSummary {
    /// The family the answers proved, or nil when they proved none (the activation's guess stands).
    static func family(_ state: ISODEPState) -> String? {
        let app = state.application
        if state.mifarePlus { return "MIFARE Plus (SL3)" }
        if app.desfireAnswered { return app.desfireVersion ?? "MIFARE DESFire" }
        if let selected = app.selectedApplication {
            if let scheme = EMV.scheme(selected) { return "EMV payment card (\(scheme))" }
            if selected == EMV.ppse || selected == EMV.pse { return "EMV payment card" }
            if let seos = Seos.application(selected) { return seos }
        }
        return nil
    }

    /// The headline's parts after the family and UID: the DESFire application selected and the
    /// authentication that succeeded, the Type 4 NDEF application.
    static func parts(_ state: ISODEPState) -> [String] {
        let app = state.application
        var parts: [String] = []
        if let aid = app.desfireApplication {
            parts.append("application \(Hex.value(aid, digits: 6))" + (DESFire.knownApplications[aid].map { " (\($0))" } ?? ""))
        }
        if let auth = app.desfireAuthentication {
            parts.append("authenticated (\(DESFire.name(auth.code)), key \(auth.key))")
        }
        if app.type4 {
            let version = app.capabilityContainer?.versionText
            parts.append("NFC Forum Type 4 Tag" + (version.map { " (mapping \($0))" } ?? ""))
        }
        return parts
    }
}
