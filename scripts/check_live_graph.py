#!/usr/bin/env python3
"""Checks that TactusLive's module graph holds no system library (FFTW, libsndfile, any
pkg-config library: none exists on iOS) and no package product (an app must resolve nothing
else for it). Reads `swift package describe --type json`; prints the graph and exits 1 on a
breach.

Usage: scripts/check_live_graph.py
"""
import json
import subprocess
import sys

described = json.loads(subprocess.run(["swift", "package", "describe", "--type", "json"],
                                      check=True, capture_output=True, text=True).stdout)
targets = {target["name"]: target for target in described["targets"]}
modules, products, stack = set(), set(), ["TactusLive"]
while stack:
    target = targets[stack.pop()]
    products.update(target.get("product_dependencies") or [])
    for name in target.get("target_dependencies") or []:
        if name not in modules:
            modules.add(name)
            stack.append(name)
system = sorted(name for name in modules if targets[name]["type"] == "system-target")
print("TactusLive uses:", ", ".join(sorted(modules)))
print("system libraries:", ", ".join(system) or "none", "| package products:", ", ".join(sorted(products)) or "none")
sys.exit(1 if system or products else 0)
