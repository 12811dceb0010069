// SPDX-License-Identifier: GPL-2.0
/*
 * The events written out of line: the reserve of every hyp_trace() event
 * (trace.h), and a traced call's hyp_enter and hyp_exit where they are not
 * written together (trace.h says when). Once in the image: inline, each
 * file that traces built its own copy of rb_reserve() (GCC folds identical
 * functions, but these differed in their registers), and the hot files
 * inlined it whole at each site: 2.4 KiB of text, most of a page of the
 * image. A call and a return are what such an event pays (bench rows 3j,
 * 3k, 3m: about 10 instructions more an event than inline).
 */
#include "trace.h"

/* The waiting hyp_enter of this CPU's traced call, @word its payload */
void hyp_trace_call_enter_write(struct hyp_cpu *cpu, u64 word)
{
	WRITE_ONCE(cpu->call_enter_word, 0);
	hyp_trace_words(cpu, sizeof(struct hyp_event_hyp_enter),
			cpu->call_enter_ts, word, 0);
}

/* The same, if one waits */
void hyp_trace_call_flush(struct hyp_cpu *cpu)
{
	u64 word = READ_ONCE(cpu->call_enter_word);

	if (word)
		hyp_trace_call_enter_write(cpu, word);
}

/* Out of line even where LTO could inline it: once in the image */
noinline void *hyp_trace_reserve(struct hyp_cpu *cpu, u32 len)
{
	u64 word = READ_ONCE(cpu->call_enter_word);

	/* Written first, so that the buffer keeps the order of events */
	if (__builtin_expect(word != 0, 0))
		hyp_trace_call_enter_write(cpu, word);
	return rb_reserve(&cpu->trace_rb, len, hyp_clock_ns_on(cpu));
}

noinline void hyp_trace_commit(struct hyp_cpu *cpu)
{
	rb_commit(&cpu->trace_rb);
}

void hyp_trace_words(struct hyp_cpu *cpu, u32 len, u64 ts, u64 w0, u64 w1)
{
	rb_word_t *payload = rb_reserve(&cpu->trace_rb, len, ts);

	if (!payload)
		return;
	payload[0] = w0;
	if (len > 8)
		payload[1] = w1;
	hyp_trace_commit(cpu);
}

/*
 * A call's hyp_enter (@enter_word at @enter_ts) and hyp_exit (@ret at @ts)
 * one at a time: together they did not fit the page, or needed a time
 * extend (rb_write_pair()). hyp_exit's word is hyp_enter's + 1 (trace.h).
 */
void hyp_trace_call_exit_slow(struct hyp_cpu *cpu, u64 enter_ts,
			      u64 enter_word, u64 ts, u64 ret)
{
	hyp_trace_words(cpu, sizeof(struct hyp_event_hyp_enter), enter_ts,
			enter_word, 0);
	hyp_trace_words(cpu, sizeof(struct hyp_event_hyp_exit), ts,
			enter_word + 1, ret);
}
