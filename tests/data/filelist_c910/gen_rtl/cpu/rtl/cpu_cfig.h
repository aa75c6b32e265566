// Configuration header: listed first in ct_top.fl; later files use these without `include.
`define CT_WIDTH 8
`define CT_MSB (`CT_WIDTH - 1)
`define CT_SAT_MAX {1'b0, {(`CT_WIDTH - 1){1'b1}}}
