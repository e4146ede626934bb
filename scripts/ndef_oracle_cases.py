"""The message generator of ndef-oracle.py: NDEF records and messages built on the wire by hand,
valid ones of every record kind and deliberately broken ones (framing and payloads), from a
seeded random.Random so that a run can be repeated."""
import struct

import ndef

PREFIXES = ndef.UriRecord._prefix_strings


# ---------------------------------------------------------------------------------------------
# Wire records built by hand (so that broken ones can be made too)

def wire(tnf, rtype=b"", rid=b"", payload=b"", mb=False, me=False, cf=False, sr=None, il=None):
    sr = len(payload) < 256 if sr is None else sr
    il = len(rid) > 0 if il is None else il
    header = (0x80 if mb else 0) | (0x40 if me else 0) | (0x20 if cf else 0) | (0x10 if sr else 0) \
        | (0x08 if il else 0) | (tnf & 7)
    out = bytes([header, len(rtype) & 0xFF])
    out += bytes([len(payload) & 0xFF]) if sr else struct.pack(">L", len(payload))
    if il:
        out += bytes([len(rid) & 0xFF])
    return out + rtype + rid + payload


def message(records):
    """records: list of (tnf, type, id, payload) -> properly flagged message bytes."""
    out = b""
    for k, (tnf, rtype, rid, payload) in enumerate(records):
        out += wire(tnf, rtype, rid, payload, mb=k == 0, me=k == len(records) - 1)
    return out


def encode(records):
    return b"".join(ndef.message_encoder(records))


# ---------------------------------------------------------------------------------------------
# Random content

