// SPDX-License-Identifier: GPL-2.0
/*
 * events/ of the fallback front end, as trace_remote lays it out:
 *
 *   events/enable		every event: 0, 1, or X when they differ
 *   events/header_page		the data page header, for parsers
 *   events/header_event	the event header, for parsers
 *   events/hypervisor/EVENT/	enable, id, format
 *
 * The format files say what events.c describes, in the kernel's words, so
 * that trace-cmd and libtraceevent read them as they read trace_remote's.
 */
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/stddef.h>
#include <linux/trace_events.h>

#include "hyptrace.h"
#include "hyp_events.h"
#include "fallback.h"

/* Which events the hypervisor writes, and the lock that orders the writes */
static bool fb_enabled[HYP_NR_EVENTS];
static DEFINE_MUTEX(fb_events_lock);

static int fb_enable_event(const struct hyptrace_event *ev, bool enable)
{
	int ret;

	lockdep_assert_held(&fb_events_lock);
	if (fb_enabled[ev->id - 1] == enable)
		return 0;
	ret = hyptrace_call(HYPTRACE_CALL_TRACE_ENABLE_EVENT, ev->id, enable,
			    0, 0, NULL, 0);
	if (!ret)
		fb_enabled[ev->id - 1] = enable;
	return ret;
}

static ssize_t event_enable_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	const struct hyptrace_event *ev = file_inode(file)->i_private;
	char buf[3];

	snprintf(buf, sizeof(buf), "%d\n", READ_ONCE(fb_enabled[ev->id - 1]));
	return simple_read_from_buffer(ubuf, count, ppos, buf, 2);
}

/*
 * A write to an enable file: @ev on or off, or every event (@ev NULL),
 * where the first failure is returned and the others still tried.
 */
static ssize_t enable_write(const struct hyptrace_event *ev,
			    const char __user *ubuf, size_t count)
{
	int ret, first = 0;
	u8 enable;
	size_t i;

	ret = kstrtou8_from_user(ubuf, count, 10, &enable);
	if (ret)
		return ret;
	mutex_lock(&fb_events_lock);
	for (i = 0; i < hyptrace_nr_events; i++) {
		if (ev && ev != &hyptrace_events[i])
			continue;
		ret = fb_enable_event(&hyptrace_events[i], enable);
		if (!first)
			first = ret;
	}
	mutex_unlock(&fb_events_lock);
	return first ? first : count;
}

static ssize_t event_enable_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	return enable_write(file_inode(file)->i_private, ubuf, count);
}

static const struct file_operations event_enable_fops = {
	.read	= event_enable_read,
	.write	= event_enable_write,
};

static int event_id_show(struct seq_file *m, void *v)
{
	const struct hyptrace_event *ev = m->private;

	seq_printf(m, "%d\n", ev->id);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(event_id);

/* The payload follows the u16 id, each field right after the one before */
static int event_format_show(struct seq_file *m, void *v)
{
	const struct hyptrace_event *ev = m->private;
	size_t offset = sizeof(struct hyp_event_hdr);
	const struct trace_event_fields *field;

	seq_printf(m, "name: %s\n", ev->name);
	seq_printf(m, "ID: %d\n", ev->id);
	seq_puts(m, "format:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n");
	for (field = ev->fields; field->name; field++) {
		seq_printf(m, "\tfield:%s %s;\toffset:%zu;\tsize:%u;\tsigned:%d;\n",
			   field->type, field->name, offset, field->size,
			   field->is_signed);
		offset += field->size;
	}
	if (field != ev->fields)
		seq_puts(m, "\n");
	seq_printf(m, "print fmt: %s\n", ev->print_fmt);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(event_format);


/* "0" or "1" when all events agree, "X" when they do not */
static ssize_t all_enable_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char buf[] = "0\n";
	size_t i;

	mutex_lock(&fb_events_lock);
	for (i = 0; i < HYP_NR_EVENTS; i++) {
		char c = fb_enabled[i] ? '1' : '0';

		if (i && c != buf[0]) {
			buf[0] = 'X';
			break;
		}
		buf[0] = c;
	}
	mutex_unlock(&fb_events_lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, 2);
}

static ssize_t all_enable_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	return enable_write(NULL, ubuf, count);
}

