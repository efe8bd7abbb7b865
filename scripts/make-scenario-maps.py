#!/usr/bin/env python3
"""Writes the two historical maps, scenarios/songjin-1641/map.geojson and
scenarios/dalinghe-1631/map.geojson, from the Natural Earth extract of the Liaoxi
corridor (tests/data/maps/liaoxi-natural-earth.geojson, a copy of
../shared/data/liaoxi-natural-earth.geojson) and the places, sizes and sources listed
below (../shared/HISTORY.md, the seeds, the literature cited in each feature).

Run from the repository root: python3 scripts/make-scenario-maps.py
It needs only Python 3 (no GIS packages). Edit the tables here, not the GeoJSON: the
shore bands (tidal flats, shallow sea) are offsets of the real coastline that a hand
edit would not keep consistent. The output is deterministic.

Every feature carries "grade", "source" and "note" (docs/map-format.md). The grade (A,
B or E as in HISTORY.md) says how well the record attests the feature itself: that it
was there, what it was and roughly where. Its numbers that are estimates beyond that
(outlines, widths, depths, elevations, capacities) are marked (E) in its note.
"""
import json
import math
import os
import sys

NE_FILE = 'tests/data/maps/liaoxi-natural-earth.geojson'
LI_M = 576.0       # one Ming li, m (HISTORY.md)
ZHANG_M = 3.2      # one zhang, m

# ---- geometry in metres around an origin ----------------------------------------------
class Frame:
    """The loader's projection (src/map.c, docs/map-format.md): transverse Mercator on the
    WGS84 ellipsoid, Krueger series to n^6 in Karney's formulation, central meridian
    through the origin, origin at (0, 0). Metres here are the loader's metres to well
    under a millimetre, so shapes, gates and the map's extent come out exactly."""

    def __init__(self, lon0, lat0):
        a, f = 6378137.0, 1 / 298.257223563
        n = f / (2 - f)
        n2, n3, n4, n5, n6 = n ** 2, n ** 3, n ** 4, n ** 5, n ** 6
        self.e = math.sqrt(f * (2 - f))
        self.e2m = 1 - f * (2 - f)
        self.a_hat = a / (1 + n) * (1 + n2 / 4 + n4 / 64 + n6 / 256)
        self.alpha = [0, n / 2 - 2 * n2 / 3 + 5 * n3 / 16 + 41 * n4 / 180 - 127 * n5 / 288 + 7891 * n6 / 37800,
                      13 * n2 / 48 - 3 * n3 / 5 + 557 * n4 / 1440 + 281 * n5 / 630 - 1983433 * n6 / 1935360,
                      61 * n3 / 240 - 103 * n4 / 140 + 15061 * n5 / 26880 + 167603 * n6 / 181440,
                      49561 * n4 / 161280 - 179 * n5 / 168 + 6601661 * n6 / 7257600,
                      34729 * n5 / 80640 - 3418889 * n6 / 1995840,
                      212378941 * n6 / 319334400]
        self.beta = [0, n / 2 - 2 * n2 / 3 + 37 * n3 / 96 - n4 / 360 - 81 * n5 / 512 + 96199 * n6 / 604800,
                     n2 / 48 + n3 / 15 - 437 * n4 / 1440 + 46 * n5 / 105 - 1118711 * n6 / 3870720,
                     17 * n3 / 480 - 37 * n4 / 840 - 209 * n5 / 4480 + 5569 * n6 / 90720,
                     4397 * n4 / 161280 - 11 * n5 / 504 - 830251 * n6 / 7257600,
                     4583 * n5 / 161280 - 108847 * n6 / 3991680,
                     20648693 * n6 / 638668800]
        self.lon0, self.lat0 = lon0, lat0
        self.y0 = 0.0
        self.y0 = self.xy(lon0, lat0)[1]

    def _tau(self, tau):
        tau1 = math.hypot(1.0, tau)
        sig = math.sinh(self.e * math.atanh(self.e * tau / tau1))
        return math.hypot(1.0, sig) * tau - sig * tau1

    def xy(self, lon, lat):
        dl = math.remainder(math.radians(lon - self.lon0), 2 * math.pi)
        taup = self._tau(math.tan(math.radians(lat)))
        xip = math.atan2(taup, math.cos(dl))
        etap = math.asinh(math.sin(dl) / math.hypot(taup, math.cos(dl)))
        xi, eta = xip, etap
        for j in range(1, 7):
            xi += self.alpha[j] * math.sin(2 * j * xip) * math.cosh(2 * j * etap)
            eta += self.alpha[j] * math.cos(2 * j * xip) * math.sinh(2 * j * etap)
        return (self.a_hat * eta, self.a_hat * xi - self.y0)

    def ll(self, x, y):
        xi, eta = (y + self.y0) / self.a_hat, x / self.a_hat
        xip, etap = xi, eta
        for j in range(1, 7):
            xip -= self.beta[j] * math.sin(2 * j * xi) * math.cosh(2 * j * eta)
            etap -= self.beta[j] * math.cos(2 * j * xi) * math.sinh(2 * j * eta)
        s, c = math.sinh(etap), math.cos(xip)
        taup = math.sin(xip) / math.hypot(s, c)
        dl = math.atan2(s, c)
        tau = taup / self.e2m
        for _ in range(10):
            taupa = self._tau(tau)
            dtau = (taup - taupa) * (1 + self.e2m * tau * tau) / (self.e2m * math.hypot(1, tau) * math.hypot(1, taupa))
            tau += dtau
            if not abs(dtau) >= 1e-15 * max(1.0, abs(tau)):
                break
        return (math.remainder(self.lon0 + math.degrees(dl), 360.0), math.degrees(math.atan(tau)))


# ---- clipping to the map's rectangle ----------------------------------------------------
def clip_polygon(ring, lo, hi):
    """Sutherland-Hodgman against the rectangle [lo, hi] (metres)."""
    pts = ring[:-1]
    for axis, bound, keep_less in ((0, lo[0], False), (0, hi[0], True), (1, lo[1], False), (1, hi[1], True)):
        out = []
        for i in range(len(pts)):
            a, b = pts[i - 1], pts[i]
            ina = a[axis] <= bound if keep_less else a[axis] >= bound
            inb = b[axis] <= bound if keep_less else b[axis] >= bound
            if inb:
                if not ina:
                    t = (bound - a[axis]) / (b[axis] - a[axis])
                    out.append(tuple(a[k] + t * (b[k] - a[k]) if k != axis else bound for k in (0, 1)))
                out.append(b)
            elif ina:
                t = (bound - a[axis]) / (b[axis] - a[axis])
                out.append(tuple(a[k] + t * (b[k] - a[k]) if k != axis else bound for k in (0, 1)))
        pts = out
    # drop repeats
    clean = []
    for p in pts:
        if not clean or dist(p, clean[-1]) > 1e-6:
            clean.append(p)
    if len(clean) > 1 and dist(clean[0], clean[-1]) <= 1e-6:
        clean.pop()
    return closed(clean)


def clip_line(line, lo, hi):
    """The longest run of a polyline inside the rectangle, cut at its edges."""
    def inside(p):
        return lo[0] <= p[0] <= hi[0] and lo[1] <= p[1] <= hi[1]

    def cut(a, b):  # the point where segment ab crosses the rectangle's boundary
        found = []
        for axis, bound in ((0, lo[0]), (0, hi[0]), (1, lo[1]), (1, hi[1])):
            if b[axis] == a[axis]:
                continue
            t = (bound - a[axis]) / (b[axis] - a[axis])
            if 0 <= t <= 1:
                p = tuple(a[k] + t * (b[k] - a[k]) if k != axis else bound for k in (0, 1))
                if lo[0] - 1e-6 <= p[0] <= hi[0] + 1e-6 and lo[1] - 1e-6 <= p[1] <= hi[1] + 1e-6:
                    found.append((t, p))
        found.sort()
        return found[-1][1] if inside(b) else found[0][1]
    runs, run = [], []
    for i, p in enumerate(line):
        if inside(p):
            if not run and i > 0:
                run.append(cut(line[i - 1], p))
            run.append(p)
        elif run:
            run.append(cut(line[i - 1], p))
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    return max(runs, key=line_length)


def dist(a, b):
    return math.hypot(b[0] - a[0], b[1] - a[1])


def seg_point_dist(p, a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    l2 = dx * dx + dy * dy
    t = 0.0 if l2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2))
    return math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1])


