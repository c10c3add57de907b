/* headroom — the workflow a workload stands for when only its name is given (plan/check
 * --workload, or none: SDXL), so that a named workload is judged on the same scale as a
 * workflow: by its estimate (S4.1; docs/check.md "The rule"). Each is the common graph of its
 * kind at its usual size, with the models in the catalog. */
#include "core/estimate/estimate.h"

#include "core/base/i18n.h"

#include <string.h>

static const struct {
    const char *workload;
    const char *label;
    const char *json;
} samples[] = {
    { "sd15", HR_N("SD 1.5, 512×512, batch 4, 4× upscale"),
      "{\"4\":{\"class_type\":\"CheckpointLoaderSimple\",\"inputs\":{\"ckpt_name\":\"v1-5-pruned-emaonly.safetensors\"}},"
      "\"5\":{\"class_type\":\"EmptyLatentImage\",\"inputs\":{\"width\":512,\"height\":512,\"batch_size\":4}},"
      "\"6\":{\"class_type\":\"CLIPTextEncode\",\"inputs\":{\"text\":\"a\",\"clip\":[\"4\",1]}},"
      "\"7\":{\"class_type\":\"CLIPTextEncode\",\"inputs\":{\"text\":\"\",\"clip\":[\"4\",1]}},"
      "\"3\":{\"class_type\":\"KSampler\",\"inputs\":{\"seed\":1,\"steps\":20,\"cfg\":8.0,\"sampler_name\":\"euler\","
      "\"scheduler\":\"normal\",\"denoise\":1.0,\"model\":[\"4\",0],\"positive\":[\"6\",0],\"negative\":[\"7\",0],"
      "\"latent_image\":[\"5\",0]}},"
      "\"8\":{\"class_type\":\"VAEDecode\",\"inputs\":{\"samples\":[\"3\",0],\"vae\":[\"4\",2]}},"
      "\"13\":{\"class_type\":\"UpscaleModelLoader\",\"inputs\":{\"model_name\":\"4x-UltraSharp.pth\"}},"
      "\"14\":{\"class_type\":\"ImageUpscaleWithModel\",\"inputs\":{\"upscale_model\":[\"13\",0],\"image\":[\"8\",0]}},"
      "\"9\":{\"class_type\":\"SaveImage\",\"inputs\":{\"filename_prefix\":\"s\",\"images\":[\"14\",0]}}}" },
    { "sdxl", HR_N("SDXL base, 1024×1024"),
      "{\"4\":{\"class_type\":\"CheckpointLoaderSimple\",\"inputs\":{\"ckpt_name\":\"sd_xl_base_1.0.safetensors\"}},"
      "\"5\":{\"class_type\":\"EmptyLatentImage\",\"inputs\":{\"width\":1024,\"height\":1024,\"batch_size\":1}},"
      "\"6\":{\"class_type\":\"CLIPTextEncode\",\"inputs\":{\"text\":\"a\",\"clip\":[\"4\",1]}},"
      "\"7\":{\"class_type\":\"CLIPTextEncode\",\"inputs\":{\"text\":\"\",\"clip\":[\"4\",1]}},"
      "\"3\":{\"class_type\":\"KSampler\",\"inputs\":{\"seed\":1,\"steps\":25,\"cfg\":7.0,\"sampler_name\":\"euler\","
      "\"scheduler\":\"normal\",\"denoise\":1.0,\"model\":[\"4\",0],\"positive\":[\"6\",0],\"negative\":[\"7\",0],"
      "\"latent_image\":[\"5\",0]}},"
      "\"8\":{\"class_type\":\"VAEDecode\",\"inputs\":{\"samples\":[\"3\",0],\"vae\":[\"4\",2]}},"
      "\"9\":{\"class_type\":\"SaveImage\",\"inputs\":{\"filename_prefix\":\"s\",\"images\":[\"8\",0]}}}" },
    { "flux", HR_N("FLUX.1 dev (fp16, T5-XXL fp16), 1024×1024"),
      "{\"12\":{\"class_type\":\"UNETLoader\",\"inputs\":{\"unet_name\":\"flux1-dev.safetensors\",\"weight_dtype\":\"default\"}},"
      "\"11\":{\"class_type\":\"DualCLIPLoader\",\"inputs\":{\"clip_name1\":\"t5xxl_fp16.safetensors\","
      "\"clip_name2\":\"clip_l.safetensors\",\"type\":\"flux\"}},"
      "\"10\":{\"class_type\":\"VAELoader\",\"inputs\":{\"vae_name\":\"ae.safetensors\"}},"
      "\"6\":{\"class_type\":\"CLIPTextEncode\",\"inputs\":{\"text\":\"a\",\"clip\":[\"11\",0]}},"
      "\"27\":{\"class_type\":\"EmptySD3LatentImage\",\"inputs\":{\"width\":1024,\"height\":1024,\"batch_size\":1}},"
      "\"31\":{\"class_type\":\"KSampler\",\"inputs\":{\"seed\":1,\"steps\":20,\"cfg\":1.0,\"sampler_name\":\"euler\","
      "\"scheduler\":\"simple\",\"denoise\":1.0,\"model\":[\"12\",0],\"positive\":[\"6\",0],\"negative\":[\"6\",0],"
      "\"latent_image\":[\"27\",0]}},"
      "\"8\":{\"class_type\":\"VAEDecode\",\"inputs\":{\"samples\":[\"31\",0],\"vae\":[\"10\",0]}},"
      "\"9\":{\"class_type\":\"SaveImage\",\"inputs\":{\"filename_prefix\":\"f\",\"images\":[\"8\",0]}}}" },
    { "video", HR_N("Wan 2.2 image-to-video 14B (fp8), 832×480, 81 frames"),
      "{\"37\":{\"class_type\":\"UNETLoader\",\"inputs\":{\"unet_name\":\"wan2.2_i2v_high_noise_14B_fp8_scaled.safetensors\","
      "\"weight_dtype\":\"default\"}},"
      "\"56\":{\"class_type\":\"UNETLoader\",\"inputs\":{\"unet_name\":\"wan2.2_i2v_low_noise_14B_fp8_scaled.safetensors\","
      "\"weight_dtype\":\"default\"}},"
      "\"38\":{\"class_type\":\"CLIPLoader\",\"inputs\":{\"clip_name\":\"umt5_xxl_fp8_e4m3fn_scaled.safetensors\","
      "\"type\":\"wan\",\"device\":\"default\"}},"
      "\"39\":{\"class_type\":\"VAELoader\",\"inputs\":{\"vae_name\":\"wan_2.1_vae.safetensors\"}},"
      "\"62\":{\"class_type\":\"LoadImage\",\"inputs\":{\"image\":\"start.png\"}},"
      "\"6\":{\"class_type\":\"CLIPTextEncode\",\"inputs\":{\"text\":\"a\",\"clip\":[\"38\",0]}},"
      "\"7\":{\"class_type\":\"CLIPTextEncode\",\"inputs\":{\"text\":\"\",\"clip\":[\"38\",0]}},"
      "\"63\":{\"class_type\":\"WanImageToVideo\",\"inputs\":{\"width\":832,\"height\":480,\"length\":81,\"batch_size\":1,"
      "\"positive\":[\"6\",0],\"negative\":[\"7\",0],\"vae\":[\"39\",0],\"start_image\":[\"62\",0]}},"
      "\"57\":{\"class_type\":\"KSamplerAdvanced\",\"inputs\":{\"add_noise\":\"enable\",\"noise_seed\":1,\"steps\":20,"
      "\"cfg\":3.5,\"sampler_name\":\"euler\",\"scheduler\":\"simple\",\"start_at_step\":0,\"end_at_step\":10,"
      "\"return_with_leftover_noise\":\"enable\",\"model\":[\"37\",0],\"positive\":[\"63\",0],\"negative\":[\"63\",1],"
      "\"latent_image\":[\"63\",2]}},"
      "\"58\":{\"class_type\":\"KSamplerAdvanced\",\"inputs\":{\"add_noise\":\"disable\",\"noise_seed\":1,\"steps\":20,"
      "\"cfg\":3.5,\"sampler_name\":\"euler\",\"scheduler\":\"simple\",\"start_at_step\":10,\"end_at_step\":10000,"
      "\"return_with_leftover_noise\":\"disable\",\"model\":[\"56\",0],\"positive\":[\"63\",0],\"negative\":[\"63\",1],"
      "\"latent_image\":[\"57\",0]}},"
      "\"8\":{\"class_type\":\"VAEDecode\",\"inputs\":{\"samples\":[\"58\",0],\"vae\":[\"39\",0]}},"
      "\"28\":{\"class_type\":\"SaveAnimatedWEBP\",\"inputs\":{\"filename_prefix\":\"w\",\"fps\":16,\"lossless\":false,"
      "\"quality\":90,\"method\":\"default\",\"images\":[\"8\",0]}}}" },
};

const char *hr_est_sample_workflow(const char *workload, const char **label)
{
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        if (workload && strcmp(workload, samples[i].workload) == 0) {
            if (label)
                *label = samples[i].label;
            return samples[i].json;
        }
    return NULL;
}
