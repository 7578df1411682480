#!/usr/bin/env python3
"""A third set of real one-shots, from packages no tuning has read: how the shipped presets
feel on sounds that are in neither half of the real-sound corpus.

    make eval-unseen      (= python3 scripts/realcorpus/unseen.py --tactus .build/release/tactus)

The packages in unseen-packages.txt are in neither packages.txt nor the list kept for an
independent check (docs/REALCORPUS.md). Their one-shots are chosen, labelled and written as
make_realcorpus.py writes the corpus's (its functions, the same caps and onset rule) into
realcorpus-cache/unseen/, and every shipped preset is scored there with `tactus evaluate`,
default also at `feel.crispness` -1 and +1. Printed: what a hand feels of each (body
sharpness at the rails, how far it moves in the sounds whose brightness moves by an octave or
more, transients at the top, the envelope measure per category, control points per second)
and the body sharpness per category. Nothing here is a target to tune for: a setting changed
after reading these numbers makes them one more development set.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

import make_realcorpus as corpus

ORDER_DARK = ("explosion", "impact")
ORDER_BRIGHT = ("click", "coin", "glass")


def build(out: Path, cache: Path) -> int:
    """Writes the one-shots and their annotations into `out` (emptied first); returns how many."""
    shots, _ = corpus.collect(corpus.fetch(corpus.package_list("unseen-packages.txt"), cache))
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.iterdir():
        stale.unlink()
    for i, shot in enumerate(shots):
        corpus.emit_one_shot(out, "unseen", i, shot)
    return len(shots)


def evaluate(tactus: str, folder: Path, preset: str, *overrides: str) -> dict:
    command = [tactus, "evaluate", str(folder), "--preset", preset, "--format", "json"]
    for o in overrides:
        command += ["--set", o]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode not in (0, 1) or not run.stdout:
        sys.exit(f"unseen: {' '.join(command)} failed: {run.stderr.strip()}")
    return json.loads(run.stdout)


def mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def bodies(result: dict, categories: tuple[str, ...]) -> list[float]:
    return [f["movement"]["meanBodySharpness"] for f in result["files"]
            if f["category"] in categories and f["movement"].get("meanBodySharpness") is not None]


def row(name: str, result: dict) -> str:
    everything = result["movement"][0]
    envelopes: dict[str, list[float]] = {}
    for f in result["files"]:
        if f["movement"].get("envelope") is not None:
            envelopes.setdefault(f["category"], []).append(f["movement"]["envelope"])
    lowest = min(((mean(v), k) for k, v in envelopes.items()), default=(None, "-"))
    dark, bright = mean(bodies(result, ORDER_DARK)), mean(bodies(result, ORDER_BRIGHT))
    def cell(value, form: str) -> str:
        return "-" if value is None else format(value, form)
    cells = [name, cell(everything["sharpnessRailShare"], ".1%"), cell(everything["movingSpreadMedian"], ".3f"),
             cell(everything["movingSpreadShare"], ".0%"), cell(everything["movingPearsonMedian"], ".2f"),
             cell(everything["transientTopShare"], ".0%"), cell(everything["envelope"], ".3f"),
             f"{lowest[1]} {lowest[0]:.3f}" if lowest[0] is not None else "-",
             cell(result["controlPointsPerSecond"], ".1f"), cell(dark, ".2f"),
             cell(None if dark is None or bright is None else bright - dark, "+.2f")]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tactus", default=str(corpus.ROOT / ".build/release/tactus"))
    parser.add_argument("--cache", type=Path, default=corpus.ROOT / "realcorpus-cache")
    args = parser.parse_args()
    folder = args.cache / "unseen"
    count = build(folder, args.cache)
    presets = sorted(p.stem for p in (corpus.ROOT / "Presets").glob("*.json") if p.stem != "preset.schema")
    runs = [(p, evaluate(args.tactus, folder, p)) for p in presets]
    runs += [(f"default, crispness {c}", evaluate(args.tactus, folder, "default", f"feel.crispness={c}")) for c in ("-1", "1")]
    default = dict(runs)["default"]
    moving = [f["file"] for f in default["files"] if f["movement"].get("movingSound")]
    print(f"{count} one-shots in {folder}, {len(moving)} whose brightness moves by an octave or more in the body\n")
    print("| preset | body rails | moving: spread median | ≥ 0.1 | Pearson | transients at top | envelope "
          "| lowest category | points/s | explosion+impact body | to clicks/coins/glass |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, result in runs:
        print(row(name, result))
    print("\nMedian body sharpness of the moving sounds, default and with crispness:")
    for name, result in runs:
        if name.startswith("default"):
            by_file = {f["file"]: f["movement"].get("meanBodySharpness") for f in result["files"]}
            values = [by_file[f] for f in moving if by_file.get(f) is not None]
            print(f"- {name}: {statistics.median(values):.3f}" if values else f"- {name}: -")
    per_category = {c: bodies(default, (c,)) for c in sorted({f["category"] for f in default["files"]})}
    print("\nBody sharpness per category (default): " + ", ".join(
        f"{c} {mean(values):.2f} ({len(values)})" for c, values in per_category.items() if values))


if __name__ == "__main__":
    main()
