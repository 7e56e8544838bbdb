#!/usr/bin/python3
# What a reader of nio-top's SVG (argv[1]) needs of its layout: every
# <text> inside the page (its width estimated from its font size and its
# characters, as DejaVu Sans sets them, turned with its transform and placed
# by its anchor), every series drawn in a figure labelled in its legend in
# the same colour and marker, no two series of a figure alike in colour and
# marker or dash, every profile bar named and every role in its legend.
# Prints a line per figure; exits 1 naming what failed.
#
# With --ink, what rsvg-convert draws instead: the page rendered a strip at
# a time round its edges (left, right, above, below), where nothing may be
# drawn, the white background left out.
import math, re, subprocess, sys, tempfile, zlib, os
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def transparent(png):
    """Whether every pixel of an RGBA PNG is transparent black."""
    data, pos, idat = open(png, "rb").read(), 8, b""
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        if kind == b"IHDR":
            w = int.from_bytes(data[pos + 8:pos + 12], "big")
            bpp = {6: 4, 2: 3}[data[pos + 17]]
        elif kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw, stride = zlib.decompress(idat), w * bpp + 1
    # Whatever its filters, an image is all zero when its bytes are.
    return all(not any(raw[i + 1:i + stride])
               for i in range(0, len(raw), stride))


def ink(path):
    text = open(path).read()
    m = re.search(r'width="([0-9.]+)" height="([0-9.]+)" viewBox="[^"]*"',
                  text)
    w, h = float(m.group(1)), float(m.group(2))
    text = text.replace('<rect width="100%" height="100%" fill="#fff"/>', "", 1)
    strips = {"left": (-400, -200, 400, h + 400),
              "right": (w, -200, 1600, h + 400),
              "above": (0, -300, w, 300), "below": (0, h, w, 400)}
    bad = []
    with tempfile.TemporaryDirectory() as d:
        for name, (x, y, sw, sh) in strips.items():
            page = 'width="%g" height="%g" viewBox="%g %g %g %g"' % (
                sw, sh, x, y, sw, sh)
            strip = text[:m.start()] + page + text[m.end():]
            open(os.path.join(d, "s.svg"), "w").write(strip)
            subprocess.run(["rsvg-convert", "-o", os.path.join(d, "s.png"),
                            os.path.join(d, "s.svg")], check=True)
            if not transparent(os.path.join(d, "s.png")):
                bad.append(name)
    print("drawn outside the %gx%g page: %s" % (w, h,
                                                ", ".join(bad) or "nothing"))
    sys.exit(1 if bad else 0)


if sys.argv[1] == "--ink":
    ink(sys.argv[2])
root = ET.parse(sys.argv[1]).getroot()
page_w, page_h = float(root.get("width")), float(root.get("height"))
faults = []


def em(c):
    # Each character's width in ems, as nio-top's layout rounds them up.
    if ord(c) >= 0x80:
        return 1.0
    if c in " .,:;'|ijlIJ":
        return 0.32
    if c in "()[]-/\\!frt":
        return 0.42
    if c in "mwMW%@#&=+<>^~":
        return 1.0
    if c.isupper():
        return 0.8
    return 0.64


def box(t):
    """The text's corners on the page."""
    size = float(t.get("font-size"))
    words = "".join(t.itertext())
    w = sum(em(c) for c in words) * size
    if t.get("font-weight") == "bold":
        w *= 1.12
    x, y = float(t.get("x")), float(t.get("y"))
    anchor = t.get("text-anchor", "start")
    x0 = x - (w if anchor == "end" else w / 2 if anchor == "middle" else 0)
    corners = [(x0, y - 0.8 * size), (x0 + w, y - 0.8 * size),
               (x0, y + 0.25 * size), (x0 + w, y + 0.25 * size)]
    m = re.fullmatch(r"rotate\(([-0-9.]+) ([-0-9.]+) ([-0-9.]+)\)",
                     t.get("transform", "rotate(0 0 0)"))
    assert m, t.get("transform")
    a, cx, cy = (float(v) for v in m.groups())
    c, s = math.cos(math.radians(a)), math.sin(math.radians(a))
    return [(cx + (px - cx) * c - (py - cy) * s,
             cy + (px - cx) * s + (py - cy) * c) for px, py in corners]


