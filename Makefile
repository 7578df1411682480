# Tactus — common tasks. `make corpus` and `make test` are the two README commands.
SWIFT ?= swift
OUT ?= out
CONFIG ?= release
# Release binaries carry the Swift runtime and Foundation inside them: `tactus` then runs on
# a machine without Swift, and each process starts in half the time (no dynamic linking of
# the Swift libraries: about 10 ms less per `tactus convert`).
STATIC = $(if $(filter release,$(CONFIG)),--static-swift-stdlib)

.PHONY: deps build corpus test eval realcorpus eval-real bench docs clean

# Installs FFTW and libsndfile (with apt-get) only when pkg-config cannot find them.
deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build -c $(CONFIG) $(STATIC)

# Converts the bundled Corpus with the default preset into $(OUT)/, then validates every AHAP.
corpus: build
	@mkdir -p $(OUT)
	.build/$(CONFIG)/tactus batch Corpus -o $(OUT) --preset default
	.build/$(CONFIG)/tactus validate --quiet $$(find $(OUT) -name '*.ahap' | sort)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Scores the default preset on the Corpus (transient timing per condition, envelope
# fidelity, the same with unsimplified fixed-rate curves for comparison), then the
# transients of Tactus beside librosa and aubio on the same files (installs them if missing).
eval: build
	.build/$(CONFIG)/tactus evaluate Corpus
	@echo "--- the same with unsimplified curves (a naive fixed-rate mapping) ---"
	.build/$(CONFIG)/tactus evaluate Corpus --set mapping.intensity.tolerance=0.001 --set mapping.sharpness.tolerance=0.001 | tail -6
	@python3 -c "import librosa" 2>/dev/null || pip install -q -r scripts/requirements-eval.txt
	@command -v aubioonset >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq aubio-tools >/dev/null)
	python3 scripts/eval_onsets.py --tactus .build/$(CONFIG)/tactus

# The real-sound corpus (docs/REALCORPUS.md): sound effects from Debian packages, fetched with
# apt-get download into realcorpus-cache/ (nothing installed), one-shots by category and
# mixtures with ground truth, in realcorpus/dev and realcorpus/heldout.
realcorpus:
	@python3 -c "import numpy, scipy, soundfile" 2>/dev/null || pip install -q -r scripts/requirements-eval.txt
	python3 scripts/realcorpus/make_realcorpus.py

# Tactus on both halves of the real-sound corpus beside librosa and aubio, per condition and
# per category (transient sharpness and intensity); writes realcorpus/report.md.
eval-real: build realcorpus
	@command -v aubioonset >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq aubio-tools >/dev/null)
	python3 scripts/realcorpus/evaluate.py --tactus .build/$(CONFIG)/tactus

# Benchmarks (not part of `make test`): release build, generated corpus in bench-out/, Tactus
# beside librosa and aubio, the machine's limit and a per-stage profile (see BENCHMARKS.md).
bench: deps
	scripts/bench/ensure-tools.sh
	$(SWIFT) build -c release --static-swift-stdlib --product tactus
	scripts/bench/run.py --tactus .build/release/tactus
	scripts/bench/big_pattern.py --tactus .build/release/tactus --work bench-out/big

# The library's documentation (DocC: Tactus, TactusCore, TactusAHAP, with the articles) as a
# static site in docs-site/; warnings fail the build.
docs: deps
	$(SWIFT) package --allow-writing-to-directory docs-site generate-documentation \
		--target Tactus --target TactusCore --target TactusAHAP --enable-experimental-combined-documentation \
		--output-path docs-site --transform-for-static-hosting --warnings-as-errors

clean:
	rm -rf .build $(OUT) docs-site
