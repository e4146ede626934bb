#!/usr/bin/env python3
"""Sends raw command APDUs to an ISO-DEP card with unmodified nfcpy over its UDP frontend; prints JSON.

usage: nfcpy_apdu.py udp:HOST:PORT APDU-HEX [APDU-HEX ...]
nfcpy activates the card (RATS), then sends each APDU through its ISO-DEP layer (chaining,
R(ACK), S(WTX) handled by nfcpy) and records each answer with its status word.
"""
import json
import sys

import nfc
from nfc.clf import RemoteTarget


def main():
    device, apdus = sys.argv[1], sys.argv[2:]
    clf = nfc.ContactlessFrontend(device)
    try:
        target = None
        for _ in range(20):
            target = clf.sense(RemoteTarget("106A"), iterations=1, interval=0.05)
            if target is not None:
                break
        if target is None:
            print(json.dumps({"error": "no card found"}))
            return 3
        tag = nfc.tag.activate(clf, target)
        if tag is None or tag.type != "Type4Tag":
            print(json.dumps({"error": "no ISO-DEP card activated"}))
            return 3
        answers = [tag.transceive(bytearray.fromhex(a)).hex() for a in apdus]
    finally:
        clf.close()
    print(json.dumps({"type": tag.type, "answers": answers}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
