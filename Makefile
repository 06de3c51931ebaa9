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

.PHONY: all deps configure build check check-pass stress demo install clean

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
