#!/usr/bin/env python3
"""Score Tactus on the real-sound corpus (make realcorpus), both halves, beside librosa and
aubio on the same files, and tabulate transient sharpness and intensity per category.

    make eval-real   (= python3 scripts/realcorpus/evaluate.py --tactus .build/release/tactus)

Per half (dev: tune on it; heldout: report only):
  - `tactus evaluate <half>` (transient P/R/F at ±25/±50 ms, timing, envelope fidelity, per condition);
  - scripts/eval_onsets.py on the same files (Tactus, librosa, aubio side by side);
  - per category (the `oneshot` files): transients found per truth onset (recall at ±25 ms), mean
    intensity and sharpness of the transient nearest the first onset, from `tactus analyze`;
    the continuous intensity's Pearson correlation with the dB loudness and the envelope measure
    (mean and lowest over the category's files) and control points per second, from `tactus
    evaluate --verbose`;
  - recall at ±25 ms by each onset's own SNR (`onsetSnrDb`: noise and ambience mixtures), and per
    condition for the stems' starts and their internal attacks apart (`onsetKinds`);
  - transient sharpness against attack brightness: per file with three or more transients, the
    Spearman rank correlation of each transient's sharpness with the log2 power centroid of the
    25 ms after it (the median over files).
Writes realcorpus/report.md and prints it.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import numpy as np
import soundfile as sf
from scipy.stats import rankdata

ROOT = Path(__file__).resolve().parent.parent.parent
ORDER = ["explosion", "impact", "footstep", "door", "texture", "speech", "whoosh", "bell", "powerup", "click", "coin", "glass"]


def run(command: list[str], cwd: Path | None = None) -> str:
    return subprocess.run(command, check=True, capture_output=True, text=True, cwd=cwd).stdout


def categories(tactus: str, half: Path, preset: str) -> str:
    rows = defaultdict(lambda: {"files": 0, "truth": 0, "found": 0, "intensity": [], "sharpness": []})
    for annotation in sorted(half.glob("oneshot-*.json")):
        truth = json.loads(annotation.read_text())
        report = json.loads(run([tactus, "analyze", str(half / truth["file"]), "--preset", preset, "--format", "json"]))
        row = rows[truth["category"]]
        row["files"] += 1
        row["truth"] += len(truth["onsets"])
        onsets = report["onsets"]
        row["found"] += sum(1 for t in truth["onsets"] if found(onsets, t))
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
    return "\n".join(lines + ["", *sharpness_gaps({name: r["sharpness"] for name, r in rows.items()})])


CRISP = ["click", "coin", "glass"]


def sharpness_gaps(sharpness: dict[str, list[float]], draws: int = 10_000) -> list[str]:
    """Mean transient sharpness of each crisp category above explosions', with a 95 % bootstrap
    interval (files resampled within each category; seeded, so the report is reproducible):
    with a handful of files per category, whether a gap clears a target is often chance. Then
    the same for every other named category: where explosions stand among them."""
    booms = np.array(sharpness.get("explosion", []))
    lines = []
    generator = np.random.default_rng(0)
    others = [name for name in ORDER if name not in CRISP + ["explosion", "other"]]
    for name in CRISP + others:
        if name == others[0]:
            lines.append("")
        crisp = np.array(sharpness.get(name, []))
        if len(crisp) == 0 or len(booms) == 0:
            continue
        gaps = (generator.choice(crisp, (draws, len(crisp))).mean(axis=1)
                - generator.choice(booms, (draws, len(booms))).mean(axis=1))
        low, high = np.percentile(gaps, [2.5, 97.5])
        lines.append(f"- {name} above explosion: {crisp.mean() - booms.mean():+.2f} (95 % bootstrap interval "
                     f"{low:+.2f}…{high:+.2f}; {len(crisp)} and {len(booms)} files)")
    return lines


def per_file(tactus: str, half: Path, preset: str) -> dict[str, dict]:
    """`tactus evaluate --verbose`'s line per file: F@25, intensity r, points per second."""
    pattern = re.compile(r"^(\S+)\s+F@25 ([\d.]+)\s+intensity r ([\d.–-]+)\s+sharpness ρ ([\d.–-]+)\s+([\d.]+) pts/s"
                         r".*?envelope ([\d.–-]+)")
    rows = {}
    for line in run([tactus, "evaluate", str(half), "--preset", preset, "--verbose"]).splitlines():
        match = pattern.match(line)
        if match:
            number = lambda x: float(x) if re.fullmatch(r"[\d.]+", x) else None
            rows[match[1]] = {"f25": float(match[2]), "intensityR": number(match[3]), "pointsPerSecond": float(match[5]),
                              "envelope": number(match[6])}
    return rows


