// reference (renamed t_ref) against the candidate; AB forces the candidate's power-up
// values of a and b ({a, b}); without AB they are x (4-state simulation, as the harness)
module tb;
  reg clk = 0, rst = 1, d = 0;
  wire yr, yc;
  t_ref r(.clk(clk), .rst(rst), .d(d), .y(yr));
  t c(.clk(clk), .rst(rst), .d(d), .y(yc));
  integer i, bad = 0;
  initial begin
`ifdef AB
    {c.a, c.b} = `AB;
`endif
    #1 clk = 1; #1 clk = 0; rst = 0;
    for (i = 0; i < 8; i = i + 1) begin
      d = i[0] ^ i[2];
      #1 clk = 1; #1 clk = 0;
      if (yr !== yc) bad = bad + 1;
    end
    $display("ref=%b cand=%b at the end; mismatches in 8 cycles: %0d", yr, yc, bad);
  end
endmodule
