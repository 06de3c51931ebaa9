# Two entry points for a fresh machine: `make demo` and `make check`.
# Both install what is missing (Debian packages) before building.

LLVM_VERSION ?= 14
# Each LLVM gets its own build tree: `make check LLVM_VERSION=19` beside 14's.
ifeq ($(LLVM_VERSION),14)
BUILD ?= build
else
BUILD ?= build-llvm$(LLVM_VERSION)
endif
LLVM_DIR ?= /usr/lib/llvm-$(LLVM_VERSION)/lib/cmake/llvm
CC_FOR_BUILD ?= /usr/lib/llvm-$(LLVM_VERSION)/bin/clang
CXX_FOR_BUILD ?= /usr/lib/llvm-$(LLVM_VERSION)/bin/clang++
JOBS ?= $(shell nproc)

.PHONY: all deps configure build check check-pass check-aarch64 stress demo install clean

all: build

deps:
	@./tools/install-deps.sh $(LLVM_VERSION)

$(BUILD)/CMakeCache.txt:
	@$(MAKE) --no-print-directory deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DLLVM_DIR=$(LLVM_DIR) -DCMAKE_C_COMPILER=$(CC_FOR_BUILD) \
	  -DCMAKE_CXX_COMPILER=$(CXX_FOR_BUILD)

configure: $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

check: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The pass alone and its IR tests, against LLVM_VERSION (CI runs this on the
# newer LLVMs; `make check LLVM_VERSION=N` runs everything).
check-pass: configure
	cmake --build $(BUILD) -j $(JOBS) --target HybridRacePass
	cd $(BUILD) && LIT_OPTS="--filter=pass/" ctest --output-on-failure -R '^lit$$'

# AArch64: the runtime cross-built with this LLVM's clang into
# lib/hrace/aarch64 (where the driver looks for --target=aarch64-*); the
# AArch64-only code (the LL/SC pair compare-and-swap, the four layouts'
# arithmetic), an instrumented racy program, the lit suite's programs (less
# the host-only pass and driver tests) and the short stress tests run under
# qemu-aarch64, in the
# 47-bit layout (qemu on an x86-64 host gives the guest the host's address
# space). qemu comes from
# bookworm-backports: Debian 12's qemu 7.2 keeps flags for every page of a
# MAP_NORESERVE reservation (1 TB costs it 6 GB) and the shadow is 64 TB.
AARCH64_SYSROOT ?= /usr/aarch64-linux-gnu
AARCH64_RT = $(BUILD)/aarch64-rt
check-aarch64: build
	@./tools/install-deps.sh $(LLVM_VERSION) aarch64
	cmake -S . -B $(AARCH64_RT) -DHRACE_RUNTIME_ONLY=ON \
	  -DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/cmake/aarch64-linux-gnu.cmake \
	  -DHRACE_HOST_CLANG=$(CC_FOR_BUILD) \
	  -DLLVM_TOOLS_BINARY_DIR=/usr/lib/llvm-$(LLVM_VERSION)/bin
	cmake --build $(AARCH64_RT) -j $(JOBS)
	mkdir -p $(BUILD)/lib/hrace/aarch64
	cp $(AARCH64_RT)/lib/hrace/libhrace_rt.a $(AARCH64_RT)/lib/hrace/hrace.syms $(BUILD)/lib/hrace/aarch64/
	$(BUILD)/bin/hrace-clang --target=aarch64-linux-gnu -fsanitize-hybrid-race -g \
	  examples/counter_race.c -o $(AARCH64_RT)/counter_race
	readelf -h $(AARCH64_RT)/counter_race | grep -q AArch64
	$(CXX_FOR_BUILD) --target=aarch64-linux-gnu -std=c++17 -O2 -Iruntime \
	  test/aarch64/cas_pair_and_mapping.cpp shadow/hrace_shadow_mapping.cpp \
	  -o $(AARCH64_RT)/cas_pair_and_mapping -pthread
	qemu-aarch64 -L $(AARCH64_SYSROOT) $(AARCH64_RT)/cas_pair_and_mapping
	! qemu-aarch64 -L $(AARCH64_SYSROOT) $(AARCH64_RT)/counter_race \
	  > $(AARCH64_RT)/counter_race.out 2>&1
	grep -q 'SUMMARY: HybridRace: data race .*counter_race.c:25 in increment' \
	  $(AARCH64_RT)/counter_race.out
	cd $(BUILD) && LIT_OPTS="--param hrace_target=aarch64" ctest --output-on-failure -R '^(lit|stress)$$'

# The stress tests at full length (10,000 threads, 2,000 forks, 100 M lock
# pairs, ...); `make check` runs them in a short form.
stress: build
	cd $(BUILD) && LIT_OPTS="--param stress=full" ctest --output-on-failure -R '^stress$$'

install: build
	cmake --install $(BUILD) --prefix $(or $(PREFIX),$(BUILD)/install)

demo: build
	@./examples/demo.sh $(BUILD)

clean:
	rm -rf $(BUILD)
