#!/usr/bin/env python3
"""Prints the benchmark tables of BENCHMARKS.md (and the README's summary) from the last criterion run.

    cargo bench -p hantei-peers --bench broad_phase && cargo bench --bench frame
    python3 benches/summarize.py [target/criterion]

Reads target/criterion/<group>/<function>/<n>/new/estimates.json (the point estimate of
the mean). Ratios are taken within one run, between results of the same group.
"""
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join("target", "criterion")


def estimates(group):
    """{function: seconds} for one criterion group directory."""
    out = {}
    gdir = os.path.join(root, group)
    if not os.path.isdir(gdir):
        return out
    for fn in sorted(os.listdir(gdir)):
        fdir = os.path.join(gdir, fn)
        for dirpath, _, files in os.walk(fdir):
            if "estimates.json" in files and dirpath.endswith(os.sep + "new"):
                with open(os.path.join(dirpath, "estimates.json")) as f:
                    out[fn] = json.load(f)["mean"]["point_estimate"] / 1e9
    return out


def ms(s):
    return f"{s * 1e3:.3f}" if s < 1 else f"{s * 1e3:.0f}"


scenes = [
    ("uniform_1k", "uniform, 1k"),
    ("uniform_10k", "uniform, 10k"),
    ("uniform_100k", "uniform, 100k"),
    ("bullet_hell_10k", "bullet hell, 10k"),
    ("bullet_hell_100k", "bullet hell, 100k"),
    ("clusters_100k", "clusters, 100k"),
    ("line_10k", "one horizontal line, 10k"),
    ("identical_1k", "identical boxes, 1k"),
    ("parked_100k", "uniform with 0.1% parked at ±1e30, 100k"),
    ("uniform_1m", "uniform, 1M (broccoli only)"),
]
peers = ["broccoli", "parry2d_bvh", "rstar", "brute_force"]
print("| scene | hantei 1 thread | hantei 2 threads | broccoli | parry2d BVH | rstar | brute force | fastest peer ÷ hantei (1 thread) | 1 → 2 threads |")
print("|---|---|---|---|---|---|---|---|---|")
for key, label in scenes:
    e = estimates("broad_" + key)
    if not e:
        continue
    h1, h2 = e.get("hantei_1t"), e.get("hantei_2t")
    cells = [ms(e[p]) if p in e else "—" for p in peers]
    best = min(e[p] for p in peers if p in e)
    ratio = f"{best / h1:.1f}×" if h1 else "—"
    scale = f"{h1 / h2:.2f}×" if h1 and h2 else "—"
    print(f"| {label} | {ms(h1)} | {ms(h2)} | " + " | ".join(cells) + f" | {ratio} | {scale} |")

print()
print("| bipartite: 100k uniform × targets | hantei 1 thread | hantei 2 threads | broccoli (one tree, crossing pairs) | brute force | fastest peer ÷ hantei (1 thread) | 1 → 2 threads |")
print("|---|---|---|---|---|---|---|")
for key, label in [("300_sparse", "300 targets 2 wide (grid)"), ("1000_dense", "1000 targets 10 wide (banded)")]:
    e = estimates("bipartite_" + key)
    if not e:
        continue
    h1, h2 = e.get("hantei_1t"), e.get("hantei_2t")
    bp = [p for p in ["broccoli", "brute_force"] if p in e]
    best = min(e[p] for p in bp) if bp else None
    cells = [ms(e[p]) if p in e else "—" for p in ["broccoli", "brute_force"]]
    ratio = f"{best / h1:.1f}×" if h1 and best else "—"
    scale = f"{h1 / h2:.2f}×" if h1 and h2 else "—"
    print(f"| {label} | {ms(h1)} | {ms(h2)} | " + " | ".join(cells) + f" | {ratio} | {scale} |")

print()
print("| band order (one thread) | buckets | radix sort | sort_unstable |")
print("|---|---|---|---|")
for key in ["uniform_100k", "clusters_100k"]:
    e = estimates("band_order_" + key)
    if e:
        print(f"| {key} | {ms(e['buckets'])} | {ms(e['radix'])} | {ms(e['sort_unstable'])} |")

print()
print("| bullets | step, 1 thread | step + tile map, 1 thread | step, all threads | step + tile map, all threads |")
print("|---|---|---|---|---|")
for key, label in [("10k", "10k"), ("100k", "100k"), ("1m", "1M")]:
    e = estimates("frame_" + key)
    if not e:
        continue
    multi = [k for k in e if k.endswith("t") and not k.startswith("step") and k != "1t"]
    t = multi[0] if multi else None
    row = [e.get("step_1t"), e.get("1t"), e.get("step_" + t) if t else None, e.get(t) if t else None]
    print(f"| {label} | " + " | ".join(ms(v) if v else "—" for v in row) + " |")
