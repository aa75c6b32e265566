// Configuration header listed first in top.fl: later files use its macros without `include.
`define CT_CNT_WIDTH 6
`define CT_DATA_WIDTH 8
