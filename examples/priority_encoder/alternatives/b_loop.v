// Loop form: the last set bit seen from the LSB upwards wins.
module prio_enc (
  input  wire [15:0] vec,
  input  wire        en,
  output wire [4:0]  pos,
  output wire        zero
);
  reg [4:0] p;
  integer i;
  // always_comb runs at time 0: an always @(*) over vec and en would stay x until they
  // change where a testbench holds them, while the original's net v may change then
  always_comb begin
    p = 5'd16;
    for (i = 0; i < 16; i = i + 1)
      if (vec[i] & en) p = 5'd15 - i[4:0];
  end
  assign pos = p;
  assign zero = ~|(vec & {16{en}});
endmodule
