#!/usr/bin/env python3
"""Score Tactus on the real-sound corpus (make realcorpus), both halves, beside librosa and
aubio on the same files, and tabulate transient sharpness and intensity per category.

    make eval-real   (= python3 scripts/realcorpus/evaluate.py --tactus .build/release/tactus)

Per half (dev: tune on it; heldout: report only):
  - `tactus evaluate <half>` (transient P/R/F at ±25/±50 ms, timing, envelope fidelity, per condition);
  - scripts/eval_onsets.py on the same files (Tactus, librosa, aubio side by side);
  - per category (the `oneshot` files): transients found per truth onset (recall at ±25 ms), mean
    intensity and sharpness of the transient nearest the first onset, from `tactus analyze`.
Writes realcorpus/report.md and prints it.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
ORDER = ["explosion", "impact", "footstep", "door", "texture", "speech", "whoosh", "bell", "click", "coin", "glass"]


def run(command: list[str]) -> str:
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def categories(tactus: str, half: Path, preset: str) -> str:
    rows = defaultdict(lambda: {"files": 0, "truth": 0, "found": 0, "intensity": [], "sharpness": []})
    for annotation in sorted(half.glob("oneshot-*.json")):
        truth = json.loads(annotation.read_text())
        report = json.loads(run([tactus, "analyze", str(half / truth["file"]), "--preset", preset, "--format", "json"]))
        row = rows[truth["category"]]
        row["files"] += 1
        row["truth"] += len(truth["onsets"])
        onsets = report["onsets"]
        row["found"] += sum(1 for t in truth["onsets"] if any(abs(o["time"] - t) <= 0.025 for o in onsets))
        first = min(onsets, key=lambda o: abs(o["time"] - truth["onsets"][0]), default=None)
        if first is not None and first["intensity"] is not None:
            row["intensity"].append(first["intensity"])
            row["sharpness"].append(first["sharpness"])
    lines = ["| category | files | recall@25 | mean intensity | mean sharpness |", "|---|---:|---:|---:|---:|"]
    for name in ORDER + sorted(set(rows) - set(ORDER)):
        if name not in rows:
            continue
        r = rows[name]
        mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
        lines.append(f"| {name} | {r['files']} | {r['found'] / max(1, r['truth']):.2f} | {mean(r['intensity']):.2f} | "
                     f"{mean(r['sharpness']):.2f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tactus", default=str(ROOT / ".build/release/tactus"))
    parser.add_argument("--corpus", type=Path, default=ROOT / "realcorpus")
    parser.add_argument("--preset", default="default")
    parser.add_argument("--no-baselines", action="store_true", help="Tactus only (no librosa/aubio)")
    args = parser.parse_args()
    report = [f"# Real-sound corpus: preset {args.preset}", ""]
    for half in ("dev", "heldout"):
        folder = args.corpus / half
        report += [f"## {half}", "", "```", run([args.tactus, "evaluate", str(folder), "--preset", args.preset]).rstrip(), "```", ""]
        report += ["Transient sharpness and intensity per category (one-shots):", "", categories(args.tactus, folder, args.preset), ""]
        if not args.no_baselines:
            methods = "tactus,librosa,aubio"
            out = run([sys.executable, str(ROOT / "scripts/eval_onsets.py"), "--corpus", str(folder), "--tactus", args.tactus,
                       "--methods", methods, "--tactus-args", f"--preset {args.preset}"])
            report += ["Beside librosa and aubio (scripts/eval_onsets.py):", "", "```", out.rstrip(), "```", ""]
    text = "\n".join(report) + "\n"
    (args.corpus / "report.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
