/* headroom — prose laid out for a terminal in either language: wrapped by display width and
 * joined after a label. The one home of line breaking: every renderer that folds a paragraph
 * calls hr_wrap(). */
#ifndef HR_WRAP_H
#define HR_WRAP_H

#include "core/base/buf.h"

#include <stddef.h>

/* s folded into lines of at most width terminal columns (a Chinese character takes two), each
 * line starting with indent and ending with '\n'. A line breaks at a space, or between two
 * characters when either is Chinese (Chinese has no spaces); never between a number and its
 * unit ("16 GB", "81 帧"), next to "=", after an opening bracket or quote, or before closing
 * punctuation ("，。：；）" may not start a line). A word longer than the line stays whole. */
void hr_wrap(hr_buf *out, const char *indent, const char *s, size_t width);

/* What goes between a label and what follows it: "" when the label ends in a full-width
 * character ("更多：" takes no space after it), " " otherwise ("more: docs/..."). */
const char *hr_label_gap(const char *label);

#endif
