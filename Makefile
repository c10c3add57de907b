# headroom — the two commands of the README, and the rest.
#   make run     build, then run the main job (headroom check; status until check exists)
#   make test    build and run every test: Linux, Linux under ASan+UBSan, Windows under Wine
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_GEN := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all build run test test-linux test-asan test-windows fuzz bench clean

all: build

build:
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/headroom

test-linux: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

test-asan:
	cmake -S . -B $(BUILD)-asan $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug -DHR_SANITIZE=ON
	cmake --build $(BUILD)-asan -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(BUILD)-asan --output-on-failure -j $(JOBS)

test-windows:
	cmake -S . -B $(BUILD)-win $(CMAKE_GEN) -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake
	cmake --build $(BUILD)-win -j $(JOBS)
	ctest --test-dir $(BUILD)-win --output-on-failure -j $(JOBS)

test: test-linux test-asan test-windows

fuzz:
	cmake -S . -B $(BUILD)-fuzz $(CMAKE_GEN) -DCMAKE_C_COMPILER=clang -DHR_FUZZ=ON -DHR_SANITIZE=ON
	cmake --build $(BUILD)-fuzz -j $(JOBS)

bench: build
	bash bench/run.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-win $(BUILD)-fuzz