static const struct file_operations all_enable_fops = {
	.read	= all_enable_read,
	.write	= all_enable_write,
};

/* struct buffer_data_page, in the words of ring_buffer_print_page_header() */
static int header_page_show(struct seq_file *m, void *v)
{
	seq_printf(m, "\tfield: u64 timestamp;\toffset:0;\tsize:%zu;\tsigned:%d;\n",
		   sizeof(u64), is_signed_type(u64));
	seq_printf(m, "\tfield: local_t commit;\toffset:%zu;\tsize:%zu;\tsigned:%d;\n",
		   offsetof(struct rb_data_page, commit), sizeof(long),
		   is_signed_type(long));
	seq_printf(m, "\tfield: char overwrite;\toffset:%zu;\tsize:1;\tsigned:%d;\n",
		   offsetof(struct rb_data_page, commit), is_signed_type(char));
	seq_printf(m, "\tfield: char data;\toffset:%zu;\tsize:%u;\tsigned:%d;\n",
		   offsetof(struct rb_data_page, data), RB_PAGE_CAPACITY,
		   is_signed_type(char));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(header_page);

/* The compressed event header, as ring_buffer_print_entry_header() says */
static int header_event_show(struct seq_file *m, void *v)
{
	seq_puts(m, "# compressed entry header\n");
	seq_printf(m, "\ttype_len    :    %u bits\n", RB_TYPE_LEN_BITS);
	seq_printf(m, "\ttime_delta  :   %u bits\n", RB_TS_SHIFT);
	seq_puts(m, "\tarray       :   32 bits\n\n");
	seq_printf(m, "\tpadding     : type == %u\n", RB_TYPE_PADDING);
	seq_printf(m, "\ttime_extend : type == %u\n", RB_TYPE_TIME_EXTEND);
	seq_printf(m, "\ttime_stamp : type == %u\n", RB_TYPE_TIME_STAMP);
	seq_printf(m, "\tdata max type_len  == %u\n", RB_TYPE_DATA_MAX);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(header_event);


/*
 * events/ under @root: with @enables the enable files, which turn the
 * hypervisor's events on and off; without, only what readers need (the
 * last boot's, read-only).
 */
static int events_tree(struct dentry *root, bool enables)
{
	struct dentry *events, *system, *dir;
	size_t i;

	events = debugfs_create_dir("events", root);
	if (enables)
		fb_file("enable", 0640, events, NULL, &all_enable_fops);
	fb_file("header_page", 0440, events, NULL, &header_page_fops);
	fb_file("header_event", 0440, events, NULL, &header_event_fops);
	/* One system, named after the remote, as trace_remote makes it */
	system = debugfs_create_dir("hypervisor", events);
	for (i = 0; i < hyptrace_nr_events; i++) {
		/* debugfs only passes the pointer on: the table stays const */
		void *ev = (void *)&hyptrace_events[i];

		dir = debugfs_create_dir(hyptrace_events[i].name, system);
		if (enables)
			fb_file("enable", 0640, dir, ev, &event_enable_fops);
		fb_file("id", 0440, dir, ev, &event_id_fops);
		fb_file("format", 0440, dir, ev, &event_format_fops);
	}
	return IS_ERR(system) ? PTR_ERR(system) : 0;
}

int fb_events_create(struct hyptrace *ht, struct dentry *root)
{
	size_t i;

	/* On from the hypervisor's boot (main.c, disable_events()) */
	for (i = 0; i < hyptrace_nr_events; i++)
		fb_enabled[hyptrace_events[i].id - 1] =
			!!(ht->early_events & BIT_ULL(hyptrace_events[i].id));
	return events_tree(root, true);
}

int fb_events_create_ro(struct dentry *root)
{
	return events_tree(root, false);
}
