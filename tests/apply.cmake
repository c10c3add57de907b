# apply / verify / rollback for real as root on loop-mounted images (SKIP elsewhere).
# They share the machine's swap list, so they run one at a time (RESOURCE_LOCK).
if(NOT CMAKE_CROSSCOMPILING)
  foreach(section ext4 xfs btrfs tmpfs failpoints resize hostile pressure)
    add_test(NAME apply.root.${section}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/root/apply_root.sh ${HR_BIN} ${section})
    set_tests_properties(apply.root.${section} PROPERTIES SKIP_RETURN_CODE 77
                         RESOURCE_LOCK system_swap TIMEOUT 1500)
  endforeach()
endif()

# The proof of issue 16 (root, slow): a kill at every system call of apply, a resize and
# rollback on ext4 and btrfs, five pairs of simultaneous applies, the path attacks. Each
# prints its figures (injections, inconsistent states).
if(NOT CMAKE_CROSSCOMPILING)
  foreach(section kill-ext4 kill-btrfs concurrent attacks enospc)
    add_test(NAME apply.root.proof.${section}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/root/apply_proof.sh ${HR_BIN} ${section})
    set_tests_properties(apply.root.proof.${section} PROPERTIES SKIP_RETURN_CODE 77
                         RESOURCE_LOCK system_swap TIMEOUT 1500)
  endforeach()
endif()

# What apply, rollback and verify say and exit with (issue 10's cases; --yes ones as root).
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME apply.cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/apply_cli.sh ${HR_BIN})
endif()
# apply's steps name the mounted file system (ext2 and ext3 share ext4's statfs magic).
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME apply.root.fs_type COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/root/fs_type_root.sh ${HR_BIN})
  set_tests_properties(apply.root.fs_type PROPERTIES SKIP_RETURN_CODE 77 LABELS root
                       RESOURCE_LOCK system_swap TIMEOUT 120)
endif()
