// Listed after the target: its macro is not visible to the target.
`define UNIT_LATE

module unit_late (input a, output y);
  assign y = a;
endmodule
