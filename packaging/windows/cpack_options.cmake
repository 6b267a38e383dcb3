# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE): the zip unpacks into one folder,
# sortlab-<version>-win64\; NSIS installs into the folder the user chose, and refuses this option.
if(CPACK_GENERATOR STREQUAL "ZIP")
  set(CPACK_INCLUDE_TOPLEVEL_DIRECTORY ON)
endif()
