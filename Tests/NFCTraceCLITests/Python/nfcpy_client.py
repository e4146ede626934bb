#!/usr/bin/env python3
"""Reads (and optionally writes) a tag with unmodified nfcpy over its UDP frontend; prints JSON.

usage: nfcpy_client.py udp:HOST:PORT read|dump|write-uri URI|write-text TEXT [--targets 106A,212F]
dump: nfcpy's own memory dump (for FeliCa Standard: every system, area, service and block).
Used by the nfctrace tests: nfcpy is the real reader software, nfctrace emulates the tag.
"""
import json
import sys

import ndef
import nfc
from nfc.clf import RemoteTarget


def main():
    device, action = sys.argv[1], sys.argv[2]
    argument = sys.argv[3] if action.startswith("write") else None
    targets = ["106A", "212F"]
    if "--targets" in sys.argv:
        targets = sys.argv[sys.argv.index("--targets") + 1].split(",")
    clf = nfc.ContactlessFrontend(device)
    result = {}
    try:
        target = None
        for _ in range(20):
            target = clf.sense(*[RemoteTarget(t) for t in targets], iterations=1, interval=0.05)
            if target is not None:
                break
        if target is None:
            print(json.dumps({"error": "no tag found"}))
            return 3
        tag = nfc.tag.activate(clf, target)
        if tag is None:
            print(json.dumps({"error": "tag not activated"}))
            return 3
        result["tag"] = str(tag)
        result["product"] = tag.product
        result["type"] = tag.type
        if action.startswith("write"):
            if tag.ndef is None:
                print(json.dumps({"error": "no NDEF to write to (the read of its attributes failed)", **result}))
                return 3
            if action == "write-uri":
                record = ndef.UriRecord(argument)
            else:
                record = ndef.TextRecord(argument, "en")
            tag.ndef.records = [record]
        if action == "dump":
            result["dump"] = tag.dump()
        if tag.ndef is not None:
            result["ndef_capacity"] = tag.ndef.capacity
            result["ndef_length"] = tag.ndef.length
            result["records"] = [describe(r) for r in tag.ndef.records]
        else:
            result["records"] = None
    finally:
        clf.close()
    print(json.dumps(result))
    return 0


def describe(r):
    if isinstance(r, ndef.UriRecord):
        return {"kind": "uri", "uri": r.iri}
    if isinstance(r, ndef.TextRecord):
        return {"kind": "text", "text": r.text, "language": r.language}
    return {"kind": r.type, "data": r.data.hex()}


if __name__ == "__main__":
    sys.exit(main())
