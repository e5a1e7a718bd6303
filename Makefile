# readguard: read-before-write protection for process trees.
VERSION   := 0.1.0
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
LIBDIR    ?= $(PREFIX)/lib
DESTDIR   ?=

CC        ?= cc
CFLAGS    ?= -O2 -g
WARN      := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
CPPFLAGS  += -D_GNU_SOURCE -DRG_VERSION='"$(VERSION)"'
# Debian's multiarch triplet: ld.so's $LIB is lib/$(MULTIARCH), so the shim
# installed there is named through $LIB in LD_PRELOAD (see shim/cli/shim_path.c).
MULTIARCH ?= $(shell $(CC) -print-multiarch 2>/dev/null)
CPPFLAGS  += -DRG_MULTIARCH='"$(MULTIARCH)"'
B         := build

# --- issue 3: ignore rules (gitignore syntax), pure and shared by shim and CLI
IGNORE_CORE := wildmatch ignore

# Pure and file-level code that both the shim and the CLI use.
CORE      := sys table request policy text session report holder lineage content envp sha256 jrecord $(IGNORE_CORE) \
             progkind exec_target unguarded
# The rest of the shim: per-process state and the hooks.
SHIM      := $(CORE) context critical facts fdmap scope log guard restamp judge scan dircache journal $(patsubst shim/%.c,%,$(wildcard shim/hooks_*.c))
CLI       := $(patsubst shim/cli/%.c,%,$(wildcard shim/cli/*.c))
UNIT      := $(patsubst tests/unit/%.c,%,$(wildcard tests/unit/test_*.c))
HELPERS   := $(patsubst tests/helpers/%.c,%,$(wildcard tests/helpers/*.c))

SHIM_OBJ  := $(SHIM:%=$(B)/pic/%.o)
CORE_OBJ  := $(CORE:%=$(B)/obj/%.o)
CLI_OBJ   := $(CLI:%=$(B)/obj/cli/%.o)
HEADERS   := $(wildcard shim/*.h shim/cli/*.h)

all: $(B)/readguard $(B)/libreadguard.so

# --- issue 18: musl ------------------------------------------------------------
# `make musl` builds, with musl-gcc (Debian's musl-tools), a second tree in
# build/musl/: the shim that musl programs load (build/musl/libreadguard.so,
# installed in musl/ beside the glibc one), the command and the unit tests.
# The same sources; shim/musl/ fills in what musl lacks (shim/musl/compat.h).
# On Alpine, where cc is musl's own: make musl MUSL_CC=cc (not tried here).
MUSL_CC   ?= musl-gcc
HAVE_MUSL := $(shell command -v $(MUSL_CC) 2>/dev/null)
LIBBSD    := -lbsd
ifneq ($(RG_MUSL),)
MUSL_INC  := $(B)/include
CPPFLAGS  += -include shim/musl/compat.h -Ishim/musl -idirafter $(MUSL_INC)
LIBBSD    :=
MUSL_CLI_OBJ := $(B)/obj/musl_renameat2.o
$(B)/obj/musl_renameat2.o: shim/musl/renameat2.c | $(B)/obj/cli
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<
# musl-gcc sees only musl's headers: the kernel's and uthash come from the
# host, through links, never glibc's own headers.
$(MUSL_INC):
	mkdir -p $@
	for h in linux asm-generic uthash.h; do ln -sfn /usr/include/$$h $@/$$h; done
	ln -sfn /usr/include/$(MULTIARCH)/asm $@/asm
endif

musl:
	@command -v $(MUSL_CC) >/dev/null || scripts/dev/install-deps.sh musl
	$(MAKE) --no-print-directory B=$(B)/musl CC=$(MUSL_CC) RG_MUSL=1 MULTIARCH=$(MULTIARCH) \
		$(B)/musl/libreadguard.so $(B)/musl/readguard

# The unit tests of the musl tree; `make test` runs them too (musl-tools is
# one of its dependencies).
MUSL_UNIT_BIN := $(UNIT:%=$(B)/musl/unit/%)
musl-unit: musl
	$(MAKE) --no-print-directory B=$(B)/musl CC=$(MUSL_CC) RG_MUSL=1 MULTIARCH=$(MULTIARCH) unit

musl-check-build: musl
	$(MAKE) --no-print-directory B=$(B)/musl CC=$(MUSL_CC) RG_MUSL=1 MULTIARCH=$(MULTIARCH) \
		$(MUSL_UNIT_BIN)

$(B)/pic/%.o: shim/%.c $(HEADERS) | $(B)/pic
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -fPIC -fvisibility=hidden -c -o $@ $<

$(B)/obj/%.o: shim/%.c $(HEADERS) | $(B)/obj/cli
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<

$(B)/libreadguard.so: $(SHIM_OBJ) shim/export.map
	$(CC) $(CFLAGS) -shared -Wl,--version-script=shim/export.map -Wl,-z,defs \
		-o $@ $(SHIM_OBJ) -ldl

# --- supervised mode (issue 7) --------------------------------------------
# The supervisor lives in the readguard binary and decides with the shim's
# own guard, facts and log, linked here without the shim's singleton context
# and hooks.
SV        := $(patsubst shim/supervise/%.c,%,$(wildcard shim/supervise/*.c))
SV_OBJ    := $(SV:%=$(B)/obj/supervise/%.o) $(addprefix $(B)/obj/,critical.o facts.o fdmap.o scope.o log.o guard.o restamp.o judge.o scan.o dircache.o journal.o)
HEADERS   += $(wildcard shim/supervise/*.h)

$(B)/obj/supervise/%.o: shim/supervise/%.c $(HEADERS) | $(B)/obj/supervise
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<

$(B)/obj/supervise:
	mkdir -p $@

# Unit tests of the supervisor's pure parts link its objects too.
$(B)/unit/test_sv_%: tests/unit/test_sv_%.c tests/unit/check.h $(CORE_OBJ) $(SV_OBJ) $(HEADERS) | $(B)/unit
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -Ishim -o $@ $< $(CORE_OBJ) $(SV_OBJ) -pthread

# Statically linked test programs: the preload cannot see them.
SV_STATIC := $(patsubst tests/helpers/static/%.c,$(B)/t/%,$(wildcard tests/helpers/static/*.c))
$(B)/t/%: tests/helpers/static/%.c | $(B)/t
	$(CC) $(CPPFLAGS) -O2 $(WARN) -static -pthread -o $@ $<
check-build: $(SV_STATIC)

# --- issue 6: benchmarks (BENCHMARKS.md) --------------------------------------
# The harnesses are built by check-build too, so the smoke test can run them;
# hyperfine and the timed runs are only needed by `make bench`.
BENCH_BIN := $(B)/bench/rgbench $(B)/bench/rgtable

$(B)/bench/rgbench: tests/bench/rgbench.c | $(B)/bench
	$(CC) $(CPPFLAGS) -O2 -g $(WARN) -o $@ $<

$(B)/bench/rgtable: tests/bench/rgtable.c $(CORE_OBJ) $(HEADERS) | $(B)/bench
	$(CC) $(CPPFLAGS) -O2 -g $(WARN) -Ishim -o $@ $< $(CORE_OBJ)

$(B)/bench:
	mkdir -p $@

check-build: $(BENCH_BIN)

# The full run rewrites BENCHMARKS.md; the quick one only prints the table.
bench: all $(BENCH_BIN)
	@scripts/dev/install-deps.sh bench
	scripts/dev/bench.sh --out BENCHMARKS.md

bench-quick: all $(BENCH_BIN)
	@scripts/dev/install-deps.sh bench
	scripts/dev/bench.sh --quick

# What the supervised modes cost on a make -j2 workload (see README).
bench-supervise: all
	scripts/dev/bench-supervise.sh

# What guarding Claude Code's Bash tool shell costs per command (readguard.1).
bench-claude: all
	scripts/dev/bench-claude-shell.sh

# Go for the supervised-mode tests; they skip, saying why, without it.
deps-supervise:
	-@scripts/dev/install-deps.sh supervise || echo "readguard: no Go: its supervised-mode tests will be skipped" >&2
test: deps-supervise

$(B)/readguard: $(CLI_OBJ) $(CORE_OBJ) $(SV_OBJ) $(MUSL_CLI_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LIBBSD) -pthread

$(B)/pic $(B)/obj/cli $(B)/unit $(B)/t:
	mkdir -p $@

# --- tests -------------------------------------------------------------------

$(B)/unit/%: tests/unit/%.c tests/unit/check.h $(CORE_OBJ) $(HEADERS) | $(B)/unit
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -Ishim -o $@ $< $(CORE_OBJ)

$(B)/t/%: tests/helpers/%.c | $(B)/t
	$(CC) $(CPPFLAGS) -O2 $(WARN) -pthread -o $@ $<

$(B)/t/rgprobe-fortify: tests/helpers/rgprobe.c | $(B)/t
	$(CC) -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2 -O2 $(WARN) -D_GNU_SOURCE -o $@ $<

$(B)/t/rgprobe64: tests/helpers/rgprobe.c | $(B)/t
	$(CC) -D_FILE_OFFSET_BITS=64 -O2 $(WARN) -D_GNU_SOURCE -o $@ $<

UNIT_BIN   := $(UNIT:%=$(B)/unit/%)
# Each fuzz harness, built with gcc to replay its committed corpus (below).
FUZZ       := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_REPLAY_BIN := $(FUZZ:%=$(B)/fuzz-replay/%)
HELPER_BIN := $(HELPERS:%=$(B)/t/%) \
	$(if $(filter rgprobe,$(HELPERS)),$(B)/t/rgprobe-fortify $(B)/t/rgprobe64)

deps:
	@scripts/dev/install-deps.sh test

check-build: all $(UNIT_BIN) $(HELPER_BIN) $(FUZZ_REPLAY_BIN) $(if $(HAVE_MUSL),musl-check-build)

test: deps
	$(MAKE) check-build
	scripts/dev/run-tests.sh $(UNIT_BIN) $(FUZZ_REPLAY_BIN) \
		$$(command -v $(MUSL_CC) >/dev/null && echo $(UNIT:%=$(B)/musl/unit/%))

unit: $(UNIT_BIN) $(FUZZ_REPLAY_BIN)
	scripts/dev/run-tests.sh --unit-only $(UNIT_BIN) $(FUZZ_REPLAY_BIN)

# --- sanitizers and static analysis (issue 5) ----------------------------
# Each sanitizer builds the core objects and the unit tests into a tree of
# its own (build/asan, build/ubsan, build/tsan) and runs them there; any
# report fails the run. tsan's stress is tests/unit/test_table_threads.c.
SAN_FLAGS_asan  := -fsanitize=address -fno-omit-frame-pointer
SAN_FLAGS_ubsan := -fsanitize=undefined -fno-sanitize-recover=all
SAN_FLAGS_tsan  := -fsanitize=thread
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 TSAN_OPTIONS=halt_on_error=1

asan ubsan tsan:
	$(MAKE) --no-print-directory B=$(B)/$@ CFLAGS="-O1 -g $(SAN_FLAGS_$@)" san-unit

# Called by the three above with B and CFLAGS set.
san-unit: $(UNIT_BIN) $(FUZZ_REPLAY_BIN)
	$(SAN_ENV) scripts/dev/run-tests.sh --unit-only $(UNIT_BIN) $(FUZZ_REPLAY_BIN)

LINT_SRC := $(wildcard shim/*.c shim/cli/*.c shim/supervise/*.c)
# cppcheck sees the x86_64 side of sys.c's per-architecture syscall code;
# clang-tidy's checks are chosen, and each exclusion explained, in .clang-tidy.
lint: deps-lint
	cppcheck --enable=warning,portability,performance --error-exitcode=1 --inline-suppr \
		--quiet --std=c11 -D_GNU_SOURCE -D__x86_64__ -Ishim $(LINT_SRC)
	clang-tidy --quiet $(LINT_SRC) -- $(CPPFLAGS) -Ishim

deps-lint:
	@scripts/dev/install-deps.sh lint

# --- fuzzing (issue 5) -----------------------------------------------------
# libFuzzer harnesses in tests/fuzz/. `make fuzz` runs a campaign with clang
# (FUZZ_RUNS executions per harness); `make test` only replays the committed
# corpus, through a gcc build of each harness and tests/fuzz/replay.c.
FUZZ_SRC  := $(CORE:%=shim/%.c) shim/cli/jsonl.c
FUZZ_RUNS ?= 1000000
FUZZ_CC   ?= clang

$(B)/fuzz-replay/%: tests/fuzz/%.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(CORE_OBJ) \
		$(B)/obj/cli/jsonl.o $(HEADERS) | $(B)/fuzz-replay
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -Ishim -DFUZZ_CORPUS='"tests/fuzz/corpus/$*"' \
		-o $@ $< tests/fuzz/replay.c $(CORE_OBJ) $(B)/obj/cli/jsonl.o

$(B)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(FUZZ_SRC) $(HEADERS) | $(B)/fuzz
	$(FUZZ_CC) $(CPPFLAGS) -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -Ishim -o $@ $< $(FUZZ_SRC)

$(B)/fuzz $(B)/fuzz-replay:
	mkdir -p $@

deps-fuzz:
	@scripts/dev/install-deps.sh fuzz

fuzz: deps-fuzz
	$(MAKE) $(FUZZ:%=$(B)/fuzz/%)
	scripts/dev/fuzz.sh run $(FUZZ_RUNS) $(FUZZ)

# Folds what a campaign found into the committed corpus, minimised.
fuzz-merge:
	scripts/dev/fuzz.sh merge 0 $(FUZZ)

# --- a foreign test suite (issue 5) ----------------------------------------
# CPython's own tests of the file-system layer, with and without readguard
# (warn mode): per-test outcomes must be identical. Enforce mode is run too,
# and only reported.
deps-foreign:
	@scripts/dev/install-deps.sh foreign

test-foreign: deps-foreign all
	scripts/dev/test-foreign.sh --enforce

# --- install (issue 4) -------------------------------------------------------
# The shim goes under lib/<multiarch>/ so that LD_PRELOAD can name it through
# ld.so's $LIB, which each program expands for its own ELF class.
MANDIR    ?= $(PREFIX)/share/man
COMPDIR   ?= $(PREFIX)/share/bash-completion/completions
SHIMDIR   ?= $(LIBDIR)$(if $(MULTIARCH),/$(MULTIARCH))/readguard
MANPAGE   := shim/cli/readguard.1
COMPLETION := scripts/share/readguard.bash-completion
DATADIR   ?= $(PREFIX)/share/readguard
CLAUDE    := scripts/share/integrations/claude-code
SANDBOX   := scripts/share/integrations/sandbox

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SHIMDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(COMPDIR) $(DESTDIR)$(DATADIR)
	install -m 0755 $(B)/readguard $(DESTDIR)$(BINDIR)/readguard
	install -m 0644 $(B)/libreadguard.so $(DESTDIR)$(SHIMDIR)/libreadguard.so
	if [ -f $(B)/musl/libreadguard.so ]; then \
		install -d $(DESTDIR)$(SHIMDIR)/musl && \
		install -m 0644 $(B)/musl/libreadguard.so $(DESTDIR)$(SHIMDIR)/musl/libreadguard.so; fi
	install -m 0644 $(MANPAGE) $(DESTDIR)$(MANDIR)/man1/readguard.1
	install -m 0644 $(COMPLETION) $(DESTDIR)$(COMPDIR)/readguard
	install -m 0644 $(CLAUDE)/settings.json $(DESTDIR)$(DATADIR)/claude-code-settings.json
	install -m 0755 $(SANDBOX)/readguard-bwrap $(SANDBOX)/readguard-firejail $(DESTDIR)$(DATADIR)/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/readguard $(DESTDIR)$(SHIMDIR)/libreadguard.so \
		$(DESTDIR)$(SHIMDIR)/musl/libreadguard.so \
		$(DESTDIR)$(MANDIR)/man1/readguard.1 $(DESTDIR)$(COMPDIR)/readguard \
		$(DESTDIR)$(DATADIR)/claude-code-settings.json \
		$(DESTDIR)$(DATADIR)/readguard-bwrap $(DESTDIR)$(DATADIR)/readguard-firejail
	-rmdir $(DESTDIR)$(SHIMDIR)/musl $(DESTDIR)$(SHIMDIR) $(DESTDIR)$(DATADIR)

# --- a Debian package (issue 16) ----------------------------------------------
# dpkg-deb over a `make install PREFIX=/usr` staging root; the packaging files
# are in scripts/dev/deb/. lintian checks it in tests/e2e/t2140-deb.bats.
deb: all
	scripts/dev/deb/build.sh $(B)/deb $(VERSION)

clean:
	rm -rf $(B)

.PHONY: all deb deps deps-supervise bench bench-quick bench-supervise bench-claude check-build test unit install uninstall clean \
	asan ubsan tsan san-unit lint deps-lint deps-fuzz fuzz fuzz-merge \
	deps-foreign test-foreign
.DELETE_ON_ERROR:

ifneq ($(RG_MUSL),)
$(CORE_OBJ) $(CLI_OBJ) $(SHIM_OBJ) $(SV_OBJ) $(MUSL_CLI_OBJ): | $(MUSL_INC)
endif
