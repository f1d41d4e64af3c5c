# tkc — GNU make.  `make` builds build/tkc; `make test` runs every test;
# `make demo` runs the README's example; `make deps` installs what is missing.

CC      ?= cc
BISON   ?= bison
RE2C    ?= re2c
PREFIX  ?= /usr/local
B       := build

WARN    := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
           -Wno-unused-parameter
CFLAGS  ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -MMD -MP -I$(B) -I.
LDLIBS  := -lm -ldl

SRCS := $(wildcard lang/*.c) $(wildcard parser/*.c) $(wildcard sema/*.c) \
        $(wildcard lower/*.c) $(wildcard targets/*.c) $(wildcard targets/*/*.c)
GEN  := $(B)/lexer.c $(B)/parser.tab.c
OBJS := $(patsubst %.c,$(B)/obj/%.o,$(SRCS)) $(B)/obj/lexer.o $(B)/obj/parser.tab.o

.PHONY: all deps test test-unit test-gpu bench bench-gpu demo asan install clean check-deps

all: $(B)/tkc

check-deps:
	@command -v $(BISON) >/dev/null && command -v $(RE2C) >/dev/null || { \
	  echo "tkc needs re2c and bison: run 'make deps' (apt-get install re2c bison)"; exit 1; }

deps:
	@sh tests/deps.sh

$(B)/parser.tab.c $(B)/parser.tab.h: parser/parser.y | check-deps
	@mkdir -p $(B)
	$(BISON) -Wall -Werror=conflicts-sr -Werror=conflicts-rr -d -o $(B)/parser.tab.c $<

$(B)/lexer.c: parser/lexer.re $(B)/parser.tab.h | check-deps
	@mkdir -p $(B)
	$(RE2C) -W --no-generation-date -o $@ $<

# The C target's runtime prelude travels inside every header: embed it.
$(B)/c_prelude.inc: targets/c/prelude.h targets/c/vmath.h tests/embed.sh
	@mkdir -p $(B)
	cat targets/c/prelude.h targets/c/vmath.h > $(B)/c_prelude.txt
	sh tests/embed.sh $(B)/c_prelude.txt > $@

$(B)/obj/targets/c/emit.o $(B)/obj/targets/target.o: $(B)/c_prelude.inc

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/obj/lexer.o: $(B)/lexer.c $(B)/parser.tab.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Iparser -c -o $@ $<

$(B)/obj/parser.tab.o: $(B)/parser.tab.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Iparser -Wno-missing-prototypes -c -o $@ $<

$(patsubst %.c,$(B)/obj/%.o,$(wildcard parser/*.c)): $(B)/parser.tab.h

$(B)/tkc: $(OBJS)
	$(CC) $(ALL_CFLAGS) -o $@ $(OBJS) $(LDLIBS)

test: deps $(B)/tkc
	@sh tests/run.sh

demo: deps $(B)/tkc
	@$(MAKE) -s -C examples demo TKC=../$(B)/tkc

bench: deps $(B)/tkc
	@sh tests/bench/run.sh

test-gpu: $(B)/tkc
	@sh tests/gpu/run.sh

bench-gpu: $(B)/tkc
	@sh tests/gpu/bench.sh

asan:
	$(MAKE) B=build/asan CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" \
	  LDLIBS="-lm -ldl -fsanitize=address,undefined" build/asan/tkc
	TKC=build/asan/tkc sh tests/run.sh

install: $(B)/tkc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/tkc/stdlib
	install -m 755 $(B)/tkc $(DESTDIR)$(PREFIX)/bin/tkc
	install -m 644 stdlib/*.tk $(DESTDIR)$(PREFIX)/share/tkc/stdlib/

clean:
	rm -rf build

-include $(OBJS:.o=.d)
