/* headroom — what a model file holds, read from its header only: the tensors (name, dtype,
 * shape, bytes), and the summary headroom reports (bytes by dtype, components, kind and
 * architecture). Filled by the readers (safetensors.h, gguf.h, zipdir.h), summarised by
 * classify.h. Plain data; one allocation set per file, freed with hr_tensor_set_free. */
#ifndef HR_SCAN_TENSORS_H
#define HR_SCAN_TENSORS_H

#include "core/base/buf.h"
#include "core/base/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HR_TENSOR_MAX_DIMS  8
#define HR_TENSOR_MAX_COUNT ((size_t)1 << 20) /* tensors in one file */
#define HR_DTYPE_NAME_MAX   16

typedef struct hr_tensor {
    size_t name_off;               /* into the set's arena; see hr_tensor_name() */
    char dtype[HR_DTYPE_NAME_MAX]; /* as the file names it: "BF16", "F8_E4M3", "Q4_K" */
    bool dtype_known;              /* false: a dtype this version does not know (bytes are
                                        still exact: from the offsets) */
    unsigned ndim;
    uint64_t shape[HR_TENSOR_MAX_DIMS];
    uint64_t numel; /* product of the shape */
    uint64_t begin; /* offset of the data in the file's data section */
    uint64_t bytes;
} hr_tensor;

typedef struct hr_tensor_set {
    hr_tensor *v;
    size_t n, cap;
    hr_buf names; /* NUL-separated names */
} hr_tensor_set;

void hr_tensor_set_init(hr_tensor_set *s);
void hr_tensor_set_free(hr_tensor_set *s);
/* Append a tensor (name copied, n bytes, may hold no NUL); HR_ETOOBIG past the cap. */
/* Room for n tensors in one allocation, when the caller knows the count (no doubling). */
int hr_tensor_reserve(hr_tensor_set *s, size_t n);
int hr_tensor_add(hr_tensor_set *s, const char *name, size_t n, const hr_tensor *t);
const char *hr_tensor_name(const hr_tensor_set *s, const hr_tensor *t);

/* Find a tensor by exact name; NULL if absent. */
const hr_tensor *hr_tensor_find(const hr_tensor_set *s, const char *name);
/* Does any tensor name start with prefix / contain part? */
bool hr_tensor_any_prefix(const hr_tensor_set *s, const char *prefix);
bool hr_tensor_any_contains(const hr_tensor_set *s, const char *part);
/* The first tensor whose name ends with suffix (and starts with prefix, "" = any). */
const hr_tensor *hr_tensor_find_suffix(const hr_tensor_set *s, const char *prefix, const char *suffix);

/* The bits per element of a dtype name of safetensors ("F16" 16, "F4" 4); 0 if unknown. */
unsigned hr_st_dtype_bits(const char *name);

#endif
