/* headroom — one model file, read from its header: format, exact bytes, parameters, bytes by
 * dtype, what it is (kind, architecture, components). The readers never read the weights and
 * never unpickle: a legacy .ckpt/.pt/.pth/.bin gives its size and, for a zip archive, what
 * its central directory says (the estimate is coarser: `coarse`).
 *
 * The reading itself is the platform's (hr_platform_read_head / _tail); this header gives
 * the two callbacks it needs: how many bytes of the head to read, and the parser. */
#ifndef HR_SCAN_MODEL_SCAN_H
#define HR_SCAN_MODEL_SCAN_H

#include "core/base/error.h"
#include "core/base/msg.h"
#include "core/scan/tensors.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum hr_model_format {
    HR_MODEL_FMT_UNKNOWN = 0,
    HR_MODEL_FMT_SAFETENSORS,
    HR_MODEL_FMT_GGUF,
    HR_MODEL_FMT_TORCH_ZIP, /* torch.save zip archive (.ckpt/.pt/.pth/.bin) */
    HR_MODEL_FMT_PICKLE     /* a bare pickle stream: never executed, size only */
} hr_model_format;

const char *hr_model_format_name(hr_model_format f); /* "safetensors", "gguf", ... */

#define HR_MODEL_MAX_DTYPES     24
#define HR_MODEL_MAX_COMPONENTS 6

typedef struct hr_dtype_total {
    char name[HR_DTYPE_NAME_MAX];
    bool known;
    uint64_t bytes, params, tensors;
} hr_dtype_total;

/* Texts are kept as messages and formatted where shown (text: the user's language; JSON:
 * English), at most this many bytes as before. */
#define HR_MODEL_ARCH_MAX      48
#define HR_MODEL_COMP_ARCH_MAX 40
#define HR_MODEL_NOTE_MAX      160

typedef struct hr_model_component {
    char name[24]; /* "diffusion_model", "text_encoder", "vae", "other" */
    hr_msg arch;   /* its own architecture where known ("CLIP-L"); unset: none */
    uint64_t bytes, params;
} hr_model_component;

/* Safetensors headers: 16 MiB at most. The reference loader allows 100 MB, but a real
 * header is a few hundred kB (a single-file checkpoint) to a few MB (an LLM shard); a
 * larger one is hostile, and its tensor table alone would cost several times its size. */
#define HR_ST_MAX_HEADER   ((uint64_t)16 << 20)
/* GGUF: metadata + tensor infos, at most this many bytes. */
#define HR_GGUF_MAX_HEADER ((size_t)128 << 20)
/* Zip central directory: at most this many bytes read from the end. */
#define HR_ZIP_MAX_TAIL    ((size_t)16 << 20)

typedef struct hr_model_info {
    hr_model_format format;
    uint64_t file_bytes;
    uint64_t tensor_bytes; /* sum of the tensors' bytes (legacy zip: of data/ entries) */
    uint64_t params;       /* elements; 0 when unknown (legacy) */
    size_t tensors;
    bool coarse; /* legacy file: no tensor table, sizes from the archive */
    hr_dtype_total dtypes[HR_MODEL_MAX_DTYPES];
    size_t n_dtypes;
    hr_model_component comps[HR_MODEL_MAX_COMPONENTS];
    size_t n_comps;
    char kind[24];                /* checkpoint, diffusion_model, text_encoder, vae, lora,
                                      controlnet, clip_vision, upscale_model, unknown */
    char arch[HR_MODEL_ARCH_MAX]; /* in English: "SDXL", "FLUX.1 dev", "unknown architecture" (words
                                     the estimate matches) */
    hr_msg arch_msg;              /* the same, to be shown in a language */
    unsigned lora_rank;           /* LoRA: the largest rank */
    unsigned upscale;             /* upscaler: its factor (4 for 4x) */
    size_t metadata_keys;         /* safetensors __metadata__ / GGUF key-values */
    char gguf_arch[32];           /* GGUF general.architecture */
    uint32_t gguf_version;
    hr_msg note;    /* a remark on the reading (gaps, unknown dtypes); unset: none */
    hr_msg problem; /* why the header could not be read (set with the parser's error) */
} hr_model_info;

