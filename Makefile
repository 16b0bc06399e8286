# ndnlab entry points. The README's whole set-up is `make demo` and `make test`.
#   make deps    install missing apt and pip packages (Debian 12)
#   make build   configure (CMake + Ninja) and build into build/
#   make test    deps + test deps (Node.js, NDNts, Chromium, ndnd, iperf3) + build + every test (ctest, pytest, fuzz smoke run)
#   make demo    deps + build + the main job on built-in defaults
#   make bench   benchmarks; figures go to docs/results/
#   make bench-sim  simulation speed: NDN run vs plain ns-3 (docs/results/simulator.md)
#   make fuzz    longer libFuzzer runs under ASan/UBSan
#   make sanitize  ctest and pytest again against an ASan/UBSan build of everything
#   make lint    ruff (Python) and clang-format (C++) against ruff.toml and .clang-format; changes nothing
SHELL := /bin/bash
BUILD ?= build
FUZZ_BUILD ?= build-fuzz
SANITIZE_BUILD ?= build-sanitize
BUILD_TYPE ?= RelWithDebInfo
PYTHON ?= python3
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS ?= 20
export CCACHE_DIR ?= $(HOME)/.cache/ndnlab-ccache

# --- The variables above can be set by the user (README.md, "Make variables"). They are checked
# here, before any target runs: a bad value stops make with one line naming it.
ROOT := $(realpath $(dir $(lastword $(MAKEFILE_LIST))))
digitless = $(subst 0,,$(subst 1,,$(subst 2,,$(subst 3,,$(subst 4,,$(subst 5,,$(subst 6,,$(subst 7,,$(subst 8,,$(subst 9,,$(1)))))))))))
# check-positive-int NAME: one word of digits, not starting with 0
check-positive-int = $(if $(and $(filter 1,$(words $($(1)))),$(filter-out 0%,$($(1))),\
  $(if $(call digitless,$($(1))),,ok)),,$(error $(1)=$($(1)): expected a positive integer))
# Top-level directories of the checkout that hold sources (all but build*/ and results/); a
# build directory must not be one of them, inside one, the checkout itself or above it, since
# `make clean` deletes it.
SOURCE_DIRS := $(filter-out build% results . ..,$(notdir $(patsubst %/.,%,$(wildcard $(ROOT)/*/. $(ROOT)/.*/.))))
dir-of = $(patsubst %/,%,$(or $(realpath $(1)),$(abspath $(1))))
# in-source NAME: the source directory that $(NAME) is or lies in, if any
in-source = $(firstword $(foreach d,$(SOURCE_DIRS),\
  $(if $(filter $(ROOT)/$(d) $(ROOT)/$(d)/%,$(call dir-of,$($(1)))),$(d))))