class Gen:
    def __init__(self, rnd):
        self.r = rnd

    def choice(self, xs):
        return self.r.choice(xs)

    def bytes(self, lo, hi):
        return bytes(self.r.randrange(256) for _ in range(self.r.randint(lo, hi)))

    def ascii(self, lo, hi, alphabet="abcdefghijklmnopqrstuvwxyz0123456789-._~"):
        return "".join(self.r.choice(alphabet) for _ in range(self.r.randint(lo, hi)))

    def text(self, lo=0, hi=24):
        pool = "abcXYZ 0123 héllo wörld ñ € 日本語 😀 \u00e9\u0301 ‰".split(" ")
        return " ".join(self.r.choice(pool) for _ in range(self.r.randint(lo, hi // 4 + 1)))[:hi]

    def rid(self):
        return self.ascii(1, 12).encode() if self.r.random() < 0.25 else b""

    def iri(self):
        prefix = self.choice(PREFIXES)
        rest = self.ascii(0, 30, "abcdefghijklmnop/.:?=&%#0123456789") + (self.choice(["", "é", "ß", "漢"])
                                                                          if self.r.random() < 0.2 else "")
        return prefix + rest

    def language(self):
        return self.choice(["en", "de", "de-DE", "fr", "ja", "zh-Hant-TW", "x", "en-US-x-twain"])


# ---------------------------------------------------------------------------------------------
# Valid records of every kind ndeflib knows, plus generic ones

def valid_record(g):
    r = g.r
    kind = g.choice(["text", "uri", "sp", "di", "sig", "bt-ep", "bt-le", "wsc", "p2p", "mime", "absolute",
                     "external", "aar", "unknown", "empty", "vcard", "wkt-other"])
    if kind == "text":
        rec = ndef.TextRecord(g.text(), g.language(), g.choice(["UTF-8", "UTF-16"]))
    elif kind == "uri":
        rec = ndef.UriRecord(g.iri())
    elif kind == "sp":
        titles = {}
        for _ in range(r.randint(0, 2)):
            titles[g.language()] = g.text(1, 12)
        rec = ndef.SmartposterRecord(g.iri(), titles or None, g.choice([None, "exec", "save", "edit"]),
                                     {"image/png": g.bytes(0, 20)} if r.random() < 0.3 else None,
                                     r.choice([None, r.randrange(1 << 32)]), g.choice([None, "text/html", "image/png"]))
    elif kind == "di":
        rec = ndef.DeviceInformationRecord(g.ascii(1, 10), g.ascii(1, 10), g.choice([None, g.text(1, 10)]),
                                           g.choice([None, "123e4567-e89b-12d3-a456-426655440000"]),
                                           g.choice([None, "1.0.2"]))
        if r.random() < 0.2:
            rec.add_undefined_data_element(r.randint(5, 255), g.bytes(0, 8))
    elif kind == "sig":
        rec = ndef.SignatureRecord(g.choice(["ECDSA-P256", "RSASSA-PSS-2048", "DSA-1024"]), "SHA-256",
                                   g.bytes(1, 64), None, g.choice(["X.509", "M2M"]),
                                   [g.bytes(1, 40) for _ in range(r.randint(0, 3))],
                                   g.choice([None, "https://example.com/cert"]))
    elif kind == "bt-ep":
        rec = ndef.BluetoothEasyPairingRecord("01:02:03:04:05:%02X" % r.randrange(256))
        if r.random() < 0.7:
            rec["Complete Local Name"] = g.text(1, 12).encode()
        if r.random() < 0.5:
            rec["Class of Device"] = g.bytes(3, 3)
    elif kind == "bt-le":
        rec = ndef.BluetoothLowEnergyRecord()
        rec["LE Bluetooth Device Address"] = g.bytes(7, 7)
        rec["LE Role"] = bytes([r.randrange(4)])
        if r.random() < 0.5:
            rec["Appearance"] = g.bytes(2, 2)
    elif kind == "wsc":
        rec = ndef.WifiSimpleConfigRecord()
        rec.set_attribute("version-1", 0x10)
        cred = ndef.wifi.Credential()
        cred.set_attribute("network-index", 1)
        cred.set_attribute("ssid", g.ascii(1, 32).encode())
        cred.set_attribute("authentication-type", "WPA2-Personal")
        cred.set_attribute("encryption-type", "AES")
        cred.set_attribute("network-key", g.ascii(8, 63).encode())
        cred.set_attribute("mac-address", b"\xff" * 6)
        rec.set_attribute("credential", cred)
    elif kind == "p2p":
        rec = ndef.WifiPeerToPeerRecord()
        # Raw attribute values (type: [values]); ndeflib writes P2P attribute lengths big-endian.
        for key, value in [(0x1021, b"Maker"), (0x1023, b"M"), (0x1024, b"1"), (0x102C, b"\x01" * 20 + b"\x00\x07"),
                           (0x103C, b"\x01"), (0x1042, b"42"), (0x1047, g.bytes(16, 16)),
                           (0x1049, b"\x00\x37\x2a\x00\x01\x20"), (2, b"\x00\x00"), (13, g.bytes(17, 17)),
                           (19, b"XX\x04\x51\x01")]:
            rec[key] = [value]
    elif kind == "mime":
        rec = ndef.Record(g.choice(["text/plain", "image/png", "application/json", "Text/Plain"]), g.rid(), g.bytes(0, 40))
    elif kind == "vcard":
        rec = ndef.Record("text/vcard", g.rid(), ("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:%s\r\nTEL:+1%d\r\nEND:VCARD\r\n"
                                                 % (g.ascii(1, 10), r.randrange(10 ** 9))).encode())
    elif kind == "absolute":
        rec = ndef.Record("https://example.com/" + g.ascii(0, 10), g.rid(), g.bytes(0, 20))
    elif kind == "external":
        rec = ndef.Record("urn:nfc:ext:example.com:" + g.ascii(1, 8), g.rid(), g.bytes(0, 20))
    elif kind == "aar":
        rec = ndef.Record("urn:nfc:ext:android.com:pkg", "", ("com.example." + g.ascii(1, 10)).encode())
    elif kind == "unknown":
        rec = ndef.Record("unknown", g.rid(), g.bytes(0, 30))
    elif kind == "wkt-other":
        rec = ndef.Record("urn:nfc:wkt:" + g.choice(["X", "abc", "Gc", "act", "s", "t", "ac"]), g.rid(), g.bytes(0, 12))
    else:
        rec = ndef.Record()
    if kind not in ("empty", "aar", "unknown", "mime", "absolute", "external", "vcard", "wkt-other") and r.random() < 0.2:
        rec.name = g.ascii(1, 8)
    return kind, rec


def handover_message(g):
    r = g.r
    kind = g.choice(["Hr", "Hs", "Hm", "Hi"])
    carriers = []
    refs = []
    for k in range(r.randint(0, 2)):
        ref = "c%d" % k
        if kind in ("Hr", "Hs") and r.random() < 0.5:
            c = ndef.WifiSimpleConfigRecord()
            c.set_attribute("version-1", 0x10)
            c.name = ref
        elif kind == "Hr" and r.random() < 0.5:
            c = ndef.HandoverCarrierRecord("urn:nfc:wkt:" + g.choice(["b", "w"]), g.bytes(0, 6), ref)
        else:
            c = ndef.BluetoothEasyPairingRecord("01:02:03:04:05:06")
            c.name = ref
        carriers.append(c)
        refs.append(ref)
    version = g.choice(["1.2", "1.3"]) if kind == "Hr" else g.choice(["1.0", "1.2", "1.3"])
    if kind == "Hr":
        hr = ndef.HandoverRequestRecord(version, r.randrange(1 << 16))
    elif kind == "Hs":
        hr = ndef.HandoverSelectRecord(version)
        if version != "1.0" and r.random() < 0.3:
            hr.set_error(g.choice([1, 3]), r.randrange(256))
    elif kind == "Hm":
        hr = ndef.HandoverMediationRecord(version)
    else:
        hr = ndef.HandoverInitiateRecord(version)
    for ref in refs:
        hr.add_alternative_carrier(g.choice(["active", "inactive", "activating", "unknown"]), ref,
                                   *(["aux%d" % r.randrange(3)] if r.random() < 0.3 else []))
    return "handover-" + kind, encode([hr] + carriers)


def valid_message(g):
    r = g.r
    roll = r.random()
    if roll < 0.15:
        return handover_message(g)
    if roll < 0.25:
        return chunked_message(g)
    records = []
    labels = []
    for _ in range(r.choice([1, 1, 1, 2, 3, 4])):
        label, rec = valid_record(g)
        records.append(rec)
        labels.append(label)
    return "+".join(labels), encode(records)


def chunked_message(g):
    """A record split into chunks (ndeflib returns each chunk as a record)."""
    r = g.r
    payload = g.bytes(2, 40)
    cuts = sorted(set(r.randrange(1, len(payload)) for _ in range(r.randint(1, 3))))
    parts = [payload[a:b] for a, b in zip([0] + cuts, cuts + [len(payload)])]
    tnf, rtype = g.choice([(2, b"text/plain"), (1, b"X"), (5, b""), (4, b"example.com:x")])
    out = b""
    before = [] if r.random() < 0.6 else [(1, b"U", b"", b"\x04example.com")]
    for rec in before:
        out += wire(*rec, mb=not out)
    for k, part in enumerate(parts):
        last = k == len(parts) - 1
        out += wire(tnf if k == 0 else 6, rtype if k == 0 else b"", g.rid() if k == 0 else b"", part,
                    mb=not out, me=last, cf=not last)
    return "chunked", out


# ---------------------------------------------------------------------------------------------
# Broken messages

def split_records(data):
    """Wire record boundaries of a well-formed message: list of (start, header offset fields)."""
    out, i = [], 0
    while i < len(data):
        h = data[i]
        sr, il = h & 0x10, h & 0x08
        tl = data[i + 1]
        if sr:
            pl, j = data[i + 2], i + 3
        else:
            pl, j = struct.unpack(">L", data[i + 2:i + 6])[0], i + 6
        idl = 0
        if il:
            idl, j = data[j], j + 1
        out.append((i, j, tl, idl, pl))
        i = j + tl + idl + pl
    return out


def broken_framing(g, data):
    r = g.r
    b = bytearray(data)
    recs = split_records(data)
    op = g.choice(["mb-clear", "me-clear", "mb-middle", "me-early", "cf-last", "cf-random", "tnf-empty",
                   "tnf-unknown-type", "tnf-unchanged", "tnf-7", "type-empty", "truncate", "sr-long",
                   "long-form", "trailing", "flip", "insert", "delete", "type-nonascii", "empty-input",
                   "chunk-tnf", "chunk-il"])
    start = recs[0][0]
    pick = r.choice(recs)
    if op == "mb-clear":
        b[start] &= 0x7F
    elif op == "me-clear":
        b[recs[-1][0]] &= 0xBF
    elif op == "mb-middle" and len(recs) > 1:
        b[r.choice(recs[1:])[0]] |= 0x80
    elif op == "me-early" and len(recs) > 1:
        b[r.choice(recs[:-1])[0]] |= 0x40
    elif op == "cf-last":
        b[recs[-1][0]] |= 0x20
    elif op == "cf-random":
        b[pick[0]] |= 0x20
    elif op == "tnf-empty":
        b[pick[0]] &= 0xF8
    elif op == "tnf-unknown-type":
        b[pick[0]] = (b[pick[0]] & 0xF8) | 5
    elif op == "tnf-unchanged":
        b[pick[0]] = (b[pick[0]] & 0xF8) | 6
    elif op == "tnf-7":
        b[pick[0]] |= 7
    elif op == "type-empty":
        b[pick[0]] = (b[pick[0]] & 0xF8) | g.choice([1, 2, 3, 4])
        if pick[2] > 0:
            return op, bytes(data[:pick[0]]) + wire(b[pick[0]] & 7, b"", b"", b"x", mb=pick[0] == 0,
                                                   me=pick is recs[-1])
    elif op == "truncate" and len(b) > 1:
        del b[r.randrange(1, len(b)):]
    elif op == "sr-long":
        # A long record written with SR set.
        payload = g.bytes(256, 400)
        first = recs[0][0] == pick[0]
        return op, bytes(data[:pick[0]]) + wire(2, b"text/plain", b"", payload, mb=first, me=True, sr=False)[:0] \
            + bytes([0x80 * first | 0x40 | 0x10 | 2, 10]) + struct.pack(">L", len(payload)) + b"text/plain" + payload
    elif op == "long-form":
        # A short payload with a 4-byte PAYLOAD_LENGTH: allowed.
        i, j, tl, idl, pl = pick
        h = b[i]
        if h & 0x10:
            rest = bytes(b[j:])
            head = bytes([h & 0xEF, b[i + 1]]) + struct.pack(">L", pl) + (bytes([idl]) if h & 0x08 else b"")
            return op, bytes(b[:i]) + head + rest
    elif op == "trailing":
        b += g.bytes(1, 6)
    elif op == "flip" and len(b) > 0:
        k = r.randrange(len(b))
        b[k] ^= 1 << r.randrange(8)
    elif op == "insert":
        k = r.randrange(len(b) + 1)
        b[k:k] = g.bytes(1, 3)
    elif op == "delete" and len(b) > 1:
        k = r.randrange(len(b))
        del b[k:k + r.randint(1, 3)]
    elif op == "type-nonascii":
        i, j, tl, idl, pl = pick
        if tl > 0:
            b[j] = r.randrange(0x80, 0x100)
    elif op == "empty-input":
        return op, b""
    elif op == "chunk-tnf":
        # A chunked record whose second chunk is not TNF 6.
        return op, wire(2, b"text/plain", b"", b"ab", mb=True, cf=True) + wire(g.choice([1, 2, 5]), b"X" if r.random() < 0.5 else b"", b"", b"cd", me=True)
    elif op == "chunk-il":
        return op, wire(2, b"text/plain", b"", b"ab", mb=True, cf=True) + wire(6, b"", b"id", b"cd", me=True)
    return op, bytes(b)


def broken_payload(g):
    """A well-framed message whose known-type payload breaks a record type rule."""
    r = g.r
    op = g.choice(["text-lang0", "text-lang-over", "text-utf8", "text-utf16-odd", "text-lang-nonascii", "text-rfu",
                   "text-empty", "uri-code", "uri-utf8", "uri-control", "uri-empty", "sp-no-uri", "sp-two-uri",
                   "sp-act", "sp-act-len", "sp-size", "sp-type-utf8", "sp-empty", "hr-no-cr", "ac-trunc",
                   "ac-trailing", "cr-len", "err-0", "err-short", "err-long", "hc-trunc", "hc-ctf7", "hc-nonascii",
                   "di-no-model", "di-uuid", "di-utf8", "di-trunc", "sig-version", "sig-trunc", "sig-uri",
                   "sig-6", "bt-ooblen-big", "bt-ooblen-small", "bt-eir", "bt-short", "le-eir", "wsc-trunc",
                   "wsc-reserved", "wsc-short", "utf16-nobom"])
    T, U = b"T", b"U"
    if op == "text-lang0":
        return op, message([(1, T, b"", b"\x00hello")])
    if op == "text-lang-over":
        return op, message([(1, T, b"", bytes([r.randint(3, 63)]) + b"en")])
    if op == "text-utf8":
        return op, message([(1, T, b"", b"\x02en" + g.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf"]))])
    if op == "text-utf16-odd":
        return op, message([(1, T, b"", b"\x82en\xfe\xff\x00")])
    if op == "text-lang-nonascii":
        return op, message([(1, T, b"", b"\x02\xe9n" + b"x")])
    if op == "text-rfu":
        return op, message([(1, T, b"", b"\x42enhi")])
    if op == "text-empty":
        return op, message([(1, T, b"", b"")])
    if op == "utf16-nobom":
        return op, message([(1, T, b"", b"\x82en" + g.choice([b"\x00h\x00i", b"\xd8\x00\x00\x41", b"h\x00i\x00"]))])
    if op == "uri-code":
        return op, message([(1, U, b"", bytes([r.randint(0x24, 0xFF)]) + b"example.com")])
    if op == "uri-utf8":
        return op, message([(1, U, b"", b"\x04ex\xffample")])
    if op == "uri-control":
        return op, message([(1, U, b"", b"\x04exa\x0aple")])
    if op == "uri-empty":
        return op, message([(1, U, b"", b"")])
    uri_rec = (1, U, b"", b"\x04example.com")
    if op == "sp-no-uri":
        return op, message([(1, b"Sp", b"", message([(1, T, b"", b"\x02enhi")]))])
    if op == "sp-two-uri":
        return op, message([(1, b"Sp", b"", message([uri_rec, uri_rec]))])
    if op == "sp-act":
        return op, message([(1, b"Sp", b"", message([uri_rec, (1, b"act", b"", bytes([r.randint(3, 255)]))]))])
    if op == "sp-act-len":
        return op, message([(1, b"Sp", b"", message([uri_rec, (1, b"act", b"", b"\x00\x00")]))])
    if op == "sp-size":
        return op, message([(1, b"Sp", b"", message([uri_rec, (1, b"s", b"", b"\x00\x01\x02")]))])
    if op == "sp-type-utf8":
        return op, message([(1, b"Sp", b"", message([uri_rec, (1, b"t", b"", b"text/\xff")]))])
    if op == "sp-empty":
        return op, message([(1, b"Sp", b"", b"")])
    if op == "hr-no-cr":
        return op, message([(1, b"Hr", b"", b"\x12" + message([(1, b"ac", b"", b"\x01\x01c\x00")]))])
    if op == "ac-trunc":
        return op, message([(1, b"Hs", b"", b"\x13" + message([(1, b"ac", b"", g.choice([b"\x01", b"\x01\x05ab", b"\x01\x01c", b"\x01\x01c\x02\x01a"]))]))])
    if op == "ac-trailing":
        return op, message([(1, b"Hs", b"", b"\x13" + message([(1, b"ac", b"", b"\x01\x01c\x00zz")]))])
    if op == "cr-len":
        return op, message([(1, b"Hr", b"", b"\x13" + message([(1, b"cr", b"", g.choice([b"\x01", b"\x01\x02\x03"]))]))])
    if op == "err-0":
        return op, message([(1, b"Hs", b"", b"\x13" + message([(1, b"err", b"", b"\x00\x01")]))])
    if op == "err-short":
        return op, message([(1, b"Hs", b"", b"\x13" + message([(1, b"err", b"", g.choice([b"\x02\x00\x01", b"\x01", b""]))]))])
    if op == "err-long":
        return op, message([(1, b"Hs", b"", b"\x13" + message([(1, b"err", b"", b"\x01\x05\x06")]))])
    hr_cr = (1, b"cr", b"", b"\x12\x34")
    if op == "hc-trunc":
        return op, message([(1, b"Hr", b"", b"\x13" + message([hr_cr])), (1, b"Hc", b"", b"\x01\x09abc")])
    if op == "hc-ctf7":
        return op, message([(1, b"Hr", b"", b"\x13" + message([hr_cr])), (1, b"Hc", b"", b"\x07\x01b")])
    if op == "hc-nonascii":
        return op, message([(1, b"Hr", b"", b"\x13" + message([hr_cr])), (1, b"Hc", b"", b"\x01\x02b\xe9")])
    if op == "di-no-model":
        return op, message([(1, b"Di", b"", b"\x00\x03ACM")])
    if op == "di-uuid":
        return op, message([(1, b"Di", b"", b"\x00\x01A\x01\x01B\x03\x04abcd")])
    if op == "di-utf8":
        return op, message([(1, b"Di", b"", b"\x00\x01\xff\x01\x01B")])
    if op == "di-trunc":
        return op, message([(1, b"Di", b"", b"\x00\x01A\x01\x05B")])
    sig_ok = b"\x20\x0b\x02\x00\x02ab\x00"
    if op == "sig-version":
        return op, message([(1, b"Sig", b"", b"\x10" + sig_ok[1:])])
    if op == "sig-trunc":
        return op, message([(1, b"Sig", b"", g.choice([b"\x20\x0b\x02\x00\x09ab\x00", b"\x20\x0b\x02\x00\x02ab\x01\x00\x05x",
                                                       b"\x20\x0b\x02\x00\x02ab\x80\x00"]))])
    if op == "sig-uri":
        return op, message([(1, b"Sig", b"", b"\x20\x8b\x02\x00\x03a\x01b\x00")])
    if op == "sig-6":
        return op, message([(1, b"Sig", b"", b"\x20\x00\x02\x00\x00\x00")])
    bt = b"application/vnd.bluetooth.ep.oob"
    if op == "bt-ooblen-big":
        return op, message([(2, bt, b"", b"\x20\x00" + b"\x01" * 6)])
    if op == "bt-ooblen-small":
        return op, message([(2, bt, b"", b"\x08\x00" + b"\x01" * 6 + b"\x02\x09a")])
    if op == "bt-eir":
        return op, message([(2, bt, b"", b"\x0b\x00" + b"\x01" * 6 + b"\x05\x09a")])
    if op == "bt-short":
        return op, message([(2, bt, b"", b"\x06\x00\x01\x02\x03")])
    if op == "le-eir":
        return op, message([(2, b"application/vnd.bluetooth.le.oob", b"", b"\x02\x1c\x00\x08\x1b\x01")])
    wsc = b"application/vnd.wfa.wsc"
    if op == "wsc-trunc":
        return op, message([(2, wsc, b"", b"\x10\x4a\x00\x05\x10")])
    if op == "wsc-reserved":
        return op, message([(2, wsc, b"", b"\x0f\xff\x00\x01\x10")])
    return op, message([(2, wsc, b"", b"\x10\x4a")])


# ---------------------------------------------------------------------------------------------