def analyses(tactus: str, half: Path, preset: str) -> dict[str, dict]:
    """`tactus analyze` of every annotated file, with its annotation."""
    result = {}
    for annotation in sorted(half.glob("*.json")):
        truth = json.loads(annotation.read_text())
        report = json.loads(run([tactus, "analyze", str(half / truth["file"]), "--preset", preset, "--format", "json"]))
        result[truth["file"]] = {"truth": truth, "onsets": report["onsets"]}
    return result


def found(onsets: list[dict], t: float) -> bool:
    """Whether an onset lies within ±25 ms of `t`."""
    return any(abs(o["time"] - t) <= 0.025 for o in onsets)


def fidelity_by_category(files: dict[str, dict], analysed: dict[str, dict]) -> str:
    rows = defaultdict(lambda: {"r": [], "pts": [], "envelope": []})
    for name, item in analysed.items():
        truth = item["truth"]
        if truth["condition"] != "oneshot" or name not in files:
            continue
        if files[name]["intensityR"] is not None:
            rows[truth["category"]]["r"].append(files[name]["intensityR"])
        if files[name]["envelope"] is not None:
            rows[truth["category"]]["envelope"].append(files[name]["envelope"])
        rows[truth["category"]]["pts"].append(files[name]["pointsPerSecond"])
    lines = ["| category | files | continuous intensity ↔ loudness r (mean) | lowest | envelope (mean) | lowest | control points/s |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name in ORDER + sorted(set(rows) - set(ORDER)):
        if name in rows and rows[name]["r"]:
            r = rows[name]
            envelope = f"{np.mean(r['envelope']):.3f} | {min(r['envelope']):.3f}" if r["envelope"] else "– | –"
            lines.append(f"| {name} | {len(r['r'])} | {np.mean(r['r']):.3f} | {min(r['r']):.3f} | {envelope} | {np.mean(r['pts']):.1f} |")
    return "\n".join(lines)


def recall_tables(analysed: dict[str, dict]) -> str:
    """Recall at ±25 ms by each onset's own SNR (the bed mixtures), and per condition by what the
    onset is (`onsetKinds`): a stem's start (in `soft`, the faded-in start: the soft onset) or
    an internal attack (in `multi`, what the condition is for)."""
    bins = [("below 0 dB", -1e9, 0), ("0–6 dB", 0, 6), ("6–10 dB", 6, 10), ("10–20 dB", 10, 20), ("20 dB and more", 20, 1e9)]
    by_snr = defaultdict(lambda: [0, 0])
    by_kind = defaultdict(lambda: [0, 0])
    sounds_with_internal = defaultdict(int)
    for item in analysed.values():
        truth, onsets = item["truth"], item["onsets"]
        condition = truth["condition"]
        for k, t in enumerate(truth["onsets"]):
            hit = found(onsets, t)
            if "onsetSnrDb" in truth:
                label = next(b[0] for b in bins if b[1] <= truth["onsetSnrDb"][k] < b[2])
                kind = "pink noise" if condition.startswith("noise") else "ambience"
                by_snr[(kind, label)][0] += 1
                by_snr[(kind, label)][1] += hit
            by_kind[(condition, truth["onsetKinds"][k])][0] += 1
            by_kind[(condition, truth["onsetKinds"][k])][1] += hit
        sounds_with_internal[condition] += condition == "oneshot" and "internal" in truth["onsetKinds"]
    lines = ["| onsets | count | recall@25 |", "|---|---:|---:|"]
    for kind in ("pink noise", "ambience"):
        for label, _, _ in bins:
            total, hits = by_snr[(kind, label)]
            if total:
                lines.append(f"| {kind}, own SNR {label} | {total} | {hits / total:.2f} |")
    lines += ["", "| condition | stems' starts | recall@25 | internal attacks | recall@25 |", "|---|---:|---:|---:|---:|"]
    for condition in sorted({c for c, _ in by_kind}):
        (starts, found_starts), (internal, found_internal) = by_kind[(condition, "start")], by_kind[(condition, "internal")]
        name = condition
        if sounds_with_internal[condition]:
            name += f" ({sounds_with_internal[condition]} sounds with internal attacks)"
        recall = f"{found_internal / internal:.2f}" if internal else "–"
        lines.append(f"| {name} | {starts} | {found_starts / starts:.2f} | {internal} | {recall} |")
    return "\n".join(lines)


def attack_brightness(samples: np.ndarray, rate: int, time: float) -> float:
    """log2 of the power centroid (Hz) of the 25 ms after `time` (Hann window)."""
    start = int(time * rate)
    frame = samples[start:start + int(0.025 * rate)]
    if len(frame) < 16:
        return float("nan")
    power = np.abs(np.fft.rfft(frame * np.hanning(len(frame)), 4096)) ** 2
    freqs = np.fft.rfftfreq(4096, 1 / rate)
    total = power[1:].sum()
    return float(np.log2((power[1:] * freqs[1:]).sum() / total)) if total > 0 else float("nan")


def spearman(a: list[float], b: list[float]) -> float:
    """Pearson on average ranks (tied values share their mean rank, as Tactus's own
    `Statistics.spearman` does: a run of transients at the same sharpness says nothing about
    their order)."""
    return float(np.corrcoef(rankdata(a), rankdata(b))[0, 1])


def sharpness_within_files(half: Path, analysed: dict[str, dict]) -> str:
    values = []
    for name, item in analysed.items():
        onsets = [o for o in item["onsets"] if o.get("sharpness") is not None]
        if len(onsets) < 3:
            continue
        samples, rate = sf.read(str(half / name), always_2d=True)
        mono = samples.mean(axis=1)
        bright = [attack_brightness(mono, rate, o["time"]) for o in onsets]
        pairs = [(o["sharpness"], b) for o, b in zip(onsets, bright) if np.isfinite(b)]
        if len(pairs) >= 3 and len({p[0] for p in pairs}) > 1 and len({p[1] for p in pairs}) > 1:
            values.append(spearman([p[0] for p in pairs], [p[1] for p in pairs]))
    if not values:
        return "no file with three or more transients"
    return (f"transient sharpness ↔ attack brightness, Spearman within files ({len(values)} files with ≥ 3 transients): "
            f"median {np.median(values):.2f}, mean {np.mean(values):.2f}, files ≥ 0.85: {np.mean(np.array(values) >= 0.85):.0%}")


PRESET_CATEGORIES = {"impacts": ["impact", "footstep", "door"], "ui": ["click", "coin"], "explosions": ["explosion"],
                     "textures": ["texture"], "dialogue": ["speech"]}


def category_scores(tactus: str, half: Path, categories: list[str], preset: str) -> dict[str, float]:
    """`tactus evaluate` and `tactus analyze` on the one-shots of `categories` only."""
    with tempfile.TemporaryDirectory() as folder:
        for annotation in half.glob("oneshot-*.json"):
            truth = json.loads(annotation.read_text())
            if truth["category"] in categories:
                (Path(folder) / annotation.name).symlink_to(annotation.resolve())
                (Path(folder) / truth["file"]).symlink_to((half / truth["file"]).resolve())
        text = run([tactus, "evaluate", folder, "--preset", preset])
        p, r, f = (float(x) for x in re.search(r"^ALL\s+\d+\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", text, re.M).groups())
        pearson = re.search(r"continuous intensity↔loudness Pearson, mean of \d+ files?: ([\d.]+)", text)
        onsets = [o for item in analyses(tactus, Path(folder), preset).values() for o in item["onsets"]
                  if o.get("sharpness") is not None]
        intensity = sorted(o["intensity"] for o in onsets)
        return {"P": p, "R": r, "F": f, "r": float(pearson[1]) if pearson else float("nan"),
                "sharpness": float(np.mean([o["sharpness"] for o in onsets])) if onsets else float("nan"),
                "intensity": float(np.mean(intensity)) if onsets else float("nan"),
                "softest": float(np.mean(intensity[: max(1, len(intensity) // 4)])) if onsets else float("nan")}


def preset_table(tactus: str, corpus: Path) -> str:
    lines = ["| preset | its categories | half | P@25 | R@25 | F@25 | continuous r | transient sharpness | transient intensity (softest quarter) "
             "| `default`: P / R / F / r / sharpness / intensity (softest) |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for preset, categories in PRESET_CATEGORIES.items():
        for half in ("dev", "heldout"):
            own = category_scores(tactus, corpus / half, categories, preset)
            base = category_scores(tactus, corpus / half, categories, "default")
            lines.append(f"| `{preset}` | {', '.join(categories)} | {half} | {own['P']:.2f} | {own['R']:.2f} | {own['F']:.2f} | "
                         f"{own['r']:.3f} | {own['sharpness']:.2f} | {own['intensity']:.2f} ({own['softest']:.2f}) | "
                         f"{base['P']:.2f} / {base['R']:.2f} / {base['F']:.2f} / {base['r']:.3f} / {base['sharpness']:.2f} / "
                         f"{base['intensity']:.2f} ({base['softest']:.2f}) |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tactus", default=str(ROOT / ".build/release/tactus"))
    parser.add_argument("--corpus", type=Path, default=ROOT / "realcorpus")
    parser.add_argument("--preset", default="default")
    parser.add_argument("--no-baselines", action="store_true", help="Tactus only (no librosa/aubio)")
    parser.add_argument("--presets", action="store_true", help="only the table of every shipped preset on its own categories")
    args = parser.parse_args()
    if args.presets:
        print(preset_table(args.tactus, args.corpus))
        return
    report = [f"# Real-sound corpus: preset {args.preset}", ""]
    for half in ("dev", "heldout"):
        folder = args.corpus / half
        report += [f"## {half}", "", "```", run([args.tactus, "evaluate", str(folder), "--preset", args.preset]).rstrip(), "```", ""]
        report += ["Transient sharpness and intensity per category (one-shots):", "", categories(args.tactus, folder, args.preset), ""]
        analysed = analyses(args.tactus, folder, args.preset)
        report += ["Continuous intensity per category (one-shots):", "",
                   fidelity_by_category(per_file(args.tactus, folder, args.preset), analysed), ""]
        report += ["Recall by each onset's own SNR, and by what the onset is (a stem's start or an internal attack):", "",
                   recall_tables(analysed), ""]
        report += [sharpness_within_files(folder, analysed), ""]
        if not args.no_baselines:
            methods = "tactus,librosa,aubio"
            # From the repository, with the folder relative to it, so the report names no machine's paths.
            out = run([sys.executable, str(ROOT / "scripts/eval_onsets.py"), "--corpus", os.path.relpath(folder, ROOT),
                       "--tactus", str(Path(args.tactus).resolve()), "--methods", methods,
                       "--tactus-args", f"--preset {Path(args.preset).resolve() if Path(args.preset).is_file() else args.preset}"],
                      cwd=ROOT)
            report += ["Beside librosa and aubio (scripts/eval_onsets.py):", "", "```", out.rstrip(), "```", ""]
    text = "\n".join(report) + "\n"
    (args.corpus / "report.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
