#!/usr/bin/env python3
"""Moves the zero_point vector ([long]) of tensor 0 of subgraph 0 of a
TensorFlow Lite FlatBuffer to the end of the file, with its elements at a
4-byte but not 8-byte boundary, and repoints the field at the copy.

usage: misalign.py IN.tflite OUT.tflite
"""
import struct
import sys

data = bytearray(open(sys.argv[1], "rb").read())


def u32(pos):
    return struct.unpack_from("<I", data, pos)[0]


def deref(pos):
    """Follows the uoffset stored at pos."""
    return pos + u32(pos)


def field(table, slot):
    """Position of field `slot` of the table at `table`."""
    vtable = table - struct.unpack_from("<i", data, table)[0]
    vtable_size = struct.unpack_from("<H", data, vtable)[0]
    entry = 4 + 2 * slot
    offset = struct.unpack_from("<H", data, vtable + entry)[0] if entry < vtable_size else 0
    assert offset, "field %d is absent" % slot
    return table + offset


model = deref(0)
subgraph = deref(deref(field(model, 2)) + 4)        # Model.subgraphs[0]
tensor = deref(deref(field(subgraph, 0)) + 4)       # SubGraph.tensors[0]
quant = deref(field(tensor, 4))                     # Tensor.quantization
ref = field(quant, 3)                               # QuantizationParameters.zero_point
vector = deref(ref)
count = u32(vector)

while len(data) % 8 != 0:
    data.append(0)
moved = len(data)  # 8-aligned length field, so the elements sit at 4 mod 8
data += struct.pack("<I", count) + data[vector + 4:vector + 4 + 8 * count]
struct.pack_into("<I", data, ref, moved - ref)
# A whole number of 8-byte words: the fuzz target then passes the file at an
# aligned address, so only the vector itself is misaligned.
while len(data) % 8 != 0:
    data.append(0)
open(sys.argv[2], "wb").write(bytes(data))
