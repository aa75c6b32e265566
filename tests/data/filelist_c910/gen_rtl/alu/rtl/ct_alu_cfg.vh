// ALU options found through the nested filelist's +incdir+.
`include "ct_common.vh"
