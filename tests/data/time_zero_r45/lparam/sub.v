module sub #(parameter K = 0) (input i, output o);
  generate if (K) begin : g
    reg r;
    always @(i) r = ~i;
    assign o = r;
  end else begin : h
    assign o = ~i;
  end endgenerate
endmodule
