# watch / run --comfyui and --protect against tests/comfyui/peer.js, a local peer speaking
# ComfyUI's protocol on the ws package (label node: SKIP, exit 77, without node and ws;
# tools/install-deps.sh --tests installs them). comfyui.unreachable needs nothing.
set(HR_COMFY_SH ${CMAKE_CURRENT_SOURCE_DIR}/comfyui/comfyui_cli.sh)
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME comfyui.unreachable COMMAND bash ${HR_COMFY_SH} unreachable ${HR_BIN})
  set_tests_properties(comfyui.unreachable PROPERTIES TIMEOUT 60)
  add_test(NAME comfyui.never COMMAND bash ${HR_COMFY_SH} never ${HR_BIN})
  set_tests_properties(comfyui.never PROPERTIES TIMEOUT 60)
  foreach(mode api browser run)
    add_test(NAME comfyui.${mode} COMMAND bash ${HR_COMFY_SH} ${mode} ${HR_BIN})
    set_tests_properties(comfyui.${mode} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS node)
  endforeach()
  # a hostile or stalled server (peer.js --scenario hostile): each attack is a test
  foreach(mode hostile-history hostile-masked hostile-ping-flood hostile-text-flood
               hostile-cont-flood hostile-slow-queue hostile-never hostile-huge)
    add_test(NAME comfyui.${mode} COMMAND bash ${HR_COMFY_SH} ${mode} ${HR_BIN})
    set_tests_properties(comfyui.${mode} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 90 LABELS node)
  endforeach()
  # Under AddressSanitizer the heap keeps freed blocks (its quarantine) and shadow pages: a
  # resident-memory bound says nothing about the program then, so only the refusal is checked.
  if(HR_SANITIZE)
    set_property(TEST comfyui.hostile-huge APPEND PROPERTY ENVIRONMENT "HR_SANITIZED=1")
  endif()
  # a memory cgroup around the peer (root): --protect's /free, then /interrupt
  add_test(NAME comfyui.root.protect COMMAND bash ${HR_COMFY_SH} protect ${HR_BIN})
  set_tests_properties(comfyui.root.protect PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 90 LABELS node
                                             RESOURCE_LOCK system_swap)
  add_test(NAME comfyui.root.protect-freefail COMMAND bash ${HR_COMFY_SH} protect-freefail ${HR_BIN})
  set_tests_properties(comfyui.root.protect-freefail PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 90
                                                    LABELS node RESOURCE_LOCK system_swap)
  # a tab's prompt climbs towards the child's cgroup limit (root): the estimate's likely node
  add_test(NAME comfyui.root.climb COMMAND bash ${HR_COMFY_SH} climb ${HR_BIN})
  set_tests_properties(comfyui.root.climb PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 90 LABELS node
                                           RESOURCE_LOCK system_swap)
else()
  # the Windows build under Wine: Winsock against the same peer
  add_test(NAME comfyui.windows.unreachable
           COMMAND bash ${HR_COMFY_SH} unreachable $<TARGET_FILE:headroom> ${HR_WINE})
  set_tests_properties(comfyui.windows.unreachable PROPERTIES TIMEOUT 60)
  add_test(NAME comfyui.windows.api
           COMMAND bash ${HR_COMFY_SH} api $<TARGET_FILE:headroom> ${HR_WINE})
  set_tests_properties(comfyui.windows.api PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 90 LABELS node)
endif()
