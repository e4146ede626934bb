import NFCCore

/// Field trees: `[{"key":…,"label":…,"value":…,"range":[…],"children":[…]},…]`, read in place.
extension JSONWriter {
    mutating func fields(_ k: StaticString, _ fields: [Field]) {
        key(k)
        appendFields(fields)
    }

    private mutating func appendFields(_ fields: [Field]) {
        beginArray()
        // Members are read in place through `UnsafePointer.pointee` (an addressor): `for f in
        // fields` or the buffer's subscript (a getter) would copy each field, retaining and
        // releasing its strings and children.
        fields.withUnsafeBufferPointer { fields in
            guard let base = fields.baseAddress else { return }
            for i in fields.indices {
                let f = base + i
                if i > 0 { byte(0x2C) }
                opening(f)
                value(f)
                if let r = f.pointee.range {
                    literal("\",\"range\":")
                    rangeArray(r)
                } else {
                    byte(0x22)
                }
                if !f.pointee.children.isEmpty {
                    literal(",\"children\":")
                    appendFields(f.pointee.children)
                }
                endObject()
            }
        }
        endArray()
    }

    /// `{"key":"…","label":"…","value":"` of a field, without the comma before it.
    @inline(__always)
    private mutating func opening(_ f: UnsafePointer<Field>) {
        literal("{\"key\":\"")
        escaped(f.pointee.keyName.text)
        literal("\",\"label\":\"")
        escaped(f.pointee.labelName.text)
        literal("\",\"value\":\"")
    }

    /// The inside of a field value's string literal: its hex digits need no escaping. Read
    /// through the pointer, in place (a copy of the value would retain and release its strings).
    @inline(__always)
    private mutating func value(_ f: UnsafePointer<Field>) {
        if !f.pointee.content.prefix.isEmpty { escaped(f.pointee.content.prefix) }
        // The digits are plain values: taken out alone, they cost no copy of the strings.
        let digits = f.pointee.content.digits
        guard digits.count > 0 else { return }
        write(atMost: FieldValue.maxHexLength) { out in
            var n = 0
            digits.write { out[n] = $0; n &+= 1 }
            return n
        }
        if f.pointee.content.suffixInParentheses {
            literal(" (")
            escaped(f.pointee.content.suffix)
            byte(0x29)
        } else if !f.pointee.content.suffix.isEmpty {
            escaped(f.pointee.content.suffix)
        }
    }
}
