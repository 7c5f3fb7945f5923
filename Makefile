# Thin entry points; CMake does the real work. Every target installs missing
# Debian packages first (cmake/install-deps.sh is quiet when all are present).

BUILD      ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
JOBS       ?= $(shell nproc)
CMAKE_GEN  := -G Ninja

# Let ccache share results between clones of the repository on one machine.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

.PHONY: deps build test test-asan test-tsan fuzz bench bench-kube demo conformance oracle e2e clean

deps:
	@bash cmake/install-deps.sh

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

# Catch2's test discovery turns a test binary that crashes while listing its
# tests into an empty list, which ctest would then pass without a word: fail
# when any test binary of build dir $(1) listed none.
check-discovered = for f in $(1)/tests/*_tests-*.cmake; do \
	  grep -q add_test "$$f" || { echo "$$f: its test binary listed no tests (did it crash at start?)" >&2; exit 1; }; \
	done

test: build
	@$(call check-discovered,$(BUILD))
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

$(ASAN_BUILD)/build.ninja: | deps
	cmake -S . -B $(ASAN_BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug \
	  -DSCHEDKIT_SANITIZE=address,undefined -DSCHEDKIT_BUILD_BENCH=OFF

test-asan: deps $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	@$(call check-discovered,$(ASAN_BUILD))
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

$(TSAN_BUILD)/build.ninja: | deps
	cmake -S . -B $(TSAN_BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DSCHEDKIT_SANITIZE=thread -DSCHEDKIT_BUILD_BENCH=OFF -DSCHEDKIT_BUILD_EXAMPLES=OFF

test-tsan: deps $(TSAN_BUILD)/build.ninja
	cmake --build $(TSAN_BUILD) -j $(JOBS)
	@$(call check-discovered,$(TSAN_BUILD))
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$(CURDIR)/tests/tsan-suppressions.txt" \
	  ctest --test-dir $(TSAN_BUILD) --output-on-failure -j $(JOBS)

# libFuzzer targets (clang, ASan+UBSan, a build of their own), each run for
# FUZZ_SECONDS from its seed corpus (tests/fuzz).
$(FUZZ_BUILD)/build.ninja: | deps
	cmake -S . -B $(FUZZ_BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
	  -DSCHEDKIT_SANITIZE=address,undefined -DSCHEDKIT_BUILD_FUZZ=ON -DSCHEDKIT_BUILD_TESTS=OFF \
	  -DSCHEDKIT_BUILD_BENCH=OFF -DSCHEDKIT_BUILD_EXAMPLES=OFF -DSCHEDKIT_BUILD_KUBE=OFF -DSCHEDKIT_BUILD_SIM=OFF

fuzz: deps $(FUZZ_BUILD)/build.ninja
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_targets
	bash tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

bench: build
	bash bench/run.sh $(BUILD)

# Differential tests against the real upstream scheduler (Go oracle).
# SCENARIOS=N and SEED=S override the defaults.
conformance: build
	SIM=$(CURDIR)/$(BUILD)/examples/schedkit-sim bash tests/conformance/run.sh
	# The upstream CEL side of the differential check (tests/cel/oracle): its generator covers every function.
	cd tests/cel/oracle && CGO_ENABLED=0 go test -count=1 ./...
	@echo "schedkit-perf --vs-upstream smoke run (its figures mean nothing at this size):"
	$(BUILD)/bench/schedkit-perf --workload PreemptionBasic --nodes 50 --init-pods 200 --pods 50 \
	  --vs-upstream --oracle tests/conformance/.bin/schedkit-oracle
	$(BUILD)/bench/schedkit-perf --workload-file bench/perf/workloads/mixed-distinct.yaml --scale 0.05 \
	  --vs-upstream --oracle tests/conformance/.bin/schedkit-oracle

# The upstream oracle alone (for schedkit-perf --vs-upstream); Go fetches
# its modules on the first build.
oracle:
	cd tests/conformance/oracle && CGO_ENABLED=0 go build -o ../.bin/schedkit-oracle .

# End-to-end tests of schedkit::kube against a real kube-apiserver (the upstream release) and
# etcd on 127.0.0.1 (tests/kube/apiserver, Go; its first build downloads Go
# modules and compiles the API server, which takes minutes).
e2e: build
	bash tests/kube/apiserver/build.sh tests/kube/.bin
	# schedkit's gate table is upstream's (the same module built kube-scheduler).
	bash tests/conformance/upstream-gates.sh check
	cd tests/kube/apiserver && CGO_ENABLED=0 go test -count=1 .
	# examples/sample-plugin against an install of this tree: its sample-scheduler.
	ctest --test-dir $(BUILD) -R '^install/sample_plugin_builds$$' --output-on-failure
	SCHEDKIT_TEST_APISERVER=$(CURDIR)/tests/kube/.bin/schedkit-test-apiserver \
	  SCHEDKIT_KUBE=$(abspath $(BUILD))/examples/schedkit-kube \
	  SAMPLE_SCHEDULER=$(abspath $(BUILD))/tests/install/sample-plugin-check/build/sample-scheduler \
	  SCHEDKIT_SIM=$(abspath $(BUILD))/examples/schedkit-sim \
	  KUBE_SCHEDULER=$(CURDIR)/tests/kube/.bin/kube-scheduler $(BUILD)/tests/schedkit_e2e_tests

# schedkit-kube and upstream's kube-scheduler (the same release), one after the other,
# against the tests' real API server on scheduler_perf's workloads at 500
# nodes (bench/kube/kube_bench.cc; ARGS="--workload ... --pods N" etc.).
bench-kube: build
	bash tests/kube/apiserver/build.sh tests/kube/.bin
	SCHEDKIT_TEST_APISERVER=$(CURDIR)/tests/kube/.bin/schedkit-test-apiserver \
	  SCHEDKIT_KUBE=$(abspath $(BUILD))/examples/schedkit-kube \
	  KUBE_SCHEDULER=$(CURDIR)/tests/kube/.bin/kube-scheduler $(BUILD)/bench/kube_bench $(ARGS)

# Builds the simulator and runs it on the bundled demo cluster.
demo: build
	$(BUILD)/examples/schedkit-sim --output table

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD)
