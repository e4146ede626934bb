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


def main(out):
    shb = struct.pack(">IIIHHq", 0x0A0D0D0A, 28, 0x1A2B3C4D, 1, 0, -1) + struct.pack(">I", 28)
    idb = lambda link: block(1, struct.pack(">HHI", link, 0, 0))
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
    blocks = [shb, idb(264), idb(147), packet(1, T0_MS, True, config)]
    ms = T0_MS + 40
    for command, answer in exchanges:
        blocks.append(packet(0, ms, False, command))
        blocks.append(packet(0, ms + 7, True, answer))
        ms += 25
    with open(out + "/nfcgate-type4-read.pcapng", "wb") as f:
        f.write(b"".join(blocks))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "Traces")