texts = list(root.iter(NS + "text"))
for t in texts:
    pts = box(t)
    if not all(-0.5 <= px <= page_w + 0.5 and -0.5 <= py <= page_h + 0.5
               for px, py in pts):
        faults.append("text outside the %gx%g page at %s: %r" % (
            page_w, page_h, [tuple(round(v) for v in p) for p in pts][0],
            "".join(t.itertext())[:60]))


def marker(g):
    """The shape of the marker in g, wherever it is drawn."""
    for e in g:
        tag = e.tag[len(NS):]
        if tag == "circle":
            return ("circle", e.get("r"))
        if tag == "rect":
            return ("rect", e.get("width"), e.get("height"))
        if tag == "path":
            return ("path", re.sub(r"^M[-0-9.]+,[-0-9.]+", "", e.get("d")))
    return None


for fig in root.iter(NS + "g"):
    key = (fig.get("id") or "")[len("figure-"):]
    if not (fig.get("id") or "").startswith("figure-") or \
            key in ("profile", "time"):
        continue
    legend = {}
    for g in fig.iter(NS + "g"):
        cls = (g.get("class") or "").split()
        if "legend" not in cls:
            continue
        n = [c for c in cls if c.startswith("series-")][0]
        line = g.find(NS + "line")
        label = " ".join("".join(t.itertext()) for t in g.iter(NS + "text"))
        legend[n] = (line.get("stroke"), marker(g),
                     line.get("stroke-dasharray", ""), label.strip())
        if not label.strip():
            faults.append("%s: %s has no label" % (key, n))
    drawn = {}
    for e in fig.iter():
        cls = e.get("class") or ""
        if e.tag == NS + "polyline":
            drawn.setdefault(cls, [None, None])[0] = e.get("stroke")
        elif e.tag == NS + "g" and cls.startswith("series-"):
            drawn.setdefault(cls, [None, None])[1] = marker(e)
    for n, (colour, shape) in drawn.items():
        if n not in legend:
            faults.append("%s: %s is drawn, not in the legend" % (key, n))
            continue
        if colour and colour != legend[n][0]:
            faults.append("%s: %s drawn %s, %s in the legend" % (
                key, n, colour, legend[n][0]))
        if shape and shape != legend[n][1]:
            faults.append("%s: %s drawn with %s, %s in the legend" % (
                key, n, shape, legend[n][1]))
    looks = list(legend.items())
    for i, (a, (ca, ma, da, la)) in enumerate(looks):
        for b, (cb, mb, db, lb) in looks[i + 1:]:
            if ca == cb and (ma == mb or (da and da == db)):
                faults.append("%s: %r and %r look alike: %s, %s, %r" % (
                    key, la, lb, ca, ma, da))
    print("%s: %d series drawn, %d in the legend" % (key, len(drawn),
                                                     len(legend)))

# Where the CPU and the time go: each point's bars named, each role and
# each reason in the legend.
roles = {r.get("fill") for r in root.iter(NS + "rect")
         if r.get("class") in ("role", "reason")}
swatches = {r.get("fill") for g in root.iter(NS + "g")
            if g.get("class") == "legend" for r in g.iter(NS + "rect")}
bars = [g for g in root.iter(NS + "g") if g.get("class") == "bars"]
for g in bars:
    if not "".join("".join(t.itertext()) for t in g.iter(NS + "text")
                   if not t.get("class")).strip():
        faults.append("profile: a point's bars have no name")
if roles - swatches:
    faults.append("profile: roles not in the legend: %s" % (roles - swatches))
# The sizes over the bars: no two on top of each other.
heads = [(box(t), "".join(t.itertext())) for t in texts
         if t.get("class") == "size"]
for i, (a, na) in enumerate(heads):
    for b, nb in heads[i + 1:]:
        if a[0][0] < b[1][0] and b[0][0] < a[1][0] and \
                a[0][1] < b[2][1] and b[0][1] < a[2][1]:
            faults.append("profile: %s and %s overlap" % (na, nb))
print("profile: %d bars, %d sizes, %d roles" % (len(bars), len(heads),
                                                 len(roles)))
print("%d texts in %gx%g" % (len(texts), page_w, page_h))
for f in faults[:20]:
    print("FAULT", f)
sys.exit(1 if faults else 0)
