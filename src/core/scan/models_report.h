/* headroom — the `models` report: every model file found, what it is and its exact bytes,
 * grouped by folder with totals (docs/models.md). Built by the CLI from what the platform
 * read, rendered here. */
#ifndef HR_SCAN_MODELS_REPORT_H
#define HR_SCAN_MODELS_REPORT_H

#include "core/base/render.h"
#include "core/scan/model_scan.h"

#define HR_MODELS_SCHEMA "headroom.models/1"

typedef struct hr_models_entry {
    char path[1024]; /* as found (UTF-8) */
    char folder[64]; /* the model folder it is in ("checkpoints"), "" if none */
    hr_model_info info;
    int error;        /* 0, or the HR_E* code of a file that could not be read */
    hr_msg error_msg; /* why, one line naming the file */
} hr_models_entry;

/* How the folder walk went: the links it would not follow (to "/" or a folder above:
 * they would walk the whole disk) and, when a limit ended it, where. */
#define HR_MODELS_LINKS_MAX 16
typedef struct hr_models_walk {
    char links[HR_MODELS_LINKS_MAX][1024]; /* the first links not followed */
    size_t n_links;                        /* all of them */
    char stopped_in[1024];                 /* the folder being listed when it stopped, "" */
    const char *stop_reason;               /* "files" or "entries"; NULL: walked to the end */
    uint64_t file_limit;                   /* the most files one walk looks at */
} hr_models_walk;

typedef struct hr_models_report {
    char root[1024];    /* the ComfyUI folder, "" when only paths were given */
    char found_how[32]; /* how it was found when not given ("current folder"), "" */
    hr_models_entry *v;
    size_t n, cap;
    size_t errors;
    hr_models_walk walk;
} hr_models_report;

void hr_models_report_init(hr_models_report *r);
void hr_models_report_free(hr_models_report *r);
/* A new entry (zeroed, info initialised); NULL when out of memory. */
hr_models_entry *hr_models_report_add(hr_models_report *r);
/* A link the walk did not follow because it leads up (kept for the report). */
void hr_models_link_refused(hr_models_report *r, const char *link);
/* Sort by folder, then path. */
void hr_models_report_sort(hr_models_report *r);

/* The model folder a path is in: the name of the component after ".../models/" when
 * there is one, else the name of its parent folder. */
void hr_models_folder_of(const char *path, char *out, size_t n);

void hr_models_render(const hr_models_report *r, hr_render *rd);

/* Keep why a file could not be read: the reader's message when it left one, else err's
 * text as it is. */
void hr_models_entry_failed(hr_models_entry *e, int code, const hr_error *err);
/* That reason in lang, cut as an error message is. */
void hr_models_error_text(const hr_models_entry *e, hr_lang lang, char out[HR_ERROR_MSG_MAX]);

/* JSON of one model file (the `files[]` element; `workflow` reuses it). */
void hr_model_info_json(const hr_model_info *m, hr_json_writer *w);

#endif
