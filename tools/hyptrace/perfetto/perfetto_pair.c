// SPDX-License-Identifier: GPL-2.0
/*
 * Which hyp_enter and hyp_exit records of a CPU become Perfetto slices.
 *
 * The rules are those of `hyptrace stats`, applied by the same code
 * (el2_pair_*() in lib/el2stats.c): an exit closes the enter open on its
 * CPU; an enter dropped by another enter, a loss or its exit running
 * backwards never sees its exit; an exit with nothing open closes nothing.
 *
 * Perfetto draws a slice from a typed enter to the next typed exit of the
 * CPU, so an enter that will never see its exit must get one written
 * right after it (a zero-length slice), and an exit that closes nothing
 * must get none, or it would close whatever comes next. Whether an enter
 * is dropped is known only later in the file, hence two passes: the first
 * feeds the pairing and keeps the ordinals of the records that pair with
 * nothing, few in a sound trace; the second writes each record in turn
 * and asks here about it.
 *
 * The enter open on a CPU is always the CPU's last enter: only an enter
 * opens, and the next one replaces it. So its ordinal is nr_enter - 1.
 */
#include <stdlib.h>

#include "perfetto.h"

static int ordlist_push(struct pf_ordlist *l, uint64_t ord)
{
	uint64_t *v;
	size_t cap;

	if (l->nr == l->cap) {
		cap = l->cap ? 2 * l->cap : 16;
		v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->nr++] = ord;
	return 0;
}

/* Whether @ord is the next unpaired one; the lists are in ordinal order. */
static int ordlist_take(struct pf_ordlist *l, uint64_t ord)
{
	if (l->next < l->nr && l->v[l->next] == ord) {
		l->next++;
		return 1;
	}
	return 0;
}

/* The open enter was dropped: note it, by its ordinal. */
static int drop_open(struct pf_pair *pp)
{
	return ordlist_push(&pp->bad_enter, pp->nr_enter - 1);
}

int perfetto_pair_lost(struct pf_pair *pp)
{
	return el2stats_pair_lost(&pp->pairing) ? drop_open(pp) : 0;
}

int perfetto_pair_enter(struct pf_pair *pp, uint64_t ts)
{
	int ret = 0;

	if (el2stats_pair_enter(&pp->pairing, ts))
		ret = drop_open(pp);
	pp->nr_enter++;
	return ret;
}

int perfetto_pair_exit(struct pf_pair *pp, uint64_t ts)
{
	uint64_t ord = pp->nr_exit++, ns;
	int why = el2stats_pair_exit(&pp->pairing, ts, &ns);

	if (why == EL2_EXIT_TIME_BACKWARDS && drop_open(pp))
		return -1;
	if (why >= 0)
		return ordlist_push(&pp->bad_exit, ord);
	return 0;
}

void perfetto_pair_rewind(struct pf_pair *pp)
{
	pp->nr_enter = 0;
	pp->nr_exit = 0;
}

int perfetto_pair_enter_cut(struct pf_pair *pp)
{
	return ordlist_take(&pp->bad_enter, pp->nr_enter++);
}

int perfetto_pair_exit_orphan(struct pf_pair *pp)
{
	return ordlist_take(&pp->bad_exit, pp->nr_exit++);
}

void perfetto_pair_free(struct pf_pair *pp)
{
	free(pp->bad_enter.v);
	free(pp->bad_exit.v);
	pp->bad_enter.v = NULL;
	pp->bad_exit.v = NULL;
}
