/* headroom — read one model file's header through the platform and let the core parse and
 * classify it (models, workflow). The only place the CLI touches model files. */
#ifndef HR_CLI_MODEL_READ_H
#define HR_CLI_MODEL_READ_H

#include "core/scan/comfy_paths.h"
#include "core/scan/model_scan.h"

#include <stdbool.h>

/* Fill m from path (folder_hint: the model folder it sits in, for legacy files). Returns
 * 0, or an HR_E* code with err naming the file. */
int hr_cli_read_model(const char *path, const char *folder_hint, hr_model_info *m, hr_error *err);

/* Is this a model file by its extension (ComfyUI's list, plus .gguf)? */
bool hr_cli_is_model_name(const char *path);

/* Read an extra_model_paths.yaml into cp (ComfyUI's subset; errors name the line). */
int hr_cli_read_extra_paths(const char *path, hr_comfy_paths *cp, hr_error *err);

#endif
