// SPDX-License-Identifier: GPL-2.0
/*
 * The last boot's buffer without trace_remote: /sys/kernel/debug/hyptrace/
 * last_boot/, the remote's files (last_boot_remote.c), read-only:
 *
 *   tracing_on		reads 0; writing 1 fails with EROFS
 *   trace, per_cpu/cpuN/trace
 *			the kept events not yet consumed, by time, as
 *			trace_remote prints them; a write changes nothing
 *   trace_pipe, per_cpu/cpuN/trace_pipe
 *			the same, consumed: one place per CPU that every
 *			trace_pipe shares, handed on page by page with
 *			TRACE_LAST_BOOT SWAP; at the end, end of file (no
 *			writer will bring more)
 *   events/		header_page, header_event, hypervisor/EVENT/{id,format}
 *   per_cpu/cpuN/trace_pipe_raw, per_cpu/cpuN/stats, release, trace_clock
 *
 * All of them are the live buffer's readers (fallback_text.h, raw.c) over
 * the last boot's source (last_boot.c), which copies each page up to the
 * commit it checked at load, never to what the shared page says now: no
 * writer runs, but the pages are shared with all of EL1, so a record
 * damaged since is reported and the page cut there.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/kstrtox.h>

#include "hyptrace.h"
#include "fallback.h"
#include "last_boot.h"
#include "source.h"

static ssize_t lbf_tracing_on_read(struct file *file, char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(ubuf, count, ppos, "0\n", 2);
}

static ssize_t lbf_tracing_on_write(struct file *file,
				    const char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, count, 10, &val);
	if (ret)
		return ret;
	if (!val)
		return count;
	pr_info_ratelimited("last boot: read-only, tracing_on stays 0\n");
	return -EROFS;
}

static const struct file_operations lbf_tracing_on_fops = {
	.owner		= THIS_MODULE,
	.read		= lbf_tracing_on_read,
	.write		= lbf_tracing_on_write,
};

/* The front end's show_last_boot: last_boot/ beside the live files */
int fb_show_last_boot(struct hyptrace_source *src)
{
	struct dentry *top, *root;
	int ret;

	ret = fb_read_init(src, NULL, NULL);
	top = debugfs_lookup(FB_DIR, NULL);
	if (ret || IS_ERR_OR_NULL(top)) {
		pr_err("last boot: not shown: %s\n", ret ? "no memory" :
		       "no " FB_DIR " in debugfs");
		if (!IS_ERR_OR_NULL(top))
			dput(top);
		return ret ? ret : -ENOENT;
	}
	root = debugfs_create_dir("last_boot", top);
	dput(top);
	if (IS_ERR(root)) {
		pr_err("cannot create %s/last_boot in debugfs (%ld)\n", FB_DIR,
		       PTR_ERR(root));
		return PTR_ERR(root);
	}
	fb_file("tracing_on", 0640, root, NULL, &lbf_tracing_on_fops);
	fb_file("release", 0640, root, NULL, &hyptrace_lb_release_fops);
	ret = fb_source_files(hyptrace_last_boot(src)->ht->fe, src, root);
	if (!ret)
		ret = fb_events_create_ro(root);
	if (ret) {
		debugfs_remove_recursive(root);
		pr_err("cannot create the files under %s/last_boot in debugfs (%d)\n",
		       FB_DIR, ret);
		return ret;
	}
	pr_info("last boot: /sys/kernel/debug/%s/last_boot\n", FB_DIR);
	return 0;
}
