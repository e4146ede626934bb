#!/usr/bin/env python3
"""Writes Traces/nfcgate-type4-read.pcapng laid out exactly as NFCGate's pcapng export writes one
(nfcgate/nfcgate: PcapStream, PcapPacket, ISO14443Packet, ISO14443Stream, ConfigBuilder), stdlib only:

- big-endian throughout (Java's DataOutputStream): SHB of 28 bytes, version 1.0, section length -1,
  no options; two IDBs of 20 bytes, no options: interface 0 LINKTYPE_ISO_14443 (264), interface 1
  LINKTYPE_USER0 (147), snaplen 0 (so timestamps are the default microseconds);
- Enhanced Packet Blocks only, no options; times are Unix milliseconds x 1000;
- every packet: 00, event FA (reader) or FB (card; CRC dropped either way), big-endian length
  of what follows, a synthetic ISO-DEP PCB 02 (never toggled), then the APDU as Android passed it;
- the tag's "initial" data goes to interface 1 behind the same header, as NCI listen parameters
  (type, length, value): UID 33, SAK 32, ATQA bytes 30 and 31, historical bytes 59.

The session: an NFC-A ISO-DEP tag (UID 04 A1 B2 C3 D4 E5 F6, SAK 20, ATQA 44 03) read as an NFC
Forum Type 4 Tag: SELECT the NDEF application, the CC file, READ BINARY of CC, NLEN and message.
Also nfcgate-ntag215-read.pcapng and nfcgate-felica-read.pcapng: tags that speak no ISO-DEP, whose
frames carry NFCGate's PCB 02 all the same (others()).
Run: scripts/make-nfcgate-pcapng.py Traces/
"""
import struct
import sys

T0_MS = 1795392000000


def block(kind, body):
    body += b"\0" * (-len(body) % 4)
    length = 12 + len(body)
    return struct.pack(">II", kind, length) + body + struct.pack(">I", length)


def packet(interface, ms, from_card, data):
    payload = bytes([0x00, 0xFB if from_card else 0xFA]) + struct.pack(">H", len(data) + 1) + bytes([0x02]) + bytes(data)
    us = ms * 1000
    body = struct.pack(">IIIII", interface, us >> 32, us & 0xFFFFFFFF, len(payload), len(payload)) + payload
    return block(6, body)


def write(path, config, exchanges):
    """An NFCGate export: the tag's initial data on interface 1, then each command and answer."""
    shb = struct.pack(">IIIHHq", 0x0A0D0D0A, 28, 0x1A2B3C4D, 1, 0, -1) + struct.pack(">I", 28)
    idb = lambda link: block(1, struct.pack(">HHI", link, 0, 0))
    blocks = [shb, idb(264), idb(147), packet(1, T0_MS, True, config)]
    ms = T0_MS + 40
    for command, answer in exchanges:
        blocks.append(packet(0, ms, False, command))
        blocks.append(packet(0, ms + 7, True, answer))
        ms += 25
    with open(path, "wb") as f:
        f.write(b"".join(blocks))


def others(out):
    """Relays of tags that speak no ISO-DEP, where NFCGate writes its PCB 02 all the same
    (issue 44): an NTAG215 (SAK 00) read page by page, and a FeliCa card (NFC-F listen
    parameters) polled and read. FeliCa frames keep their length byte, no CRC."""
    uid = [0x04, 0x51, 0x5C, 0xFA, 0x6F, 0x73, 0x81]
    config = [0x33, len(uid)] + uid + [0x32, 1, 0x00, 0x30, 1, 0x44, 0x31, 1, 0x00]
    # Pages 3-6: the CC, then an NDEF TLV with a URI record (https://x.io) and the terminator.
    cc_and_ndef = [0xE1, 0x10, 0x3E, 0x00, 0x03, 0x09, 0xD1, 0x01, 0x05, 0x55, 0x04, 0x78, 0x2E, 0x69, 0x6F, 0xFE]
    write(out + "/nfcgate-ntag215-read.pcapng", config, [
        ([0x60], [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03]),
        ([0x30, 0x03], cc_and_ndef),
    ])
    idm = [0x01, 0x2E, 0x4C, 0xD8, 0xA3, 0x16, 0x52, 0xBA]
    pmm = [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00]
    config = [0x40, 10, 0x88, 0xB4] + idm + [0x51, 8] + pmm
    # The attribute information block of a blank Type 3 Tag: version 1.0, Nbr 4, Nbw 1, Nmaxb 13,
    # read/write, Ln 0, checksum 0x0023 (the sum of bytes 0-13).
    block0 = [0x10, 0x04, 0x01, 0x00, 0x0D, 0, 0, 0, 0, 0x00, 0x01, 0, 0, 0, 0x00, 0x23]
    write(out + "/nfcgate-felica-read.pcapng", config, [
        ([0x06, 0x00, 0xFF, 0xFF, 0x00, 0x00], [0x12, 0x01] + idm + pmm),
        ([0x10, 0x06] + idm + [0x01, 0x0B, 0x00, 0x01, 0x80, 0x00], [0x1D, 0x07] + idm + [0x00, 0x00, 0x01] + block0),
    ])


def main(out):
    others(out)
    uid = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    history = [0x80, 0x77, 0x80, 0x02]
    config = [0x33, len(uid)] + uid + [0x32, 1, 0x20, 0x30, 1, 0x44, 0x31, 1, 0x03, 0x59, len(history)] + history
    ndef = [0xD1, 0x01, 0x0C, 0x55, 0x04] + list(b"example.com")
    exchanges = [
        ([0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00], [0x90, 0x00]),
        ([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03], [0x90, 0x00]),
        ([0x00, 0xB0, 0x00, 0x00, 0x0F], [0x00, 0x0F, 0x20, 0x00, 0x3B, 0x00, 0x34, 0x04, 0x06, 0xE1, 0x04, 0x00, 0x80, 0x00, 0x00, 0x90, 0x00]),
        ([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04], [0x90, 0x00]),
        ([0x00, 0xB0, 0x00, 0x00, 0x02], [0x00, len(ndef), 0x90, 0x00]),
        ([0x00, 0xB0, 0x00, 0x02, len(ndef)], ndef + [0x90, 0x00]),
    ]
    write(out + "/nfcgate-type4-read.pcapng", config, exchanges)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "Traces")
