// SPDX-License-Identifier: GPL-2.0
/*
 * The hypervisor's log (HYPTRACE_CALL_HYP_LOG, ABI 1.7): what it printed,
 * console or not. At load, into dmesg once, a line each ("hyptrace: hyp:
 * ..."), and the previous boot's, if that one ended in a hypervisor panic
 * and the reset kept RAM; then whole, as it is at the time of reading, in
 * hyp_log (and hyp_log_last_boot) beside the trace files.
 *
 * Called before the rest of the load, which may fail: a board whose
 * hypervisor printed why on a UART nobody sees says it here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/string.h>

#include "hyptrace.h"

/* Far above the hypervisor's ring: a larger answer is not one of ours */
#define HYP_LOG_MAX		SZ_64K
/* Every line the hypervisor prints starts so; dmesg has its own prefix */
#define HYP_LINE_PREFIX		"hyptrace: "

static bool hyp_log_present;	/* ABI 1.7 */
static bool hyp_log_last_present;

/*
 * The log @which as it is now, into a new buffer (*@len bytes, kfree()
 * it). -ENODEV if there is no such log.
 */
static char *hyp_log_read(unsigned long which, size_t *len)
{
	struct arm_smccc_res res;
	u64 pos, end, start;
	size_t n = 0;
	char *text;
	int ret;

	ret = hyptrace_call(HYPTRACE_CALL_HYP_LOG, which, 0, 0, 0, &res,
			    HYPTRACE_QUIET(HYPTRACE_RET_NOT_LOADED));
	if (ret)
		return ERR_PTR(ret);
	start = res.a1;
	end = res.a2;
	if (start > end || end - start > HYP_LOG_MAX) {
		pr_err("HYP_LOG: bytes %llu..%llu: not a log this module can show\n",
		       start, end);
		return ERR_PTR(-EPROTO);
	}
	text = kmalloc(end - start + 1, GFP_KERNEL);
	if (!text)
		return ERR_PTR(-ENOMEM);
	/* The end as it was at the first call: what is written later waits */
	for (pos = start; pos < end; ) {
		unsigned int i;

		ret = hyptrace_call(HYPTRACE_CALL_HYP_LOG, which, pos, 0, 0,
				    &res, 0);
		if (ret) {
			kfree(text);
			return ERR_PTR(ret);
		}
		/* The ring may have moved on past @pos: the rest from there */
		if (res.a1 < pos || res.a1 >= end)
			break;
		pos = res.a1;
		for (i = 0; i < 8 && pos < end; i++, pos++)
			text[n++] = (char)(res.a3 >> (8 * i));
	}
	text[n] = '\0';
	*len = n;
	return text;
}

/* @text's lines into dmesg, each after @prefix, as printable ASCII */
static void hyp_log_print(char *text, size_t len, const char *prefix)
{
	char *line = text, *end = text + len, *nl;
	size_t i;

	for (i = 0; i < len; i++)
		if (text[i] != '\n' && !isprint(text[i]))
			text[i] = '?';
	while (line < end) {
		nl = memchr(line, '\n', end - line) ?: end;
		*nl = '\0';
		if (str_has_prefix(line, HYP_LINE_PREFIX))
			line += strlen(HYP_LINE_PREFIX);
		pr_info("%s%s\n", prefix, line);
		line = nl + 1;
	}
}

static void hyp_log_dmesg(unsigned long which, const char *what,
			  const char *prefix)
{
	size_t len;
	char *text = hyp_log_read(which, &len);

	if (IS_ERR(text))
		return;
	pr_info("%s, %zu bytes:\n", what, len);
	hyp_log_print(text, len, prefix);
	kfree(text);
	if (which == HYPTRACE_HYP_LOG_LAST_BOOT)
		hyp_log_last_present = true;
}

void hyptrace_hyp_log_init(const struct hyptrace *ht)
{
	if (ht->abi_minor < 7)
		return;
	hyp_log_present = true;
	hyp_log_dmesg(HYPTRACE_HYP_LOG_LAST_BOOT,
		      "previous boot's hypervisor log (it ended in a hypervisor panic)",
		      "hyp (previous boot): ");
	hyp_log_dmesg(HYPTRACE_HYP_LOG_THIS_BOOT, "hypervisor log", "hyp: ");
}

static int hyp_log_show(struct seq_file *m, void *v)
{
	size_t len;
	char *text = hyp_log_read((unsigned long)m->private, &len);

	if (IS_ERR(text))
		return PTR_ERR(text);
	seq_write(m, text, len);
	kfree(text);
	return 0;
}

static int hyp_log_open(struct inode *inode, struct file *file)
{
	return single_open(file, hyp_log_show, inode->i_private);
}

const struct file_operations hyptrace_hyp_log_fops = {
	.open		= hyp_log_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* Whether the front end should offer the file for log @which */
bool hyptrace_hyp_log_has(unsigned long which)
{
	return which == HYPTRACE_HYP_LOG_LAST_BOOT ? hyp_log_last_present :
						     hyp_log_present;
}
