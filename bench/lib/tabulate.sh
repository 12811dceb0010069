# shellcheck shell=bash
# shellcheck disable=SC2154 # the globals of bench/run.sh, which sources this
# SPDX-License-Identifier: GPL-2.0
#
# The tabulator of bench/run.sh: it parses the "@bench key=value ..." lines
# of the boots' console logs (and the host-side outputs) into figures,
# keeps the rows, and writes them as one table (Markdown and CSV). Sourced
# by bench/run.sh, whose globals it reads (OUT, the option values, ran).

# The @bench lines of a log, as "kind key=value..." without the marker.
bench_lines() {
	grep -a -o '@bench .*' "$OUT/$1.log" | sed 's/^@bench //; s/\r$//'
}

# field LINE KEY: the value of KEY= in one @bench line.
field() {
	tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p" | head -n 1
}

# best LOG KIND FILTER VALUEKEY: the smallest VALUEKEY among the LOG's
# lines of KIND that contain every key=value of FILTER.
best() {
	local log=$1 kind=$2 filter=$3 key=$4
	bench_lines "$log" | awk -v kind="$kind" -v filter="$filter" -v key="$key" '
		$1 != kind { next }
		{
			n = split(filter, want, " ")
			for (i = 1; i <= n; i++) {
				hit = 0
				for (j = 2; j <= NF; j++)
					if ($j == want[i])
						hit = 1
				if (!hit)
					next
			}
			for (j = 2; j <= NF; j++)
				if (index($j, key "=") == 1) {
					v = substr($j, length(key) + 2) + 0
					if (!seen || v < min)
						min = v
					seen = 1
				}
		}
		END { if (seen) printf "%.1f\n", min; else exit 1 }' ||
		die "no '$kind $filter' result in $OUT/$log.log: the guest program failed there"
}

# calc 'awk expression': one decimal.
calc() {
	awk "BEGIN { printf \"%.1f\n\", $1 }"
}

# A figure for the table: thousands separated, one decimal unless whole.
pretty() {
	awk -v v="$1" 'BEGIN {
		if (v !~ /^-?[0-9]+(\.[0-9]+)?$/) { print v; exit }
		s = v == int(v) ? sprintf("%d", v) : sprintf("%.1f", v)
		n = split(s, p, ".")
		i = p[1]; out = ""
		while (length(i) > 3 && substr(i, length(i) - 3, 1) != "-") {
			out = "," substr(i, length(i) - 2) out
			i = substr(i, 1, length(i) - 3)
		}
		print i out (n > 1 ? "." p[2] : "") }'
}

# drain_line REMOTE KB READER [WRITER [TRANSPORT]]: the drain result line
# (READER pipe|record|agent, WRITER event, the default, or hvc; TRANSPORT
# local, the default, virtio or net: how the reader's pages leave).
drain_line() {
	local line w=${4:-event} t=${5:-local}
	line=$(bench_lines "$drain_log" | awk -v r="$1" -v kb="$2" -v rd="$3" -v w="$w" -v t="$t" \
		'$1 == "drain" && $0 ~ " remote=" r " " && $0 ~ " kb=" kb " " &&
		 $0 ~ " reader=" rd " " && $0 ~ " writer=" w " " &&
		 $0 ~ " transport=" t " "' | tail -n 1)
	[ -n "$line" ] ||
		die "no drain result for $1 at $2 KiB ($3 over $t, $w writer) in $OUT/$drain_log.log"
	echo "$line"
}

# drain_cell REMOTE KB rate|loss [READER [WRITER [TRANSPORT]]]
drain_cell() {
	local line
	line=$(drain_line "$1" "$2" "${4:-pipe}" "${5:-event}" "${6:-local}")
	case $3 in
	rate)
		if [ "$(field "$line" writer_bound)" = 1 ]; then
			echo "≥ $(pretty "$(field "$line" zero_loss_rate)") (writer-bound)"
		elif [ "$(field "$line" loss_writer_bound)" = 1 ]; then
			# Faster, the writer fell behind: its limit, not the reader's
			echo "$(pretty "$(field "$line" zero_loss_rate)") (writer-bound)"
		else
			pretty "$(field "$line" zero_loss_rate)"
		fi ;;
	loss)
		if [ "$(field "$line" loss_rate)" = none ] &&
			[ "$(field "$line" writer_bound)" = 1 ]; then
			# Where the search had to stop
			echo "no loss seen up to $(pretty "$(field "$line" zero_loss_rate)") (writer flat out; $(pretty "$(field "$line" zero_loss_target)") asked)"
		elif [ "$(field "$line" loss_rate)" = none ]; then
			echo "no loss seen"
		elif [ "$(field "$line" loss_writer_bound)" = 1 ]; then
			echo "$(field "$line" loss_pct) % at $(pretty "$(field "$line" loss_rate)") (writer flat out; $(pretty "$(field "$line" loss_target)") asked)"
		else
			echo "$(field "$line" loss_pct) % at $(pretty "$(field "$line" loss_rate)")"
		fi ;;
	esac
}

