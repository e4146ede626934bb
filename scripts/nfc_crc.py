"""The CRCs of the three air interfaces, for the trace and benchmark generators (stdlib only).

Each returns the two CRC bytes as a list, in the order they follow the frame on air
(../shared/protocols.md §1.6, §5.1, §6.3)."""


def _reflected(data, reg):
    """The reflected CRC-16 (polynomial 0x1021 bit-reversed: 0x8408) from register value `reg`."""
    for b in data:
        reg ^= b
        for _ in range(8):
            reg = (reg >> 1) ^ 0x8408 if reg & 1 else reg >> 1
    return reg


def crc_a(data):
    """ISO/IEC 14443-A CRC_A: reflected 0x1021 (0x8408), init 0x6363, LSB first."""
    crc = _reflected(data, 0x6363)
    return [crc & 0xFF, crc >> 8]


def crc_f(data):
    """FeliCa CRC_F: 0x1021, init 0x0000, not reflected, MSB first."""
    crc = 0
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return [crc >> 8, crc & 0xFF]


def crc_15693(data):
    """ISO/IEC 15693 CRC: reflected 0x1021 (0x8408), init 0xFFFF, inverted, LSB first."""
    reg = _reflected(data, 0xFFFF) ^ 0xFFFF
    return [reg & 0xFF, reg >> 8]


def crc_b(data):
    """ISO/IEC 14443-B CRC_B: the same CRC as ISO/IEC 15693 (ISO/IEC 13239)."""
    return crc_15693(data)


def crc_iclass(data):
    """HID iClass / PicoPass: reflected 0x1021 (0x8408), init 0xE012, no final XOR, LSB first."""
    reg = _reflected(data, 0xE012)
    return [reg & 0xFF, reg >> 8]
