/* headroom — the man page headroom(1) and the bash and zsh completions, generated from the
 * command table and the option tables (the same ones --help is made from), so that they can
 * never miss an option. `headroom --man` and `headroom --completion bash|zsh` print them;
 * the build writes them for the packages (docs/packaging.md). */
#ifndef HR_CLI_DOCGEN_H
#define HR_CLI_DOCGEN_H

#include "core/base/buf.h"

/* roff (man(7)), in the language of messages (--lang zh: Chinese), appended to b. */
void hr_docgen_man(hr_buf *b);
/* "bash" or "zsh", appended to b; 0, or -1 for another shell name. */
int hr_docgen_completion(const char *shell, hr_buf *b);

#endif
