// ref (renamed t_ref) against cand on one stimulus; EN0 forces the reference's en to a
// power-up value (0 or 1) after time 0, NONE leaves it x (4-state simulation, as the harness)
module tb;
  reg clk = 0, rst = 1, d = 0;
  wire qr, qc;
  t_ref r(.clk(clk), .rst(rst), .d(d), .q(qr));
  t c(.clk(clk), .rst(rst), .d(d), .q(qc));
  integer i, bad = 0;
  initial begin
`ifdef EN0
    r.en = `EN0;
`endif
    #1 clk = 1; #1 clk = 0; rst = 0;
    for (i = 0; i < 8; i = i + 1) begin
      d = (i == 2);
      #1 clk = 1; #1 clk = 0;
      $display("cycle %0d d=%b ref=%b cand=%b", i, d, qr, qc);
      if (qr !== qc) bad = bad + 1;
    end
    $display("mismatches: %0d", bad);
  end
endmodule