def polyline_dist(p, line):
    return min(seg_point_dist(p, line[i], line[i + 1]) for i in range(len(line) - 1))


def orient(a, b, c):
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def seg_intersection(p, q, r, s):
    """The crossing point of segments pq and rs, or None (touching counts)."""
    d = (q[0] - p[0]) * (s[1] - r[1]) - (q[1] - p[1]) * (s[0] - r[0])
    if d == 0:
        return None
    t = ((r[0] - p[0]) * (s[1] - r[1]) - (r[1] - p[1]) * (s[0] - r[0])) / d
    u = ((r[0] - p[0]) * (q[1] - p[1]) - (r[1] - p[1]) * (q[0] - p[0])) / d
    if 0 <= t <= 1 and 0 <= u <= 1:
        return (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
    return None


def resample(line, step):
    out = [line[0]]
    for i in range(len(line) - 1):
        a, b = line[i], line[i + 1]
        n = max(1, int(math.ceil(dist(a, b) / step)))
        for k in range(1, n + 1):
            out.append((a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n))
    return out


def simplify(line, tol):
    """Douglas-Peucker."""
    if len(line) < 3:
        return list(line)
    keep = [False] * len(line)
    keep[0] = keep[-1] = True
    stack = [(0, len(line) - 1)]
    while stack:
        i, j = stack.pop()
        best, bi = -1.0, -1
        for k in range(i + 1, j):
            d = seg_point_dist(line[k], line[i], line[j])
            if d > best:
                best, bi = d, k
        if best > tol:
            keep[bi] = True
            stack.append((i, bi))
            stack.append((bi, j))
    return [p for p, k in zip(line, keep) if k]


def remove_loops(line):
    """Cuts out every loop of a polyline (where a later segment crosses an earlier one)."""
    pts = list(line)
    changed = True
    while changed:
        changed = False
        n = len(pts)
        for i in range(n - 1):
            for j in range(i + 2, n - 1):
                x = seg_intersection(pts[i], pts[i + 1], pts[j], pts[j + 1])
                if x is not None:
                    pts = pts[:i + 1] + [x] + pts[j + 1:]
                    changed = True
                    break
            if changed:
                break
    return pts


def offset_line(line, d, step=60.0):
    """The polyline displaced by d metres to its left (d < 0: right): a smoothed normal
    at every resampled point, points that fall nearer the line than 0.9 |d| dropped (they
    lie in a pinch), loops cut out, then simplified to 8 m."""
    pts = resample(line, step)
    k = max(1, int(round(abs(d) / (2 * step))))
    out = []
    for i in range(len(pts)):
        a, b = pts[max(0, i - k)], pts[min(len(pts) - 1, i + k)]
        tx, ty = b[0] - a[0], b[1] - a[1]
        n = math.hypot(tx, ty)
        tx, ty = tx / n, ty / n
        out.append((pts[i][0] - ty * d, pts[i][1] + tx * d))
    base = simplify(pts, 2.0)
    out = [p for p in out if polyline_dist(p, base) >= 0.9 * abs(d)]
    out = remove_loops(out)
    return simplify(out, 8.0)


def ring_is_simple(ring):
    """The loader's rule: no two non-adjacent edges of a closed ring touch."""
    n = len(ring) - 1
    for i in range(n):
        for j in range(i + 1, n):
            if j == i + 1 or (i == 0 and j == n - 1):
                continue
            a, b, c, e = ring[i], ring[i + 1], ring[j], ring[j + 1]
            if max(c[0], e[0]) < min(a[0], b[0]) or min(c[0], e[0]) > max(a[0], b[0]):
                continue
            if max(c[1], e[1]) < min(a[1], b[1]) or min(c[1], e[1]) > max(a[1], b[1]):
                continue
            if seg_intersection(a, b, c, e) is not None:
                return False
    return True


def closed(ring):
    return ring if ring[0] == ring[-1] else ring + [ring[0]]


def ellipse(c, rx, ry, n=24, rot_deg=0.0):
    r = math.radians(rot_deg)
    pts = []
    for k in range(n):
        t = 2 * math.pi * k / n
        x, y = rx * math.cos(t), ry * math.sin(t)
        pts.append((c[0] + x * math.cos(r) - y * math.sin(r), c[1] + x * math.sin(r) + y * math.cos(r)))
    return closed(pts)


def buffer_line(axis, hw, cap_points=8):
    """A ridge: the polygon within hw of a polyline (offsets both sides, round caps)."""
    left = offset_line(axis, hw)
    right = offset_line(axis, -hw)
    ring = list(left)
    # cap round the last point, from the left side to the right side
    a, b = axis[-2], axis[-1]
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    for k in range(1, cap_points):
        t = ang + math.pi / 2 - math.pi * k / cap_points
        ring.append((b[0] + hw * math.cos(t), b[1] + hw * math.sin(t)))
    ring += list(reversed(right))
    a, b = axis[1], axis[0]
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    for k in range(1, cap_points):
        t = ang + math.pi / 2 - math.pi * k / cap_points
        ring.append((b[0] + hw * math.cos(t), b[1] + hw * math.sin(t)))
    return closed(ring)


def line_length(line):
    return sum(dist(line[i], line[i + 1]) for i in range(len(line) - 1))


def cut_line_at(line, other):
    """The part of `line` up to its first crossing with polyline `other` (None if none)."""
    for i in range(len(line) - 1):
        best = None
        for j in range(len(other) - 1):
            x = seg_intersection(line[i], line[i + 1], other[j], other[j + 1])
            if x is not None and (best is None or dist(line[i], x) < dist(line[i], best)):
                best = x
        if best is not None:
            return line[:i + 1] + [best]
    return None


def extend(line, metres):
    a, b = line[-2], line[-1]
    n = dist(a, b)
    return line[:-1] + [(b[0] + (b[0] - a[0]) / n * metres, b[1] + (b[1] - a[1]) / n * metres)]


def wind(ctrl, straight=()):
    """A road through control points, winding between them: on every segment longer than
    1.5 km (and not listed in `straight`) sine bends ~4 km long (a whole number of half
    waves, zero at the control points) of amplitude 0.15 of their wavelength, which adds
    (0.15 pi)^2 = 22 % to the length; the sign alternates from segment to segment. With
    the straight stretches at the gates and the defile the road comes out 15-20 % longer
    than its chords, as HISTORY.md says of the roads (15-30 %)."""
    out = [ctrl[0]]
    sign = 1.0
    for i in range(len(ctrl) - 1):
        a, b = ctrl[i], ctrl[i + 1]
        L = dist(a, b)
        if i in straight or L < 1500.0:
            out.append(b)
            continue
        ux, uy = (b[0] - a[0]) / L, (b[1] - a[1]) / L
        k = max(1, round(2 * L / 4000.0))
        amp = sign * 0.15 * 2 * L / k
        sign = -sign
        n = max(2, int(math.ceil(L / 100.0)))
        for j in range(1, n + 1):
            t = j / n
            off = amp * math.sin(math.pi * k * t)
            out.append((a[0] + ux * L * t - uy * off, a[1] + uy * L * t + ux * off))
    return simplify(out, 3.0)


# ---- writing ------------------------------------------------------------------------------
class MapWriter:
    """Features in metres, clipped to the map's rectangle (the extent, centred on the
    origin), written as [lon, lat] with 7 decimals (1 cm)."""

    def __init__(self, frame, name, description, cell_m, width_m, height_m):
        self.f = frame
        self.name, self.description, self.cell_m = name, description, cell_m
        self.width_m, self.height_m = width_m, height_m
        self.lo = (-width_m / 2, -height_m / 2)
        self.hi = (width_m / 2, height_m / 2)
        self.features = []
        self.ids = set()

    def _ll(self, p):
        # 5 cm inside the extent, so rounding never puts a position outside it
        x = min(max(p[0], self.lo[0] + 0.05), self.hi[0] - 0.05)
        y = min(max(p[1], self.lo[1] + 0.05), self.hi[1] - 0.05)
        lon, lat = self.f.ll(x, y)
        return [round(lon, 7), round(lat, 7)]

    def _geom(self, kind, geom):
        t, coords = geom
        if t == 'Point':
            return {'type': 'Point', 'coordinates': self._ll(coords)}
        if t == 'LineString':
            return {'type': 'LineString', 'coordinates': [self._ll(p) for p in coords]}
        if t == 'MultiLineString':
            return {'type': 'MultiLineString', 'coordinates': [[self._ll(p) for p in part] for part in coords]}
        if t == 'Polygon':
            coords = [clip_polygon(ring, self.lo, self.hi) for ring in coords]
            for ring in coords:
                assert ring[0] == ring[-1], 'unclosed ring'
                assert ring_is_simple(ring), '%s ring is not simple' % kind
            return {'type': 'Polygon', 'coordinates': [[self._ll(p) for p in ring] for ring in coords]}
        if t == 'MultiPolygon':
            for poly in coords:
                for ring in poly:
                    assert ring_is_simple(ring)
            return {'type': 'MultiPolygon', 'coordinates': [[[self._ll(p) for p in ring] for ring in poly] for poly in coords]}
        raise ValueError(t)

    def add(self, kind, geom, id=None, name=None, name_zh=None, grade=None, source=None, note=None, **props):
        assert grade in ('A', 'B', 'E'), (id, grade)
        assert source and note, id
        p = {'kind': kind}
        if id is not None:
            assert id not in self.ids, id
            self.ids.add(id)
            p['id'] = id
        if name:
            p['name'] = name
        if name_zh:
            p['name_zh'] = name_zh
        for k, v in props.items():
            if k == 'gates':
                v = [self._ll(g) for g in v]
            p[k] = v
        p['grade'] = grade
        p['source'] = source
        p['note'] = note
        self.features.append({'type': 'Feature', 'properties': p, 'geometry': self._geom(kind, geom)})

    def write(self, path):
        doc = {
            'type': 'FeatureCollection',
            'name': self.name,
            'description': self.description,
            'rout': {'origin': [self.f.lon0, self.f.lat0], 'cell_m': self.cell_m,
                     'extent_m': [self.width_m, self.height_m]},
            'features': self.features,
        }
        os.makedirs(os.path.dirname(path), exist_ok=True)
        text = json.dumps(doc, ensure_ascii=False, indent=1)
        # one position per line is unreadable: keep [lon, lat] pairs on one line
        import re
        text = re.sub(r'\[\n\s+(-?[0-9.]+),\n\s+(-?[0-9.]+)\n\s+\]', r'[\1, \2]', text)
        with open(path, 'w', encoding='utf-8') as out:
            out.write(text + '\n')
        print('%s: %d features' % (path, len(self.features)))


def fort(w, id, name, name_zh, centre_ll, side_m, gate_sides, capacity, grade, source, note, side='ming', height_m=None,
         wall_width_m=8.0, gate_width_m=6.0, side_ns_m=None):
    """A walled town drawn as a rectangle side_m (east-west) by side_ns_m (north-south)
    with gates at the middle of the named sides ("N", "S", "E", "W")."""
    c = w.f.xy(*centre_ll)
    hx, hy = side_m / 2, (side_ns_m or side_m) / 2
    ring = closed([(c[0] - hx, c[1] - hy), (c[0] + hx, c[1] - hy), (c[0] + hx, c[1] + hy), (c[0] - hx, c[1] + hy)])
    where = {'N': (c[0], c[1] + hy), 'S': (c[0], c[1] - hy), 'E': (c[0] + hx, c[1]), 'W': (c[0] - hx, c[1])}
    props = dict(gates=[where[s] for s in gate_sides], capacity=capacity, side=side, gate_width_m=gate_width_m,
                 wall_width_m=wall_width_m)
    if height_m:
        props['height_m'] = height_m
    w.add('fort', ('Polygon', [ring]), id=id, name=name, name_zh=name_zh, grade=grade, source=source, note=note, **props)
    return where


# ---- shared data --------------------------------------------------------------------------
def natural_earth():
    with open(NE_FILE, encoding='utf-8') as f:
        doc = json.load(f)
    coast = [tuple(p) for p in doc['features'][0]['geometry']['coordinates']]
    daling = [tuple(p) for p in doc['features'][1]['geometry']['coordinates']]
    return coast, daling


# The Xiaoling 小凌河: Natural Earth does not have it. It runs east round the south of
# Jinzhou, turns sharply south east of the city and enters the bay at 40.917 N 121.20 E
# (HISTORY.md; the river's descriptions give its mouth at 40°55' N 121°12' E). Course
# between those points estimated (E).
XIAOLING_LL = [(121.015, 41.190), (121.040, 41.166), (121.065, 41.140), (121.090, 41.124), (121.115, 41.112), (121.140, 41.1085),
               (121.160, 41.1055), (121.176, 41.0955), (121.188, 41.083), (121.194, 41.065), (121.197, 41.040),
               (121.200, 41.005), (121.204, 40.975), (121.203, 40.950), (121.201, 40.930), (121.200, 40.917)]
XIAOLING_WIDTH_M = 60.0
XIAOLING_DEPTH_M = 2.0
XIAOLING_SRC = ('HISTORY.md (mouth 40.917 N 121.20 E, B); course: the river rounds Jinzhou on the south and turns '
                'sharply south to the bay (descriptions of the Xiaoling, e.g. ja.wikipedia 小凌河); 杏山之北为松山，由此渡小凌河即为锦州')
XIAOLING_NOTE = ('Course between Jinzhou and the mouth drawn by estimate (E). Width 60 m and depth 2 m are estimates for '
                 'the low-water channel in autumn after rain (E): impassable except at fords. The Nüer river 女儿河, its '
                 'tributary from Lianshan, and the torrents that cut the corridor are not drawn.')
JINZHOU_LL = (121.14, 41.12)
# the ford on the Jinzhou-Songshan road, south of the city, and the 1631 crossing east of it
XIAOLING_FORD_LON = 121.138
XIAOLING_CROSSING_AT = 121.1835  # longitude on the bend reach east of Jinzhou


def river_point_at_lon(river, lon):
    for i in range(len(river) - 1):
        a, b = river[i], river[i + 1]
        if min(a[0], b[0]) <= lon <= max(a[0], b[0]) and a[0] != b[0]:
            t = (lon - a[0]) / (b[0] - a[0])
            return (lon, a[1] + t * (b[1] - a[1])), (b[0] - a[0], b[1] - a[1])
    raise ValueError(lon)


def ford_across(w, river_ll, lon, half_length_m):
    """A short line across the river at a longitude, perpendicular to the stream."""
    (plon, plat), _ = river_point_at_lon(river_ll, lon)
    c = w.f.xy(plon, plat)
    # the local direction in metres
    i = min(range(len(river_ll) - 1), key=lambda k: abs(0.5 * (river_ll[k][0] + river_ll[k + 1][0]) - lon))
    a, b = w.f.xy(*river_ll[i]), w.f.xy(*river_ll[i + 1])
    tx, ty = b[0] - a[0], b[1] - a[1]
    n = math.hypot(tx, ty)
    nx, ny = -ty / n, tx / n
    return [(c[0] - nx * half_length_m, c[1] - ny * half_length_m), (c[0] + nx * half_length_m, c[1] + ny * half_length_m)], c


def jinzhou_fort(w):
    return fort(w, 'jinzhou', 'Jinzhou', '锦州', JINZHOU_LL, 850.0, ['N', 'S', 'E', 'W'], 30000, 'A',
                'HISTORY.md (position, A); capacity 30,000 from the scenario brief; garrison under Zu Dashou 10,000-25,000 (HISTORY.md, B)',
                'Walled city on the north bank of the Xiaoling. Outline a square 850 m a side (circuit ~6 li), an '
                'estimate (E): the Ming wall is not measured here. Walls 8 m thick, 10 m high (E). Gates at the middle '
                'of each side; the south gate takes the road to Songshan over the Xiaoling ford.',
                height_m=10.0)


# ---- Song-Jin 1641 ------------------------------------------------------------------------
def map_frame(box, cell_m):
    """Origin at the centre of a lon/lat box, and an extent (whole cells) that holds it."""
    lon0, lat0 = 0.5 * (box[0] + box[2]), 0.5 * (box[1] + box[3])
    f = Frame(lon0, lat0)
    xs = [f.xy(lon, lat)[0] for lon in (box[0], box[2]) for lat in (box[1], lat0, box[3])]
    ys = [f.xy(lon, lat)[1] for lon in (box[0], lon0, box[2]) for lat in (box[1], box[3])]
    half_w = min(max(xs), -min(xs))
    half_h = min(max(ys), -min(ys))
    return f, 2 * cell_m * math.floor(half_w / cell_m), 2 * cell_m * math.floor(half_h / cell_m)


def songjin():
    # The map's rectangle is an explicit extent, so the sea and the Xiaoling reach its
    # edges: without one the loader pads the features' box with two cells of open ground,
    # a strip men could walk round the bay and round the river's head on. The loader
    # centres an extent on the origin, which therefore lies in the middle of the corridor
    # (near Tashan), not at Songshan.
    box = (120.660, 40.565, 121.27, 41.168)  # lon min, lat min, lon max, lat max
    f, width, height = map_frame(box, 25)
    w = MapWriter(f, 'Song-Jin 1641: the Liaoxi corridor from Ningyuan to Jinzhou',
                  'Built by scripts/make-scenario-maps.py on Natural Earth 1:10m (public domain). See scenarios/songjin-1641/README.md.',
                  25, width, height)
    xy = lambda lon, lat: f.xy(lon, lat)
    coast_ll, _ = natural_earth()

    # --- the coastline: Natural Earth, clipped to the map, with two changes ------------
    # (1) Bijia shan: Natural Earth draws it joined to the shore (the port's fill); in 1641
    #     it was a tidal island, so the shore runs straight across and the island stands
    #     apart, 1.6 km off, on a causeway dry at low tide.
    # (2) the Xiaoling mouth at 40.917 N 121.20 E (HISTORY.md) replaces the vertex
    #     121.20029 40.93073 1.5 km north of it.
    pts = []
    for p in coast_ll:
        if (121.0300 < p[0] < 121.0800) and 40.79 < p[1] < 40.8200:
            continue  # the peninsula's vertices
        if p == (121.20029, 40.93073):
            pts.append((121.200, 40.917))
            continue
        pts.append(p)
        if p == (121.02963, 40.82648):
            pts.append((121.050, 40.8285))
    coast = clip_line([xy(*p) for p in pts], w.lo, w.hi)
    # it enters through the south edge and leaves through the east edge
    assert abs(coast[0][1] - w.lo[1]) < 1e-6 and abs(coast[-1][0] - w.hi[0]) < 1e-6, (coast[0], coast[-1])
    SE = (w.hi[0], w.lo[1])
    NE_SRC = 'Natural Earth 1:10m coastline (public domain), ../shared/data/liaoxi-natural-earth.geojson'

    # --- the island of Bijia shan -------------------------------------------------------
    bijia_c = xy(121.050, 40.8085)
    island = ellipse(bijia_c, 330.0, 550.0, n=28)
    apron_out = ellipse(bijia_c, 450.0, 670.0, n=28)

    # --- sea ------------------------------------------------------------------------------
    sea_ring = closed(coast + [SE])
    assert ring_is_simple(sea_ring)
    w.add('sea', ('Polygon', [sea_ring, list(reversed(apron_out))]), id='jinzhou_bay', name='Jinzhou Bay', name_zh='锦州湾',
          elevation_m=-5.0, grade='B', source=NE_SRC + '; depth an estimate',
          note='The bay seaward of the present-day shore, closed along the map edges. Sea bed at -5 m (E: the inner bay '
               'is shallow); the shore band below is shallower. Bijia shan and its foreshore are a hole in it.')
    shallow = offset_line(coast, -450.0)
    w.add('sea', ('Polygon', [closed(coast + list(reversed(shallow)))]), id='bay_shallows', name='Jinzhou Bay shallows',
          name_zh='锦州湾浅滩', elevation_m=-1.2, grade='E', source=NE_SRC + '; depth an estimate',
          note='The 450 m of sea next to the shore, 1.2 m deep at mean sea level (E): men can wade into it at low '
               'tide; at high tide it is over their heads.')

    # --- tidal flats: graded bands along the shore ------------------------------------------
    # The wide flats run from the east edge past the Xiaoling mouth and Bijia shan round the
    # head of the bay to Lianshan bay (seed 003: 自杏山以南，沿海至塔山). Ground rises
    # landward: 0.6, 1.2, 1.8, 2.5 m above mean sea level. An ordinary high tide (~+1 m,
    # range ~2 m, HISTORY.md) covers the outer band only; a spring tide plus the 3.2 m surge
    # of seed 003 (~+4.5 m) covers them all by 2 m or more. Elsewhere a narrow beach.
    k_end = min(range(len(coast)), key=lambda k: dist(coast[k], xy(120.93629, 40.75556)))
    wide = coast[k_end:]
    narrow = coast[:k_end + 1]
    bands = [(1200.0, 2.5, 0.8), (800.0, 1.8, 0.75), (450.0, 1.2, 0.7), (200.0, 0.6, 0.6)]
    FLAT_SRC = ('HISTORY.md (tides: range ~2 m, springs 2.5-3 m, E; surge 一丈多 > 3.2 m, seed 003); shore from ' + NE_SRC)
    flats_inner = None
    for width, elev, speed in bands:
        inner = offset_line(wide, width)
        if flats_inner is None:
            flats_inner = inner
        ring = closed(wide + list(reversed(inner)))
        w.add('tidal_flat', ('Polygon', [ring]), id='flats_bay_%dm' % int(width),
              name='Jinzhou Bay flats (%.1f m)' % elev, name_zh='锦州湾海滩', elevation_m=elev, speed_factor=speed,
              grade='B', source=FLAT_SRC,
              note='Flats and salt marsh within %d m of the shore from the Xiaoling mouth past Bijia shan to Tashan '
                   'and Lianshan bay, %.1f m above mean sea level (E), drawn lower seaward over the wider bands: dry '
                   'at mean sea level, covered by a spring tide with the 3.2 m surge of seed 003, where fugitives '
                   'drowned. Walking speed x%.2f on sand and mud (E).' % (width, elev, speed))
    for width, elev, speed in [(300.0, 1.5, 0.8), (120.0, 0.6, 0.6)]:
        inner = offset_line(narrow, width)
        ring = closed(narrow + list(reversed(inner)))
        w.add('tidal_flat', ('Polygon', [ring]), id='flats_beach_%dm' % int(width), name='Beach (%.1f m)' % elev,
              name_zh='海滩', elevation_m=elev, speed_factor=speed, grade='E', source=FLAT_SRC,
              note='A narrow beach %d m wide along the rocky Huludao shore and south to Ningyuan, %.1f m above mean sea '
                   'level (E).' % (width, elev))
    # Bijia shan's foreshore and the causeway 天桥
    w.add('tidal_flat', ('Polygon', [apron_out, list(reversed(island))]), id='bijia_foreshore', name='Bijia shan foreshore',
          name_zh='笔架山海滩', elevation_m=0.5, speed_factor=0.6, grade='E', source='HISTORY.md (Bijia shan, B)',
          note='A rocky and sandy foreshore 120 m wide round the island, 0.5 m above mean sea level (E).')
    root = xy(121.050, 40.8289)
    tip = (bijia_c[0], bijia_c[1] + 640.0)
    cw = 70.0
    causeway = closed([(tip[0] - cw, tip[1]), (tip[0] + cw, tip[1]), (root[0] + cw, root[1]), (root[0] - cw, root[1])])
    w.add('tidal_flat', ('Polygon', [causeway]), id='bijia_causeway', name='Bijia shan causeway (Tianqiao)',
          name_zh='天桥', elevation_m=0.2, speed_factor=0.7, grade='B',
          source='HISTORY.md: Bijia shan a tidal island, 1.6 km causeway dry at low tide (B)',
          note='A sand bar 140 m wide (E) from the shore to the island, 0.2 m above mean sea level (E): dry at low and '
               'mean tide, covered by an ordinary high tide. Length %.1f km here.' % (dist(root, tip) / 1000))

    # --- the shore line ----------------------------------------------------------------------
    w.add('coast', ('MultiLineString', [coast, apron_out]), id='coast', name='Shore of Jinzhou Bay', name_zh='锦州湾海岸',
          elevation_m=0.0, grade='B', source=NE_SRC,
          note='The present-day shore from Natural Earth (~1 km detail), at mean sea level. Changed in two places: '
               'Bijia shan is an island again (Natural Earth joins it to the shore), and the Xiaoling mouth is moved to '
               'HISTORY.md\'s 40.917 N 121.20 E. The 1641 shore near the river mouths may have lain somewhat inland '
               '(the extract\'s note); not modelled.')

    # --- hills --------------------------------------------------------------------------------
    # The foot of the hills on the north-west side of the corridor (E), north-east to
    # south-west. The corridor between it and the bay is ~12 km wide at Tashan (HISTORY.md).
    foot_ll = [(121.046, 41.104), (121.036, 41.080), (121.026, 41.052), (121.014, 41.022), (121.002, 40.996),
               (120.991, 40.970), (120.977, 40.945), (120.963, 40.920), (120.950, 40.897), (120.941, 40.880),
               (120.933, 40.862), (120.920, 40.842), (120.900, 40.814), (120.873, 40.783), (120.845, 40.762),
               (120.822, 40.738), (120.795, 40.703), (120.768, 40.672), (120.741, 40.645), (120.715, 40.622),
               (120.703, 40.600), (120.696, 40.568)]
    foot = [xy(*p) for p in foot_ll]
    RIDGE_HW = 2600.0
    axis = offset_line(foot, -RIDGE_HW)  # the foot runs NE to SW: its right is the north-west
    front = buffer_line(axis, RIDGE_HW)
    HILL_SRC = 'HISTORY.md: the corridor a low coastal plain with hills inland; ~12 km wide at Tashan between Baitai shan and the bay'
    w.add('hill', ('Polygon', [front]), id='western_hills', name='Hills west of the corridor', name_zh='辽西走廊西侧山地',
          height_m=140.0, grade='B', source=HILL_SRC,
          note='The first range of the uplands north-west of the corridor, drawn as one ridge 5.2 km wide whose '
               'south-east foot follows the line that makes the corridor ~12 km wide at Tashan; crest 145 m (E). '
               'Slow going on its flanks. The valleys and passes that cut it are not drawn.')
    # behind it, to the map's north and west edges: higher ground
    # the back range: from the ridge's crest line to the west and north-west edges of the map
    back = list(axis) + [w.lo, (w.lo[0], xy(box[0], 41.105)[1])]
    back_ring = closed(back)
    w.add('hill', ('Polygon', [back_ring]), id='western_uplands', name='Uplands behind the corridor', name_zh='辽西丘陵',
          height_m=160.0, grade='E', source=HILL_SRC,
          note='The uplands behind the first ridge, bounded by its crest, the map edges and the Xiaoling valley; '
               'heights 150-350 m together with the ridge (E). Beyond the action; drawn so the map is not a plain there.')
    baitai = ellipse(xy(120.895, 40.872), 2300.0, 1900.0, n=28, rot_deg=35)
    w.add('hill', ('Polygon', [baitai]), id='baitai_shan', name='Baitai shan', name_zh='白台山', height_m=120.0,
          grade='B', source='HISTORY.md: Baitai shan ~200 m bounds the corridor at Tashan (B); position an estimate',
          note='Drawn on the ridge west of Tashan; crest ~200 m above sea with the ridge under it (E). Its east foot '
               'and the ridge make the corridor ~12 km wide at Tashan.')
    # Rufeng shan: two peaks 5-6 li south of Jinzhou
    rufeng_w = ellipse(xy(121.101, 41.087), 800.0, 600.0, n=20)
    rufeng_e = ellipse(xy(121.124, 41.090), 750.0, 600.0, n=20)
    w.add('hill', ('MultiPolygon', [[rufeng_w], [rufeng_e]]), id='rufeng_shan', name='Rufeng shan', name_zh='乳峰山',
          height_m=100.0, grade='B',
          source='HISTORY.md (41.05 N 121.06 E, E); literature on the battle: 乳峰山位于锦州南郊，距锦州仅五、六里; '
                 '明军在松山与乳峰山之间扎步兵营七座; seed 004',
          note='Two peaks ("breasts"), the western held by Cao Bianjiao (West Rufeng 西乳峰). Placed 5-6 li south '
               'of Jinzhou\'s wall, as the accounts of the battle say, not at HISTORY.md\'s estimate 9 km from the '
               'city: the Ming camps lay between it and Songshan. Height 100 m (E).')
    # the hills at the head of the Qing trenches (HISTORY.md: 王宝山, 寨儿山, 长岭山)
    heads = [('wangbao_shan', 'Wangbao shan', '王宝山', (121.038, 41.068), 700.0, 55.0),
             ('zhaier_shan', 'Zhai\'er shan', '寨儿山', (121.020, 41.050), 800.0, 60.0),
             ('changling_shan', 'Changling shan', '长岭山', (121.030, 41.088), 900.0, 50.0)]
    for hid, hname, hzh, c, r, h in heads:
        w.add('hill', ('Polygon', [ellipse(xy(*c), r, 0.7 * r, n=20, rot_deg=30)]), id=hid, name=hname, name_zh=hzh,
              height_m=h, grade='E',
              source='HISTORY.md: the three trenches ran from the hills (王宝山, 寨儿山, 长岭山 …) down to the sea',
              note='A knoll on the front of the ridge where the Qing trenches begin; position and height estimated (E).')
    # Gaoqiao: the road defile between two hills
    w.add('hill', ('Polygon', [ellipse(xy(120.9745, 40.9215), 950.0, 700.0, n=20, rot_deg=-20)]), id='gaoqiao_hill_west',
          name='Gaoqiao west hill', name_zh='高桥西山', height_m=55.0, grade='E',
          source='HISTORY.md: Gaoqiao a road defile, ambush site of the 26th (E)',
          note='A spur of the ridge pressing on the road from the west (E).')
    w.add('hill', ('Polygon', [ellipse(xy(120.9985, 40.9170), 800.0, 600.0, n=20, rot_deg=-20)]), id='gaoqiao_hill_east',
          name='Gaoqiao east hill', name_zh='高桥东山', height_m=40.0, grade='E',
          source='HISTORY.md: Gaoqiao a road defile, ambush site of the 26th (E)',
          note='A low hill east of the road; with the west hill it makes the defile (E).')
    w.add('hill', ('Polygon', [island]), id='bijia_shan', name='Bijia shan', name_zh='笔架山', height_m=73.0, grade='B',
          source='HISTORY.md: tidal island 78 m high, 1.1 km long, 1.6 km causeway dry at low tide; Ming grain depot taken by the Qing (B)',
          note='The island 1.1 km north-south and 0.66 km wide (width E), on land 5 m above the sea: crest 78 m. '
               'Centre 40.8085 N 121.05 E (HISTORY.md gives 40.81 N; moved 170 m south so the causeway is 1.6 km).')

    # --- the Xiaoling ------------------------------------------------------------------------
    river = clip_line([xy(*p) for p in XIAOLING_LL], w.lo, w.hi)
    w.add('river', ('LineString', river), id='xiaoling_river', name='Xiaoling river', name_zh='小凌河',
          width_m=XIAOLING_WIDTH_M, depth_m=XIAOLING_DEPTH_M, grade='B', source=XIAOLING_SRC, note=XIAOLING_NOTE)
    ford, ford_c = ford_across(w, XIAOLING_LL, XIAOLING_FORD_LON, 55.0)
    w.add('ford', ('LineString', ford), id='xiaoling_ford', name='Xiaoling ford at Jinzhou', name_zh='锦州小凌河渡口',
          width_m=40.0, depth_m=0.8, speed_factor=0.5, grade='E',
          source='杏山之北为松山，由此渡小凌河即为锦州 (the road from Songshan crosses the Xiaoling to Jinzhou)',
          note='Where the Jinzhou-Songshan road crosses, south of the city: 40 m wide, 0.8 m deep (E).')
    xford, xford_c = ford_across(w, XIAOLING_LL, XIAOLING_CROSSING_AT, 55.0)
    w.add('ford', ('LineString', xford), id='xiaoling_crossing', name='Xiaoling crossing east of Jinzhou',
          name_zh='小凌河渡口', width_m=60.0, depth_m=0.7, speed_factor=0.5, grade='E',
          source='HISTORY.md (Dalinghe 1631: the relief army crossed the Xiaoling on 20 Oct); the same ford as in the Dalinghe map',
          note='A ford on the bend east of Jinzhou, 60 m wide and 0.7 m deep (E); drawn here too so the two maps agree.')

    # --- forts ------------------------------------------------------------------------------------
    jz = jinzhou_fort(w)
    ss = fort(w, 'songshan', 'Songshan', '松山堡', (121.08, 41.03), 3 * LI_M / 4, ['N', 'W', 'S'], 25000, 'B',
              'HISTORY.md: fort ~300 m a side, circuit 3 li, in a bowl of hills, 18 li S of Jinzhou (B, coords E +-3 km); '
              'seed 003: 20,000+ held it with Hong Chengchou',
              'Square of 432 m a side = the recorded circuit of 3 li (HISTORY.md\'s "~300 m a side" would make a 2 li '
              'circuit; the circuit is the recorded figure). Capacity 25,000 (E, seed 003: 此时松山共有军队二万余人). '
              'Gates N (road from Jinzhou and the camps), W (road to Xingshan), S (track to the shore). Walls 8 m '
              'thick, 9 m high (E).', height_m=9.0)
    xs = fort(w, 'xingshan', 'Xingshan', '杏山堡', (121.03, 40.98), 2 * LI_M / 4, ['N', 'E', 'S'], 12000, 'B',
              'HISTORY.md: fort, circuit 2 li; 30 li SW of Jinzhou (B, coords E); seed 003: Wu Sangui, Wang Pu and '
              'others shut in it',
              'Square of 288 m a side = circuit 2 li. Capacity 12,000 (E: ~7 m2 a man). Gates N and E (road from '
              'Songshan), S (road to Gaoqiao and Tashan). Walls 8 m thick, 8 m high (E).', height_m=8.0)
    ts = fort(w, 'tashan', 'Tashan (Zhongzuo suo)', '塔山堡（中左所）', (120.94, 40.86), 1.5 * LI_M / 4, ['N', 'S', 'E'],
              4000, 'B',
              'HISTORY.md: fort at the narrowest point of the corridor (B); seed 003: Qing camps north and south of it '
              'kept Li Fuming out',
              'A small post town (所城): square 216 m a side (circuit 1.5 li, E), capacity 4,000 (E). Gates N and S on '
              'the road, E toward the shore track. Walls 8 m thick, 8 m high (E).', height_m=8.0)
    ny_ = fort(w, 'ningyuan', 'Ningyuan (Xingcheng)', '宁远', (120.733, 40.617), 820.0, ['N', 'S', 'E', 'W'], 50000, 'A',
               'HISTORY.md: major walled city, the refuge (A); the Ming wall of Xingcheng still stands, ~3.3 km round (B); '
               'seed 003: ~30,000 reached it',
               'Square 820 m a side (the surviving Ming inner city, B). Capacity 50,000 (E: the ~30,000 who reached it '
               'and its garrison). Four gates; the road from Lianshan enters by the east gate. Walls 8 m thick, 10 m '
               'high (B).', height_m=10.0)

    # --- roads ------------------------------------------------------------------------------------
    gq = (120.9872, 40.9195)  # the defile
    gq_n, gq_s = xy(120.9935, 40.9300), xy(120.9815, 40.9100)

    def out_of(gates, side, metres=300.0):
        p = gates[side]
        d = {'N': (0, 1), 'S': (0, -1), 'E': (1, 0), 'W': (-1, 0)}[side]
        return (p[0] + d[0] * metres, p[1] + d[1] * metres)

    main = wind([jz['S'], ford_c, xy(121.137, 41.093), xy(121.112, 41.062), xy(121.090, 41.043), out_of(ss, 'N'), ss['N']])
    main2 = wind([ss['W'], out_of(ss, 'W'), xy(121.060, 41.015), xy(121.041, 40.995), out_of(xs, 'N'), xs['N']])
    main3 = wind([xs['S'], out_of(xs, 'S'), xy(121.018, 40.962), xy(121.000, 40.939), gq_n, xy(*gq), gq_s,
                  xy(120.975, 40.900), xy(120.957, 40.878), out_of(ts, 'N'), ts['N']], straight={4, 5})
    main4 = wind([ts['S'], out_of(ts, 'S'), xy(120.930, 40.840), xy(120.914, 40.815), xy(120.890, 40.786),
                  xy(120.864, 40.760), xy(120.850, 40.750), xy(120.830, 40.722), xy(120.806, 40.693),
                  xy(120.784, 40.668), xy(120.760, 40.640), xy(120.745, 40.624), out_of(ny_, 'E'), ny_['E']])
    w.add('road', ('MultiLineString', [main, main2, main3, main4]), id='road_main', name='Liaoxi post road',
          name_zh='辽西驿道', width_m=8.0, speed_factor=1.2, grade='B',
          source='HISTORY.md: Jinzhou-Songshan-Xingshan-Gaoqiao-Tashan-Lianshan-Ningyuan; roads 15-30 % longer than the straight line',
          note='The post road through the forts (in at one gate, out at another) and past Lianshan post station '
               '(40.75 N 120.85 E, A). Its course between the places is not known: drawn winding (bends of ~5 km '
               'and ~1.7 km) so that it is ~20 % longer than the straight line, as HISTORY.md says of the roads (E). '
               '8 m wide, x1.2 speed. The Qing trenches cut it between Songshan and Xingshan.')
    w.add('road', ('LineString', [xy(120.9935, 40.9300), xy(*gq), xy(120.9815, 40.9100)]), id='gaoqiao',
          name='Gaoqiao defile', name_zh='高桥', width_m=8.0, speed_factor=1.0, grade='E',
          source='HISTORY.md: Gaoqiao 40.92 N 120.99 E, road defile, ambush site of the 26th (E); seed 003: 在塔山以南的高桥埋伏',
          note='The stretch of the post road through the defile between the Gaoqiao hills, named so that a scenario '
               'can place the ambush on it. Speed x1.0: it adds nothing to road_main beneath it. (Seed 003 puts '
               'Gaoqiao south of Tashan; HISTORY.md between Xingshan and Tashan, which is followed.)')
    # the shore track: from Songshan's south gate to the shore north of Bijia shan, along the
    # upper flats past the trench ends, round the head of the bay and up to Tashan's east gate
    track_mid = offset_line(wide, 650.0)
    a = min(range(len(track_mid)), key=lambda k: dist(track_mid[k], xy(121.095, 40.880)))
    b = min(range(len(track_mid)), key=lambda k: dist(track_mid[k], xy(120.975, 40.828)))
    shore = track_mid[a:b + 1] if a < b else list(reversed(track_mid[b:a + 1]))
    coast_track = [ss['S'], xy(121.086, 41.000), xy(121.095, 40.950), xy(121.100, 40.905)] + shore + \
                  [xy(120.960, 40.843), ts['E']]
    coast_track = simplify(coast_track, 10.0)
    w.add('road', ('LineString', coast_track), id='road_coast', name='Shore track', name_zh='沿海小路', width_m=4.0,
          speed_factor=1.1, grade='E',
          source='HISTORY.md: the coastal flight ran SE from Songshan to the shore by Bijia shan, then SW along the '
                 'flats to Tashan; seed 003: 沿着清军没有挖壕的海边南奔',
          note='A track 4 m wide (E) from Songshan\'s south gate to the shore, then along the upper flats ~650 m '
               'from the water, past the ends of the Qing trenches, round the head of the bay to Tashan.')

    # --- the Qing trenches -------------------------------------------------------------------
    trench_src = ('HISTORY.md: three trenches ~2.5 m deep and > 3.2 m wide from the hills (王宝山, 寨儿山, 长岭山) '
                  'down to the sea at 南海口, but not along the shore (seed 003: 沿着清军没有挖壕的海边南奔)')
    base = [(121.024, 41.078), (121.036, 41.066), (121.049, 41.048), (121.057, 41.028), (121.061, 41.005),
            (121.063, 40.975), (121.064, 40.940), (121.064, 40.905), (121.066, 40.880), (121.072, 40.862), (121.080, 40.845)]
    ends = []
    for k, shift in enumerate([0.0, -0.0052, -0.0104]):
        line = [xy(lon + shift, lat - 0.0006 * k) for lon, lat in base]
        line = cut_line_at(line, flats_inner)
        assert line is not None, 'trench %d does not reach the flats' % (k + 1)
        line = extend(line, 40.0)  # two cells onto the upper flat, so no strip of plain is left
        ends.append(line[-1])
        w.add('trench', ('LineString', line), id='trench_%d' % (k + 1),
              name='Qing trench %d' % (k + 1), name_zh='清军壕沟（第%s道）' % '一二三'[k], depth_m=2.5, width_m=3.6,
              grade='B', source=trench_src,
              note='From the ridge west of Rufeng shan (its head on %s) south past Songshan, across the post road to '
                   'Xingshan, down to the landward edge of the flats (%.1f km of trench). 2.5 m deep, 3.6 m wide '
                   '(one zhang and more). The course is estimated (E); the %s of three, ~420 m apart (E). No '
                   'crossings are drawn.' % (['Wangbao shan', 'Changling shan', 'Zhai\'er shan'][k],
                                              line_length(line) / 1000, ['innermost', 'middle', 'outermost'][k]))

    # --- camps ------------------------------------------------------------------------------------
    def rect(c, wx, wy):
        return closed([(c[0] + dx * wx, c[1] + dy * wy) for dx, dy in [(-1, -1), (1, -1), (1, 1), (-1, 1)]])
    ming_camp = closed([xy(121.066, 41.036), xy(121.095, 41.036), xy(121.110, 41.052), xy(121.128, 41.066),
                        xy(121.128, 41.081), xy(121.110, 41.079), xy(121.090, 41.076), xy(121.070, 41.062),
                        xy(121.062, 41.046)])
    w.add('camp', ('Polygon', [ming_camp]), id='ming_camp', name='Hong Chengchou\'s camps', name_zh='洪承畴大营',
          side='ming', grade='B',
          source='明军在松山与乳峰山之间扎步兵营七座，骑兵分布在松山的东、西、北三面 (accounts of the battle); seed 003; seed 004',
          note='The eight corps\' camps from the north side of Songshan up to Rufeng shan: seven infantry camps '
               'between the fort and the hill, cavalry east, west and north of the fort (B); outline estimated (E).')
    w.add('camp', ('Polygon', [ellipse(xy(121.097, 41.089), 650.0, 450.0, n=16)]), id='ming_camp_west_rufeng',
          name='Cao Bianjiao on West Rufeng', name_zh='西乳峰曹变蛟营', side='ming', grade='A',
          source='HISTORY.md: Cao Bianjiao on West Rufeng (A); seed 003: 曹变蛟依旧带兵屯扎在西乳峰',
          note='On the western peak of Rufeng shan; outline estimated (E).')
    qing = [
        ('qing_imperial_camp', 'Hong Taiji\'s camp', '皇太极御营', ('Polygon', [rect(xy(121.045, 40.999), 320.0, 260.0)]), 'E',
         'seed 003: 只留数千兵马守卫御营; Cao Bianjiao reached it from West Rufeng through Aobai\'s and Babuhai\'s lines '
         '(seed 003, 004); HISTORY.md: only a few thousand kept at the imperial camp',
         'By the post road between Songshan and Xingshan, behind the trenches, 4.5 km SW of Songshan (E). The '
         'seeds put it within a night raid of West Rufeng and say Hong Taiji moved up to Songshan after the collapse; '
         'a scenario may move it.'),
        ('qing_camp_aobai', 'Aobai\'s camp (left wing)', '鳌拜营', ('Polygon', [rect(xy(121.070, 41.066), 450.0, 300.0)]), 'E',
         'seed 004: 让包围锦州的左翼四旗抽调兵马，由鳌拜…率领到乳峰山和松山之间扎营列阵; seed 003: 镶黄旗护军统领鳌拜 … 的防区',
         'Between Rufeng shan and Songshan on the west, cutting West Rufeng from the fort (E).'),
        ('qing_camp_right_wing', 'Right-wing banners to the sea', '右翼四旗', ('Polygon', [rect(xy(121.046, 40.925), 450.0, 1800.0)]), 'E',
         'seed 004: 原先在这里的右翼四旗则将防线向海边延伸; HISTORY.md: 比翼排列，直抵海边 (A)',
         'Behind the trenches from the post road toward the sea (E).'),
        ('qing_camp_xingshan', 'Mongol banners round Xingshan', '蒙古八旗伏兵', ('Polygon', [rect(xy(121.008, 40.958), 500.0, 400.0)]), 'E',
         'seed 004: 蒙八旗固山额真库鲁克达尔汉阿赖以及察哈尔的毛海率军在这里设伏，又让正红旗蒙古固山额真恩格图和护军统领吴拜率军策应',
         'By the road south-west of Xingshan (E).'),
        ('qing_camp_tashan_north', 'Qing camp north of Tashan', '塔山北清营', ('Polygon', [rect(xy(120.956, 40.880), 400.0, 300.0)]), 'B',
         'seed 003: 想进入中左所（塔山），岂知早有清兵南北扎营，中路断绝不得入城',
         'On the road north of Tashan (position E).'),
        ('qing_camp_tashan_south', 'Qing camp south of Tashan', '塔山南清营', ('Polygon', [rect(xy(120.928, 40.842), 400.0, 300.0)]), 'B',
         'seed 003: 岂知早有清兵南北扎营，中路断绝不得入城',
         'On the road south of Tashan (position E).'),
        ('qing_camp_xiaoling_mouth', 'Tantai at the Xiaoling mouth', '谭泰小凌河口营', ('Polygon', [rect(xy(121.186, 40.932), 400.0, 300.0)]), 'E',
         'seed 004: 他派正黄旗固山额真谭泰率军扼守小凌河口，防止明军从水路撤离; seed 003: 张若麒、马绍瑜则在小凌河口爬上一只渔船',
         'On the west bank near the mouth (E).'),
        ('qing_camp_rufeng_east', 'Qing camps east of Rufeng shan', '乳峰山东清营', ('Polygon', [rect(xy(121.150, 41.086), 500.0, 400.0)]), 'B',
         'accounts of the battle: 为牵制乳峰山东侧的清军，立即占领乳峰山西侧',
         'Between Rufeng shan and the Xiaoling south of Jinzhou: part of the siege of Jinzhou (position E).'),
    ]
    for cid, cname, czh, geom, grade, src, note in qing:
        w.add('camp', geom, id=cid, name=cname, name_zh=czh, side='qing', grade=grade, source=src, note=note)
    w.add('camp', ('Point', xy(*gq)), id='qing_ambush_gaoqiao', name='Gaoqiao ambush', name_zh='高桥伏兵', side='qing',
          grade='B', source='HISTORY.md: Gaoqiao ambush laid on the 24th (8/24 = 28 Sep) with a few hundred elite, reinforced (B); seed 003: 立命降为贝勒的多铎挂帅，带重兵在塔山以南的高桥埋伏',
          note='At the defile (the point of the gaoqiao road section). Laid on 28 Sep, not at the start.')
    w.add('camp', ('Point', bijia_c), id='qing_post_bijia_shan', name='Qing post on Bijia shan', name_zh='笔架山清兵',
          side='qing', grade='B', source='HISTORY.md: Ming grain depot on Bijia shan taken by the Qing (B); seed 004: 甚至连笔架山他都安排了人马防守',
          note='On the island.')

    w.write('scenarios/songjin-1641/map.geojson')
    return w


# ---- Dalinghe 1631 ---------------------------------------------------------------------------
def dalinghe():
    # An explicit extent (see songjin()): the rivers reach the map's edges. The origin,
    # the extent's centre, lies by Changshan.
    city = (121.35, 41.167)
    box = (121.085, 41.040, 121.425, 41.205)
    f, width, height = map_frame(box, 20)
    w = MapWriter(f, 'Dalinghe 1631: from the Xiaoling to Dalinghe city (battle of Changshan, 22 Oct 1631)',
                  'Built by scripts/make-scenario-maps.py on Natural Earth 1:10m (public domain). See scenarios/dalinghe-1631/README.md.',
                  20, width, height)
    xy = lambda lon, lat: f.xy(lon, lat)
    _, daling_ll = natural_earth()
    daling = clip_line([xy(*p) for p in daling_ll], w.lo, w.hi)
    w.add('river', ('LineString', daling), id='daling_river', name='Daling river', name_zh='大凌河', width_m=150.0,
          depth_m=2.5, grade='B', source='Natural Earth 1:10m rivers (public domain), ../shared/data/liaoxi-natural-earth.geojson',
          note='Course from Natural Earth (~1 km detail); 150 m wide and 2.5 m deep in October (E). It lies ~2.8 km '
               'east of the city here, the city on its west bank (HISTORY.md, A).')
    xl = clip_line([xy(*p) for p in XIAOLING_LL], w.lo, w.hi)
    w.add('river', ('LineString', xl), id='xiaoling_river', name='Xiaoling river', name_zh='小凌河',
          width_m=XIAOLING_WIDTH_M, depth_m=XIAOLING_DEPTH_M, grade='B', source=XIAOLING_SRC, note=XIAOLING_NOTE +
          ' Drawn as in the Song-Jin map; here from the west edge to the south edge.')
    ford, ford_c = ford_across(w, XIAOLING_LL, XIAOLING_FORD_LON, 55.0)
    w.add('ford', ('LineString', ford), id='xiaoling_ford', name='Xiaoling ford at Jinzhou', name_zh='锦州小凌河渡口',
          width_m=40.0, depth_m=0.8, speed_factor=0.5, grade='E',
          source='杏山之北为松山，由此渡小凌河即为锦州', note='On the Jinzhou-Songshan road south of the city, as in the Song-Jin map (E).')
    xford, xford_c = ford_across(w, XIAOLING_LL, XIAOLING_CROSSING_AT, 55.0)
    w.add('ford', ('LineString', xford), id='xiaoling_crossing', name='Xiaoling crossing of 20 Oct 1631',
          name_zh='小凌河渡口', width_m=60.0, depth_m=0.7, speed_factor=0.5, grade='B',
          source='HISTORY.md: the relief army crossed the Xiaoling on 20 Oct and laagered 5 li beyond it (B); seed 000: '
                 'Yoto\'s 1,000-odd cavalry reached the river first, spread on the river flats, and held the crossing',
          note='The ford the army used, on the bend east of Jinzhou where the river turns south (position E); 60 m '
               'wide, 0.7 m deep (E). Here the lower Xiaoling flows south-east: the bank toward Changshan, which '
               'seed 000 calls the north bank, is its north-east bank, where ~10,000 were trapped.')

    jz = jinzhou_fort(w)
    dl = fort(w, 'dalinghe', 'Dalinghe city', '大凌河城', city, 3 * LI_M / 4, ['N', 'S', 'E', 'W'], 30000, 'A',
              'HISTORY.md: Dalinghe city (Linghai) 41.167 N 121.35 E, west bank of the Daling river (A); besieged '
              'from Aug 1631 with ~10,000 soldiers and ~10,000+ labourers and others inside (清太宗实录 vol. 9 as '
              'retold in the literature, B)',
              'Square 432 m a side (circuit 3 li, E). Capacity 30,000 (E: the garrison, labourers and townsmen). Walls '
              '8 m thick, 8 m high (E); four gates.', height_m=8.0)
    ring = ellipse(xy(*city), 2000.0, 2000.0, n=36)
    w.add('trench', ('LineString', ring), id='jin_trench', name='Jin siege trench', name_zh='后金围城壕', depth_m=2.5,
          width_m=1.8, grade='A', source='HISTORY.md: Jin trench around the city 1.8 m wide, 2.5 m deep (A); the '
          'literature puts the siege works ~3 li from the wall',
          note='A closed ring 2 km from the city\'s centre (~3 li from its wall, E); depth and width A. Impassable: '
               'the city is cut off. The Jin wall and camps behind it are not drawn.')
    ch = xy(121.25, 41.12)
    w.add('hill', ('Polygon', [ellipse(ch, 2600.0, 1100.0, n=28, rot_deg=25)]), id='changshan', name='Changshan',
          name_zh='长山', height_m=80.0, grade='B',
          source='HISTORY.md: Changshan 长山口 41.12 N 121.25 E, hills ~15 li from Dalinghe city (B, coords E)',
          note='A ridge 5 km long (E), crest ~85 m above sea (E). The relief army camped at its foot (长山口).')
    camps = [
        ('ming_camp_wu_xiang', 'Wu Xiang\'s camp', '吴襄营', (121.290, 41.128), 380.0, 300.0, 'B',
         'HISTORY.md: three camps at Changshan; Wu Xiang\'s unfinished camp broke and he fled (B)',
         'In front, at the east end of the ridge toward the city (position E). Unfinished: no palisade.'),
        ('ming_camp_song_wei', 'Song Wei\'s camp', '宋伟营', (121.283, 41.115), 380.0, 300.0, 'B',
         'HISTORY.md: Song Wei\'s palisaded camp with guns held at first (B)',
         'South-east of the ridge\'s east end (position E); its palisade is the wall ming_camp_song_wei_palisade.'),
        ('ming_camp_zhang_chun', 'Zhang Chun\'s camp (wagon battalions)', '张春中军车营', (121.262, 41.108), 420.0, 320.0, 'B',
         'HISTORY.md: three camps at Changshan; wagon battalions; Zhang Chun captured with 31 officers (A); seed 000: '
         'the wagon battalion of 5,600 held, 500-odd escaped with the banner',
         'The third camp, with the headquarters and the wagons, south of the ridge (position E). The relief army '
         'left the highway, which the Jin held, and came round Changshan on its south-east side (the literature).'),
        ('ming_laager', 'Laager 5 li beyond the Xiaoling', '小凌河东五里营', None, 450.0, 350.0, 'B',
         'HISTORY.md: it crossed the Xiaoling on 20 Oct and laagered 5 li beyond it (B)',
         '5 li (2.9 km) north-east of the crossing (E).'),
    ]
    for cid, cname, czh, c, rx, ry, grade, src, note in camps:
        if c is None:
            d = 5 * LI_M / math.sqrt(2)
            cxy = (xford_c[0] + d, xford_c[1] + d)
        else:
            cxy = xy(*c)
        ringc = closed([(cxy[0] + dx * rx, cxy[1] + dy * ry) for dx, dy in [(-1, -1), (1, -1), (1, 1), (-1, 1)]])
        w.add('camp', ('Polygon', [ringc]), id=cid, name=cname, name_zh=czh, side='ming', grade=grade, source=src, note=note)
        if cid == 'ming_camp_song_wei':
            # the palisade: the camp's outline with a 60 m gap in the south and the east sides
            x0, x1, y0, y1 = cxy[0] - rx, cxy[0] + rx, cxy[1] - ry, cxy[1] + ry
            g = 30.0
            parts = [[(cxy[0] - g, y0), (x0, y0), (x0, y1), (x1, y1), (x1, cxy[1] + g)],
                     [(x1, cxy[1] - g), (x1, y0), (cxy[0] + g, y0)]]
            w.add('wall', ('MultiLineString', parts), id='ming_camp_song_wei_palisade', name='Song Wei\'s palisade',
                  name_zh='宋伟营栅', height_m=2.5, width_m=1.0, grade='B',
                  source='HISTORY.md: Song Wei\'s palisaded camp (B)',
                  note='A palisade 2.5 m high (E) round the camp, with 60 m gates in its south and east sides (E).')
    # roads: the highway from Jinzhou toward Dalinghe (held by the Jin), the army's route
    w.add('road', ('LineString', [jz['E'], xy(121.200, 41.130), xy(121.260, 41.150), xy(121.320, 41.160)]),
          id='road_jinzhou_dalinghe', name='Jinzhou-Dalinghe highway', name_zh='锦州至大凌河官道', width_m=8.0,
          speed_factor=1.2, grade='E', source='the literature: the Jin held the north-east highway with twelve fortified camps; the relief army left it and went round Changshan',
          note='The highway from Jinzhou\'s east gate toward Dalinghe, ending at the Jin trench (E).')
    w.add('road', ('LineString', [ford_c, xy(121.165, 41.090), xford_c]), id='road_xiaoling_south_bank',
          name='South-bank track', name_zh='小凌河南岸小路', width_m=4.0, speed_factor=1.1, grade='E',
          source='HISTORY.md (the army came from the Songshan side and crossed the Xiaoling)',
          note='From the Jinzhou ford along the south bank to the crossing (E).')
    lg = (xford_c[0] + 5 * LI_M / math.sqrt(2), xford_c[1] + 5 * LI_M / math.sqrt(2))
    w.add('road', ('LineString', [xford_c, lg, xy(121.262, 41.108)]), id='road_relief',
          name='The relief army\'s route', name_zh='援军行军路线', width_m=6.0, speed_factor=1.0, grade='E',
          source='HISTORY.md: crossed the Xiaoling, laagered 5 li beyond it, camps at Changshan ~15 li from the city',
          note='A track from the crossing through the laager to the camps at Changshan (E). Speed x1.0 (E): a '
               'track the army itself had made two days before, over the flat, dry plain of late October, '
               'is no quicker for a man or a horse than the ground beside it (it served the carts). At x1.1 '
               'every man going home from the camps was drawn onto its one 20 m cell and the whole army '
               'marched off in one column 25-50 m wide, horse overtaking foot in it (the crush, C2).')
    w.write('scenarios/dalinghe-1631/map.geojson')
    return w


if __name__ == '__main__':
    if not os.path.exists(NE_FILE):
        sys.exit('run from the repository root (%s not found)' % NE_FILE)
    songjin()
    dalinghe()
