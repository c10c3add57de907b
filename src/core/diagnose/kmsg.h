/* headroom — parsers for the Linux kernel log as the collectors read it.
 *
 *  /dev/kmsg record:        "6,1234,5678901234,-;Memory cgroup out of memory: Killed ..."
 *                           (priority, sequence, microseconds since boot, flags; text), then
 *                           optional " KEY=value" continuation lines, ignored here;
 *  dmesg line:              "[ 5678.901234] text";
 *  journalctl -o short-unix "1714560000.123456 host kernel: text".
 * Pure functions over a bounded buffer; the text is returned as a span into the input. */
#ifndef HR_KMSG_H
#define HR_KMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hr_klog_record {
    int prio; /* syslog priority (0-7) with facility bits, -1 if not given */
    uint64_t seq;
    uint64_t usec;     /* microseconds since boot (kmsg, dmesg), 0 if not known */
    int64_t unix_time; /* seconds since 1970 (journal), 0 if not known */
    const char *text;
    size_t len;
} hr_klog_record;

/* 0 on success, HR_EPARSE when the bytes are not such a record. */
int hr_kmsg_parse(const char *rec, size_t n, hr_klog_record *out);
int hr_dmesg_parse(const char *line, size_t n, hr_klog_record *out);
int hr_journal_parse(const char *line, size_t n, hr_klog_record *out);

#endif
