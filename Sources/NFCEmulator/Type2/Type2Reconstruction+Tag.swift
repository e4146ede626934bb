import NFCCore

extension Type2Dump {
    /// The tag a trace's dissection reconstructed (`emulate --from-trace`): factory state of the
    /// model, overlaid with every page the reader read or wrote, the password of a successful
    /// PWD_AUTH and the PACK it got back. PWD and PACK pages as read are zeros and are not taken.
    public init(reconstruction: Type2Reconstruction) {
        var notes: [String] = []
        let model: Type2TagModel
        if let m = reconstruction.model {
            model = m
        } else if let kind = reconstruction.ultralightExchanges.first?.kind {
            // Only an Ultralight C answers AUTHENTICATE with 8 bytes, an Ultralight AES with 16.
            model = kind == .tripleDES ? .ultralightC : .ultralightAES
            notes.append("the trace has no GET_VERSION; its \(kind.name) AUTHENTICATE makes it a \(model.rawValue)")
        } else {
            // No GET_VERSION in the trace: the smallest NTAG that holds every page the reader touched.
            let highest = reconstruction.memory.knownPages.last ?? 0
            model = [Type2TagModel.ntag213, .ntag215, .ntag216].first { $0.memoryMap.lastPage >= highest } ?? .ntag216
            notes.append("the trace has no GET_VERSION; emulating an \(model.rawValue), the smallest NTAG that holds page \(Hex.byte(UInt8(highest)))")
        }
        var memory = Type2TagMemory.factory(model, uid: reconstruction.uid.count == 7 ? reconstruction.uid : [0x04, 0, 0, 0, 0, 0, 0])
        let map = model.memoryMap
        for p in reconstruction.memory.knownPages where p < map.totalPages && p != map.pwdPage && p != map.packPage {
            memory.setPage(p, Array(reconstruction.memory.pageSlice(p)))
        }
        if let pwd = reconstruction.password, let page = map.pwdPage { memory.setPage(page, pwd) }
        if let pack = reconstruction.pack, let page = map.packPage { memory.setPage(page, pack + [0, 0]) }
        if reconstruction.password == nil, let config = memory.configuration, Int(config.auth0) <= map.lastPage {
            notes.append("the tag is password protected from page \(Hex.byte(config.auth0)) but the trace shows no successful PWD_AUTH; PWD stays FF FF FF FF")
        }
        if !reconstruction.ultralightExchanges.isEmpty {
            memory.recordedChallenges = reconstruction.ultralightExchanges
            if let key = reconstruction.ultralightKey {
                if model == .ultralightC {
                    memory.setUltralightCKey(key)
                } else if let n = reconstruction.ultralightExchanges.first.map({ Int($0.keyNumber) }), n < memory.aesKeys.count {
                    memory.aesKeys[n] = key
                }
            } else {
                notes.append("the key of the trace's AUTHENTICATE is not known: the tag answers with the recorded challenges and accepts only the recorded reader answers")
            }
        }
        if let v = reconstruction.version { memory.version = v }
        if let s = reconstruction.signature { memory.signature = s }
        for (n, v) in reconstruction.counters where n >= 0 && n < 3 { memory.counters[n] = v }
        self.init(memory: memory, atqa: ATQA(value: reconstruction.atqa ?? 0x0044), sak: SAK(reconstruction.sak ?? 0x00), notes: notes)
    }
}
