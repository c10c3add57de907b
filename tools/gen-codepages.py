#!/usr/bin/env python3
"""Writes the code page tables headroom decodes logs with (core/base/codepage.h) from the
host Python's own codecs, at build time: GBK / CP936 (Chinese Windows consoles) and CP1252
(Western Windows). No table is kept in the repository.
usage: gen-codepages.py OUT.c"""
import sys

def gbk_table():
    rows = []
    for lead in range(0x81, 0xFF):
        for trail in range(0x40, 0xFF):
            cp = 0
            if trail != 0x7F:
                try:
                    ch = bytes([lead, trail]).decode("cp936")
                    if len(ch) == 1 and ord(ch) < 0x10000:
                        cp = ord(ch)
                except UnicodeDecodeError:
                    pass
            rows.append(cp)
    return rows

def cp1252_table():
    out = []
    for b in range(0x80, 0x100):
        try:
            out.append(ord(bytes([b]).decode("cp1252")))
        except UnicodeDecodeError:
            out.append(0)
    return out

def emit(f, name, values, per=12):
    f.write(f"const uint16_t {name}[{len(values)}] = {{\n")
    for i in range(0, len(values), per):
        f.write("    " + ", ".join(f"0x{v:04x}" for v in values[i:i + per]) + ",\n")
    f.write("};\n")

def main():
    gbk = gbk_table()
    cp = cp1252_table()
    if sum(1 for v in gbk if v) < 20000:
        sys.exit("gen-codepages: this Python's cp936 codec looks incomplete")
    with open(sys.argv[1], "w") as f:
        f.write("/* Generated at build time by tools/gen-codepages.py from Python's codecs; do not edit. */\n")
        f.write('#include "core/base/codepage.h"\n\n')
        f.write("/* GBK: [(lead - 0x81) * 191 + (trail - 0x40)], 0 = not a character */\n")
        emit(f, "hr_cp936_table", gbk)
        f.write("/* CP1252 bytes 0x80..0xFF, 0 = not a character */\n")
        emit(f, "hr_cp1252_table", cp)

main()