# is-clean-target NAME: `make clean` and $(NAME) exists and is not empty
is-clean-target = $(and $(filter clean,$(MAKECMDGOALS)),$(wildcard $($(1))/* $($(1))/.[!.]*))
define check-build-dir
$(if $(filter 1,$(words $($(1)))),,$(error $(1)='$($(1))': expected one directory name))
$(if $(filter $(call dir-of,$($(1)))/%,$(ROOT)/),$(error $(1)=$($(1)): is the checkout or above it))
$(if $(call in-source,$(1)),$(error $(1)=$($(1)): is in source directory \
  $(call in-source,$(1))/ of the checkout; give a build directory such as build-x))
$(if $(call is-clean-target,$(1)),$(if $(wildcard $($(1))/CMakeCache.txt),,$(error \
  $(1)=$($(1)): not a build directory (no CMakeCache.txt); make clean removes only those)))
endef
$(call check-positive-int,JOBS)
$(call check-positive-int,FUZZ_SECONDS)
$(call check-positive-int,FUZZ_SMOKE_SECONDS)
BUILD_TYPES := Debug Release RelWithDebInfo MinSizeRel
$(if $(filter-out 1,$(words $(BUILD_TYPE)))$(filter-out $(BUILD_TYPES),$(BUILD_TYPE)),\
  $(error BUILD_TYPE=$(BUILD_TYPE): expected one of $(BUILD_TYPES)))
$(eval $(call check-build-dir,BUILD))
$(eval $(call check-build-dir,FUZZ_BUILD))
$(eval $(call check-build-dir,SANITIZE_BUILD))

CMAKE_FLAGS := -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)
CMAKE_FLAGS += -DNDNLAB_WITH_NS3=ON
ifeq ($(CI),true)
CMAKE_FLAGS += -DNDNLAB_WERROR=ON
endif

.PHONY: all deps test-deps build py-install test unit-test py-test lint fuzz-smoke demo bench bench-sim fuzz sanitize clean

all: build

deps:
	@PYTHON=$(PYTHON) scripts/install-deps

# What only the tests need: Node.js, Chromium and the NDNts clients of the interop tests, and
# ndnd built with the machine's Go (skipped, and its tests with it, where Go is older than 1.24).
test-deps: deps
	@PYTHON=$(PYTHON) scripts/install-deps --with-tests
	@tests/interop/ndnts/install
	@tests/interop/ndnd/install

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: deps $(BUILD)/build.ninja py-install
	@grep -qx 'NDNLAB_WITH_NS3:BOOL=ON' $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

# The Python package (ndnlab-campaign, -plot, -report), editable; quick when already installed.
py-install:
	@PYTHON=$(PYTHON) STAMP=$(abspath $(BUILD))/.py-install python/install

test: build test-deps
	@$(MAKE) --no-print-directory lint unit-test py-test fuzz-smoke

# run-ctest DIR, run-pytest DIR: the tests against the build in DIR. pytest exits 5 when it
# collects no tests; that is not a failure here. -rs lists why each skipped test was skipped.
run-ctest = ctest --test-dir $(1) --output-on-failure -j $(JOBS) --timeout 600
run-pytest = NDNLAB_BUILD=$(abspath $(1)) $(PYTHON) -m pytest -q -rs tests/python tests/integration tests/interop \
  || { rc=$$?; [ $$rc -eq 5 ] && echo "pytest: no tests collected" || exit $$rc; }

unit-test:
	$(call run-ctest,$(BUILD))

py-test:
	$(call run-pytest,$(BUILD))

# The checked-in style: ruff check (ruff.toml) and clang-format --dry-run (.clang-format) over
# the tracked files; prints what differs and changes nothing (scripts/check-format).
lint: deps
	@PYTHON=$(PYTHON) scripts/check-format

$(FUZZ_BUILD)/build.ninja:
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DNDNLAB_WITH_FUZZ=ON -DNDNLAB_WITH_TESTS=OFF -DNDNLAB_WITH_BENCH=OFF -DNDNLAB_SANITIZE=ON

fuzz-smoke: $(FUZZ_BUILD)/build.ninja
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz-all
	scripts/run-fuzz $(FUZZ_BUILD) $(FUZZ_SMOKE_SECONDS)

fuzz: deps $(FUZZ_BUILD)/build.ninja
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz-all
	scripts/run-fuzz $(FUZZ_BUILD) $(FUZZ_SECONDS)

# Every ctest and pytest test against an ASan+UBSan build (daemon, tools, ns-3 modules, tests):
# memory errors, leaks and undefined behaviour of real sockets, processes and simulations, which
# the fuzz targets do not reach. The reports go to files, all printed at the end; any report
# fails the target. Not part of `make test`: the build takes ~30 min on 2 cores the first time.
SANITIZER_LOGS = $(abspath $(SANITIZE_BUILD))/sanitizer-logs
SANITIZER_ENV = ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:log_path=$(SANITIZER_LOGS)/asan \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$(SANITIZER_LOGS)/ubsan \
  LSAN_OPTIONS=suppressions=$(ROOT)/tests/sanitizers/lsan-suppressions.txt:print_suppressions=0

$(SANITIZE_BUILD)/build.ninja:
	cmake -S . -B $(SANITIZE_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DNDNLAB_WITH_NS3=ON \
	  -DNDNLAB_SANITIZE=ON

sanitize: test-deps $(SANITIZE_BUILD)/build.ninja py-install
	cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	@rm -rf $(SANITIZER_LOGS) && mkdir -p $(SANITIZER_LOGS)
	@export $(SANITIZER_ENV); rc=0; \
	  $(call run-ctest,$(SANITIZE_BUILD)) || rc=1; \
	  ( $(call run-pytest,$(SANITIZE_BUILD)) ) || rc=1; \
	  if compgen -G '$(SANITIZER_LOGS)/*' > /dev/null; then \
	    cat $(SANITIZER_LOGS)/*; echo "sanitizers: $$(ls $(SANITIZER_LOGS) | wc -l) report(s) in $(SANITIZER_LOGS)"; exit 1; \
	  fi; \
	  echo "sanitizers: no report"; exit $$rc

demo: build
	scripts/demo $(BUILD)

bench: build
	scripts/bench $(BUILD)

# NDN layer cost in ns-3: wifi-one-hop vs plain ns-3 with the same frames (docs/results/simulator.md)
bench-sim: build
	scripts/bench-sim $(BUILD)

clean:
	rm -rf $(BUILD) $(FUZZ_BUILD) $(SANITIZE_BUILD)