void hr_model_info_init(hr_model_info *m);
/* Set the architecture: arch_msg, and arch in English. */
void hr_model_set_arch(hr_model_info *m, const hr_msg *a);
/* The architecture / a component's / the note in lang, cut as the fields were ("" if none). */
void hr_model_arch_text(const hr_model_info *m, hr_lang lang, char out[HR_MODEL_ARCH_MAX]);
void hr_model_comp_arch_text(const hr_model_component *c, hr_lang lang, char out[HR_MODEL_COMP_ARCH_MAX]);
void hr_model_note_text(const hr_model_info *m, hr_lang lang, char out[HR_MODEL_NOTE_MAX]);
/* A reader's failure: m->problem keeps the message (fmt an English msgid), err gets it in the
 * user's language (for stderr). Returns code. */
int hr_model_fail(hr_model_info *m, hr_error *err, int code, const char *fmt, ...) HR_PRINTF(4, 5);
/* A reading problem in lang, on one line as an hr_error's message is (a name quoted from a
 * hostile header may hold line breaks). */
void hr_model_problem_text(const hr_msg *why, hr_lang lang, char *out, size_t cap);
/* The same for a message already kept in m->problem. */
int hr_model_failed(const hr_model_info *m, hr_error *err, int code);
/* Why a model could not be read, into out: the problem the reader or the platform's read kept
 * (m->problem), else the error's words as they were written, else the code's. */
void hr_model_problem_of(hr_msg *out, const hr_model_info *info, int code, const hr_error *err);

/* hr_head_need_fn for any model file: 8 bytes first, then what the format found needs
 * (safetensors: the whole header; GGUF: up to its tensor table; others: nothing more). */
size_t hr_model_head_need(const unsigned char *head, size_t have, uint64_t file_size, void *ctx);
/* Does the format found in the first bytes want the file's tail (a zip directory)? */
bool hr_model_wants_tail(const unsigned char *head, size_t have);

/* Parse the head read with hr_model_head_need. name is for messages and decides nothing but
 * the legacy fallback (a pickle by extension). tensors (may be NULL) receives the tensor
 * table. Errors name the file and what is wrong. */
int hr_model_parse_head(const char *name, const unsigned char *head, size_t have, uint64_t file_size, hr_model_info *m,
                        hr_tensor_set *tensors, hr_error *err);
/* For a zip archive: the last bytes of the file (at most HR_ZIP_MAX_TAIL). */
int hr_model_parse_tail(const char *name, const unsigned char *tail, size_t have, uint64_t file_size, hr_model_info *m,
                        size_t *need, hr_error *err);
#define HR_ZIP_FIRST_TAIL ((size_t)65536 + 22)

/* Summarise a tensor table into m: bytes and params by dtype, kind, architecture,
 * components (classify.c). folder_hint (e.g. "loras", "upscale_models", may be NULL) is
 * used only when the tensors say nothing (legacy files). */
void hr_model_classify(const hr_tensor_set *t, const char *file_name, const char *folder_hint, hr_model_info *m);

/* The readers (safetensors.c, gguf.c, zipdir.c). */
int hr_safetensors_parse(const char *name, const unsigned char *buf, size_t len, uint64_t file_size, hr_tensor_set *t,
                         hr_model_info *m, hr_error *err);
/* GGUF: returns 0 and *need = 0 when the head held everything; 0 and *need > len when more
 * is needed (a partial parse, nothing kept); an error when the file lies. */
int hr_gguf_parse(const char *name, const unsigned char *buf, size_t len, uint64_t file_size, hr_tensor_set *t,
                  hr_model_info *m, size_t *need, hr_error *err);
/* The GGML type: elements per block and bytes per block; false if unknown. */
bool hr_ggml_type(uint32_t type, const char **name, uint32_t *block_elems, uint32_t *block_bytes);
/* A zip archive's end (tail = the file's last len bytes): its central directory. As GGUF:
 * *need > len asks for a longer tail. */
int hr_zip_parse_tail(const char *name, const unsigned char *tail, size_t len, uint64_t file_size, hr_model_info *m,
                      size_t *need, hr_error *err);

#endif
