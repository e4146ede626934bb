/// Bluetooth out-of-band pairing data: `application/vnd.bluetooth.ep.oob` (BR/EDR: OOB length,
/// device address, EIR structures) and `application/vnd.bluetooth.le.oob` (LE: AD structures
/// only). Bluetooth Core Vol 3 Part C §8 (EIR/AD format); NFC Forum Bluetooth Secure Simple
/// Pairing Using NFC §3.
public struct NDEFBluetoothOOB: Sendable, Hashable {
    public enum Transport: String, Sendable, Hashable {
        case easyPairing = "Bluetooth BR/EDR (Easy Pairing)"
        case lowEnergy = "Bluetooth LE"
    }

    /// One EIR/AD structure: length byte, type byte, data.
    public struct Element: Sendable, Hashable {
        public var type: UInt8
        public var data: [UInt8]
        /// Where the structure (length byte to last data byte) lies in the payload.
        public var range: Range<Int>

        public init(type: UInt8, data: [UInt8], range: Range<Int> = 0..<0) {
            self.type = type
            self.data = data
            self.range = range
        }

        /// Bluetooth Assigned Numbers, "Common Data Types".
        public var name: String {
            switch type {
            case 0x01: return "Flags"
            case 0x02: return "Incomplete List of 16-bit Service Class UUIDs"
            case 0x03: return "Complete List of 16-bit Service Class UUIDs"
            case 0x04: return "Incomplete List of 32-bit Service Class UUIDs"
            case 0x05: return "Complete List of 32-bit Service Class UUIDs"
            case 0x06: return "Incomplete List of 128-bit Service Class UUIDs"
            case 0x07: return "Complete List of 128-bit Service Class UUIDs"
            case 0x08: return "Shortened Local Name"
            case 0x09: return "Complete Local Name"
            case 0x0D: return "Class of Device"
            case 0x0E: return "Simple Pairing Hash C-192"
            case 0x0F: return "Simple Pairing Randomizer R-192"
            case 0x10: return "Security Manager TK Value"
            case 0x11: return "Security Manager Out of Band Flags"
            case 0x19: return "Appearance"
            case 0x1B: return "LE Bluetooth Device Address"
            case 0x1C: return "LE Role"
            case 0x1D: return "Simple Pairing Hash C-256"
            case 0x1E: return "Simple Pairing Randomizer R-256"
            case 0x22: return "LE Secure Connections Confirmation Value"
            case 0x23: return "LE Secure Connections Random Value"
            case 0xFF: return "Manufacturer Specific Data"
            default: return "data type \(Hex.byte(type))"
            }
        }
    }

    public var transport: Transport
    /// BR/EDR only: the OOB data length field and the 6-byte device address as sent (LSB first).
    public var oobLength: UInt16?
    public var deviceAddress: [UInt8]?
    public var elements: [Element]

    public init(transport: Transport, deviceAddress: [UInt8]? = nil, elements: [Element]) {
        self.transport = transport
        self.deviceAddress = deviceAddress
        self.elements = elements
        if transport == .easyPairing {
            oobLength = UInt16(truncatingIfNeeded: 8 + elements.reduce(0) { $0 + 2 + $1.data.count })
        }
    }

    /// The LE Bluetooth Device Address element (AD type 1Bh, Bluetooth Core Supplement Part A
    /// §1.16): the 6-byte address, LSB first, then the address type (b0: random).
    public enum LEDeviceAddressLayout {
        public static let address = FieldLayout(0, 6, "LE device address (6 bytes)")
        public static let type = FieldLayout(6, 1, "LE address type")
    }

    /// `AA:BB:CC:DD:EE:FF`, most significant byte first (the field is sent LSB first).
    public static func addressText(_ lsbFirst: some Collection<UInt8>) -> String {
        Hex.string(lsbFirst.reversed(), separator: ":")
    }

    public var localName: String? {
        let e = elements.first(where: { $0.type == 0x09 }) ?? elements.first(where: { $0.type == 0x08 })
        return e.map { String(decoding: $0.data, as: UTF8.self) }
    }

    public func encode() throws(NDEFEncodingError) -> [UInt8] {
        var eir: [UInt8] = []
        for e in elements {
            guard e.data.count <= 254 else { throw .fieldTooLong(field: e.name, length: e.data.count, maximum: 254) }
            eir.append(UInt8(e.data.count + 1))
            eir.append(e.type)
            eir.append(contentsOf: e.data)
        }
        guard transport == .easyPairing else { return eir }
        let address = deviceAddress ?? [0, 0, 0, 0, 0, 0]
        guard address.count == 6 else { throw .fieldTooLong(field: "device address", length: address.count, maximum: 6) }
        let total = 8 + eir.count
        guard total <= 0xFFFF else { throw .fieldTooLong(field: "OOB data", length: total, maximum: 0xFFFF) }
        return [UInt8(truncatingIfNeeded: total), UInt8(truncatingIfNeeded: total >> 8)] + address + eir
    }

    static func read(_ transport: Transport, _ payload: [UInt8], issues: inout [NDEFIssue]) -> NDEFBluetoothOOB? {
        var cursor = ByteCursor(payload)
        var end = payload.count
        var value = NDEFBluetoothOOB(transport: transport, elements: [])
        if transport == .easyPairing {
            guard payload.count >= 8, let length = try? cursor.readUInt16LE("OOB data length"),
                  let address = try? cursor.readBytes(6, "device address") else {
                issues.append(NDEFIssue(offset: payload.count, rule: .bluetoothTruncated,
                                        message: "\(payload.count)-byte payload, needs OOB data length and device address (8 bytes)"))
                return nil
            }
            value.oobLength = length
            value.deviceAddress = address
            if Int(length) > payload.count {
                issues.append(NDEFIssue(offset: 0, rule: .bluetoothOOBLengthExceedsPayload,
                                        message: "OOB data length \(length) exceeds the \(payload.count)-byte payload"))
                return value
            }
            if Int(length) < payload.count {
                issues.append(NDEFIssue(offset: 0, rule: .bluetoothPayloadExceedsOOBLength,
                                        message: "payload of \(payload.count) bytes, OOB data length says \(length)"))
            }
            end = Int(length)
        }
        // EIR/AD structures; a zero length byte is padding (Core Vol 3 Part C §8).
        while cursor.index < end {
            let start = cursor.index
            do throws(DecodeError) {
                let length = Int(try cursor.readUInt8("EIR structure length"))
                if length == 0 { continue }
                let type = try cursor.readUInt8("EIR data type")
                let data = try cursor.readBytes(length - 1, "EIR data of \(length - 1) bytes")
                value.elements.append(Element(type: type, data: data, range: start..<cursor.index))
            } catch {
                issues.append(NDEFIssue(offset: error.offset, rule: .bluetoothEIRTruncated,
                                        message: "EIR structure at byte \(start): \(error.description)"))
                return value
            }
        }
        return value
    }
}
