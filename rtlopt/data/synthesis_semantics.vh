// Read first by every tool rtlopt runs (generated context, not the user's code): the design is
// evaluated as synthesis reads it. iverilog predefines __ICARUS__, and some repositories switch
// on $display/$finish or behavioural models with it; undefining it keeps the reference what
// Yosys and the formal check read.
`undef __ICARUS__
