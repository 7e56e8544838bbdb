#!/usr/bin/python3
# The IPv4 GSO and GRO sizes of link NAME (argv[1]) in this namespace, read
# with RTM_GETLINK, as iproute2 6.1 cannot show them: "185000 185000", or
# "none" for an attribute the kernel did not report.
import socket, struct, sys
name = sys.argv[1]
idx = socket.if_nametoindex(name)
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
s.bind((0, 0))
RTM_GETLINK = 18
ifi = struct.pack('BxHiII', 0, 0, idx, 0, 0)
hdr = struct.pack('IHHII', 16 + len(ifi), RTM_GETLINK, 1, 1, 0)
s.send(hdr + ifi)
data = s.recv(65536)
length, typ, flags, seq, pid = struct.unpack_from('IHHII', data)
off = 16 + 16
attrs = {}
while off + 4 <= length:
    alen, atype = struct.unpack_from('HH', data, off)
    if alen < 4:
        break
    if alen == 8:
        attrs[atype & 0x3fff] = struct.unpack_from('I', data, off + 4)[0]
    off += (alen + 3) & ~3
print(attrs.get(63, 'none'), attrs.get(64, 'none'))
