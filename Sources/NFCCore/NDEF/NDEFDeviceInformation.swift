/// The Device Information payload (`urn:nfc:wkt:Di`, Device Information RTD 1.0): a list of
/// 1-byte type, 1-byte length data elements.
public struct NDEFDeviceInformation: Sendable, Hashable {
    public struct Element: Sendable, Hashable {
        public var type: UInt8
        public var value: [UInt8]
        /// Where the element (type, length, value) lies in the payload.
        public var range: Range<Int>

        public init(type: UInt8, value: [UInt8], range: Range<Int> = 0..<0) {
            self.type = type
            self.value = value
            self.range = range
        }

        /// Device Information RTD Table 2.
        public var name: String {
            switch type {
            case 0: return "manufacturer name"
            case 1: return "model name"
            case 2: return "device unique name"
            case 3: return "UUID"
            case 4: return "firmware version"
            default: return "reserved element \(Hex.byte(type))"
            }
        }
    }

    public var elements: [Element]

    public init(elements: [Element]) { self.elements = elements }

    /// A record with the required manufacturer and model name and any of the optional fields.
    public init(manufacturer: String, model: String, uniqueName: String? = nil, uuid: [UInt8]? = nil,
                firmwareVersion: String? = nil) {
        var e = [Element(type: 0, value: Array(manufacturer.utf8)), Element(type: 1, value: Array(model.utf8))]
        if let uniqueName { e.append(Element(type: 2, value: Array(uniqueName.utf8))) }
        if let uuid { e.append(Element(type: 3, value: uuid)) }
        if let firmwareVersion { e.append(Element(type: 4, value: Array(firmwareVersion.utf8))) }
        elements = e
    }

    /// The last element of `type` wins, as in ndeflib.
    private func text(_ type: UInt8) -> String? {
        elements.last(where: { $0.type == type }).map { String(decoding: $0.value, as: UTF8.self) }
    }

    public var manufacturer: String? { text(0) }
    public var model: String? { text(1) }
    public var uniqueName: String? { text(2) }
    public var uuid: [UInt8]? { elements.last(where: { $0.type == 3 })?.value }
    public var firmwareVersion: String? { text(4) }

    /// 8-4-4-4-12 hex digits.
    public var uuidText: String? {
        guard let u = uuid, u.count == 16 else { return nil }
        let h = Hex.string(u, separator: "")
        let c = Array(h)
        return [c[0..<8], c[8..<12], c[12..<16], c[16..<20], c[20..<32]].map { String($0) }.joined(separator: "-")
    }

    public func encode() throws(NDEFEncodingError) -> [UInt8] {
        var out: [UInt8] = []
        for e in elements {
            guard e.value.count <= 255 else { throw .fieldTooLong(field: e.name, length: e.value.count, maximum: 255) }
            out.append(e.type)
            out.append(UInt8(e.value.count))
            out.append(contentsOf: e.value)
        }
        return out
    }

    static func read(_ payload: [UInt8], issues: inout [NDEFIssue]) -> NDEFDeviceInformation? {
        var cursor = ByteCursor(payload)
        var elements: [Element] = []
        while !cursor.isAtEnd {
            let start = cursor.index
            do throws(DecodeError) {
                let type = try cursor.readUInt8("data element type")
                let length = Int(try cursor.readUInt8("data element length"))
                let value = try cursor.readBytes(length, "data element value of \(length) bytes")
                elements.append(Element(type: type, value: value, range: start..<cursor.index))
            } catch {
                issues.append(NDEFIssue(offset: error.offset, rule: .deviceInformationTruncated,
                                        message: "Device Information: \(error.description)"))
                return elements.isEmpty ? nil : NDEFDeviceInformation(elements: elements)
            }
        }
        for e in elements {
            switch e.type {
            case 0, 1, 2, 4:
                if case .failure(let bad) = UnicodeText.utf8(e.value, 0..<e.value.count) {
                    issues.append(NDEFIssue(offset: e.range.lowerBound + 2 + bad.offset, rule: .deviceInformationEncodingInvalid,
                                            message: "\(e.name) is not valid UTF-8"))
                }
            case 3 where e.value.count != 16:
                issues.append(NDEFIssue(offset: e.range.lowerBound + 1, rule: .deviceInformationUUIDLength,
                                        message: "UUID of \(e.value.count) bytes, needs 16"))
            default: break
            }
        }
        let info = NDEFDeviceInformation(elements: elements)
        // Device Information RTD §3: manufacturer and model name are required (and not empty).
        if (info.manufacturer ?? "").isEmpty || (info.model ?? "").isEmpty {
            issues.append(NDEFIssue(offset: payload.count, rule: .deviceInformationRequiredMissing,
                                    message: "manufacturer name and model name are required"))
        }
        return info
    }
}
