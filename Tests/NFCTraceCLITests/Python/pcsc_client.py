#!/usr/bin/env python3
"""An unmodified PC/SC application (pyscard) talking to whatever card is in a reader: it waits
for a card in READER (a substring of the reader name), then runs one of the steps below and
prints JSON. Used by PCSCTests with `nfctrace emulate --vpcd` in vsmartcard's vpcd under pcscd.

  pcsc_client.py READER type4            SELECT the NDEF application, read the CC and NDEF file
  pcsc_client.py READER ntag             FF CA UID, FF B0 reads of pages 0 and 4, FF D6 write + read back of page 0x10
  pcsc_client.py READER apdu HEX...      send each APDU, answers in order
  pcsc_client.py READER felica           FF CA for the IDm, then Read Without Encryption of block 0
                                         of service 000B through FF 00 00 00 (ACS's FeliCa pass-through)
  pcsc_client.py READER vicc             FF CA UID, FF B0 of block 0, FF D6 of block 5 and its read back
  pcsc_client.py READER classic KEY      LOAD KEYS KEY, then every sector of a 1K card: GENERAL
                                         AUTHENTICATE with key A and READ BINARY of its 4 blocks
"""
import json
import sys
import time

from smartcard.System import readers
from smartcard.Exceptions import NoCardException, CardConnectionException


def connect(name, seconds=15):
    deadline = time.time() + seconds
    last = None
    while time.time() < deadline:
        for r in readers():
            if name in str(r):
                try:
                    c = r.createConnection()
                    c.connect()
                    return c
                except (NoCardException, CardConnectionException) as e:
                    last = e
        time.sleep(0.2)
    raise SystemExit(json.dumps({"error": "no card in %s: %s" % (name, last)}))


def tx(c, hexstring):
    data, sw1, sw2 = c.transmit(list(bytes.fromhex(hexstring)))
    return {"apdu": hexstring, "data": bytes(data).hex(), "sw": "%02X%02X" % (sw1, sw2)}


def main():
    name, step = sys.argv[1], sys.argv[2]
    c = connect(name)
    out = {"reader": str(c.getReader()), "atr": bytes(c.getATR()).hex()}
    if step == "type4":
        steps = [tx(c, "00A4040007D276000085010100"), tx(c, "00A4000C02E103"), tx(c, "00B000000F"),
                 tx(c, "00A4000C02E104"), tx(c, "00B0000002")]
        nlen = int(steps[-1]["data"] or "0", 16)
        if nlen:
            steps.append(tx(c, "00B00002%02X" % min(nlen, 255)))
        out["steps"] = steps
    elif step == "ntag":
        out["steps"] = [tx(c, "FFCA000000"), tx(c, "FFB0000010"), tx(c, "FFB0000410"),
                        tx(c, "FFD6001004CAFEF00D"), tx(c, "FFB0001004"), tx(c, "FFCA010000")]
    elif step == "classic":
        steps = [tx(c, "FF82000006" + sys.argv[3])]
        for sector in range(16):
            steps.append(tx(c, "FF860000050100%02X6000" % (4 * sector)))
            steps += [tx(c, "FFB000%02X10" % (4 * sector + b)) for b in range(4)]
        out["steps"] = steps
    elif step == "apdu":
        out["steps"] = [tx(c, h) for h in sys.argv[3:]]
    elif step == "felica":
        idm = tx(c, "FFCA000000")
        read = "10" + "06" + idm["data"] + "010B00018000"
        out["steps"] = [idm, tx(c, "FF000000%02X" % (len(read) // 2) + read)]
    elif step == "vicc":
        out["steps"] = [tx(c, "FFCA000000"), tx(c, "FFB0000004"), tx(c, "FFD6000504CAFEF00D"), tx(c, "FFB0000504")]
    c.disconnect()
    print(json.dumps(out))


main()
