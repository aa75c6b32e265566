// One compilation unit: macros flow from each file to the files listed after it.
${CODE_BASE_PATH}/rtl/unit_defs.v
${CODE_BASE_PATH}/rtl/unit_mid.v
${CODE_BASE_PATH}/rtl/unit_alu.v
${CODE_BASE_PATH}/rtl/unit_late.v
