#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t-circles.sh: scripts/check-circles.py, the check that no file of the
# tool calls back into a file that calls it, on small objects made here:
# a chain a -> b -> c passes; a -> b -> c -> a fails with the circle and
# the symbol of each step named; --info prints it but exits 0; a weak
# reference is a use, not a definition; the objects in an archive count
# as files; and the tool itself (its native build's objects) has none.
# Then scripts/check-circles.sh on a copy of host-driver/, which it builds
# itself: the tree's passes; a circle planted in two files that only the
# module without trace_remote builds fails it, named; with the circle's
# sources taken out again it passes, its objects left in the build
# directory notwithstanding.
#
# Run by run_tests.sh (BUILD, HYPTRACE set). Reports in KTAP
# (tests/include/ktap.sh).

. "$(dirname "$0")/lib.sh"

CIRCLES="python3 $TOP/scripts/check-circles.py"

# obj NAME SOURCE: $T/NAME.o from the C text SOURCE
obj() {
	printf '%s\n' "$2" >"$T/$1.c"
	cc -c -o "$T/$1.o" "$T/$1.c" 2>"$T/cc.log" ||
		die "cc $1.c: $(head -n 1 "$T/cc.log")"
}

# circles WANT_RC WHAT OPTIONS_AND_OBJECTS...: check-circles exits WANT_RC
circles() {
	want=$1 what=$2
	shift 2
	$CIRCLES --strip "$T/" "$@" >"$T/out" 2>&1
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		ok "$what: exit $rc"
	else
		bad "$what: exit $rc, not $want: $(tail -n 3 "$T/out")"
	fi
}

obj a 'int b(void); int a(void) { return b(); }'
obj b 'int c(void); int b(void) { return c(); }'
obj c 'int c(void) { return 1; }'
obj c_back 'int a(void); int c(void) { return a(); }'
obj c_weak 'int a(void) __attribute__((weak)); int c(void) { return a ? a() : 0; }'

circles 0 "a chain" "$T/a.o" "$T/b.o" "$T/c.o"
grep -q '3 files, 0 circle' "$T/out" && ok "a chain: 3 files, 0 circles said" ||
	bad "a chain: $(tail -n 1 "$T/out")"

circles 1 "a circle" "$T/a.o" "$T/b.o" "$T/c_back.o"
if grep -q '^circle of 3 files: a.o b.o c_back.o$' "$T/out" &&
   grep -q '^  a.o -> b.o: b$' "$T/out" &&
   grep -q '^  b.o -> c_back.o: c$' "$T/out" &&
   grep -q '^  c_back.o -> a.o: a$' "$T/out"; then
	ok "a circle: its files and each step's symbol named"
else
	bad "a circle: $(cat "$T/out")"
fi

circles 0 "--info" --info "$T/a.o" "$T/b.o" "$T/c_back.o"
grep -q '1 circle(s) (information only)' "$T/out" &&
	ok "--info: the circle said" || bad "--info: $(tail -n 1 "$T/out")"

circles 1 "a weak reference" "$T/a.o" "$T/b.o" "$T/c_weak.o"

ar rcs "$T/abc.a" "$T/b.o" "$T/c_back.o" || die "ar failed"
circles 1 "an archive's members" "$T/a.o" "$T/abc.a"
grep -q '^circle of 3 files: a.o b.o c_back.o$' "$T/out" &&
	ok "an archive: its members named" || bad "an archive: $(cat "$T/out")"

circles 2 "no objects" "$T/nothing-here"

# The tool's own objects, as its Makefile lists them (where make -C
# tests/tools builds the tool: nothing to build again)
make -s --no-print-directory -C "$TOP/tools/hyptrace" \
	BUILD="$BUILD/hyptrace" check-circles >"$T/tool" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && grep -q 'tools/hyptrace: .* 0 circle' "$T/tool"; then
	ok "tools/hyptrace: $(tail -n 1 "$T/tool")"
else
	bad "tools/hyptrace: exit $rc: $(head -n 5 "$T/tool")"
fi

# scripts/check-circles.sh builds what it checks, from the sources of the
# tree it is in, in BUILD/check-circles/: here a copy of the tree's
# host-driver/ against the guest kernel (make kernel's), its fallback part
# only (the trace_remote one is built the same way). The build kept from
# the tree's own check, if there is one, is copied first: then only what
# the test changes is compiled.
KB=${HYPTRACE_BUILD:-$TOP/build}
tree=$T/tree
if [ ! -f "$KB/kernel.env" ]; then
	bad "check-circles.sh: no guest kernel in $KB (make kernel)"
	finish
fi
mkdir -p "$tree/host-driver" "$tree/scripts" "$T/build" &&
	cp -p "$TOP"/host-driver/*.[ch] "$TOP/host-driver/Kbuild" \
		"$TOP/host-driver/Makefile" "$tree/host-driver/" &&
	cp -pr "$TOP/shared" "$tree/" &&
	cp -p "$TOP"/scripts/check-circles.* "$TOP/scripts/build-host-driver.sh" \
		"$TOP/scripts/lib.sh" "$tree/scripts/" &&
	cp "$KB/kernel.env" "$T/build/" || die "cannot copy the tree to $tree"
if [ -d "$KB/check-circles/host-driver-fallback" ]; then
	mkdir -p "$T/build/check-circles" &&
		cp -pr "$KB/check-circles/host-driver-fallback" "$T/build/check-circles/" ||
		die "cannot copy $KB/check-circles"
fi

# check_sh WANT_RC WHAT: the copy's check-circles.sh, fallback part, exits
# WANT_RC
check_sh() {
	sh "$tree/scripts/check-circles.sh" "$T/build" host-driver-fallback \
		>"$T/out" 2>&1
	rc=$?
	if [ "$rc" -eq "$1" ]; then
		ok "check-circles.sh, $2: exit $rc"
	else
		bad "check-circles.sh, $2: exit $rc, not $1: $(tail -n 4 "$T/out")"
	fi
}

check_sh 0 "the tree's host-driver/ without trace_remote"

# Two files that call each other, built only without trace_remote
cat >"$tree/host-driver/circle_a.c" <<'EOF2'
// SPDX-License-Identifier: GPL-2.0
int circle_b(int n);
int circle_a(int n);
int circle_a(int n) { return n ? circle_b(n - 1) : 0; }
EOF2
sed 's/a(/x(/g; s/b(/a(/g; s/x(/b(/g' "$tree/host-driver/circle_a.c" \
	>"$tree/host-driver/circle_b.c"
sed -i 's/^else$/else\nhyptrace-y += circle_a.o circle_b.o/' \
	"$tree/host-driver/Kbuild"
grep -q '^hyptrace-y += circle_a.o circle_b.o$' "$tree/host-driver/Kbuild" ||
	die "Kbuild has no else branch to plant the circle in"
check_sh 1 "a circle planted in files only the fallback builds"
grep -q '^circle of 2 files: circle_a.o circle_b.o$' "$T/out" &&
	ok "the planted circle named" || bad "planted circle: $(cat "$T/out")"

# Taken out of the sources, it is gone from the answer, though its
# objects are still in the build directory
rm "$tree/host-driver/circle_a.c" "$tree/host-driver/circle_b.c"
sed -i '/^hyptrace-y += circle_a.o circle_b.o$/d' "$tree/host-driver/Kbuild"
check_sh 0 "the circle's sources gone, its objects left"

finish
