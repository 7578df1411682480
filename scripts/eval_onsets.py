#!/usr/bin/env python3
"""Score onset/transient detectors against the Tactus ground-truth corpus.

Methods evaluated side by side (each skipped with a message if unavailable):
  tactus            <tactus> evaluate CORPUS --format json: its transients, matched and scored
                    by Tactus itself (OnsetScore: the same greedy matching as below)
  librosa           librosa.onset.onset_detect(y, sr, units="time")            (defaults, sr=None)
  librosa-backtrack librosa.onset.onset_detect(..., backtrack=True)
  aubio             aubioonset -i FILE   (default method: hfc, threshold 0.3, minioi 12 ms)

Metrics per method, overall and per condition (counts pooled over files):
  precision / recall / F-measure at +-25 ms and +-50 ms, with greedy one-to-one
  matching (all detection/truth pairs within tolerance, closest first);
  median and 90th-percentile absolute timing error (ms) of the pairs matched at
  +-50 ms; signed bias = mean(detected - truth) in ms over the same pairs;
  FP/file on files with zero ground-truth onsets.

Usage:
  python3 scripts/eval_onsets.py [--corpus Corpus] [--tactus .build/release/tactus]
                                 [--methods tactus,librosa,librosa-backtrack,aubio]
                                 [--json OUT.json] [--per-file]
Baselines: pip install -r scripts/requirements-eval.txt   (librosa); apt-get install aubio-tools.
Always exits 0 (missing methods are reported and skipped).
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TOLS_MS = (25, 50)
TIMING_TOL_MS = 50
ALL_METHODS = ["tactus", "librosa", "librosa-backtrack", "aubio"]


# ----------------------------------------------------------------------------
# ground truth
# ----------------------------------------------------------------------------

def load_corpus(corpus: Path):
    items = []
    for jp in sorted(corpus.rglob("*.json")):
        try:
            doc = json.loads(jp.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(doc, dict) or "onsets" not in doc or "file" not in doc:
            continue
        audio = jp.parent / doc["file"]
        if not audio.exists():
            print("warning: %s: audio file %s missing, skipped" % (jp, audio), file=sys.stderr)
            continue
        items.append(dict(name=audio.relative_to(corpus).as_posix(), path=audio,
                          condition=doc.get("condition", jp.parent.name),
                          truth=sorted(float(t) for t in doc["onsets"])))
    return items


# ----------------------------------------------------------------------------
# detectors: each returns (callable(path) -> list[float] | raises, None) or (None, reason)
# ----------------------------------------------------------------------------

def tactus_scores(binary: str, extra_args: str, corpus: Path):
    """`tactus evaluate CORPUS --format json`: Tactus's transients per file, matched and scored
    by Tactus (`OnsetScore`), as score_file's dicts by file name relative to the corpus; or
    (None, reason)."""
    cmd0 = shlex.split(binary)
    exe = cmd0[0]
    if shutil.which(exe) is None and not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        return None, "tactus binary not found at '%s' (build it with `swift build -c release`, or pass --tactus PATH)" % exe
    p = subprocess.run(cmd0 + ["evaluate", str(corpus), "--format", "json"] + shlex.split(extra_args),
                       capture_output=True, text=True)
    if not p.stdout:
        return None, "tactus evaluate failed (exit %d): %s" % (p.returncode, p.stderr.strip()[-300:])
    scores = {}
    for f in json.loads(p.stdout)["files"]:
        scores[f["file"]] = {"nDet": len(f["detected"]), "nTruth": len(f["onsets"]), "tp@25": f["at25"]["tp"],
                             "tp@50": f["at50"]["tp"], "errorsMs": [round(e, 3) for e in f["errorsMs50"]],
                             "detected": f["detected"]}
    return scores, None


def make_librosa(backtrack: bool):
    try:
        import librosa  # noqa: F401
    except Exception as e:  # ImportError, or a broken numba install
        return None, ("librosa not importable (%s); install the pinned evaluation deps with "
                      "`pip install -r scripts/requirements-eval.txt` (or `pip install librosa`)" % e.__class__.__name__)
    import librosa

    def run(path):
        y, sr = librosa.load(str(path), sr=None, mono=True)
        return [float(t) for t in librosa.onset.onset_detect(y=y, sr=sr, units="time", backtrack=backtrack)]
    return run, None


def make_aubio():
    exe = shutil.which("aubioonset")
    if exe is None:
        return None, "aubioonset not found (Debian/Ubuntu: apt-get install aubio-tools)"

    def run(path):
        p = subprocess.run([exe, "-i", str(path)], capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            raise RuntimeError("exit %d: %s" % (p.returncode, p.stderr.strip()[-300:]))
        out = []
        for line in p.stdout.split():
            try:
                out.append(float(line))
            except ValueError:
                pass
        return out
    return run, None


# ----------------------------------------------------------------------------
# matching and metrics
# ----------------------------------------------------------------------------

def match(det, truth, tol):
    """Greedy one-to-one matching, closest pairs first, as Tactus's `OnsetScore` matches (the
    baselines only: Tactus's own transients are scored by `tactus evaluate`). Returns
    [(det, truth), ...]."""
    pairs = []
    for i, d in enumerate(det):
        for j, t in enumerate(truth):
            e = abs(d - t)
            if e <= tol + 1e-9:
                pairs.append((e, i, j))
    pairs.sort()
    used_d, used_t, out = set(), set(), []
    for e, i, j in pairs:
        if i in used_d or j in used_t:
            continue
        used_d.add(i)
        used_t.add(j)
        out.append((det[i], truth[j]))
    return out


def prf(tp, n_det, n_truth):
    p = tp / n_det if n_det else (1.0 if n_truth == 0 else 0.0)
    r = tp / n_truth if n_truth else 1.0
    f = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return p, r, f


def score_file(det, truth):
    res = {"nDet": len(det), "nTruth": len(truth)}
    for tol in TOLS_MS:
        res["tp@%d" % tol] = len(match(det, truth, tol / 1000.0))
    m = match(det, truth, TIMING_TOL_MS / 1000.0)
    res["errorsMs"] = [round((d - t) * 1000.0, 3) for d, t in m]
    return res


def aggregate(file_results):
    n_det = sum(r["nDet"] for r in file_results)
    n_truth = sum(r["nTruth"] for r in file_results)
    out = {"files": len(file_results), "nTruth": n_truth, "nDet": n_det}
    for tol in TOLS_MS:
        tp = sum(r["tp@%d" % tol] for r in file_results)
        p, r, f = prf(tp, n_det, n_truth)
        out["@%dms" % tol] = {"tp": tp, "fp": n_det - tp, "fn": n_truth - tp,
                              "precision": round(p, 4), "recall": round(r, 4), "f": round(f, 4)}
    errs = np.array([e for r in file_results for e in r["errorsMs"]], float)
    if len(errs):
        out["timing@%dms" % TIMING_TOL_MS] = {
            "pairs": int(len(errs)),
            "medianAbsMs": round(float(np.median(np.abs(errs))), 2),
            "p90AbsMs": round(float(np.percentile(np.abs(errs), 90)), 2),
            "biasMs": round(float(np.mean(errs)), 2)}
    else:
        out["timing@%dms" % TIMING_TOL_MS] = {"pairs": 0, "medianAbsMs": None, "p90AbsMs": None, "biasMs": None}
    empty = [r for r in file_results if r["nTruth"] == 0]
    out["zeroOnsetFiles"] = len(empty)
    out["fpPerZeroOnsetFile"] = round(sum(r["nDet"] for r in empty) / len(empty), 2) if empty else None
    return out


# ----------------------------------------------------------------------------
# reporting
# ----------------------------------------------------------------------------

def fmt(v, spec="%.2f"):
    return "-" if v is None else spec % v


def print_table(summary, methods, conditions):
    hdr = ("%-18s %-9s %5s %5s | %5s %5s %5s | %5s %5s %5s | %6s %6s %7s | %s"
           % ("method", "condition", "truth", "det", "P25", "R25", "F25", "P50", "R50", "F50",
              "med", "p90", "bias", "FP/empty"))
    print(hdr)
    print("-" * len(hdr))
    for m in methods:
        for cond in ["ALL"] + conditions:
            a = summary[m]["overall"] if cond == "ALL" else summary[m]["byCondition"].get(cond)
            if a is None:
                continue
            t = a["timing@%dms" % TIMING_TOL_MS]
            print("%-18s %-9s %5d %5d | %5.2f %5.2f %5.2f | %5.2f %5.2f %5.2f | %6s %6s %7s | %s" % (
                m if cond == "ALL" else "", cond, a["nTruth"], a["nDet"],
                a["@25ms"]["precision"], a["@25ms"]["recall"], a["@25ms"]["f"],
                a["@50ms"]["precision"], a["@50ms"]["recall"], a["@50ms"]["f"],
                fmt(t["medianAbsMs"], "%.1f"), fmt(t["p90AbsMs"], "%.1f"), fmt(t["biasMs"], "%+.1f"),
                fmt(a["fpPerZeroOnsetFile"], "%.1f")))
        print("-" * len(hdr))
    print("P/R/F at +-25 / +-50 ms (greedy one-to-one, closest first); med/p90 = |detected - truth| and "
          "bias = mean(detected - truth) in ms over pairs matched at +-50 ms; FP/empty = detections per "
          "zero-onset file.")


def main():
    ap = argparse.ArgumentParser(description="Score onset detectors (Tactus, librosa, aubio) against Corpus/ ground truth.",
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--corpus", type=Path, default=ROOT / "Corpus", help="corpus folder (default: Corpus/)")
    ap.add_argument("--tactus", default=str(ROOT / ".build" / "release" / "tactus"),
                    help="tactus binary or command (default: .build/release/tactus)")
    ap.add_argument("--tactus-args", default="", help="extra arguments appended to `tactus evaluate CORPUS --format json`")
    ap.add_argument("--methods", default=",".join(ALL_METHODS), help="comma list from: " + ",".join(ALL_METHODS))
    ap.add_argument("--condition", action="append", help="only these conditions (repeatable)")
    ap.add_argument("--json", dest="json_out", type=Path, help="write all numbers (summary + per-file) to this JSON file")
    ap.add_argument("--per-file", action="store_true", help="also print per-file F50 for each method")
    args = ap.parse_args()

    items = load_corpus(args.corpus)
    if args.condition:
        items = [it for it in items if it["condition"] in args.condition]
    if not items:
        print("No ground-truth files found under %s (run `python3 scripts/make_corpus.py`)." % args.corpus)
        return 0
    conditions = sorted({it["condition"] for it in items}, key=lambda c: (c != "clean", c))
    print("Corpus: %s  (%d files, %d onsets)" % (args.corpus, len(items), sum(len(it["truth"]) for it in items)))

    wanted = [m.strip() for m in args.methods.split(",") if m.strip()]
    detectors, skipped = {}, {}
    tactus = None
    for m in wanted:
        if m == "tactus":
            tactus, why = tactus_scores(args.tactus, args.tactus_args, args.corpus)
            fn = (lambda path: []) if tactus is not None else None
        elif m == "librosa":
            fn, why = make_librosa(False)
        elif m == "librosa-backtrack":
            fn, why = make_librosa(True)
        elif m == "aubio":
            fn, why = make_aubio()
        else:
            fn, why = None, "unknown method (choose from %s)" % ", ".join(ALL_METHODS)
        if fn is None:
            skipped[m] = why
            print("SKIP %-18s %s" % (m, why))
        else:
            detectors[m] = fn

    per_file = {m: {} for m in detectors}
    errors = {m: {} for m in detectors}
    for m, fn in detectors.items():
        for it in items:
            if m == "tactus":
                res = dict(tactus.get(it["name"], score_file([], it["truth"])))
                det = res.pop("detected", [])
                if it["name"] not in tactus:
                    errors[m][it["name"]] = "not scored by tactus evaluate"
                res.update(condition=it["condition"], truth=it["truth"], detected=[round(d, 6) for d in det])
                per_file[m][it["name"]] = res
                continue
            try:
                det = sorted(fn(it["path"]))
            except Exception as e:  # a failing file counts as zero detections
                errors[m][it["name"]] = "%s: %s" % (e.__class__.__name__, e)
                det = []
            res = score_file(det, it["truth"])
            res.update(condition=it["condition"], truth=it["truth"], detected=[round(d, 6) for d in det])
            per_file[m][it["name"]] = res
        if errors[m]:
            print("WARN %s failed on %d file(s) (scored as no detections), e.g. %s: %s" % (
                m, len(errors[m]), *next(iter(errors[m].items()))))

    summary = {}
    for m in detectors:
        rs = list(per_file[m].values())
        summary[m] = {"overall": aggregate(rs),
                      "byCondition": {c: aggregate([r for r in rs if r["condition"] == c]) for c in conditions}}
    print()
    if detectors:
        print_table(summary, list(detectors), conditions)
    else:
        print("No method could be run.")

    if args.per_file and detectors:
        print()
        names = [it["name"] for it in items]
        w = max(len(n) for n in names)
        print("%-*s %5s  %s" % (w, "file", "truth", "  ".join("%-17s" % ("det/F50 " + m)[:17] for m in detectors)))
        for n in names:
            cells = []
            for m in detectors:
                r = per_file[m][n]
                p, rc, f = prf(r["tp@50"], r["nDet"], r["nTruth"])
                cells.append("%-17s" % ("%3d / %.2f" % (r["nDet"], f)))
            print("%-*s %5d  %s" % (w, n, per_file[next(iter(detectors))][n]["nTruth"], "  ".join(cells)))

    if args.json_out:
        doc = {"corpus": str(args.corpus), "tolerancesMs": list(TOLS_MS), "timingToleranceMs": TIMING_TOL_MS,
               "skipped": skipped, "summary": summary, "perFile": per_file, "errors": errors}
        args.json_out.parent.mkdir(parents=True, exist_ok=True)
        args.json_out.write_text(json.dumps(doc, indent=2) + "\n")
        print("\nwrote %s" % args.json_out)
    return 0


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
    except BrokenPipeError:  # e.g. piped into `head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(0)
