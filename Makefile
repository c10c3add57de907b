# headroom — the two commands of the README, and the rest.
#   make run     build (Release-with-debug-info), then run the main job: headroom check
#   make test    build and run every test: Linux, Linux under ASan+UBSan, Windows under Wine
# Development and test builds treat warnings as errors (HR_WERROR); a plain cmake build
# does not, so a packager's newer compiler cannot break it.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_GEN := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
BIN := $(BUILD)/src/headroom

.PHONY: all build run test test-linux test-asan test-windows fuzz bench release package clean mutation

all: build

build:
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHR_WERROR=ON
	cmake --build $(BUILD) -j $(JOBS)

# The main job. headroom's own exit status is the verdict (0 OK, 1 AT RISK, 2 WILL FAIL, 3
# cannot tell): a verdict is an answer, not a failure, so make says what it means and succeeds;
# anything else (a crash, an error of 64 and up) fails the target.
run: build
	@rc=0; ./$(BIN) check || rc=$$?; \
	case $$rc in \
	  0) echo "(headroom check exit 0: OK — this machine can back the run)";; \
	  1) echo "(headroom check exit 1: AT RISK — see \"Do this\" above)";; \
	  2) echo "(headroom check exit 2: WILL FAIL — see \"Do this\" above)";; \
	  3) echo "(headroom check exit 3: cannot tell — a fact is missing, see above)";; \
	  *) echo "headroom check failed with exit status $$rc (docs/exit-status.md)" >&2; exit $$rc;; \
	esac

test-linux: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

test-asan:
	cmake -S . -B $(BUILD)-asan $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug -DHR_SANITIZE=ON -DHR_WERROR=ON
	cmake --build $(BUILD)-asan -j $(JOBS)
	# The kill-at-every-system-call proof runs in full in test-linux; here every 3rd call is
	# enough to put each of apply's paths under the sanitizers.
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 HR_PROOF_STRIDE=3 \
	  ctest --test-dir $(BUILD)-asan --output-on-failure -j $(JOBS)

test-windows:
	cmake -S . -B $(BUILD)-win $(CMAKE_GEN) -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake -DHR_WERROR=ON
	cmake --build $(BUILD)-win -j $(JOBS)
	# Make the Wine prefix once, before tests start Wine in parallel (a first start races).
	# Bounded: a wineserver left running with -p (persistent) would make -w wait forever.
	WINEDEBUG=-all timeout 120 wineboot -i >/dev/null 2>&1; WINEDEBUG=-all timeout 60 wineserver -w 2>/dev/null; true
	# One wineserver for the whole run. Left to itself it exits a few seconds after its last
	# client, and a test whose Wine connects just then dies at start ("wine client error:
	# recvmsg: Connection reset by peer"). Kept alive (-p), its services (services.exe,
	# winedevice, rpcss, ...) live on too, and whichever test started them would hand them
	# its output pipe, so ctest would wait on that test forever: start them here, with no
	# test's pipes, and end them all after the run.
	WINEDEBUG=-all wineserver -p </dev/null >/dev/null 2>&1; \
	WINEDEBUG=-all timeout 120 wineboot </dev/null >/dev/null 2>&1; \
	ctest --test-dir $(BUILD)-win --output-on-failure -j $(JOBS) || { \
	  echo "test-windows: running the failed tests once more, one at a time:"; \
	  cat $(BUILD)-win/Testing/Temporary/LastTestsFailed.log; \
	  ctest --test-dir $(BUILD)-win --output-on-failure --rerun-failed; }; \
	status=$$?; WINEDEBUG=-all wineserver -k 2>/dev/null; exit $$status

test: test-linux test-asan test-windows

# Release builds with every compiler the project supports, warnings as errors: what a
# packager's `cmake -DCMAKE_BUILD_TYPE=Release` compiles must be warning-clean.
release:
	cmake -S . -B $(BUILD)-rel-gcc $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=gcc -DHR_WERROR=ON
	cmake --build $(BUILD)-rel-gcc -j $(JOBS)
	cmake -S . -B $(BUILD)-rel-clang $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang -DHR_WERROR=ON
	cmake --build $(BUILD)-rel-clang -j $(JOBS)
	cmake -S . -B $(BUILD)-rel-win $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake -DHR_WERROR=ON
	cmake --build $(BUILD)-rel-win -j $(JOBS)

# Packages people install (docs/packaging.md): a Debian package (binary, man pages, bash and
# zsh completions, systemd units, Prometheus rules and a Grafana dashboard, the licence) in
# $(BUILD)/, and a Windows zip (headroom.exe, a Chinese + English readme, LICENSE.txt) in
# $(BUILD)-win/.
package:
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHR_WERROR=ON
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && cpack -G DEB
	cmake -S . -B $(BUILD)-win $(CMAKE_GEN) -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake -DHR_WERROR=ON
	cmake --build $(BUILD)-win -j $(JOBS)
	cd $(BUILD)-win && cpack -G ZIP

fuzz:
	cmake -S . -B $(BUILD)-fuzz $(CMAKE_GEN) -DCMAKE_C_COMPILER=clang -DHR_FUZZ=ON -DHR_SANITIZE=ON
	cmake --build $(BUILD)-fuzz -j $(JOBS)

bench: build
	bash bench/run.sh $(BIN)

# Plant each of tools/mutation.py's small bugs in the rule code, one at a time, in a copy of
# the tree ($(BUILD)-mutation/tree; restored after each, even on Ctrl-C), build it in
# $(BUILD)-mutation/obj, run the area's fast tests, and print the share caught per area with
# the survivors. Not part of CI: it takes long. MUTATION_ARGS: --full (every fast test per
# mutation), --only AREA (e.g. estimate) or TEXT of a file or note, --list, --check.
mutation:
	python3 tools/mutation.py --build $(BUILD)-mutation -j $(JOBS) $(MUTATION_ARGS)

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-win $(BUILD)-fuzz $(BUILD)-mutation $(BUILD)-rel-gcc $(BUILD)-rel-clang $(BUILD)-rel-win