# Row storage: one CSV line per row, turned into both tables at the end,
# in the order of their ids (1a ... 7c sort as text).
rows=()
row() {
	rows+=("$1|$2|$3|$4|$5")
}
sorted_rows() {
	printf '%s\n' "${rows[@]}" | sort -s -t'|' -k1,1
}

# stream_rows LOG READER TRANSPORT "ID ID ID" WHAT SHORT: the three rows of
# a streaming reader, from LOG's boot: the highest zero-loss rate with the
# write_event writer and with the null-hypercall writer, each beside
# hyptrace record's from the main boot (4e, 4i), and the loss above them.
stream_rows() {
	local log=$1 rd=$2 t=$3 what=$5 short=$6 ids rec_ev=– rec_hvc=–
	read -r -a ids <<<"$4"
	if ran main; then
		rec_ev="hyptrace record (4e): $(drain_log=main; drain_cell hypervisor "$BIG_KB" rate record)"
		rec_hvc="hyptrace record (4i): $(drain_log=main; drain_cell hypervisor "$BIG_KB" rate record hvc)"
	fi
	drain_log=$log
	row "${ids[0]}" "drain via $what, 1 MiB buffer: highest zero-loss rate (events/s per CPU)" \
		"$(drain_cell hypervisor "$BIG_KB" rate "$rd" event "$t")" "–" "$rec_ev"
	row "${ids[1]}" "… the same, null-hypercall writer: highest zero-loss rate (events/s per CPU)" \
		"$(drain_cell hypervisor "$BIG_KB" rate "$rd" hvc "$t")" "–" "$rec_hvc"
	row "${ids[2]}" "… loss above them, $short: write_event writer (${ids[0]}); null-hypercall writer (${ids[1]}) (lost % at events/s)" \
		"$(drain_cell hypervisor "$BIG_KB" loss "$rd" event "$t"); $(drain_cell hypervisor "$BIG_KB" loss "$rd" hvc "$t")" "–" ""
	drain_log=main
}

# cg WHAT: a figure of tests/ringbuf's callgrind benchmark output
cg() {
	awk -v what="$1" 'index($0, what) == 1 { print $NF }' "$OUT/callgrind.txt" |
		head -n 1
}

# tool_cell TOOL: "SECONDS s (CPU s), PEAK MB" of its line in tools.txt
tool_cell() {
	awk -v t="$1" '$1 == t { printf "%.2f s (CPU %.2f s), %.1f MB", $2, $4, $3 / 1024; f = 1 }
		END { exit !f }' "$OUT/tools.txt" || die "no $1 line in $OUT/tools.txt"
}

# proof_cell LOG HOSTILE: "code count, ..." of an hvc_fuzz result line
proof_cell() {
	grep -a -o "hvc_fuzz: result .* hostile=$2 .*" "$1" | tail -n 1 |
		sed 's/\r$//; s/\[ *[0-9.]*\].*//' | tr ' ' '\n' | awk -F= '
		$1 ~ /^(ok|not_supported|invalid|no_memory|busy|not_loaded|again|clock_step|positive|other|skipped|unexpected|clobbered)$/ {
			printf "%s%s %s", sep, $1, $2; sep = ", " }
		$1 == "calls" { calls = $2 }
		END { if (!calls) exit 1 }'
}

# write_tables: the rows as build/bench/results.md and results.csv, with
# the run's conditions above the Markdown table, which is also printed.
write_tables() {
	local kernel="" qemu host_cpu mode=full

	! ran main ||
		kernel=$(bench_lines main | awk '$1 == "info" { sub(/^kernel=/, "", $2); print $2 }' | head -n 1)
	qemu=$(qemu-system-aarch64 --version | head -n 1 | sed 's/^QEMU emulator version //')
	host_cpu=$(LC_ALL=C lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)
	[ "$smoke" = 0 ] || mode="smoke (rough figures)"
	[ "$boots" = "$ALL_BOOTS" ] || mode+="; parts: $boots"
	{
		echo "hyptrace benchmarks: guest Linux ${kernel:-(main not run)}, QEMU $qemu, guest CPU $CPU_MODEL × $NR_CPUS, ${ICOUNT[*]}"
		echo "host CPU ${host_cpu:-unknown}; $iterations iterations, best of $repeat; drain trials of $drain_seconds virtual s; mode: $mode"
		echo
		echo "| # | measurement | hyptrace | kernel test remote | target / reference |"
		echo "| --- | --- | --- | --- | --- |"
		sorted_rows | while IFS='|' read -r id what ours theirs target; do
			echo "| $id | $what | $ours | $theirs | $target |"
		done
	} >"$OUT/results.md"
	{
		echo "row,measurement,hyptrace,test_remote,target"
		sorted_rows | while IFS='|' read -r id what ours theirs target; do
			printf '%s,"%s","%s","%s","%s"\n' "$id" "$what" "$ours" \
				"$theirs" "$target"
		done
	} >"$OUT/results.csv"
	cat "$OUT/results.md"
	echo
	note "written: $OUT/results.md and $OUT/results.csv"
}
