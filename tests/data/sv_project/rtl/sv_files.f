// the project's filelist: the package first; sva/ does not exist in this tree
+incdir+../sva
sv_pkg.sv
sv_flop.sv
sv_inv.sv
sv_alu.sv
plain_add.v
