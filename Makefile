# Tactus — common tasks. `make corpus` and `make test` are the two README commands.
SWIFT ?= swift
OUT ?= out
CONFIG ?= release

.PHONY: deps build corpus test eval bench clean

# Installs FFTW and libsndfile (with apt-get) only when pkg-config cannot find them.
deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build -c $(CONFIG)

# Converts the bundled Corpus with the default preset into $(OUT)/, then validates every AHAP.
corpus: build
	@mkdir -p $(OUT)
	.build/$(CONFIG)/tactus batch Corpus -o $(OUT) --preset default
	.build/$(CONFIG)/tactus validate --quiet $$(find $(OUT) -name '*.ahap' | sort)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Scores transients on the Corpus against ground truth, beside librosa and aubio.
eval: build
	scripts/eval_onsets.py --tactus .build/$(CONFIG)/tactus

# Benchmarks (not part of `make test`): release build, generated corpus in bench-out/, Tactus
# beside librosa and aubio, the machine's limit and a per-stage profile (see BENCHMARKS.md).
bench: deps
	scripts/bench/ensure-tools.sh
	$(SWIFT) build -c release --product tactus
	scripts/bench/run.py --tactus .build/release/tactus

clean:
	rm -rf .build $(OUT)
