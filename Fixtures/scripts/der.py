"""Tiny DER/BER helpers for the fixture generators (python3 stdlib only).

Encoding builds definite-length DER; `parse` reads definite and indefinite (BER) lengths so the
generators can re-encode openssl's output (chunked eContent, duplicated certificates) and the
checks can prove what form a file has.
"""

import datetime


def length(n):
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def tlv(tag, content):
    return bytes([tag]) + length(len(content)) + content


def seq(*items):
    return tlv(0x30, b"".join(items))


def set_(*items):
    return tlv(0x31, b"".join(items))


def set_of_sorted(*items):
    return tlv(0x31, b"".join(sorted(items)))


def integer(n):
    if n == 0:
        return tlv(0x02, b"\x00")
    b = n.to_bytes((n.bit_length() + 8) // 8, "big")  # room for a sign bit
    while len(b) > 1 and b[0] == 0 and b[1] < 0x80:
        b = b[1:]
    return tlv(0x02, b)


def oid(dotted):
    parts = [int(p) for p in dotted.split(".")]
    out = bytearray([parts[0] * 40 + parts[1]])
    for p in parts[2:]:
        chunk = [p & 0x7F]
        p >>= 7
        while p:
            chunk.append(0x80 | (p & 0x7F))
            p >>= 7
        out += bytes(reversed(chunk))
    return tlv(0x06, bytes(out))


def null():
    return b"\x05\x00"


def octets(b):
    return tlv(0x04, b)


def bitstring(b):
    return tlv(0x03, b"\x00" + b)


def utf8(s):
    return tlv(0x0C, s.encode("utf-8"))


def printable(s):
    return tlv(0x13, s.encode("ascii"))


def boolean(v):
    return tlv(0x01, b"\xff" if v else b"\x00")


def explicit(n, content):
    return tlv(0xA0 | n, content)


def time(dt):
    """UTCTime before 2050, GeneralizedTime from 2050 on (RFC 5280 4.1.2.5)."""
    if dt.year < 2050:
        return tlv(0x17, dt.strftime("%y%m%d%H%M%SZ").encode())
    return tlv(0x18, dt.strftime("%Y%m%d%H%M%SZ").encode())


class Node:
    """One TLV: tag byte, header bytes, and either children (constructed) or content."""

    def __init__(self, tag, offset, header_len, indefinite, content=None, children=None, end=0):
        self.tag = tag
        self.offset = offset
        self.header_len = header_len
        self.indefinite = indefinite
        self.content = content
        self.children = children
        self.end = end

    @property
    def constructed(self):
        return bool(self.tag & 0x20)

    def encode(self):
        """Definite-length DER-style re-encoding of this node."""
        if self.children is not None:
            return tlv(self.tag, b"".join(c.encode() for c in self.children))
        return tlv(self.tag, self.content)


def parse(data, offset=0):
    """Parse one TLV at `offset` (BER: indefinite lengths allowed). Returns a Node."""
    tag = data[offset]
    if tag & 0x1F == 0x1F:
        raise ValueError("multi-byte tags not supported")
    first = data[offset + 1]
    pos = offset + 2
    indefinite = False
    if first == 0x80:
        indefinite = True
        n = None
    elif first & 0x80:
        k = first & 0x7F
        n = int.from_bytes(data[pos:pos + k], "big")
        pos += k
    else:
        n = first
    header_len = pos - offset
    if tag & 0x20:
        children = []
        if indefinite:
            while data[pos:pos + 2] != b"\x00\x00":
                child = parse(data, pos)
                children.append(child)
                pos = child.end
            end = pos + 2
        else:
            end = pos + n
            while pos < end:
                child = parse(data, pos)
                children.append(child)
                pos = child.end
            if pos != end:
                raise ValueError("child overruns parent at %d" % offset)
        return Node(tag, offset, header_len, indefinite, children=children, end=end)
    if indefinite:
        raise ValueError("primitive with indefinite length at %d" % offset)
    return Node(tag, offset, header_len, False, content=data[pos:pos + n], end=pos + n)


def signed_data(root):
    """ContentInfo -> SignedData SEQUENCE node."""
    return root.children[1].children[0]


def encap_content(sd):
    """SignedData -> encapContentInfo SEQUENCE node."""
    return sd.children[2]


def certificates(sd):
    for c in sd.children:
        if c.tag == 0xA0:
            return c
    return None
